// Package analysis is the engine's service to the site's pages: the
// analysis board's searches (POST /api/analyze) with the proof searches'
// verdict, the rules engine playing moves for the pages that have no rules
// of their own (POST /api/play), and game reviews (the engine's evaluation
// of every position of a finished game, computed in the background and
// saved as it goes).
package analysis

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/magneton-games/magneton/server/computer"
	"github.com/magneton-games/magneton/server/identity"
	"github.com/magneton-games/magneton/server/limits"
	"github.com/magneton-games/magneton/store"
)

// Store is the part of the store the analyses and reviews use.
type Store interface {
	// PlaysPosition reports whether an account or guest plays a game
	// against a person now in a position.
	PlaysPosition(ctx context.Context, position, userID, guestHash string) (bool, error)
	Game(ctx context.Context, id string) (*store.Game, error)
	Moves(ctx context.Context, id string) ([]store.Move, error)
	StartReview(ctx context.Context, r *store.Review, staleBefore int64) (*store.Review, bool, error)
	SaveReview(ctx context.Context, r *store.Review) error
	Review(ctx context.Context, gameID string) (*store.Review, error)
}

// Config is what the analyses need.
type Config struct {
	Store      Store
	Pool       *computer.Pool
	Identities *identity.Resolver
	Clients    *limits.Clients
	Proxies    limits.Proxies
	Instance   string
	// WriteTimeout bounds one database write; ReviewMoveTime is the
	// engine's time for each position of a review.
	WriteTimeout, ReviewMoveTime time.Duration
	Logger                       *slog.Logger
}

// Analysis answers the engine's API.
type Analysis struct {
	cfg     Config
	ctx     context.Context // cancelled by Close: stops the reviews
	cancel  context.CancelFunc
	wg      sync.WaitGroup
	closing atomic.Bool
	// reviews admits the game reviews computed at once (one).
	reviews chan struct{}
	mu      sync.Mutex
	panics  map[string]int // the reviews' panics on this instance, by game
}

// New makes the analyses' handlers.
func New(cfg Config) *Analysis {
	a := &Analysis{cfg: cfg, reviews: make(chan struct{}, 1), panics: map[string]int{}}
	a.ctx, a.cancel = context.WithCancel(context.Background())
	return a
}

// FaultHook, when a test sets it, is called at points of the analyses'
// work ("review" before each position of a review is searched) to inject
// faults there.
var FaultHook func(point string)

func hook(point string) {
	if FaultHook != nil {
		FaultHook(point)
	}
}

// Close stops the reviews and waits for them, within ctx.
func (a *Analysis) Close(ctx context.Context) error {
	a.closing.Store(true)
	a.cancel()
	done := make(chan struct{})
	go func() {
		a.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
