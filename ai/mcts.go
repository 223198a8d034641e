package ai

import (
	"context"
	"math"
	"math/rand/v2"
	"runtime/debug"
	"sync"
	"time"

	"github.com/magneton-games/magneton/game"
)

// MCTS is a Monte Carlo tree search for one game: UCT with the MCTS-solver
// (proven wins and losses propagate up the tree), leaves scored by a
// random playout or by the evaluation, and tree reuse between moves: the
// subtree of the position reached is kept for the next search. With
// several threads each runs its own tree from the root and their visit
// counts are added (root parallelisation). An MCTS is used by one
// goroutine at a time.
type MCTS[P game.Position[P, M], M comparable] struct {
	kit *Kit[P, M]
	// Playouts scores leaves by a random playout instead of the evaluation.
	Playouts bool
	// C is the exploration constant of UCT; rewards are in [0, 1].
	C float64
	// MaxNodes bounds the tree of each thread.
	MaxNodes int
	trees    []*mtree[P, M]
	threads  int
	seed     uint64
}

type mnode[M comparable] struct {
	move     M
	parent   *mnode[M]
	children []*mnode[M]
	untried  []M
	ready    bool    // untried holds the moves not yet expanded
	visits   float64 // playouts through the node
	reward   float64 // their total reward for the side that moved into the node
	proven   int8    // +1: the side that moved into the node wins; -1: it loses; 0: unknown
	draw     bool    // a terminal draw
	hash     uint64
}

type mtree[P game.Position[P, M], M comparable] struct {
	root     *mnode[M]
	rootPos  P
	nodes    int
	rng      *rand.Rand
	buf      []M
	maxDepth int
}

// NewMCTS makes an MCTS searcher with the evaluation at the leaves.
func NewMCTS[P game.Position[P, M], M comparable](kit *Kit[P, M], threads int, seed uint64) *MCTS[P, M] {
	return &MCTS[P, M]{kit: kit, C: 0.6, MaxNodes: 1 << 20, threads: max(threads, 1), seed: seed}
}

// NewGame drops the trees.
func (s *MCTS[P, M]) NewGame() { s.trees = nil }

// evalScale turns an evaluation into a win probability: 1/(1+e^(-x/scale)).
const evalScale = 200.0

// Search runs MCTS from root within lim; Depth is ignored, Nodes counts
// iterations. info, if not nil, is called about every 250 ms and at the
// end. The result's move is the most visited root move, or a proven win.
// A panic of any thread is Search's, as a *PanicError in the caller's
// goroutine, once every thread has stopped.
func (s *MCTS[P, M]) Search(ctx context.Context, root P, lim Budget, info func(Info)) (SearchResult[M], error) {
	res, moves, err := firstResult(root)
	if err != nil {
		return res, err
	}
	start := time.Now()
	for len(s.trees) < s.threads {
		s.trees = append(s.trees, &mtree[P, M]{rng: rand.New(rand.NewPCG(s.seed, uint64(len(s.trees)))), buf: make([]M, 0, 256)})
	}
	var mu sync.Mutex
	var total int64
	stopAt := time.Time{}
	if lim.Hard > 0 {
		stopAt = start.Add(lim.Hard)
	}
	var wg sync.WaitGroup
	var stop bool
	var fault *PanicError // the first thread's panic (see PanicError)
	for i := 0; i < s.threads; i++ {
		t := s.trees[i]
		t.reuse(root)
		wg.Add(1)
		go func(main bool) {
			defer wg.Done()
			defer func() {
				if p := recover(); p != nil {
					mu.Lock()
					if fault == nil {
						fault = &PanicError{Value: p, Stack: debug.Stack()}
					}
					stop = true
					mu.Unlock()
				}
			}()
			lastInfo := time.Now()
			for it := 0; ; it++ {
				if it&63 == 0 {
					mu.Lock()
					total += 64
					n := total
					done := stop
					mu.Unlock()
					if done || ctx.Err() != nil || (!stopAt.IsZero() && time.Now().After(stopAt)) ||
						(lim.Nodes > 0 && n >= lim.Nodes) || t.root.proven != 0 {
						mu.Lock()
						stop = true
						mu.Unlock()
						return
					}
					if main && info != nil && time.Since(lastInfo) > 250*time.Millisecond {
						lastInfo = time.Now()
						mu.Lock()
						n := total
						mu.Unlock()
						in := s.report(s.trees[:1], root, start, n)
						info(in)
					}
				}
				s.iterate(t)
			}
		}(i == 0)
	}
	wg.Wait()
	if fault != nil {
		s.trees = nil // a panic may leave a tree halfway through an iteration
		panic(fault)
	}
	in := s.report(s.trees[:s.threads], root, start, total)
	if info != nil {
		info(in)
	}
	for _, m := range moves {
		if root.FormatMove(m) == in.BestMove {
			res.Move = m
		}
	}
	res.Info = in
	return res, nil
}

