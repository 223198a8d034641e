package suite

import (
	"bytes"
	"context"
	"flag"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/puzzle"
)

// all verifies every entry of the committed suites, not a sample.
var all = flag.Bool("suite.all", false, "verify every entry of the committed suites (minutes)")

// defaultSettings is the settings text of a game's default rules.
func defaultSettings(t *testing.T, name string) string {
	t.Helper()
	gm, err := games.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	r, err := gm.Spec.Rules()
	if err != nil {
		t.Fatal(err)
	}
	return r.Settings().String()
}

func TestReadErrors(t *testing.T) {
	mg := defaultSettings(t, "magneton")
	pos := "W1W2W2/1BB5/WB4WW/BWB2BBB/WB2W2W/B1W4B/2W5/3B4 b 0 0"
	tests := []struct {
		name, line, want string
	}{
		{"fields", "magneton\t" + mg + "\twin\t3", "want 7 tab-separated fields"},
		{"kind", "magneton\t" + mg + "\tdraw\t3\th3-d3\t" + pos + "\tx", `kind "draw"`},
		{"n", "magneton\t" + mg + "\twin\tthree\th3-d3\t" + pos + "\tx", `n "three"`},
		{"short win", "magneton\t" + mg + "\twin\t2\th3-d3\t" + pos + "\tx", "a win entry's win is 3 to 12 moves"},
		{"game", "chess\t\twin\t3\te4\t" + pos + "\tx", "game:"},
		{"rules", "magneton\tforce=huge\twin\t3\th3-d3\t" + pos + "\tx", `rules "force=huge"`},
		{"position", "magneton\t" + mg + "\twin\t3\th3-d3\tW9/8 w 0 0\tx", "position"},
		{"move", "magneton\t" + mg + "\twin\t3\ta1-a2\t" + pos + "\tx", `move "a1-a2"`},
		{"no moves", "magneton\t" + mg + "\twin\t3\t\t" + pos + "\tx", "moves: none given"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Read(strings.NewReader("# a comment\n\n" + tt.line + "\n"))
			if err == nil || !strings.Contains(err.Error(), "line 3") || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Read: %v, want an error at line 3 naming %q", err, tt.want)
			}
		})
	}
}

func TestWriteRead(t *testing.T) {
	mg := defaultSettings(t, "magneton")
	in := []*Entry{
		{Game: "magneton", Rules: mg, Kind: Win, N: 3, Moves: []string{"h3-d3"}, Position: "W1W2W2/1BB5/WB4WW/BWB2BBB/WB2W2W/B1W4B/2W5/3B4 b 0 0", Source: "puzzle magneton-11-3"},
	}
	var buf bytes.Buffer
	if err := Write(&buf, []string{"made by a test"}, in); err != nil {
		t.Fatal(err)
	}
	out, err := Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(in, out); d != "" {
		t.Errorf("read back (-wrote +read):\n%s", d)
	}
}

func FuzzRead(f *testing.F) {
	f.Add("magneton\tforce=strong\twin\t3\th3-d3\tW1W2W2/1BB5/WB4WW/BWB2BBB/WB2W2W/B1W4B/2W5/3B4 b 0 0\tx\n")
	f.Add("tumbling-down\t\thold\t7\ta1>a2\t8/8 w\t\n# x\n")
	f.Fuzz(func(t *testing.T, text string) {
		entries, err := Read(strings.NewReader(text))
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := Write(&buf, nil, entries); err != nil {
			t.Fatal(err)
		}
		again, err := Read(&buf)
		if err != nil {
			t.Fatalf("an entry read does not read again: %v", err)
		}
		if d := cmp.Diff(entries, again); d != "" {
			t.Errorf("read, written and read again (-first +second):\n%s", d)
		}
	})
}

func TestCanonical(t *testing.T) {
	for _, gm := range []string{"magneton", "tumbling-down"} {
		g, err := games.Lookup(gm)
		if err != nil {
			t.Fatal(err)
		}
		r, _ := g.Spec.Rules()
		s := r.Start()
		// A position a few moves in, and its images: all one canonical text.
		for _, m := range s.Moves()[:3] {
			c, err := s.Play(m)
			if err != nil {
				t.Fatal(err)
			}
			want := g.Spec.Canonical(c.String())
			for _, sym := range g.Spec.Symmetries {
				if got := g.Spec.Canonical(sym.Position(c.String())); got != want {
					t.Errorf("%s: after %s under %s: canonical %q, want %q", gm, m, sym.Name, got, want)
				}
			}
		}
	}
}

