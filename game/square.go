package game

import "strings"

// Square is a square of the 8x8 board both games are played on, numbered
// file-major: a1=0, a2=1, ..., a8=7, b1=8, ..., h8=63. Walking a bitboard
// from its lowest bit then visits squares in the order a1 a2 ... h8, which
// is the alphabetical order of their names, so move lists come out sorted
// the way people and the reference data list them.
type Square int8

// NoSquare stands for "no square" where a square is optional.
const NoSquare Square = -1

// SquareAt returns the square of a file (0 = a) and rank (0 = rank 1).
func SquareAt(file, rank int) Square { return Square(file*8 + rank) }

// File returns the square's file, 0 for a to 7 for h.
func (s Square) File() int { return int(s) >> 3 }

// Rank returns the square's rank, 0 for rank 1 to 7 for rank 8.
func (s Square) Rank() int { return int(s) & 7 }

// String returns the square's name, such as "d4".
func (s Square) String() string {
	if s < 0 || s > 63 {
		return "??"
	}
	return string([]byte{'a' + byte(s.File()), '1' + byte(s.Rank())})
}

// ParseSquare reads a square name such as "d4".
func ParseSquare(s string) (Square, bool) {
	if len(s) != 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8' {
		return NoSquare, false
	}
	return SquareAt(int(s[0]-'a'), int(s[1]-'1')), true
}

// Transform maps s by symmetry k (0 to 7) of the square board: bit 0 of k
// mirrors the files (a and h change places), bit 1 the ranks, and bit 2
// then swaps files and ranks (a reflection in the a1-h8 diagonal). 0 is
// the identity.
func (s Square) Transform(k int) Square {
	return SquareAt(TransformCell(s.File(), s.Rank(), 8, k))
}

// TransformCell maps the cell of file f and rank r (0 to n-1) of an n x n
// board by symmetry k, as Square.Transform does on the 8 x 8 board.
func TransformCell(f, r, n, k int) (int, int) {
	if k&1 != 0 {
		f = n - 1 - f
	}
	if k&2 != 0 {
		r = n - 1 - r
	}
	if k&4 != 0 {
		f, r = r, f
	}
	return f, r
}

// TransformName describes symmetry k of Square.Transform in words.
func TransformName(k int) string {
	var parts []string
	if k&1 != 0 {
		parts = append(parts, "files mirrored")
	}
	if k&2 != 0 {
		parts = append(parts, "ranks mirrored")
	}
	if k&4 != 0 {
		parts = append(parts, "reflected in a1-h8")
	}
	if len(parts) == 0 {
		return "identity"
	}
	return strings.Join(parts, ", ")
}

// MapSquares returns text with every square name in it ("d4" in "d4-a1")
// replaced by its image under f: a move of either game under a symmetry.
func MapSquares(text string, f func(Square) Square) string {
	b := []byte(text)
	for i := 0; i+1 < len(b); i++ {
		if s, ok := ParseSquare(string(b[i : i+2])); ok {
			name := f(s).String()
			b[i], b[i+1] = name[0], name[1]
			i++
		}
	}
	return string(b)
}
