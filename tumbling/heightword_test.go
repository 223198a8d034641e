package tumbling

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"
)

// TestHeightWord checks heightWord against the eight heights read byte by
// byte, in the positions of random games.
func TestHeightWord(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var buf []Move
	for range 50 {
		p := Rules{}.StartPosition()
		for range 100 {
			for f := range 8 {
				if got, want := p.heightWord(f), binary.LittleEndian.Uint64(p.height[8*f:]); got != want {
					t.Fatalf("%v: file %d: heightWord %#x, the heights say %#x", p, f, got, want)
				}
			}
			m, ok := p.RandomMove(rng, buf)
			if !ok {
				break
			}
			p = p.Play(m)
		}
	}
}
