package puzzle_test

import (
	"context"
	"flag"
	"strings"
	"testing"
	"time"

	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/puzzle"
)

// allPuzzles makes TestShippedPuzzles verify every shipped puzzle with
// the proof search (go test ./puzzle -puzzles.all: about a minute); the
// normal run verifies a sample.
var allPuzzles = flag.Bool("puzzles.all", false, "verify every shipped puzzle, not a sample")

// TestShippedPuzzles verifies the shipped puzzles (a sample of one in
// sampleEvery, spread over the file, without -puzzles.all): each line is
// legal and wins, its first move is the only one that wins within its
// length, its accept lists are exactly the winning moves and its themes
// what Themes computes. The whole set is checked for the count per game
// and for duplicates up to symmetry.
func TestShippedPuzzles(t *testing.T) {
	const sampleEvery = 25
	ps, err := puzzle.Shipped()
	if err != nil {
		t.Fatal(err)
	}
	per := map[string]int{}
	verified := 0
	for i, pz := range ps {
		per[pz.Game]++
		if !*allPuzzles && i%sampleEvery != 0 {
			continue
		}
		verified++
		if err := puzzle.Verify(context.Background(), pz); err != nil {
			t.Error(err)
		}
	}
	t.Logf("%d of %d puzzles verified", verified, len(ps))
	start := time.Now()
	if err := puzzle.CheckSet(ps); err != nil {
		t.Error(err)
	}
	// The server computes these keys once, at its first "next".
	t.Logf("the keys of %d puzzles up to symmetry in %v", len(ps), time.Since(start))
	for _, g := range games.All() {
		if per[g.Spec.Name] < 500 {
			t.Errorf("%s has %d puzzles; want at least 500", g.Spec.Name, per[g.Spec.Name])
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
		c.Themes = append([]string(nil), base.Themes...)
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
		{"a theme it lacks", func(p *puzzle.Puzzle) { p.Themes = append(p.Themes, puzzle.ThemeDoubleThreat+"x") }, "themes"},
		{"no themes", func(p *puzzle.Puzzle) { p.Themes = nil }, "themes"},
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
		var found []*puzzle.Puzzle
		err = gen.Run(context.Background(), 3, func(pz *puzzle.Puzzle) {
			found = append(found, pz)
			if err := puzzle.Verify(context.Background(), pz); err != nil {
				t.Errorf("%s: found but not verified: %v", name, err)
			}
			if pz.Record == "" || len(pz.Themes) == 0 {
				t.Errorf("%s: puzzle %s without a record or themes", name, pz.ID)
			}
		}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := puzzle.CheckSet(found); err != nil {
			t.Errorf("%s: the generator repeats itself: %v", name, err)
		}
		checkNoLineRepeats(t, found)
		t.Logf("%s: %d puzzles in 3 games", name, len(found))
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

// checkNoLineRepeats: no puzzle's position is on the line of another of
// the same game record (it would be that puzzle again, shorter).
func checkNoLineRepeats(t *testing.T, ps []*puzzle.Puzzle) {
	t.Helper()
	onLine := map[string]string{} // position -> the puzzle whose line reaches it
	for _, pz := range ps {
		if id, ok := onLine[pz.Record+" "+pz.Position]; ok {
			t.Errorf("puzzle %s is on the line of %s", pz.ID, id)
		}
		rules, err := games.Rules(pz.Game, pz.Rules)
		if err != nil {
			t.Fatal(err)
		}
		s, err := rules.ParsePosition(pz.Position)
		if err != nil {
			t.Fatal(err)
		}
		for _, mv := range pz.Line {
			if s, err = s.Play(mv); err != nil {
				t.Fatal(err)
			}
			onLine[pz.Record+" "+s.String()] = pz.ID
		}
	}
}

// TestKeySymmetry: a puzzle whose position is another's under a symmetry
// of the board has the same key, is alike, and the set of both is
// refused naming both; a puzzle of another record and position is not.
func TestKeySymmetry(t *testing.T) {
	ps, err := puzzle.Shipped()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"magneton", "tumbling-down"} {
		var a, other *puzzle.Puzzle
		for _, pz := range ps {
			if pz.Game != name {
				continue
			}
			if a == nil {
				a = pz
			} else if pz.Record != a.Record {
				other = pz
				break
			}
		}
		g, err := games.Lookup(name)
		if err != nil || a == nil || other == nil || len(g.Spec.Symmetries) == 0 {
			t.Fatalf("%s: %v, puzzles %v %v, %d symmetries", name, err, a, other, len(g.Spec.Symmetries))
		}
		for _, y := range g.Spec.Symmetries {
			b := *a
			b.ID, b.Record = "mapped", "elsewhere"
			b.Position = y.Position(a.Position)
			ka, _ := puzzle.Key(a)
			kb, err := puzzle.Key(&b)
			if err != nil || ka != kb || !puzzle.Alike(a, &b) {
				t.Errorf("%s under %s: keys %q and %q (%v)", a.ID, y.Name, ka, kb, err)
			}
			err = puzzle.CheckSet([]*puzzle.Puzzle{a, other, &b})
			if err == nil || !strings.Contains(err.Error(), a.ID) || !strings.Contains(err.Error(), "mapped") {
				t.Errorf("%s under %s: the set is %v", a.ID, y.Name, err)
			}
		}
		if puzzle.Alike(a, other) {
			t.Errorf("%s and %s: alike", a.ID, other.ID)
		}
		same := *other
		same.Record = a.Record
		if !puzzle.Alike(a, &same) {
			t.Errorf("%s and %s of one record: not alike", a.ID, other.ID)
		}
	}
}
