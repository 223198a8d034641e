package computer

import (
	"context"
	"sync"
	"testing"
	"time"
)

// TestSchedulerFair: one client's many searches wait behind each other,
// not in front of another client's.
func TestSchedulerFair(t *testing.T) {
	sc := newScheduler(2, 2)
	ctx := t.Context()
	var held []func()
	for range 2 {
		rel, err := sc.acquire(ctx, "a")
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, rel)
	}
	queued := func(n int) {
		for {
			sc.mu.Lock()
			k := len(sc.queue)
			sc.mu.Unlock()
			if k == n {
				return
			}
			time.Sleep(time.Millisecond)
		}
	}
	order := make(chan string, 20)
	var wg sync.WaitGroup
	wait := func(key string) {
		wg.Go(func() {
			rel, err := sc.acquire(ctx, key)
			if err == nil {
				order <- key
				rel()
			}
		})
	}
	for range 10 {
		wait("a")
	}
	queued(10)
	wait("b") // comes last, with none running
	queued(11)
	held[0]() // the first free slot
	first := <-order
	held[1]()
	wg.Wait()
	if first != "b" {
		t.Errorf("the first slot freed went to %s, want b (a had one running)", first)
	}
	// A cancelled wait takes no slot.
	cctx, cancel := context.WithCancel(ctx)
	r1, _ := sc.acquire(ctx, "c")
	r2, _ := sc.acquire(ctx, "c")
	cancel()
	if _, err := sc.acquire(cctx, "c"); err == nil {
		t.Error("a cancelled acquire got a slot")
	}
	r1()
	r2()
	if sc.free != 2 {
		t.Errorf("%d slots free at the end, want 2", sc.free)
	}
}
