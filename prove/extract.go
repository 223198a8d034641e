package prove

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/magneton-games/magneton/game"
)

// Certificate writes the proof of a position that Prove proved for
// attacker, from the table, proving again any position whose entry was
// overwritten since. At the attacker's nodes it takes the move to the
// position of shortest proof that is not on the line already, so that
// no line comes back to a position; at the defender's it takes every move.
func (s *Solver[P, M]) Certificate(ctx context.Context, root P, attacker game.Side, rules game.Rules) (*Certificate, error) {
	x := &extractor[P, M]{s: s, ctx: ctx, attacker: attacker, ids: map[uint64]int{}, line: map[uint64]bool{}}
	x.cert = &Certificate{Game: rules.Spec().Name, Rules: rules.Settings(), Position: root.String(), Winner: attacker}
	if _, err := x.node(root); err != nil {
		return nil, err
	}
	return x.cert, nil
}

type extractor[P game.Position[P, M], M comparable] struct {
	s        *Solver[P, M]
	ctx      context.Context
	attacker game.Side
	cert     *Certificate
	ids      map[uint64]int  // the node of each position written
	keys     []uint64        // the position of each node, by number
	line     map[uint64]bool // the positions of the current line
}

// errBack is a line of the proof coming back to a position on it: the
// attacker's move that led there is set aside for another.
var errBack = errors.New("the proof comes back to a position on its line")

// undo forgets the nodes from number n on, written under a move set
// aside.
func (x *extractor[P, M]) undo(n int) {
	for _, k := range x.keys[n:] {
		delete(x.ids, k)
	}
	x.keys, x.cert.Nodes = x.keys[:n], x.cert.Nodes[:n]
}

// node writes p's node (or finds it written) and returns its number.
func (x *extractor[P, M]) node(p P) (int, error) {
	h := p.Hash()
	if id, ok := x.ids[h]; ok {
		if x.line[h] {
			return 0, fmt.Errorf("certificate: %w (%s)", errBack, p)
		}
		return id, nil
	}
	if err := x.ctx.Err(); err != nil {
		return 0, fmt.Errorf("certificate: %w", err)
	}
	id := len(x.cert.Nodes)
	x.cert.Nodes = append(x.cert.Nodes, Node{})
	x.keys = append(x.keys, h)
	x.ids[h] = id
	x.line[h] = true
	defer delete(x.line, h)
	moves := p.AppendMoves(nil)
	var n Node
	if p.Side() == x.attacker {
		m, child, err := x.winningMove(p, moves)
		if err != nil {
			return 0, err
		}
		n.Moves, n.Children = []string{p.FormatMove(m)}, []int{child}
	} else {
		var err error
		n, err = everyMove(p, moves, func(r game.Result) error {
			if r != game.WinFor(x.attacker) {
				return fmt.Errorf("the defender escapes (%s)", r)
			}
			return nil
		}, x.node)
		if err != nil {
			return 0, err
		}
	}
	x.cert.Nodes[id] = n
	return id, nil
}

// everyMove is the node of p's moves (every one of them) at a turn of
// the side the proof must answer: each move's node, from visit, or the
// end of the game, whose result end checks.
func everyMove[P game.Position[P, M], M comparable](p P, moves []M, end func(game.Result) error, visit func(P) (int, error)) (Node, error) {
	var n Node
	for _, m := range moves {
		c := p.Play(m)
		child := -1
		if r, _ := c.Outcome(); r.Over() {
			if err := end(r); err != nil {
				return n, fmt.Errorf("certificate: %s from %s: %w", p.FormatMove(m), p, err)
			}
		} else {
			var err error
			if child, err = visit(c); err != nil {
				return n, err
			}
		}
		n.Moves = append(n.Moves, p.FormatMove(m))
		n.Children = append(n.Children, child)
	}
	return n, nil
}

// winningMove finds the attacker's move at p and writes the node it
// leads to: a win at once, or the move to the defender's position of
// shortest proof off the line. The table may have lost those proofs to
// replacement since: the moves it knows nothing of are then proved again
// one by one, the most promising first. A move whose proof lets the
// defender come back to a position of the line is set aside for the
// next (the proofs in the table are of positions without a history, and
// may pass through the line's).
func (x *extractor[P, M]) winningMove(p P, moves []M) (M, int, error) {
	type cand struct {
		i      int
		plies  uint32
		delta  uint32
		proven bool
	}
	var cands []cand
	back := false // a move was set aside for the line
	for i, m := range moves {
		c := p.Play(m)
		r, _ := c.Outcome()
		if r == game.WinFor(x.attacker) {
			return m, -1, nil
		}
		if x.line[c.Hash()] {
			back = true
			continue
		}
		if r.Over() {
			continue
		}
		e, ok := x.s.tt.get(c.Hash() ^ salts[x.attacker])
		switch {
		case !ok:
			cands = append(cands, cand{i: i, delta: 1})
		case e.delta == 0:
			cands = append(cands, cand{i: i, plies: e.plies, proven: true})
		case e.phi != 0:
			cands = append(cands, cand{i: i, delta: e.delta})
		}
	}
	// The proven first, shortest first; then the others, most promising
	// first.
	slices.SortStableFunc(cands, func(a, b cand) int {
		switch {
		case a.proven != b.proven:
			if a.proven {
				return -1
			}
			return 1
		case a.proven:
			return cmp.Compare(a.plies, b.plies)
		}
		return cmp.Compare(a.delta, b.delta)
	})
	for _, c := range cands {
		next := p.Play(moves[c.i])
		if !c.proven {
			if v, _ := x.s.Prove(x.ctx, next, x.attacker); v != Proven {
				continue
			}
		}
		mark := len(x.cert.Nodes)
		child, err := x.node(next)
		if errors.Is(err, errBack) {
			x.undo(mark)
			back = true
			continue
		}
		return moves[c.i], child, err
	}
	var zero M
	if back {
		// The win from here went through the line: the defender's move
		// to p refutes the attacker's move above.
		return zero, 0, fmt.Errorf("certificate: %w (every winning move of %s)", errBack, p)
	}
	return zero, 0, fmt.Errorf("certificate: no proven move found at %s", p)
}
