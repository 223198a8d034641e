package engine

import (
	"context"
	"time"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/server/wire"
)

// The proof searches' budgets in an analysis and a review, beside the
// alpha-beta search's time: the proof-number solver's positions and time
// (half a second at most, much less when a position settles), then the
// threat-only proof search's horizon and nodes (ai.Profile.ForcedResult),
// which reaches deeper along threats.
const (
	solverNodes = 5_000
	solverTime  = 500 * time.Millisecond
	solverHash  = 2 // MiB
	// ProofPlies and ProofNodes bound the threat-only search.
	ProofPlies = 9
	ProofNodes = 300_000
)

// Prove is the proof searches' verdict on st (a position of a game whose
// earlier positions are hist, nil for none): the proof-number solver's
// with pv (none when nil), and the threat-only search's; when both prove
// the win, the shorter bound. nil when neither proves a win or a loss.
func Prove(ctx context.Context, gm *games.Game, pv ai.Prover, st game.State, hist []uint64) *wire.Proven {
	var best *wire.Proven
	if pv != nil {
		pctx, cancel := context.WithTimeout(ctx, solverTime)
		pf, err := pv.Settle(pctx, st, hist, solverNodes)
		cancel()
		if err == nil && pf.Proven() {
			best = ProvenOf(pf)
		}
	}
	if n, err := gm.AI.ForcedResult(ctx, st, ProofPlies, ProofNodes); err == nil && n != 0 {
		winner, moves := int(st.Side()), n
		if n < 0 {
			winner, moves = 1-winner, -n
		}
		// A win or loss in one is the shortest (it tries every move
		// there); longer, it is the shortest made of threats only.
		if best == nil || moves < best.Moves {
			best = &wire.Proven{Winner: winner, Moves: moves, Exact: moves == 1}
		}
	}
	return best
}

// ProvenOf is a prover's proof of a win or loss as the API says it, the
// winner a side's index.
func ProvenOf(pf ai.Proof) *wire.Proven {
	w, _ := pf.Result.Winner()
	return &wire.Proven{Winner: int(w), Moves: pf.Moves, Exact: pf.Exact, Line: pf.Line}
}

// Prover is the proof-number solver of the game of rules, nil for a game
// without one.
func Prover(rules game.Rules) ai.Prover {
	if gm, err := games.Lookup(rules.Spec().Name); err == nil && gm.Solver != nil {
		return gm.Solver.Prover(solverHash)
	}
	return nil
}
