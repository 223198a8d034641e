package magneton

import (
	"math/bits"

	"github.com/magneton-games/magneton/game"
)

// Move is a drop or a move of a stone on the board. It packs the
// destination in bits 0-5, the origin in bits 6-11 and, for a drop, bit 12.
// The zero value is no move.
type Move uint16

const dropBit Move = 1 << 12

// NoMove is the zero Move, which no position has among its legal moves.
const NoMove Move = 0

// Drop returns the move that drops a stone on sq.
func Drop(sq Square) Move { return dropBit | Move(sq) }

// Slide returns the move of the stone on from to to.
func Slide(from, to Square) Move { return Move(from)<<6 | Move(to) }

// IsDrop reports whether m drops a stone from the hand.
func (m Move) IsDrop() bool { return m&dropBit != 0 }

// To returns the square the stone is dropped on or moves to.
func (m Move) To() Square { return Square(m & 63) }

// From returns the square a moving stone leaves; for a drop it is
// meaningless.
func (m Move) From() Square { return Square(m >> 6 & 63) }

// String writes the move in the project's notation: "d4" or "d4-a1".
func (m Move) String() string {
	if m.IsDrop() {
		return m.To().String()
	}
	if m == NoMove {
		return "(none)"
	}
	return m.From().String() + "-" + m.To().String()
}

// AppendMoves appends the legal moves to buf: drops on every empty square
// while the side to move has stones in hand, otherwise every move of one of
// its stones along a magnetic line. Drops come in square order (a1, a2,
// ..., h8); moves in no order a caller should rely on. A finished
// game has no moves.
func (p Position) AppendMoves(buf []Move) []Move {
	if p.won() {
		return buf
	}
	occ := p.occupied()
	if p.handMine() > 0 {
		for b := ^occ; b != 0; b &= b - 1 {
			buf = append(buf, dropBit|Move(bits.TrailingZeros64(b)))
		}
		return buf
	}
	if p.flags()&(flagWeak|flagOneSided) == 0 {
		return p.appendStrongMoves(buf)
	}
	for own := p.mine; own != 0; own &= own - 1 {
		from := Square(bits.TrailingZeros64(own))
		for dests := p.destinations(from); dests != 0; dests &= dests - 1 {
			buf = append(buf, Move(from)<<6|Move(bits.TrailingZeros64(dests)))
		}
	}
	return buf
}

// hasMove reports whether the side to move has a legal move, without
// listing them.
func (p Position) hasMove() bool {
	if p.won() {
		return false
	}
	if p.handMine() > 0 {
		return p.occupied() != ^uint64(0)
	}
	if p.flags()&(flagWeak|flagOneSided) == 0 {
		return p.hasStrongMove()
	}
	for own := p.mine; own != 0; own &= own - 1 {
		if p.destinations(Square(bits.TrailingZeros64(own))) != 0 {
			return true
		}
	}
	return false
}

// destinations returns the squares the stone of the side to move on from
// can move to: for each direction, the nearest stone there either attracts
// it (other colour: it slides toward that stone until adjacent) or repels it
// (same colour: it slides the other way as far as it can). Along each of
// the four lines through the stone the answer is looked up (see lines.go);
// a set of squares merges the same destination reached two ways.
func (p Position) destinations(from Square) uint64 {
	tbl := &destTable[p.flags()&(flagWeak|flagOneSided)>>1]
	us, them := p.mine, p.theirs
	g := &geometry[lineFile][from&63]
	dests := fileSpread(tbl[g.base+uint32(ternary[fileBits(us, g)])+2*uint32(ternary[fileBits(them, g)])], g)
	g = &geometry[lineRank][from&63]
	dests |= rankSpreadAt(tbl[g.base+uint32(ternary[rankBits(us, g)])+2*uint32(ternary[rankBits(them, g)])], g)
	g = &geometry[lineDiag][from&63]
	dests |= diagSpread(tbl[g.base+uint32(ternary[diagBits(us, g)])+2*uint32(ternary[diagBits(them, g)])], g)
	g = &geometry[lineAnti][from&63]
	dests |= diagSpread(tbl[g.base+uint32(ternary[diagBits(us, g)])+2*uint32(ternary[diagBits(them, g)])], g)
	return dests
}

