package computer

import (
	"sync"
	"testing"
	"time"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
)

// waits records the waits a pool reports.
type waits struct {
	mu  sync.Mutex
	got map[bool][]time.Duration
}

func (w *waits) Waited(analysis bool, d time.Duration) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.got[analysis] = append(w.got[analysis], d)
}

func (w *waits) of(analysis bool) []time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]time.Duration(nil), w.got[analysis]...)
}

// TestPoolStats: the pool counts the searches waiting and the tables of
// those running, and reports each wait that ended with a core.
func TestPoolStats(t *testing.T) {
	rec := &waits{got: map[bool][]time.Duration{}}
	p := NewPool(Config{Thinkers: 1, Analyses: 1, MemoryMB: 64, Metrics: rec})
	ctx := t.Context()
	done, err := p.Analysis(ctx, "a")
	if err != nil {
		t.Fatal(err)
	}
	if st := p.Stats(); st != (Stats{TableMB: p.TableMB(8)}) {
		t.Errorf("one analysis running: %+v, want a table of %d MB", st, p.TableMB(8))
	}
	got := make(chan func())
	go func() {
		d, err := p.Analysis(ctx, "b")
		if err != nil {
			t.Error(err)
		}
		got <- d
	}()
	for p.Stats().AnalysesWaiting != 1 {
		time.Sleep(time.Millisecond)
	}
	time.Sleep(10 * time.Millisecond) // b's wait
	done()
	done() // twice: counted out once
	second := <-got
	if st := p.Stats(); st != (Stats{TableMB: p.TableMB(8)}) {
		t.Errorf("the second analysis running: %+v", st)
	}
	second()
	if w := rec.of(true); len(w) != 2 || w[1] < 10*time.Millisecond {
		t.Errorf("analysis waits %v, want two, the second at least 10ms", w)
	}

	// A computer player's search holds its table while it has its core.
	gm, err := games.Lookup("magneton")
	if err != nil {
		t.Fatal(err)
	}
	g := game.NewGame(gm.Spec.New(gm.Spec.Defaults()).Start())
	var during Stats
	mv, err := p.Play(ctx, "a", 3, g, func() (ai.Limits, bool) {
		during = p.Stats()
		return ai.Limits{}, false
	})
	if mv != "" || err != nil {
		t.Fatalf("Play with ready false: %q, %v", mv, err)
	}
	if during.TableMB != p.TableMB(3) {
		t.Errorf("during a level 3 search the tables hold %d MB, want %d", during.TableMB, p.TableMB(3))
	}
	if st := p.Stats(); st != (Stats{}) {
		t.Errorf("after the search: %+v, want nothing", st)
	}
	if w := rec.of(false); len(w) != 1 {
		t.Errorf("%d waits of computer players reported, want 1", len(w))
	}
}