// rootStat is what the trees know of one root move.
type rootStat struct {
	visits, reward float64
	proven         int8
}

// report sums the root statistics of the trees, which no thread may be
// changing: the move is the most visited (a proven win before any, a
// proven loss after all), the line the first tree's most visited.
func (s *MCTS[P, M]) report(trees []*mtree[P, M], root P, start time.Time, iters int64) Info {
	stats, order, depth := rootStats(trees)
	in := Info{Depth: depth, Nodes: iters, Time: time.Since(start)}
	best, ok := mostVisited(stats, order)
	if !ok {
		moves := root.AppendMoves(nil)
		best = moves[0]
	}
	in.BestMove = root.FormatMove(best)
	in.Score, in.Mate = statScore(stats[best])
	in.PV = s.line(root, best, in.BestMove)
	return in
}

// rootStats adds up the statistics of each root move over the trees, in
// the order the moves were first expanded, and the deepest the trees went.
func rootStats[P game.Position[P, M], M comparable](trees []*mtree[P, M]) (stats map[M]*rootStat, order []M, depth int) {
	stats = map[M]*rootStat{}
	for _, t := range trees {
		depth = max(depth, t.maxDepth)
		for _, c := range t.root.children {
			st := stats[c.move]
			if st == nil {
				st = &rootStat{}
				stats[c.move] = st
				order = append(order, c.move)
			}
			st.visits += c.visits
			st.reward += c.reward
			if c.proven != 0 {
				st.proven = c.proven
			}
		}
	}
	return stats, order, depth
}

// mostVisited is the root move to play: a proven win first, then the most
// visited, a proven loss last; false when no move was expanded.
func mostVisited[M comparable](stats map[M]*rootStat, order []M) (best M, ok bool) {
	bestKey := math.Inf(-1)
	for _, m := range order {
		st := stats[m]
		key := st.visits
		switch st.proven {
		case 1:
			key = math.Inf(1)
		case -1:
			key = -1e18 + st.visits
		}
		if key > bestKey {
			best, bestKey = m, key
		}
	}
	return best, len(order) > 0
}

// statScore is the score of a root move's statistics (nil: none) on the
// evaluation's scale, and its Mate: a proven result is a win or a loss
// of unknown distance (the tree does not keep it), reported as the
// nearest.
func statScore(st *rootStat) (score, mate int) {
	switch {
	case st != nil && st.proven == 1:
		score = Mate - 1
	case st != nil && st.proven == -1:
		score = -(Mate - 2)
	case st != nil && st.visits > 0:
		q := math.Min(math.Max(st.reward/st.visits, 0.001), 0.999)
		score = int(-evalScale * math.Log(1/q-1))
	}
	if st != nil && st.proven != 0 {
		mate = MateMoves(score)
	}
	return score, mate
}

// line is the principal variation of the first tree from root after the
// move best (written bestText): the most visited child at each node, at
// most 12 moves in all.
func (s *MCTS[P, M]) line(root P, best M, bestText string) []string {
	pv := []string{bestText}
	t := s.trees[0]
	p := root
	n := t.root
	for _, c := range n.children {
		if c.move == best {
			p = p.Play(best)
			n = c
			for len(pv) < 12 && len(n.children) > 0 {
				b := n.children[0]
				for _, c := range n.children {
					if c.visits > b.visits {
						b = c
					}
				}
				pv = append(pv, p.FormatMove(b.move))
				p = p.Play(b.move)
				n = b
			}
			break
		}
	}
	return pv
}

// reuse moves the tree's root to root: a descendant of the old root within
// two plies keeps its subtree, anything else starts a new tree.
func (t *mtree[P, M]) reuse(root P) {
	h := root.Hash()
	if t.root != nil {
		if t.root.hash == h {
			t.rootPos = root
			return
		}
		for _, c := range t.root.children {
			if c.hash == h {
				t.setRoot(c, root)
				return
			}
			for _, g := range c.children {
				if g.hash == h {
					t.setRoot(g, root)
					return
				}
			}
		}
	}
	t.root = &mnode[M]{hash: h}
	t.rootPos = root
	t.nodes = 1
	t.maxDepth = 0
}

func (t *mtree[P, M]) setRoot(n *mnode[M], root P) {
	n.parent = nil
	t.root = n
	t.rootPos = root
	t.nodes = countNodes(n)
	t.maxDepth = 0
}

