package ai

import (
	"math/bits"

	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/magneton"
)

// A fast count of the winning moves of either side in a Magneton
// position, for the evaluation and the search's threat extension. It
// follows the default movement rules (force=strong, movement=any-magnet):
// the kit uses it only under them, and a test checks it against playing
// every move. Squares are file-major as in package magneton (a1=0, a2=1,
// b1=8); directions 0-3 increase the square index, d^4 is the opposite.

var (
	mgStep = [8]int{1, 9, 8, 7, -1, -9, -8, -7}
	mgRays [8][64]uint64
	mgEnd  [8][64]int8
)

func init() {
	df := [8]int{0, 1, 1, 1, 0, -1, -1, -1}
	dr := [8]int{1, 1, 0, -1, -1, -1, 0, 1}
	for d := range 8 {
		for s := range 64 {
			f, r := s>>3, s&7
			end := int8(-1)
			for {
				f, r = f+df[d], r+dr[d]
				if f < 0 || f > 7 || r < 0 || r > 7 {
					break
				}
				end = int8(f*8 + r)
				mgRays[d][s] |= 1 << end
			}
			mgEnd[d][s] = end
		}
	}
}

func mgNearest(d, s int, occ uint64) int {
	r := mgRays[d][s] & occ
	if r == 0 {
		return -1
	}
	if d < 4 {
		return bits.TrailingZeros64(r)
	}
	return 63 - bits.LeadingZeros64(r)
}

func mgSlideEnd(d, s int, occ uint64) int {
	r := mgRays[d][s]
	if r == 0 {
		return s
	}
	if b := r & occ; b != 0 {
		if d < 4 {
			return bits.TrailingZeros64(b) - mgStep[d]
		}
		return 63 - bits.LeadingZeros64(b) - mgStep[d]
	}
	return int(mgEnd[d][s])
}

// mgLines is the lines function of package magneton: the stones of b in a
// run of four or more.
func mgLines(b uint64) uint64 {
	x := b & (b >> 1) & (b >> 2) & (b >> 3) & rank1to5
	all := x | x<<1 | x<<2 | x<<3
	x = b & (b >> 8) & (b >> 16) & (b >> 24)
	all |= x | x<<8 | x<<16 | x<<24
	x = b & (b >> 9) & (b >> 18) & (b >> 27) & rank1to5
	all |= x | x<<9 | x<<18 | x<<27
	x = b & (b >> 7) & (b >> 14) & (b >> 21) & rank4to8
	all |= x | x<<7 | x<<14 | x<<21
	return all
}

// mgWinsWith reports whether a magnet of own colour on t (own already
// includes it, occ is the board after the drop or move) wins: an own stone
// it repels ends in a line of four.
func mgWinsWith(t int, own, occ uint64) bool {
	var moved uint64
	for d := range 8 {
		q := mgNearest(d, t, occ)
		if q < 0 || own>>q&1 == 0 {
			continue
		}
		dest := mgSlideEnd(d, q, occ)
		if dest == q {
			continue
		}
		own ^= 1<<q | 1<<dest
		moved |= 1 << dest
	}
	return moved != 0 && mgLines(own)&moved != 0
}

// magnetonWins counts the winning moves of side s in p as if s were to
// move, stopping at limit.
func magnetonWins(p magneton.Position, s game.Side, limit int) int {
	own, their := p.Stones(s), p.Stones(s.Other())
	occ := own | their
	n := 0
	if p.InHand(s) > 0 {
		// Only a drop that repels an own stone can win: squares on a line
		// with an own stone.
		for e := ^occ; e != 0; e &= e - 1 {
			t := bits.TrailingZeros64(e)
			if mgWinsWith(t, own|1<<t, occ|1<<t) {
				n++
				if n >= limit {
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
			q := mgNearest(d, from, occ)
			if q < 0 {
				continue
			}
			var to int
			if own>>q&1 == 0 {
				to = q - mgStep[d]
				if to == q || to == from {
					continue
				}
			} else {
				to = mgSlideEnd(d^4, from, occ)
			}
			if to != from {
				dests |= 1 << to
			}
		}
		o2 := own &^ (1 << from)
		c2 := occ &^ (1 << from)
		for ; dests != 0; dests &= dests - 1 {
			t := bits.TrailingZeros64(dests)
			if mgWinsWith(t, o2|1<<t, c2|1<<t) {
				n++
				if n >= limit {
					return n
				}
			}
		}
	}
	return n
}
