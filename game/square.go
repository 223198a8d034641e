package game

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
