package server

import (
	"fmt"
	"net/http"
	"strings"
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

// playAnswer is the rules engine's account of a position after moves.
type playAnswer struct {
	Start     string   `json:"start"`
	Positions []string `json:"positions"` // after each move
	Position  string   `json:"position"`  // after the last
	Turn      int      `json:"turn"`
	Legal     []string `json:"legal"`
	Result    string   `json:"result"`
	Reason    string   `json:"reason"`
}

// handlePlay plays moves from a position with the rules engine, for the
// analysis board and the lessons, which have no rules of their own: the
// positions after each move, and the last one's legal moves and result.
// A wrong position or move is a 400 that says which and why.
func (s *Server) handlePlay(w http.ResponseWriter, r *http.Request) {
	var req playRequest
	if !readJSON(w, r, &req) {
		return
	}
	if len(req.Moves) > maxPlayMoves {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("moves: at most %d, not %d", maxPlayMoves, len(req.Moves)))
		return
	}
	_, st, ok := requestPosition(w, req.Game, req.Rules, req.Position)
	if !ok {
		return
	}
	var err error
	out := playAnswer{Start: st.String(), Positions: []string{}}
	for i, mv := range req.Moves {
		if res, why := st.Outcome(); res.Over() {
			writeCoded(w, http.StatusBadRequest, "play_over", fmt.Sprintf("move %d %s: the game is over (%s, %s)", i+1, mv, res, why), "move", mv, "result", res.String(), "reason", fmt.Sprint(why))
			return
		}
		if st, err = st.Play(mv); err != nil {
			writeCoded(w, http.StatusBadRequest, "illegal_move", fmt.Sprintf("move %d: %v", i+1, err), "move", mv, "why", strings.TrimPrefix(err.Error(), mv+": "))
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
	writeJSON(w, http.StatusOK, out)
}
