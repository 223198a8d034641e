package analysis

import (
	"net/http"

	"github.com/magneton-games/magneton/engine"
	"github.com/magneton-games/magneton/server/jsonapi"
)

// handlePlay plays moves from a position with the rules engine, for the
// analysis board and the lessons, which have no rules of their own
// (engine.Play). A wrong position or move is a 400 that says which and
// why.
func (a *Analysis) handlePlay(w http.ResponseWriter, r *http.Request) {
	var req engine.PlayRequest
	if !jsonapi.Read(w, r, &req) {
		return
	}
	out, err := engine.Play(req)
	if err != nil {
		jsonapi.WriteRefusal(w, http.StatusBadRequest, err)
		return
	}
	jsonapi.Write(w, http.StatusOK, out)
}
