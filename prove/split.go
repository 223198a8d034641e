package prove

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/game"
)

// SplitProbe is the first look Split gives each of the root's moves: this
// many expansions, after which the moves the probe did not settle are
// searched to the end, the most promising first.
const SplitProbe = 20_000

// rootMove is one of the root's moves in a split search: the position
// after it and what the searches learnt of it.
type rootMove[P game.Position[P, M], M comparable] struct {
	move       M
	pos        P
	value      Value  // for the attacker: Proven, Disproven or Unknown
	plies      int    // the proof's length below the move, when Proven
	pn, dn     uint32 // the attacker's numbers at the last look
	nodes      int64  // this move's expansions so far
	cert       *Certificate
	over       bool // the move ends the game
	certErr    error
	searchedBy int // the worker whose table holds it (-1: none yet)
}

// splitter is a split search's shared state.
type splitter[P game.Position[P, M], M comparable] struct {
	kit      *ai.Kit[P, M]
	rules    game.Rules
	opts     Options
	attacker game.Side
	or       bool // the attacker moves at the root: one proven move suffices
	mu       sync.Mutex
	moves    []*rootMove[P, M]
	spent    atomic.Int64 // expansions of the finished looks
	live     []atomic.Int64
	cancel   context.CancelFunc
	// outer is the caller's context, for writing certificates: the
	// search's own ends when the root is settled, which must not cut short
	// the certificate of a move proven at the same moment.
	outer context.Context
}

// Split answers the question Solve asks first (does the side to move win,
// or the other side with opts.OpponentFirst), but searches the root's
// moves apart, on workers goroutines that share nothing: each has its own
// solver and table of opts.HashMiB MiB (so a split search takes workers
// times the memory), which keeps what it learnt from one move to the
// next it takes. Every move first gets SplitProbe expansions; those not
// settled then are searched to the end one after another, the lowest
// proof number first when one proven move proves the root (the attacker
// to move), the lowest disproof number first when one disproven move
// disproves it. It stops as soon as the root is settled, or at ctx's end
// or opts.MaxNodes (counted over all workers, so it may overshoot by up
// to a probe a worker). Only one question is asked: a root that is not
// the attacker's win is reported Disproven for it and Unknown for the
// other side, and opts.Table is not used. A proof's certificate is the
// moves' certificates joined under the root.
func (so solverOf[P, M]) Split(ctx context.Context, s game.State, opts Options, workers int) (*Report, error) {
	if workers < 1 {
		return nil, fmt.Errorf("split: %d workers: want at least 1", workers)
	}
	rules := s.Rules()
	p, kit, err := so.root("split", s)
	if err != nil {
		return nil, err
	}
	sp := &splitter[P, M]{kit: kit, rules: rules, opts: opts, attacker: p.Side()}
	if opts.OpponentFirst {
		sp.attacker = sp.attacker.Other()
	}
	sp.or = p.Side() == sp.attacker
	for _, m := range p.AppendMoves(nil) {
		sp.moves = append(sp.moves, &rootMove[P, M]{move: m, pos: p.Play(m), searchedBy: -1})
	}
	sp.live = make([]atomic.Int64, workers)
	start := time.Now()
	sp.outer = ctx
	ctx, sp.cancel = context.WithCancel(ctx)
	defer sp.cancel()
	stopProgress := sp.report(ctx, start)
	solvers := make([]*Solver[P, M], workers)
	for i := range solvers {
		solvers[i] = New(kit, max(opts.HashMiB, 1))
	}
	sp.pass(ctx, solvers, SplitProbe)
	if sp.root() == Unknown && ctx.Err() == nil {
		sp.order()
		sp.pass(ctx, solvers, 0)
	}
	stopProgress()
	rep := sp.result(p, start)
	rep.TableMiB = float64(workers) * solvers[0].tt.MiB()
	return rep, nil
}

// pass searches every unsettled move once, each with budget expansions
// (0: to the end), on one goroutine a solver, and stops when the root is
// settled.
func (sp *splitter[P, M]) pass(ctx context.Context, solvers []*Solver[P, M], budget int64) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for w, sv := range solvers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= len(sp.moves) {
					return
				}
				sp.look(ctx, w, sv, sp.moves[i], budget)
			}
		}()
	}
	wg.Wait()
}

