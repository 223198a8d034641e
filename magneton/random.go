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
	dests := strongDests(p.mine, p.theirs)
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
	// Which direction holds the r-th destination is random, so a branch per
	// direction would be mispredicted; count the directions wholly before
	// it instead (once r is below the running sum it stays below).
	d, skip, sum := 0, 0, 0
	for i := range 7 {
		sum += counts[i]
		past := int(uint64(sum-r-1) >> 63) // 1 when r >= sum
		d += past
		skip += counts[i] & -past
	}
	d &= 7
	b := dests[d]
	for r -= skip; r > 0; r-- {
		b &= b - 1
	}
	to := Square(bits.TrailingZeros64(b) & 63)
	// The origin is the nearest stone behind the destination: directions 0-3
	// raise the square index, so looking back from them it is the highest
	// occupied square of the ray; from the others, the lowest.
	behind := rays[directionOrder[d]^4][to] & occ
	lowest, highest := bits.TrailingZeros64(behind), 63-bits.LeadingZeros64(behind)
	up := d>>2 - 1 // all ones for directions 0-3, else 0
	from := lowest ^ (lowest^highest)&up
	return Move(from&63)<<6 | Move(to), true
}
