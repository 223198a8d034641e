package ai_test

import (
	"strings"
	"testing"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/magneton"
	"github.com/magneton-games/magneton/magneton/magnetonai"
	"github.com/magneton-games/magneton/tumbling"
	"github.com/magneton-games/magneton/tumbling/tumblingai"
)

// TestProfileCheck checks that the game profiles pass their own check and
// that the check catches what the issue of a silent default was: a level
// table left out (every level would play at full strength) and a missing
// level 1 temperature (a division by zero in beginnerMove).
func TestProfileCheck(t *testing.T) {
	for _, pr := range []ai.Profile{magnetonai.Profile, tumblingai.Profile} {
		if err := pr.Check(); err != nil {
			t.Errorf("%s: %v", pr.Spec().Name, err)
		}
	}
	good := ai.GameProfileOf[magneton.Position, magneton.Move](magnetonai.Profile)
	for _, tc := range []struct {
		name   string
		change func(*ai.GameProfile[magneton.Position, magneton.Move])
		want   string
	}{
		{"no levels", func(g *ai.GameProfile[magneton.Position, magneton.Move]) { g.Levels = [6]ai.Level{} }, "level 2 caps nothing"},
		{"no level ratings", func(g *ai.GameProfile[magneton.Position, magneton.Move]) { g.LevelRatings = [8]int{} }, "level 1's rating 0"},
		{"falling level ratings", func(g *ai.GameProfile[magneton.Position, magneton.Move]) { g.LevelRatings[5] = 900 }, "level 6's rating 900: want ratings that rise"},
		{"no temperature", func(g *ai.GameProfile[magneton.Position, magneton.Move]) { g.LevelOneTemp = 0 }, "LevelOneTemp 0"},
		{"no kit", func(g *ai.GameProfile[magneton.Position, magneton.Move]) { g.Kit = nil }, "no Kit"},
		{"weights", func(g *ai.GameProfile[magneton.Position, magneton.Move]) { g.Weights = g.Weights[1:] }, "feature names"},
		{"algorithm", func(g *ai.GameProfile[magneton.Position, magneton.Move]) { g.Strongest = "" }, "Strongest"},
		{"level 8's weights", func(g *ai.GameProfile[magneton.Position, magneton.Move]) { g.StrongestWeights = []int{1} }, "1 StrongestWeights"},
		{"baseline", func(g *ai.GameProfile[magneton.Position, magneton.Move]) {
			g.Baselines = []ai.Baseline{{Name: "greedy", New: func(game.Rules, ai.Config) (ai.Player, error) { return nil, nil }}}
		}, "clashes"},
	} {
		gp := good
		tc.change(&gp)
		if _, err := ai.NewProfile(gp); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}

func TestNewPlayerErrors(t *testing.T) {
	for _, name := range []string{"level:0", "level:9", "nobody", "boardspace-d5", "ugi:"} {
		if _, err := magnetonai.Profile.NewPlayer(name, magneton.Rules{}, ai.Config{}); err == nil {
			t.Errorf("NewPlayer(%q) gave no error", name)
		}
	}
	if _, err := magnetonai.Profile.NewPlayer("greedy", tumbling.Rules{}, ai.Config{}); err == nil {
		t.Error("Magneton's profile made a player of Tumbling Down")
	}
	if _, err := magnetonai.Profile.NewPlayer("alphabeta", magneton.Rules{}, ai.Config{Weights: []int{1}}); err == nil {
		t.Error("a player with too few weights was made")
	}
}

// TestLevelEightWeights checks that level 8 evaluates with the profile's
// StrongestWeights and the levels below with Weights.
func TestLevelEightWeights(t *testing.T) {
	p, err := magneton.Rules{}.Parse("8/8/3WB3/3W4/3W4/2W1B3/8/8 b 8 10")
	if err != nil {
		t.Fatal(err)
	}
	f := magnetonai.Features(p)
	gp := ai.GameProfileOf[magneton.Position, magneton.Move](magnetonai.Profile)
	if ai.Weigh(f[:], gp.StrongestWeights) == ai.Weigh(f[:], gp.Weights) {
		t.Fatal("the position does not tell the two weights apart")
	}
	for _, tc := range []struct {
		name string
		w    []int
	}{{"level:8", gp.StrongestWeights}, {"level:7", gp.Weights}} {
		pl, err := magnetonai.Profile.NewPlayer(tc.name, magneton.Rules{}, ai.Config{HashMB: 1})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := ai.PlayerKit[magneton.Position, magneton.Move](pl).Eval(p), ai.Weigh(f[:], tc.w); got != want {
			t.Errorf("%s evaluates %d, want %d (weights %v)", tc.name, got, want, tc.w)
		}
	}
}