// Play returns the position after move m, which must be legal: the stone is
// dropped or moved, its magnetic effect attracts the nearest stone of the
// other colour and repels the nearest of its own along each of the eight
// directions, and a line of four that includes a stone moved by the effect
// wins. The effect is looked up line by line (see lines.go).
func (p Position) Play(m Move) Position {
	// Unsigned, masked indexes let the compiler drop bounds checks.
	us := uint(p.state>>stateSide) & 1
	to := uint(m) & 63
	ours, theirs, h, state := p.mine, p.theirs, p.hash, p.state
	if m.IsDrop() {
		ours |= 1 << to
		h ^= zobristStone[us][to] ^ zobristDrop[us][state&15]
		state--
	} else {
		from := uint(m>>6) & 63
		ours ^= 1<<from | 1<<to
		h ^= zobristStone[us][from] ^ zobristStone[us][to]
	}

	tbl := &effectTable[0]
	if state&(uint64(flagWeak)<<stateFlags) != 0 {
		tbl = &effectTable[1]
	}
	g := &geometry[lineFile][to]
	e := tbl[g.base+uint32(ternary[fileBits(ours, g)])+2*uint32(ternary[fileBits(theirs, g)])]
	changedOurs, changedTheirs := fileSpread(uint8(e), g), fileSpread(uint8(e>>8), g)
	g = &geometry[lineRank][to]
	e = tbl[g.base+uint32(ternary[rankBits(ours, g)])+2*uint32(ternary[rankBits(theirs, g)])]
	changedOurs |= rankSpreadAt(uint8(e), g)
	changedTheirs |= rankSpreadAt(uint8(e>>8), g)
	g = &geometry[lineDiag][to]
	e = tbl[g.base+uint32(ternary[diagBits(ours, g)])+2*uint32(ternary[diagBits(theirs, g)])]
	changedOurs |= diagSpread(uint8(e), g)
	changedTheirs |= diagSpread(uint8(e>>8), g)
	g = &geometry[lineAnti][to]
	e = tbl[g.base+uint32(ternary[diagBits(ours, g)])+2*uint32(ternary[diagBits(theirs, g)])]
	changedOurs |= diagSpread(uint8(e), g)
	changedTheirs |= diagSpread(uint8(e>>8), g)
	ours ^= changedOurs
	theirs ^= changedTheirs

	// Rays from the magnet share no square, so no square changes for both
	// colours: one loop updates the hash, taking each key by its colour.
	h ^= zobristBlack
	keysOurs, keysTheirs := &zobristStone[us], &zobristStone[us^1]
	for c := changedOurs; c != 0; c &= c - 1 {
		h ^= keysOurs[bits.TrailingZeros64(c)&63]
	}
	for c := changedTheirs; c != 0; c &= c - 1 {
		h ^= keysTheirs[bits.TrailingZeros64(c)&63]
	}

	// The stones the effect moved are the changed squares now occupied.
	if moved := changedOurs & ours; moved != 0 && lines(ours)&moved != 0 {
		state |= uint64(1+us) << stateWinner
	} else if moved := changedTheirs & theirs; moved != 0 && state>>stateFlags&uint64(flagOwnerWins) != 0 && lines(theirs)&moved != 0 {
		state |= uint64(2-us) << stateWinner
	}
	// Hand the turn over: swap the hands and flip the side.
	state = state&^0xffff | state>>stateHandTheirs&0xff | (state&0xff)<<stateHandTheirs
	state ^= 1 << stateSide
	return Position{mine: theirs, theirs: ours, hash: h, state: state}
}

// Compile-time check that Position fits the game-neutral interface.
var _ game.Position[Position, Move] = Position{}
