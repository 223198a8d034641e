package puzzle_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/puzzle"
)

// TestShippedPuzzles verifies every shipped puzzle: its line is legal and
// wins, its first move is the only one that wins within its length, and
// its accept lists are exactly the winning moves.
func TestShippedPuzzles(t *testing.T) {
	ps, err := puzzle.Shipped()
	if err != nil {
		t.Fatal(err)
	}
	per := map[string]int{}
	for _, pz := range ps {
		per[pz.Game]++
		if err := puzzle.Verify(context.Background(), pz); err != nil {
			t.Error(err)
		}
	}
	for _, g := range games.All() {
		if per[g.Spec.Name] < 20 {
			t.Errorf("%s has %d puzzles; want at least 20", g.Spec.Name, per[g.Spec.Name])
		}
	}
}

// TestVerifyRejects: a puzzle changed in any way that makes it wrong is
// refused, with a message that says where.
func TestVerifyRejects(t *testing.T) {
	ps, err := puzzle.Shipped()
	if err != nil {
		t.Fatal(err)
	}
	var base *puzzle.Puzzle
	for _, pz := range ps {
		if pz.WinIn >= 2 && len(pz.Accept[1]) >= 1 {
			base = pz
			break
		}
	}
	if base == nil {
		t.Fatal("no puzzle of two moves or more")
	}
	clone := func() *puzzle.Puzzle {
		c := *base
		c.Line = append([]string(nil), base.Line...)
		c.Accept = nil
		for _, a := range base.Accept {
			c.Accept = append(c.Accept, append([]string(nil), a...))
		}
		return &c
	}
	for _, tc := range []struct {
		name   string
		change func(*puzzle.Puzzle)
		want   string
	}{
		{"another first move", func(p *puzzle.Puzzle) { p.Line[0] = otherMove(t, p); p.Accept[0] = []string{p.Line[0]} }, "move 1"},
		{"a shorter line", func(p *puzzle.Puzzle) { p.Line = p.Line[:len(p.Line)-1] }, "needs"},
		{"an illegal reply", func(p *puzzle.Puzzle) { p.Line[1] = "zz9" }, "move 2"},
		{"a narrower accept list", func(p *puzzle.Puzzle) { p.Accept[0] = nil }, "the puzzle accepts"},
		{"an unknown game", func(p *puzzle.Puzzle) { p.Game = "chess" }, "unknown game"},
		{"a bad position", func(p *puzzle.Puzzle) { p.Position = "nonsense" }, "position"},
	} {
		p := clone()
		tc.change(p)
		err := puzzle.Verify(context.Background(), p)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), base.ID) {
			t.Errorf("%s: %v, want an error about %q naming %s", tc.name, err, tc.want, base.ID)
		}
	}
}

// otherMove returns a legal first move of the puzzle other than its
// solution.
func otherMove(t *testing.T, p *puzzle.Puzzle) string {
	t.Helper()
	rules, err := games.Rules(p.Game, p.Rules)
	if err != nil {
		t.Fatal(err)
	}
	s, err := rules.ParsePosition(p.Position)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range s.Moves() {
		if m != p.Line[0] {
			return m
		}
	}
	t.Fatal("the puzzle has one legal move")
	return ""
}

// TestFindAgreesWithVerify: what the generator finds, Verify accepts.
func TestFindAgreesWithVerify(t *testing.T) {
	for _, name := range []string{"magneton", "tumbling"} {
		g, err := games.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		rules, err := g.Spec.Rules()
		if err != nil {
			t.Fatal(err)
		}
		gen := &puzzle.Generator{Game: g, Rules: rules, Player: "level:1", MoveTime: 5 * time.Millisecond, Random: 4, MaxWin: 2, MaxPlies: 120, Seed: 3}
		found := 0
		err = gen.Run(context.Background(), 3, func(pz *puzzle.Puzzle) {
			found++
			if err := puzzle.Verify(context.Background(), pz); err != nil {
				t.Errorf("%s: found but not verified: %v", name, err)
			}
		}, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d puzzles in 3 games", name, found)
	}
}

func TestDaily(t *testing.T) {
	ps, err := puzzle.Shipped()
	if err != nil {
		t.Fatal(err)
	}
	day := time.Date(2026, 12, 1, 3, 0, 0, 0, time.UTC)
	a, b := puzzle.Daily(ps, day), puzzle.Daily(ps, day.Add(20*time.Hour))
	if a != b {
		t.Error("two puzzles on one day")
	}
	if c := puzzle.Daily(ps, day.Add(24*time.Hour)); c == a {
		t.Error("the same puzzle two days running")
	}
	if puzzle.Daily(nil, day) != nil {
		t.Error("a daily puzzle out of none")
	}
}

func FuzzRead(f *testing.F) {
	f.Add(`{"id":"a","game":"magneton","rules":"","position":"8/8/8/8/8/8/8/8 w 12 12","win_in":1,"line":["d4"],"accept":[["d4"]]}`)
	f.Add("# comment\n\n{\"id\":\"x\"}\n{\"id\":\"x\"}")
	f.Add(`{"id":1}`)
	f.Fuzz(func(t *testing.T, text string) {
		ps, err := puzzle.Read(strings.NewReader(text))
		if err == nil {
			for _, p := range ps {
				if p.ID == "" {
					t.Error("a puzzle without an id was read")
				}
				puzzle.Verify(context.Background(), p) // never panics
			}
		} else if !strings.HasPrefix(err.Error(), "line ") && !strings.HasPrefix(err.Error(), "read puzzles") {
			t.Errorf("error without its line: %v", err)
		}
	})
}
