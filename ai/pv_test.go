package ai_test

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/magneton"
	"github.com/magneton-games/magneton/tumbling"
)

// TestStoppedSearchKeepsLine: a search stopped by its time reports its
// move with that move's line, several moves long once it has searched a
// few plies, and never a lone move followed by nothing (the analysis
// board showed such a "main line" when an unfinished iteration had found
// a better move: its move was kept, its line cut to the move and its
// score left at the previous move's).
func TestStoppedSearchKeepsLine(t *testing.T) {
	checkLines(t, magnetonKit, magneton.Rules{}.StartPosition())
	checkLines(t, tumblingKit, tumbling.Rules{}.StartPosition())
}

func checkLines[P game.Position[P, M], M comparable](t *testing.T, kit *ai.Kit[P, M], start P) {
	t.Helper()
	short := 0
	for seed := uint64(1); seed <= 6; seed++ {
		p, going := randomPlay(start, rand.New(rand.NewPCG(seed, 11)), 6, 14)
		if !going {
			continue
		}
		eng := ai.NewEngine(kit, 8, 1)
		// Node budgets, not times: the same search every run (one
		// thread), each stopped in some iteration.
		for _, ms := range []int64{3_000, 7_000, 15_000, 30_000, 60_000} {
			res, err := eng.Search(context.Background(), p, nil, ai.Budget{Nodes: ms, Hard: 10 * time.Second}, nil)
			if err != nil {
				t.Fatal(err)
			}
			in := res.Info
			if len(in.PV) == 0 || in.PV[0] != in.BestMove || p.FormatMove(res.Move) != in.BestMove {
				t.Errorf("%s after %d nodes: move %s (%s), line %v", p, ms, in.BestMove, p.FormatMove(res.Move), in.PV)
			}
			// A line shorter than two moves after three plies searched is
			// a game that ends at once, or a line cut short.
			if in.Depth >= 3 && in.Mate == 0 && len(in.PV) < 2 {
				short++
				t.Errorf("%s after %d nodes: depth %d, a line of one move %v", p, ms, in.Depth, in.PV)
			}
			// The line is legal, move after move.
			q := p
			for _, mv := range in.PV {
				m, err := q.ParseMove(mv)
				if err != nil {
					t.Fatalf("%s: line %v: %v", p, in.PV, err)
				}
				q = q.Play(m)
			}
		}
	}
}
