// Package identity tells who a request comes from, by its API token
// (Authorization: Bearer, checked by package bots: WithToken) or by its
// cookies: a logged-in account (a session cookie whose token the database keeps
// hashed), else a guest (a generated name such as "Guest-4821", kept with
// a random token in a cookie, so that anyone can play at once), and which
// seat of a game it holds (a seat cookie per game, or the account's
// seat, so that a logged-in player has their seat on every device).
package identity

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/magneton-games/magneton/server/ids"
	"github.com/magneton-games/magneton/server/limits"
	"github.com/magneton-games/magneton/server/live"
	"github.com/magneton-games/magneton/store"
)

// The cookies, and how long a login lasts.
const (
	GuestCookie   = "guest"
	SessionCookie = "session"
	SessionLife   = 30 * 24 * time.Hour
	seatLife      = 365 * 24 * time.Hour
)

// Sessions is the part of the store that knows the logins.
type Sessions interface {
	// SessionUser returns the account of a session made after
	// createdAfter, or store.ErrNoSession.
	SessionUser(ctx context.Context, tokenHash string, createdAfter int64) (*store.User, error)
	// TouchSession records when a session was last seen.
	TouchSession(ctx context.Context, tokenHash string, at int64) error
}

// SeenEvery is how often a session's last sighting is written, at most:
// the list of an account's browsers says when each was last seen within
// that, and a busy browser costs one write in that time, not one a
// request.
const SeenEvery = 5 * time.Minute

// Resolver reads requests' identities.
type Resolver struct {
	st      Sessions
	proxies limits.Proxies
	timeout time.Duration // of a database read
	log     *slog.Logger
	seen    Sightings // which sessions' sightings this instance writes
}

// NewResolver reads identities with st, its reads bounded by timeout; the
// proxies say whether a request came over TLS (for Secure cookies).
func NewResolver(st Sessions, proxies limits.Proxies, timeout time.Duration, log *slog.Logger) *Resolver {
	return &Resolver{st: st, proxies: proxies, timeout: timeout, log: log, seen: Sightings{Every: SeenEvery}}
}

// touch writes that the session with tokenHash is seen now, unless this
// instance did within SeenEvery.
func (rs *Resolver) touch(ctx context.Context, tokenHash string) {
	now := time.Now()
	if !rs.seen.Due(tokenHash, now) {
		return
	}
	if err := rs.st.TouchSession(ctx, tokenHash, now.UnixMilli()); err != nil {
		rs.log.Warn("session's sighting not saved", "err", err)
	}
}

// GuestName is the name shown for a guest token's holder.
func GuestName(tokenHash string) string {
	b, err := base64.RawURLEncoding.DecodeString(tokenHash)
	if err != nil || len(b) < 4 {
		b = []byte(tokenHash + "\x00\x00\x00\x00")
	}
	return fmt.Sprintf("Guest-%04d", binary.BigEndian.Uint32(b)%10000)
}

// Who returns the request's sender: its account when it is logged in, else
// its guest (a new one, whose cookie is set on w, for a first visit).
func (rs *Resolver) Who(w http.ResponseWriter, r *http.Request) (live.Player, error) {
	u, err := rs.User(r)
	if err != nil {
		return live.Player{}, err
	}
	if u != nil {
		return live.Player{Name: u.Name, User: u.ID, Bot: u.Bot}, nil
	}
	token := ""
	if c, err := r.Cookie(GuestCookie); err == nil && len(c.Value) >= 16 {
		token = c.Value
	} else {
		token = ids.Token()
		rs.SetCookie(w, r, GuestCookie, token, seatLife)
	}
	h := ids.Hash(token)
	return live.Player{Name: GuestName(h), Guest: h}, nil
}

