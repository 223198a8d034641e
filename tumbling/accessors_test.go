package tumbling

import (
	"math/rand/v2"
	"testing"
)

// TestHeightsAndPure checks the pointer-receiver accessors the evaluations
// use against Height and Stack, over random games.
func TestHeightsAndPure(t *testing.T) {
	randomGames(1, 50, 120, func(p Position) {
		h := p.Heights()
		var pure [2]uint64
		for s := range Square(64) {
			height, mask := p.Stack(s)
			if int(h[s]) != height {
				t.Fatalf("%s: Heights()[%s] = %d, Stack says %d", p, s, h[s], height)
			}
			switch {
			case height == 0:
			case mask == 0:
				pure[Black] |= 1 << s
			case mask == 1<<height-1:
				pure[Red] |= 1 << s
			}
		}
		if got := [2]uint64{p.Pure(Black), p.Pure(Red)}; got != pure {
			t.Fatalf("%s: Pure = %x, the stacks say %x", p, got, pure)
		}
	})
}

// TestPass checks that a pass changes only the side to move: the stacks
// and Kings stay, the hash is the from-scratch hash of the new position,
// the moves are the other side's, and two passes give the position back.
func TestPass(t *testing.T) {
	randomGames(3, 30, 60, func(p Position) {
		if _, over := p.Winner(); over {
			return // no pass after the end
		}
		q := p.Pass()
		if q.Side() != p.Side().Other() || q.Heights() != p.Heights() {
			t.Fatalf("%s: Pass gives %s", p, q)
		}
		if q.Hash() != q.computeHash() {
			t.Fatalf("%s: the hash after Pass is %x, from scratch %x", p, q.Hash(), q.computeHash())
		}
		if q.Pass() != p {
			t.Fatalf("%s: two passes give %s", p, q.Pass())
		}
		if want, err := (Rules{}).Parse(q.String()); err != nil || want.Hash() != q.Hash() || len(want.AppendMoves(nil)) != len(q.AppendMoves(nil)) {
			t.Fatalf("%s after a pass: %s does not parse back to the same position (%v)", p, q, err)
		}
	})
}

// randomGames calls visit on every position of n random games from the
// start (random source seed), each to at most plies moves or its end.
func randomGames(seed uint64, n, plies int, visit func(Position)) {
	rng := rand.New(rand.NewPCG(seed, seed+1))
	for range n {
		p := Rules{}.StartPosition()
		for range plies {
			visit(p)
			moves := p.AppendMoves(nil)
			if _, over := p.Winner(); over || len(moves) == 0 {
				break
			}
			p = p.Play(moves[rng.IntN(len(moves))])
		}
	}
}
