package bots

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/magneton-games/magneton/server/identity"
	"github.com/magneton-games/magneton/server/ids"
	"github.com/magneton-games/magneton/server/jsonapi"
	"github.com/magneton-games/magneton/store"
)

// TokenPrefix begins every API token, so that one is told at sight (and
// by secret scanners).
const TokenPrefix = "mgt_"

// MaxTokens is how many unrevoked tokens an account may have.
const MaxTokens = 10

// MaxLabel bounds a token's label, in characters.
const MaxLabel = 60

// TokenInfo is a token as its owner's list shows it (never the token).
type TokenInfo struct {
	ID      string `json:"id"`
	Label   string `json:"label"`
	Created int64  `json:"created"`
	Used    int64  `json:"used"`    // 0 for never
	Revoked int64  `json:"revoked"` // 0 for not
}

// NewToken is the answer to a token's creation: the token itself, shown
// this once.
type NewToken struct {
	TokenInfo
	Token string `json:"token"`
}

// Info is t as its owner's list, and the account's data download, show it.
func Info(t store.Token) TokenInfo {
	return TokenInfo{ID: t.ID, Label: t.Label, Created: t.Created, Used: t.Used, Revoked: t.Revoked}
}

// owner returns the logged-in account of a request that manages tokens,
// answering the client itself when there is none, or when the request
// came with a token (tokens are managed from a logged-in browser, so that
// a token leaked cannot make more).
func (b *Bots) owner(w http.ResponseWriter, r *http.Request) (*store.User, bool) {
	if _, id := identity.Token(r); id != "" {
		jsonapi.WriteCoded(w, http.StatusForbidden, "token_session", "API tokens are managed from a logged-in browser, not with a token")
		return nil, false
	}
	u, err := b.cfg.Identities.User(r)
	if err != nil {
		b.fail(w, r, err)
		return nil, false
	}
	if u == nil {
		jsonapi.WriteCoded(w, http.StatusUnauthorized, "token_login", "log in to manage your API tokens")
		return nil, false
	}
	return u, true
}

func (b *Bots) handleCreateToken(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Label string `json:"label"`
	}
	if !jsonapi.Read(w, r, &req) {
		return
	}
	u, ok := b.owner(w, r)
	if !ok {
		return
	}
	label := strings.TrimSpace(req.Label)
	if n := utf8.RuneCountInString(label); n == 0 || n > MaxLabel {
		jsonapi.WriteCoded(w, http.StatusBadRequest, "token_label", fmt.Sprintf("a token's label is 1 to %d characters, not %d", MaxLabel, n),
			"max", fmt.Sprint(MaxLabel), "n", fmt.Sprint(n))
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), b.cfg.WriteTimeout)
	defer cancel()
	list, err := b.cfg.Store.Tokens(ctx, u.ID)
	if err != nil {
		b.fail(w, r, err)
		return
	}
	live := 0
	for _, t := range list {
		if t.Revoked == 0 {
			live++
		}
	}
	if live >= MaxTokens {
		jsonapi.WriteCoded(w, http.StatusConflict, "tokens_max", fmt.Sprintf("you have %d API tokens: revoke one first", live), "max", fmt.Sprint(MaxTokens))
		return
	}
	secret := TokenPrefix + ids.Token()
	t := store.Token{ID: ids.New(), UserID: u.ID, Label: label, TokenHash: ids.Hash(secret), Created: time.Now().UnixMilli()}
	if err := b.cfg.Store.CreateToken(ctx, &t); err != nil {
		b.fail(w, r, err)
		return
	}
	b.cfg.Logger.Info("API token made", "user", u.ID, "token", t.ID)
	jsonapi.Write(w, http.StatusCreated, NewToken{TokenInfo: Info(t), Token: secret})
}

func (b *Bots) handleTokens(w http.ResponseWriter, r *http.Request) {
	u, ok := b.owner(w, r)
	if !ok {
		return
	}
	list, err := b.cfg.Store.Tokens(r.Context(), u.ID)
	if err != nil {
		b.fail(w, r, err)
		return
	}
	out := []TokenInfo{}
	for _, t := range list {
		out = append(out, Info(t))
	}
	jsonapi.Write(w, http.StatusOK, map[string]any{"tokens": out, "bot": u.Bot})
}

func (b *Bots) handleRevoke(w http.ResponseWriter, r *http.Request) {
	id, ok := jsonapi.PathIDAndEmptyBody(w, r)
	if !ok {
		return
	}
	u, ok := b.owner(w, r)
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), b.cfg.WriteTimeout)
	defer cancel()
	done, err := b.cfg.Store.RevokeToken(ctx, u.ID, id, time.Now().UnixMilli())
	if err != nil {
		b.fail(w, r, err)
		return
	}
	if !done {
		jsonapi.WriteCoded(w, http.StatusNotFound, "token_none", "you have no such API token, or it was revoked already", "id", id)
		return
	}
	// Every instance ends the token's streams and sockets (this one
	// too: the store hears its own notifications).
	if err := b.cfg.Store.Notify(ctx, revokedChannel, id); err != nil {
		b.cfg.Logger.Warn("revoked token not announced; closing its connections here only", "err", err)
		b.closeToken(id)
	}
	b.cfg.Logger.Info("API token revoked", "user", u.ID, "token", id)
	jsonapi.Write(w, http.StatusOK, map[string]any{"id": id, "revoked": true})
}

// handleUpgrade makes the logged-in account a bot, for good: only an
// account without a rated game, and only when the request confirms it.
func (b *Bots) handleUpgrade(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Confirm bool `json:"confirm"`
	}
	if !jsonapi.Read(w, r, &req) {
		return
	}
	u, err := b.cfg.Identities.User(r)
	if err != nil {
		b.fail(w, r, err)
		return
	}
	switch {
	case u == nil:
		jsonapi.WriteCoded(w, http.StatusUnauthorized, "bot_login", "log in to make your account a bot")
		return
	case u.Bot:
		jsonapi.Write(w, http.StatusOK, map[string]any{"bot": true})
		return
	case !req.Confirm:
		jsonapi.WriteCoded(w, http.StatusBadRequest, "bot_confirm", `making an account a bot cannot be undone: it then plays only through the API, with a token; send {"confirm": true}`)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), b.cfg.WriteTimeout)
	defer cancel()
	err = b.cfg.Store.MakeBot(ctx, u.ID, time.Now().UnixMilli())
	if errors.Is(err, store.ErrRatedBefore) {
		jsonapi.WriteCoded(w, http.StatusConflict, "bot_rated", "only an account that has played no rated game can become a bot")
		return
	}
	if err != nil {
		b.fail(w, r, err)
		return
	}
	b.cfg.Logger.Info("account made a bot", "user", u.ID)
	jsonapi.Write(w, http.StatusOK, map[string]any{"bot": true})
}
