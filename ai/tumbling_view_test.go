package ai

import (
	"math/rand/v2"
	"testing"

	"github.com/magneton-games/magneton/tumbling"
)

// TestTumblingView checks that the evaluation's direct view of a position
// agrees with the rules package's accessors, over random games.
func TestTumblingView(t *testing.T) {
	if !tumViewOK {
		t.Log("tumbling.Position changed its fields: the evaluation uses the (slower) accessors")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 50 {
		p := tumbling.Rules{}.StartPosition()
		for range 120 {
			h := tumHeights(&p)
			for s := range 64 {
				if int(h[s]) != p.Height(tumbling.Square(s)) {
					t.Fatalf("%s: height of square %d: %d, accessor %d", p, s, h[s], p.Height(tumbling.Square(s)))
				}
			}
			if got, want := tumPure(&p), tumPureSlow(&p); got != want {
				t.Fatalf("%s: single-colour stacks %x, accessors %x", p, got, want)
			}
			moves := p.AppendMoves(nil)
			if len(moves) == 0 {
				break
			}
			p = p.Play(moves[rng.IntN(len(moves))])
		}
	}
}
