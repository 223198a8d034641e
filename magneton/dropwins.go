package magneton

import "math/bits"

// Wins in one of the drop phase, set-wise. Computer players ask at every
// leaf of their search whether either side could win with its next drop;
// dropping on each empty square in turn and following its magnetic effect
// cost a leaf some fifty effects, most of the search's time. But a drop
// wins only through the own stones it repels, and where a repelled stone
// ends does not depend on where the drop was:
//
//   - The drop on t repels, in each direction d, the nearest stone that
//     way when it is the mover's own (q), which slides on in direction d
//     to the last empty square before the next stone or the edge (its
//     end). Nothing that lies behind q, t included, changes that end; the
//     drop squares that repel q that way are the empty run behind q.
//   - Every square between t and the end is empty after the effect (q has
//     left them, and t's effect moves one stone a ray), so a line of four
//     through the end along d runs away from t: the end and the three
//     squares after it, which no other part of the effect changes. When
//     those three hold own stones, every drop of q's run wins, for sure.
//   - A line through the end across d cannot hold t (t is on d's line
//     through the end), so it holds three other own stones of the board
//     after the effect: own stones that stayed or other repelled stones.
//
// So the ends are found for all stones and directions at once by
// occluded fills (as the move phase's destinations are, fill.go), and
// only a drop whose effect might complete a line is played out: one that
// repels a stone onto a sure line, onto the fourth square of three own
// stones across, or two stones whose ends might share a line (near and
// far below). Those are few; the rest of the board is never looked at.

// Directions as rotations of the bitboard (step) and the squares a step
// that way may land on without wrapping around the board (stepLand).
const (
	notFileA uint64 = ^uint64(0xff)
	notFileH uint64 = ^uint64(0xff << 56)
)

var stepLand = [8]uint64{
	north:     notRank1,
	northEast: notRank1 & notFileA,
	east:      notFileA,
	southEast: notRank8 & notFileA,
	south:     notRank8,
	southWest: notRank8 & notFileH,
	west:      notFileH,
	northWest: notRank1 & notFileH,
}

// ray is a direction as the set-wise tests use it: the rotation of the
// bitboard by one step that way and the squares such a step may land on.
// A loop over the directions loads its two rays once a direction, and
// its methods, inlined, keep them in registers.
type ray struct {
	r    int
	land uint64
}

// rays8[d] is direction d's ray.
var rays8 = func() (a [8]ray) {
	for d := range a {
		a[d] = ray{step[d], stepLand[d]}
	}
	return a
}()

// step moves every square of b one step along a, dropping those that
// would leave the board.
func (a ray) step(b uint64) uint64 {
	return bits.RotateLeft64(b, a.r) & a.land
}

// fill returns gen and every square reached from it along a through
// squares of pro: the occluded fill (Kogge-Stone, with rotations and the
// propagator masked so that nothing wraps).
func (a ray) fill(gen, pro uint64) uint64 {
	pro &= a.land
	gen |= pro & bits.RotateLeft64(gen, a.r)
	pro &= bits.RotateLeft64(pro, a.r)
	gen |= pro & bits.RotateLeft64(gen, 2*a.r)
	pro &= bits.RotateLeft64(pro, 2*a.r)
	return gen | pro&bits.RotateLeft64(gen, 4*a.r)
}

// windowShifts[o] and windowStarts[o] are, for the line orientation of
// direction o (0 to 3), the change of square index along it and the
// squares where a window of four squares that way may start.
var (
	windowShifts = [4]uint{1, 9, 8, 7}
	windowStarts = [4]uint64{rank1to5, rank1to5 & filesAtoE, filesAtoE, rank4to8 & filesAtoE}
)

// filesAtoE are the squares of files a to e.
const filesAtoE = ^uint64(0) >> 24

// lineSquares returns, for the line orientation of direction o (0 to
// 3), the squares of the windows of four along it that hold no stone of
// their and at least three own stones (three) or at least two (open).
// For an empty square x these are the squares that complete a line of
// four with three own stones of the board, or with two and one more on
// the fourth square.
func lineSquares(own, their uint64, o int) (three, open uint64) {
	k, start := windowShifts[o&3], windowStarts[o&3]
	free := ^(their | their>>k | their>>(2*k) | their>>(3*k)) & start
	a0, a1, a2, a3 := own&free, own>>k&free, own>>(2*k)&free, own>>(3*k)&free
	ab, cd, aob, cod := a0&a1, a2&a3, a0|a1, a2|a3
	t := ab&cod | cd&aob
	w := ab | cd | aob&cod
	return t | t<<k | t<<(2*k) | t<<(3*k), w | w<<k | w<<(2*k) | w<<(3*k)
}

