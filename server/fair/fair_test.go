package fair

import (
	"context"
	"sync"
	"testing"
	"time"
)

// TestFair: one client's many searches wait behind each other,
// not in front of another client's.
func TestFair(t *testing.T) {
	sc := New(Options{Slots: 2, PerKey: 2})
	ctx := t.Context()
	var held []func()
	for range 2 {
		rel, err := sc.Acquire(ctx, "a")
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
			rel, err := sc.Acquire(ctx, key)
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
	r1, _ := sc.Acquire(ctx, "c")
	r2, _ := sc.Acquire(ctx, "c")
	cancel()
	if _, err := sc.Acquire(cctx, "c"); err == nil {
		t.Error("a cancelled acquire got a slot")
	}
	r1()
	r2()
	if sc.free != 2 {
		t.Errorf("%d slots free at the end, want 2", sc.free)
	}
}

// TestByUse: with byUse, a slot that frees goes to the waiting
// client that has used the slots least lately, not to the first come.
func TestByUse(t *testing.T) {
	sc := New(Options{Slots: 1, ByUse: true})
	ctx := t.Context()
	rel, err := sc.Acquire(ctx, "looper")
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(20 * time.Millisecond) // the looper's use
	order := make(chan string, 2)
	var wg sync.WaitGroup
	for _, key := range []string{"looper", "visitor"} {
		wg.Go(func() {
			r, err := sc.Acquire(ctx, key)
			if err == nil {
				order <- key
				r()
			}
		})
		for queued := false; !queued; time.Sleep(time.Millisecond) {
			sc.mu.Lock()
			queued = len(sc.queue) > 0 && sc.queue[len(sc.queue)-1].key == key
			sc.mu.Unlock()
		}
	}
	rel()
	wg.Wait()
	if first := <-order; first != "visitor" {
		t.Errorf("the slot went to %s first, want the visitor (the looper has used it)", first)
	}
}
