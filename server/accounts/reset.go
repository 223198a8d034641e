package accounts

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/magneton-games/magneton/server/ids"
	"github.com/magneton-games/magneton/server/jsonapi"
	"github.com/magneton-games/magneton/server/wire"
	"github.com/magneton-games/magneton/store"
)

// handleForgot takes a request for a mail that sets a password, by user
// name or e-mail address. It answers at once, the same whether an
// account matches or not; the mailer looks the accounts up and mails
// them afterwards, so that neither the answer nor its time tells which
// accounts exist.
func (a *Accounts) handleForgot(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Who  string `json:"who"`
		Lang string `json:"lang"`
	}
	if !jsonapi.Read(w, r, &req) {
		return
	}
	if a.cfg.Mail == nil {
		jsonapi.WriteCoded(w, http.StatusNotImplemented, "mail_off", "this site sends no e-mail: ask its operator for a link to set a new password")
		return
	}
	who := strings.TrimSpace(req.Who)
	if who == "" || len(who) > 254 {
		jsonapi.WriteCoded(w, http.StatusBadRequest, "forgot_empty", "give your user name or your e-mail address")
		return
	}
	if !a.cfg.Clients.AllowReset(a.cfg.Proxies.ClientIP(r)) {
		jsonapi.WriteCoded(w, http.StatusTooManyRequests, "forgot_fast", "too many requests for a new password from your address: try again in an hour")
		return
	}
	if !a.mailer.ask(resetRequest{who: who, lang: req.Lang}) {
		a.cfg.Logger.Warn("password mail dropped: too many waiting")
	}
	jsonapi.Write(w, http.StatusAccepted, map[string]any{"asked": true})
}

// handleReset sets a new password with a link's token; it logs out every
// browser of the account. A wrong token counts as a failed login of the
// address, and is answered late.
func (a *Accounts) handleReset(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Token    string `json:"token"`
		Password string `json:"password"`
	}
	if !jsonapi.Read(w, r, &req) {
		return
	}
	if err := checkNewPassword(req.Password); err != nil {
		jsonapi.WriteRefusal(w, http.StatusBadRequest, err)
		return
	}
	att := a.startAuth(w, r, "")
	if att == nil {
		return
	}
	badLink := wire.Refuse("reset_bad", "this link does not set a password: it expired, was used already or is incomplete; ask for a new one")
	if n := len(req.Token); n < 16 || n > 64 {
		refuseLate(w, http.StatusBadRequest, badLink)
		return
	}
	var encoded string
	if err := a.hashing(r, func() { encoded = HashPassword(req.Password) }); err != nil {
		att.Refund()
		hashFailed(w, err)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), a.cfg.WriteTimeout)
	defer cancel()
	u, err := a.cfg.Store.UseReset(ctx, ids.Hash(req.Token), encoded, time.Now().UnixMilli())
	switch {
	case errors.Is(err, store.ErrNoReset):
		refuseLate(w, http.StatusBadRequest, badLink)
		return
	case err != nil:
		att.Refund()
		a.fail(w, r, err)
		return
	}
	att.Refund()
	a.cfg.Logger.Info("password set by a link", "user", u.Name)
	jsonapi.Write(w, http.StatusOK, map[string]any{"name": u.Name})
}
