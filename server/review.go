package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"time"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/store"
)

// A game review is the engine's evaluation of every position of a
// finished game, computed in the background (one review at a time per
// instance, each position taking an analysis slot so that interactive
// analyses go on meanwhile), saved after each position, and shown to
// anyone who replays the game: an evaluation graph, and each move that
// lost much of the mover's chances marked, with the engine's better move.

// defaultReviewMoveTime is the engine's time for one position of a
// review.
const defaultReviewMoveTime = 300 * time.Millisecond

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

// reviewEval is one position's evaluation, from the first side's point
// of view.
type reviewEval struct {
	Ply int `json:"ply"` // the position after this many moves
	// CP is the score in hundredths of the evaluation's unit; Mate the
	// moves to a forced end the search sees (positive: the first side
	// wins), 0 for none.
	CP    int      `json:"cp"`
	Mate  int      `json:"mate,omitempty"`
	Best  string   `json:"best,omitempty"`
	PV    []string `json:"pv,omitempty"`
	Depth int      `json:"depth,omitempty"`
	// Result is the game's result when the position ends it.
	Result string `json:"result,omitempty"`
	// Proven is the proof search's verdict, when it found one.
	Proven *provenResult `json:"proven,omitempty"`
}

// provenResult is a forced win a proof search proved: the winner and
// the winner's moves to it.
type provenResult struct {
	Winner int `json:"winner"`
	// Moves bounds the winner's moves to the win: the proof's longest
	// line, or the shortest win when Exact.
	Moves int  `json:"moves"`
	Exact bool `json:"exact"`
}