// TestClassifyPuzzles classifies the shipped puzzles' positions: a puzzle
// that wins in 3 is a win entry in 3 whose moves are its accepted first
// moves, and one that wins in fewer is no entry.
func TestClassifyPuzzles(t *testing.T) {
	ps, err := puzzle.Shipped()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	checked := map[int]int{}
	for _, pz := range ps {
		if checked[pz.WinIn] >= 3 {
			continue
		}
		checked[pz.WinIn]++
		gm, err := games.Lookup(pz.Game)
		if err != nil {
			t.Fatal(err)
		}
		r, err := gm.Spec.Rules(strings.Split(pz.Rules, ",")...)
		if err != nil {
			t.Fatal(err)
		}
		s, err := r.ParsePosition(pz.Position)
		if err != nil {
			t.Fatal(err)
		}
		e, err := Prover{Game: gm, Nodes: puzzle.Budget}.Classify(ctx, s)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case pz.WinIn < MinWin && e != nil && e.Kind == Win:
			t.Errorf("puzzle %s (win in %d): a win entry %+v", pz.ID, pz.WinIn, e)
		case pz.WinIn >= MinWin && (e == nil || e.Kind != Win || e.N != pz.WinIn || !slices.Contains(e.Moves, pz.Line[0])):
			t.Errorf("puzzle %s (win in %d by %s): entry %+v", pz.ID, pz.WinIn, pz.Line[0], e)
		}
	}
	if checked[MinWin] == 0 {
		t.Errorf("no shipped puzzle wins in %d: nothing checked the win entries", MinWin)
	}
}

// TestCommittedSuites verifies a sample of each committed suite with the
// prover, and all of it with -suite.all; and scores the greedy player and
// level 3 on a few entries, which must tell them apart from a perfect
// score when the suite is a real test.
func TestCommittedSuites(t *testing.T) {
	for _, file := range []string{"../testdata/magneton/suite.tsv", "../testdata/tumbling-down/suite.tsv"} {
		t.Run(file, func(t *testing.T) {
			entries := readFile(t, file)
			counts := map[Kind]int{}
			for _, e := range entries {
				counts[e.Kind]++
			}
			if counts[Win] < 300 || counts[Hold] < 300 {
				t.Errorf("%s: %d win and %d hold entries, want 300 of each", file, counts[Win], counts[Hold])
			}
			if d := len(entries) - len(Dedupe(entries)); d != 0 {
				t.Errorf("%s: %d entries equal to others up to symmetry", file, d)
			}
			sample := entries
			if !*all {
				sample = nil
				for i := 0; i < len(entries); i += len(entries) / 12 {
					sample = append(sample, entries[i])
				}
			}
			if err := Verify(context.Background(), sample, DefaultNodes, nil); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestScoreTellsPlayersApart(t *testing.T) {
	entries := readFile(t, "../testdata/tumbling-down/suite.tsv")
	var wins []*Entry
	for _, e := range entries {
		if e.Kind == Win && len(wins) < 8 {
			wins = append(wins, e)
		}
	}
	ctx := context.Background()
	rep := map[string]Report{}
	for _, p := range []string{"random", "level:8"} {
		r, err := Scorer{Player: p, MoveTime: 50 * time.Millisecond, HashMB: 4, Nodes: DefaultNodes}.Score(ctx, wins, nil)
		if err != nil {
			t.Fatal(err)
		}
		rep[p] = r
	}
	if rep["level:8"].All.Kept <= rep["random"].All.Kept {
		t.Errorf("level 8 kept %s of wins, random %s: the suite does not tell them apart", rep["level:8"].All, rep["random"].All)
	}
}

func readFile(t *testing.T, name string) []*Entry {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	entries, err := Read(f)
	if err != nil {
		t.Fatal(err)
	}
	return entries
}
