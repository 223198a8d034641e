package magneton

import (
	"slices"
	"testing"

	"github.com/magneton-games/magneton/tumbling"
)

// motifsOf reads a position under the default rules and names the
// motifs of a move of it.
func motifsOf(position, move string) ([]string, error) {
	rules, err := Spec.Rules()
	if err != nil {
		return nil, err
	}
	s, err := rules.ParsePosition(position)
	if err != nil {
		return nil, err
	}
	return Spec.Motifs.Of(s, move)
}

// TestMotifs: what a move is, read off hand-made boards.
func TestMotifs(t *testing.T) {
	for _, tc := range []struct {
		position, move string
		want           []string
	}{
		{"8/8/8/8/8/8/8/8 w 1 1", "d4", []string{MotifDrop}},
		// d1 slides up to the black stone on h1: a pull.
		{"8/8/8/8/8/8/8/3W3B w 0 0", "d1-g1", []string{MotifMovePhase, MotifPull}},
		// d1 slides away from the white stone on a1 to the edge: a push.
		{"8/8/8/8/8/8/8/W2W4 w 0 0", "d1-h1", []string{MotifMovePhase, MotifPush}},
		// Away from a1 and up to h1: both.
		{"8/8/8/8/8/8/8/W2W3B w 0 0", "d1-g1", []string{MotifMovePhase, MotifPush, MotifPull}},
		// On a file: pushed by nothing, pulled to d8's black stone.
		{"3B4/8/8/8/8/8/8/3W4 w 0 0", "d1-d7", []string{MotifMovePhase, MotifPull}},
		// A black stone behind repels nothing: no push.
		{"8/8/8/8/8/8/8/B2W3B w 0 0", "d1-g1", []string{MotifMovePhase, MotifPull}},
	} {
		got, err := motifsOf(tc.position, tc.move)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("%s %s: %v, %v; want %v", tc.position, tc.move, got, err, tc.want)
		}
		for _, m := range got {
			if !slices.Contains(Spec.Motifs.IDs, m) {
				t.Errorf("%s %s: motif %q is not among the IDs %v", tc.position, tc.move, m, Spec.Motifs.IDs)
			}
		}
	}
}

// TestMotifsBadInput: a move from an empty square, off the board, not
// along a line or of another game is an error, not a panic.
func TestMotifsBadInput(t *testing.T) {
	for _, tc := range []struct{ position, move string }{
		{"8/8/8/8/8/8/8/8 w 0 0", "d1-g1"},
		{"8/8/8/8/8/8/8/3W4 w 0 0", "d1-z9"},
		{"8/8/8/8/8/8/8/W7 w 0 0", "a1-c2"},
		{"8/8/8/8/8/8/8/3W4 w 0 0", ""},
	} {
		if got, err := motifsOf(tc.position, tc.move); err == nil {
			t.Errorf("%s %s: %v, no error", tc.position, tc.move, got)
		}
	}
	td, err := tumbling.Spec.Rules()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Spec.Motifs.Of(td.Start(), "d4"); err == nil {
		t.Error("a position of Tumbling Down: no error")
	}
}

// FuzzMotifs: any position that reads and any move text, without a panic;
// the motifs of a move are among the IDs.
func FuzzMotifs(f *testing.F) {
	f.Add("8/8/8/8/8/8/8/W2W3B w 0 0", "d1-g1")
	f.Add("8/8/8/8/8/8/8/8 w 1 1", "d4")
	f.Add("1/2/3", "a1-a9")
	f.Fuzz(func(t *testing.T, position, move string) {
		got, err := motifsOf(position, move)
		if err != nil {
			return
		}
		for _, m := range got {
			if !slices.Contains(Spec.Motifs.IDs, m) {
				t.Fatalf("%s %s: motif %q is not among the IDs", position, move, m)
			}
		}
	})
}
