package analysis

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"runtime/debug"
	"time"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/engine"
	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/server/jsonapi"
	"github.com/magneton-games/magneton/server/live"
	"github.com/magneton-games/magneton/server/wire"
	"github.com/magneton-games/magneton/store"
)

// A game review is the engine's evaluation of every position of a
// finished game, computed in the background (one review at a time per
// instance, each position taking an analysis slot so that interactive
// analyses go on meanwhile), saved after each position, and shown to
// anyone who replays the game: an evaluation graph, and each move that
// lost much of the mover's chances marked, with the engine's better move.

// DefaultReviewMoveTime is the engine's time for one position of a
// review.
const DefaultReviewMoveTime = 300 * time.Millisecond

// reviewStale is how long a running review may go without progress
// before another request (on any instance) takes it over: its instance
// stopped.
const reviewStale = 2 * time.Minute

// Mistake thresholds: the mover's winning chances (in percent) lost by
// a move, as lichess marks chess moves.
const (
	inaccuracyLoss = 10
	mistakeLoss    = 20
	blunderLoss    = 30
)

// winChance is the chance (0 to 100) of side in the position, as a
// logistic of the score (lichess's curve for chess centipawns; our
// evaluations are on a comparable scale of hundredths).
func winChance(e wire.ReviewEval, side int) float64 {
	sign := 1.0
	if side == 1 {
		sign = -1
	}
	switch {
	case e.Proven != nil && e.Proven.Winner == side:
		return 100
	case e.Proven != nil:
		return 0
	case e.Result == game.Draw.String():
		return 50
	case e.Result != "":
		first := 0.0
		if e.Result == game.FirstWins.String() {
			first = 100
		}
		if side == 1 {
			return 100 - first
		}
		return first
	case e.Mate != 0:
		if float64(e.Mate)*sign > 0 {
			return 100
		}
		return 0
	}
	return 50 + 50*(2/(1+math.Exp(-0.00368208*float64(e.CP)*sign))-1)
}

// Judge marks the moves of a game from its positions' evaluations. The
// proof searches' verdicts come first, whatever the scores say: a move
// that keeps a proven win is never marked, even when it is slower; one
// that lets the opponent a proven win the mover could have avoided, or
// throws away the mover's proven win, is a blunder (Lets, Threw). The
// other moves are marked by the winning chances they lose.
func Judge(moves []string, sides []int, evals []wire.ReviewEval) ([]wire.ReviewMove, []wire.ReviewSide) {
	out := []wire.ReviewMove{}
	counts := make([]wire.ReviewSide, 2)
	for i, mv := range moves {
		if i+1 >= len(evals) {
			break
		}
		side := sides[i]
		rm := wire.ReviewMove{Ply: i, Move: mv, Side: side}
		rm.Loss = math.Round(max(winChance(evals[i], side)-winChance(evals[i+1], side), 0)*10) / 10
		if best := evals[i].Best; best != "" && best != mv {
			rm.Best = best
			rm.Lets, rm.Threw = proofBlunder(evals[i], evals[i+1], side)
			if ba := evals[i].BestAfter; ba != nil && ba.Winner != side {
				rm.Loss = 0 // the engine's move loses by proof too: lost already
			}
			switch {
			case keptWin(evals[i], evals[i+1], side):
				// A proven win kept: never a mistake, however slower.
			case rm.Lets != nil || rm.Threw != nil || rm.Loss >= blunderLoss:
				rm.Class = "blunder"
				counts[side].Blunders++
			case rm.Loss >= mistakeLoss:
				rm.Class = "mistake"
				counts[side].Mistakes++
			case rm.Loss >= inaccuracyLoss:
				rm.Class = "inaccuracy"
				counts[side].Inaccuracies++
			}
		}
		out = append(out, rm)
	}
	return out, counts
}

// keptWin reports whether side, proven to win before its move, still
// wins by proof (or has won) after it.
func keptWin(before, after wire.ReviewEval, side int) bool {
	return before.Proven != nil && before.Proven.Winner == side &&
		(after.Result == game.WinFor(game.Side(side)).String() || after.Proven != nil && after.Proven.Winner == side)
}

