package prove_test

import (
	"context"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/internal/tictactoe"
	"github.com/magneton-games/magneton/internal/tictactoe/tictactoeai"
	"github.com/magneton-games/magneton/prove"
)

// splitAgrees checks that Split on 1 to 3 workers settles s as Solve
// does for the same question, and that a proof's joined certificate
// verifies.
func splitAgrees(t *testing.T, g prove.Game, s game.State, opponent bool, maxNodes int64) {
	t.Helper()
	ctx := context.Background()
	opts := prove.Options{HashMiB: 1, MaxNodes: maxNodes, OpponentFirst: opponent}
	one, err := g.Solve(ctx, s, opts)
	if err != nil {
		t.Fatal(err)
	}
	want := one.ToMove
	if opponent {
		want = one.Opponent
	}
	if want == prove.Unknown {
		return // beyond the budget: nothing to compare
	}
	opts.Certificate = true
	for workers := 1; workers <= 3; workers++ {
		rep, err := g.Split(ctx, s, opts, workers)
		if err != nil {
			t.Fatal(err)
		}
		got := rep.ToMove
		if opponent {
			got = rep.Opponent
		}
		if got != want && got != prove.Unknown {
			t.Fatalf("%s (opponent first %v), %d workers: split %v, solve %v", s, opponent, workers, got, want)
		}
		if got != prove.Proven {
			continue
		}
		if rep.Certificate == nil {
			t.Fatalf("%s, %d workers: proven without a certificate: %v", s, workers, rep.CertificateErr)
		}
		v, err := prove.Verify(rep.Certificate, s.Rules())
		if err != nil {
			t.Fatalf("%s, %d workers: the joined certificate does not verify: %v", s, workers, err)
		}
		if w, _ := rep.Result.Winner(); v.Winner != w {
			t.Fatalf("%s, %d workers: the certificate proves %v's win, the report %v", s, workers, v.Winner, rep.Result)
		}
	}
}

// TestSplitTicTacToe: on positions of tic-tac-toe (every seventh, in
// the order of their text), both questions, a split search answers as the
// one search does.
func TestSplitTicTacToe(t *testing.T) {
	rules, err := tictactoe.Spec.Rules("default")
	if err != nil {
		t.Fatal(err)
	}
	g := prove.For[tictactoe.Position, tictactoe.Move](tictactoeai.Profile)
	all := map[string]game.State{}
	reachable(rules.Start(), all)
	texts := slices.Sorted(maps.Keys(all))
	for i, text := range texts {
		s := all[text]
		if r, _ := s.Outcome(); r.Over() || i%7 != 0 {
			continue
		}
		splitAgrees(t, g, s, false, 0)
		splitAgrees(t, g, s, true, 0)
	}
}

// TestSplitNearEnd: the same on positions near the end of random games of
// both games, within a budget.
func TestSplitNearEnd(t *testing.T) {
	rng := rand.New(rand.NewPCG(32, 7))
	for _, name := range []string{"magneton", "tumbling"} {
		gm, err := games.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range nearEnd(t, name, 4, rng) {
			if r, _ := s.Outcome(); r.Over() {
				continue
			}
			splitAgrees(t, gm.Solver, s, false, 5_000)
			splitAgrees(t, gm.Solver, s, true, 5_000)
		}
	}
}

// TestSplitMagnetonTwoStones: the empty board with two stones each is
// Black's win (docs/research.md); the split search over White's 64 first
// drops proves it, and its certificate verifies.
func TestSplitMagnetonTwoStones(t *testing.T) {
	gm, err := games.Lookup("magneton")
	if err != nil {
		t.Fatal(err)
	}
	rules, err := games.Rules("magneton")
	if err != nil {
		t.Fatal(err)
	}
	s, err := rules.ParsePosition("8/8/8/8/8/8/8/8 w 2 2")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := gm.Solver.Split(context.Background(), s, prove.Options{HashMiB: 4, OpponentFirst: true, Certificate: true}, 2)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Result != game.WinFor(game.Second) || rep.Certificate == nil {
		t.Fatalf("result %v, certificate error %v: want Black's proven win", rep.Result, rep.CertificateErr)
	}
	if _, err := prove.Verify(rep.Certificate, rules); err != nil {
		t.Fatal(err)
	}
	// A budget of nodes stops it, within a probe a worker of the budget.
	rep, err = gm.Solver.Split(context.Background(), s, prove.Options{HashMiB: 1, OpponentFirst: true, MaxNodes: 500}, 2)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Result != game.Ongoing || rep.Nodes > 2*500 {
		t.Errorf("with 500 nodes: result %v after %d nodes: want unsettled within 1,000", rep.Result, rep.Nodes)
	}
	var sum int64
	for _, m := range rep.Moves {
		sum += m.Nodes
	}
	if len(rep.Moves) != 64 || sum != rep.Nodes {
		t.Errorf("with 500 nodes: %d moves reported, their nodes %d of %d: want White's 64 drops, all the nodes", len(rep.Moves), sum, rep.Nodes)
	}
	if _, err := gm.Solver.Split(context.Background(), s, prove.Options{}, 0); err == nil {
		t.Errorf("0 workers: no error")
	}
}
