// Package computer runs the play server's engine searches: the computer
// opponents' moves and the analyses. The cores are shared fairly: at most
// Config.Thinkers searches run at once, at most PerClient of one client's
// games, and a core that frees goes to the waiting client with the fewest
// searches running, so that one client's fifty games wait behind each
// other, not in front of everyone else's. A player, and the
// transposition table that is most of its memory, is made when its search
// has a core and dropped after the move: the searches waiting hold no
// memory.
//
// A pool reports what monitoring wants (Config.Metrics, Stats) without
// knowing how it is shown: the searches waiting, their waits and the
// memory of the tables in use.
package computer

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/server/fair"
)

// Config sizes a Pool; zero fields take their defaults.
type Config struct {
	// Thinkers bounds the computer players searching at once; 0 means
	// the number of CPUs.
	Thinkers int
	// PerClient bounds the searches of one client's games at once; 0 means
	// Thinkers.
	PerClient int
	// Analyses bounds the analyses (and review positions) searched at
	// once; 0 means 1.
	Analyses int
	// MemoryMB bounds the transposition tables of all the searches at
	// once; 0 means 256.
	MemoryMB int
	// MoveTime is the computer's thinking time per move in games without
	// a clock; 0 uses 1 s at level 8 and 300 ms below.
	MoveTime time.Duration
	// Metrics hears of each search's wait; nil reports nothing.
	Metrics Metrics
}

// Metrics hears what a pool measures as it happens, for monitoring
// (package server/metrics shows it to Prometheus). It is called from many
// goroutines, once a search: it must be cheap and safe for concurrent use.
type Metrics interface {
	// Waited is how long a search waited for its core (analysis: for an
	// analysis slot), once it has it; a search that gave up waiting is
	// not reported.
	Waited(analysis bool, d time.Duration)
}

// noMetrics reports nothing.
type noMetrics struct{}

func (noMetrics) Waited(bool, time.Duration) {}

// Stats is what a pool holds at one moment, for monitoring.
type Stats struct {
	// Waiting and AnalysesWaiting are the searches waiting for a core,
	// and the analyses waiting for a slot.
	Waiting, AnalysesWaiting int
	// TableMB is the memory of the transposition tables of the searches
	// that have a core or slot now (the waiting ones hold none).
	TableMB int
}

// Pool shares the cores among the searches.
type Pool struct {
	cfg      Config
	sched    *fair.Scheduler
	analyses *fair.Scheduler
	tableMB  atomic.Int64 // of the searches running
}

// NewPool makes a pool.
func NewPool(cfg Config) *Pool {
	if cfg.Thinkers <= 0 {
		cfg.Thinkers = runtime.NumCPU()
	}
	if cfg.Analyses <= 0 {
		cfg.Analyses = 1
	}
	if cfg.MemoryMB <= 0 {
		cfg.MemoryMB = 256
	}
	if cfg.Metrics == nil {
		cfg.Metrics = noMetrics{}
	}
	m := cfg.Metrics
	sched := fair.New(fair.Options{Slots: cfg.Thinkers, PerKey: cfg.PerClient, Waited: func(d time.Duration) { m.Waited(false, d) }})
	analyses := fair.New(fair.Options{Slots: cfg.Analyses, ByUse: true, Waited: func(d time.Duration) { m.Waited(true, d) }})
	return &Pool{cfg: cfg, sched: sched, analyses: analyses}
}

// Stats is what the pool holds now.
func (p *Pool) Stats() Stats {
	return Stats{Waiting: p.sched.Waiting(), AnalysesWaiting: p.analyses.Waiting(), TableMB: int(p.tableMB.Load())}
}

// holdTable counts a table of mb in use until the returned func is
// called.
func (p *Pool) holdTable(mb int) (drop func()) {
	p.tableMB.Add(int64(mb))
	return func() { p.tableMB.Add(-int64(mb)) }
}

// TableMB is the transposition table of one search at a level: a share of
// the memory for each search that may run at once, 16 MB at the most at
// level 8 and 2 MB below (more does not help them).
func (p *Pool) TableMB(level int) int {
	share := p.cfg.MemoryMB / (p.cfg.Thinkers + p.cfg.Analyses)
	want := 2
	if level >= 8 {
		want = 16
	}
	return max(1, min(want, share))
}

// MoveTime is the computer's thinking time per move at a level, without a
// clock.
func (p *Pool) MoveTime(level int) time.Duration {
	switch {
	case p.cfg.MoveTime > 0:
		return p.cfg.MoveTime
	case level >= 8:
		return time.Second
	}
	return 300 * time.Millisecond
}

// Player makes the player of a level for rules, its table sized for the
// pool.
func (p *Pool) Player(level int, rules game.Rules) (ai.Player, error) {
	return games.NewPlayer(fmt.Sprintf("level:%d", level), rules, ai.Config{HashMB: p.TableMB(level)})
}

// Acquire waits for a core for a search of client's; release gives it
// back.
func (p *Pool) Acquire(ctx context.Context, client string) (release func(), err error) {
	return p.sched.Acquire(ctx, client)
}

// Play finds the computer's move at level in g (which it only reads) for
// client's game. It waits for a core, makes the player, then asks ready
// for the search's limits: ready is where the game's clock starts again
// (the wait was not the computer's time), and false from it means the
// game moved on meanwhile and no move is wanted (Play then returns "" and
// no error).
func (p *Pool) Play(ctx context.Context, client string, level int, g *game.Game, ready func() (ai.Limits, bool)) (string, error) {
	release, err := p.Acquire(ctx, client)
	if err != nil {
		return "", err
	}
	defer release()
	defer p.holdTable(p.TableMB(level))()
	player, err := p.Player(level, g.Rules())
	if err != nil {
		return "", fmt.Errorf("no computer player: %w", err)
	}
	lim, ok := ready()
	if !ok {
		return "", nil
	}
	return player.Move(ctx, g, lim)
}

// Analysis waits for one of the analysis slots for client; done gives it
// back. A slot that frees goes to the waiting client that has used the
// slots least lately, so that clients who keep them busy wait behind those
// who ask now and then. An analysis searches with a table of TableMB(8),
// counted in Stats while it holds the slot.
func (p *Pool) Analysis(ctx context.Context, client string) (done func(), err error) {
	release, err := p.analyses.Acquire(ctx, client)
	if err != nil {
		return nil, err
	}
	drop := p.holdTable(p.TableMB(8))
	var once sync.Once // as release: a second call must not count the table out twice
	return func() { once.Do(func() { drop(); release() }) }, nil
}
