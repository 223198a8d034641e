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
	o := strongOrigins(p.mine, p.theirs)
	// Each stone of o[d] is one move; the prefix sums of the counts say
	// which direction holds the r-th move. The direction is random, so
	// it is counted without a branch a direction.
	c0, c1 := bits.OnesCount64(o[0]), bits.OnesCount64(o[1])
	c2, c3 := bits.OnesCount64(o[2]), bits.OnesCount64(o[3])
	c4, c5 := bits.OnesCount64(o[4]), bits.OnesCount64(o[5])
	c6, c7 := bits.OnesCount64(o[6]), bits.OnesCount64(o[7])
	s1 := c0 + c1
	s3 := s1 + c2 + c3
	s5 := s3 + c4 + c5
	total := s5 + c6 + c7
	if total == 0 {
		return NoMove, false
	}
	r := rng.IntN(total)
	pre := [8]int{0, c0, s1, s1 + c2, s3, s3 + c4, s5, s5 + c6}
	d := above(r, pre[1]) + above(r, pre[2]) + above(r, pre[3]) + above(r, pre[4]) +
		above(r, pre[5]) + above(r, pre[6]) + above(r, pre[7])
	b := o[d&7]
	for r -= pre[d&7]; r > 0; r-- {
		b &= b - 1
	}
	from := bits.TrailingZeros64(b) & 63
	to := slideEnd(directionOrder[d&7], from, p.occupied()) & 63
	return Move(from)<<6 | Move(to), true
}

// above is 1 when r >= sum, else 0, without a branch.
func above(r, sum int) int { return int(uint64(sum-r-1) >> 63) }
