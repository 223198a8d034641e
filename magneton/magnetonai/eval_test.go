package magnetonai

import (
	"context"
	"math/rand/v2"
	"slices"
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

// TestKitShortcutsSameSearch checks that the kit's shortcuts at the
// leaves change nothing but the speed: the shared count of the
// opponent's wins in one (Kit.EvalThreatened) and the winning move found
// without playing the moves in turn (Kit.WinMove). Searches with and
// without each agree on the move, the score, the line and the nodes:
// to depths 1 and 3, of random positions of both phases and of positions
// lost in one, whose lines end in a leaf's winning move.
func TestKitShortcutsSameSearch(t *testing.T) {
	kit := Kit(Level8Weights, magneton.Rules{})
	var plain, lost []magneton.Position
	rng := rand.New(rand.NewPCG(5, 6))
	for g := 0; len(plain) < 40 || len(lost) < 20; g++ {
		p := magneton.Rules{}.StartPosition()
		for ply := 0; ply < 150 && !gameOver(p); ply++ {
			if ply == 10+g%40 && len(plain) < 40 {
				plain = append(plain, p)
			}
			if lostInOne(p) && len(lost) < 20 {
				lost = append(lost, p)
			}
			m, _ := p.RandomMove(rng, nil)
			p = p.Play(m)
		}
	}
	for _, tc := range []struct {
		name  string
		strip func(k *ai.Kit[magneton.Position, magneton.Move])
	}{
		{"EvalThreatened", func(k *ai.Kit[magneton.Position, magneton.Move]) { k.EvalThreatened = nil }},
		{"WinMove", func(k *ai.Kit[magneton.Position, magneton.Move]) { k.WinMove = nil }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stripped := *kit
			tc.strip(&stripped)
			for _, p := range append(plain, lost...) {
				for _, depth := range []int{1, 3} {
					var got [2]ai.SearchResult[magneton.Move]
					for i, kit := range []*ai.Kit[magneton.Position, magneton.Move]{kit, &stripped} {
						res, err := ai.NewEngine(kit, 4, 1).Search(context.Background(), p, nil, ai.Budget{Depth: depth}, nil)
						if err != nil {
							t.Fatal(err)
						}
						got[i] = res
					}
					a, b := got[0], got[1]
					if a.Move != b.Move || a.Info.Score != b.Info.Score || a.Info.Nodes != b.Info.Nodes || !slices.Equal(a.Info.PV, b.Info.PV) {
						t.Errorf("%s, depth %d: with %s %s %d %v (%d nodes), without %s %d %v (%d nodes)", p, depth, tc.name,
							p.FormatMove(a.Move), a.Info.Score, a.Info.PV, a.Info.Nodes, p.FormatMove(b.Move), b.Info.Score, b.Info.PV, b.Info.Nodes)
					}
				}
			}
		})
	}
}

// lostInOne reports whether every move of p lets the opponent win at
// once, and none wins.
func lostInOne(p magneton.Position) bool {
	moves := p.AppendMoves(nil)
	for _, m := range moves {
		q := p.Play(m)
		if gameOver(q) || q.WinsInOne(q.Side(), 1) == 0 {
			return false
		}
	}
	return len(moves) > 0
}

func gameOver(p magneton.Position) bool {
	r, _ := p.Outcome()
	return r.Over()
}
