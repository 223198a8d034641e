// Package magnetonai is Magneton's computer players, beside its rules
// (package magneton): the evaluation and search kit of package ai's
// generic searches, the profile of its levels and baselines (Profile),
// and its proof-number solver (Solver). A registration of the game,
// games.Game{Spec: magneton.Spec, AI: Profile, Solver: Solver}, holds
// them; this package does not know the registry.
package magnetonai

import (
	"math/bits"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/magneton"
)

// Magneton evaluation: a linear sum of features, each counted for the side
// to move minus the opponent. A win needs a line of four that a repelled
// stone completes, so the features count the "windows" (four squares in a
// row) each side could still fill: those holding three of its stones and
// no enemy stone are threats, those with two are the material of threats.
// Levels 1 to 7 weigh them by hand; level 8's weights are fitted by
// tools/tune to the end of self-play games (see docs/strength.md).

// Magneton feature indices.
const (
	Three    = iota // windows of 4 with 3 own stones and 1 empty square
	Two             // windows with 2 own stones and 2 empty squares
	Four            // full windows of own stones (made without a magnet, they do not win)
	Edge            // own stones on the edge
	Center          // own stones in the centre 4x4
	Tempo           // 1 for the side to move (the opponent's count is 0)
	Threats         // minus the opponent's winning moves if it were to move, at most 2 (default rules only)
	Push            // own stones that a push would carry onto the square completing a line of four
	Mobility        // own legal moves in the move phase (0 while the side has stones in hand)
	NumFeatures
)

// FeatureNames names the features for the tuning tool.
var FeatureNames = [NumFeatures]string{"three", "two", "four", "edge", "center", "tempo", "threats", "push", "mobility"}

// Weights are the default weights, those of levels 1 to 7, set by
// hand (docs/strength.md).
var Weights = [NumFeatures]int{40, 8, 10, 5, 3, 10, 150, 0, 0}

// Level8Weights are level 8's weights, fitted by tools/tune to the
// last 12 plies of level 4's self-play games (docs/strength.md):
//
//	go run ./tools/tune --game magneton --games 400 --player level:4 --seed 17 --last 12
//
// which gave {52, 12, -3, -41, -11, 33, 296, 4, 1}; push and mobility are
// left at 0, so that the kit need not compute them (the fit gave them
// little weight). The fit counts stones on the edge and in the centre
// against their side, where the hand-made weights counted them for it.
var Level8Weights = [NumFeatures]int{52, 12, -3, -41, -11, 33, 296, 0, 0}

const (
	filesAtoE  uint64 = 0x000000ffffffffff
	rank1to5   uint64 = 0x1f1f1f1f1f1f1f1f
	rank4to8   uint64 = 0xf8f8f8f8f8f8f8f8
	edgeMask   uint64 = 0xff818181818181ff
	centerMask uint64 = 0x00003c3c3c3c0000
)

// windowDirs are the shift and valid-start mask of the four line directions
// (file, rank, the two diagonals) on the file-major board.
var windowDirs = [4]struct {
	shift uint
	start uint64
}{
	{1, rank1to5},
	{8, filesAtoE},
	{9, filesAtoE & rank1to5},
	{7, filesAtoE & rank4to8},
}

// windows counts the windows of four with 2, 3 and 4 stones of own and none
// of other.
func windows(own, other uint64) (two, three, four int) {
	for _, d := range windowDirs {
		s := d.shift
		free := ^(other | other>>s | other>>(2*s) | other>>(3*s)) & d.start
		a0, a1, a2, a3 := own&free, own>>s&free, own>>(2*s)&free, own>>(3*s)&free
		ab, cd := a0&a1, a2&a3
		axb, cxd := a0^a1, a2^a3
		two += bits.OnesCount64(ab&^(a2|a3) | cd&^(a0|a1) | axb&cxd)
		three += bits.OnesCount64(ab&cxd | cd&axb)
		four += bits.OnesCount64(ab & cd)
	}
	return
}

// Features returns the features of a position, side to move minus
// opponent, under the default movement rules (force=strong,
// movement=any-magnet).
func Features(p magneton.Position) [NumFeatures]int {
	return defaultFeatures(p, true)
}

// defaultFeatures is Features, with the counts of stoneLines
// (push, mobility) only when lines is set: they walk every stone's eight
// directions, which a kit whose weights ignore them need not pay for.
func defaultFeatures(p magneton.Position, lines bool) [NumFeatures]int {
	f := boardFeatures(p)
	f[Threats] = -p.WinsInOne(p.Side().Other(), 2)
	if !lines {
		return f
	}
	us, them := p.Side(), p.Side().Other()
	ob, tb := p.Stones(us), p.Stones(them)
	up, um := stoneLines(ob, tb)
	tp, tm := stoneLines(tb, ob)
	f[Push] = up - tp
	if p.InHand(us) == 0 {
		f[Mobility] += um
	}
	if p.InHand(them) == 0 {
		f[Mobility] -= tm
	}
	return f
}

// boardFeatures is Features without the threats, the push
// count and mobility, which need the default movement rules.
func boardFeatures(p magneton.Position) [NumFeatures]int {
	us, them := p.Side(), p.Side().Other()
	ob, tb := p.Stones(us), p.Stones(them)
	u2, u3, u4 := windows(ob, tb)
	t2, t3, t4 := windows(tb, ob)
	var f [NumFeatures]int
	f[Three] = u3 - t3
	f[Two] = u2 - t2
	f[Four] = u4 - t4
	f[Edge] = bits.OnesCount64(ob&edgeMask) - bits.OnesCount64(tb&edgeMask)
	f[Center] = bits.OnesCount64(ob&centerMask) - bits.OnesCount64(tb&centerMask)
	f[Tempo] = 1
	return f
}

