package magneton

import (
	"math/bits"

	"github.com/magneton-games/magneton/game"
)

// Square is a square of the board, file-major (a1=0, a2=1, b1=8); see
// game.Square.
type Square = game.Square

// NoSquare stands for "no square" where a square is optional.
const NoSquare = game.NoSquare

// SquareAt returns the square of a file (0 = a) and rank (0 = rank 1).
func SquareAt(file, rank int) Square { return game.SquareAt(file, rank) }

// ParseSquare reads a square name such as "d4".
func ParseSquare(s string) (Square, bool) { return game.ParseSquare(s) }

// The eight directions. Opposite directions are four apart, so the opposite
// of d is d^4. Directions 0 to 3 increase the square index.
const (
	north     = iota // rank+1
	northEast        // file+1, rank+1
	east             // file+1
	southEast        // file+1, rank-1
	south
	southWest
	west
	northWest
)

var (
	// rays[d][s] holds the squares from s (excluded) to the board's edge in direction d.
	rays [8][64]uint64
	// rayEnd[d][s] is the last square of rays[d][s], or NoSquare when it is empty.
	rayEnd [8][64]Square
	// rayEndBit[d][s] is the bit of rayEnd[d][s], 0 for an empty ray.
	rayEndBit [8][64]uint64
)

func init() {
	df := [8]int{0, 1, 1, 1, 0, -1, -1, -1}
	dr := [8]int{1, 1, 0, -1, -1, -1, 0, 1}
	for d := range 8 {
		for s := range 64 {
			f, r := s>>3, s&7
			end := NoSquare
			for {
				f, r = f+df[d], r+dr[d]
				if f < 0 || f > 7 || r < 0 || r > 7 {
					break
				}
				end = SquareAt(f, r)
				rays[d][s] |= 1 << end
			}
			rayEnd[d][s] = end
			if end != NoSquare {
				rayEndBit[d][s] = 1 << end
			}
		}
	}
}

// nearest returns the first occupied square from s in direction d, or
// NoSquare. Rays in increasing directions are found from the low end of the
// masked ray, the others from the high end.
func nearest(d int, s Square, occ uint64) Square {
	r := rays[d][s] & occ
	if r == 0 {
		return NoSquare
	}
	if d < 4 {
		return Square(bits.TrailingZeros64(r))
	}
	return Square(63 - bits.LeadingZeros64(r))
}

const (
	rank1to5 uint64 = 0x1f1f1f1f1f1f1f1f // squares that can start a run of four going north
	rank4to8 uint64 = 0xf8f8f8f8f8f8f8f8 // squares that can start a run of four going south-east
)

// lineThrough reports whether a straight run of four or more stones of b
// (along a file, a rank or a diagonal) includes a square of moved. For each
// direction it finds the squares that start a run of four, and the squares
// up to three steps before a moved stone, where a run through it starts.
func lineThrough(b, moved uint64) bool {
	y := b & (b >> 1)
	x := y & (y >> 2) & rank1to5
	m := moved | moved>>1
	hit := x & (m | m>>2)
	y = b & (b >> 8)
	x = y & (y >> 16)
	m = moved | moved>>8
	hit |= x & (m | m>>16)
	y = b & (b >> 9)
	x = y & (y >> 18) & rank1to5
	m = moved | moved>>9
	hit |= x & (m | m>>18)
	y = b & (b >> 7)
	x = y & (y >> 14) & rank4to8
	m = moved | moved>>7
	hit |= x & (m | m>>14)
	return hit != 0
}

func popcount(b uint64) int { return bits.OnesCount64(b) }
