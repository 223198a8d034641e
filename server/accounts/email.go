package accounts

import (
	"context"
	"net/http"
	"strings"

	"github.com/magneton-games/magneton/server/jsonapi"
	"github.com/magneton-games/magneton/server/wire"
	"github.com/magneton-games/magneton/store"
)

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
