package analysis

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/server/jsonapi"
	"github.com/magneton-games/magneton/server/wire"
)

// maxPlayMoves bounds the moves of one POST /api/play.
const maxPlayMoves = 1000

// playRequest asks the rules engine to play moves from a position.
type playRequest struct {
	Game     string   `json:"game"`
	Rules    string   `json:"rules"`
	Position string   `json:"position"` // "" or "start" for the start
	Moves    []string `json:"moves"`
}

// requestPosition reads a request's game, rules and position ("" or
// "start" for the start), answering 400 with what is wrong when it cannot.
func requestPosition(w http.ResponseWriter, name, settings, position string) (game.Rules, game.State, bool) {
	rules, err := games.Rules(name, settings)
	if err != nil {
		jsonapi.WriteError(w, http.StatusBadRequest, err.Error())
		return nil, nil, false
	}
	st := rules.Start()
	if p := strings.TrimSpace(position); p != "" && p != "start" {
		if st, err = rules.ParsePosition(p); err != nil {
			jsonapi.WriteCoded(w, http.StatusBadRequest, "bad_position", "position: "+err.Error(), wire.Because(err, "invalid", "position "+strconv.Quote(p))...)
			return nil, nil, false
		}
	}
	return rules, st, true
}

// handlePlay plays moves from a position with the rules engine, for the
// analysis board and the lessons, which have no rules of their own: the
// positions after each move, and the last one's legal moves and result. A
// wrong position or move is a 400 that says which and why.
func (a *Analysis) handlePlay(w http.ResponseWriter, r *http.Request) {
	var req playRequest
	if !jsonapi.Read(w, r, &req) {
		return
	}
	if len(req.Moves) > maxPlayMoves {
		jsonapi.WriteError(w, http.StatusBadRequest, fmt.Sprintf("moves: at most %d, not %d", maxPlayMoves, len(req.Moves)))
		return
	}
	_, st, ok := requestPosition(w, req.Game, req.Rules, req.Position)
	if !ok {
		return
	}
	var err error
	out := wire.Played{Start: st.String(), Positions: []string{}}
	for i, mv := range req.Moves {
		if res, why := st.Outcome(); res.Over() {
			jsonapi.WriteCoded(w, http.StatusBadRequest, "play_over", fmt.Sprintf("move %d %s: the game is over (%s, %s)", i+1, mv, res, why), "move", mv, "result", res.String(), "reason", fmt.Sprint(why))
			return
		}
		if st, err = st.Play(mv); err != nil {
			jsonapi.WriteCoded(w, http.StatusBadRequest, "illegal_move", fmt.Sprintf("move %d: %v", i+1, err), append([]string{"move", mv}, wire.Because(err, "illegal", mv)...)...)
			return
		}
		out.Positions = append(out.Positions, st.String())
	}
	res, why := st.Outcome()
	out.Position, out.Turn, out.Result, out.Reason = st.String(), int(st.Side()), res.String(), why.String()
	out.Legal = []string{}
	if !res.Over() {
		out.Legal = st.Moves()
	}
	jsonapi.Write(w, http.StatusOK, out)
}
