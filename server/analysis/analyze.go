package analysis

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/server/jsonapi"
	"github.com/magneton-games/magneton/server/wire"
)

// analyzeRequest is the body of POST /api/analyze.
type analyzeRequest struct {
	Game       string `json:"game"`
	Rules      string `json:"rules"`
	Position   string `json:"position"`
	MoveTimeMS int    `json:"movetime_ms"`
	// MultiPV asks for this many lines, 1 to 3 (0: 1).
	MultiPV int `json:"multipv"`
}

func lineOf(in ai.Info) wire.AnalysisLine {
	l := wire.AnalysisLine{Score: fmt.Sprintf("%+.2f", float64(in.Score)/100), PV: in.PV, Depth: in.Depth}
	if in.Mate != 0 {
		l.Score = fmt.Sprintf("mate %d", in.Mate)
	}
	if len(l.PV) == 0 {
		l.PV = []string{in.BestMove}
	}
	return l
}

// maxMoveTime is the longest analysis.
const maxMoveTime = 5 * time.Second

// checkAnalyze reads an analysis request's limits, filling the defaults;
// "" when they are fine, else what is wrong.
func checkAnalyze(req *analyzeRequest) string {
	if req.MoveTimeMS == 0 {
		req.MoveTimeMS = 1000
	}
	if req.MoveTimeMS < 100 || req.MoveTimeMS > int(maxMoveTime/time.Millisecond) {
		return fmt.Sprintf("movetime_ms %d: want 100 to %d", req.MoveTimeMS, maxMoveTime/time.Millisecond)
	}
	if req.MultiPV == 0 {
		req.MultiPV = 1
	}
	if req.MultiPV < 1 || req.MultiPV > 3 {
		return fmt.Sprintf("multipv %d: want 1 to 3", req.MultiPV)
	}
	return ""
}

func (a *Analysis) handleAnalyze(w http.ResponseWriter, r *http.Request) {
	var req analyzeRequest
	if !jsonapi.Read(w, r, &req) {
		return
	}
	rules, st, ok := requestPosition(w, req.Game, req.Rules, req.Position)
	if !ok {
		return
	}
	if why := checkAnalyze(&req); why != "" {
		jsonapi.WriteError(w, http.StatusBadRequest, why)
		return
	}
	g := game.NewGame(st)
	if res, why := g.Result(); res.Over() {
		jsonapi.WriteCoded(w, http.StatusBadRequest, "position_over", fmt.Sprintf("the game is over in this position (%s, %s)", res, why), "result", res.String(), "reason", fmt.Sprint(why))
		return
	}
	if !a.fairPlay(w, r, st) {
		return
	}
	done, refusal := a.cfg.Clients.StartAnalysis(a.cfg.Proxies.ClientIP(r))
	if refusal != nil {
		jsonapi.WriteRefusal(w, http.StatusTooManyRequests, refusal)
		return
	}
	defer done()
	// Wait for a free slot as long as the longest analysis takes, then
	// give up.
	wait, cancel := context.WithTimeout(r.Context(), maxMoveTime+time.Second)
	slot, err := a.cfg.Pool.Analysis(wait, a.cfg.Proxies.ClientIP(r))
	cancel()
	if err != nil {
		jsonapi.WriteCoded(w, http.StatusTooManyRequests, "analysis_busy", "the server is busy with other analyses; try again in a moment")
		return
	}
	defer slot()
	out, err := a.analyze(r.Context(), rules, g, req)
	if err != nil {
		jsonapi.Fail(w, r, a.cfg.Logger, err)
		return
	}
	jsonapi.Write(w, http.StatusOK, out)
}

// fairPlay refuses the engine for the position of the requester's own game
// against a person while it is played; false when it has answered.
func (a *Analysis) fairPlay(w http.ResponseWriter, r *http.Request, st game.State) bool {
	userID, guest := a.cfg.Identities.Player(r)
	if userID == "" && guest == "" {
		return true
	}
	playing, err := a.cfg.Store.PlaysPosition(r.Context(), st.String(), userID, guest)
	if err != nil {
		jsonapi.Fail(w, r, a.cfg.Logger, err)
		return false
	}
	if playing {
		jsonapi.WriteCoded(w, http.StatusForbidden, "fair_play", "this is the position of a game you are playing against a person: the engine's analysis opens once it is over")
		return false
	}
	return true
}

// analyze searches g's position for the request's lines, then asks the
// proof searches.
func (a *Analysis) analyze(ctx context.Context, rules game.Rules, g *game.Game, req analyzeRequest) (wire.Analysis, error) {
	p, err := games.NewPlayer("level:8", rules, ai.Config{HashMB: a.cfg.Pool.TableMB(8)})
	if err != nil {
		return wire.Analysis{}, err
	}
	t, ok := p.(ai.Thinker)
	if !ok {
		return wire.Analysis{}, fmt.Errorf("analyze: the level 8 player of %s does not search", rules.Spec().Title)
	}
	ctx, cancel := context.WithTimeout(ctx, time.Duration(req.MoveTimeMS)*time.Millisecond+2*time.Second)
	defer cancel()
	lines, proof, err := searchLines(ctx, t, g, time.Duration(req.MoveTimeMS)*time.Millisecond, req.MultiPV)
	if err != nil {
		return wire.Analysis{}, err
	}
	st := g.Position()
	best := lines[0]
	out := wire.Analysis{Score: best.Score, Best: best.PV[0], PV: best.PV, Depth: best.Depth, Turn: int(st.Side()), Lines: lines}
	// The proof searches' verdict, the only "proven" claim: no evaluation
	// enters them. The search's own, when its endgame proof settled the
	// position, or else the server's, within small budgets.
	if proof != nil {
		out.Proven = provenOf(*proof, st.Side())
	} else if gm, err := games.Lookup(rules.Spec().Name); err == nil {
		out.Proven = prove(ctx, gm, prover(rules), st, nil)
	}
	return out, nil
}

// searchLines searches up to n lines in the time: the best first, then
// each without the moves of the lines before (multi-PV), sharing the time.
// It returns the best line's proof, when the player's endgame proof
// settled it.
func searchLines(ctx context.Context, t ai.Thinker, g *game.Game, total time.Duration, n int) ([]wire.AnalysisLine, *ai.Proof, error) {
	each := total / time.Duration(n)
	var lines []wire.AnalysisLine
	var exclude []string
	var proof *ai.Proof
	for len(lines) < n {
		in, err := t.Think(ctx, g, ai.Limits{MoveTime: each, Exclude: exclude}, nil)
		if err != nil && len(lines) == 0 {
			return nil, nil, fmt.Errorf("analyze: %w", err)
		}
		if err != nil || in.BestMove == "" || slices.Contains(exclude, in.BestMove) {
			break // no other move, or a player that cannot exclude
		}
		if len(lines) == 0 {
			proof = in.Proven
		}
		lines = append(lines, lineOf(in))
		exclude = append(exclude, in.BestMove)
	}
	return lines, proof, nil
}
