package ai

import (
	"context"
	"fmt"
	"slices"

	"github.com/magneton-games/magneton/game"
)

// forcedResult is Profile.ForcedResult on a game's kit.
func forcedResult[P game.Position[P, M], M comparable](ctx context.Context, kit *Kit[P, M], s game.State, plies int, maxNodes int64) (int, error) {
	p, ok := game.Unwrap[P, M](s)
	if !ok {
		return 0, fmt.Errorf("forced result: the position is not one of %s", kit.Game)
	}
	if r, _ := p.Outcome(); r.Over() {
		return 0, fmt.Errorf("forced result: the game is over (%s)", r)
	}
	pr := &prover[P, M]{kit: kit, ctx: ctx, maxNodes: maxNodes}
	for n := 1; 2*n-1 <= plies; n++ {
		if pr.wins(p, 2*n-1, 0) {
			return n, nil
		}
		if 2*n <= plies && pr.loses(p, 2*n, 0) {
			return -n, nil
		}
		if pr.out {
			break
		}
	}
	return 0, ctx.Err()
}

// prover is the state of one ForcedResult search.
type prover[P game.Position[P, M], M comparable] struct {
	kit      *Kit[P, M]
	ctx      context.Context
	nodes    int64
	maxNodes int64
	out      bool     // the node budget or the context ran out: answers are "not proved"
	path     []uint64 // positions on the current line: a repetition is never a win
	moves    [maxPly][]M
	cands    [maxPly][]M
}

func (pr *prover[P, M]) tick() bool {
	pr.nodes++
	if pr.maxNodes > 0 && pr.nodes > pr.maxNodes || pr.nodes&4095 == 0 && pr.ctx.Err() != nil {
		pr.out = true
	}
	return pr.out
}

// generate counts a node and lists p's moves at ply; ok is false when the
// search must stop (the budget or the depth of the tables ran out).
func (pr *prover[P, M]) generate(p P, ply int) (moves []M, ok bool) {
	if pr.tick() || ply >= maxPly-2 {
		return nil, false
	}
	pr.moves[ply] = p.AppendMoves(pr.moves[ply][:0])
	return pr.moves[ply], true
}

// enter puts p on the current line, unless it is there already: a line
// that repeats a position is never a forced win. leave takes it off.
func (pr *prover[P, M]) enter(p P) bool {
	h := p.Hash()
	if slices.Contains(pr.path, h) {
		return false
	}
	pr.path = append(pr.path, h)
	return true
}

func (pr *prover[P, M]) leave() { pr.path = pr.path[:len(pr.path)-1] }

// winsAtOnce reports whether a move of p wins at once for its side to move.
func (pr *prover[P, M]) winsAtOnce(p P, moves []M, ply int) bool {
	cands := moves
	if pr.kit.WinCandidates != nil {
		pr.cands[ply] = pr.kit.WinCandidates(p, moves, pr.cands[ply][:0])
		cands = pr.cands[ply]
	}
	for _, m := range cands {
		if _, won := winsAtOnce(pr.kit, p, m); won {
			return true
		}
	}
	return false
}

// threatens reports whether c's opponent of the side to move (who just
// moved) would win at once if it moved again. It may answer true where
// the game cannot tell cheaply: that only widens the search.
func (pr *prover[P, M]) threatens(c P, ply int) bool {
	switch {
	case pr.kit.Threatened != nil:
		return pr.kit.Threatened(c)
	case pr.kit.Pass != nil:
		q := pr.kit.Pass(c)
		pr.moves[ply] = q.AppendMoves(pr.moves[ply][:0])
		return pr.winsAtOnce(q, pr.moves[ply], ply)
	}
	return true
}

