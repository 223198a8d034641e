package magneton

import "math/bits"

// Under the default rules (strong force, any stone a magnet) the move phase
// has a set-wise shortcut. A stone that moves in direction d always ends on
// the farthest empty square in that direction, whether the nearest stone
// ahead (of the other colour) pulled it or the nearest stone behind (of its
// own colour) pushed it. So for each direction the destinations of all
// stones at once are the ends of their empty runs, kept where the square
// after the end holds an enemy stone or where the stone behind the mover is
// its own. Runs are found with occluded fills (Kogge-Stone), eight
// directions of a few shifts each, instead of a scan per stone.

const (
	notRank1 uint64 = ^uint64(0x0101010101010101)
	notRank8 uint64 = ^uint64(0x8080808080808080)
)

// shiftMask[d] clears the squares a one-step shift in direction d would
// wrap onto from the other edge; shiftLeft[d] is the step when positive.
var shiftMask = [8]uint64{notRank1, notRank1, ^uint64(0), notRank8, notRank8, notRank8, ^uint64(0), notRank1}

// shift moves every bit of b one step in direction d.
func shift(b uint64, d int) uint64 {
	if step[d] > 0 {
		return b << uint(step[d]) & shiftMask[d]
	}
	return b >> uint(-step[d]) & shiftMask[d]
}

// fill returns gen together with every square reached from it by sliding
// in direction d through the squares of pro.
func fill(gen, pro uint64, d int) uint64 {
	pro &= shiftMask[d]
	k := uint(step[d])
	if step[d] > 0 {
		gen |= pro & (gen << k)
		pro &= pro << k
		gen |= pro & (gen << (2 * k))
		pro &= pro << (2 * k)
		gen |= pro & (gen << (4 * k))
		return gen
	}
	k = uint(-step[d])
	gen |= pro & (gen >> k)
	pro &= pro >> k
	gen |= pro & (gen >> (2 * k))
	pro &= pro >> (2 * k)
	gen |= pro & (gen >> (4 * k))
	return gen
}

// slideEnds returns, for stones that slide in direction d over the empty
// squares, the square each one stops on (none for a stone that cannot move).
func slideEnds(stones, emptySquares uint64, d int) uint64 {
	run := fill(stones, emptySquares, d) &^ stones
	return run &^ shift(run, d^4)
}

// appendStrongMoves appends the move-phase moves of the side to move under
// the default rules, direction by direction.
func (p Position) appendStrongMoves(buf []Move) []Move {
	ours, theirs := p.mine, p.theirs
	occ := ours | theirs
	emptySquares := ^occ
	for d := range 8 {
		dests := p.strongDestinations(ours, theirs, emptySquares, d)
		back := d ^ 4
		for ; dests != 0; dests &= dests - 1 {
			to := Square(bits.TrailingZeros64(dests))
			buf = append(buf, Move(nearest(back, to, occ))<<6|Move(to))
		}
	}
	return buf
}

// strongDestinations returns the ends of the moves in direction d.
func (p Position) strongDestinations(ours, theirs, emptySquares uint64, d int) uint64 {
	reach := fill(ours, emptySquares, d)
	run := reach &^ ours
	ends := run &^ shift(run, d^4)
	// Pulled: the square after the end holds an enemy stone.
	pulled := ends & shift(theirs, d^4)
	// Pushed: the nearest stone behind the mover is its own. reach holds
	// our stones and the empty squares whose nearest stone behind is ours.
	pushers := ours & shift(reach, d)
	return pulled | slideEnds(pushers, emptySquares, d)
}

// hasStrongMove reports whether the side to move has a move-phase move
// under the default rules.
func (p Position) hasStrongMove() bool {
	ours, theirs := p.mine, p.theirs
	emptySquares := ^(ours | theirs)
	for d := range 8 {
		if p.strongDestinations(ours, theirs, emptySquares, d) != 0 {
			return true
		}
	}
	return false
}
