package prove

import (
	"context"
	"math"
	"time"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/game"
)

// inf is the proof or disproof number of a settled question: a node with
// phi = inf has failed for its side to move. Sums saturate below it.
const inf = math.MaxUint32 / 2

// noDep marks a result that depends on no position above it on the path.
const noDep = math.MaxInt32

// Value is the result of a question for the side that asks it.
type Value uint8

// The values of a proof search.
const (
	Unknown   Value = iota // the budget ran out first
	Proven                 // the attacker wins by force
	Disproven              // the attacker cannot force a win (the defender draws or wins)
)

// String names the value.
func (v Value) String() string {
	return [...]string{"unknown", "proven", "disproven"}[v]
}

// Progress is what the search reports now and then.
type Progress struct {
	Nodes    int64         // positions expanded
	Attacker game.Side     // the side whose win is being proved
	PN, DN   uint32        // the root's proof and disproof numbers, for the attacker (inf: settled)
	Stored   int64         // table entries written
	Settled  int           // of them, settled results (kept apart: never replaced)
	Elapsed  time.Duration // since the search began
}

// Rate returns the nodes expanded per second.
func (p Progress) Rate() float64 {
	if p.Elapsed <= 0 {
		return 0
	}
	return float64(p.Nodes) / p.Elapsed.Seconds()
}

// Solver is a depth-first proof-number search (df-pn, Nagai 2002) of one
// game, positions P and moves M. It answers questions "does the attacker
// win by force from this position?" and keeps its table between them. A
// Solver is used by one goroutine at a time.
type Solver[P game.Position[P, M], M comparable] struct {
	kit   *ai.Kit[P, M]
	tt    *table
	ctx   context.Context
	stop  bool
	nodes int64
	// MaxNodes stops a search after this many expansions (0: no limit).
	MaxNodes int64
	// Progress, if set, is called about every Interval during a search.
	Progress func(Progress)
	Interval time.Duration
	start    time.Time
	next     time.Time
	rootPN   uint32
	rootDN   uint32
	// depth is the ply of the position mid last entered (-1 when no
	// search runs), and searching[i] the child of ply i's position on
	// the current line: the progress display's estimate of the root's
	// numbers follows the line up from there.
	depth     int
	searching []int

	attacker game.Side
	root     game.Side      // the side to move at the root
	salt     uint64         // xored into keys: the attacker's questions apart
	path     map[uint64]int // the positions on the current line, by ply
	kids     [][]child[P, M]
	moves    [][]M // each ply's moves
	leafMv   []M   // scratch of leaf
	passMv   []M   // scratch of threatened
	scratch  []M   // scratch of winsAtOnce
}

// child is one move of a node being searched and what is known of the
// position after it.
type child[P game.Position[P, M], M comparable] struct {
	move       M
	pos        P
	key        uint64
	phi, delta uint32
	plies      uint32
	dep        int // the shallowest ply on the path the numbers rely on (noDep: none)
}

// New makes a solver for a game's kit (its win-in-one and threat tests are
// the search's knowledge) with a table of hashMiB MiB.
func New[P game.Position[P, M], M comparable](kit *ai.Kit[P, M], hashMiB int) *Solver[P, M] {
	return &Solver[P, M]{kit: kit, tt: newTable(hashMiB), Interval: time.Second}
}

// Nodes returns the positions expanded by the solver's searches so far.
func (s *Solver[P, M]) Nodes() int64 { return s.nodes }

// salts keep the two attackers' questions apart in the table.
var salts = [2]uint64{0, 0x9e3779b97f4a7c15}

// Prove answers whether attacker wins by force from root, a position with
// no history (no earlier position counts towards a repetition), and if so
// within how many plies (the proof found, not necessarily the shortest).
// It stops with Unknown when ctx ends or MaxNodes is spent; the table
// keeps what was learnt, so asking again goes on from there.
func (s *Solver[P, M]) Prove(ctx context.Context, root P, attacker game.Side) (Value, int) {
	s.ctx, s.stop = ctx, false
	s.attacker, s.salt, s.root = attacker, salts[attacker], root.Side()
	s.path = map[uint64]int{}
	s.start = time.Now()
	s.next = s.start.Add(s.Interval)
	budget := s.nodes + s.MaxNodes
	if s.MaxNodes <= 0 {
		budget = math.MaxInt64
	}
	c := s.leaf(root, 0)
	s.rootPN, s.rootDN = c.phi, c.delta
	for c.phi != 0 && c.delta != 0 && !s.stop {
		c.phi, c.delta, c.plies, _ = s.mid(root, c.key, 0, inf, inf, budget)
	}
	s.rootPN, s.rootDN, s.depth = c.phi, c.delta, -1
	if s.Progress != nil {
		s.Progress(s.progress())
	}
	won := root.Side() == attacker
	switch {
	case c.phi == 0 && won || c.delta == 0 && !won:
		return Proven, int(c.plies)
	case c.phi == 0 || c.delta == 0:
		return Disproven, int(c.plies)
	}
	return Unknown, 0
}

