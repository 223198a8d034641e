// Package bots is the play server's bot accounts and their API (lichess's
// Bot API is the model): an account upgraded to a bot for good, its API
// tokens (made, listed and revoked by the owner; the store keeps their
// SHA-256), the requests that come with a token (Authenticate: they act
// as its owner everywhere the API and the game socket take a session,
// within limits per token), and the bot's event stream (GET
// /api/bot/stream): the challenges to it, and its games' starts and ends.
// The games themselves are played over the game socket; the challenges
// are package lobby's.
package bots

import (
	"context"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/magneton-games/magneton/server/identity"
	"github.com/magneton-games/magneton/server/jsonapi"
	"github.com/magneton-games/magneton/store"
)

// Store is the part of the store the bots use.
type Store interface {
	store.Bots
	Game(ctx context.Context, id string) (*store.Game, error)
	PlayerGames(ctx context.Context, userID, guestHash string) ([]*store.Game, error)
	Notify(ctx context.Context, channel, payload string) error
	Listen(ctx context.Context, channels ...string) (<-chan store.Notification, error)
}

// Limits bound what one API token may use.
type Limits struct {
	// Rate and Burst are the token bucket of a token's requests: 20 a
	// second and a burst of 40 when 0.
	Rate  float64
	Burst int
	// Streams is how many event streams a token may have open at once
	// on one instance (1 when 0); Games how many games a bot plays at
	// once (4 when 0).
	Streams int
	Games   int
}

// WithDefaults is l with each zero field at its default.
func (l Limits) WithDefaults() Limits {
	if l.Rate <= 0 {
		l.Rate = 20
	}
	if l.Burst <= 0 {
		l.Burst = 40
	}
	if l.Streams <= 0 {
		l.Streams = 1
	}
	if l.Games <= 0 {
		l.Games = 4
	}
	return l
}

// Config is what the bots need.
type Config struct {
	Store        Store
	Identities   *identity.Resolver
	Limits       Limits
	WriteTimeout time.Duration
	Logger       *slog.Logger
	// Poll is how often an event stream looks for news (500 ms when 0);
	// KeepAlive how often it sends a blank line when it has none (10 s
	// when 0).
	Poll, KeepAlive time.Duration
}

// revokedChannel carries the ids of revoked tokens to every instance,
// which closes their open streams and sockets.
const revokedChannel = "token_revoked"

// Bots answers the bots' and the tokens' API.
type Bots struct {
	cfg    Config
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	mu     sync.Mutex
	open   map[string]map[*request]struct{} // the requests in progress of each token
	rates  map[string]*rate.Limiter         // each token's requests
	seen   identity.Sightings               // which tokens' uses this instance writes
}

// New makes the bots' handlers, listening for revoked tokens until
// Close.
func New(cfg Config) (*Bots, error) {
	cfg.Limits = cfg.Limits.WithDefaults()
	if cfg.Poll <= 0 {
		cfg.Poll = 500 * time.Millisecond
	}
	if cfg.KeepAlive <= 0 {
		cfg.KeepAlive = 10 * time.Second
	}
	b := &Bots{cfg: cfg, open: map[string]map[*request]struct{}{}, rates: map[string]*rate.Limiter{}, seen: identity.Sightings{Every: touchEvery}}
	b.ctx, b.cancel = context.WithCancel(context.Background())
	ch, err := cfg.Store.Listen(b.ctx, revokedChannel)
	if err != nil {
		b.cancel()
		return nil, err
	}
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		for n := range ch {
			if !n.Reconnected {
				b.closeToken(n.Payload)
			}
		}
	}()
	return b, nil
}

// Close stops the listener and ends the open streams.
func (b *Bots) Close() {
	b.cancel()
	b.wg.Wait()
}

// Routes adds the bots' API to mux.
func (b *Bots) Routes(mux *http.ServeMux) {
	mux.HandleFunc("POST /api/account/tokens", b.handleCreateToken)
	mux.HandleFunc("GET /api/account/tokens", b.handleTokens)
	mux.HandleFunc("POST /api/account/tokens/{id}/revoke", b.handleRevoke)
	mux.HandleFunc("POST /api/account/bot", b.handleUpgrade)
	mux.HandleFunc("GET /api/bot/stream", b.handleStream)
}

func (b *Bots) fail(w http.ResponseWriter, r *http.Request, err error) {
	jsonapi.Fail(w, r, b.cfg.Logger, err)
}