func countNodes[M comparable](n *mnode[M]) int {
	c := 1
	for _, ch := range n.children {
		c += countNodes(ch)
	}
	return c
}

// iterate runs one selection, expansion, simulation and backup.
func (s *MCTS[P, M]) iterate(t *mtree[P, M]) {
	n, p, depth := s.descend(t)
	t.maxDepth = max(t.maxDepth, depth)
	s.backup(n, s.simulate(t, n, p))
}

// descend is the selection and the expansion: from the root it follows
// the best child by UCT (selectChild) until a node with a move not yet
// expanded, whose child it adds (while the tree has room), or a finished
// position. It returns that node, its position and its depth.
func (s *MCTS[P, M]) descend(t *mtree[P, M]) (*mnode[M], P, int) {
	n := t.root
	p := t.rootPos
	depth := 0
	for {
		if n.proven != 0 || n.draw {
			break
		}
		if !n.ready {
			n.untried = p.AppendMoves(nil)
			n.ready = true
			if len(n.untried) == 0 {
				r, _ := p.Outcome()
				s.setTerminal(n, r, p.Side())
				break
			}
			t.rng.Shuffle(len(n.untried), func(i, j int) { n.untried[i], n.untried[j] = n.untried[j], n.untried[i] })
		}
		if len(n.untried) > 0 && t.nodes < s.MaxNodes {
			m := n.untried[len(n.untried)-1]
			n.untried = n.untried[:len(n.untried)-1]
			if len(n.untried) == 0 {
				n.untried = nil
			}
			c := &mnode[M]{move: m, parent: n}
			mover := p.Side()
			p = p.Play(m)
			c.hash = p.Hash()
			n.children = append(n.children, c)
			t.nodes++
			n = c
			depth++
			if r, ok := s.kit.Decided(p); ok {
				c.ready = true
				s.setTerminal(c, r, mover.Other())
			}
			break
		}
		if len(n.children) == 0 {
			break
		}
		n = s.selectChild(n)
		p = p.Play(n.move)
		depth++
	}
	return n, p, depth
}

// simulate is the reward of the leaf n, at position p, for the side that
// moved into it: its proven result, or a random playout's, or the
// evaluation's turned into a win probability.
func (s *MCTS[P, M]) simulate(t *mtree[P, M], n *mnode[M], p P) float64 {
	switch {
	case n.proven == 1:
		return 1
	case n.proven == -1:
		return 0
	case n.draw:
		return 0.5
	case s.Playouts:
		r, _ := game.Playout(p, t.rng, 300, t.buf)
		reward := 0.5
		if w, ok := r.Winner(); ok {
			reward = 0
			if w != p.Side() {
				reward = 1
			}
		}
		return reward
	}
	return 1 / (1 + math.Exp(float64(s.kit.Eval(p))/evalScale))
}

// backup adds the reward, for the side that moved into n, to n and its
// ancestors (each for the other side), and with the MCTS-solver proves
// each parent whose result its children now settle: lost for the side
// that moved into it when one child is won for its mover, won when every
// child (every move expanded) is lost for its mover.
func (s *MCTS[P, M]) backup(n *mnode[M], reward float64) {
	for c := n; c != nil; c = c.parent {
		c.visits++
		c.reward += reward
		reward = 1 - reward
		par := c.parent
		if par == nil || par.proven != 0 {
			continue
		}
		switch c.proven {
		case 1: // par's side to move wins by playing c
			par.proven = -1
		case -1: // par is won for the side that moved into it if every move loses
			if par.ready && len(par.untried) == 0 {
				all := true
				for _, sib := range par.children {
					if sib.proven != -1 {
						all = false
						break
					}
				}
				if all {
					par.proven = 1
				}
			}
		}
	}
}

// setTerminal marks a finished position; side is the side to move in it.
func (s *MCTS[P, M]) setTerminal(n *mnode[M], r game.Result, side game.Side) {
	w, ok := r.Winner()
	switch {
	case !ok:
		n.draw = true
	case w == side:
		n.proven = -1 // the side that moved into n lost
	default:
		n.proven = 1
	}
}

// selectChild picks the child with the best UCT value, never a proven loss
// for the mover when another child is left.
func (s *MCTS[P, M]) selectChild(n *mnode[M]) *mnode[M] {
	var best *mnode[M]
	bestV := math.Inf(-1)
	logN := math.Log(n.visits + 1)
	for _, c := range n.children {
		var v float64
		switch c.proven {
		case 1:
			return c
		case -1:
			v = -1e9 + c.visits
		default:
			v = c.reward/c.visits + s.C*math.Sqrt(logN/c.visits)
		}
		if v > bestV {
			best, bestV = c, v
		}
	}
	return best
}