// winChance is the chance (0 to 100) of side in the position, as a
// logistic of the score (lichess's curve for chess centipawns; our
// evaluations are on a comparable scale of hundredths).
func (e reviewEval) winChance(side int) float64 {
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

// reviewMove is a move as the review judges it.
type reviewMove struct {
	Ply  int    `json:"ply"` // 0 for the first move
	Move string `json:"move"`
	Side int    `json:"side"`
	// Loss is the mover's winning chance lost (percent points); Class
	// "inaccuracy", "mistake" or "blunder" (or none); Best the engine's
	// move there when it differs.
	Loss  float64 `json:"loss"`
	Class string  `json:"class,omitempty"`
	Best  string  `json:"best,omitempty"`
}

// reviewSide counts a side's marked moves.
type reviewSide struct {
	Inaccuracies int `json:"inaccuracies"`
	Mistakes     int `json:"mistakes"`
	Blunders     int `json:"blunders"`
}

// reviewMsg is GET /api/games/<id>/review's answer.
type reviewMsg struct {
	Status string       `json:"status"` // "none", "running" or "done"
	Done   int          `json:"done"`
	Total  int          `json:"total"`
	Evals  []reviewEval `json:"evals"`
	Moves  []reviewMove `json:"moves"`
	Sides  []reviewSide `json:"sides"`
}

// judge marks the moves of a game from its positions' evaluations.
func judge(moves []string, sides []int, evals []reviewEval) ([]reviewMove, []reviewSide) {
	out := []reviewMove{}
	counts := make([]reviewSide, 2)
	for i, mv := range moves {
		if i+1 >= len(evals) {
			break
		}
		side := sides[i]
		rm := reviewMove{Ply: i, Move: mv, Side: side}
		rm.Loss = math.Round(max(evals[i].winChance(side)-evals[i+1].winChance(side), 0)*10) / 10
		if best := evals[i].Best; best != "" && best != mv {
			rm.Best = best
			threw := evals[i].Proven != nil && evals[i].Proven.Winner == side &&
				(evals[i+1].Proven == nil || evals[i+1].Proven.Winner != side) && evals[i+1].Result != game.WinFor(game.Side(side)).String()
			switch {
			case rm.Loss >= blunderLoss || threw: // a proven win thrown away is a blunder, whatever the scores say
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

// reviewed is what a review says of a stored game.
func reviewed(row *store.Game, moves []store.Move, rv *store.Review) (reviewMsg, error) {
	m := reviewMsg{Status: rv.Status, Done: rv.Done, Total: rv.Total, Evals: []reviewEval{}, Moves: []reviewMove{}, Sides: []reviewSide{}}
	if err := json.Unmarshal([]byte(rv.Data), &m.Evals); err != nil {
		return m, fmt.Errorf("review of %s: %w", row.ID, err)
	}
	if rv.Status != store.ReviewDone {
		return m, nil
	}
	g, _, err := buildGame(row, moves)
	if err != nil {
		return m, err
	}
	var sides []int
	for _, st := range g.States()[:len(g.Moves())] {
		sides = append(sides, int(st.Side()))
	}
	m.Moves, m.Sides = judge(g.Moves(), sides, m.Evals)
	return m, nil
}

// handleReview answers a game's review, starting again one whose
// instance stopped.
func (s *Server) handleReview(w http.ResponseWriter, r *http.Request) {
	id, ok := pathID(w, r)
	if !ok {
		return
	}
	s.answerReview(w, r, id, false)
}

// handleStartReview starts a finished game's review (or answers the one
// there is).
func (s *Server) handleStartReview(w http.ResponseWriter, r *http.Request) {
	if id, ok := idAndEmptyBody(w, r); ok {
		s.answerReview(w, r, id, true)
	}
}

func (s *Server) answerReview(w http.ResponseWriter, r *http.Request, id string, start bool) {
	ctx := r.Context()
	row, err := s.st.Game(ctx, id)
	if err != nil {
		s.gameError(w, r, err)
		return
	}
	moves, err := s.st.Moves(ctx, id)
	if err != nil {
		s.gameError(w, r, err)
		return
	}
	rv, err := s.st.Review(ctx, id)
	switch {
	case errors.Is(err, store.ErrNoReview) && !start:
		writeJSON(w, http.StatusOK, reviewMsg{Status: "none", Total: len(moves) + 1, Evals: []reviewEval{}, Moves: []reviewMove{}, Sides: []reviewSide{}})
		return
	case errors.Is(err, store.ErrNoReview):
	case err != nil:
		s.gameError(w, r, err)
		return
	}
	stale := rv != nil && rv.Status == store.ReviewRunning && rv.Updated < millis(time.Now().Add(-reviewStale))
	if rv == nil || stale {
		switch {
		case row.Status != store.Finished:
			writeCoded(w, http.StatusConflict, "review_not_over", "a game is reviewed once it is over")
			return
		case len(moves) == 0:
			writeCoded(w, http.StatusBadRequest, "review_no_moves", "the game has no move to review")
			return
		}
		if rv == nil && !s.clients.allowAnalysis(s.clientIP(r)) {
			writeCoded(w, http.StatusTooManyRequests, "review_many", "too many analyses: wait a little before asking for a review")
			return
		}
		if rv, err = s.startReview(ctx, row, len(moves)+1); err != nil {
			s.gameError(w, r, err)
			return
		}
	}
	m, err := reviewed(row, moves, rv)
	if err != nil {
		s.gameError(w, r, err)
		return
	}
	status := http.StatusOK
	if start && m.Status != store.ReviewDone {
		status = http.StatusAccepted
	}
	writeJSON(w, status, m)
}

// startReview records a review as this instance's and starts computing
// it in the background, unless another instance computes it.
func (s *Server) startReview(ctx context.Context, row *store.Game, total int) (*store.Review, error) {
	now := time.Now()
	rv := &store.Review{Game: row.ID, Status: store.ReviewRunning, Total: total, Instance: s.cfg.Instance, Updated: millis(now), Data: "[]"}
	got, mine, err := s.st.StartReview(ctx, rv, millis(now.Add(-reviewStale)))
	if err != nil {
		return nil, err
	}
	if mine && !s.closing.Load() {
		s.bgWG.Add(1)
		go func() {
			defer s.bgWG.Done()
			if err := s.runReview(got); err != nil && !errors.Is(err, context.Canceled) {
				s.log.Warn("review stopped", "game", row.ID, "err", err)
			}
		}()
	}
	return got, nil
}

// runReview computes a review from where it stands, saving it after each
// position.
func (s *Server) runReview(rv *store.Review) error {
	select {
	case s.reviews <- struct{}{}: // one review at a time
	case <-s.ctx.Done():
		return s.ctx.Err()
	}
	defer func() { <-s.reviews }()
	ctx := s.ctx
	row, err := s.st.Game(ctx, rv.Game)
	if err != nil {
		return err
	}
	moves, err := s.st.Moves(ctx, rv.Game)
	if err != nil {
		return err
	}
	full, rules, err := buildGame(row, moves)
	if err != nil {
		return err
	}
	var evals []reviewEval
	if err := json.Unmarshal([]byte(rv.Data), &evals); err != nil {
		return fmt.Errorf("review data: %w", err)
	}
	p, err := games.NewPlayer("level:8", rules, ai.Config{HashMB: s.tableMB(8)})
	if err != nil {
		return err
	}
	t, ok := p.(ai.Thinker)
	if !ok {
		return fmt.Errorf("the level 8 player of %s does not search", rules.Spec().Title)
	}
	// One prover for the game: its table carries a proof from a position
	// to the next.
	var pv ai.Prover
	if gm, err := games.Lookup(rules.Spec().Name); err == nil && gm.Solver != nil {
		pv = gm.Solver.Prover(solverHash)
	}
	all := full.Moves()
	// One game, a move further each position (the searches only read it).
	g := game.NewGame(full.Start())
	for ply := 0; ply <= len(all); ply++ {
		if ply > 0 {
			if err := g.Play(all[ply-1]); err != nil {
				return fmt.Errorf("replay move %d %s: %w", ply, all[ply-1], err)
			}
		}
		if ply < len(evals) {
			continue // evaluated before a takeover
		}
		// The solver is asked where the search sees a forced result, or
		// the position before was proven: the endgame, not every opening
		// position, which it would not settle in its budget.
		solver := pv
		if len(evals) == 0 || evals[len(evals)-1].Proven == nil {
			solver = nil
		}
		e, err := s.evaluate(ctx, t, pv, solver, g, ply)
		if err != nil {
			return err
		}
		if ply == len(all) && e.Result == "" && row.Result != game.Ongoing.String() {
			e.Result = row.Result // ended from outside the rules (resignation, time)
		}
		evals = append(evals, e)
		data, _ := json.Marshal(evals)
		rv.Done, rv.Updated, rv.Data = len(evals), millis(time.Now()), string(data)
		if rv.Done == rv.Total {
			rv.Status = store.ReviewDone
		}
		wctx, cancel := context.WithTimeout(ctx, s.cfg.WriteTimeout)
		err = s.st.SaveReview(wctx, rv)
		cancel()
		if err != nil {
			return err // another instance took it over, or the database is away: a later request starts it again
		}
	}
	s.log.Info("game reviewed", "game", rv.Game, "positions", rv.Total)
	return nil
}

// hashes are the hashes of the positions of g before its current one.
func hashes(g *game.Game) []uint64 {
	states := g.States()
	out := make([]uint64, len(states)-1)
	for i, st := range states[:len(states)-1] {
		out[i] = st.Hash()
	}
	return out
}

// evaluate searches one position of a review within an analysis slot.
// pv is the prover of the review, which it asks when the search sees a
// forced result; solver is pv when it is asked whatever the search sees.
func (s *Server) evaluate(ctx context.Context, t ai.Thinker, pv, solver ai.Prover, g *game.Game, ply int) (reviewEval, error) {
	e := reviewEval{Ply: ply}
	if res, _ := g.Result(); res.Over() {
		e.Result = res.String()
		return e, nil
	}
	select {
	case s.analyses <- struct{}{}:
	case <-ctx.Done():
		return e, ctx.Err()
	}
	defer func() { <-s.analyses }()
	sctx, cancel := context.WithTimeout(ctx, s.cfg.ReviewMoveTime+2*time.Second)
	defer cancel()
	in, err := t.Think(sctx, g, ai.Limits{MoveTime: s.cfg.ReviewMoveTime}, nil)
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
		e.Proven = provenOf(*in.Proven, g.Position().Side())
	} else if gm, err := games.Lookup(g.Position().Rules().Spec().Name); err == nil {
		if in.Mate != 0 {
			solver = pv
		}
		e.Proven = s.prove(sctx, gm, solver, g.Position(), hashes(g))
	}
	return e, nil
}
