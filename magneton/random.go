package magneton

import (
	"math/bits"
	"math/rand/v2"

	"github.com/magneton-games/magneton/game"
)

// RandomMove returns a legal move drawn uniformly at random, and false when
// there is none. Random playouts call it on every ply, so it avoids listing
// the moves: a drop tries random squares until one is empty (at most 24 of
// the 64 squares are taken), and a move under the default rules counts the
// moves of each direction and picks one by its rank. Other rule options
// list the moves into buf and pick from the list.
func (p Position) RandomMove(rng *rand.Rand, buf []Move) (Move, bool) {
	if p.won() {
		return NoMove, false
	}
	occ := p.occupied()
	if p.handMine() > 0 {
		if occ == ^uint64(0) {
			return NoMove, false
		}
		return randomDrop(rng, occ), true
	}
	if p.flags()&(flagWeak|flagOneSided) != 0 {
		moves := p.AppendMoves(buf[:0])
		if len(moves) == 0 {
			return NoMove, false
		}
		return moves[rng.IntN(len(moves))], true
	}
	var sm strongMoves
	if m := sm.draw(p.mine, p.theirs, rng, true); m != NoMove {
		return m, true
	}
	return NoMove, false
}

// randomDrop draws an empty square of occ, which must have one, by
// rejection: at most 24 squares are taken, so a draw is kept at least
// five times in eight and the loop's exit is mostly predicted.
func randomDrop(rng *rand.Rand, occ uint64) Move {
	for {
		if sq := rng.Uint64() & 63; occ>>sq&1 == 0 {
			return dropBit | Move(sq)
		}
	}
}

// strongMoves holds the move-phase moves of a position under the default
// rules: origins[d] has the stones of the side to move that can move in
// direction d (of directionOrder), each stone and direction one move, to
// the farthest empty square that way (slideTo). The moves are counted by
// pairs of opposite directions, d and d+4: a stone of origins[d+4] moved
// one step that way is an empty square, so it and origins[d] are
// disjoint, and one popcount of their union counts both (Go checks for
// the POPCNT instruction at every bits.OnesCount64, so each costs some
// ten instructions, and the fallback's call makes every value live across
// it a spill and a reload). pre has the prefix sums of the pairs' counts,
// so that the r-th move is found without a list of the moves.
type strongMoves struct {
	origins [8]uint64
	pre     [4]uint64 // moves in the pairs of directions before each
	total   uint64
}

