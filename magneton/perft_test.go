package magneton

import (
	"testing"

	"github.com/magneton-games/magneton/internal/rulestest"
	"pgregory.net/rapid"
)

// TestPropertyFastPerft: on random positions of both phases, FastPerft
// counts what AppendMoves and Play count, and declines the rules it does
// not handle (drawn half the time).
func TestPropertyFastPerft(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var r Rules
		if rapid.Bool().Draw(t, "anyRules") {
			r = rulestest.Rules[Rules](t, Spec)
		}
		p := genPosition(t, r)
		depth := rapid.IntRange(0, 3).Draw(t, "depth")
		if len(p.AppendMoves(nil)) > 20 {
			depth = min(depth, 2) // a second at most
		}
		rulestest.CheckFastPerft(t, p, depth, !r.Weak && !r.OneSided && !r.OwnerWins)
	})
}

// TestPropertyThreats checks threats against lineThrough: an empty square
// is a threat of b exactly when a stone there makes a line of four through it.
func TestPropertyThreats(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := rapid.Uint64().Draw(t, "b") & rapid.Uint64().Draw(t, "sparser")
		th := threats(b)
		for x := range 64 {
			bit := uint64(1) << x
			if b&bit != 0 {
				continue
			}
			if want := lineThrough(b|bit, bit); (th&bit != 0) != want {
				t.Fatalf("stones %#x, square %s: threat %v, line %v", b, Square(x), th&bit != 0, want)
			}
		}
	})
}
