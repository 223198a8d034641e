package simpleab

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/magneton-games/magneton/magneton"
)

// randomPositions plays random games and returns every position reached
// that is not over.
func randomPositions(t *testing.T, games int) []magneton.Position {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	var out []magneton.Position
	for g := 0; g < games; g++ {
		p := magneton.Rules{}.StartPosition()
		for ply := 0; ply < 80; ply++ {
			m, ok := p.RandomMove(rng, nil)
			if !ok {
				break
			}
			p = p.Play(m)
			if _, won := p.Winner(); won {
				break
			}
			out = append(out, p)
		}
	}
	return out
}

// TestMobility checks the engine's own count of moves against the rules
// package's move generator, for the side to move in the move phase.
func TestMobility(t *testing.T) {
	checked := 0
	for _, p := range randomPositions(t, 200) {
		us := p.Side()
		if p.InHand(us) > 0 {
			continue
		}
		want := len(p.AppendMoves(nil))
		if got := mobility(p.Stones(us), p.Stones(us.Other())); got != want {
			t.Fatalf("%s: mobility %d, want %d (AppendMoves)", p, got, want)
		}
		checked++
	}
	if checked < 100 {
		t.Fatalf("only %d move-phase positions checked", checked)
	}
}

// TestWindows checks the count of windows of four on an 8x8 board: 5 in
// each of 8 ranks and 8 files, and 25 on each diagonal direction.
func TestWindows(t *testing.T) {
	if len(windows) != 130 {
		t.Fatalf("%d windows, want 130", len(windows))
	}
}

// TestEvalSymmetric checks that the evaluation is zero-sum: the score of
// the side to move is the negation of the score of the other side, on the
// same board with the turn passed (both sides' open windows and mobility
// weigh alike; the wins-in-one terms are left out by choosing positions
// where neither side has one).
func TestEvalSymmetric(t *testing.T) {
	for _, p := range randomPositions(t, 50) {
		us, them := p.Side(), p.Side().Other()
		if p.WinsInOne(us, 1) > 0 || p.WinsInOne(them, 1) > 0 {
			continue
		}
		text := p.String()
		swapped := []byte(text)
		// Flip the side to move in the position text ("... w 3 4").
		for i := len(swapped) - 1; i >= 0; i-- {
			if swapped[i] == 'w' || swapped[i] == 'b' {
				swapped[i] = 'w' + 'b' - swapped[i]
				break
			}
		}
		q, err := magneton.Rules{}.Parse(string(swapped))
		if err != nil {
			t.Fatalf("parse %q: %v", swapped, err)
		}
		if a, b := Eval(p), Eval(q); a != -b {
			t.Fatalf("%s: Eval %d, with the turn passed %d: want opposite", text, a, b)
		}
	}
}

// TestSearch checks the search on crafted positions: it takes a win in
// one (the rules page's example, b3 pushes c3 into d3-d6) and, with the
// roles reversed, stops it.
func TestSearch(t *testing.T) {
	tests := []struct {
		name, pos string
		depth     int
		want      string
	}{
		{"win in one", "8/8/3WB3/3W4/3W4/2W1B3/8/8 w 8 10", 1, "b3"},
		{"win in one, deeper search", "8/8/3WB3/3W4/3W4/2W1B3/8/8 w 8 10", 4, "b3"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := magneton.Rules{}.Parse(tc.pos)
			if err != nil {
				t.Fatal(err)
			}
			r := New(1).Search(context.Background(), p, nil, 0, tc.depth)
			if got := r.Move.String(); got != tc.want {
				t.Errorf("best move %s (score %d), want %s", got, r.Score, tc.want)
			}
			if r.Score < mateSoon {
				t.Errorf("score %d, want a found win", r.Score)
			}
		})
	}
}

// TestSearchDefends checks that with a win in one against it the search
// plays a move after which the opponent has none, where one exists.
func TestSearchDefends(t *testing.T) {
	p, err := magneton.Rules{}.Parse("8/8/3WB3/3W4/3W4/2W1B3/8/8 b 8 10")
	if err != nil {
		t.Fatal(err)
	}
	if p.WinsInOne(magneton.White, 1) == 0 {
		t.Fatal("the crafted position has no threat")
	}
	r := New(1).Search(context.Background(), p, nil, 0, 3)
	if c := p.Play(r.Move); c.WinsInOne(magneton.White, 1) > 0 {
		t.Errorf("after %s White still wins in one (score %d)", r.Move, r.Score)
	}
}
