package analysis

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/record"
)

// TestImportRoundTrip writes random games of both games, under their
// default rules and others, from their start and from a later position,
// in every format the site writes (record.Formats: the game page's
// downloads), and imports each: the same game, rules, start and moves.
func TestImportRoundTrip(t *testing.T) {
	for _, tc := range []struct{ game, rules string }{
		{"magneton", ""},
		{"magneton", "force=weak,repetition=off"},
		{"tumbling-down", ""},
		{"tumbling-down", "capture=pbem,layout=original"},
	} {
		rules, err := games.Rules(tc.game, tc.rules)
		if err != nil {
			t.Fatal(err)
		}
		for seed := uint64(1); seed <= 3; seed++ {
			rng := rand.New(rand.NewPCG(seed, 5))
			start := rules.Start()
			if seed == 3 { // a set-up start: the position after a few moves
				for range 4 {
					m, _ := start.RandomMove(rng)
					start, _ = start.Play(m)
				}
			}
			g := game.NewGame(start)
			for range 10 + rng.IntN(40) {
				if res, _ := g.Result(); res.Over() {
					break
				}
				m, _ := g.Position().RandomMove(rng)
				if err := g.Play(m); err != nil {
					t.Fatal(err)
				}
			}
			tr := game.Transcript{Game: g, Players: [2]string{"Ann", "Bob"}, Date: time.Date(2026, 12, 3, 0, 0, 0, 0, time.UTC)}
			for _, f := range record.Formats(rules.Spec()) {
				text, err := f.Write(tr)
				if err != nil {
					t.Fatalf("%s %s: write %s: %v", tc.game, tc.rules, f.Name, err)
				}
				got, err := Import(text)
				if err != nil {
					t.Fatalf("%s %s: import %s: %v\n%s", tc.game, tc.rules, f.Name, err, text)
				}
				if got.Game != tc.game || got.Format != f.Name || got.Rules != rules.Settings().String() || got.Position != start.String() || !slices.Equal(got.Moves, g.Moves()) {
					t.Errorf("%s %s seed %d, %s: imported %+v, want the start %s and moves %v", tc.game, tc.rules, seed, f.Name, got, start, g.Moves())
				}
			}
		}
	}
}

// TestImportAnalysisRecord reads the analysis board's own record
// (js/analysis-record.js recordText: [Rules "standard"] for the default
// rules, a variation in parentheses) and refuses what is no record,
// saying what is wrong.
func TestImportAnalysisRecord(t *testing.T) {
	got, err := Import("[Game \"magneton\"]\n[Rules \"standard\"]\n[Position \"8/8/8/8/8/8/8/8 w 12 12\"]\n\n1. d4 e5 2. c3 *\n")
	if err != nil {
		t.Fatal(err)
	}
	if got.Game != "magneton" || !slices.Equal(got.Moves, []string{"d4", "e5", "c3"}) {
		t.Errorf("imported %+v", got)
	}
	for _, tc := range []struct{ text, says string }{
		{"", "empty"},
		{"(;FF[4]GM[1]SZ[19];B[pd])", "GM[1]"},
		{"(;FF[4]GM[33];B[zz9])", "B[zz9]"},
		{"[Game \"chess\"]\n\n1. e4 *", "chess"},
	} {
		if _, err := Import(tc.text); err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("Import(%q): %v, want an error saying %q", tc.text, err, tc.says)
		}
	}
}

// FuzzImport: no text makes the import panic, and what it reads it
// reads again the same once written.
func FuzzImport(f *testing.F) {
	f.Add("(;FF[4]GM[33]CA[UTF-8]AP[magneton]RU[capture=any];B[a7>a8];W[g2>g1])")
	f.Add("[Game \"magneton\"]\n[Result \"*\"]\n\n1. d4 e5 *\n")
	f.Add("(;GM[33](;B[a7>a8])(;B[a6>b7]))")
	f.Fuzz(func(t *testing.T, text string) {
		got, err := Import(text)
		if err != nil {
			return
		}
		if _, err := games.Rules(got.Game, got.Rules); err != nil {
			t.Fatalf("imported rules %q of %s: %v", got.Rules, got.Game, err)
		}
	})
}
