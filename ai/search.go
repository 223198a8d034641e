package ai

import (
	"context"
	"fmt"
	"math"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/magneton-games/magneton/game"
)

// DefaultContempt is the Contempt of a new Engine.
const DefaultContempt = 20

// maxPly bounds the depth of a search path.
const maxPly = 128

// Info reports the progress of a search after each completed depth.
type Info struct {
	Depth    int
	Score    int // from the root side to move's point of view
	Mate     int // MateMoves(Score): moves to a forced end, 0 if none is known
	Nodes    int64
	Time     time.Duration
	PV       []string // principal variation in the game's notation
	BestMove string
	// Proven, if not nil, is what a proof search settled about the
	// position (Config.Prover): BestMove is then its move. Unlike Mate,
	// which alpha-beta's pruning can get wrong, it is certain.
	Proven *Proof
}

// NPS returns nodes per second.
func (i Info) NPS() int64 {
	if i.Time <= 0 {
		return 0
	}
	return int64(float64(i.Nodes) / i.Time.Seconds())
}

// SearchResult is the outcome of a search: the move to play and what the
// search knows about it.
type SearchResult[M comparable] struct {
	Move  M
	Info  Info
	Moves int // number of legal moves at the root
}

// firstResult begins a search's result: the root's moves, with the first
// as the answer until the search finds better; errNoMove when there is
// none.
func firstResult[P game.Position[P, M], M comparable](root P) (SearchResult[M], []M, error) {
	var res SearchResult[M]
	moves := root.AppendMoves(nil)
	res.Moves = len(moves)
	if len(moves) == 0 {
		return res, nil, errNoMove
	}
	res.Move = moves[0]
	return res, moves, nil
}

// Engine is an alpha-beta searcher for one game: negamax with principal
// variation search, iterative deepening, a shared transposition table,
// killer and history move ordering, late move reductions, a win-in-one
// check at the leaves, and Lazy SMP threads. The table persists between
// searches. An Engine is used by one goroutine at a time.
type Engine[P game.Position[P, M], M comparable] struct {
	kit     *Kit[P, M]
	tt      *table
	threads int
	// NoQuiescence turns the leaf win-in-one check off, for the plain
	// fixed-depth baselines.
	NoQuiescence bool
	// NoReductions turns late move reductions off.
	NoReductions bool
	// Contempt is how much worse than 0 the root side to move scores a
	// draw by repetition, so that it avoids repeating in positions it
	// judges level and plays on for a win.
	Contempt int
	// Exclude lists root moves the search must not choose (the threat
	// defence's refuted moves); it must leave at least one legal move.
	Exclude []M
	workers []*worker[P, M]
	// deepest is the deepest iteration any thread of the running search
	// has completed, for the main thread to take over (Lazy SMP).
	deepest completed[M]
	// tookOver counts the iterations the main thread took over from
	// helpers, in all searches (the tests look at it).
	tookOver int
}

// completed is a search's deepest completed iteration: its depth, score
// and line (the move first). The thread that completes an iteration
// deeper than any before publishes it here, and the threads still
// searching that depth or a shallower one abandon it (shared.done tells
// them without the lock): the main thread takes the result over as its
// own, so two threads reach a depth as soon as either does instead of
// both searching every depth.
type completed[M comparable] struct {
	mu    sync.Mutex
	depth int
	score int
	line  []M
}

// publish records the iteration of depth d that w completed with score,
// if it is deeper than the deepest yet, and tells the threads searching
// that depth or a shallower one to abandon it.
func (w *worker[P, M]) publish(d, score int) {
	if !w.hasBest {
		return
	}
	c := &w.e.deepest
	c.mu.Lock()
	defer c.mu.Unlock()
	if d <= c.depth {
		return
	}
	c.depth, c.score = d, score
	c.line = append(c.line[:0], w.rootBest)
	if n := w.pvLen[0]; n > 0 && w.pv[0][0] == w.rootBest {
		c.line = append(c.line, w.pv[0][1:n]...)
	}
	w.sh.done.Store(int32(d))
}

