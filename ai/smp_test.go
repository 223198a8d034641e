package ai_test

import (
	"context"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/magneton"
	"github.com/magneton-games/magneton/tumbling"
)

// TestThreadsReportCompletedDepths: with several threads, the main thread
// takes over an iteration that a helper completed first (Lazy SMP), so its
// reports may skip depths; each is still a completed depth, deeper than the
// last, with a legal line that starts with the reported move, and the
// search's move is the last report's. Over the searches of both games the
// main thread took over some iteration (with two cores, the helper one
// depth ahead completes one first now and then).
func TestThreadsReportCompletedDepths(t *testing.T) {
	magnetonEng := ai.NewEngine(magnetonKit, 8, 2)
	tumblingEng := ai.NewEngine(tumblingKit, 8, 2)
	for seed := uint64(1); seed <= 8; seed++ {
		checkThreadReports(t, magnetonEng, magneton.Rules{}.StartPosition(), seed, 6)
		checkThreadReports(t, tumblingEng, tumbling.Rules{}.StartPosition(), seed, 7)
	}
	took := ai.TookOver(magnetonEng) + ai.TookOver(tumblingEng)
	t.Logf("the main thread took over %d iterations in 32 searches", took)
	if took == 0 && runtime.GOMAXPROCS(0) >= 2 && !testing.Short() {
		t.Errorf("the main thread took over no helper's iteration in 32 searches of two threads")
	}
}

func checkThreadReports[P game.Position[P, M], M comparable](t *testing.T, eng *ai.Engine[P, M], start P, seed uint64, depth int) {
	t.Helper()
	p, going := randomPlay(start, rand.New(rand.NewPCG(seed, 5)), 4, 10)
	if !going {
		return
	}
	for _, lim := range []ai.Budget{{Depth: depth, Hard: time.Minute}, {Hard: 150 * time.Millisecond}} {
		var reports []ai.Info
		res, err := eng.Search(context.Background(), p, nil, lim, func(in ai.Info) { reports = append(reports, in) })
		if err != nil {
			t.Fatal(err)
		}
		if len(reports) == 0 {
			t.Fatalf("%s: no report", p)
		}
		last := 0
		for _, in := range reports {
			if in.Depth <= last {
				t.Errorf("%s: depth %d reported after depth %d", p, in.Depth, last)
			}
			last = in.Depth
			if len(in.PV) == 0 || in.PV[0] != in.BestMove {
				t.Errorf("%s depth %d: move %s, line %v", p, in.Depth, in.BestMove, in.PV)
			}
			q := p
			for _, mv := range in.PV {
				m, err := q.ParseMove(mv)
				if err != nil {
					t.Fatalf("%s depth %d: line %v: %v", p, in.Depth, in.PV, err)
				}
				q = q.Play(m)
			}
		}
		if lim.Depth > 0 && last != lim.Depth {
			t.Errorf("%s: searched to depth %d, the last report is of depth %d", p, lim.Depth, last)
		}
		if got, want := p.FormatMove(res.Move), reports[len(reports)-1].BestMove; lim.Depth > 0 && got != want {
			t.Errorf("%s: played %s, the last report's move is %s", p, got, want)
		}
	}
}
