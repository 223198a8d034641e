package analysis

import (
	"context"
	"time"

	"github.com/magneton-games/magneton/engine"
	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/server/wire"
)

// The review's proof budgets beyond engine.Prove's on every position
// (the solver's 5,000 positions or half a second, then the threat-only
// search): they are spent only on the moves the proofs judge, a few in a
// game.
const (
	// recheckNodes and recheckTime bound the second proof search of a
	// position after a move from a proven win, when the first found no
	// win left: a slower win kept is no mistake, and a first search of
	// 5,000 positions misses some.
	recheckNodes = 50_000
	recheckTime  = 2 * time.Second
)

// checkProofs looks again, with the proof searches, at the move into the
// position of g just evaluated (e): a proven win after a proven win is
// searched again when the first search lost it; a win the move lets the
// opponent gets its refutation line, and the engine's move there is
// proved too, so that a move in a position lost anyway is no blunder.
func (rw *reviewer) checkProofs(ctx context.Context, g *game.Game, e *wire.ReviewEval) {
	if rw.pv == nil || e.Result != "" {
		return
	}
	states := g.States()
	before := states[len(states)-2]
	prev := &rw.evals[len(rw.evals)-1]
	side := int(before.Side())
	played := g.Moves()[len(g.Moves())-1]
	if prev.Proven != nil && prev.Proven.Winner == side && (e.Proven == nil || e.Proven.Winner != side) {
		pctx, cancel := context.WithTimeout(ctx, recheckTime)
		pf, err := rw.pv.Settle(pctx, g.Position(), engine.Hashes(g), recheckNodes)
		cancel()
		if err == nil && pf.Proven() {
			e.Proven = engine.ProvenOf(pf)
		}
	}
	lets := e.Proven != nil && e.Proven.Winner != side && (prev.Proven == nil || prev.Proven.Winner == side)
	if !lets {
		return
	}
	if len(e.Proven.Line) == 0 {
		e.Proven.Line = engine.ProofLine(ctx, rw.pv, g.Position(), engine.Hashes(g), 2*e.Proven.Moves-1)
	}
	if prev.Best == "" || prev.Best == played {
		return
	}
	alt, err := before.Play(prev.Best)
	if err != nil {
		return
	}
	if res, _ := alt.Outcome(); res.Over() {
		return // the engine's move ends the game: a win, no proof needed
	}
	if gm, err := games.Lookup(alt.Rules().Spec().Name); err == nil {
		prev.BestAfter = engine.Prove(ctx, gm, rw.pv, alt, engine.Hashes(g))
	}
}