// takeOver makes the deepest completed iteration, of another thread, w's
// own: its best move and line. It returns the iteration's depth and score.
func (w *worker[P, M]) takeOver() (depth, score int) {
	c := &w.e.deepest
	c.mu.Lock()
	defer c.mu.Unlock()
	w.rootBest, w.hasBest, w.rootScore = c.line[0], true, c.score
	w.rootPV = append(w.rootPV[:0], c.line...)
	return c.depth, c.score
}

// NewEngine makes an engine with a transposition table of about hashMB
// megabytes and the given number of threads (at least 1).
func NewEngine[P game.Position[P, M], M comparable](kit *Kit[P, M], hashMB, threads int) *Engine[P, M] {
	if threads < 1 {
		threads = 1
	}
	if hashMB < 1 {
		hashMB = 1
	}
	e := &Engine[P, M]{kit: kit, tt: newTable(hashMB), threads: threads, Contempt: DefaultContempt}
	return e
}

// Clear forgets everything learned in earlier searches (a new game).
func (e *Engine[P, M]) Clear() {
	e.tt.clear()
	e.workers = nil
}

// shared is the state the threads of one search share.
type shared struct {
	stop   sharedFlag
	nodes  atomic.Int64
	depth1 sharedFlag // depth 1 is complete: node limits apply from then on
	// done is the deepest iteration a thread has completed (Engine.deepest
	// holds its result), iter the main thread's current one: the helpers
	// choose their depths from them, and a thread abandons an iteration
	// that another has completed at its depth or deeper.
	done, iter atomic.Int32
	deadline   time.Time // zero: none
	maxNodes   int64
	ctx        context.Context
	fault      atomic.Pointer[PanicError] // the first helper thread's panic
}

// PanicError is the panic of a search whose helper thread panicked: a
// panic in a goroutine of its own would end the process, however the
// caller guards its own goroutine. So a helper's panic stops every thread
// of the search, and Search panics with a *PanicError in the caller's
// goroutine once they all have stopped, where a server can recover from
// it as from a panic of the main thread (raised as it was).
type PanicError struct {
	Value any    // what the thread panicked with
	Stack []byte // the thread's stack when it panicked
}

// Error says what the thread panicked with and where.
func (e *PanicError) Error() string {
	return fmt.Sprintf("ai: a search thread panicked: %v\n%s", e.Value, e.Stack)
}

// catch, deferred in a helper thread, turns its panic into sh's fault and
// stops the search.
func (sh *shared) catch() {
	if p := recover(); p != nil {
		sh.fault.CompareAndSwap(nil, &PanicError{Value: p, Stack: debug.Stack()})
		sh.stop.Store(true)
	}
}

type worker[P game.Position[P, M], M comparable] struct {
	e        *Engine[P, M]
	sh       *shared
	id       int
	nodes    int64 // not yet added to sh.nodes
	path     []uint64
	moves    [maxPly][]M
	scores   [maxPly][]int32
	killers  [maxPly][2]M
	history  []int32
	pv       [maxPly][maxPly]M
	pvLen    [maxPly]int
	cands    []M             // scratch for Kit.WinCandidates
	sorted   []scoredMove[M] // scratch for sortByScore
	rootBest M
	// rootScore is rootBest's score in the iteration that found it,
	// and rootPV its line then: a stopped iteration's new best move is
	// reported with its own score and line, not the last depth's.
	rootScore int
	rootPV    []M
	null      [maxPly]bool // null[ply]: the move out of ply is a null move
	hasBest   bool
	// iter is the depth of the worker's current iteration; abandoned is
	// set when another thread has completed it (or a deeper one), which
	// stops this iteration as the search's stop flag would.
	iter      int
	abandoned bool
}

func (e *Engine[P, M]) worker(i int) *worker[P, M] {
	for len(e.workers) <= i {
		w := &worker[P, M]{e: e, id: len(e.workers), history: make([]int32, 2*e.kit.MoveKeys)}
		for j := range w.moves {
			w.moves[j] = make([]M, 0, 512)
			w.scores[j] = make([]int32, 0, 256)
		}
		e.workers = append(e.workers, w)
	}
	return e.workers[i]
}

