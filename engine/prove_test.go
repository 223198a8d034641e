package engine

import (
	"context"
	"testing"
	"time"

	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
)

// TestProvenMainLine: in a position of a real game that Black wins in 2
// by proof, the analysis's main line is the proof's line (the win and
// the longest resistance, legal move after move), not its first move
// alone, whichever search found the win.
func TestProvenMainLine(t *testing.T) {
	rules, err := games.Rules("tumbling-down", "")
	if err != nil {
		t.Fatal(err)
	}
	g := game.NewGame(rules.Start())
	for _, m := range []string{"a6>b7", "h2-h1", "a7>a8", "h1>h2", "a8>b7", "f2>e1", "a4-b3", "g1>g2", "b8-c8", "g2>f3", "b7>c6", "h4>g4", "c7>d7", "h3>g3"} {
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	an, err := NewAnalyst(rules, 8, nil)
	if err != nil {
		t.Fatal(err)
	}
	out, err := an.Analyze(context.Background(), g, 600*time.Millisecond, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if out.Proven == nil || out.Proven.Winner != 0 {
		t.Fatalf("the analysis proves %+v, want a win of Black", out.Proven)
	}
	if len(out.PV) < 3 || out.PV[0] != out.Best || len(out.Lines[0].PV) != len(out.PV) {
		t.Fatalf("a win in %d with the main line %v (best %s)", out.Proven.Moves, out.PV, out.Best)
	}
	st := g.Position()
	for _, m := range out.PV {
		if st, err = st.Play(m); err != nil {
			t.Fatalf("the line %v: %v", out.PV, err)
		}
	}
	if res, _ := st.Outcome(); res != game.FirstWins {
		t.Errorf("the line %v ends %s, want Black's win", out.PV, res)
	}
}
