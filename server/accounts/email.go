package accounts

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/magneton-games/magneton/server/identity"
	"github.com/magneton-games/magneton/server/jsonapi"
	"github.com/magneton-games/magneton/server/mail"
	"github.com/magneton-games/magneton/server/wire"
	"github.com/magneton-games/magneton/store"
)

// checkEmail says what is wrong with an account's e-mail address, or
// nil; "" (none) is right.
func checkEmail(email string) error {
	if email == "" {
		return nil
	}
	if err := mail.CheckAddress(email); err != nil {
		return wire.Refuse("email_bad", fmt.Sprintf("the e-mail address %q: %v", clip(email), err), "email", clip(email))
	}
	return nil
}

// clip cuts a text to quote at 60 bytes, on a rune's boundary.
func clip(s string) string {
	if len(s) <= 60 {
		return s
	}
	cut := 60
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// loggedIn returns the account the request is logged in as, with the
// hash of its session's token; nil when it has answered (an error, or
// 401 for a guest).
func (a *Accounts) loggedIn(w http.ResponseWriter, r *http.Request) (*store.User, string) {
	u, err := a.cfg.Identities.User(r)
	switch {
	case err != nil:
		a.fail(w, r, err)
		return nil, ""
	case u == nil:
		jsonapi.WriteCoded(w, http.StatusUnauthorized, "account_login", "log in to your account first")
		return nil, ""
	}
	c, _ := r.Cookie(identity.SessionCookie)
	return u, hashOf(c)
}

// checkPassword checks the account's password for an action that needs
// it, counted as a login attempt; false when it has answered.
func (a *Accounts) checkPassword(w http.ResponseWriter, r *http.Request, u *store.User, password string) bool {
	att := a.startAuth(w, r, u.Name)
	if att == nil {
		return false
	}
	ok := false
	if err := a.hashing(r, func() { ok = CheckPassword(u.Password, password) }); err != nil {
		att.Refund()
		hashFailed(w, err)
		return false
	}
	if !ok {
		refuseLogin(w, wire.Refuse("password_wrong", "the current password is wrong"))
		return false
	}
	att.Refund()
	return true
}

// handleEmail sets or clears (email "") the account's e-mail address,
// with its password: whoever holds a browser of the account must not be
// able to send its new-password links elsewhere.
func (a *Accounts) handleEmail(w http.ResponseWriter, r *http.Request) {
	var req accountRequest
	if !jsonapi.Read(w, r, &req) {
		return
	}
	u, _ := a.loggedIn(w, r)
	if u == nil {
		return
	}
	email := strings.TrimSpace(req.Email)
	if err := checkEmail(email); err != nil {
		jsonapi.WriteRefusal(w, http.StatusBadRequest, err)
		return
	}
	if !a.checkPassword(w, r, u, req.Password) {
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), a.cfg.WriteTimeout)
	defer cancel()
	if err := a.cfg.Store.SetEmail(ctx, u.ID, email); err != nil {
		a.fail(w, r, err)
		return
	}
	u.Email = email
	a.cfg.Logger.Info("e-mail address set", "user", u.Name)
	jsonapi.Write(w, http.StatusOK, a.userJSON(r.Context(), u))
}
