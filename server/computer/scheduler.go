package computer

import (
	"context"
	"sync"
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
		sc.release(key)
		return nil, ctx.Err()
	}
	var once sync.Once
	return func() { once.Do(func() { sc.release(key) }) }, nil
}

func (sc *scheduler) release(key string) {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	sc.free++
	if sc.running[key]--; sc.running[key] <= 0 {
		delete(sc.running, key)
	}
	sc.dispatch()
}

// dispatch gives each free slot to the waiter whose client has the fewest
// searches running (below perKey), the earliest of those to come (call
// with sc.mu held).
func (sc *scheduler) dispatch() {
	for sc.free > 0 {
		best := -1
		for i, w := range sc.queue {
			if w.done || sc.running[w.key] >= sc.perKey {
				continue
			}
			if best < 0 || sc.running[w.key] < sc.running[sc.queue[best].key] {
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
