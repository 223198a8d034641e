// Package fair shares a few slots (cores for searches, password hashes)
// among many clients fairly: at most a number run at once and at most a
// number of one client's, and a slot that frees goes to the waiting
// client with the fewest running, so that one client's fifty requests
// wait behind each other, not in front of everyone else's.
package fair

import (
	"context"
	"math"
	"sync"
	"time"
)

// Scheduler admits at most Options.Slots holders at once, at most
// Options.PerKey of one client (its key); a slot that frees goes to the
// waiting client with the fewest slots held (first come first served
// among equals, or by use with Options.ByUse). Safe for concurrent use.
type Scheduler struct {
	mu      sync.Mutex
	free    int
	perKey  int
	running map[string]int
	queue   []*waiter // in arrival order
	byUse   bool
	used    map[string]usage
	waited  func(time.Duration)
}

// Options are a Scheduler's.
type Options struct {
	// Slots is how many hold a slot at once (at least 1); PerKey how many
	// of them one client may hold (0: Slots).
	Slots, PerKey int
	// ByUse: among waiters with as few slots held, the slot goes to the
	// client that has used the slots least lately (its time in them,
	// halved every useHalfLife), rather than to the first come: for work
	// where a client looping long requests would otherwise take every
	// other turn.
	ByUse bool
	// Waited, if not nil, hears each wait that ended with a slot.
	Waited func(time.Duration)
}

// usage is a client's time in the slots, decayed, as of at.
type usage struct {
	seconds float64
	at      time.Time
}

// useHalfLife is how fast a client's use of the slots is forgotten.
const useHalfLife = time.Minute

// as is the usage decayed to now.
func (u usage) as(now time.Time) float64 {
	return u.seconds * math.Exp2(-now.Sub(u.at).Seconds()/useHalfLife.Seconds())
}

type waiter struct {
	key   string
	ready chan struct{}
	done  bool // given the slot, or gave up
}

// New makes a Scheduler.
func New(o Options) *Scheduler {
	o.Slots = max(o.Slots, 1)
	if o.PerKey <= 0 {
		o.PerKey = o.Slots
	}
	sc := &Scheduler{free: o.Slots, perKey: o.PerKey, running: map[string]int{}, byUse: o.ByUse, waited: o.Waited}
	if o.ByUse {
		sc.used = map[string]usage{}
	}
	return sc
}

// Acquire waits, until ctx ends, for a slot for client key; release gives
// it back (once, however often it is called).
func (sc *Scheduler) Acquire(ctx context.Context, key string) (release func(), err error) {
	w := &waiter{key: key, ready: make(chan struct{})}
	asked := time.Now()
	sc.mu.Lock()
	sc.queue = append(sc.queue, w)
	sc.dispatch()
	sc.mu.Unlock()
	select {
	case <-w.ready:
	case <-ctx.Done():
		sc.mu.Lock()
		given := w.done
		w.done = true
		sc.mu.Unlock()
		if !given {
			return nil, ctx.Err()
		}
		<-w.ready
		sc.release(key, 0)
		return nil, ctx.Err()
	}
	var once sync.Once
	start := time.Now()
	if sc.waited != nil {
		sc.waited(start.Sub(asked))
	}
	return func() { once.Do(func() { sc.release(key, time.Since(start)) }) }, nil
}

func (sc *Scheduler) release(key string, held time.Duration) {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if sc.byUse {
		now := time.Now()
		if len(sc.used) > 10000 {
			clear(sc.used) // many clients: forget the old uses at once
		}
		sc.used[key] = usage{sc.used[key].as(now) + held.Seconds(), now}
	}
	sc.free++
	if sc.running[key]--; sc.running[key] <= 0 {
		delete(sc.running, key)
	}
	sc.dispatch()
}

// Waiting is how many wait for a slot now.
func (sc *Scheduler) Waiting() int {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	n := 0
	for _, w := range sc.queue {
		if !w.done { // a waiter that gave up stays in the queue until the next dispatch
			n++
		}
	}
	return n
}

// dispatch gives each free slot to the waiter whose client has the fewest
// slots held (below perKey), the earliest of those to come (call
// with sc.mu held).
func (sc *Scheduler) dispatch() {
	now := time.Now()
	for sc.free > 0 {
		best := -1
		for i, w := range sc.queue {
			if w.done || sc.running[w.key] >= sc.perKey {
				continue
			}
			if best < 0 || sc.before(w, sc.queue[best], now) {
				best = i
			}
		}
		if best < 0 {
			break
		}
		w := sc.queue[best]
		sc.free--
		sc.running[w.key]++
		w.done = true
		close(w.ready)
	}
	kept := sc.queue[:0]
	for _, w := range sc.queue {
		if !w.done {
			kept = append(kept, w)
		}
	}
	clear(sc.queue[len(kept):])
	sc.queue = kept
}

// before reports whether waiter a gets a slot before b, who came earlier:
// a's client has fewer slots held, or as many and (byUse) has used
// the slots less lately.
func (sc *Scheduler) before(a, b *waiter, now time.Time) bool {
	ra, rb := sc.running[a.key], sc.running[b.key]
	if ra != rb || !sc.byUse {
		return ra < rb
	}
	return sc.used[a.key].as(now) < sc.used[b.key].as(now)
}
