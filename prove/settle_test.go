package prove_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/internal/tictactoe"
	"github.com/magneton-games/magneton/internal/tictactoe/tictactoeai"
)

// distance is the exact length of a won or lost position with best play:
// the winner's moves to its win when the winner plays the shortest and
// the loser the longest (minimax on the game's finite tree).
func distance(s game.State) (game.Result, int) {
	if r, _ := s.Outcome(); r.Over() {
		return r, 0
	}
	us := s.Side()
	best, bestN := game.LossFor(us), -1
	for _, m := range s.Moves() {
		next, _ := s.Play(m)
		r, n := distance(next)
		if r == game.WinFor(us) {
			n++ // our move
		}
		switch {
		case r == game.WinFor(us) && (best != r || n < bestN):
			best, bestN = r, n
		case best == game.WinFor(us):
		case r == game.Draw:
			best, bestN = r, 0
		case best == game.LossFor(us) && n > bestN:
			bestN = n
		}
	}
	return best, bestN
}

// TestSettleTicTacToe: on every position of tic-tac-toe the prover's
// result is minimax's, its bound is at least the exact length (and is it
// when marked exact), the winner's move keeps the win, and the loser's
// move resists as long as the longest defence.
func TestSettleTicTacToe(t *testing.T) {
	rules := tictactoe.Spec.New(tictactoe.Spec.Defaults())
	pv := tictactoeai.Solver.Prover(1)
	all := map[string]game.State{}
	reachable(rules.Start(), all)
	seen := map[game.Result]int{}
	for text, s := range all {
		if r, _ := s.Outcome(); r.Over() {
			continue
		}
		pf, err := pv.Settle(context.Background(), s, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		want, n := distance(s)
		if pf.Result != want {
			t.Fatalf("%s: prover %s, minimax %s", text, pf.Result, want)
		}
		seen[want]++
		if !pf.Proven() {
			continue
		}
		if pf.Moves < n || pf.Exact && pf.Moves != n {
			t.Errorf("%s: %s in %d (exact %v), the exact length is %d", text, pf.Result, pf.Moves, pf.Exact, n)
		}
		next, err := s.Play(pf.Move)
		if err != nil {
			t.Fatalf("%s: the prover's move %q: %v", text, pf.Move, err)
		}
		r, m := distance(next)
		switch w, _ := want.Winner(); {
		case w == s.Side() && r != want:
			t.Errorf("%s: the winning move %s gives %s", text, pf.Move, r)
		case w != s.Side() && m < n:
			t.Errorf("%s: %s loses in %d, the longest defence in %d", text, pf.Move, m, n)
		}
	}
	if len(seen) != 3 {
		t.Errorf("results %v: want wins of both sides and draws", seen)
	}
}

// BenchmarkSettleBudget is the cost of the small proof searches where the
// engine speaks, on positions they do not settle (the starts: the whole
// budget spent) and on one they do:
// go test ./prove -run XXX -bench SettleBudget -benchtime 3x
func BenchmarkSettleBudget(b *testing.B) {
	for _, c := range []struct{ name, game, position string }{
		{"magneton-start", "magneton", "start"},
		{"tumbling-start", "tumbling", "start"},
		{"magneton-win-in-6", "magneton", "8/6WB/B1B3B1/W6W/8/8/5W2/WB6 b 0 0"},
	} {
		gm, err := games.Lookup(c.game)
		if err != nil {
			b.Fatal(err)
		}
		rules := gm.Spec.New(gm.Spec.Defaults())
		s := rules.Start()
		if c.position != "start" {
			if s, err = rules.ParsePosition(c.position); err != nil {
				b.Fatal(err)
			}
		}
		for _, budget := range []int64{5_000, 20_000} {
			b.Run(fmt.Sprintf("%s/%d", c.name, budget), func(b *testing.B) {
				var nodes int64
				for b.Loop() {
					pf, err := gm.Solver.Prover(4).Settle(context.Background(), s, nil, budget)
					if err != nil {
						b.Fatal(err)
					}
					nodes += pf.Nodes
				}
				b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
			})
		}
	}
}