// dropWinCandidates returns the drop squares of the side with stones own
// (against their) whose magnetic effect may complete its line of four
// (see the top of this file): sure holds those that do, maybe those that
// might and must be played out. A square may be in both.
func dropWinCandidates(own, their uint64) (sure, maybe uint64) {
	if bits.OnesCount64(own) < 4 {
		// The dropped stone is never in the line (above), so four
		// stones of the board must make it.
		return 0, 0
	}
	empty := ^(own | their)
	// ends[d]: where the stones repelled in direction d end, for every
	// stone that can slide that way, less the sure ends. near[d] and
	// far[d]: the drops that repel a stone that way whose end is 2 or 3
	// squares from the drop, and 4 or 6 (see pairs below).
	var ends, near, far [8]uint64
	for d := range 8 {
		fwd, back := rays8[d], rays8[d^4]
		ahead := back.step(empty) // x+d is empty
		e := fwd.fill(own, empty) &^ own &^ ahead
		if e == 0 {
			continue
		}
		// runs: the drops that repel a stone in direction d, the empty
		// runs behind the stones that can slide that way.
		runs := back.fill(back.step(own&ahead)&empty, empty)
		b2 := back.step(back.step(e))
		b3 := back.step(b2)
		b4 := back.step(b3)
		b6 := back.step(back.step(b4))
		near[d] = runs & (b2 | b3)
		far[d] = runs & (b4 | b6)
		// The sure ends: x+d, x+2d and x+3d hold own stones.
		a1 := back.step(own)
		a2 := back.step(a1)
		sureEnds := e & a1 & a2 & back.step(a2)
		sure |= behindRuns(sureEnds, own, empty, back)
		ends[d] = e &^ sureEnds
	}
	// pairs: the drops that repel two stones whose ends might share a
	// line of four across their directions: both ends 2 or 3 squares
	// away, the directions 45 or 90 degrees apart, or 45 degrees apart
	// with one end twice as far as the other (2 and 4, 3 and 6). No other
	// two ends of one drop are within four squares in a row on such a
	// line.
	var pairs uint64
	for d := range 8 {
		pairs |= near[d] & (near[(d+1)&7] | near[(d+2)&7] | far[(d+1)&7] | far[(d+7)&7])
	}
	var three, open [4]uint64
	for o := range 4 {
		three[o], open[o] = lineSquares(own, their, o)
	}
	for o := range 4 {
		// An end of direction o or its opposite (an empty square)
		// completes a line across with three own stones of the board
		// (withOwn), or with two and another end of the same drop
		// (withEnds: the line's fourth square empty on the board, as
		// every end is). Of the ends of two
		// repelled stones on one line of four (pairs), the other two
		// squares are never on the drop's rays: it takes two own stones
		// that stay.
		o1, o2, o3 := (o+1)&3, (o+2)&3, (o+3)&3
		withOwn := three[o1] | three[o2] | three[o3]
		withEnds := open[o1] | open[o2] | open[o3]
		for _, d := range [2]int{o, o + 4} {
			e := ends[d] & withEnds
			if e == 0 {
				continue
			}
			back := rays8[d^4]
			maybe |= behindRuns(e&withOwn, own, empty, back) | behindRuns(e&^withOwn, own, empty, back)&pairs
		}
	}
	return sure, maybe
}

// behindRuns returns the drop squares that repel, along the ray back's
// opposite, the stones whose ends (the last squares of their slides that
// way) are in ends: the empty runs behind those stones.
func behindRuns(ends, own, empty uint64, back ray) uint64 {
	if ends == 0 {
		return 0
	}
	path := back.fill(ends, empty) // the ends and the squares slid over
	stones := back.step(path) & own
	return back.fill(back.step(stones)&empty, empty)
}

// dropWins reports whether a drop on t of the side with stones own
// (against their) wins under the default rules: Play's own test, the
// effect looked up line by line.
func dropWins(t uint, own, their uint64) bool {
	own |= 1 << (t & 63)
	changed, _ := effect(&effectTable[0], own, their, t)
	own ^= changed
	return lineThrough(own, changed&own)
}

