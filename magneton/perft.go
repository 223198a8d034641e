package magneton

import (
	"math/bits"
	"sync/atomic"
)

// The specialised perft (FastPerft) walks a node's moves without listing
// them (the empty squares in the drop phase, the set-wise destinations of
// fill.go in the move phase) and plays each on the two bitboards alone:
// the effect, and the win test only where a win is possible. A node finds
// once the squares where one more stone of the mover completes a run of
// four (threats); a stone the magnet pushes can only end in a line of
// four on such a square, unless it is one of two pushed stones (see
// threats). At the last ply each move is still played in full and its
// result judged; the results go into a checksum.

// perftSink collects a checksum of every leaf FastPerft plays, so that the
// compiler keeps each leaf's play.
var perftSink atomic.Uint64

// FastPerft counts perft as game.Perft does under the default movement,
// force and win rules (no-moves and repetition do not change perft); it
// declines (false) the other rules.
func (p Position) FastPerft(depth int) (uint64, bool) {
	if p.flags()&(flagWeak|flagOneSided|flagOwnerWins) != 0 {
		return 0, false
	}
	if depth <= 0 {
		return 1, true
	}
	var chk uint64
	n := fastPerft(p, depth, &chk)
	perftSink.Add(chk)
	return n, true
}

// fastPerft counts the leaves depth >= 1 plies below p and adds a
// checksum of the leaves to chk. Inner nodes, a fraction of the leaves,
// list their moves and Play them; the last ply's loops are functions of
// their own, so that few values are live across their one call (the
// effect) and little is spilled and reloaded around it.
func fastPerft(p Position, depth int, chk *uint64) uint64 {
	if p.won() {
		return 0
	}
	if depth == 1 {
		threat := threats(p.mine)
		var n, sum uint64
		if p.handMine() > 0 {
			n, sum = dropLeaves(p.mine, p.theirs, threat)
		} else {
			n, sum = moveLeaves(p.mine, p.theirs, threat)
		}
		*chk += sum
		return n
	}
	var buf [8 * StonesPerSide]Move // the most moves a node can have: 64 drops or 8 per stone
	var n uint64
	for _, m := range p.AppendMoves(buf[:0]) {
		n += fastPerft(p.Play(m), depth-1, chk)
	}
	return n
}

// dropLeaves plays every drop of the side to move (stones mine, the
// other's theirs, threats of mine threat) and returns their number and
// their checksum. The drops of one node differ only in the magnet's
// square, so each line's base-3 value (see lines.go) is computed once
// for the node, and a drop adds its own stone's digit (dropBase): four
// table loads and the spreads of their results a drop, where effect
// extracts both boards' bits of every line for every play. It is kept
// out of line (go:noinline) for a profile-guided build too, which would
// otherwise inline it into fastPerft, with its loop's values spilled
// around the recursion: perft's drop suite then took 10% longer.
//
//go:noinline
func dropLeaves(mine, theirs, threat uint64) (n, sum uint64) {
	var lines [64]uint32 // 46 used; 64 so that a masked index needs no check
	for b := mine; b != 0; b &= b - 1 {
		g := &geometry[bits.TrailingZeros64(b)&63]
		for k := range 4 {
			lines[g.line[k]&63] += uint32(g.digit[k])
		}
	}
	for b := theirs; b != 0; b &= b - 1 {
		g := &geometry[bits.TrailingZeros64(b)&63]
		for k := range 4 {
			lines[g.line[k]&63] += 2 * uint32(g.digit[k])
		}
	}
	tbl := &effectTable[0]
	for free := ^(mine | theirs); free != 0; free &= free - 1 {
		to := uint(bits.TrailingZeros64(free)) & 63
		g := &geometry[to]
		e := tbl[(g.dropBase[lineFile]+lines[g.line[lineFile]&63])&(tableSpan-1)]
		co, ct := fileSpread(uint8(e), to), fileSpread(uint8(e>>8), to)
		e = tbl[(g.dropBase[lineRank]+lines[g.line[lineRank]&63])&(tableSpan-1)]
		co |= rankSpreadAt(uint8(e), to)
		ct |= rankSpreadAt(uint8(e>>8), to)
		e = tbl[(g.dropBase[lineDiag]+lines[g.line[lineDiag]&63])&(tableSpan-1)]
		co |= uint64(uint8(e)) * g.diagMul & g.diagMask
		ct |= uint64(e>>8) * g.diagMul & g.diagMask
		e = tbl[(g.dropBase[lineAnti]+lines[g.line[lineAnti]&63])&(tableSpan-1)]
		co |= uint64(uint8(e)) * g.antiMul & g.antiMask
		ct |= uint64(e>>8) * g.antiMul & g.antiMask
		ours := (mine | 1<<to) ^ co
		sum += leafSum(ours, theirs^ct, wins(ours, co&ours, threat))
		n++
	}
	return n, sum
}

