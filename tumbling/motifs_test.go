package tumbling

import (
	"slices"
	"testing"
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
		{"8/8/8/8/8/8/8/rr,b,6 r", "a1-a2", []string{MotifStep}},
		// A mixed stack of three with seven squares of room.
		{"8/8/8/8/8/8/8/rrb,rr,5,b b", "a1>a2", []string{MotifTumble, MotifMixedTumble}},
		// Three disks, one square of room: two are piled at the edge.
		{"8/8/8/8/8/8/8/b,5,rrr,1 r", "g1>h1", []string{MotifTumble, MotifEdgePile}},
		// Diagonally from b2 towards a1: one square of room.
		{"8/8/8/8/8/8/1,bb,5,r/8 b", "b2>a1", []string{MotifTumble, MotifEdgePile}},
		// Exactly as many squares as disks: no pile.
		{"8/8/8/8/8/8/8/b,3,rrr,3 r", "e1>f1", []string{MotifTumble}},
		// A lone disk's tumble is its step.
		{"8/8/8/8/8/8/8/r,b,6 r", "a1>a2", []string{MotifStep}},
	} {
		got, err := motifsOf(tc.position, tc.move)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("%s %s: %v, %v; want %v", tc.position, tc.move, got, err, tc.want)
		}
	}
}

// TestMotifsBadInput: a move from an empty square, off the board or not
// to a next square is an error, not a panic.
func TestMotifsBadInput(t *testing.T) {
	for _, tc := range []struct{ position, move string }{
		{"8/8/8/8/8/8/8/rr,b,6 b", "c1>d1"},
		{"8/8/8/8/8/8/8/rr,b,6 r", "a1>q1"},
		{"8/8/8/8/8/8/8/rr,b,6 r", "a1>a1"},
		{"8/8/8/8/8/8/8/rr,b,6 r", "a1>a3"},
		{"8/8/8/8/8/8/8/rr,b,6 r", ""},
	} {
		if got, err := motifsOf(tc.position, tc.move); err == nil {
			t.Errorf("%s %s: %v, no error", tc.position, tc.move, got)
		}
	}
}

// TestThreatOf: a step and a tumble of one stack are one threat.
func TestThreatOf(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{"h2-g1", "h2>g1", true},
		{"h2-g1", "h2>h1", true},
		{"g3>g2", "h2>g1", false},
	} {
		if same := Spec.Motifs.Threat(tc.a) == Spec.Motifs.Threat(tc.b); same != tc.same {
			t.Errorf("%s and %s one threat: %v, want %v", tc.a, tc.b, same, tc.same)
		}
	}
}

// FuzzMotifs: any position that reads and any move text, without a panic;
// the motifs of a move are among the IDs.
func FuzzMotifs(f *testing.F) {
	f.Add("8/8/8/8/8/8/8/b,5,rrr,1 r", "g1>h1")
	f.Add("8/8/8/8/8/8/8/rr,b,6 r", "a1-a2")
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
