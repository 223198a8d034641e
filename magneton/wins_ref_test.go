package magneton

import "math/bits"

// The win-in-one test as it was written first, square by square: the
// reference that the set-wise tests of dropwins.go are checked against.

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

// magnetWins, the reference, reports whether a magnet of the mover's colour on t wins under
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
