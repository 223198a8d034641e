package prove

import (
	"cmp"
	"context"
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
	line     map[uint64]bool // the positions of the current line
}

// node writes p's node (or finds it written) and returns its number.
func (x *extractor[P, M]) node(p P) (int, error) {
	h := p.Hash()
	if id, ok := x.ids[h]; ok {
		if x.line[h] {
			return 0, fmt.Errorf("certificate: the proof comes back to %s", p)
		}
		return id, nil
	}
	if err := x.ctx.Err(); err != nil {
		return 0, fmt.Errorf("certificate: %w", err)
	}
	id := len(x.cert.Nodes)
	x.cert.Nodes = append(x.cert.Nodes, Node{})
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
		for _, m := range moves {
			c := p.Play(m)
			child := -1
			if r, _ := c.Outcome(); r.Over() {
				if r != game.WinFor(x.attacker) {
					return 0, fmt.Errorf("certificate: the defender escapes by %s from %s (%s)", p.FormatMove(m), p, r)
				}
			} else {
				var err error
				if child, err = x.node(c); err != nil {
					return 0, err
				}
			}
			n.Moves = append(n.Moves, p.FormatMove(m))
			n.Children = append(n.Children, child)
		}
	}
	x.cert.Nodes[id] = n
	return id, nil
}

// winningMove finds the attacker's move at p: a win at once, or the move
// to the defender's position of shortest proof off the line. The table
// may have lost those proofs to replacement since: the moves it knows
// nothing of are then proved again one by one, the most promising first.
func (x *extractor[P, M]) winningMove(p P, moves []M) (M, int, error) {
	type cand struct {
		i     int
		delta uint32
	}
	var rest []cand
	best, bestPlies := -1, uint32(0)
	for i, m := range moves {
		c := p.Play(m)
		r, _ := c.Outcome()
		if r == game.WinFor(x.attacker) {
			return m, -1, nil
		}
		if r.Over() || x.line[c.Hash()] {
			continue
		}
		e, ok := x.s.tt.get(c.Hash() ^ salts[x.attacker])
		switch {
		case !ok:
			rest = append(rest, cand{i, 1})
		case e.delta == 0:
			if best < 0 || e.plies < bestPlies {
				best, bestPlies = i, e.plies
			}
		case e.phi != 0:
			rest = append(rest, cand{i, e.delta})
		}
	}
	if best < 0 {
		slices.SortStableFunc(rest, func(a, b cand) int { return cmp.Compare(a.delta, b.delta) })
		for _, c := range rest {
			if v, _ := x.s.Prove(x.ctx, p.Play(moves[c.i]), x.attacker); v == Proven {
				best = c.i
				break
			}
		}
	}
	if best < 0 {
		var zero M
		return zero, 0, fmt.Errorf("certificate: no proven move found at %s", p)
	}
	child, err := x.node(p.Play(moves[best]))
	return moves[best], child, err
}
