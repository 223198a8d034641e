// Package simpleab is an independent baseline for Magneton: a plain
// alpha-beta engine of the kind a tester would write in an afternoon, to
// measure the project's own players against something that is not built
// from their code. It shares only the rules (package magneton) with them:
// its search, transposition table, move ordering and evaluation are its
// own, so that a weakness of the project's search is not copied into the
// yardstick.
//
// The search is iterative-deepening negamax with principal variation
// search, a transposition table, two killer moves a ply and a history
// table; no reductions, no pruning beyond alpha-beta, no quiescence. The
// evaluation (Eval) counts each side's open windows of four (holding one,
// two or three of its stones and none of the opponent's), move-phase
// mobility and immediate wins.
package simpleab

import (
	"context"
	"math/bits"
	"slices"
	"time"

	"github.com/magneton-games/magneton/magneton"
)

// Score bounds: a win at ply n scores mate-n.
const (
	mate     = 30000
	mateSoon = mate - 500 // scores beyond it are found wins and losses
	infinity = 32000
	maxDepth = 64
)

// Weights of the evaluation, in hundredths of a stone-like unit.
const (
	wOne      = 2   // an open window holding one own stone
	wTwo      = 10  // two own stones
	wThree    = 50  // three own stones (one push away from a line)
	wMobility = 3   // a legal move in the move phase
	wCanWin   = 900 // the side to move can win at once
	wThreat   = 250 // a winning move the opponent would have (at most two counted)
)

// entry is a transposition table slot.
type entry struct {
	key   uint64
	score int16
	move  magneton.Move
	depth int8
	kind  uint8 // exact, lower or upper bound
}

const (
	kindExact = iota + 1
	kindLower
	kindUpper
)

// Engine is one simple-ab player's search state. It keeps its table
// between moves; Clear forgets it. It is used by one goroutine at a time.
type Engine struct {
	table   []entry
	mask    uint64
	killers [maxDepth + 1][2]magneton.Move
	history [2][1 << 13]int32
	path    []uint64 // hashes of the game so far and of the current line
	buf     [maxDepth + 1][]magneton.Move
	order   [maxDepth + 1][]int64
	nodes   int64
	stop    bool
	ctx     context.Context
	end     time.Time
}

// New makes an engine with a table of about hashMB megabytes.
func New(hashMB int) *Engine {
	n := uint64(1)
	for n*2*16 <= uint64(max(hashMB, 1))<<20 {
		n *= 2
	}
	e := &Engine{table: make([]entry, n), mask: n - 1}
	for i := range e.buf {
		e.buf[i] = make([]magneton.Move, 0, 256)
		e.order[i] = make([]int64, 0, 256)
	}
	return e
}

// Clear forgets the table, killers and history (a new game).
func (e *Engine) Clear() {
	clear(e.table)
	e.killers = [maxDepth + 1][2]magneton.Move{}
	e.history = [2][1 << 13]int32{}
}

// Result is what a search found.
type Result struct {
	Move  magneton.Move
	Score int // for the side to move
	Depth int // the last completed depth
	Nodes int64
}

// Search deepens from depth 1 until moveTime is spent (a new depth starts
// only in the first half of it), ctx is cancelled, or depth limit is
// reached (0: no limit), and returns the best move of the last completed
// depth. history holds the hashes of the game's earlier positions, so that
// a repetition scores as a draw. root must have a legal move.
func (e *Engine) Search(ctx context.Context, root magneton.Position, history []uint64, moveTime time.Duration, limit int) Result {
	start := time.Now()
	e.ctx, e.end, e.stop, e.nodes = ctx, start.Add(moveTime), false, 0
	if moveTime <= 0 {
		e.end = time.Time{}
	}
	e.path = append(e.path[:0], history...)
	for i := range e.history {
		for j := range e.history[i] {
			e.history[i][j] /= 2
		}
	}
	moves := root.AppendMoves(nil)
	res := Result{Move: moves[0]}
	if limit <= 0 || limit > maxDepth {
		limit = maxDepth
	}
	for d := 1; d <= limit; d++ {
		score := e.pvs(root, d, 0, -infinity, infinity)
		if e.stop {
			break
		}
		if t := e.probe(root.Hash()); t != nil && t.move != magneton.NoMove {
			res.Move = t.move
		}
		res.Score, res.Depth = score, d
		if score > mateSoon || score < -mateSoon {
			break
		}
		if moveTime > 0 && time.Since(start) > moveTime/2 {
			break
		}
	}
	res.Nodes = e.nodes
	return res
}

func (e *Engine) probe(h uint64) *entry {
	t := &e.table[h&e.mask]
	if t.key != h {
		return nil
	}
	return t
}

func (e *Engine) out() bool {
	e.nodes++
	if e.nodes&1023 == 0 && (!e.end.IsZero() && time.Now().After(e.end) || e.ctx.Err() != nil) {
		e.stop = true
	}
	return e.stop
}

