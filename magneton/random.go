package magneton

import (
	"math/bits"
	"math/rand/v2"
)

// RandomMove returns a legal move drawn uniformly at random, and false when
// there is none. Random playouts call it on every ply, so it avoids listing
// the moves: a drop tries random squares until one is empty (at most 24 of
// the 64 squares are taken), and a move under the default rules counts the
// destinations of each direction and picks one by its rank. Other rule
// options list the moves into buf and pick from the list.
func (p Position) RandomMove(rng *rand.Rand, buf []Move) (Move, bool) {
	if p.won() {
		return NoMove, false
	}
	occ := p.occupied()
	if p.handMine() > 0 {
		if occ == ^uint64(0) {
			return NoMove, false
		}
		for {
			if sq := rng.Uint64() & 63; occ>>sq&1 == 0 {
				return dropBit | Move(sq), true
			}
		}
	}
	if p.flags()&(flagWeak|flagOneSided) != 0 {
		moves := p.AppendMoves(buf[:0])
		if len(moves) == 0 {
			return NoMove, false
		}
		return moves[rng.IntN(len(moves))], true
	}
	ours, theirs := p.mine, p.theirs
	free := ^occ
	dests := [8]uint64{
		destsUp(ours, theirs, free, 1, notRank1, notRank8),
		destsUp(ours, theirs, free, 9, notRank1, notRank8),
		destsUp(ours, theirs, free, 8, ^uint64(0), ^uint64(0)),
		destsUp(ours, theirs, free, 7, notRank8, notRank1),
		destsDown(ours, theirs, free, 1, notRank8, notRank1),
		destsDown(ours, theirs, free, 9, notRank8, notRank1),
		destsDown(ours, theirs, free, 8, ^uint64(0), ^uint64(0)),
		destsDown(ours, theirs, free, 7, notRank1, notRank8),
	}
	var counts [8]int
	total := 0
	for d, b := range dests {
		counts[d] = bits.OnesCount64(b)
		total += counts[d]
	}
	if total == 0 {
		return NoMove, false
	}
	r := rng.IntN(total)
	for d, b := range dests {
		if r >= counts[d] {
			r -= counts[d]
			continue
		}
		for ; r > 0; r-- {
			b &= b - 1
		}
		to := Square(bits.TrailingZeros64(b) & 63)
		// dests[d] are moves in direction d (north, north-east, east,
		// south-east, then their opposites): the origin lies behind.
		return Move(nearest(directionOrder[d]^4, to, occ))<<6 | Move(to), true
	}
	panic("unreachable: the rank is below the total")
}

// directionOrder names the direction of each entry of the dests array in
// RandomMove and appendStrongMoves.
var directionOrder = [8]int{north, northEast, east, southEast, south, southWest, west, northWest}
