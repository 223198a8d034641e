package tumbling

import (
	"math/rand/v2"
	"testing"
)

// TestHeightsAndPure checks the pointer-receiver accessors the evaluations
// use against Height and Stack, over random games.
func TestHeightsAndPure(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 50 {
		p := Rules{}.StartPosition()
		for range 120 {
			h := p.Heights()
			var pure [2]uint64
			for s := range Square(64) {
				height, mask := p.Stack(s)
				if int(h[s]) != height {
					t.Fatalf("%s: Heights()[%s] = %d, Stack says %d", p, s, h[s], height)
				}
				switch {
				case height == 0:
				case mask == 0:
					pure[Black] |= 1 << s
				case mask == 1<<height-1:
					pure[Red] |= 1 << s
				}
			}
			if got := [2]uint64{p.Pure(Black), p.Pure(Red)}; got != pure {
				t.Fatalf("%s: Pure = %x, the stacks say %x", p, got, pure)
			}
			moves := p.AppendMoves(nil)
			if len(moves) == 0 {
				break
			}
			p = p.Play(moves[rng.IntN(len(moves))])
		}
	}
}
