package puzzle_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/puzzle"
)

// TestRefute: the answer to a wrong move is a legal reply in the
// position after it; a proven win of the opponent is one the proof
// search confirms; the shipped puzzles have wrong moves of both kinds.
func TestRefute(t *testing.T) {
	ps, err := puzzle.Shipped()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	proven, engine := 0, 0
	for _, pz := range ps {
		if proven >= 2 && engine >= 2 {
			break
		}
		rules, _ := games.Rules(pz.Game, pz.Rules)
		s, err := rules.ParsePosition(pz.Position)
		if err != nil {
			t.Fatal(err)
		}
		for _, mv := range s.Moves() {
			if slices.Contains(pz.Accept[0], mv) {
				continue
			}
			ref, err := puzzle.Refute(ctx, pz, 0, mv)
			if err != nil {
				t.Fatalf("%s %s: %v", pz.ID, mv, err)
			}
			c, _ := s.Play(mv)
			if ref.Position != c.String() || ref.Move != mv {
				t.Fatalf("%s %s: position %q, want %q", pz.ID, mv, ref.Position, c.String())
			}
			if ref.Ends {
				break
			}
			after, err := c.Play(ref.Reply)
			if err != nil || after.String() != ref.After {
				t.Fatalf("%s %s: reply %s: %v", pz.ID, mv, ref.Reply, err)
			}
			g, _ := games.Lookup(pz.Game)
			if ref.ReplyWinsIn > 0 {
				proven++
				if res, _ := after.Outcome(); ref.ReplyWinsIn == 1 && !res.Over() {
					t.Errorf("%s %s: the reply %s wins in 1 but the game goes on", pz.ID, mv, ref.Reply)
				} else if n, _ := g.AI.ForcedResult(ctx, after, 2*ref.ReplyWinsIn, puzzle.Budget); ref.ReplyWinsIn > 1 && n >= 0 {
					t.Errorf("%s %s: the reply %s wins in %d, the proof search says %d", pz.ID, mv, ref.Reply, ref.ReplyWinsIn, n)
				}
			} else {
				engine++
			}
			break // one wrong move a puzzle
		}
	}
	if proven < 2 || engine < 2 {
		t.Errorf("%d proven refutations, %d by the engine: want both", proven, engine)
	}
}

func TestRefuteRefuses(t *testing.T) {
	ps, err := puzzle.Shipped()
	if err != nil {
		t.Fatal(err)
	}
	pz := ps[len(ps)-1]
	for _, tc := range []struct {
		ply  int
		move string
		want string
	}{
		{1, pz.Line[1], "ply 1"},
		{-2, pz.Line[0], "ply -2"},
		{len(pz.Line) + 1, pz.Line[0], "ply"},
		{0, pz.Line[0], "no wrong move"},
		{0, "zz9", "zz9"},
	} {
		if _, err := puzzle.Refute(context.Background(), pz, tc.ply, tc.move); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ply %d move %s: %v, want an error with %q", tc.ply, tc.move, err, tc.want)
		}
	}
}
