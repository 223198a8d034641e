// Package moderation is what the site's moderators and players do about
// abuse: players report a player, a game or a chat line, and block a
// player (no chat, no challenges, no pairing between them); moderators (a
// role given from the command line, `magneton admin moderator`) see the
// reports and mute, ban or close accounts and take games off the ratings,
// each action logged. The other packages ask it whether an account may
// chat or play (Standing, cached for a few seconds so that a move costs no
// query), and tell it where accounts are seen, so that rated games between
// accounts sharing an address or a browser are flagged for review.
package moderation

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/magneton-games/magneton/server/identity"
	"github.com/magneton-games/magneton/server/limits"
	"github.com/magneton-games/magneton/server/wire"
	"github.com/magneton-games/magneton/store"
)

// Store is the part of the store moderation uses.
type Store interface {
	store.Moderation
	UserByName(ctx context.Context, name string) (*store.User, error)
	UserByID(ctx context.Context, id string) (*store.User, error)
	DeleteSessions(ctx context.Context, userID, tokenHash string) error
	Game(ctx context.Context, id string) (*store.Game, error)
	Chat(ctx context.Context, gameID string, fromSeq int) ([]store.ChatLine, error)
	CreateReset(ctx context.Context, r store.Reset) error
}

// Config is what moderation needs.
type Config struct {
	Store      Store
	Identities *identity.Resolver
	Clients    *limits.Clients
	Proxies    limits.Proxies
	// WriteTimeout bounds one database call.
	WriteTimeout time.Duration
	Logger       *slog.Logger
}

// Moderation answers the moderation API and the other packages' questions.
type Moderation struct {
	cfg Config
	mu  sync.Mutex
	// standings caches the accounts' standings for standingTTL.
	standings map[string]cachedStanding
}

type cachedStanding struct {
	st store.Standing
	at time.Time
}

// standingTTL is how long a standing read is believed: a mute or a ban
// made on another instance takes effect here within it.
const standingTTL = 3 * time.Second

// New makes moderation.
func New(cfg Config) *Moderation {
	return &Moderation{cfg: cfg, standings: map[string]cachedStanding{}}
}

// Standing returns an account's standing ("" for a guest: none).
func (m *Moderation) Standing(ctx context.Context, userID string) (store.Standing, error) {
	if userID == "" {
		return store.Standing{}, nil
	}
	now := time.Now()
	m.mu.Lock()
	c, ok := m.standings[userID]
	m.mu.Unlock()
	if ok && now.Sub(c.at) < standingTTL {
		return c.st, nil
	}
	ctx, cancel := context.WithTimeout(ctx, m.cfg.WriteTimeout)
	defer cancel()
	st, err := m.cfg.Store.Standing(ctx, userID)
	if err != nil {
		return st, err
	}
	m.mu.Lock()
	if len(m.standings) > 10000 {
		clear(m.standings)
	}
	m.standings[userID] = cachedStanding{st, now}
	m.mu.Unlock()
	return st, nil
}

// forget drops an account's cached standing, after a change of it here.
func (m *Moderation) forget(userID string) {
	m.mu.Lock()
	delete(m.standings, userID)
	m.mu.Unlock()
}

// CheckChat refuses a line of the account userID ("" for a guest) while it
// is muted, saying until when and why.
func (m *Moderation) CheckChat(ctx context.Context, userID string, now time.Time) error {
	st, err := m.Standing(ctx, userID)
	if err != nil || st.MutedUntil <= now.UnixMilli() {
		return err
	}
	until := time.UnixMilli(st.MutedUntil).UTC().Format("2006-01-02 15:04 UTC")
	return wire.Refuse("muted", fmt.Sprintf("chat: the moderators muted you until %s: %s", until, st.Reason),
		"until", until, "reason", st.Reason)
}

// CheckPlay refuses the actions of a banned or closed account ("" for a
// guest: none), saying why.
func (m *Moderation) CheckPlay(ctx context.Context, userID string) error {
	st, err := m.Standing(ctx, userID)
	if err != nil {
		return err
	}
	return refusalOf(st)
}

// refusalOf is what a banned or closed account is told, nil for one in
// good standing.
func refusalOf(st store.Standing) error {
	switch {
	case st.Closed != 0:
		return wire.Forbid("account_closed", "the moderators closed this account: "+st.Reason, "reason", st.Reason)
	case st.Banned != 0:
		return wire.Forbid("banned", "the moderators banned this account: "+st.Reason, "reason", st.Reason)
	}
	return nil
}

// CheckPair refuses a game or a chat between two accounts when either
// blocks the other ("" for a guest: never).
func (m *Moderation) CheckPair(ctx context.Context, a, b string) error {
	if a == "" || b == "" || a == b {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, m.cfg.WriteTimeout)
	defer cancel()
	blocked, err := m.cfg.Store.Blocked(ctx, a, b)
	if err != nil || !blocked {
		return err
	}
	return wire.Forbid("blocked", "one of you blocks the other: no games or chat between you")
}

// Seen notes where an account is seen: the request's address and browser.
func (m *Moderation) Seen(ctx context.Context, userID, addr, browser string) {
	ctx, cancel := context.WithTimeout(ctx, m.cfg.WriteTimeout)
	defer cancel()
	now := time.Now().UnixMilli()
	for kind, v := range map[string]string{store.SeenAddress: addr, store.SeenBrowser: browser} {
		if v == "" {
			continue
		}
		if err := m.cfg.Store.Seen(ctx, userID, kind, v, now); err != nil {
			m.cfg.Logger.Warn("where an account is seen not noted", "user", userID, "err", err)
		}
	}
}