// Search looks for the best move in root. history holds the hashes of the
// game's earlier positions, oldest first, not including root, so that the
// search scores repetitions as draws. lim bounds the search
// (Limits.Budget makes one from a player's limits); a node limit lets
// depth 1 complete, so that the move is never worse than a one-ply
// search's. info, if not nil, is called after each
// completed depth. When ctx is cancelled the search stops and returns the
// best move found so far; the error is non-nil only when root has no move.
// A panic of any thread is Search's, in the caller's goroutine, after every
// thread has stopped (see PanicError).
func (e *Engine[P, M]) Search(ctx context.Context, root P, history []uint64, lim Budget, info func(Info)) (SearchResult[M], error) {
	res, moves, err := firstResult(root)
	if err != nil {
		return res, err
	}
	for _, m := range moves {
		if !slices.Contains(e.Exclude, m) {
			res.Move = m
			break
		}
	}
	start := time.Now()
	sh := &shared{ctx: ctx, maxNodes: lim.Nodes}
	if lim.Hard > 0 {
		sh.deadline = start.Add(lim.Hard)
	}
	maxDepth := lim.Depth
	if maxDepth <= 0 || maxDepth > maxPly-8 {
		maxDepth = maxPly - 8
	}
	e.tt.gen++
	e.prepare(sh, history)
	e.deepest.depth, e.deepest.line = 0, e.deepest.line[:0]
	sh.iter.Store(1)
	defer stopOnCancel(ctx, sh)()
	wg := e.startHelpers(root, maxDepth)
	defer func() {
		// A panic of the main thread leaves once the helpers, which use
		// the engine's workers and table, have stopped.
		if p := recover(); p != nil {
			sh.stop.Store(true)
			wg.Wait()
			e.workers = nil // a panic may leave a thread's state halfway
			panic(p)
		}
	}()
	best := e.deepen(root, len(moves), lim, maxDepth, start, &res, info)
	sh.stop.Store(true)
	wg.Wait()
	if f := sh.fault.Load(); f != nil {
		e.workers = nil
		panic(f)
	}
	for _, w := range e.workers[:e.threads] {
		w.flush()
	}
	best.Nodes = sh.nodes.Load()
	best.Time = time.Since(start)
	if best.BestMove == "" {
		best.BestMove = root.FormatMove(res.Move)
		best.PV = []string{best.BestMove}
	}
	res.Info = best
	return res, nil
}

// prepare readies the workers of the threads for a search sharing sh
// from a game of earlier positions history: each with its node count at
// zero, no killers and no best move yet, and its history aged so that old
// games do not dominate it.
func (e *Engine[P, M]) prepare(sh *shared, history []uint64) {
	for i := 0; i < e.threads; i++ {
		w := e.worker(i)
		w.sh = sh
		w.nodes = 0
		for j := range w.history {
			w.history[j] /= 8
		}
		w.killers = [maxPly][2]M{}
		w.path = append(w.path[:0], history...)
		w.hasBest = false
	}
}

// stopOnCancel turns a cancelled ctx into sh's stop flag, from a
// goroutine that the function it returns ends.
func stopOnCancel(ctx context.Context, sh *shared) (end func()) {
	done := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			sh.stop.Store(true)
		case <-done:
		}
	}()
	return func() { close(done) }
}

// startHelpers starts the Lazy SMP threads besides the main one: each
// deepens on its own up to maxDepth until the search stops, half of them
// a depth ahead of the main thread's iteration and the others at it,
// never at a depth already completed; they share what they find through
// the table, and the iterations they complete first through
// Engine.deepest.
func (e *Engine[P, M]) startHelpers(root P, maxDepth int) *sync.WaitGroup {
	var wg sync.WaitGroup
	for i := 1; i < e.threads; i++ {
		wg.Add(1)
		go func(w *worker[P, M]) {
			defer wg.Done()
			defer w.sh.catch()
			sh := w.sh
			for d := 0; !sh.stop.Load(); {
				d = max(d+1, int(sh.done.Load())+1, int(sh.iter.Load())+w.id%2)
				if d > maxDepth {
					break
				}
				w.iter, w.abandoned = d, false
				score := w.search(root, d, 0, -inf, inf)
				if !w.stopped() {
					w.publish(d, score)
				}
			}
		}(e.workers[i])
	}
	return &wg
}

