package ai_test

import (
	"bytes"
	"context"
	"errors"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/magneton"
)

// goroutineID is the number the runtime gives the calling goroutine, read
// from its stack's first line: the test's way of telling the search's
// threads apart.
func goroutineID() string {
	buf := make([]byte, 64)
	buf = buf[:runtime.Stack(buf, false)]
	id, _, _ := strings.Cut(strings.TrimPrefix(string(buf), "goroutine "), " ")
	return id
}

// faultyKit is magnetonKit whose Decided panics, once armed, in a thread
// that fault chooses by the goroutine's number; calls counts the calls.
func faultyKit(fault func(id string) bool, armed *atomic.Bool, calls *atomic.Int64) *ai.Kit[magneton.Position, magneton.Move] {
	k := *magnetonKit
	decided := k.Decided
	k.Decided = func(p magneton.Position) (game.Result, bool) {
		calls.Add(1)
		if armed.Load() && fault(goroutineID()) {
			panic("injected fault")
		}
		return decided(p)
	}
	return &k
}

// TestSearchThreadPanic: a panic in any thread of a multi-threaded search,
// a helper's (in a goroutine of its own, which would end the process) or
// the main one's, reaches the caller of Search as a panic it can recover
// from, once no thread runs any more; the engine then searches again.
func TestSearchThreadPanic(t *testing.T) {
	p := magneton.Rules{}.StartPosition()
	for _, tc := range []struct {
		name   string
		search string // "ab" or "mcts"
		helper bool   // the fault is in a thread other than the caller's
	}{
		{"alpha-beta helper", "ab", true},
		{"alpha-beta main", "ab", false},
		{"mcts thread", "mcts", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			caller := goroutineID()
			var armed atomic.Bool
			var calls atomic.Int64
			kit := faultyKit(func(id string) bool { return (id != caller) == tc.helper }, &armed, &calls)
			// search searches deep (until the fault) or briefly.
			var search func(deep bool) error
			switch tc.search {
			case "ab":
				eng := ai.NewEngine(kit, 4, 4)
				search = func(deep bool) error {
					b := ai.Budget{Depth: 3}
					if deep {
						b = ai.Budget{Depth: 64, Hard: 30 * time.Second}
					}
					_, err := eng.Search(context.Background(), p, nil, b, nil)
					return err
				}
			default:
				m := ai.NewMCTS(kit, 4, 1)
				search = func(deep bool) error {
					b := ai.Budget{Nodes: 2000}
					if deep {
						b = ai.Budget{Hard: 30 * time.Second}
					}
					_, err := m.Search(context.Background(), p, b, nil)
					return err
				}
			}
			armed.Store(true)
			var got any
			func() {
				defer func() { got = recover() }()
				err := search(true)
				t.Errorf("Search returned (%v) instead of panicking", err)
			}()
			if got == nil {
				t.Fatal("no panic reached the caller")
			}
			if tc.helper {
				var pe *ai.PanicError
				if err, ok := got.(error); !ok || !errors.As(err, &pe) || pe.Value != "injected fault" || !bytes.Contains(pe.Stack, []byte("panic_test.go")) {
					t.Fatalf("the caller recovered %#v, want a *ai.PanicError with the fault and its stack", got)
				}
			} else if got != "injected fault" {
				t.Fatalf("the caller recovered %#v, want the main thread's own panic", got)
			}
			// Every thread has stopped: no call is made after Search left.
			before := calls.Load()
			time.Sleep(50 * time.Millisecond) // a check of quiet, not a wait for an event
			if after := calls.Load(); after != before {
				t.Errorf("%d calls of the kit after Search panicked: a thread runs on", after-before)
			}
			armed.Store(false)
			if err := search(false); err != nil {
				t.Errorf("the search after the fault: %v", err)
			}
		})
	}
}