// progress reports the root's numbers (kept as its side to move's phi
// and delta) as the attacker's proof and disproof numbers: during a
// search, their estimate from the current line (see estimate).
func (s *Solver[P, M]) progress() Progress {
	pn, dn := s.estimate()
	if s.root != s.attacker {
		pn, dn = dn, pn
	}
	return Progress{Nodes: s.nodes, Attacker: s.attacker, PN: pn, DN: dn, Stored: s.tt.stored, Settled: s.tt.Settled(), Elapsed: time.Since(s.start)}
}

// tick counts an expansion and decides whether to stop.
func (s *Solver[P, M]) tick(budget int64) {
	s.nodes++
	if s.nodes >= budget {
		s.stop = true
	}
	if s.nodes&1023 != 0 {
		return
	}
	if s.ctx.Err() != nil {
		s.stop = true
	}
	if s.Progress != nil {
		if now := time.Now(); now.After(s.next) {
			s.next = now.Add(s.Interval)
			s.Progress(s.progress())
		}
	}
}

// success returns the numbers of a position whose game is over with
// result r: its side to move has succeeded (phi 0) when it is the
// attacker and has won, or the defender and has not lost.
func (s *Solver[P, M]) success(mover game.Side, r game.Result) (phi, delta uint32) {
	attackerWon := r == game.WinFor(s.attacker)
	if (mover == s.attacker) == attackerWon {
		return 0, inf
	}
	return inf, 0
}

// leaf returns what is known of p before searching it: the table's
// numbers, or the game's end, or a win in one for the side to move (which
// succeeds for either side), or first numbers that favour a move that
// leaves the side to move a threat to parry.
func (s *Solver[P, M]) leaf(p P, ply int) child[P, M] {
	c := child[P, M]{pos: p, key: p.Hash() ^ s.salt, dep: noDep, phi: 1, delta: 1}
	if at, ok := s.path[p.Hash()]; ok {
		// A repetition of a position on the line: a draw, never the
		// attacker's win, and true only of this line (see the package
		// documentation).
		c.phi, c.delta = s.success(p.Side(), game.Draw)
		c.dep = at
		return c
	}
	if e, ok := s.tt.get(c.key); ok {
		c.phi, c.delta, c.plies = e.phi, e.delta, e.plies
		return c
	}
	if r, ok := s.kit.Decided(p); ok {
		c.phi, c.delta = s.success(p.Side(), r)
		return c
	}
	moves := p.AppendMoves(s.leafMv[:0])
	s.leafMv = moves
	if len(moves) == 0 {
		r, _ := p.Outcome()
		c.phi, c.delta = s.success(p.Side(), r)
		return c
	}
	if s.winsAtOnce(p, moves) {
		c.phi, c.delta, c.plies = 0, inf, 1
		return c
	}
	if !s.threatened(p) {
		// A quiet move: the mover's opponent has as much choice as before.
		// Its numbers start higher, so the search tries forcing moves first.
		c.phi, c.delta = 2, 1
	}
	return c
}

// winsAtOnce reports whether a move of p (one of moves) wins at once.
func (s *Solver[P, M]) winsAtOnce(p P, moves []M) bool {
	if s.kit.MayWin != nil && !s.kit.MayWin(p) {
		return false
	}
	cands := moves
	if s.kit.WinCandidates != nil {
		s.scratch = s.kit.WinCandidates(p, moves, s.scratch[:0])
		cands = s.scratch
	}
	for _, m := range cands {
		if r, ok := s.kit.Decided(p.Play(m)); ok && r == game.WinFor(p.Side()) {
			return true
		}
	}
	return false
}

// threatened reports whether the side that just moved to p would win at
// once if it could move again, as far as the kit can tell.
func (s *Solver[P, M]) threatened(p P) bool {
	switch {
	case s.kit.Threatened != nil:
		return s.kit.Threatened(p)
	case s.kit.Pass != nil:
		q := s.kit.Pass(p)
		s.passMv = q.AppendMoves(s.passMv[:0])
		return s.winsAtOnce(q, s.passMv)
	}
	return false
}