// deepen is the main thread's iterative deepening from depth 1 to
// maxDepth: it keeps res.Move up to date, calls info after each completed
// depth, and returns the report of the last one, its move that of a
// deeper iteration stopped after it found a better one. A depth that a
// helper thread completed first is taken over as the main thread's own
// completed depth, and the main thread goes on from the next. It ends
// when the search is stopped or when another depth would not pay
// (deeperPays); moves is the number of root moves.
func (e *Engine[P, M]) deepen(root P, moves int, lim Budget, maxDepth int, start time.Time, res *SearchResult[M], info func(Info)) Info {
	w := e.workers[0]
	sh := w.sh
	var best Info
	for d := 1; d <= maxDepth; d++ {
		var score int
		if int(sh.done.Load()) < d {
			sh.iter.Store(int32(d))
			w.iter, w.abandoned = d, false
			score = w.search(root, d, 0, -inf, inf)
		}
		stopped := sh.stop.Load()
		if int(sh.done.Load()) >= d {
			// A helper completed this depth or a deeper one first (before
			// the main thread began it, or while it searched): its
			// iteration is the main thread's, complete, whether or not
			// the search has stopped since.
			d, score = w.takeOver()
			e.tookOver++
			res.Move = w.rootBest
			sh.depth1.Store(true)
			best = w.report(root, d, score, w.rootPV, start)
			if info != nil {
				info(best)
			}
			if stopped || !deeperPays(score, d, lim, moves, start) {
				break
			}
			continue
		}
		if w.hasBest {
			res.Move = w.rootBest
		}
		if stopped && d > 1 {
			// A partial iteration: keep its move (it beat the previous
			// best, searched in full), with its score and line there, at
			// the last complete depth. (It was reported with the last
			// depth's score, another move's, and no line past the move:
			// the analysis showed a line of one move, scored above its
			// alternatives or below them, whichever side they favoured.)
			if w.hasBest && best.BestMove != root.FormatMove(w.rootBest) {
				best.BestMove = root.FormatMove(w.rootBest)
				best.Score, best.Mate = w.rootScore, MateMoves(w.rootScore)
				best.PV = best.PV[:0:0]
				for _, m := range w.rootPV {
					best.PV = append(best.PV, root.FormatMove(m))
				}
				if len(best.PV) == 0 || best.PV[0] != best.BestMove {
					best.PV = []string{best.BestMove}
				}
			}
			break
		}
		sh.depth1.Store(true)
		w.publish(d, score)
		best = w.report(root, d, score, w.pv[0][:w.pvLen[0]], start)
		if info != nil {
			info(best)
		}
		if stopped || !deeperPays(score, d, lim, moves, start) {
			break
		}
	}
	return best
}

// report is the report of the completed iteration of depth d, which
// scored score with the principal variation line, whose first move is
// w.rootBest, the move chosen (the line may be empty): the line (at least
// the move), and the nodes of every thread so far.
func (w *worker[P, M]) report(root P, d, score int, line []M, start time.Time) Info {
	in := Info{Depth: d, Score: score, Mate: MateMoves(score), BestMove: root.FormatMove(w.rootBest)}
	for _, m := range line {
		in.PV = append(in.PV, root.FormatMove(m))
	}
	if len(in.PV) == 0 {
		in.PV = []string{in.BestMove}
	}
	w.flush()
	in.Nodes = w.sh.nodes.Load()
	in.Time = time.Since(start)
	return in
}