// proofBlunder is what the proofs say of side's move from before to
// after: lets, the opponent's proven win after it, when the mover was not
// lost by proof already (before, or after the engine's move); threw, the
// mover's proven win before it when none is proven after it.
func proofBlunder(before, after wire.ReviewEval, side int) (lets, threw *wire.Proven) {
	won := before.Proven != nil && before.Proven.Winner == side
	lostBefore := before.Proven != nil && before.Proven.Winner != side
	lostAnyway := before.BestAfter != nil && before.BestAfter.Winner != side
	switch {
	case after.Proven != nil && after.Proven.Winner != side && !lostBefore && !lostAnyway:
		return after.Proven, nil
	case won && !keptWin(before, after, side):
		return nil, before.Proven
	}
	return nil, nil
}

// reviewed is what a review says of a stored game.
func reviewed(row *store.Game, moves []store.Move, rv *store.Review) (wire.Review, error) {
	m := wire.Review{Status: rv.Status, Done: rv.Done, Total: rv.Total, Evals: []wire.ReviewEval{}, Moves: []wire.ReviewMove{}, Sides: []wire.ReviewSide{}}
	if err := json.Unmarshal([]byte(rv.Data), &m.Evals); err != nil {
		return m, fmt.Errorf("review of %s: %w", row.ID, err)
	}
	if rv.Status != store.ReviewDone {
		return m, nil
	}
	g, _, err := live.Replay(row, moves)
	if err != nil {
		return m, err
	}
	var sides []int
	for _, st := range g.States()[:len(g.Moves())] {
		sides = append(sides, int(st.Side()))
	}
	m.Moves, m.Sides = Judge(g.Moves(), sides, m.Evals)
	return m, nil
}

// handleReview answers a game's review, starting again one whose
// instance stopped.
func (a *Analysis) handleReview(w http.ResponseWriter, r *http.Request) {
	id, ok := jsonapi.PathID(w, r)
	if !ok {
		return
	}
	a.answerReview(w, r, id, false)
}

// handleStartReview starts a finished game's review (or answers the one
// there is).
func (a *Analysis) handleStartReview(w http.ResponseWriter, r *http.Request) {
	if id, ok := jsonapi.PathIDAndEmptyBody(w, r); ok {
		a.answerReview(w, r, id, true)
	}
}

func (a *Analysis) answerReview(w http.ResponseWriter, r *http.Request, id string, start bool) {
	ctx := r.Context()
	row, err := a.cfg.Store.Game(ctx, id)
	if err != nil {
		jsonapi.Fail(w, r, a.cfg.Logger, err)
		return
	}
	moves, err := a.cfg.Store.Moves(ctx, id)
	if err != nil {
		jsonapi.Fail(w, r, a.cfg.Logger, err)
		return
	}
	rv, err := a.cfg.Store.Review(ctx, id)
	switch {
	case errors.Is(err, store.ErrNoReview) && !start:
		jsonapi.Write(w, http.StatusOK, wire.Review{Status: "none", Total: len(moves) + 1, Evals: []wire.ReviewEval{}, Moves: []wire.ReviewMove{}, Sides: []wire.ReviewSide{}})
		return
	case errors.Is(err, store.ErrNoReview):
	case err != nil:
		jsonapi.Fail(w, r, a.cfg.Logger, err)
		return
	}
	stale := rv != nil && rv.Status == store.ReviewRunning && rv.Updated < time.Now().Add(-reviewStale).UnixMilli()
	if rv == nil || stale {
		switch {
		case row.Status != store.Finished:
			jsonapi.WriteCoded(w, http.StatusConflict, "review_not_over", "a game is reviewed once it is over")
			return
		case len(moves) == 0:
			jsonapi.WriteCoded(w, http.StatusBadRequest, "review_no_moves", "the game has no move to review")
			return
		}
		if rv == nil && !a.cfg.Clients.AllowAnalysis(a.cfg.Proxies.ClientIP(r)) {
			jsonapi.WriteCoded(w, http.StatusTooManyRequests, "review_many", "too many analyses: wait a little before asking for a review")
			return
		}
		if rv, err = a.startReview(ctx, row, len(moves)+1); err != nil {
			jsonapi.Fail(w, r, a.cfg.Logger, err)
			return
		}
	}
	m, err := reviewed(row, moves, rv)
	if err != nil {
		jsonapi.Fail(w, r, a.cfg.Logger, err)
		return
	}
	status := http.StatusOK
	if start && m.Status != store.ReviewDone {
		status = http.StatusAccepted
	}
	jsonapi.Write(w, status, m)
}