// wins reports whether p's side to move wins by force within plies plies.
func (pr *prover[P, M]) wins(p P, plies, ply int) bool {
	moves, ok := pr.generate(p, ply)
	if !ok || len(moves) == 0 {
		return false
	}
	if pr.winsAtOnce(p, moves, ply) {
		return true
	}
	if plies < 3 || !pr.enter(p) {
		return false
	}
	defer pr.leave()
	for i := 0; i < len(pr.moves[ply]); i++ {
		c := p.Play(pr.moves[ply][i])
		if _, ok := pr.kit.Decided(c); ok {
			continue // not a win (those were tried), so a draw or a loss
		}
		if !pr.threatens(c, ply+1) {
			continue
		}
		if pr.loses(c, plies-1, ply+1) {
			return true
		}
	}
	return false
}

// loses reports whether every move of p's side to move leads to a
// position that its opponent wins by force within plies-1 plies.
func (pr *prover[P, M]) loses(p P, plies, ply int) bool {
	moves, ok := pr.generate(p, ply)
	if !ok {
		return false
	}
	if len(moves) == 0 {
		r, _ := p.Outcome()
		return r == game.WinFor(p.Side().Other())
	}
	if plies < 2 || !pr.enter(p) {
		return false
	}
	defer pr.leave()
	them := game.WinFor(p.Side().Other())
	for i := 0; i < len(pr.moves[ply]); i++ {
		c := p.Play(pr.moves[ply][i])
		if r, ok := pr.kit.Decided(c); ok {
			if r == them {
				continue
			}
			return false
		}
		if !pr.wins(c, plies-1, ply+1) {
			return false
		}
	}
	return true
}

// threatWin is the threat-space search of a player: it looks for a win
// by threats for p's side to move within plies plies (every move of the
// winner but the last leaves it a win at once, every reply of the loser is
// tried; see Profile.ForcedResult), shortest first, spending at most
// maxNodes nodes, and returns the first move of the shortest one found,
// its length in moves and the nodes searched. Such wins can lie far beyond the main search's
// horizon, since the loser's replies are forced and the winner's moves are
// few, at a fraction of the main search's cost per node (no evaluation).
func threatWin[P game.Position[P, M], M comparable](ctx context.Context, kit *Kit[P, M], p P, history []uint64, plies int, maxNodes int64) (move M, n int, nodes int64, ok bool) {
	pr := &prover[P, M]{kit: kit, ctx: ctx, maxNodes: maxNodes}
	// A line through an earlier position of the game is no forced win
	// either: the repetition draws.
	pr.path = append(pr.path, history[max(0, len(history)-100):]...)
	moves := p.AppendMoves(nil)
	for i, m := range moves {
		if _, won := winsAtOnce(kit, p, m); won {
			return m, 1, int64(i + 1), true
		}
	}
	if !pr.enter(p) {
		return move, 0, pr.nodes, false
	}
	for n = 2; 2*n-1 <= plies && !pr.out; n++ {
		for _, m := range moves {
			c := p.Play(m)
			if _, over := kit.Decided(c); over || !pr.threatens(c, 1) {
				continue
			}
			if pr.loses(c, 2*n-2, 1) {
				return m, n, pr.nodes, true
			}
			if pr.out {
				break
			}
		}
	}
	return move, 0, pr.nodes, false
}

// threatLoss reports whether, after p's side to move plays m, the
// opponent wins by threats within plies plies (see threatWin), spending at
// most maxNodes nodes: the defence's check of a move.
func threatLoss[P game.Position[P, M], M comparable](ctx context.Context, kit *Kit[P, M], p P, m M, history []uint64, plies int, maxNodes int64) bool {
	c := p.Play(m)
	if _, over := kit.Decided(c); over {
		return false // a win, or a loss the search saw
	}
	pr := &prover[P, M]{kit: kit, ctx: ctx, maxNodes: maxNodes}
	pr.path = append(pr.path, history[max(0, len(history)-100):]...)
	pr.path = append(pr.path, p.Hash())
	for n := 1; 2*n-1 <= plies && !pr.out; n++ {
		if pr.wins(c, 2*n-1, 0) {
			return true
		}
	}
	return false
}
