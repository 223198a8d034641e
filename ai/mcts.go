package ai

import (
	"context"
	"math"
	"math/rand/v2"
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
	for i := 0; i < s.threads; i++ {
		t := s.trees[i]
		t.reuse(root)
		wg.Add(1)
		go func(main bool) {
			defer wg.Done()
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

// report sums the root statistics of the trees, which no thread may be
// changing.
func (s *MCTS[P, M]) report(trees []*mtree[P, M], root P, start time.Time, iters int64) Info {
	type stat struct {
		visits, reward float64
		proven         int8
	}
	stats := map[M]*stat{}
	var order []M
	depth := 0
	for _, t := range trees {
		depth = max(depth, t.maxDepth)
		for _, c := range t.root.children {
			st := stats[c.move]
			if st == nil {
				st = &stat{}
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
	var best M
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
	in := Info{Depth: depth, Nodes: iters, Time: time.Since(start)}
	if len(order) == 0 {
		moves := root.AppendMoves(nil)
		best = moves[0]
	}
	in.BestMove = root.FormatMove(best)
	st := stats[best]
	switch {
	case st != nil && st.proven == 1:
		in.Score = Mate - 1
	case st != nil && st.proven == -1:
		in.Score = -(Mate - 2)
	case st != nil && st.visits > 0:
		q := math.Min(math.Max(st.reward/st.visits, 0.001), 0.999)
		in.Score = int(-evalScale * math.Log(1/q-1))
	}
	if st != nil && st.proven != 0 {
		// The tree does not keep the distance; report a win or loss.
		in.Mate = MateMoves(in.Score)
	}
	// The principal variation of the first tree.
	in.PV = []string{in.BestMove}
	t := s.trees[0]
	p := root
	n := t.root
	for _, c := range n.children {
		if c.move == best {
			p = p.Play(best)
			n = c
			for len(in.PV) < 12 && len(n.children) > 0 {
				b := n.children[0]
				for _, c := range n.children {
					if c.visits > b.visits {
						b = c
					}
				}
				in.PV = append(in.PV, p.FormatMove(b.move))
				p = p.Play(b.move)
				n = b
			}
			break
		}
	}
	return in
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
	kit := s.kit
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
			if r, ok := kit.Decided(p); ok {
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
	t.maxDepth = max(t.maxDepth, depth)
	// Simulation: the reward for the side that moved into n.
	var reward float64
	switch {
	case n.proven == 1:
		reward = 1
	case n.proven == -1:
		reward = 0
	case n.draw:
		reward = 0.5
	case s.Playouts:
		r, _ := game.Playout(p, t.rng, 300, t.buf)
		reward = 0.5
		if w, ok := r.Winner(); ok {
			reward = 0
			if w != p.Side() {
				reward = 1
			}
		}
	default:
		reward = 1 / (1 + math.Exp(float64(kit.Eval(p))/evalScale))
	}
	// Backup with the solver.
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
