package prove

import (
	"context"
	"fmt"

	"github.com/magneton-games/magneton/game"
)

// Holds writes the proof that the defender (the side that is not
// attacker) does not lose root, a position Prove disproved for attacker:
// a certificate with Holds set, from the table, proving again any
// position whose entry is gone (as a root, with no history). At the
// defender's nodes it takes a move to a position already in the proof
// when one is (lines may come back: a cycle is a draw by repetition), or
// else to a position disproved for the attacker; at the attacker's,
// every move.
func (s *Solver[P, M]) Holds(ctx context.Context, root P, attacker game.Side, rules game.Rules) (*Certificate, error) {
	h := &holder[P, M]{s: s, ctx: ctx, attacker: attacker, ids: map[uint64]int{}}
	h.cert = &Certificate{Game: rules.Spec().Name, Rules: rules.Settings(), Position: root.String(), Winner: attacker.Other(), Holds: true}
	if _, err := h.node(root); err != nil {
		return nil, err
	}
	return h.cert, nil
}

type holder[P game.Position[P, M], M comparable] struct {
	s        *Solver[P, M]
	ctx      context.Context
	attacker game.Side
	cert     *Certificate
	ids      map[uint64]int // the node of each position written or being written
}

// node writes p's node (or finds it) and returns its number.
func (h *holder[P, M]) node(p P) (int, error) {
	key := p.Hash()
	if id, ok := h.ids[key]; ok {
		return id, nil
	}
	if err := h.ctx.Err(); err != nil {
		return 0, fmt.Errorf("certificate: %w", err)
	}
	id := len(h.cert.Nodes)
	h.cert.Nodes = append(h.cert.Nodes, Node{})
	h.ids[key] = id
	var n Node
	moves := p.AppendMoves(nil)
	if p.Side() != h.attacker {
		m, next, end, err := h.holdingMove(p, moves)
		if err != nil {
			return 0, err
		}
		child := -1
		if !end {
			if child, err = h.node(next); err != nil {
				return 0, err
			}
		}
		n.Moves, n.Children = []string{p.FormatMove(m)}, []int{child}
	} else {
		var err error
		n, err = everyMove(p, moves, func(r game.Result) error {
			if r == game.WinFor(h.attacker) {
				return fmt.Errorf("the attacker wins (%s)", r)
			}
			return nil
		}, h.node)
		if err != nil {
			return 0, err
		}
	}
	h.cert.Nodes[id] = n
	return id, nil
}

// holdingMove finds the defender's move at p: one that ends the game in
// no win of the attacker, or leads to a position in the proof already,
// or to one the table holds disproved, or failing those to one proved
// again to be disproved.
func (h *holder[P, M]) holdingMove(p P, moves []M) (m M, next P, end bool, err error) {
	var rest []M
	var known, seen = -1, -1
	for i, mv := range moves {
		c := p.Play(mv)
		if r, _ := c.Outcome(); r.Over() {
			if r != game.WinFor(h.attacker) {
				return mv, c, true, nil
			}
			continue
		}
		if _, ok := h.ids[c.Hash()]; ok && seen < 0 {
			seen = i
			continue
		}
		// The attacker is to move at c: disproved is delta 0.
		if e, ok := h.s.tt.get(c.Hash() ^ salts[h.attacker]); ok && e.delta == 0 && known < 0 {
			known = i
			continue
		}
		rest = append(rest, mv)
	}
	switch {
	case seen >= 0:
		return moves[seen], p.Play(moves[seen]), false, nil
	case known >= 0:
		return moves[known], p.Play(moves[known]), false, nil
	}
	for _, mv := range rest {
		c := p.Play(mv)
		if v, _ := h.s.Prove(h.ctx, c, h.attacker); v == Disproven {
			return mv, c, false, nil
		}
	}
	var zero P
	return m, zero, false, fmt.Errorf("certificate: no move of the defender found at %s that the attacker does not win after", p)
}
