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
//
// The board is kept from the side to move's point of view (its stones and
// the other side's), and everything else is packed into one word, so that
// the whole position is three machine words the compiler keeps in
// registers. The Zobrist hash is not kept: Hash computes it when asked,
// which costs a search node about twenty loads, where keeping it up to
// date was a fifth of every play in perft and playouts, which never read it.
type Position struct {
	mine   uint64 // stones of the side to move; bit i is square i (a1=0, a2=1, b1=8)
	theirs uint64 // stones of the other side
	state  uint64 // hands, side to move, winner and rule flags: see the state constants
}

// The fields packed in Position.state.
const (
	stateHandMine   = 0  // bits 0-7: stones in hand of the side to move
	stateHandTheirs = 8  // bits 8-15: stones in hand of the other side
	stateSide       = 16 // bit 16: the side to move (1 for Black)
	stateWinner     = 24 // bits 24-31: 0 while nobody has won, else 1 + the winner
	stateFlags      = 32 // bits 32-39: the rule flags
)

func (p Position) flags() flags          { return flags(p.state >> stateFlags) }
func (p Position) handMine() uint64      { return p.state >> stateHandMine & 0xff }
func (p Position) won() bool             { return p.state>>stateWinner&0xff != 0 }
func (p Position) occupied() uint64      { return p.mine | p.theirs }
func (p Position) sideToMove() game.Side { return game.Side(p.state >> stateSide & 1) }

// Side returns the side to move.
func (p Position) Side() game.Side { return p.sideToMove() }

// Stones returns the bitboard of a side's stones on the board (bit i is
// square i, file-major: a1=0, a2=1, b1=8).
func (p Position) Stones(s game.Side) uint64 {
	if s == p.sideToMove() {
		return p.mine
	}
	return p.theirs
}

// InHand returns how many stones a side still has to drop.
func (p Position) InHand(s game.Side) int {
	if s == p.sideToMove() {
		return int(p.state >> stateHandMine & 0xff)
	}
	return int(p.state >> stateHandTheirs & 0xff)
}

// At returns the colour of the stone on a square, and false for an empty one.
func (p Position) At(sq Square) (game.Side, bool) {
	switch {
	case p.mine>>sq&1 != 0:
		return p.sideToMove(), true
	case p.theirs>>sq&1 != 0:
		return p.sideToMove().Other(), true
	}
	return 0, false
}

// Hash returns the Zobrist hash of the board, the stones in hand and the
// side to move: exactly what the repetition rule compares. It is computed
// from the bitboards on each call (sixteen table loads); the values are
// those of computeHash, the definition.
func (p Position) Hash() uint64 {
	us := uint(p.state>>stateSide) & 1
	h := zobristSet(&zobristBytes[us], p.mine) ^ zobristSet(&zobristBytes[us^1], p.theirs) ^
		zobristHand16[us][p.state&15] ^ zobristHand16[us^1][p.state>>stateHandTheirs&15]
	return h ^ zobristBlack&-uint64(us)
}

// Winner returns the side whose line of four the last move made, if any.
func (p Position) Winner() (game.Side, bool) {
	w := p.state >> stateWinner & 0xff
	if w == 0 {
		return 0, false
	}
	return game.Side(w - 1), true
}

// Outcome returns the result the position decides by itself: a win made by
// the last move, or the side to move having no legal move (a loss by
// default, a draw under no-moves=draw).
func (p Position) Outcome() (game.Result, *game.Ending) {
	if w, ok := p.Winner(); ok {
		return game.WinFor(w), Line
	}
	if !p.hasMove() {
		if p.flags()&flagNoMovesDraws != 0 {
			return game.Draw, game.NoMoves
		}
		return game.LossFor(p.sideToMove()), game.NoMoves
	}
	return game.Ongoing, nil
}

// newPosition builds a position from absolute colours.
func newPosition(stones [2]uint64, hand [2]int, side game.Side, f flags) Position {
	return Position{
		mine:   stones[side],
		theirs: stones[side^1],
		state:  uint64(hand[side])<<stateHandMine | uint64(hand[side^1])<<stateHandTheirs | uint64(side)<<stateSide | uint64(f)<<stateFlags,
	}
}

// Zobrist keys: one per colour and square, one per colour and count of
// stones in hand, and one for Black to move. They come from a fixed
// SplitMix64 stream so hashes are the same in every run and build.
var (
	zobristStone [2][64]uint64
	zobristHand  [2][StonesPerSide + 1]uint64
	zobristBlack uint64
	// zobristHand16 is zobristHand with room for 16 counts, so that a
	// count masked with 15 needs no bounds check.
	zobristHand16 [2][16]uint64
	// zobristBytes[c][i][b] is the XOR of c's keys of the squares set in
	// b, read as the board's byte i (file i): so the keys of any set of
	// squares are eight lookups without a branch, where a loop over the
	// squares would mispredict its exit on almost every move.
	zobristBytes [2][8 * 256]uint64
)

func init() {
	next := game.ZobristKeys(0x4d41474e45544f4e) // "MAGNETON"
	for c := range 2 {
		for s := range 64 {
			zobristStone[c][s] = next()
		}
		for n := range zobristHand[c] {
			zobristHand[c][n] = next()
			zobristHand16[c][n] = zobristHand[c][n]
		}
	}
	zobristBlack = next()
	for c := range 2 {
		for i := range 8 {
			for b := range 256 {
				for j := range 8 {
					if b>>j&1 != 0 {
						zobristBytes[c][256*i+b] ^= zobristStone[c][8*i+j]
					}
				}
			}
		}
	}
}

// zobristSet returns the XOR of the keys in t (one colour's zobristBytes)
// of the squares in b. The table is flat so that each byte's offset folds
// into the load's address.
func zobristSet(t *[8 * 256]uint64, b uint64) uint64 {
	return t[uint8(b)] ^ t[256+uint(uint8(b>>8))] ^ t[512+uint(uint8(b>>16))] ^ t[768+uint(uint8(b>>24))] ^
		t[1024+uint(uint8(b>>32))] ^ t[1280+uint(uint8(b>>40))] ^ t[1536+uint(uint8(b>>48))] ^ t[1792+uint(uint8(b>>56))]
}

// computeHash hashes a position square by square: the definition of the
// hash, which the tests check Hash against.
func (p Position) computeHash() uint64 {
	var h uint64
	for c := range game.Side(2) {
		for b := p.Stones(c); b != 0; b &= b - 1 {
			h ^= zobristStone[c][bits.TrailingZeros64(b)]
		}
		h ^= zobristHand[c][p.InHand(c)]
	}
	if p.sideToMove() == Black {
		h ^= zobristBlack
	}
	return h
}
