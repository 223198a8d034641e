package analysis

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/magneton-games/magneton/engine"
	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/server/jsonapi"
	"github.com/magneton-games/magneton/server/wire"
)

func (a *Analysis) handleAnalyze(w http.ResponseWriter, r *http.Request) {
	var req engine.AnalyzeRequest
	if !jsonapi.Read(w, r, &req) {
		return
	}
	rules, st, err := engine.Position(req.Game, req.Rules, req.Position)
	if err != nil {
		jsonapi.WriteRefusal(w, http.StatusBadRequest, err)
		return
	}
	if why := engine.CheckAnalyze(&req, engine.MaxMoveTime); why != "" {
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
	wait, cancel := context.WithTimeout(r.Context(), engine.MaxMoveTime+time.Second)
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
// proof searches (engine.Analyst).
func (a *Analysis) analyze(ctx context.Context, rules game.Rules, g *game.Game, req engine.AnalyzeRequest) (wire.Analysis, error) {
	an, err := engine.NewAnalyst(rules, a.cfg.Pool.TableMB(8), nil)
	if err != nil {
		return wire.Analysis{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, time.Duration(req.MoveTimeMS)*time.Millisecond+2*time.Second)
	defer cancel()
	return an.Analyze(ctx, g, time.Duration(req.MoveTimeMS)*time.Millisecond, req.MultiPV, nil)
}
