// Package lobby is the play server's games as a resource: making one
// (against the computer, or a seek or invitation for a person, rated or
// casual, with a clock or not), joining and cancelling one, reading one's
// state and record, and the lists: the lobby's open and live games (the
// first pages cached, for every home page reads them every few seconds),
// the archive, and a player's own unfinished games.
package lobby

import (
	"context"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/magneton-games/magneton/server/identity"
	"github.com/magneton-games/magneton/server/jsonapi"
	"github.com/magneton-games/magneton/server/limits"
	"github.com/magneton-games/magneton/server/live"
	"github.com/magneton-games/magneton/server/ratings"
	"github.com/magneton-games/magneton/server/round"
	"github.com/magneton-games/magneton/store"
)

// Store is the part of the store the lobby reads.
type Store interface {
	ratings.Reader
	// List returns games by status, the most recently updated first.
	List(ctx context.Context, q store.Query) ([]*store.Game, error)
	// PlayerGames returns the unfinished games in which an account or a
	// guest holds a seat.
	PlayerGames(ctx context.Context, userID, guestHash string) ([]*store.Game, error)
	// UserByName finds the account challenged; the challenges are kept
	// with the bots.
	UserByName(ctx context.Context, name string) (*store.User, error)
	ChallengesTo(ctx context.Context, userID string) ([]store.Challenge, error)
	Game(ctx context.Context, id string) (*store.Game, error)
	CreateChallenge(ctx context.Context, c store.Challenge) error
	Challenge(ctx context.Context, gameID string) (store.Challenge, error)
	DeclineChallenge(ctx context.Context, gameID string, at int64) error
}

// Config is what the lobby needs.
type Config struct {
	Store      Store
	Rooms      *round.Rooms
	Identities *identity.Resolver
	Clients    *limits.Clients
	Proxies    limits.Proxies
	// Play is what every game's play follows (the first move's time, for
	// the deadlines of a player's games).
	Play         live.Settings
	Instance     string
	WriteTimeout time.Duration
	Logger       *slog.Logger
	// Moderation says who may play whom, and notes where the players are
	// seen (nil: everyone plays everyone).
	Moderation Moderation
	// SiteURL is the site's address as its players reach it, for the
	// records' Site tag ("": the address a request reached).
	SiteURL string
	// BotGames is how many games a bot plays at once (0: no bound).
	BotGames int
}

// Moderation is what the lobby asks of the moderators' decisions (package
// moderation).
type Moderation interface {
	CheckPlay(ctx context.Context, userID string) error
	CheckPair(ctx context.Context, a, b string) error
	Seen(ctx context.Context, userID, addr, browser string)
}

// Lobby answers the games' API.
type Lobby struct {
	cfg   Config
	lists listCache
}

// New makes the lobby's handlers.
func New(cfg Config) *Lobby { return &Lobby{cfg: cfg} }

// ListsChanged drops the cached lists, when a game joins or leaves one.
func (l *Lobby) ListsChanged() { l.lists.clear() }

func (l *Lobby) fail(w http.ResponseWriter, r *http.Request, err error) {
	jsonapi.Fail(w, r, l.cfg.Logger, err)
}

// listCache keeps the first page of each list for listTTL.
type listCache struct {
	mu sync.Mutex
	m  map[string]cachedList
}

type cachedList struct {
	body []byte
	at   time.Time
}

// listTTL is how old a list may be: a new game shows in the lobby within
// it (the home page polls every 2 s).
const listTTL = time.Second

func (c *listCache) get(status string, now time.Time) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[status]
	return e.body, ok && now.Sub(e.at) < listTTL
}

// clear drops the lists.
func (c *listCache) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	clear(c.m)
}

func (c *listCache) put(status string, body []byte, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]cachedList{}
	}
	c.m[status] = cachedList{body, now}
}

// seatOf finds a game and the request's seat in it (-1 for a spectator),
// answering the client itself when there is no such game.
func (l *Lobby) seatOf(w http.ResponseWriter, r *http.Request, id string) (*round.Session, store.Game, int, bool) {
	s, err := l.cfg.Rooms.Session(r.Context(), id, false)
	if err != nil {
		l.fail(w, r, err)
		return nil, store.Game{}, -1, false
	}
	row := s.Row()
	return s, row, identity.SeatOf(r, &row, l.cfg.Identities.UserID(r)), true
}

// SetRooms gives the lobby the games in memory, made after it (the rooms
// tell the lobby when its lists change).
func (l *Lobby) SetRooms(rooms *round.Rooms) { l.cfg.Rooms = rooms }
