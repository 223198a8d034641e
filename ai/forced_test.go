package ai_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/magneton"
	"github.com/magneton-games/magneton/tumbling"
)

// TestForcedResult checks the proof search on the mate positions of the
// search tests (each checked by the exhaustive winIn): it finds each win
// at its exact length and not within a shorter horizon, and some move
// leaves the opponent a loss one move shorter, which no move shortens.
func TestForcedResult(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		rules game.Rules
		cases []mateCase
	}{
		{tumbling.Rules{}, tumblingMates},
		{magneton.Rules{}, magnetonMates},
	} {
		for _, c := range tc.cases {
			s, err := tc.rules.ParsePosition(c.pos)
			if err != nil {
				t.Fatalf("%s: %v", c.pos, err)
			}
			if got, err := profileOf(tc.rules).ForcedResult(ctx, s, 2*c.n-1, 0); err != nil || got != c.n {
				t.Errorf("%s: forced result %d (%v), want %d", c.pos, got, err, c.n)
				continue
			}
			if got, _ := profileOf(tc.rules).ForcedResult(ctx, s, 2*c.n-2, 0); got != 0 {
				t.Errorf("%s: within %d plies forced result %d, want 0", c.pos, 2*c.n-2, got)
			}
			if c.n == 1 {
				continue
			}
			losing := 0
			for _, m := range s.Moves() {
				child, _ := s.Play(m)
				if r, _ := child.Outcome(); r.Over() {
					continue
				}
				got, _ := profileOf(tc.rules).ForcedResult(ctx, child, 2*c.n-2, 0)
				switch {
				case got == -(c.n - 1):
					losing++
				case got < 0:
					t.Errorf("%s: after %s forced result %d, but the win takes %d moves", c.pos, m, got, c.n)
				}
			}
			if losing == 0 {
				t.Errorf("%s: no move leaves the opponent lost in %d", c.pos, c.n-1)
			}
		}
	}
}

// TestForcedResultOwnKing: a move that covers the mover's own King loses,
// and is no win at once for the proof search.
func TestForcedResultOwnKing(t *testing.T) {
	rules := tumbling.Rules{}
	// Black's King a8 (3 disks), beside it a7 with a Red disk under a
	// Black one: a7>a8 drops the Red disk on Black's own King.
	s, err := rules.ParsePosition("bbb,7/rb,7/8/8/8/8/8/7,rr b")
	if err != nil {
		t.Fatal(err)
	}
	next, err := s.Play("a7>a8")
	if err != nil {
		t.Fatal(err)
	}
	if r, _ := next.Outcome(); r != game.WinFor(tumbling.Red) {
		t.Fatalf("a7>a8: %v, want a win for Red", r)
	}
	if got, err := profileOf(rules).ForcedResult(context.Background(), s, 1, 0); err != nil || got != 0 {
		t.Errorf("forced result %d (%v), want 0", got, err)
	}
}

// TestForcedResultSound compares the proof search with the exhaustive
// winIn on positions of random games: every win and loss it reports
// within two moves is one (the exhaustive check of a loss in two is slow,
// so only the first three are checked).
func TestForcedResultSound(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(3, 4))
	wins, losses, deep := 0, 0, 0
	for _, rules := range []game.Rules{tumbling.Rules{}, magneton.Rules{}} {
		for games := 0; games < 8; games++ {
			s := rules.Start()
			for ply := 0; ply < 120; ply++ {
				moves := s.Moves()
				if len(moves) == 0 {
					break
				}
				got, err := profileOf(rules).ForcedResult(ctx, s, 4, 200_000)
				if err != nil {
					t.Fatal(err)
				}
				if got == -2 {
					deep++
				}
				if got != 0 && (got != -2 || deep <= 3) {
					if ok := exhaustive(rules, s, got); !ok {
						t.Errorf("%s: forced result %d is wrong", s, got)
					}
					if got > 0 {
						wins++
					} else {
						losses++
					}
				}
				next, _ := s.Play(moves[rng.IntN(len(moves))])
				if r, _ := next.Outcome(); r.Over() {
					break
				}
				s = next
			}
		}
	}
	t.Logf("%d wins and %d losses checked", wins, losses)
	if wins < 20 || losses < 10 {
		t.Errorf("only %d wins and %d losses to check", wins, losses)
	}
}

// exhaustive checks a forced result of at most two moves with winIn.
func exhaustive(rules game.Rules, s game.State, n int) bool {
	switch rules.(type) {
	case tumbling.Rules:
		p, _ := game.Unwrap[tumbling.Position, tumbling.Move](s)
		return exhaustiveOn(tumblingKit, p, n)
	default:
		p, _ := game.Unwrap[magneton.Position, magneton.Move](s)
		return exhaustiveOn(magnetonKit, p, n)
	}
}

func exhaustiveOn[P game.Position[P, M], M comparable](kit *ai.Kit[P, M], p P, n int) bool {
	if n > 0 {
		return winIn(kit, p, n)
	}
	// A loss in -n moves: every move loses at once or leaves the opponent
	// a win within -n moves.
	them := game.WinFor(p.Side().Other())
	for _, m := range p.AppendMoves(nil) {
		c := p.Play(m)
		if r, ok := kit.Decided(c); ok {
			if r != them {
				return false
			}
			continue
		}
		if !winIn(kit, c, -n) {
			return false
		}
	}
	return true
}