// pvs returns the score of p for its side to move within (alpha, beta):
// a negamax with principal variation search, whose steps that can settle
// the node come first (a decided game, a repetition, the horizon, the
// table), then the moves in order.
func (e *Engine) pvs(p magneton.Position, depth, ply, alpha, beta int) int {
	if w, ok := p.Winner(); ok {
		return wonScore(w == p.Side(), ply)
	}
	h := p.Hash()
	if ply > 0 && e.repeated(h) {
		return 0
	}
	if e.out() {
		return 0
	}
	if depth <= 0 || ply >= maxDepth {
		return Eval(p)
	}
	ttMove, s, cut := e.probeCut(h, depth, ply, alpha, beta)
	if cut {
		return s
	}
	moves := p.AppendMoves(e.buf[ply][:0])
	e.buf[ply] = moves
	if len(moves) == 0 {
		r, _ := p.Outcome()
		if w, ok := r.Winner(); ok {
			return wonScore(w == p.Side(), ply)
		}
		return 0
	}
	side := int(p.Side())
	e.sortMoves(moves, ttMove, side, ply)
	e.path = append(e.path, h)
	best, bestMove := e.searchMoves(p, moves, ttMove, side, depth, ply, alpha, beta)
	e.path = e.path[:len(e.path)-1]
	if e.stop {
		return 0
	}
	e.store(h, best, bestMove, depth, ply, alpha, beta)
	return best
}

// wonScore is the score of a decided game at ply for the side to move:
// a win (won) sooner is better, a loss later is less bad.
func wonScore(won bool, ply int) int {
	if won {
		return mate - ply
	}
	return ply - mate
}

// repeated reports whether the position of hash h, at the end of the
// line, came before with the same side to move, in the game or on the
// line: a repetition, scored as a draw.
func (e *Engine) repeated(h uint64) bool {
	for i := len(e.path) - 2; i >= 0; i -= 2 {
		if e.path[i] == h {
			return true
		}
	}
	return false
}

// probeCut looks the node up in the table: it returns the stored move
// (NoMove for none), which goes first in the ordering, and whether the
// entry settles a zero-window node on its own (cut), with its score. An
// entry searched less deep than depth only orders the moves.
func (e *Engine) probeCut(h uint64, depth, ply, alpha, beta int) (ttMove magneton.Move, score int, cut bool) {
	t := e.probe(h)
	if t == nil {
		return ttMove, 0, false
	}
	if int(t.depth) >= depth && beta-alpha == 1 {
		s := int(t.score)
		if s > mateSoon {
			s -= ply
		} else if s < -mateSoon {
			s += ply
		}
		if t.kind == kindExact || t.kind == kindLower && s >= beta || t.kind == kindUpper && s <= alpha {
			return t.move, s, true
		}
	}
	return t.move, 0, false
}

// sortMoves orders moves in place: the table's move, the killers of the
// ply, then by the side's history; each move packed under its ordering
// key, sorted highest first.
func (e *Engine) sortMoves(moves []magneton.Move, ttMove magneton.Move, side, ply int) {
	keys := e.order[ply][:0]
	for _, m := range moves {
		var k int64
		switch m {
		case ttMove:
			k = 1 << 30
		case e.killers[ply][0]:
			k = 1 << 29
		case e.killers[ply][1]:
			k = 1<<29 - 1
		default:
			k = int64(e.history[side][m&0x1fff])
		}
		keys = append(keys, k<<16|int64(m))
	}
	slices.Sort(keys)
	slices.Reverse(keys)
	e.order[ply] = keys
	for i, k := range keys {
		moves[i] = magneton.Move(k & 0xffff)
	}
}

// searchMoves searches the ordered moves of p and returns the best score
// and its move (the first move when none beats the others; worthless when
// e.stop is set). The first move gets the full window, the others a zero
// window first, searched again in full when they beat alpha. A move that
// cuts off becomes a killer of the ply and gains history by depth
// squared.
func (e *Engine) searchMoves(p magneton.Position, moves []magneton.Move, ttMove magneton.Move, side, depth, ply, alpha, beta int) (best int, bestMove magneton.Move) {
	best, bestMove = -infinity, moves[0]
	for i := range moves {
		m := moves[i]
		c := p.Play(m)
		var s int
		if i == 0 {
			s = -e.pvs(c, depth-1, ply+1, -beta, -alpha)
		} else {
			s = -e.pvs(c, depth-1, ply+1, -alpha-1, -alpha)
			if s > alpha && s < beta {
				s = -e.pvs(c, depth-1, ply+1, -beta, -alpha)
			}
		}
		if e.stop {
			return 0, bestMove
		}
		if s > best {
			best, bestMove = s, m
		}
		if s > alpha {
			alpha = s
		}
		if alpha >= beta {
			if m != ttMove && m != e.killers[ply][0] {
				e.killers[ply][1], e.killers[ply][0] = e.killers[ply][0], m
			}
			e.history[side][m&0x1fff] += int32(depth * depth)
			break
		}
	}
	return best, bestMove
}

