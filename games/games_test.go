package games

import (
	"strings"
	"testing"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/magneton"
	"github.com/magneton-games/magneton/magneton/magnetonai"
)

func TestLookup(t *testing.T) {
	for _, tc := range []struct{ name, want, err string }{
		{"magneton", "magneton", ""},
		{"tumbling-down", "tumbling-down", ""},
		{"tumbling", "tumbling-down", ""},
		{"chess", "", `unknown game "chess" (games: magneton, tumbling-down, tumbling`},
		{"", "", "unknown game"},
	} {
		g, err := Lookup(tc.name)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("Lookup(%q): error %v, want %q", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil || g.Spec.Name != tc.want {
			t.Errorf("Lookup(%q) = %v, %v; want %s", tc.name, g, err, tc.want)
		}
		if back, err := Of(g.Spec); err != nil || back != g {
			t.Errorf("Of(%s) = %v, %v", g.Spec.Name, back, err)
		}
	}
	if Default().Spec != magneton.Spec {
		t.Errorf("the default game is %s", Default().Spec.Name)
	}
}

// TestRegisterRefuses checks that a registration that lacks what other code
// would need is refused with a message, instead of a silent default later.
func TestRegisterRefuses(t *testing.T) {
	plain := *magneton.Spec
	plain.Name, plain.Aliases = "magneton-copy", nil
	renamed := plain
	renamed.Name, renamed.Aliases = "another", []string{"tumbling"}
	badEnding := plain
	badEnding.Name, badEnding.Endings = "bad-ending", []*game.Ending{{Word: "repetition", Text: "twice"}}
	for _, tc := range []struct {
		name string
		g    *Game
		want string
	}{
		{"nil", nil, "without a Spec"},
		{"no AI", &Game{Spec: &plain}, "has no AI profile"},
		{"another game's AI", &Game{Spec: &plain, AI: magnetonai.Profile}, "its AI profile is magneton's"},
		{"a taken name", &Game{Spec: magneton.Spec, AI: magnetonai.Profile}, ""},
		{"a taken alias", &Game{Spec: &renamed, AI: profileFor(t, &renamed)}, `the name "tumbling" is tumbling-down's`},
		{"an ending twice", &Game{Spec: &badEnding, AI: profileFor(t, &badEnding)}, `"repetition" is not unique`},
	} {
		err := Register(tc.g)
		if tc.want == "" {
			if tc.name == "a taken name" && (err == nil || !strings.Contains(err.Error(), `"magneton" is magneton's`)) {
				t.Errorf("%s: error %v", tc.name, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
	if n := len(All()); n != len(builtin) {
		t.Errorf("%d games registered after refusals, want %d", n, len(builtin))
	}
}

// TestRegisterAgain: a new Game of the same Spec, profile and solver as a
// registered game's is that game again, not a clash of names: a test that
// registers a game of its own may run again (go test -count=2).
func TestRegisterAgain(t *testing.T) {
	for _, g := range builtin {
		if err := Register(&Game{Spec: g.Spec, AI: g.AI, Solver: g.Solver}); err != nil {
			t.Errorf("%s again: %v", g.Spec.Name, err)
		}
	}
	if n := len(All()); n != len(builtin) {
		t.Errorf("%d games registered, want %d", n, len(builtin))
	}
}

// profileFor makes a Magneton profile for a copy of Magneton's Spec.
func profileFor(t *testing.T, sp *game.Spec) ai.Profile {
	t.Helper()
	pr, err := ai.NewProfile(ai.GameProfile[magneton.Position, magneton.Move]{
		Spec: sp,
		Kit: func(r game.Rules, _ []int) *ai.Kit[magneton.Position, magneton.Move] {
			return magnetonai.Kit(magnetonai.Weights, magneton.Rules{})
		},
		FeatureNames: []string{"tempo"},
		Weights:      []int{1},
		Features:     func(magneton.Position) []int { return []int{1} },
		Levels:       [6]ai.Level{{Depth: 1}, {Depth: 1}, {Depth: 1}, {Depth: 2}, {Depth: 2}, {Depth: 3}},
		LevelOneTemp: 100,
		Strongest:    ai.AlphaBeta,
		LevelRatings: [8]int{1, 2, 3, 4, 5, 6, 7, 8},
	})
	if err != nil {
		t.Fatal(err)
	}
	return pr
}

func TestPlayerNames(t *testing.T) {
	names := PlayerNames()
	for _, want := range []string{"level:1 to level:8", "greedy", "boardspace-d5 (Tumbling Down)", "ugi:"} {
		if !strings.Contains(names, want) {
			t.Errorf("PlayerNames() = %q lacks %q", names, want)
		}
	}
	r, _ := magneton.Spec.Rules()
	if _, err := NewPlayer("boardspace-d5", r, ai.Config{}); err == nil || !strings.Contains(err.Error(), "unknown player") {
		t.Errorf("boardspace-d5 for Magneton: %v", err)
	}
	if _, err := NewPlayer("ugi:", r, ai.Config{}); err == nil {
		t.Error("ugi: without a path made a player")
	}
}

// TestLevel8PlaysTheBook: level 8 answers a position of the book of
// proven positions (Tumbling Down's start) with the proof's move at once,
// reported as proven with no node searched, and the loser's reply with
// the longest resistance; level 7 searches as before.
func TestLevel8PlaysTheBook(t *testing.T) {
	rules, err := Rules("tumbling")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		level  string
		proven bool
	}{{"level:8", true}, {"level:7", false}} {
		p, err := NewPlayer(tc.level, rules, ai.Config{HashMB: 1})
		if err != nil {
			t.Fatal(err)
		}
		g := game.NewGame(rules.Start())
		in, err := p.(ai.Thinker).Think(t.Context(), g, ai.Limits{Depth: 1}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := in.Proven != nil && in.Nodes == 0; got != tc.proven || tc.proven && (in.BestMove != "a7>a8" || in.Mate != 7) {
			t.Errorf("%s at the start: %+v; want the book's proven a7>a8 (mate 7): %v", tc.level, in, tc.proven)
		}
		if !tc.proven {
			continue
		}
		if err := g.Play(in.BestMove); err != nil {
			t.Fatal(err)
		}
		reply, err := p.(ai.Thinker).Think(t.Context(), g, ai.Limits{Depth: 1}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if reply.Proven == nil || reply.Mate != -6 || reply.Nodes != 0 {
			t.Errorf("the loser's reply: %+v; want the book's longest resistance (mate -6: the win's six moves left)", reply)
		}
	}
}
