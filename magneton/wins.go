package magneton

import (
	"math/bits"

	"github.com/magneton-games/magneton/game"
)

// WinsInOne counts the moves with which side s would win at once if it
// were its turn (its stones in hand, its stones on the board), stopping
// at limit. Computer players ask it at every leaf of their search, for
// both sides: whether the side to move can win now, and whether the
// opponent threatens to. A finished game has none.
//
// Under the default movement rules it does not play the moves: it looks
// only at the stones the magnet would repel, the only ones that can end
// in the mover's line of four. Under other rule options it plays every
// move.
func (p Position) WinsInOne(s game.Side, limit int) int {
	if p.won() || limit <= 0 {
		return 0
	}
	if p.flags()&(flagWeak|flagOneSided) != 0 {
		return p.winsByPlaying(s, limit)
	}
	own, their := p.Stones(s), p.Stones(s.Other())
	occ := own | their
	n := 0
	if p.InHand(s) > 0 {
		for e := ^occ; e != 0; e &= e - 1 {
			t := bits.TrailingZeros64(e)
			if magnetWins(t, own|1<<t, occ|1<<t) {
				if n++; n >= limit {
					return n
				}
			}
		}
		return n
	}
	for b := own; b != 0; b &= b - 1 {
		from := bits.TrailingZeros64(b)
		var dests uint64
		for d := range 8 {
			q := nearestInt(d, from, occ)
			if q < 0 {
				continue
			}
			var to int
			if own>>q&1 == 0 { // pulled toward q: stops next to it
				to = q - step[d]
			} else { // pushed away from q
				to = slideEnd(d^4, from, occ)
			}
			if to != from {
				dests |= 1 << to
			}
		}
		o2, c2 := own&^(1<<from), occ&^(1<<from)
		for ; dests != 0; dests &= dests - 1 {
			t := bits.TrailingZeros64(dests)
			if magnetWins(t, o2|1<<t, c2|1<<t) {
				if n++; n >= limit {
					return n
				}
			}
		}
	}
	return n
}

// winsByPlaying is WinsInOne for any rule options: it plays every move.
func (p Position) winsByPlaying(s game.Side, limit int) int {
	if s != p.sideToMove() {
		stones := [2]uint64{}
		stones[s], stones[s.Other()] = p.Stones(s), p.Stones(s.Other())
		hand := [2]int{}
		hand[s], hand[s.Other()] = p.InHand(s), p.InHand(s.Other())
		p = newPosition(stones, hand, s, p.flags())
	}
	var buf [256]Move
	n := 0
	for _, m := range p.AppendMoves(buf[:0]) {
		if w, ok := p.Play(m).Winner(); ok && w == s {
			if n++; n >= limit {
				return n
			}
		}
	}
	return n
}

// step[d] is the change of square index one step in direction d.
var step = [8]int{1, 9, 8, 7, -1, -9, -8, -7}

// nearestInt is nearest with -1 for no stone.
func nearestInt(d, s int, occ uint64) int {
	r := rays[d][s] & occ
	if r == 0 {
		return -1
	}
	if d < 4 {
		return bits.TrailingZeros64(r)
	}
	return 63 - bits.LeadingZeros64(r)
}

// slideEnd returns the farthest empty square from s in direction d, or s
// when the next square is taken or off the board.
func slideEnd(d, s int, occ uint64) int {
	if q := nearestInt(d, s, occ); q >= 0 {
		return q - step[d]
	}
	if e := rayEnd[d][s]; e != NoSquare {
		return int(e)
	}
	return s
}

// magnetWins reports whether a magnet of the mover's colour on t wins under
// the default rules: own (which includes t) and occ are the board after
// the drop or move. Only the own stones it repels can end in a line of
// four.
func magnetWins(t int, own, occ uint64) bool {
	var moved uint64
	for d := range 8 {
		q := nearestInt(d, t, occ)
		if q < 0 || own>>q&1 == 0 {
			continue
		}
		dest := slideEnd(d, q, occ)
		if dest == q {
			continue
		}
		own ^= 1<<q | 1<<dest
		moved |= 1 << dest
	}
	return lineThrough(own, moved)
}
