// Package tumbling is an exact, fast rules engine for Tumbling Down
// (Michael Shuck, 2001), a two-player game of stacks of disks on an 8x8
// board. A player moves the top disk of a stack they own one square, or
// topples ("tumbles") a whole stack they own so that its disks fall one per
// square in a line; dropping a disk on the opponent's tallest single-colour
// stack (their King) wins. docs/rules/tumbling-down.md gives the rules for
// players, the notation and the position text.
//
// Positions are small values (copy-make): Play returns a new Position and
// the old one stays valid, and neither AppendMoves nor Play allocates. The
// package implements game.Position, so the project's generic perft,
// searches and game records drive it like any other game.
package tumbling

import "github.com/magneton-games/magneton/game"

// Squares are numbered file-major: a1=0, a2=1, ..., a8=7, b1=8, ..., h8=63.
// Walking a bitboard from its lowest bit then visits squares in the order
// a1 a2 ... h8, which is the alphabetical order of their names; with the
// directions below ordered by their change of index, the move generator
// emits moves already sorted as text, which is how the reference data and
// people list them.

// Square is a square of the board, file-major (a1=0, a2=1, b1=8); see
// game.Square.
type Square = game.Square

// NoSquare stands for "no square" where a square is optional.
const NoSquare = game.NoSquare

// SquareAt returns the square of a file (0 = a) and rank (0 = rank 1).
func SquareAt(file, rank int) Square { return game.SquareAt(file, rank) }

// ParseSquare reads a square name such as "d4".
func ParseSquare(s string) (Square, bool) { return game.ParseSquare(s) }

// Direction is one of the eight directions a disk steps or a stack tumbles
// in. They are numbered in increasing order of their change of square index
// (south-west -9 first, north-east +9 last), so that listing a square's
// moves direction by direction lists their destinations in alphabetical
// order. The opposite of d is 7-d.
type Direction uint8

// The eight directions.
const (
	SouthWest Direction = iota // file-1, rank-1
	West                       // file-1
	NorthWest                  // file-1, rank+1
	South                      // rank-1
	North                      // rank+1
	SouthEast                  // file+1, rank-1
	East                       // file+1
	NorthEast                  // file+1, rank+1
)

// offset is the change of square index for one step in each direction.
var offset = [8]Square{-9, -8, -7, -1, 1, 7, 8, 9}

var (
	dirFile = [8]int{-1, -1, -1, 0, 0, 1, 1, 1}
	dirRank = [8]int{-1, 0, 1, -1, 1, -1, 0, 1}
)

var (
	// reach[s][d] is how many squares lie from s (excluded) to the edge in
	// direction d: a tumble of a taller stack piles the rest on the last one.
	reach [64][8]uint8
	// stepMoves[s] and tumbleMoves[s] list the steps and tumbles from s that
	// stay on the board, in direction order, so move generation is a copy.
	stepMoves, tumbleMoves [64][8]Move
	// moveCount[s] is the length of both lists for s.
	moveCount [64]uint8
)

func init() {
	for s := range 64 {
		f, r := s>>3, s&7
		for d := range 8 {
			n := 0
			for ff, rr := f+dirFile[d], r+dirRank[d]; ff >= 0 && ff < 8 && rr >= 0 && rr < 8; ff, rr = ff+dirFile[d], rr+dirRank[d] {
				n++
			}
			reach[s][d] = uint8(n)
			if n > 0 {
				i := moveCount[s]
				stepMoves[s][i] = newMove(Square(s), Direction(d), false)
				tumbleMoves[s][i] = newMove(Square(s), Direction(d), true)
				moveCount[s]++
			}
		}
	}
}

// directionTo returns the direction from a square to a neighbouring one,
// and false when to is not next to from.
func directionTo(from, to Square) (Direction, bool) {
	df, dr := to.File()-from.File(), to.Rank()-from.Rank()
	for d := range 8 {
		if dirFile[d] == df && dirRank[d] == dr {
			return Direction(d), true
		}
	}
	return 0, false
}
