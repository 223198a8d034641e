package magneton

import (
	"math/bits"

	"github.com/magneton-games/magneton/game"
)

// Colours of the stones. White is the first player.
const (
	White = game.First
	Black = game.Second
)

// StonesPerSide is how many stones each player has in all.
const StonesPerSide = 12

// flags holds the rule options a position needs to generate and play moves.
type flags uint8

const (
	flagOwnerWins    flags = 1 << iota // win=owner-wins
	flagOneSided                       // movement=one-sided
	flagWeak                           // force=weak
	flagNoMovesDraws                   // no-moves=draw
)

// Position is a Magneton position: the stones on the board, the stones in
// hand, the side to move, and whether the last move won. It is a small value
// (copy-make): Play returns a new Position and leaves the old one intact.
// The zero value is not a valid position; use Rules.StartPosition or
// Rules.Parse.
type Position struct {
	stones [2]uint64 // bitboards of White's and Black's stones
	hash   uint64
	hand   [2]uint8 // stones in hand
	side   game.Side
	winner uint8 // 0 while nobody has won, else 1 + the winning side
	flags  flags
}

// Side returns the side to move.
func (p Position) Side() game.Side { return p.side }

// Stones returns the bitboard of a side's stones on the board (bit i is
// square i, file-major: a1=0, a2=1, b1=8).
func (p Position) Stones(s game.Side) uint64 { return p.stones[s] }

// InHand returns how many stones a side still has to drop.
func (p Position) InHand(s game.Side) int { return int(p.hand[s]) }

// At returns the colour of the stone on a square, and false for an empty one.
func (p Position) At(sq Square) (game.Side, bool) {
	switch {
	case p.stones[White]>>sq&1 != 0:
		return White, true
	case p.stones[Black]>>sq&1 != 0:
		return Black, true
	}
	return 0, false
}

// Hash returns the Zobrist hash of the board, the stones in hand and the
// side to move: exactly what the repetition rule compares.
func (p Position) Hash() uint64 { return p.hash }

// Winner returns the side whose line of four the last move made, if any.
func (p Position) Winner() (game.Side, bool) {
	if p.winner == 0 {
		return 0, false
	}
	return game.Side(p.winner - 1), true
}

// Outcome returns the result the position decides by itself: a win made by
// the last move, or the side to move having no legal move (a loss by
// default, a draw under no-moves=draw).
func (p Position) Outcome() (game.Result, game.Reason) {
	if w, ok := p.Winner(); ok {
		return game.WinFor(w), game.Line
	}
	if !p.hasMove() {
		if p.flags&flagNoMovesDraws != 0 {
			return game.Draw, game.NoMoves
		}
		return game.LossFor(p.side), game.NoMoves
	}
	return game.Ongoing, game.NotOver
}

// Zobrist keys: one per colour and square, one per colour and count of
// stones in hand, and one for Black to move. They come from a fixed
// SplitMix64 stream so hashes are the same in every run and build.
var (
	zobristStone [2][64]uint64
	zobristHand  [2][StonesPerSide + 1]uint64
	zobristBlack uint64
	// zobristDrop[c][n] changes the hand keys when c drops its n-th last stone.
	zobristDrop [2][StonesPerSide + 1]uint64
)

func init() {
	state := uint64(0x4d41474e45544f4e) // "MAGNETON"
	next := func() uint64 {
		state += 0x9e3779b97f4a7c15
		z := state
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
		z = (z ^ (z >> 27)) * 0x94d049bb133111eb
		return z ^ (z >> 31)
	}
	for c := range 2 {
		for s := range 64 {
			zobristStone[c][s] = next()
		}
		for n := range zobristHand[c] {
			zobristHand[c][n] = next()
		}
	}
	zobristBlack = next()
	for c := range 2 {
		for n := 1; n <= StonesPerSide; n++ {
			zobristDrop[c][n] = zobristHand[c][n] ^ zobristHand[c][n-1]
		}
	}
}

// computeHash hashes a position from scratch; Play keeps the hash up to date
// incrementally and the tests check the two agree.
func (p Position) computeHash() uint64 {
	var h uint64
	for c := range 2 {
		for b := p.stones[c]; b != 0; b &= b - 1 {
			h ^= zobristStone[c][bits.TrailingZeros64(b)]
		}
		h ^= zobristHand[c][p.hand[c]]
	}
	if p.side == Black {
		h ^= zobristBlack
	}
	return h
}
