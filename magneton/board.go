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

func popcount(b uint64) int { return bits.OnesCount64(b) }
