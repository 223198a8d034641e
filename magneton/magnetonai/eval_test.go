package magnetonai

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/magneton"
)

// TestPushLines checks the count of stones a push would carry into a
// line of four on crafted positions.
func TestPushLines(t *testing.T) {
	tests := []struct {
		name, pos string
		side      game.Side
		want      int
	}{
		// The rules page's example: c3 pushed right (a magnet on b3)
		// stops on d3, before e3, and completes d3-d6. d6 pushed down
		// (a magnet on d7) has nowhere to go; c3 pushed up stops on c8.
		{"the rules' example", "8/8/3WB3/3W4/3W4/2W1B3/8/8 w 8 10", magneton.White, 1},
		{"black has none", "8/8/3WB3/3W4/3W4/2W1B3/8/8 w 8 10", magneton.Black, 0},
		// The square behind c3 (b3) is taken: no magnet can push it right.
		{"no room behind", "8/8/3WB3/3W4/3W4/1BW1B3/8/8 w 8 9", magneton.White, 0},
		// Without the blocker on e3, c3 slides on to h3.
		{"no blocker", "8/8/3WB3/3W4/3W4/2W5/8/8 w 8 11", magneton.White, 0},
		{"empty board", "8/8/8/8/8/8/8/8 w 12 12", magneton.White, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := magneton.Rules{}.Parse(tc.pos)
			if err != nil {
				t.Fatal(err)
			}
			if got, _ := stoneLines(p.Stones(tc.side), p.Stones(tc.side.Other())); got != tc.want {
				t.Errorf("push = %d, want %d", got, tc.want)
			}
		})
	}
}

// TestMobilityCountsMoves checks the evaluation's count of moves against
// the move generator, for the side to move of random move-phase
// positions.
func TestMobilityCountsMoves(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	checked := 0
	for g := 0; g < 100; g++ {
		p := magneton.Rules{}.StartPosition()
		for ply := 0; ply < 100; ply++ {
			m, ok := p.RandomMove(rng, nil)
			if !ok {
				break
			}
			if p = p.Play(m); p.InHand(p.Side()) > 0 {
				continue
			}
			if _, won := p.Winner(); won {
				break
			}
			us := p.Side()
			if _, got := stoneLines(p.Stones(us), p.Stones(us.Other())); got != len(p.AppendMoves(nil)) {
				want := len(p.AppendMoves(nil))
				t.Fatalf("%s: mobility %d, want %d", p, got, want)
			}
			checked++
		}
	}
	if checked < 1000 {
		t.Fatalf("only %d positions checked", checked)
	}
}

// TestEvalThreatenedSameSearch checks that the leaves' shared count of
// the opponent's wins in one (Kit.EvalThreatened) changes nothing but
// the speed: searches of random positions to a fixed depth with and
// without it agree on the move, the score and the nodes.
func TestEvalThreatenedSameSearch(t *testing.T) {
	kit := Kit(Weights, magneton.Rules{})
	plain := *kit
	plain.EvalThreatened = nil
	rng := rand.New(rand.NewPCG(5, 6))
	for g := 0; g < 12; g++ {
		p := magneton.Rules{}.StartPosition()
		for ply := 0; ply < 10+7*g; ply++ {
			m, ok := p.RandomMove(rng, nil)
			if !ok {
				break
			}
			if q := p.Play(m); !gameOver(q) {
				p = q
			}
		}
		var got [2]ai.SearchResult[magneton.Move]
		for i, kit := range []*ai.Kit[magneton.Position, magneton.Move]{kit, &plain} {
			res, err := ai.NewEngine(kit, 4, 1).Search(context.Background(), p, nil, ai.Budget{Depth: 4}, nil)
			if err != nil {
				t.Fatal(err)
			}
			got[i] = res
		}
		a, b := got[0], got[1]
		if a.Move != b.Move || a.Info.Score != b.Info.Score || a.Info.Nodes != b.Info.Nodes {
			t.Errorf("%s: with EvalThreatened %s %d (%d nodes), without %s %d (%d nodes)",
				p, p.FormatMove(a.Move), a.Info.Score, a.Info.Nodes, p.FormatMove(b.Move), b.Info.Score, b.Info.Nodes)
		}
	}
}

func gameOver(p magneton.Position) bool {
	r, _ := p.Outcome()
	return r.Over()
}
