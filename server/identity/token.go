package identity

import (
	"context"
	"net/http"
	"strings"

	"github.com/magneton-games/magneton/store"
)

// tokenKey is the context key of a request's API token.
type tokenKey struct{}

// tokenAuth is the account and the token of a request authenticated with
// an API token (Authorization: Bearer).
type tokenAuth struct {
	user    *store.User
	tokenID string
}

// WithToken is ctx of a request that came with the API token tokenID of
// the account u: the request then acts as u wherever the API or the game
// socket reads who it is (Resolver.User), in place of its cookies.
func WithToken(ctx context.Context, u *store.User, tokenID string) context.Context {
	return context.WithValue(ctx, tokenKey{}, tokenAuth{u, tokenID})
}

// Token returns the account and the id of the API token a request came
// with (nil and "" for a request without one).
func Token(r *http.Request) (*store.User, string) {
	a, _ := r.Context().Value(tokenKey{}).(tokenAuth)
	return a.user, a.tokenID
}

// Bearer returns the API token of a request's Authorization header
// ("Bearer TOKEN"), and whether it has one.
func Bearer(r *http.Request) (string, bool) {
	h := r.Header.Get("Authorization")
	if h == "" {
		return "", false
	}
	scheme, token, _ := strings.Cut(h, " ")
	if !strings.EqualFold(scheme, "Bearer") {
		return "", true // a header, but no bearer token: refused as a bad token
	}
	return strings.TrimSpace(token), true
}
