package server

import (
	"net/http"

	"github.com/magneton-games/magneton/server/jsonapi"
	"github.com/magneton-games/magneton/server/limits"
)

// securityHeaders go on every answer: the site's pages load only their
// own scripts, styles and sockets, and no other site may frame them;
// 'wasm-unsafe-eval' lets the browser's engine (WebAssembly) compile,
// without allowing JavaScript's eval.
var securityHeaders = map[string]string{
	"Content-Security-Policy": "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; " +
		"connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
	"X-Frame-Options":        "DENY",
	"Referrer-Policy":        "same-origin",
	"X-Content-Type-Options": "nosniff",
}

// guard is the server's front door: it sets the security headers, and
// refuses a request that changes something (any method but GET and HEAD)
// or opens a game's socket when its Origin is another site's, by host or
// by scheme.
func guard(proxies limits.Proxies, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for k, v := range securityHeaders {
			w.Header().Set(k, v)
		}
		changes := r.Method != http.MethodGet && r.Method != http.MethodHead
		if (changes || r.Header.Get("Upgrade") != "") && !jsonapi.SameOrigin(r, proxies.OverTLS(r)) {
			jsonapi.WriteError(w, http.StatusForbidden, jsonapi.CrossSite)
			return
		}
		next.ServeHTTP(w, r)
	})
}
