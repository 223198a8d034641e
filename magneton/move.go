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
	sq := uint(from) & 63
	g := &geometry[sq]
	dests := fileSpread(tbl[lineIndex(g.base[lineFile], fileBits(us, sq), fileBits(them, sq))], sq)
	dests |= rankSpreadAt(tbl[lineIndex(g.base[lineRank], rankBits(us, sq), rankBits(them, sq))], sq)
	dests |= diagSpread(tbl[lineIndex(g.base[lineDiag], diagBits(us, g.diagMask, g.diagShift), diagBits(them, g.diagMask, g.diagShift))], g.diagMask, g.diagShift)
	dests |= diagSpread(tbl[lineIndex(g.base[lineAnti], diagBits(us, g.antiMask, g.antiShift), diagBits(them, g.antiMask, g.antiShift))], g.antiMask, g.antiShift)
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
	ours, theirs, state := p.mine, p.theirs, p.state
	// own is the squares the move itself changes.
	own := uint64(1) << to
	if m.IsDrop() {
		state--
	} else {
		own |= 1 << (uint(m>>6) & 63)
	}
	ours ^= own

	tbl := &effectTable[0]
	if state&(uint64(flagWeak)<<stateFlags) != 0 {
		tbl = &effectTable[1]
	}
	changedOurs, changedTheirs := effect(tbl, ours, theirs, to)
	ours ^= changedOurs
	theirs ^= changedTheirs

	// The stones the effect moved are the changed squares now occupied.
	// The test runs on every play, whether or not a stone moved: a branch
	// on that would be mispredicted about one play in three.
	if lineThrough(ours, changedOurs&ours) {
		state |= uint64(1+us) << stateWinner
	} else if state>>stateFlags&uint64(flagOwnerWins) != 0 && lineThrough(theirs, changedTheirs&theirs) {
		state |= uint64(2-us) << stateWinner
	}
	// Hand the turn over: swap the hands and flip the side.
	state = state&^0xffff | state>>stateHandTheirs&0xff | (state&0xff)<<stateHandTheirs
	state ^= 1 << stateSide
	return Position{mine: theirs, theirs: ours, state: state}
}

// effect returns the squares whose occupancy the magnetic effect of a
// stone of ours on to changes, of our stones and of theirs (XOR them in),
// looked up line by line in tbl (one of effectTable).
func effect(tbl *[tableSpan]uint16, ours, theirs uint64, to uint) (changedOurs, changedTheirs uint64) {
	to &= 63
	g := &geometry[to]
	e := tbl[lineIndex(g.base[lineFile], fileBits(ours, to), fileBits(theirs, to))]
	changedOurs, changedTheirs = fileSpread(uint8(e), to), fileSpread(uint8(e>>8), to)
	e = tbl[lineIndex(g.base[lineRank], rankBits(ours, to), rankBits(theirs, to))]
	changedOurs |= rankSpreadAt(uint8(e), to)
	changedTheirs |= rankSpreadAt(uint8(e>>8), to)
	e = tbl[lineIndex(g.base[lineDiag], diagBits(ours, g.diagMask, g.diagShift), diagBits(theirs, g.diagMask, g.diagShift))]
	changedOurs |= diagSpread(uint8(e), g.diagMask, g.diagShift)
	changedTheirs |= diagSpread(uint8(e>>8), g.diagMask, g.diagShift)
	e = tbl[lineIndex(g.base[lineAnti], diagBits(ours, g.antiMask, g.antiShift), diagBits(theirs, g.antiMask, g.antiShift))]
	changedOurs |= diagSpread(uint8(e), g.antiMask, g.antiShift)
	changedTheirs |= diagSpread(uint8(e>>8), g.antiMask, g.antiShift)
	return changedOurs, changedTheirs
}

// Compile-time check that Position fits the game-neutral interface.
var _ game.Position[Position, Move] = Position{}
