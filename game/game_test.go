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

// TestGameClone: a clone plays on, and ends, without changing the game it
// was made from, repetition counts included.
func TestGameClone(t *testing.T) {
	rules, _ := magneton.Spec.Rules()
	start, err := rules.ParsePosition("8/6B1/8/8/8/2W5/1B6/W7 w 0 0")
	if err != nil {
		t.Fatal(err)
	}
	g := game.NewGame(start)
	for _, m := range []string{"c3-f6", "e5-b2"} {
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	c := g.Clone()
	for _, m := range []string{"c3-f6", "e5-b2"} {
		if err := c.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	if res, why := c.Result(); res != game.Draw || why != game.Repetition {
		t.Errorf("the clone after the cycle: %s %s, want a draw by repetition", res, why)
	}
	if len(g.Moves()) != 2 || g.Repetitions() != 2 {
		t.Errorf("the original after its clone played on: %d moves, position seen %d times; want 2 and 2", len(g.Moves()), g.Repetitions())
	}
	if err := g.End(game.First, game.Resignation); err != nil {
		t.Fatal(err)
	}
	if res, _ := c.Result(); res != game.Draw {
		t.Errorf("the clone after the original ended: %s", res)
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

// TestPlayoutRepeatingJudgesAsGame replays random games move by move in a
// Game, with the same draws, and checks that PlayoutRepeating ends each
// where and as Game does (Game is the definition of the repetition rule),
// in positions of both games where repetition is common; and that with
// repetitions 0 it plays what Playout plays.
func TestPlayoutRepeatingJudgesAsGame(t *testing.T) {
	mag := magneton.Rules{}
	tum := tumbling.Rules{}
	mp, err := mag.Parse("3W2BW/2W2B2/W7/8/4B3/1B1WB3/3B4/W7 w 0 0")
	if err != nil {
		t.Fatal(err)
	}
	tp, err := tum.Parse("b,7/8/6,r,1/8/8/8/8/8 b")
	if err != nil {
		t.Fatal(err)
	}
	draws := checkAgainstGame(t, mp, mag) + checkAgainstGame(t, tp, tum)
	if draws < 40 {
		t.Errorf("%d draws by repetition in 400 games", draws)
	}
}

func checkAgainstGame[P game.Position[P, M], M comparable](t *testing.T, start P, rules game.Rules) (draws int) {
	t.Helper()
	rng, replay := rand.New(rand.NewPCG(5, 6)), rand.New(rand.NewPCG(5, 6))
	for i := range 200 {
		maxPlies := 40 + i%2*160
		res, plies := game.PlayoutRepeating(start, rng, maxPlies, rules.RepetitionLimit(), nil, nil)
		g := game.NewGame(game.Adapt[P, M](start, rules))
		p := start
		for ply := 0; ply < maxPlies; ply++ {
			if r, _ := g.Result(); r.Over() {
				break
			}
			m, _ := p.RandomMove(replay, nil)
			if err := g.Play(p.FormatMove(m)); err != nil {
				t.Fatal(err)
			}
			p = p.Play(m)
		}
		want, why := g.Result()
		if res != want || plies != len(g.Moves()) {
			t.Fatalf("%s, game %d: PlayoutRepeating %v after %d plies, Game %v (%v) after %d", start, i, res, plies, want, why, len(g.Moves()))
		}
		if why == game.Repetition {
			draws++
		}
		r0, n0 := game.PlayoutRepeating(start, rand.New(rand.NewPCG(uint64(i), 1)), maxPlies, 0, nil, nil)
		if r1, n1 := game.Playout(start, rand.New(rand.NewPCG(uint64(i), 1)), maxPlies, nil); r0 != r1 || n0 != n1 {
			t.Fatalf("%s: PlayoutRepeating without repetition %v after %d, Playout %v after %d", start, r0, n0, r1, n1)
		}
	}
	return draws
}