// mid searches p (at ply, with table key key) until its numbers reach the
// thresholds or it is settled, in the negamax form of df-pn: phi is the
// proof number of p for its side to move, delta its disproof number, so
// phi(p) = min delta(child) and delta(p) = sum phi(child). It returns the
// numbers, the plies of the proof when settled, and the shallowest ply on
// the path that the result relies on (noDep for none). A result that
// relies on a position above p is not stored: on another line it could
// be wrong (the graph-history interaction).
func (s *Solver[P, M]) mid(p P, key uint64, ply int, thphi, thdelta uint32, budget int64) (uint32, uint32, uint32, int) {
	s.depth = ply
	s.tick(budget)
	start := s.nodes
	if len(s.kids) <= ply {
		s.kids = append(s.kids, nil)
		s.moves = append(s.moves, nil)
		s.searching = append(s.searching, 0)
	}
	kids := s.kids[ply][:0]
	moves := p.AppendMoves(s.moves[ply][:0])
	s.moves[ply] = moves
	s.path[p.Hash()] = ply
	settled := false
	for _, m := range moves {
		c := s.leaf(p.Play(m), ply+1)
		c.move = m
		kids = append(kids, c)
		if c.delta == 0 {
			settled = true // a move that wins for the side to move: no need of the others
			break
		}
	}
	s.kids[ply] = kids
	var phi, delta, plies uint32
	var dep int
	for {
		phi, delta, plies, dep = sum(kids)
		if ply == 0 {
			s.rootPN, s.rootDN = phi, delta
		}
		if settled || phi == 0 || delta == 0 || phi >= thphi || delta >= thdelta || s.stop {
			break
		}
		best, second := pick(kids)
		s.searching[ply] = best
		c := &kids[best]
		// Nagai's thresholds, with the 1+ε trick of Pawlewicz and Lew
		// (ε = 1/4) against the thrashing of plain df-pn.
		cthphi := thdelta - min(thdelta, delta-c.phi)
		cthdelta := min(thphi, second+second/4+1)
		if delta >= inf {
			cthphi = inf
		}
		c.phi, c.delta, c.plies, c.dep = s.mid(c.pos, c.key, ply+1, max(cthphi, 1), max(cthdelta, 1), budget)
	}
	delete(s.path, p.Hash())
	if dep >= ply {
		dep = noDep // it relied only on positions from p on: true of p on any line
	}
	if dep == noDep || (phi != 0 && delta != 0) {
		work := min(s.nodes-start, math.MaxUint32)
		s.tt.put(entry{key: key, phi: phi, delta: delta, plies: plies, work: uint32(work)})

	}
	return phi, delta, plies, dep
}

// estimate returns the root's numbers as the search stands: the root
// learns its child's new numbers only when the search below that child
// returns, which on a hard question can take the rest of the run, so
// the display instead combines, from the deepest position on the
// current line up to the root, each position's children with the
// numbers of the one being searched replaced by what is known of it now.
// The position mid has just entered has no children yet: the line is
// read from its parent up.
func (s *Solver[P, M]) estimate() (phi, delta uint32) {
	if s.depth <= 0 {
		return s.rootPN, s.rootDN
	}
	phi, delta, _, _ = sum(s.kids[s.depth-1])
	for i := s.depth - 2; i >= 0; i-- {
		c := &s.kids[i][s.searching[i]]
		oldPhi, oldDelta := c.phi, c.delta
		c.phi, c.delta = phi, delta
		phi, delta, _, _ = sum(s.kids[i])
		c.phi, c.delta = oldPhi, oldDelta
	}
	return phi, delta
}

// sum combines a node's children: phi is the least delta, delta the sum of
// the phis. When settled, plies is the proof's length and dep the
// shallowest ply it relies on.
func sum[P game.Position[P, M], M comparable](kids []child[P, M]) (phi, delta, plies uint32, dep int) {
	phi, dep = inf, noDep
	var total uint64
	winDep := -1
	for _, c := range kids {
		if c.delta < phi {
			phi = c.delta
		}
		total += uint64(c.phi)
		if c.delta == 0 {
			// A winning move: prefer one that relies on no position above,
			// then the shortest.
			if c.dep > winDep || c.dep == winDep && c.plies+1 < plies {
				winDep, plies = c.dep, c.plies+1
			}
		}
	}
	delta = uint32(min(total, inf-1)) // unsettled stays below inf
	switch {
	case phi == 0:
		return 0, inf, plies, winDep
	case delta == 0:
		// Every move fails: the longest defence, relying on what any
		// of them relied on.
		for _, c := range kids {
			plies = max(plies, c.plies+1)
			dep = min(dep, c.dep)
		}
		return inf, 0, plies, dep
	}
	for _, c := range kids {
		dep = min(dep, c.dep)
	}
	return phi, delta, 0, dep
}

// pick returns the child to search, the one of least delta (the first of
// them: the move order breaks ties), and the second least delta.
func pick[P game.Position[P, M], M comparable](kids []child[P, M]) (best int, second uint32) {
	second = inf
	for i := 1; i < len(kids); i++ {
		if d := kids[i].delta; d < kids[best].delta {
			second = kids[best].delta
			best = i
		} else if d < second {
			second = d
		}
	}
	return best, second
}