// look searches one move on worker w's solver.
func (sp *splitter[P, M]) look(ctx context.Context, w int, sv *Solver[P, M], rm *rootMove[P, M], budget int64) {
	sp.mu.Lock()
	known := rm.value != Unknown
	sp.mu.Unlock()
	if known {
		return
	}
	if r, _ := rm.pos.Outcome(); r.Over() {
		sp.mu.Lock()
		rm.over, rm.value = true, Disproven
		if winner, ok := r.Winner(); ok && winner == sp.attacker {
			rm.value = Proven
		}
		sp.mu.Unlock()
		sp.settled()
		return
	}
	limit := budget
	if sp.opts.MaxNodes > 0 {
		left := sp.opts.MaxNodes - sp.spent.Load()
		if left <= 0 {
			sp.cancel()
			return
		}
		if limit == 0 || left < limit {
			limit = left
		}
	}
	before := sv.Nodes()
	sv.MaxNodes = limit
	sv.Interval = 200 * time.Millisecond
	sv.Progress = func(pr Progress) { sp.live[w].Store(pr.Nodes - before) }
	v, plies := sv.Prove(ctx, rm.pos, sp.attacker)
	pr := sv.progress()
	sp.mu.Lock()
	rm.value, rm.plies, rm.pn, rm.dn = v, plies, pr.PN, pr.DN
	rm.nodes += sv.Nodes() - before
	rm.searchedBy = w
	sp.mu.Unlock()
	sp.spent.Add(sv.Nodes() - before)
	sp.live[w].Store(0)
	if v == Proven && sp.opts.Certificate {
		// Now, while this worker's table still holds the proof.
		rm.cert, rm.certErr = sv.Certificate(sp.outer, rm.pos, sp.attacker, sp.rules)
	}
	if v != Unknown {
		sp.settled()
	}
}

// settled stops the workers once a move has settled the root.
func (sp *splitter[P, M]) settled() {
	if sp.root() != Unknown {
		sp.cancel()
	}
}

// root is the root's value for the attacker from its moves' so far.
func (sp *splitter[P, M]) root() Value {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	// At an OR root (the attacker to move) one proven move proves it and
	// every move disproven disproves it; at an AND root the reverse.
	one, all := Proven, Disproven
	if !sp.or {
		one, all = Disproven, Proven
	}
	every := true
	for _, rm := range sp.moves {
		if rm.value == one {
			return one
		}
		every = every && rm.value == all
	}
	if every {
		return all
	}
	return Unknown
}

// order puts the unsettled moves most likely to settle the root first.
func (sp *splitter[P, M]) order() {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	slices.SortStableFunc(sp.moves, func(a, b *rootMove[P, M]) int {
		if sp.or {
			return cmp.Compare(a.pn, b.pn)
		}
		return cmp.Compare(a.dn, b.dn)
	})
}

// report calls opts.Progress every opts.Interval with the nodes of all
// workers and the root's numbers from its moves' last looks, until the
// function it returns is called.
func (sp *splitter[P, M]) report(ctx context.Context, start time.Time) (stop func()) {
	if sp.opts.Progress == nil {
		return func() {}
	}
	every := sp.opts.Interval
	if every <= 0 {
		every = time.Second
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				sp.opts.Progress(sp.progress(start))
			}
		}
	}()
	return func() { close(done); wg.Wait(); sp.opts.Progress(sp.progress(start)) }
}

// progress is the split search's state as a Progress.
func (sp *splitter[P, M]) progress(start time.Time) Progress {
	nodes := sp.spent.Load()
	for i := range sp.live {
		nodes += sp.live[i].Load()
	}
	sp.mu.Lock()
	defer sp.mu.Unlock()
	// The root's numbers as a node of the tree: at an OR root the least
	// proof number and the sum of disproof numbers, at an AND root the
	// reverse; a move not looked at yet counts 1 and 1.
	var least, total uint32 = inf, 0
	for _, rm := range sp.moves {
		pn, dn := rm.pn, rm.dn
		switch {
		case rm.value == Proven:
			pn, dn = 0, inf
		case rm.value == Disproven:
			pn, dn = inf, 0
		case rm.searchedBy < 0:
			pn, dn = 1, 1
		}
		a, b := pn, dn
		if !sp.or {
			a, b = dn, pn
		}
		least = min(least, a)
		total = min(total+b, inf)
	}
	pn, dn := least, total
	if !sp.or {
		pn, dn = total, least
	}
	return Progress{Nodes: nodes, Attacker: sp.attacker, PN: pn, DN: dn, Elapsed: time.Since(start)}
}

