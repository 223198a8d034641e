package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
)

// magnetonFeatures is the tuner's feature function for Magneton.
func magnetonFeatures(t *testing.T) func(game.State) ([]float64, bool) {
	t.Helper()
	gm, err := games.Lookup("magneton")
	if err != nil {
		t.Fatal(err)
	}
	eval := gm.AI.Evaluation()
	return func(s game.State) ([]float64, bool) {
		f, err := eval.Features(s)
		return toFloat(f), err == nil
	}
}

// TestRecordSamples reads a match's decisive game (Black won by a line)
// and checks the labels: every position is labelled with the result for
// its side to move, --last keeps only the end, and no position where the
// side to move wins at once is kept.
func TestRecordSamples(t *testing.T) {
	features := magnetonFeatures(t)
	file := filepath.Join("testdata", "decisive.pgn")
	all, results, err := recordSamples([]string{file}, "magneton", 0, features)
	if err != nil {
		t.Fatal(err)
	}
	if results[game.SecondWins] != 1 || len(results) != 1 {
		t.Fatalf("results %v, want one win for the second side", results)
	}
	tail, _, err := recordSamples([]string{file}, "magneton", 12, features)
	if err != nil {
		t.Fatal(err)
	}
	if len(tail) == 0 || len(tail) > 12 || len(all) <= len(tail) {
		t.Fatalf("%d samples in all, %d in the last 12 plies", len(all), len(tail))
	}
	var ones, zeros int
	for _, s := range all {
		switch s.y {
		case 1:
			ones++
		case 0:
			zeros++
		default:
			t.Fatalf("label %v in a decisive game", s.y)
		}
	}
	// The sides alternate, and the winner's winning positions are left out,
	// so each side has about half the positions.
	if d := ones - zeros; d < -3 || d > 3 {
		t.Errorf("%d positions labelled won, %d lost: the labels do not follow the side to move", ones, zeros)
	}
}

// TestRecordSamplesErrors checks that files the tuner cannot use are
// reported with the file and the game.
func TestRecordSamplesErrors(t *testing.T) {
	features := magnetonFeatures(t)
	good, err := os.ReadFile(filepath.Join("testdata", "decisive.pgn"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	illegal := strings.Replace(string(good), "1. d6 f7", "1. d6 d6", 1)
	for _, tc := range []struct {
		name, file, game, want string
	}{
		{"missing file", filepath.Join(dir, "none.pgn"), "magneton", "none.pgn"},
		{"illegal move", write("illegal.pgn", illegal), "magneton", "illegal.pgn, game 1: move 2"},
		{"other game", write("good.pgn", string(good)), "tumbling", "a game of magneton, not tumbling"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := recordSamples([]string{tc.file}, tc.game, 0, features)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}
