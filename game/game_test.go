package game_test

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/magneton"
	"github.com/magneton-games/magneton/tumbling"
)

func TestParseSettings(t *testing.T) {
	sp := magneton.Spec
	for _, tc := range []struct {
		items []string
		want  string
		err   string
	}{
		{nil, "force=strong,movement=any-magnet,no-moves=loses,repetition=3,win=mover-only", ""},
		{[]string{"weak-force"}, "force=weak,movement=any-magnet,no-moves=loses,repetition=3,win=mover-only", ""},
		{[]string{"weak-force,win=owner-wins", "repetition=off"}, "force=weak,movement=any-magnet,no-moves=loses,repetition=off,win=owner-wins", ""},
		{[]string{"weak-force", "standard"}, "force=strong,movement=any-magnet,no-moves=loses,repetition=3,win=mover-only", ""},
		{[]string{"win=maybe"}, "", "rule option win cannot be \"maybe\" (allowed: mover-only, owner-wins)"},
		{[]string{"speed=fast"}, "", "unknown rule option \"speed\""},
		{[]string{"blitz"}, "", "unknown rule variant \"blitz\""},
	} {
		s, err := sp.ParseSettings(tc.items...)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%v: error %v, want %q", tc.items, err, tc.err)
			}
			continue
		}
		if err != nil || s.String() != tc.want {
			t.Errorf("%v: got %s (%v), want %s", tc.items, s, err, tc.want)
		}
		// The settings a game reports are those it was built from.
		if got := sp.New(s).Settings().String(); got != tc.want {
			t.Errorf("%v: rules report %s", tc.items, got)
		}
	}
}

func TestGameRepetitionUndoAndEnd(t *testing.T) {
	rules, _ := magneton.Spec.Rules()
	start, err := rules.ParsePosition("8/6B1/8/8/8/2W5/1B6/W7 w 0 0")
	if err != nil {
		t.Fatal(err)
	}
	g := game.NewGame(start)
	cycle := []string{"c3-f6", "e5-b2", "c3-f6", "e5-b2"}
	for i, m := range cycle {
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
		res, why := g.Result()
		if over := i == len(cycle)-1; res.Over() != over || (over && (res != game.Draw || why != game.Repetition)) {
			t.Fatalf("after %d moves: %s %s", i+1, res, why)
		}
	}
	if g.Repetitions() != 3 {
		t.Errorf("repetitions %d", g.Repetitions())
	}
	if err := g.Play("c3-f6"); err == nil || !strings.Contains(err.Error(), "the game is over") {
		t.Errorf("move after the end: %v", err)
	}
	if !g.Undo() {
		t.Fatal("undo failed")
	}
	if res, _ := g.Result(); res.Over() {
		t.Errorf("undo left the game over")
	}
	if err := g.End(game.First, game.Resignation); err != nil {
		t.Fatal(err)
	}
	if res, why := g.Result(); res != game.SecondWins || why != game.Resignation {
		t.Errorf("resignation: %s %s", res, why)
	}
	if err := g.End(game.First, game.Agreement); err == nil {
		t.Error("ending a finished game should fail")
	}
	if err := g.Play("d4-d4"); err == nil {
		t.Error("a move after resignation should fail")
	}
	for g.Undo() {
	}
	if len(g.Moves()) != 0 || g.Position().String() != start.String() {
		t.Errorf("undo to the start: %v %s", g.Moves(), g.Position())
	}

	// With repetition=off the same cycle goes on.
	rules, _ = magneton.Spec.Rules("repetition=off")
	start, _ = rules.ParsePosition("8/6B1/8/8/8/2W5/1B6/W7 w 0 0")
	g = game.NewGame(start)
	for _, m := range append(cycle, cycle...) {
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	if res, _ := g.Result(); res.Over() {
		t.Errorf("repetition=off: game ended %s", res)
	}
}

func TestDivideMatchesPerft(t *testing.T) {
	rules := tumbling.Rules{}
	p := rules.StartPosition()
	for _, threads := range []int{1, 2, 3} {
		entries, err := game.Divide(context.Background(), p, 2, threads)
		if err != nil {
			t.Fatal(err)
		}
		var total uint64
		for _, e := range entries {
			total += e.Nodes
		}
		if total != 21904 || len(entries) != 148 {
			t.Errorf("threads %d: %d moves, %d leaves", threads, len(entries), total)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := game.Divide(ctx, p, 3, 2); err == nil {
		t.Error("a cancelled divide should say so")
	}
}

func TestPlayoutsEnd(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	buf := make([]magneton.Move, 0, 256)
	start := magneton.Rules{}.StartPosition()
	for range 200 {
		res, plies := game.Playout(start, rng, 400, buf)
		if plies > 400 || (plies < 400 && !res.Over()) {
			t.Fatalf("playout stopped at %d plies with %s", plies, res)
		}
	}
}

func TestResultAndEndingText(t *testing.T) {
	for _, r := range []game.Result{game.Ongoing, game.FirstWins, game.SecondWins, game.Draw} {
		back, err := game.ParseResult(r.String())
		if err != nil || back != r {
			t.Errorf("%s reads back as %s (%v)", r, back, err)
		}
	}
	for _, sp := range []*game.Spec{magneton.Spec, tumbling.Spec} {
		words := map[string]bool{}
		for _, e := range sp.AllEndings() {
			if words[e.Word] || e.Word == "" || e.Text == "" {
				t.Errorf("%s: ending %q is empty or not unique", sp.Name, e.Word)
			}
			words[e.Word] = true
			back, err := sp.Ending(e.Word)
			if err != nil || back != e {
				t.Errorf("%s: %s reads back as %v (%v)", sp.Name, e, back, err)
			}
		}
		if _, err := sp.Ending("checkmate"); err == nil {
			t.Errorf("%s: unknown ending read", sp.Name)
		}
	}
	if game.WinFor(game.Second) != game.SecondWins || game.LossFor(game.Second) != game.FirstWins {
		t.Error("WinFor/LossFor")
	}
}