// draw fills sm for the side to move's stones ours and theirs, and when
// pick is set and there are moves, draws one of them uniformly, the board
// being ours|theirs; it returns NoMove otherwise. Counting and drawing are one
// call, since a call in the playout loop also spills and reloads the
// loop's values.
//
// A stone can move along d when the square after it is empty and its
// nearest stone that way is theirs (it is pulled) or its nearest stone
// the other way is ours (it is pushed); the occluded fills of fillUp and
// fillDown find both for all stones at once. The two fills of a line are
// done together and their two directions finished at once, so that few
// values are live at a time (all eight fills first kept sixteen, more
// than the registers).
//
// The draw has no branch on the number drawn: it and so the direction
// and the stone are random, and a branch on them would be mispredicted
// on most plies. The move's rank r below sm.total comes from one number
// by Lemire's multiply with rejection, as rand.Rand.IntN does it (the
// same ranks unless the count is a power of two, where IntN branches to
// a mask instead); it draws again only when the low half of the product
// is below the count, which is about never. The pair of directions is
// found by comparing the rank with the three prefix sums at once (a
// binary search is shorter but makes the loads wait on each other), and
// the direction by the count of the pair's first. The stone is the k-th of
// the direction's: for k below 8, by far the usual case (a direction
// rarely has nine stones to move), the four, two and one lowest bits are
// cleared as k's bits say, each result kept or not by a mask.
func (sm *strongMoves) draw(ours, theirs uint64, rng *rand.Rand, pick bool) Move {
	free := ^(ours | theirs)
	m1, m8 := fillMasks[0], fillMasks[1]
	free1, free8 := free&m1, free&m8
	o, pre := &sm.origins, &sm.pre
	// A fill upwards by k finds the stones whose nearest stone below is
	// theirs (pulled down) or ours (pushed up); a fill downwards the same
	// the other way round. The square after the stone must be empty (and
	// on the board).
	pullS, pushN := fillUp(ours, theirs, free1, 1, 2, 4, m1)
	pullN, pushS := fillDown(ours, theirs, free8, 1, 2, 4, m8)
	o[0] = (pullN | pushN) & ours & (free1 >> 1)
	o[4] = (pullS | pushS) & ours & (free8 << 1)
	pre[0] = 0
	pre[1] = uint64(bits.OnesCount64(o[0] | o[4]>>1))
	pullSW, pushNE := fillUp(ours, theirs, free1, 9, 18, 36, m1)
	pullNE, pushSW := fillDown(ours, theirs, free8, 9, 18, 36, m8)
	o[1] = (pullNE | pushNE) & ours & (free1 >> 9)
	o[5] = (pullSW | pushSW) & ours & (free8 << 9)
	pre[2] = pre[1] + uint64(bits.OnesCount64(o[1]|o[5]>>9))
	pullW, pushE := fillUp(ours, theirs, free, 8, 16, 32, ^uint64(0))
	pullE, pushW := fillDown(ours, theirs, free, 8, 16, 32, ^uint64(0))
	o[2] = (pullE | pushE) & ours & (free >> 8)
	o[6] = (pullW | pushW) & ours & (free << 8)
	pre[3] = pre[2] + uint64(bits.OnesCount64(o[2]|o[6]>>8))
	pullNW, pushSE := fillUp(ours, theirs, free8, 7, 14, 28, m8)
	pullSE, pushNW := fillDown(ours, theirs, free1, 7, 14, 28, m1)
	o[3] = (pullSE | pushSE) & ours & (free8 >> 7)
	o[7] = (pullNW | pushNW) & ours & (free1 << 7)
	sm.total = pre[3] + uint64(bits.OnesCount64(o[3]|o[7]>>7))
	if !pick || sm.total == 0 {
		return NoMove
	}
	r, lo := bits.Mul64(rng.Uint64(), sm.total)
	if lo < sm.total {
		r = game.Redraw(rng, sm.total, r, lo)
	}
	d := above(r, pre[1]) + above(r, pre[2]) + above(r, pre[3])
	k := r - pre[d&3]
	first := uint64(bits.OnesCount64(sm.origins[d&3]))
	second := above(k, first)
	d += 4 & -second
	k -= first & -second
	b := sm.origins[d&7]
	if k >= 8 {
		b, k = clearLowest(b, k-7), 7
	}
	c := b & (b - 1)
	c &= c - 1
	c &= c - 1
	c &= c - 1
	b ^= (b ^ c) & -(k >> 2 & 1)
	c = b & (b - 1)
	c &= c - 1
	b ^= (b ^ c) & -(k >> 1 & 1)
	b ^= (b ^ b&(b-1)) & -(k & 1)
	from := uint(bits.TrailingZeros64(b)) & 63
	return Move(from)<<6 | Move(slideTo(d, from, ^free))
}

// above is 1 when r >= sum, else 0, without a branch.
func above(r, sum uint64) uint64 { return (sum - r - 1) >> 63 }

// clearLowest clears the k lowest set bits of b.
func clearLowest(b, k uint64) uint64 {
	for ; k > 0; k-- {
		b &= b - 1
	}
	return b
}

// slideTo returns the square a stone on from moving in direction d (one
// of directionOrder, which is the order of the direction constants) stops
// on under the default rules: before the first stone along d, or on the
// edge. The ray's stones shifted back one step mark the squares before
// them; with the ray's last square added, the nearest of those is the
// lowest bit for the directions that raise the index and the highest for
// the others. Both are computed and one is kept by a mask, since d is
// random.
func slideTo(d uint64, from uint, occ uint64) uint {
	d &= 7
	from &= 63
	blk, end, k := rays[d][from]&occ, rayEndBit[d][from], rayShift[d]&63
	up := uint64(bits.TrailingZeros64(blk>>k | end))
	down := uint64(63 - bits.LeadingZeros64(blk<<k|end))
	return uint(up^(up^down)&-(d>>2)) & 63
}

// rayShift[d] is the change of square index a step in direction d,
// without its sign.
var rayShift = [8]uint64{1, 9, 8, 7, 1, 9, 8, 7}
