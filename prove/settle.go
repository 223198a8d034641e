package prove

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/game"
)

// settler is the ai.Prover of one game: a Solver kept from call to call,
// made again when the rules change.
type settler[P game.Position[P, M], M comparable] struct {
	pr      ai.Profile
	hashMiB int
	label   string // the rules the solver was made for
	sv      *Solver[P, M]
}

// Prover returns an ai.Prover of the game with a table of hashMiB MiB.
func (so solverOf[P, M]) Prover(hashMiB int) ai.Prover {
	return &settler[P, M]{pr: so.pr, hashMiB: max(hashMiB, 1)}
}

// Settle answers for the side to move first (with half the budget, all
// of it when that settles its question), then for the other side, then
// for the side to move again with what is left when the other side
// cannot win: both failing is a draw.
func (st *settler[P, M]) Settle(ctx context.Context, s game.State, hist []uint64, maxNodes int64) (ai.Proof, error) {
	rules := s.Rules()
	p, ok := game.Unwrap[P, M](s)
	if !ok {
		return ai.Proof{}, fmt.Errorf("prove: the position is not one of %s", st.pr.Spec().Title)
	}
	if r, _ := p.Outcome(); r.Over() {
		return ai.Proof{}, fmt.Errorf("prove: the game is over (%s)", r)
	}
	if label := rules.Spec().Name + " " + rules.Settings().String(); st.sv == nil || label != st.label {
		kit, err := ai.KitFor[P, M](st.pr, rules)
		if err != nil {
			return ai.Proof{}, fmt.Errorf("prove: %w", err)
		}
		st.sv, st.label = New(kit, st.hashMiB), label
	}
	sv := st.sv
	sv.Progress = nil
	if maxNodes <= 0 {
		maxNodes = math.MaxInt64 / 2
	}
	start := sv.nodes
	left := func() int64 { return maxNodes - (sv.nodes - start) }
	ask := func(attacker game.Side, budget int64) (Value, int) {
		if budget <= 0 {
			return Unknown, 0
		}
		sv.MaxNodes = budget
		return sv.Prove(ctx, p, attacker)
	}
	side := p.Side()
	var pf ai.Proof
	us, plies := ask(side, maxNodes/2+1)
	if us == Proven {
		pf.Result, pf.Moves = game.WinFor(side), (plies+1)/2
	} else {
		them, plies := ask(side.Other(), left())
		switch {
		case them == Proven:
			pf.Result, pf.Moves = game.LossFor(side), plies/2
		case them == Disproven && us == Unknown:
			if us, plies = ask(side, left()); us == Proven {
				pf.Result, pf.Moves = game.WinFor(side), (plies+1)/2
			} else if us == Disproven {
				pf.Result = game.Draw
			}
		case them == Disproven && us == Disproven:
			pf.Result = game.Draw
		}
	}
	// A win or a loss in one or two moves is the shortest: the search
	// settles a win at once at every position before anything else, so a
	// longer proof means there is none.
	pf.Exact = pf.Proven() && pf.Moves <= 2
	if w, ok := pf.Result.Winner(); ok {
		m, found := st.move(ctx, p, w, hist, left)
		if found {
			pf.Move = p.FormatMove(m)
		}
	}
	pf.Nodes = sv.nodes - start
	return pf, nil
}

// moveCand is a move of the position whose move settle is choosing.
type moveCand[M comparable] struct {
	m     M
	plies uint32 // the length of the proof of the position it leads to
	known bool   // proven for the winner (in the table, or a win at once)
	old   bool   // back to a position of the game
}

// move is the side to move's move at p, proven won or lost for winner:
// the winner's move to the position of shortest proof (off hist when
// one is), or the loser's move to the position of longest proof (a move
// whose loss the table no longer holds counts as longest: its loss is
// not proven now).
func (st *settler[P, M]) move(ctx context.Context, p P, winner game.Side, hist []uint64, left func() int64) (M, bool) {
	cands := st.candidates(p, winner, hist)
	if p.Side() == winner {
		return st.winnerMove(ctx, p, winner, cands, left)
	}
	return st.loserMove(ctx, p, winner, cands, left)
}

// candidates lists the moves of p that the choice of a move for winner
// weighs, with what the table knows of the positions they lead to: every
// move that does not end the game, and those that end it in winner's win.
func (st *settler[P, M]) candidates(p P, winner game.Side, hist []uint64) []moveCand[M] {
	sv := st.sv
	var cands []moveCand[M]
	for _, m := range p.AppendMoves(nil) {
		c := p.Play(m)
		r, over := sv.kit.Decided(c)
		if !over {
			r, _ = c.Outcome()
			over = r.Over()
		}
		if over {
			if r == game.WinFor(winner) {
				cands = append(cands, moveCand[M]{m: m, known: true})
			}
			continue
		}
		e, ok := sv.tt.get(c.Hash() ^ salts[winner])
		// The child's side to move is the loser when the winner moves at
		// p, the winner when the loser does: proven for the winner is
		// delta 0 at the former, phi 0 at the latter.
		proven := ok && (p.Side() == winner && e.delta == 0 || p.Side() != winner && e.phi == 0)
		cands = append(cands, moveCand[M]{m: m, plies: e.plies, known: proven, old: slices.Contains(hist, c.Hash())})
	}
	return cands
}

// winnerMove is the winner's move among cands: the proof's child of
// shortest proof, off the game's positions; when the table lost those
// (or they lead back into the game), the first child off the game's
// positions proved again within the budget; else the shortest proven.
func (st *settler[P, M]) winnerMove(ctx context.Context, p P, winner game.Side, cands []moveCand[M], left func() int64) (M, bool) {
	sv := st.sv
	best := -1
	for i, c := range cands {
		if c.known && (best < 0 || c.old != cands[best].old && !c.old || c.old == cands[best].old && c.plies < cands[best].plies) {
			best = i
		}
	}
	if best >= 0 && !cands[best].old {
		return cands[best].m, true
	}
	for _, c := range cands {
		if c.old || c.known || ctx.Err() != nil || left() <= 0 {
			continue
		}
		sv.MaxNodes = left()
		if v, _ := sv.Prove(ctx, p.Play(c.m), winner); v == Proven {
			return c.m, true
		}
	}
	if best >= 0 {
		return cands[best].m, true
	}
	var zero M
	return zero, false
}

// loserMove is the loser's move among cands: the longest proof, an
// unproven move before any. A position whose side to move wins at once
// is settled without an entry in the table; another the table lost is
// proved again within the budget.
func (st *settler[P, M]) loserMove(ctx context.Context, p P, winner game.Side, cands []moveCand[M], left func() int64) (M, bool) {
	sv := st.sv
	for i := range cands {
		c := &cands[i]
		if c.known {
			continue
		}
		next := p.Play(c.m)
		if sv.winsAtOnce(next, next.AppendMoves(nil)) {
			c.known, c.plies = true, 1
			continue
		}
		if ctx.Err() != nil || left() <= 0 {
			continue
		}
		sv.MaxNodes = left()
		if v, plies := sv.Prove(ctx, next, winner); v == Proven {
			c.known, c.plies = true, uint32(plies)
		}
	}
	slices.SortStableFunc(cands, func(a, b moveCand[M]) int {
		if a.known != b.known {
			if a.known {
				return 1
			}
			return -1
		}
		return cmp.Compare(b.plies, a.plies)
	})
	if len(cands) == 0 {
		var zero M
		return zero, false
	}
	return cands[0].m, true
}