// deeperPays reports whether the iteration after depth d, which scored
// score, is worth starting: not when a forced result was found that
// deeper searches will not change (unless a depth was asked for), nor
// past the soft time limit, nor with a single legal move at the root when
// the time is limited.
func deeperPays(score, d int, lim Budget, moves int, start time.Time) bool {
	if m := MateMoves(score); m != 0 && d >= 2*abs(m)+2 && lim.Depth == 0 {
		return false
	}
	return !(lim.Soft > 0 && (moves == 1 || time.Since(start) > lim.Soft))
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func (w *worker[P, M]) flush() {
	if w.nodes != 0 {
		w.sh.nodes.Add(w.nodes)
		w.nodes = 0
	}
}

// tick counts a node and, every so often, checks the limits; a node
// limit below a few thousand is checked at every node.
func (w *worker[P, M]) tick() bool {
	w.nodes++
	if m := w.sh.maxNodes; m > 0 && m < 1<<16 && w.sh.depth1.Load() && w.sh.nodes.Load()+w.nodes >= m {
		w.sh.stop.Store(true)
	}
	if w.nodes&1023 == 0 {
		n := w.sh.nodes.Add(w.nodes)
		w.nodes = 0
		if w.sh.maxNodes > 0 && n >= w.sh.maxNodes && w.sh.depth1.Load() {
			w.sh.stop.Store(true)
		}
		if !w.sh.deadline.IsZero() && time.Now().After(w.sh.deadline) {
			w.sh.stop.Store(true)
		}
		if int(w.sh.done.Load()) >= w.iter {
			w.abandoned = true
		}
	}
	return w.stopped()
}

// stopped reports whether the worker's iteration must end: the search
// was stopped, or another thread completed the iteration first.
func (w *worker[P, M]) stopped() bool {
	return w.abandoned || w.sh.stop.Load()
}

// repeated reports whether the position with hash h, at the end of the
// path, occurred before with the same side to move.
func (w *worker[P, M]) repeated(h uint64) bool {
	n := len(w.path)
	for i := n - 2; i >= 0 && i >= n-100; i -= 2 {
		if w.path[i] == h {
			return true
		}
	}
	return false
}

// search is negamax with principal variation search. It returns the score
// of p for its side to move, exact inside (alpha, beta). The steps that
// can end a node early come first, cheapest first, so that a node pays for
// move generation, ordering and subtrees only when nothing cheaper
// settles it.
func (w *worker[P, M]) search(p P, depth, ply, alpha, beta int) int {
	kit := w.e.kit
	w.pvLen[ply] = 0
	if r, ok := kit.Decided(p); ok {
		return resultScore(r, p.Side(), ply)
	}
	h := p.Hash()
	if ply > 0 && w.repeated(h) {
		if ply%2 == 0 {
			return -w.e.Contempt
		}
		return w.e.Contempt
	}
	if depth <= 0 || ply >= maxPly-2 {
		return w.quiesce(p, ply, 0)
	}
	if w.tick() {
		return 0
	}
	pvNode := beta-alpha > 1
	// Mate distance pruning.
	if ply > 0 {
		alpha = max(alpha, -(Mate - ply))
		beta = min(beta, Mate-ply-1)
		if alpha >= beta {
			return alpha
		}
	}
	hashKey, score, cut := w.probeTT(h, depth, ply, alpha, beta, pvNode)
	if cut {
		return score
	}
	moves := p.AppendMoves(w.moves[ply][:0])
	w.moves[ply] = moves
	if len(moves) == 0 {
		r, _ := p.Outcome()
		return resultScore(r, p.Side(), ply)
	}
	if kit.WinCandidates != nil && w.winFirst(p, moves, ply) {
		return Mate - ply - 1
	}
	// Null move: never at the root or on the principal variation, and
	// never twice within two plies.
	if kit.Pass != nil && !pvNode && ply > 0 && depth >= 3 && !w.nullAt(ply) {
		if score, cut := w.nullMove(p, h, depth, ply, beta); cut {
			return score
		}
	}
	w.path = append(w.path, h)
	best, bestIdx, stopped := w.searchMoves(p, moves, hashKey, depth, ply, alpha, beta, pvNode)
	w.path = w.path[:len(w.path)-1]
	if stopped {
		return 0
	}
	w.storeTT(h, moves[bestIdx], best, depth, ply, alpha, beta)
	return best
}

// probeTT looks the node up in the transposition table. It returns the
// key of the stored move (0 for none), which the ordering tries first
// wherever the entry came from, and whether the entry settles the node on
// its own (cut) and with what score. Only a zero-window node off the root
// takes such a cutoff, from an entry searched at least as deep: on the
// principal variation it would cut the reported line short, and at the
// root no move would be chosen.
func (w *worker[P, M]) probeTT(h uint64, depth, ply, alpha, beta int, pvNode bool) (hashKey uint16, score int, cut bool) {
	e, ok := w.e.tt.probe(h)
	if !ok {
		return 0, 0, false
	}
	if ply > 0 && !pvNode && int(e.depth) >= depth {
		s := scoreFromTT(int(e.score), ply)
		switch {
		case e.bound == boundExact,
			e.bound == boundLower && s >= beta,
			e.bound == boundUpper && s <= alpha:
			return e.move, s, true
		}
	}
	return e.move, 0, false
}

// winFirst reports whether one of the moves that Kit.WinCandidates lists
// wins at once, and makes it the node's line (and at the root the move).
// A win at once is the best score a node can have. Where the game lists
// the few moves that may win (Tumbling Down: those that reach an enemy
// King), trying them first costs little, and it ends the node before any
// subtree is searched, where the move ordering might have reached the
// winning move only after many others.
func (w *worker[P, M]) winFirst(p P, moves []M, ply int) bool {
	w.cands = w.e.kit.WinCandidates(p, moves, w.cands[:0])
	m, ok := w.winAtOnce(p, w.cands, ply)
	if ok && ply == 0 {
		w.rootBest, w.hasBest, w.rootScore = m, true, Mate-1
		w.rootPV = append(w.rootPV[:0], m)
	}
	return ok
}

// nullMove is null-move pruning: where the side to move looks well
// placed, let the opponent move twice; if a search three plies shallower
// still fails high, the real moves (almost always better than passing)
// would too. It reports whether the node is cut, and its score: the
// shallow search's, never a mate score (a line through a pass proves no
// forced win), or 0 when the search was stopped.
func (w *worker[P, M]) nullMove(p P, h uint64, depth, ply, beta int) (score int, cut bool) {
	kit := w.e.kit
	if kit.Eval(p) < beta {
		return 0, false
	}
	child := kit.Pass(p)
	if _, ok := kit.Decided(child); ok {
		return 0, false
	}
	w.path = append(w.path, h)
	w.null[ply] = true
	score = -w.search(child, depth-3, ply+1, -beta, -beta+1)
	w.null[ply] = false
	w.path = w.path[:len(w.path)-1]
	if w.stopped() {
		return 0, true
	}
	if score >= beta && score < Mate-maxPly {
		return score, true
	}
	return 0, false
}

// searchMoves searches the moves of p, ordered around the table's move
// hashKey, and returns the best score and the index of its move, or
// stopped when the search was stopped under it (the scores are then
// worthless). Principal variation search: the first move, usually the
// best, gets the full window; the others only a zero window around alpha
// (late quiet ones also fewer plies: late move reductions), which costs
// much less when they fail low, as they mostly do; one that beats alpha
// is searched again at full depth, then with the full window. The caller
// has put p's hash on the path.
func (w *worker[P, M]) searchMoves(p P, moves []M, hashKey uint16, depth, ply, alpha, beta int, pvNode bool) (best, bestIdx int, stopped bool) {
	scores := w.order(p, moves, ply, hashKey)
	side := int(p.Side())
	best, bestIdx = -inf, -1
	for i := range moves {
		// Selection picks the best few moves, which usually settle a cut
		// node; past them a node tends to need every move, and one sort
		// costs less than a selection step per move (quadratic in a
		// position with over a hundred moves).
		switch {
		case i < pickFirst:
			pick(moves, scores, i)
		case i == pickFirst:
			sortByScore(moves[i:], scores[i:], &w.sorted)
		}
		m := moves[i]
		if ply == 0 && len(w.e.Exclude) > 0 && slices.Contains(w.e.Exclude, m) {
			continue
		}
		child := p.Play(m)
		var score int
		if i == 0 || best == -inf {
			score = -w.search(child, depth-1, ply+1, -beta, -alpha)
		} else {
			r := w.reduction(depth, i, scores[i], pvNode)
			score = -w.search(child, depth-1-r, ply+1, -alpha-1, -alpha)
			if score > alpha && r > 0 {
				score = -w.search(child, depth-1, ply+1, -alpha-1, -alpha)
			}
			if score > alpha && score < beta {
				score = -w.search(child, depth-1, ply+1, -beta, -alpha)
			}
		}
		if w.stopped() {
			return 0, 0, true
		}
		if score <= best {
			continue
		}
		best, bestIdx = score, i
		if score <= alpha {
			continue
		}
		alpha = score
		w.setPV(ply, m)
		if ply == 0 {
			w.rootBest, w.hasBest, w.rootScore = m, true, score
			w.rootPV = append(w.rootPV[:0], w.pv[0][:w.pvLen[0]]...)
		}
		if alpha >= beta {
			if scores[i] < killerScore {
				w.rememberCut(m, side, depth, ply)
			}
			break
		}
	}
	return best, bestIdx, false
}

// reduction is how many plies the zero-window search of the i-th move
// (from 0) takes off, its ordering score being score: none for the first
// three, the hash move and the killers, which are the likeliest to be
// best, nor near the leaves. Kit.DeepReductions games take more off the
// later moves of a deep search, but one ply less on the principal
// variation, whose moves matter most.
func (w *worker[P, M]) reduction(depth, i int, score int32, pvNode bool) int {
	if w.e.NoReductions || depth < 3 || i < 3 || score >= killerScore {
		return 0
	}
	if w.e.kit.DeepReductions {
		r := int(lmrTable[min(depth, 63)][min(i, 255)])
		if pvNode && r > 0 {
			r--
		}
		return max(1, min(r, depth-2))
	}
	if i >= 8 && depth >= 5 {
		return 2
	}
	return 1
}

// setPV makes m, followed by the line found below it, the line at ply.
func (w *worker[P, M]) setPV(ply int, m M) {
	w.pv[ply][0] = m
	copy(w.pv[ply][1:], w.pv[ply+1][:w.pvLen[ply+1]])
	w.pvLen[ply] = w.pvLen[ply+1] + 1
}

// storeTT keeps the node's result for its next visits and the next
// iterations. score is exact only inside the window (alpha, beta) the
// node was searched with (alpha as it was before the moves); outside it,
// it is only a bound. The best move is kept even then: it goes first in
// the ordering next time.
func (w *worker[P, M]) storeTT(h uint64, best M, score, depth, ply, alpha, beta int) {
	bound := uint8(boundExact)
	switch {
	case score >= beta:
		bound = boundLower
	case score <= alpha:
		bound = boundUpper
	}
	w.e.tt.store(h, ttEntry{move: w.e.kit.MoveKey(best) + 1, score: int16(scoreToTT(score, ply)), depth: int8(depth), bound: bound})
}

// quiesce scores a leaf: a win when the side to move can win at once (the
// games' threats: a magnet line in Magneton, a King capture in Tumbling
// Down), a loss when it has no move, else the static evaluation. When the
// opponent threatens to win at once (Kit.Threatened), the first leaf
// (qd 0) looks at every move to see whether one parries the threat: the
// threat extension.
func (w *worker[P, M]) quiesce(p P, ply, qd int) int {
	w.tick()
	kit := w.e.kit
	if w.e.NoQuiescence {
		// Outcome tells a position without a legal move (the game's
		// interface promises it) without generating the moves.
		if r, _ := p.Outcome(); r.Over() {
			return resultScore(r, p.Side(), ply)
		}
		return kit.Eval(p)
	}
	w.pvLen[ply] = 0
	moves, score, done := w.leafWin(p, ply)
	if done {
		return score
	}
	us := p.Side()
	if kit.EvalThreatened != nil {
		if score, threatened := kit.EvalThreatened(p); qd > 0 || !threatened || ply >= maxPly-2 {
			return score
		}
	} else if qd > 0 || kit.Threatened == nil || ply >= maxPly-2 || !kit.Threatened(p) {
		return kit.Eval(p)
	}
	if moves == nil {
		moves = p.AppendMoves(w.moves[ply][:0])
		w.moves[ply] = moves
	}
	best := -inf
	for i := 0; i < len(moves); i++ {
		m := w.moves[ply][i]
		child := p.Play(m)
		var score int
		if r, ok := kit.Decided(child); ok {
			score = resultScore(r, us, ply+1)
		} else {
			score = -w.quiesce(child, ply+1, qd+1)
		}
		if score > best {
			best = score
			w.setPV(ply, m)
		}
	}
	return best
}

// leafWin settles a leaf that is over (no legal move) or that the side
// to move wins at once, whose winning move it makes the line at ply: it
// returns done and the leaf's score. Otherwise it returns the leaf's
// moves if it listed them (nil if not). The moves are listed only when a
// test plays them: a game with a WinMove or MayWin test and no
// WinCandidates needs them only for the threat extension, and Outcome
// tells a position without a move for less than listing them (in
// Magneton a tenth of a leaf). With WinMove the win is looked for first:
// a position with a winning move has a move, so Outcome is asked only of
// the others.
func (w *worker[P, M]) leafWin(p P, ply int) (moves []M, score int, done bool) {
	kit := w.e.kit
	if kit.WinMove != nil {
		if m, ok := kit.WinMove(p); ok {
			w.pv[ply][0] = m
			w.pvLen[ply] = 1
			return nil, Mate - ply - 1, true
		}
		if r, _ := p.Outcome(); r.Over() {
			return nil, resultScore(r, p.Side(), ply), true
		}
		return nil, 0, false
	}
	if kit.MayWin == nil || kit.WinCandidates != nil {
		moves = p.AppendMoves(w.moves[ply][:0])
		w.moves[ply] = moves
		if len(moves) == 0 {
			r, _ := p.Outcome()
			return moves, resultScore(r, p.Side(), ply), true
		}
	} else if r, _ := p.Outcome(); r.Over() {
		return nil, resultScore(r, p.Side(), ply), true
	}
	if kit.MayWin == nil || kit.MayWin(p) {
		if moves == nil {
			moves = p.AppendMoves(w.moves[ply][:0])
			w.moves[ply] = moves
		}
		cands := moves
		if kit.WinCandidates != nil {
			w.cands = kit.WinCandidates(p, moves, w.cands[:0])
			cands = w.cands
		}
		if _, ok := w.winAtOnce(p, cands, ply); ok {
			return moves, Mate - ply - 1, true
		}
	}
	return moves, 0, false
}

// winAtOnce plays the moves of cands from p and returns the first that
// wins at once for the side to move, which it makes the principal
// variation at ply.
func (w *worker[P, M]) winAtOnce(p P, cands []M, ply int) (M, bool) {
	for _, m := range cands {
		if r, ok := w.e.kit.Decided(p.Play(m)); ok {
			if wnr, ok := r.Winner(); ok && wnr == p.Side() {
				w.pv[ply][0] = m
				w.pvLen[ply] = 1
				return m, true
			}
		}
	}
	var none M
	return none, false
}

// lmrTable[depth][i] is how many plies Kit.DeepReductions takes off the
// search of the i-th move (from 0) at a depth: ln(depth)·ln(i)/2, rounded.
var lmrTable [64][256]int8

func init() {
	for d := 1; d < 64; d++ {
		for i := 1; i < 256; i++ {
			lmrTable[d][i] = int8(0.5 + math.Log(float64(d))*math.Log(float64(i))/2.0)
		}
	}
}

// nullAt reports whether the move into ply, or the one before it, was a
// null move.
func (w *worker[P, M]) nullAt(ply int) bool {
	return w.null[ply-1] || (ply >= 2 && w.null[ply-2])
}
