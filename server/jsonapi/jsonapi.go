// Package jsonapi reads the play server's JSON requests and writes its
// answers: bodies that are bounded, declared JSON and sent by the site's
// own pages, answers marked not to be cached, and errors as the protocol
// says them (docs/protocol.md): {"error": text} with, for a refusal
// (wire.Refusal), the code and values a front end words itself.
package jsonapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"net/url"
	"reflect"
	"strings"

	"github.com/magneton-games/magneton/server/ids"
	"github.com/magneton-games/magneton/server/wire"
	"github.com/magneton-games/magneton/store"
)

// MaxBody bounds every request body.
const MaxBody = 16 << 10

// Write answers with a JSON value.
func Write(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		http.Error(w, `{"error":"internal error"}`, http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(append(b, '\n'))
}

// WriteRaw answers 200 with a JSON body made already.
func WriteRaw(w http.ResponseWriter, b []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(b)
}

// Marshal encodes a value the server made, which always encodes.
func Marshal(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // the protocol's types always marshal
	}
	return b
}

// WriteError answers with {"error": msg}.
func WriteError(w http.ResponseWriter, status int, msg string) {
	Write(w, status, map[string]string{"error": msg})
}

// WriteRefusal answers err with status: a wire.Refusal with its code and
// values, anything else as its text.
func WriteRefusal(w http.ResponseWriter, status int, err error) {
	var rf wire.Refusal
	if errors.As(err, &rf) {
		Write(w, status, rf.JSON("error"))
		return
	}
	WriteError(w, status, err.Error())
}

// WriteCoded answers a refusal that the front end words itself (see
// wire.Refuse).
func WriteCoded(w http.ResponseWriter, status int, code, msg string, vars ...string) {
	WriteRefusal(w, status, wire.Refuse(code, msg, vars...))
}

// Fail answers an error of a game's work or of the store: a missing game
// 404, a refusal 409 (503 for a write the database refused), a request
// that took too long 503, anything else 500, logged.
func Fail(w http.ResponseWriter, r *http.Request, log *slog.Logger, err error) {
	var rf wire.Refusal
	switch {
	case errors.Is(err, store.ErrNotFound):
		WriteCoded(w, http.StatusNotFound, "no_game", "no such game")
	case errors.As(err, &rf):
		status := http.StatusConflict
		if rf.Msg == wire.ErrSave.Msg {
			status = http.StatusServiceUnavailable
		}
		WriteRefusal(w, status, rf)
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		WriteCoded(w, http.StatusServiceUnavailable, "too_slow", "the request took too long")
	default:
		log.Error("request failed", "method", r.Method, "path", r.URL.Path, "err", err)
		WriteCoded(w, http.StatusInternalServerError, "internal", "internal error")
	}
}

// CrossSite is the refusal of a request that another site's page sent.
const CrossSite = "cross-site request refused: this API takes requests from its own pages only"

// Read reads a request body of at most MaxBody bytes into v, refusing
// fields of the wrong type and trailing data; false when it has answered
// an error. It first refuses what a web page of another site could send:
// a body that is not declared JSON (a plain HTML form cannot declare it
// without the browser asking this server first, which it never allows)
// and a request that says it comes from another site (a browser's
// Sec-Fetch-Site; the server checks the Origin of every request that
// changes anything before it gets here, SameOrigin).
func Read(w http.ResponseWriter, r *http.Request, v any) bool {
	if r.Header.Get("Sec-Fetch-Site") == "cross-site" {
		WriteError(w, http.StatusForbidden, CrossSite)
		return false
	}
	if ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); ct != "application/json" {
		WriteError(w, http.StatusUnsupportedMediaType, fmt.Sprintf("the body must be JSON with Content-Type: application/json, not %q", r.Header.Get("Content-Type")))
		return false
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBody))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			WriteError(w, http.StatusBadRequest, fmt.Sprintf("the body is over %d bytes", MaxBody))
		} else {
			WriteError(w, http.StatusBadRequest, "reading the body: "+err.Error())
		}
		return false
	}
	if len(strings.TrimSpace(string(body))) == 0 {
		body = []byte("{}")
	}
	if err := json.Unmarshal(body, v); err != nil {
		WriteError(w, http.StatusBadRequest, "bad JSON body: "+DecodeError(err))
		return false
	}
	return true
}

// SameOrigin reports whether a request comes from this server's own pages
// or from a program that is no browser: an Origin header, when there is
// one, must name the scheme (https when the request came over TLS, as tls
// says) and the host the request was sent to, and a browser's
// Sec-Fetch-Site must not say cross-site.
func SameOrigin(r *http.Request, tls bool) bool {
	if r.Header.Get("Sec-Fetch-Site") == "cross-site" {
		return false
	}
	origin := r.Header.Get("Origin")
	if origin == "" {
		return true
	}
	scheme := "http"
	if tls {
		scheme = "https"
	}
	u, err := url.Parse(origin)
	return err == nil && u.Host != "" && strings.EqualFold(u.Host, r.Host) && strings.EqualFold(u.Scheme, scheme)
}

// DecodeError says what is wrong with a JSON text that did not decode, in
// the protocol's words rather than Go's.
func DecodeError(err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn) && syn.Error() == "unexpected end of JSON input",
		errors.Is(err, io.ErrUnexpectedEOF):
		return "the JSON text ends too early"
	case errors.As(err, &syn):
		return fmt.Sprintf("not JSON (at byte %d: %v)", syn.Offset, syn)
	case errors.As(err, &typ):
		if typ.Field == "" {
			return fmt.Sprintf("want a JSON object, not %s", typ.Value)
		}
		want, got := "a "+jsonKind(typ.Type), typ.Value
		if lo, hi, ok := intRange(typ.Type); ok && strings.HasPrefix(got, "number") {
			// A number that a whole-number field cannot hold (too
			// big, or a fraction): "a number, not number 1e30"
			// would say nothing.
			want, got = fmt.Sprintf("a whole number from %d to %d", lo, hi), strings.TrimPrefix(got, "number ")
		}
		return fmt.Sprintf("field %q must be %s, not %s", typ.Field, want, got)
	}
	return "not a JSON object"
}

// intRange is the range of an integer type; ok is false for others.
func intRange(t reflect.Type) (lo int64, hi uint64, ok bool) {
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		bits := t.Bits()
		return -1 << (bits - 1), 1<<(bits-1) - 1, true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return 0, 1<<t.Bits() - 1, true
	}
	return 0, 0, false
}

// jsonKind names a Go type as its JSON kind.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return "number"
	case reflect.Slice, reflect.Array:
		return "array"
	}
	return "object"
}

// PathID reads and checks the {id} of a path; false when it has answered
// 404.
func PathID(w http.ResponseWriter, r *http.Request) (string, bool) {
	id := r.PathValue("id")
	if !ids.Valid(id) {
		WriteCoded(w, http.StatusNotFound, "no_game", "no such game")
		return "", false
	}
	return id, true
}

// PathIDAndEmptyBody reads the {id} of a POST path and its body, which
// must be an empty JSON object; false when it has answered an error.
func PathIDAndEmptyBody(w http.ResponseWriter, r *http.Request) (string, bool) {
	id, ok := PathID(w, r)
	if !ok {
		return "", false
	}
	var req struct{}
	return id, Read(w, r, &req)
}
