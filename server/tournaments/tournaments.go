// Package tournaments is the play server's tournaments: an arena, a Swiss
// or a round robin, made by a logged-in player or by the site's schedule
// (schedule.go: recurring arenas with no creator), entered, left and paused
// by players (the HTTP API of docs/protocol.md), and run by a director:
// one instance at a time, the holder of the tournament's lease (as a
// game's, alive with the instance's heartbeat and taken over once it is
// dead), reads the store about every second, records the results of the
// tournament's games that ended and pairs the next games. The pairing
// rules and the standings are package tournament's; every state is in the
// store, written so that a director killed mid-way loses and repeats
// nothing: a round's (or an arena's batch of) pairings and their games
// are written in one transaction that checks the lease.
package tournaments

import (
	"context"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/magneton-games/magneton/server/identity"
	"github.com/magneton-games/magneton/server/jsonapi"
	"github.com/magneton-games/magneton/server/limits"
	"github.com/magneton-games/magneton/server/ratings"
	"github.com/magneton-games/magneton/server/round"
	"github.com/magneton-games/magneton/store"
)

// Store is the part of the store tournaments use.
type Store interface {
	store.Tournaments
	store.Chats
	ratings.Reader
	UserByName(ctx context.Context, name string) (*store.User, error)
}

// Config is what the tournaments need.
type Config struct {
	Store      Store
	Rooms      *round.Rooms
	Identities *identity.Resolver
	Clients    *limits.Clients
	Proxies    limits.Proxies
	// Moderation refuses banned or closed accounts, and muted ones in
	// the chat (nil: nobody).
	Moderation interface {
		CheckPlay(ctx context.Context, userID string) error
		CheckChat(ctx context.Context, userID string, now time.Time) error
	}
	// IsBot says whether an account is a bot's, for the tournaments that
	// allow bots or not; nil: no account is.
	IsBot        func(ctx context.Context, userID string) (bool, error)
	Instance     string
	WriteTimeout time.Duration
	Logger       *slog.Logger
	// Poll is how often the director reads its tournaments; 0 means 1 s.
	Poll time.Duration
	// ArenaMinute is how long one of an arena's minutes lasts; 0 means a
	// minute (tests shorten it, so that a 10-minute arena takes seconds).
	ArenaMinute time.Duration
	// Schedule is the arenas the site makes by itself (none if empty;
	// DefaultSchedule is the site's usual one), looked at every
	// SchedulePoll (0 means 30 s) by every instance.
	Schedule     []ScheduleEntry
	SchedulePoll time.Duration
}

// Tournaments answers the tournaments' API and directs them.
type Tournaments struct {
	cfg    Config
	chats  chats
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// The limits of a tournament made by a player.
const (
	MaxOpen                  = 2       // unfinished tournaments an account has made
	MinArena, MaxArena       = 10, 180 // an arena's minutes
	MinRounds, MaxRounds     = 3, 11
	MinPlayers, MaxRRPlayers = 3, 16 // to start a Swiss or round robin; a round robin's entries
	MaxAhead                 = 30 * 24 * time.Hour
	listFinished             = 20
)

// New makes the tournaments' handlers; Start starts the director.
func New(cfg Config) *Tournaments {
	if cfg.Poll <= 0 {
		cfg.Poll = time.Second
	}
	if cfg.SchedulePoll <= 0 {
		cfg.SchedulePoll = 30 * time.Second
	}
	if cfg.ArenaMinute <= 0 {
		cfg.ArenaMinute = time.Minute
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	t := &Tournaments{cfg: cfg}
	t.ctx, t.cancel = context.WithCancel(context.Background())
	return t
}

// Routes adds the tournaments' API to mux.
func (t *Tournaments) Routes(mux *http.ServeMux) {
	mux.HandleFunc("POST /api/tournaments", t.handleCreate)
	mux.HandleFunc("GET /api/tournaments", t.handleList)
	mux.HandleFunc("GET /api/tournaments/{id}", t.handleShow)
	mux.HandleFunc("POST /api/tournaments/{id}/join", t.handleJoin)
	mux.HandleFunc("POST /api/tournaments/{id}/withdraw", t.handleWithdraw)
	mux.HandleFunc("POST /api/tournaments/{id}/pause", t.handlePause)
	mux.HandleFunc("POST /api/tournaments/{id}/start", t.handleStart)
	mux.HandleFunc("GET /api/tournaments/{id}/chat", t.handleChat)
	mux.HandleFunc("POST /api/tournaments/{id}/chat", t.handleSay)
}

// Start starts the director, until Close.
func (t *Tournaments) Start() {
	t.wg.Add(1)
	go t.direct()
}

// Close stops the director, waits for it, and gives up its tournaments'
// leases, so that another instance directs them at once.
func (t *Tournaments) Close() {
	t.cancel()
	t.wg.Wait()
	ctx, cancel := context.WithTimeout(context.Background(), t.cfg.WriteTimeout)
	defer cancel()
	if err := t.cfg.Store.ReleaseTournaments(ctx, t.cfg.Instance); err != nil {
		t.cfg.Logger.Warn("tournaments' leases not released", "err", err)
	}
}

func (t *Tournaments) fail(w http.ResponseWriter, r *http.Request, err error) {
	jsonapi.Fail(w, r, t.cfg.Logger, err)
}

// dbContext is a context for one of the director's writes.
func (t *Tournaments) dbContext() (context.Context, context.CancelFunc) {
	return context.WithTimeout(t.ctx, t.cfg.WriteTimeout+5*time.Second)
}
