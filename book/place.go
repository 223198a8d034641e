package book

import (
	"fmt"

	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/prove"
)

// place finds the position of each node of c, a certificate of a win, by
// playing from the root one move into each node, and the winner's moves
// to the end from each node: what prove.Walk returns, without its checks.
// It is for the committed certificates, which their tests verify
// (cmd/magneton's TestCommittedCertificates and this package's), and it
// costs a fraction of a verification, so that a process's first level 8
// move does not wait for the checks.
func place(c *prove.Certificate, rules game.Rules) ([]prove.Placed, error) {
	root, err := rules.ParsePosition(c.Position)
	if err != nil {
		return nil, fmt.Errorf("the root position: %w", err)
	}
	out := make([]prove.Placed, len(c.Nodes))
	winner := make([]bool, len(c.Nodes)) // the winner is to move at the node
	reached := make([]bool, len(c.Nodes))
	ids, states := []int{0}, []game.State{root}
	reached[0] = true
	for len(ids) > 0 {
		id, s := ids[len(ids)-1], states[len(states)-1]
		ids, states = ids[:len(ids)-1], states[:len(states)-1]
		out[id].Position = s.String()
		winner[id] = s.Side() == c.Winner
		n := c.Nodes[id]
		for i, child := range n.Children {
			if child < 0 || reached[child] {
				continue
			}
			next, err := s.Play(n.Moves[i])
			if err != nil {
				return nil, fmt.Errorf("node %d: move %s: %w", id, n.Moves[i], err)
			}
			reached[child] = true
			ids, states = append(ids, child), append(states, next)
		}
	}
	done := make([]bool, len(c.Nodes))
	var visit func(id int) int
	visit = func(id int) int {
		if !done[id] {
			most := 0
			for _, child := range c.Nodes[id].Children {
				if child >= 0 {
					most = max(most, visit(child))
				}
			}
			if winner[id] {
				most++
			}
			done[id], out[id].Moves = true, most
		}
		return out[id].Moves
	}
	for id := range c.Nodes {
		if !reached[id] {
			return nil, fmt.Errorf("node %d is never reached from the root", id)
		}
		visit(id)
	}
	return out, nil
}