// result writes the split search's report, and the joined certificate of
// a proof.
func (sp *splitter[P, M]) result(root P, start time.Time) *Report {
	rep := &Report{Result: game.Ongoing, Nodes: sp.spent.Load(), Elapsed: time.Since(start)}
	rep.Last = sp.progress(start)
	for _, rm := range sp.moves {
		rep.Moves = append(rep.Moves, MoveReport{Move: root.FormatMove(rm.move), Value: rm.value, Plies: rm.plies, PN: rm.pn, DN: rm.dn, Nodes: rm.nodes})
	}
	v := sp.root()
	rep.ToMove, rep.Opponent = v, Unknown
	if root.Side() != sp.attacker {
		rep.ToMove, rep.Opponent = Unknown, v
	}
	if v != Proven {
		return rep
	}
	rep.Result = game.WinFor(sp.attacker)
	var used []*rootMove[P, M]
	for _, rm := range sp.moves {
		// Of several proven moves, one whose certificate was written.
		if sp.or && rm.value == Proven && (used == nil || used[0].cert == nil && !used[0].over) {
			used = []*rootMove[P, M]{rm}
		}
		if !sp.or {
			used = append(used, rm)
		}
	}
	for _, rm := range used {
		rep.Plies = max(rep.Plies, rm.plies+1)
	}
	if sp.opts.Certificate {
		rep.Certificate, rep.CertificateErr = sp.join(root, used)
	}
	return rep
}

// join writes the certificate of the root from its moves' certificates:
// a root node whose moves lead to each one's nodes. A position in
// several of them (the workers' proofs meet) is written once, with the
// first one's node, for a certificate holds each position once.
func (sp *splitter[P, M]) join(root P, used []*rootMove[P, M]) (*Certificate, error) {
	j := &joiner[P, M]{ids: map[string]int{}}
	j.cert = &Certificate{Game: sp.rules.Spec().Name, Rules: sp.rules.Settings(), Position: root.String(), Winner: sp.attacker}
	j.cert.Nodes = []Node{{}}
	j.ids[root.String()] = 0
	for _, rm := range used {
		kid := -1
		if !rm.over {
			if rm.cert == nil {
				return nil, fmt.Errorf("split: the certificate of %s: %w", root.FormatMove(rm.move), cmp.Or(rm.certErr, errors.New("not written")))
			}
			var err error
			if kid, err = j.visit(rm.cert, 0, rm.pos); err != nil {
				return nil, fmt.Errorf("split: the certificate of %s: %w", root.FormatMove(rm.move), err)
			}
		}
		j.cert.Nodes[0].Moves = append(j.cert.Nodes[0].Moves, root.FormatMove(rm.move))
		j.cert.Nodes[0].Children = append(j.cert.Nodes[0].Children, kid)
	}
	return j.cert, nil
}

// joiner writes certificates into one, a position once.
type joiner[P game.Position[P, M], M comparable] struct {
	cert *Certificate
	ids  map[string]int // the node of each position written
}

// visit writes node n of c, the position p, and what it leads to, unless
// p is written already, and returns p's node.
func (j *joiner[P, M]) visit(c *Certificate, n int, p P) (int, error) {
	key := p.String()
	if id, ok := j.ids[key]; ok {
		return id, nil
	}
	id := len(j.cert.Nodes)
	j.ids[key] = id
	j.cert.Nodes = append(j.cert.Nodes, Node{})
	src := c.Nodes[n]
	out := Node{Moves: src.Moves, Children: make([]int, len(src.Children))}
	for i, m := range src.Moves {
		out.Children[i] = -1
		if src.Children[i] < 0 {
			continue
		}
		mv, err := p.ParseMove(m)
		if err != nil {
			return 0, fmt.Errorf("node %d, move %s: %w", n, m, err)
		}
		if out.Children[i], err = j.visit(c, src.Children[i], p.Play(mv)); err != nil {
			return 0, err
		}
	}
	j.cert.Nodes[id] = out
	return id, nil
}
