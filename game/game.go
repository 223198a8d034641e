// Package game is the game-neutral core shared by every board game of the
// project: sides, results, rule options, the generic position interface that
// searches and perft run on, and the dynamic interface that the command line,
// game records and the play server use.
//
// A game package (magneton, tumbling) implements Position for its own
// position and move types, so that hot loops (perft, alpha-beta, playouts)
// are compiled for the concrete types, and offers a Spec so that code which
// handles any game can name it, read its positions and play moves given as
// text. Nothing here knows the rules of a particular game.
package game

import (
	"fmt"
	"math/rand/v2"
)

// Side is one of the two players. The first player (White in Magneton,
// Black in Tumbling Down) is 0.
type Side uint8

// The two sides.
const (
	First  Side = 0
	Second Side = 1
)

// Other returns the opponent of s.
func (s Side) Other() Side { return s ^ 1 }

// Result is the state of a game: still going on, won by one side, or drawn.
type Result uint8

// The possible results.
const (
	Ongoing Result = iota
	FirstWins
	SecondWins
	Draw
)

// WinFor returns the result in which side s wins.
func WinFor(s Side) Result { return FirstWins + Result(s) }

// LossFor returns the result in which side s loses.
func LossFor(s Side) Result { return WinFor(s.Other()) }

// Over reports whether the game has ended.
func (r Result) Over() bool { return r != Ongoing }

// Winner returns the winning side, and false for a draw or a game going on.
func (r Result) Winner() (Side, bool) {
	switch r {
	case FirstWins:
		return First, true
	case SecondWins:
		return Second, true
	}
	return 0, false
}

// String gives the result in the words of the project's records:
// "1-0", "0-1", "1/2-1/2" or "*".
func (r Result) String() string {
	switch r {
	case FirstWins:
		return "1-0"
	case SecondWins:
		return "0-1"
	case Draw:
		return "1/2-1/2"
	}
	return "*"
}

// ParseResult reads the record form written by Result.String.
func ParseResult(s string) (Result, error) {
	switch s {
	case "1-0":
		return FirstWins, nil
	case "0-1":
		return SecondWins, nil
	case "1/2-1/2":
		return Draw, nil
	case "*":
		return Ongoing, nil
	}
	return Ongoing, fmt.Errorf("result %q is not one of 1-0, 0-1, 1/2-1/2, *", s)
}

// Position is implemented by a game's position type P with move type M.
// Positions are values: Play returns a new position and leaves the receiver
// as it was (copy-make), which is what lets a search keep a stack of them
// without undo code. Generic code constrains its type parameters with
// Position so that move generation and play are direct calls in hot loops.
type Position[P any, M comparable] interface {
	// Side returns the side to move.
	Side() Side
	// AppendMoves appends the legal moves to buf and returns it. A finished
	// game (Outcome not Ongoing) has no legal moves.
	AppendMoves(buf []M) []M
	// Play returns the position after move m, which must be legal.
	Play(m M) P
	// Outcome returns the result decided by the position itself (a win made
	// by the last move, no legal move for the side to move) and how the game
	// ended, nil while it goes on. Repetition needs the history and is
	// judged by Game.
	Outcome() (Result, *Ending)
	// Hash returns the Zobrist hash of what the repetition rule compares.
	Hash() uint64
	// String returns the position text.
	String() string
	// ParseMove reads a move in the game's notation and checks it is legal
	// here; the error says what is wrong.
	ParseMove(s string) (M, error)
	// FormatMove writes a move in the game's notation.
	FormatMove(m M) string
	// RandomMove returns a legal move drawn uniformly at random, or false
	// when there is none. Playouts call it on every ply; a game may draw
	// the move without listing them all. buf is scratch space for a game
	// that does list them.
	RandomMove(rng *rand.Rand, buf []M) (M, bool)
}
