package puzzle

import (
	"slices"
	"testing"
)

// TestGameThemes: what the winning move is, read off hand-made boards.
func TestGameThemes(t *testing.T) {
	for _, tc := range []struct {
		game, position, move string
		want                 []string
	}{
		{"magneton", "8/8/8/8/8/8/8/8 w 1 1", "d4", []string{ThemeDrop}},
		// d1 slides up to the black stone on h1: a pull.
		{"magneton", "8/8/8/8/8/8/8/3W3B w 0 0", "d1-g1", []string{ThemeMovePhase, ThemePull}},
		// d1 slides away from the white stone on a1 to the edge: a push.
		{"magneton", "8/8/8/8/8/8/8/W2W4 w 0 0", "d1-h1", []string{ThemeMovePhase, ThemePush}},
		// Away from a1 and up to h1: both.
		{"magneton", "8/8/8/8/8/8/8/W2W3B w 0 0", "d1-g1", []string{ThemeMovePhase, ThemePush, ThemePull}},
		// On a file: d1 pushed up by nothing, pulled to d8's black stone.
		{"magneton", "3B4/8/8/8/8/8/8/3W4 w 0 0", "d1-d7", []string{ThemeMovePhase, ThemePull}},
		{"tumbling-down", "8/8/8/8/8/8/8/rr,7 r", "a1-b1", []string{ThemeStep}},
		// A mixed stack of three with seven squares of room.
		{"tumbling-down", "8/8/8/8/8/8/8/rrb,7 b", "a1>b1", []string{ThemeTumble, ThemeMixedTumble}},
		// Three disks, one square of room: two are piled at the edge.
		{"tumbling-down", "8/8/8/8/8/8/8/6,rrr,1 r", "g1>h1", []string{ThemeTumble, ThemeEdgePile}},
		// Diagonally from b2 towards a1: one square of room.
		{"tumbling-down", "8/8/8/8/8/8/1,bb,6/8 b", "b2>a1", []string{ThemeTumble, ThemeEdgePile}},
	} {
		var got []string
		var err error
		if tc.game == "magneton" {
			got, err = magnetonThemes(tc.position, tc.move)
		} else {
			got, err = tumblingThemes(tc.position, tc.move)
		}
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("%s %s %s: %v, %v; want %v", tc.game, tc.position, tc.move, got, err, tc.want)
		}
	}
}

// TestGameThemesBadInput: a move from an empty square or off the board,
// or a board with a short rank, is an error, not a panic.
func TestGameThemesBadInput(t *testing.T) {
	for _, tc := range []struct{ game, position, move string }{
		{"magneton", "8/8/8/8/8/8/8/8 w 0 0", "d1-g1"},
		{"magneton", "8/8/8/8/8/8/8/3W4 w 0 0", "d1-z9"},
		{"magneton", "8/8/8/8/8/8/8/3W3 w 0 0", "d1-g1"},
		{"tumbling-down", "8/8/8/8/8/8/8/8 b", "a1>b1"},
		{"tumbling-down", "8/8/8/8/8/8/8/rr,7 b", "a1>q1"},
		{"tumbling-down", "8/8/8/8/8/8/8/rr,7 b", "a1>a1"},
		{"magneton", "8/8/8/8/8/8/8/W7 w 0 0", "a1-c2"},
		{"magneton", "99999999999/8 w 0 0", "a1-a2"},
	} {
		var err error
		if tc.game == "magneton" {
			_, err = magnetonThemes(tc.position, tc.move)
		} else {
			_, err = tumblingThemes(tc.position, tc.move)
		}
		if err == nil {
			t.Errorf("%s %s %s: no error", tc.game, tc.position, tc.move)
		}
	}
}

func TestThreats(t *testing.T) {
	for _, tc := range []struct {
		game  string
		moves []string
		want  int
	}{
		{"tumbling-down", []string{"g3>g2", "h2-g1", "h2>g1"}, 2},
		{"tumbling-down", []string{"h2-g1", "h2>g1"}, 1},
		{"magneton", []string{"d1-g1", "d1-h1"}, 2},
		{"magneton", nil, 0},
	} {
		if got := threats(tc.game, tc.moves); got != tc.want {
			t.Errorf("%s %v: %d threats, want %d", tc.game, tc.moves, got, tc.want)
		}
	}
}

// FuzzGameThemes: the board readers take any text and move without a
// panic.
func FuzzGameThemes(f *testing.F) {
	f.Add("8/8/8/8/8/8/8/W2W3B w 0 0", "d1-g1")
	f.Add("8/8/8/8/8/8/8/6,rrr,1 r", "g1>h1")
	f.Add("1/2/3", "a1-a9")
	f.Add("", "")
	f.Fuzz(func(t *testing.T, position, move string) {
		magnetonThemes(position, move)
		tumblingThemes(position, move)
	})
}