// store keeps the node's result in the table (replace-always): exact
// inside the window (alpha, beta) it was searched with, a bound outside
// it, a win or loss relative to the node.
func (e *Engine) store(h uint64, best int, bestMove magneton.Move, depth, ply, alpha, beta int) {
	kind := uint8(kindExact)
	if best >= beta {
		kind = kindLower
	} else if best <= alpha {
		kind = kindUpper
	}
	stored := best
	if stored > mateSoon {
		stored += ply
	} else if stored < -mateSoon {
		stored -= ply
	}
	e.table[h&e.mask] = entry{key: h, score: int16(stored), move: bestMove, depth: int8(depth), kind: kind}
}

// windows lists the 130 sets of four squares in a row on the board.
var windows = func() []uint64 {
	var ws []uint64
	dirs := [4][2]int{{0, 1}, {1, 0}, {1, 1}, {1, -1}}
	for f := 0; f < 8; f++ {
		for r := 0; r < 8; r++ {
			for _, d := range dirs {
				var w uint64
				ok := true
				for k := 0; k < 4; k++ {
					ff, rr := f+k*d[0], r+k*d[1]
					if ff < 0 || ff > 7 || rr < 0 || rr > 7 {
						ok = false
						break
					}
					w |= 1 << (ff*8 + rr)
				}
				if ok {
					ws = append(ws, w)
				}
			}
		}
	}
	return ws
}()

// Eval scores p, a position not yet over, for its side to move.
func Eval(p magneton.Position) int {
	us, them := p.Side(), p.Side().Other()
	own, opp := p.Stones(us), p.Stones(them)
	s := 0
	for _, w := range windows {
		a, b := bits.OnesCount64(w&own), bits.OnesCount64(w&opp)
		switch {
		case b == 0:
			s += windowValue[a]
		case a == 0:
			s -= windowValue[b]
		}
	}
	if p.InHand(us) == 0 {
		s += wMobility * mobility(own, opp)
	}
	if p.InHand(them) == 0 {
		s -= wMobility * mobility(opp, own)
	}
	// A line of four needs four stones of the side on the board after
	// its move: three there already and a drop, or four.
	if canLine(own, p.InHand(us)) && p.WinsInOne(us, 1) > 0 {
		s += wCanWin
	}
	if canLine(opp, p.InHand(them)) {
		s -= wThreat * p.WinsInOne(them, 2)
	}
	return s
}

// canLine reports whether a side with these stones on the board and
// hand stones in hand could have four on the board after its move.
func canLine(stones uint64, hand int) bool {
	n := bits.OnesCount64(stones)
	return n >= 4 || n == 3 && hand > 0
}

// windowValue is the worth of an open window by the stones in it; a full
// window is a line already made, which wins nothing more.
var windowValue = [5]int{0, wOne, wTwo, wThree, 0}

// rayStep are the eight directions as (file, rank) steps.
var rayStep = [8][2]int{{0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}}

// mobility counts the moves of the stones own (against opp) under the
// default rules: a stone slides toward the first enemy stone in a
// direction until it touches it, or away from the first own stone as far
// as it can; each destination of a stone counts once.
func mobility(own, opp uint64) int {
	occ := own | opp
	n := 0
	for b := own; b != 0; b &= b - 1 {
		sq := bits.TrailingZeros64(b)
		f, r := sq/8, sq%8
		var dests uint64
		for d, st := range rayStep {
			// The first stone in direction d.
			k := 1
			for ; ; k++ {
				ff, rr := f+k*st[0], r+k*st[1]
				if ff < 0 || ff > 7 || rr < 0 || rr > 7 {
					k = 0
					break
				}
				if occ>>(ff*8+rr)&1 != 0 {
					break
				}
			}
			if k == 0 {
				continue
			}
			q := (f+k*st[0])*8 + r + k*st[1]
			if opp>>q&1 != 0 {
				if k > 1 { // pulled toward q, stopping next to it
					dests |= 1 << ((f+(k-1)*st[0])*8 + r + (k-1)*st[1])
				}
				continue
			}
			// Pushed away from q, in direction d+4.
			back := rayStep[(d+4)%8]
			j := 0
			for {
				ff, rr := f+(j+1)*back[0], r+(j+1)*back[1]
				if ff < 0 || ff > 7 || rr < 0 || rr > 7 || occ>>(ff*8+rr)&1 != 0 {
					break
				}
				j++
			}
			if j > 0 {
				dests |= 1 << ((f+j*back[0])*8 + r + j*back[1])
			}
		}
		n += bits.OnesCount64(dests)
	}
	return n
}
