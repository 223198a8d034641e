package computer

import (
	"context"
	"math"
	"sync"
	"time"
)

// scheduler shares the cores among the computer players: at most slots
// searches run at once, at most perKey of one client's games, and a slot
// that frees goes to the waiting client with the fewest searches running
// (first come first served among equals). One client's fifty games thus
// wait behind each other, not in front of everyone else's.
type scheduler struct {
	mu      sync.Mutex
	free    int
	perKey  int
	running map[string]int
	queue   []*waiter // in arrival order
	// byUse: among waiters with as few searches running, the slot goes to
	// the client that has used the slots least lately (its time in them,
	// halved every useHalfLife), rather than to the first come: for the
	// analyses, where a client looping long ones would otherwise take
	// every other turn.
	byUse bool
	used  map[string]usage
	// waited hears each wait that ended with a slot; nil for none.
	waited func(time.Duration)
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

func newScheduler(slots, perKey int) *scheduler {
	if perKey <= 0 {
		perKey = slots
	}
	return &scheduler{free: slots, perKey: perKey, running: map[string]int{}}
}

// acquire waits for a slot for a search of key's; release gives it back.
func (sc *scheduler) acquire(ctx context.Context, key string) (release func(), err error) {
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

func (sc *scheduler) release(key string, held time.Duration) {
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

// waiting is how many wait for a slot now.
func (sc *scheduler) waiting() int {
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
// searches running (below perKey), the earliest of those to come (call
// with sc.mu held).
func (sc *scheduler) dispatch() {
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
// a's client has fewer searches running, or as many and (byUse) has used
// the slots less lately.
func (sc *scheduler) before(a, b *waiter, now time.Time) bool {
	ra, rb := sc.running[a.key], sc.running[b.key]
	if ra != rb || !sc.byUse {
		return ra < rb
	}
	return sc.used[a.key].as(now) < sc.used[b.key].as(now)
}