// dropWinsInOne is WinsInOne for a side with stones in hand under the
// default rules.
func dropWinsInOne(own, their uint64, limit int) int {
	sure, maybe := dropWinCandidates(own, their)
	n := bits.OnesCount64(sure)
	if n >= limit {
		return limit
	}
	for b := maybe &^ sure; b != 0; b &= b - 1 {
		if dropWins(uint(bits.TrailingZeros64(b)), own, their) {
			if n++; n >= limit {
				return n
			}
		}
	}
	return n
}

// moveWinTargets returns a superset of the destinations of the winning
// moves of the side with stones own (all on the board, against their)
// under the default rules. A move from f to t wins when a drop on t
// would with f empty, and emptying f changes the drop's analysis (above)
// in three ways only: a stone that f blocked slides on, to f's own end
// or, when f was blocked itself, onto f; a drop square's run behind a
// stone may pass over f; and f's stone no longer counts in a line. So
// the ends are those of the board or own stones blocked that way, the
// lines across an end the windows with two own stones and no enemy stone
// (a superset of the drop's: every end is empty or an own stone), and
// the drop squares the runs behind the stones over at most one own
// stone.
func moveWinTargets(own, their uint64) uint64 {
	empty := ^(own | their)
	var three, open [4]uint64
	for o := range 4 {
		three[o], open[o] = lineSquares(own, their, o)
	}
	var targets uint64
	for d := range 8 {
		fwd, back := rays8[d], rays8[d^4]
		ahead := back.step(empty) // x+d is empty
		reach := fwd.fill(own, empty)
		// blocked: own stones that cannot slide this way with an own
		// stone behind them, which slides onto them when they move.
		blocked := own &^ ahead & fwd.step(reach)
		ends := reach&^own&^ahead | blocked
		a1 := back.step(own)
		a2 := back.step(a1)
		// An empty end needs two more own stones in a window across, an
		// own one (blocked) three with itself.
		o1, o2, o3 := (d+1)&3, (d+2)&3, (d+3)&3
		e := ends&^own&(open[o1]|open[o2]|open[o3]) | ends&(three[o1]|three[o2]|three[o3]) | ends&a1&a2&back.step(a2)
		if e == 0 {
			continue
		}
		path := back.fill(e, empty)
		stones := back.step(path) & own
		run := back.fill(stones, empty)
		// over one own stone, the mover's f
		over := back.step(run) & own
		targets |= (run | back.fill(over, empty)) & empty
	}
	return targets
}

// moveWinsInOne is WinsInOne for a side with no stones in hand under the
// default rules: only the moves to moveWinTargets are played out.
func moveWinsInOne(own, their uint64, limit int) int {
	n, _ := moveWins(own, their, limit)
	return n
}

// moveWins counts the winning moves of the side with stones own (all on
// the board, against their) under the default rules, up to limit, and
// returns the first of them in the order of appendStrongMoves (NoMove
// when there is none). Only the moves to moveWinTargets are played out.
func moveWins(own, their uint64, limit int) (n int, first Move) {
	targets := moveWinTargets(own, their)
	if targets == 0 {
		return 0, NoMove
	}
	occ := own | their
	dests := strongDests(own, their)
	for d, b := range dests {
		back := directionOrder[d] ^ 4
		for b &= targets; b != 0; b &= b - 1 {
			to := Square(bits.TrailingZeros64(b) & 63)
			from := nearest(back, to, occ)
			if dropWins(uint(to), own&^(1<<from), their) {
				if n == 0 {
					first = Slide(from, to)
				}
				if n++; n >= limit {
					return n, first
				}
			}
		}
	}
	return n, first
}

// firstDropWin returns the lowest drop square with which the side with
// stones own (and stones in hand, against their) wins at once under the
// default rules: the first winning drop in the order of AppendMoves.
func firstDropWin(own, their uint64) (Move, bool) {
	sure, maybe := dropWinCandidates(own, their)
	for b := sure | maybe; b != 0; b &= b - 1 {
		t := uint(bits.TrailingZeros64(b))
		if sure>>t&1 != 0 || dropWins(t, own, their) {
			return Drop(Square(t)), true
		}
	}
	return NoMove, false
}
