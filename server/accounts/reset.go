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

// How long a link that sets a password lasts: a mailed one an hour; an
// operator's (magneton admin reset-link) a day by default, since it
// travels by hand.
const (
	MailLinkLife  = time.Hour
	AdminLinkLife = 24 * time.Hour
)

// resetQueue bounds the requests for mail waiting for the mailer; more
// are dropped (and answered as the others: the answer says nothing).
const resetQueue = 64

// maxPerAddress bounds the accounts one request by e-mail address mails.
const maxPerAddress = 5

// ResetMaker is the part of the store that keeps a new link.
type ResetMaker interface {
	CreateReset(ctx context.Context, r store.Reset) error
}

// ResetStore is the part of the store that keeps the links and uses them.
type ResetStore interface {
	ResetMaker
	UseReset(ctx context.Context, tokenHash, password string, now int64) (*store.User, error)
}

// IssueReset makes a one-time link for the account userID, valid for
// life: it returns the link's token, whose hash only the store keeps.
func IssueReset(ctx context.Context, st ResetMaker, userID string, life time.Duration, via string) (string, error) {
	token := ids.Token()
	now := time.Now()
	err := st.CreateReset(ctx, store.Reset{TokenHash: ids.Hash(token), UserID: userID, Created: now.UnixMilli(), Expires: now.Add(life).UnixMilli(), Via: via})
	if err != nil {
		return "", err
	}
	return token, nil
}

// ResetLink is the page that sets a password with token, on the site at
// siteURL. The token is in the fragment, which browsers never send, so
// that it is in no server's or proxy's log.
func ResetLink(siteURL, token string) string {
	return strings.TrimSuffix(siteURL, "/") + "/reset#" + token
}

// resetRequest is one request for a mail: the name or address given, and
// the language of the page that asked.
type resetRequest struct {
	who, lang string
}

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
	select {
	case a.resets <- resetRequest{who: who, lang: req.Lang}:
	default:
		a.cfg.Logger.Warn("password mail dropped: too many waiting")
	}
	jsonapi.Write(w, http.StatusAccepted, map[string]any{"asked": true})
}

// mailer answers the requests for mail, one at a time, until Close.
func (a *Accounts) mailer() {
	defer a.wg.Done()
	for {
		select {
		case <-a.ctx.Done():
			return
		case req := <-a.resets:
			a.mailResets(req)
		}
	}
}

// mailResets mails a link to each account a request names that has an
// e-mail address, within each account's limit.
func (a *Accounts) mailResets(req resetRequest) {
	ctx, cancel := context.WithTimeout(a.ctx, time.Minute)
	defer cancel()
	users, err := a.resetAccounts(ctx, req.who)
	if err != nil {
		a.cfg.Logger.Warn("password mail: accounts not read", "err", err)
		return
	}
	for _, u := range users {
		if u.Email == "" {
			continue
		}
		if !a.cfg.Clients.AllowAccountReset(u.ID) {
			a.cfg.Logger.Info("password mail held back: too many for the account", "user", u.Name)
			continue
		}
		token, err := IssueReset(ctx, a.cfg.Store, u.ID, MailLinkLife, store.ResetByMail)
		if err != nil {
			a.cfg.Logger.Warn("password mail: link not made", "user", u.Name, "err", err)
			continue
		}
		msg := resetMail(req.lang, u, a.cfg.SiteURL, ResetLink(a.cfg.SiteURL, token))
		if err := a.cfg.Mail.Send(ctx, msg); err != nil {
			a.cfg.Logger.Warn("password mail not sent", "user", u.Name, "err", err)
			continue
		}
		a.cfg.Logger.Info("password mail sent", "user", u.Name)
	}
}

// resetAccounts are the accounts a request names: the one of that name,
// or those of that e-mail address (which holds an @, as no name does).
func (a *Accounts) resetAccounts(ctx context.Context, who string) ([]*store.User, error) {
	if strings.Contains(who, "@") {
		return a.cfg.Store.UsersByEmail(ctx, who, maxPerAddress)
	}
	u, err := a.cfg.Store.UserByName(ctx, who)
	if errors.Is(err, store.ErrNoUser) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return []*store.User{u}, nil
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
