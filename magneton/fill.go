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
// directions of a few shifts each, instead of a scan per stone. The shifts
// are written out per direction: a step that raises the square index (north
// +1, north-east +9, east +8, south-east +7) or one that lowers it.

const (
	notRank1 uint64 = ^uint64(0x0101010101010101)
	notRank8 uint64 = ^uint64(0x8080808080808080)
)

// appendStrongMoves appends the move-phase moves of the side to move under
// the default rules, direction by direction. Each move's origin is the
// nearest stone behind its destination.
func (p Position) appendStrongMoves(buf []Move) []Move {
	ours, theirs := p.mine, p.theirs
	occ := ours | theirs
	free := ^occ
	buf = appendOrigins(buf, destsUp(ours, theirs, free, 1, notRank1, notRank8), south, occ)
	buf = appendOrigins(buf, destsUp(ours, theirs, free, 9, notRank1, notRank8), southWest, occ)
	buf = appendOrigins(buf, destsUp(ours, theirs, free, 8, ^uint64(0), ^uint64(0)), west, occ)
	buf = appendOrigins(buf, destsUp(ours, theirs, free, 7, notRank8, notRank1), northWest, occ)
	buf = appendOrigins(buf, destsDown(ours, theirs, free, 1, notRank8, notRank1), north, occ)
	buf = appendOrigins(buf, destsDown(ours, theirs, free, 9, notRank8, notRank1), northEast, occ)
	buf = appendOrigins(buf, destsDown(ours, theirs, free, 8, ^uint64(0), ^uint64(0)), east, occ)
	buf = appendOrigins(buf, destsDown(ours, theirs, free, 7, notRank1, notRank8), southEast, occ)
	return buf
}

// appendOrigins appends a move to each square of dests from the nearest
// stone in direction back.
func appendOrigins(buf []Move, dests uint64, back int, occ uint64) []Move {
	for ; dests != 0; dests &= dests - 1 {
		to := Square(bits.TrailingZeros64(dests) & 63)
		buf = append(buf, Move(nearest(back, to, occ))<<6|Move(to))
	}
	return buf
}

// destsUp returns the destinations of moves in a direction that raises the
// square index by k. fwd clears the squares a step that way would wrap
// onto, back those of a step the other way.
//
// reach is our stones with every empty square reachable from one of them;
// the ends of the runs are where slides stop. A stone is pulled there when
// an enemy stone follows the end, and pushed there when the nearest stone
// behind it is its own (its predecessor is in reach).
func destsUp(ours, theirs, free uint64, k uint, fwd, back uint64) uint64 {
	// Masking the shift counts tells the compiler they are below 64, which
	// spares the checks Go otherwise makes for larger counts.
	k1, k2, k4 := k&63, 2*k&63, 4*k&63
	pro1 := free & fwd
	pro2 := pro1 & (pro1 << k1)
	pro4 := pro2 & (pro2 << k2)
	reach := ours | pro1&(ours<<k1)
	reach |= pro2 & (reach << k2)
	reach |= pro4 & (reach << k4)
	run := reach &^ ours
	ends := run &^ (run >> k1 & back)
	pulled := ends & (theirs >> k1 & back)
	pushed := ours & (reach << k1 & fwd)
	pushed |= pro1 & (pushed << k1)
	pushed |= pro2 & (pushed << k2)
	pushed |= pro4 & (pushed << k4)
	return pulled | ends&pushed
}

// destsDown is destsUp for a direction that lowers the square index by k.
func destsDown(ours, theirs, free uint64, k uint, fwd, back uint64) uint64 {
	// Masking the shift counts tells the compiler they are below 64, which
	// spares the checks Go otherwise makes for larger counts.
	k1, k2, k4 := k&63, 2*k&63, 4*k&63
	pro1 := free & fwd
	pro2 := pro1 & (pro1 >> k1)
	pro4 := pro2 & (pro2 >> k2)
	reach := ours | pro1&(ours>>k1)
	reach |= pro2 & (reach >> k2)
	reach |= pro4 & (reach >> k4)
	run := reach &^ ours
	ends := run &^ (run << k1 & back)
	pulled := ends & (theirs << k1 & back)
	pushed := ours & (reach >> k1 & fwd)
	pushed |= pro1 & (pushed >> k1)
	pushed |= pro2 & (pushed >> k2)
	pushed |= pro4 & (pushed >> k4)
	return pulled | ends&pushed
}

// hasStrongMove reports whether the side to move has a move-phase move
// under the default rules.
func (p Position) hasStrongMove() bool {
	ours, theirs := p.mine, p.theirs
	free := ^(ours | theirs)
	return destsUp(ours, theirs, free, 1, notRank1, notRank8)|
		destsUp(ours, theirs, free, 9, notRank1, notRank8)|
		destsUp(ours, theirs, free, 8, ^uint64(0), ^uint64(0))|
		destsUp(ours, theirs, free, 7, notRank8, notRank1)|
		destsDown(ours, theirs, free, 1, notRank8, notRank1)|
		destsDown(ours, theirs, free, 9, notRank8, notRank1)|
		destsDown(ours, theirs, free, 8, ^uint64(0), ^uint64(0))|
		destsDown(ours, theirs, free, 7, notRank1, notRank8) != 0
}
