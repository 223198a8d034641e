package magneton

import (
	"math/rand/v2"
	"testing"

	"pgregory.net/rapid"
)

// lines returns every stone of b that belongs to a straight run of four or
// more stones of b: along a file, a rank or either diagonal.
func lines(b uint64) uint64 {
	// Along a file (step +1): runs must not wrap from rank 8 to the next file's rank 1.
	x := b & (b >> 1) & (b >> 2) & (b >> 3) & rank1to5
	all := x | x<<1 | x<<2 | x<<3
	// Along a rank (step +8): shifts drop off the board by themselves.
	x = b & (b >> 8) & (b >> 16) & (b >> 24)
	all |= x | x<<8 | x<<16 | x<<24
	// North-east diagonal (step +9).
	x = b & (b >> 9) & (b >> 18) & (b >> 27) & rank1to5
	all |= x | x<<9 | x<<18 | x<<27
	// South-east diagonal (step +7).
	x = b & (b >> 7) & (b >> 14) & (b >> 21) & rank4to8
	all |= x | x<<7 | x<<14 | x<<21
	return all
}

// lineThrough must agree with the plain definition: some stone of a run of
// four is a moved one. Boards are drawn at three densities, and the moved
// stones are one stone or a random few, so that both answers are common.
func TestLineThrough(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r1, r2 := rapid.Uint64().Draw(t, "r1"), rapid.Uint64().Draw(t, "r2")
		b := [3]uint64{r1 | r2, r1, r1 & r2}[rapid.IntRange(0, 2).Draw(t, "density")]
		moved := b & (1 << rapid.IntRange(0, 63).Draw(t, "square"))
		if rapid.Bool().Draw(t, "several") {
			moved = b & rapid.Uint64().Draw(t, "m1") & rapid.Uint64().Draw(t, "m2")
		}
		if got, want := lineThrough(b, moved), lines(b)&moved != 0; got != want {
			t.Fatalf("lineThrough(%#x, %#x) = %v, want %v", b, moved, got, want)
		}
	})
}

// TestLineThroughEverySquare checks lineThrough with each square alone as the
// moved stone, on many random boards: a run's third or fourth stone is then
// the only moved one often enough to catch a missing step.
func TestLineThroughEverySquare(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for i := range 6000 {
		r1, r2 := rng.Uint64(), rng.Uint64()
		b := [3]uint64{r1 | r2, r1, r1 & r2}[i%3]
		for sq := range 64 {
			moved := b & (1 << sq)
			if got, want := lineThrough(b, moved), lines(b)&moved != 0; got != want {
				t.Fatalf("lineThrough(%#x, %#x) = %v, want %v", b, moved, got, want)
			}
		}
	}
}