// The eight directions as one-square shifts of a bitboard (file-major: a
// square is file*8+rank), opposite directions four apart. A shift along a
// rank's bits masks off the stones that would wrap into the next file.
const (
	notRank1 uint64 = ^uint64(0x0101010101010101)
	notRank8 uint64 = ^uint64(0x8080808080808080)
)

func shiftDir(b uint64, d int) uint64 {
	switch d {
	case 0: // up a file (rank+1)
		return b << 1 & notRank1
	case 1: // rank+1, file+1
		return b << 9 & notRank1
	case 2: // file+1
		return b << 8
	case 3: // rank-1, file+1
		return b << 7 & notRank8
	case 4: // rank-1
		return b >> 1 & notRank8
	case 5: // rank-1, file-1
		return b >> 9 & notRank8
	case 6: // file-1
		return b >> 8
	default: // rank+1, file-1
		return b >> 7 & notRank1
	}
}

// firstStone returns the first stone of occ from the single stone q in
// direction d (0 when none) and the square just before it or the edge
// (q itself when the next square is taken or off the board).
func firstStone(q, occ uint64, d int) (first, last uint64) {
	last = q
	for {
		n := shiftDir(last, d)
		if n == 0 {
			return 0, last
		}
		if n&occ != 0 {
			return n, last
		}
		last = n
	}
}

// lineOfFour reports whether own holds four stones in a row through the
// single stone t.
func lineOfFour(own, t uint64) bool {
	for d := 0; d < 4; d++ {
		n := 1
		for x := shiftDir(t, d); x&own != 0; x = shiftDir(x, d) {
			n++
		}
		for x := shiftDir(t, d+4); x&own != 0; x = shiftDir(x, d+4) {
			n++
		}
		if n >= 4 {
			return true
		}
	}
	return false
}

// stoneLines looks at each stone of own (against other) in each of the
// eight directions, and counts two things.
//
// push is the pairs (stone, direction) where a push would win: a magnet
// of own's colour on the square behind the stone (empty, so that a magnet
// can come there) would slide it that way to the last empty square before
// the next stone or the edge, and that square completes a line of four of
// own. These are the windows a repelled stone can complete, the material
// of Magneton's threats; whether a magnet can reach the square behind is
// left to the search.
//
// moves is the legal moves of the stones under the default movement
// rules. A stone moves along a direction when the next square that way is
// empty and either the first stone that way is an enemy (it pulls the
// stone up to it) or the first stone the other way is its own (it pushes
// the stone away); both end on the last empty square before the next
// stone or the edge, so they are one move.
func stoneLines(own, other uint64) (push, moves int) {
	occ := own | other
	for b := own; b != 0; b &= b - 1 {
		q := b & -b
		for d := 0; d < 8; d++ {
			back := (d + 4) % 8
			ahead, to := firstStone(q, occ, d)
			if to == q {
				continue // the next square is taken or off the board
			}
			behind, _ := firstStone(q, occ, back)
			if ahead&other != 0 || behind&own != 0 {
				moves++
			}
			if shiftDir(q, back)&^occ != 0 && lineOfFour(own&^q|to, to) {
				push++
			}
		}
	}
	return push, moves
}

// Kit returns the search kit of Magneton with the given weights
// for the given rules. Under the default movement rules (force=strong,
// movement=any-magnet) it counts winning moves with
// magneton.Position.WinsInOne, which is fast there: for the threats
// feature and the threat extension, and finds a leaf's winning move with
// magneton.Position.WinningMove; under others it plays the moves out and
// has no threats feature.
func Kit(w [NumFeatures]int, rules magneton.Rules) *ai.Kit[magneton.Position, magneton.Move] {
	fast := !rules.Weak && !rules.OneSided
	features := boardFeatures
	if fast {
		lines := w[Push] != 0 || w[Mobility] != 0
		features = func(p magneton.Position) [NumFeatures]int { return defaultFeatures(p, lines) }
	}
	k := &ai.Kit[magneton.Position, magneton.Move]{
		Game: magneton.Spec.Name,
		Eval: func(p magneton.Position) int {
			f := features(p)
			return ai.Weigh(f[:], w[:])
		},
		MoveKey:  func(m magneton.Move) uint16 { return uint16(m) & 0x1fff },
		MoveKeys: 1 << 13,
		Decided: func(p magneton.Position) (game.Result, bool) {
			if w, ok := p.Winner(); ok {
				return game.WinFor(w), true
			}
			return game.Ongoing, false
		},
	}
	if fast {
		k.MayWin = func(p magneton.Position) bool { return p.WinsInOne(p.Side(), 1) > 0 }
		k.WinMove = magneton.Position.WinningMove
		k.Threatened = func(p magneton.Position) bool { return p.WinsInOne(p.Side().Other(), 1) > 0 }
		k.EvalThreatened = func(p magneton.Position) (int, bool) {
			f := features(p)
			return ai.Weigh(f[:], w[:]), f[Threats] < 0
		}
	}
	return k
}
