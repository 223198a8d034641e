package puzzles

import (
	"context"
	"math"
	"net/http"
	"time"

	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/puzzle"
	"github.com/magneton-games/magneton/server/jsonapi"
	"github.com/magneton-games/magneton/server/wire"
)

// historyLimit is the most attempts the history page shows.
const historyLimit = 500

// historyPlay is one attempt on the history page.
type historyPlay struct {
	Puzzle string   `json:"puzzle"`
	Game   string   `json:"game"`
	Solved bool     `json:"solved"`
	Rated  bool     `json:"rated"`
	Rating int      `json:"rating,omitempty"` // after a rated attempt
	Diff   int      `json:"diff"`
	At     int64    `json:"at"`
	WinIn  int      `json:"win_in,omitempty"`
	Themes []string `json:"themes,omitempty"`
}

// handleHistory answers an account's attempts at puzzles (?game=, all
// without), newest first, with the puzzles' lengths and themes, and the
// counts of attempts and solves: lichess's puzzle dashboard.
func (h *Puzzles) handleHistory(w http.ResponseWriter, r *http.Request) {
	userID, _ := h.identities.Identity(r)
	if userID == "" {
		jsonapi.WriteCoded(w, http.StatusUnauthorized, "puzzle_login", "log in to keep a history of your puzzles")
		return
	}
	gameName := r.URL.Query().Get("game")
	if gameName != "" {
		g, err := games.Lookup(gameName)
		if err != nil {
			h.puzzleError(w, r, wire.Refusal{Msg: err.Error()})
			return
		}
		gameName = g.Spec.Name
	}
	plays, err := h.st.PuzzlePlays(r.Context(), userID, gameName, historyLimit)
	if err != nil {
		jsonapi.Fail(w, r, h.log, err)
		return
	}
	out := []historyPlay{}
	solved := 0
	for _, p := range plays {
		hp := historyPlay{Puzzle: p.Puzzle, Game: p.Game, Solved: p.Solved, Rated: p.Rated, Diff: p.Diff, At: p.At}
		if p.Rated {
			hp.Rating = int(math.Round(p.Rating))
		}
		if pz, err := findPuzzle(p.Puzzle); err == nil {
			hp.WinIn, hp.Themes = pz.WinIn, pz.Themes
		}
		if p.Solved {
			solved++
		}
		out = append(out, hp)
	}
	jsonapi.Write(w, http.StatusOK, map[string]any{"game": gameName, "plays": out, "attempts": len(out), "solved": solved})
}

// refuteTime bounds the search for the answer to a wrong move
// (Puzzles.refuteTime, which tests shorten).
const refuteTime = 5 * time.Second

// handleRefute answers a wrong move at one of the solver's turns:
// {"ply": 0, "move": "d4"} (ply: the plies of the line played before it)
// gets the opponent's reply that refutes it (puzzle.Refute): its proven
// win, or the engine's best move; the search waits for one of the
// analyses' slots (429 analysis_busy when none frees in time).
func (h *Puzzles) handleRefute(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Ply  int    `json:"ply"`
		Move string `json:"move"`
	}
	if !jsonapi.Read(w, r, &req) {
		return
	}
	pz, err := findPuzzle(r.PathValue("id"))
	if err != nil {
		h.puzzleError(w, r, err)
		return
	}
	if h.searches != nil {
		wait, stop := context.WithTimeout(r.Context(), h.refuteTime)
		slot, err := h.searches.Analysis(wait, h.clientIP(r))
		stop()
		if err != nil {
			jsonapi.WriteCoded(w, http.StatusTooManyRequests, "analysis_busy", "the server is busy with other analyses; try again in a moment")
			return
		}
		defer slot()
	}
	ctx, cancel := context.WithTimeout(r.Context(), h.refuteTime)
	defer cancel()
	ref, err := puzzle.Refute(ctx, pz, req.Ply, req.Move)
	if err != nil {
		// Out of time: the search's own error need not wrap the
		// context's, which says what happened (503 too_slow; the page
		// then shows the wrong move alone).
		if ctx.Err() != nil {
			jsonapi.Fail(w, r, h.log, ctx.Err())
			return
		}
		h.puzzleError(w, r, wire.Refusef("%v", err))
		return
	}
	jsonapi.Write(w, http.StatusOK, map[string]any{
		"move": ref.Move, "position": ref.Position, "ends": ref.Ends, "result": ref.Result,
		"reply": ref.Reply, "after": ref.After, "reply_wins_in": ref.ReplyWinsIn, "still_wins_in": ref.StillWinsIn,
	})
}