// User returns the account the request is logged in as, or nil: the
// account of its API token (WithToken), else of its session cookie.
func (rs *Resolver) User(r *http.Request) (*store.User, error) {
	if u, _ := Token(r); u != nil {
		return u, nil
	}
	c, err := r.Cookie(SessionCookie)
	if err != nil || c.Value == "" {
		return nil, nil
	}
	ctx, cancel := context.WithTimeout(r.Context(), rs.timeout)
	defer cancel()
	hash := ids.Hash(c.Value)
	u, err := rs.st.SessionUser(ctx, hash, time.Now().Add(-SessionLife).UnixMilli())
	if errors.Is(err, store.ErrNoSession) {
		return nil, nil // expired or logged out: a guest again
	}
	if err == nil {
		rs.touch(ctx, hash)
	}
	return u, err
}

// Player returns who a request plays as: the account's id, or, for a
// browser not logged in, the hash of its guest token ("" for neither).
func (rs *Resolver) Player(r *http.Request) (userID, guestHash string) {
	if userID, _ = rs.Identity(r); userID != "" {
		return userID, ""
	}
	if c, err := r.Cookie(GuestCookie); err == nil && len(c.Value) >= 16 {
		return "", ids.Hash(c.Value)
	}
	return "", ""
}

// Browser returns the hash of the request's guest token: the browser, the
// same whether or not it is logged in ("" for one never seen).
func Browser(r *http.Request) string {
	if c, err := r.Cookie(GuestCookie); err == nil && len(c.Value) >= 16 {
		return ids.Hash(c.Value)
	}
	return ""
}

// Identity returns the id of the account a request is logged in as (""
// for none) and the name it goes by: the account's, the guest's of its
// guest cookie, or "" when it has neither. Unlike Who, it sets no cookie.
func (rs *Resolver) Identity(r *http.Request) (userID, name string) {
	u, err := rs.User(r)
	if err != nil {
		rs.log.Warn("session not read", "err", err)
	}
	if u != nil {
		return u.ID, u.Name
	}
	if c, err := r.Cookie(GuestCookie); err == nil && len(c.Value) >= 16 {
		return "", GuestName(ids.Hash(c.Value))
	}
	return "", ""
}

// UserID returns the id of the account a request is logged in as, "" for
// none. An error of the database counts as none: the seat cookies still
// prove the seats.
func (rs *Resolver) UserID(r *http.Request) string {
	userID, _ := rs.Identity(r)
	return userID
}

// SeatOf returns the seat whose token the request's cookie holds for a
// game, else the seat of the account userID ("" for none), else -1.
func SeatOf(r *http.Request, g *store.Game, userID string) int {
	if c, err := r.Cookie(SeatCookie(g.ID)); err == nil && c.Value != "" {
		h := ids.Hash(c.Value)
		for i, seat := range g.Seats {
			if seat != "" && seat == h {
				return i
			}
		}
	}
	if userID != "" {
		for i, u := range g.Users {
			if u == userID {
				return i
			}
		}
	}
	return -1
}

// SeatCookie is the name of the cookie of a seat in game id.
func SeatCookie(id string) string { return "seat_" + id }

// IsSeatCookie reports whether a cookie's name is a seat's.
func IsSeatCookie(name string) bool { return strings.HasPrefix(name, "seat_") }

// SetSeatCookie gives the client the token of its seat in a game.
func (rs *Resolver) SetSeatCookie(w http.ResponseWriter, r *http.Request, id, token string) {
	rs.SetCookie(w, r, SeatCookie(id), token, seatLife)
}

// SetCookie sets one of the site's cookies, for life (a negative life
// deletes it): HTTP only, same site, Secure over TLS.
func (rs *Resolver) SetCookie(w http.ResponseWriter, r *http.Request, name, value string, life time.Duration) {
	age := int(life.Seconds())
	if life < 0 {
		age = -1
	}
	http.SetCookie(w, &http.Cookie{
		Name: name, Value: value, Path: "/", MaxAge: age,
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: rs.proxies.OverTLS(r),
	})
}