// moveLeaves is dropLeaves for the moves of the move phase: the
// destinations of each direction from strongDests, each reached by the
// nearest stone behind it. Out of line as dropLeaves is.
//
//go:noinline
func moveLeaves(mine, theirs, threat uint64) (n, sum uint64) {
	occ := mine | theirs
	for d, b := range strongDests(mine, theirs) {
		back := directionOrder[d] ^ 4
		for ; b != 0; b &= b - 1 {
			to := uint(bits.TrailingZeros64(b)) & 63
			ours := mine ^ (1<<uint(nearest(back, Square(to), occ)) | 1<<to)
			co, ct := effect(&effectTable[0], ours, theirs, to)
			ours ^= co
			sum += leafSum(ours, theirs^ct, wins(ours, co&ours, threat))
			n++
		}
	}
	return n, sum
}

// leafSum folds a played leaf into a checksum (see perftSink).
func leafSum(ours, theirs uint64, won bool) uint64 {
	return ours ^ theirs*3 ^ uint64(b2u(won))
}

// wins reports whether the mover's stones ours, after a play whose effect
// pushed the stones now on pushed, hold a line of four through a pushed
// stone. threat is threats of the mover's stones before the play: one
// pushed stone wins only on one of those squares, so the full test runs
// only then or when two or more were pushed.
func wins(ours, pushed, threat uint64) bool {
	if pushed&threat|pushed&(pushed-1) == 0 {
		return false
	}
	return lineThrough(ours, pushed)
}

func b2u(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}

// threats returns the squares x for which the stones of b and a stone on
// x make a straight run of four or more through x. When a play's effect
// pushes one stone of the mover, the mover's other stones after the play
// are its stones before it, less some, plus the magnet (a dropped or
// moved stone); the magnet shares no run with the pushed stone, since the
// square the pushed stone left lies empty between them. So that stone
// completes a line only on a square of threats of the stones before.
func threats(b uint64) uint64 {
	return threatsAlong(b, 1, notRank1, notRank8) | // north: +1 within a file
		threatsAlong(b, 8, ^uint64(0), ^uint64(0)) | // east: +8, no wrap
		threatsAlong(b, 9, notRank1, notRank8) | // north-east: +9
		threatsAlong(b, 7, notRank8, notRank1) // south-east: +7
}

// threatsAlong is threats along one direction, a step of k squares up
// the index: up and down mask off the squares a shift up or down wraps
// onto. lo1 are the squares whose neighbour below is in b, lo2 those with
// two in a row below, and so on; hi1 to hi3 the same above. A run of four
// through x is three on one side, or two and one.
func threatsAlong(b uint64, k uint, up, down uint64) uint64 {
	k &= 63
	lo1 := b << k & up
	lo2 := lo1 & (lo1 << k) & up
	lo3 := lo2 & (lo2 << k) & up
	hi1 := b >> k & down
	hi2 := hi1 & (hi1 >> k) & down
	hi3 := hi2 & (hi2 >> k) & down
	return lo3 | hi3 | lo2&hi1 | lo1&hi2
}