// startReview records a review as this instance's and starts computing
// it in the background, unless another instance computes it.
func (a *Analysis) startReview(ctx context.Context, row *store.Game, total int) (*store.Review, error) {
	now := time.Now()
	rv := &store.Review{Game: row.ID, Status: store.ReviewRunning, Total: total, Instance: a.cfg.Instance, Updated: now.UnixMilli(), Data: "[]"}
	got, mine, err := a.cfg.Store.StartReview(ctx, rv, now.Add(-reviewStale).UnixMilli())
	if err != nil {
		return nil, err
	}
	if mine && !a.closing.Load() {
		a.wg.Add(1)
		go func() {
			defer a.wg.Done()
			defer func() {
				// A fault in a review stops it, not the process: a later
				// request starts it again once it is stale.
				if p := recover(); p != nil {
					a.cfg.Logger.Error("panic in a review", "game", row.ID, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
					a.faulted(got)
				}
			}()
			if err := a.runReview(got); err != nil && !errors.Is(err, context.Canceled) {
				a.cfg.Logger.Warn("review stopped", "game", row.ID, "err", err)
			}
		}()
	}
	return got, nil
}

// faulted lets the next request start a review over at once after its
// first panic on this instance, rather than once it is stale: a passing
// fault does not keep the review away for minutes. After a second panic
// it waits for reviewStale, so that a fault that strikes every time is
// not tried again at every poll of the page.
func (a *Analysis) faulted(rv *store.Review) {
	a.mu.Lock()
	a.panics[rv.Game]++
	again := a.panics[rv.Game] > 1
	a.mu.Unlock()
	if again {
		return
	}
	ctx, cancel := context.WithTimeout(a.ctx, a.cfg.WriteTimeout)
	defer cancel()
	rv.Updated = 0 // stale: taken over by the next request
	if err := a.cfg.Store.SaveReview(ctx, rv); err != nil {
		a.cfg.Logger.Warn("a faulted review not released", "game", rv.Game, "err", err)
	}
}

// runReview computes a review from where it stands, saving it after each
// position.
func (a *Analysis) runReview(rv *store.Review) error {
	select {
	case a.reviews <- struct{}{}: // one review at a time
	case <-a.ctx.Done():
		return a.ctx.Err()
	}
	defer func() { <-a.reviews }()
	rw, err := a.reviewer(rv)
	if err != nil {
		return err
	}
	if err := rw.run(a); err != nil {
		return err
	}
	a.cfg.Logger.Info("game reviewed", "game", rv.Game, "positions", rv.Total)
	return nil
}

// reviewer is a review being computed: the game, the evaluations so far,
// the engine and the game's prover, whose table carries a proof from a
// position to the next.
type reviewer struct {
	rv    *store.Review
	row   *store.Game
	full  *game.Game
	evals []wire.ReviewEval
	t     ai.Thinker
	pv    ai.Prover
}

// reviewer reads a review's game and evaluations so far, and makes its
// engine.
func (a *Analysis) reviewer(rv *store.Review) (*reviewer, error) {
	ctx := a.ctx
	row, err := a.cfg.Store.Game(ctx, rv.Game)
	if err != nil {
		return nil, err
	}
	moves, err := a.cfg.Store.Moves(ctx, rv.Game)
	if err != nil {
		return nil, err
	}
	full, rules, err := live.Replay(row, moves)
	if err != nil {
		return nil, err
	}
	rw := &reviewer{rv: rv, row: row, full: full, pv: engine.Prover(rules)}
	if err := json.Unmarshal([]byte(rv.Data), &rw.evals); err != nil {
		return nil, fmt.Errorf("review data: %w", err)
	}
	p, err := games.NewPlayer("level:8", rules, ai.Config{HashMB: a.cfg.Pool.TableMB(8)})
	if err != nil {
		return nil, err
	}
	var ok bool
	if rw.t, ok = p.(ai.Thinker); !ok {
		return nil, fmt.Errorf("the level 8 player of %s does not search", rules.Spec().Title)
	}
	return rw, nil
}

// run evaluates the positions not evaluated yet, saving after each.
func (rw *reviewer) run(a *Analysis) error {
	all := rw.full.Moves()
	// One game, a move further each position (the searches only read it).
	g := game.NewGame(rw.full.Start())
	for ply := 0; ply <= len(all); ply++ {
		if ply > 0 {
			if err := g.Play(all[ply-1]); err != nil {
				return fmt.Errorf("replay move %d %s: %w", ply, all[ply-1], err)
			}
		}
		if ply < len(rw.evals) {
			continue // evaluated before a takeover
		}
		// The solver is asked on every position, within engine.Prove's
		// budget: a move that lets the opponent a proven win is a
		// blunder, and the search alone does not see wins of several
		// quiet moves.
		e, err := a.evaluate(a.ctx, rw.t, rw.pv, rw.pv, g, ply)
		if err != nil {
			return err
		}
		if ply > 0 {
			rw.checkProofs(a.ctx, g, &e)
		}
		if ply == len(all) && e.Result == "" && rw.row.Result != game.Ongoing.String() {
			e.Result = rw.row.Result // ended from outside the rules (resignation, time)
		}
		if err := rw.save(a, e); err != nil {
			return err // another instance took it over, or the database is away: a later request starts it again
		}
	}
	return nil
}

// save adds a position's evaluation to the review and saves it.
func (rw *reviewer) save(a *Analysis, e wire.ReviewEval) error {
	rw.evals = append(rw.evals, e)
	data, _ := json.Marshal(rw.evals)
	rv := rw.rv
	rv.Done, rv.Updated, rv.Data = len(rw.evals), time.Now().UnixMilli(), string(data)
	if rv.Done == rv.Total {
		rv.Status = store.ReviewDone
	}
	ctx, cancel := context.WithTimeout(a.ctx, a.cfg.WriteTimeout)
	defer cancel()
	return a.cfg.Store.SaveReview(ctx, rv)
}

// evaluate searches one position of a review within an analysis slot.
// pv is the prover of the review, which it asks when the search sees a
// forced result; solver is pv when it is asked whatever the search sees.
func (a *Analysis) evaluate(ctx context.Context, t ai.Thinker, pv, solver ai.Prover, g *game.Game, ply int) (wire.ReviewEval, error) {
	e := wire.ReviewEval{Ply: ply}
	if res, _ := g.Result(); res.Over() {
		e.Result = res.String()
		return e, nil
	}
	hook("review")
	slot, err := a.cfg.Pool.Analysis(ctx, "reviews") // the reviews take turns as one client
	if err != nil {
		return e, err
	}
	defer slot()
	sctx, cancel := context.WithTimeout(ctx, a.cfg.ReviewMoveTime+2*time.Second)
	defer cancel()
	in, err := t.Think(sctx, g, ai.Limits{MoveTime: a.cfg.ReviewMoveTime}, nil)
	if err != nil {
		return e, fmt.Errorf("review position %d: %w", ply, err)
	}
	sign := 1
	if g.Position().Side() == game.Second {
		sign = -1
	}
	e.CP, e.Mate, e.Best, e.Depth = in.Score*sign, in.Mate*sign, in.BestMove, in.Depth
	if len(in.PV) > 6 {
		in.PV = in.PV[:6]
	}
	e.PV = in.PV
	if e.Mate != 0 {
		e.CP = 0
	}
	if in.Proven != nil {
		e.Proven = engine.ProvenOf(*in.Proven)
	} else if gm, err := games.Lookup(g.Position().Rules().Spec().Name); err == nil {
		if in.Mate != 0 {
			solver = pv
		}
		e.Proven = engine.Prove(sctx, gm, solver, g.Position(), engine.Hashes(g))
	}
	return e, nil
}
