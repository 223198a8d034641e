package server

import (
	"fmt"
	"net/http"
	"time"
	"unicode/utf8"

	"github.com/magneton-games/magneton/games"
)

// Limits of a lesson progress request.
const (
	maxLessons  = 200
	maxLessonID = 40
)

// handleLearnProgress answers the lessons the account has solved, by game
// ({} for a guest, whose progress the browser keeps).
func (s *Server) handleLearnProgress(w http.ResponseWriter, r *http.Request) {
	userID, _ := s.requestIdentity(r)
	if userID == "" {
		writeJSON(w, http.StatusOK, map[string][]string{})
		return
	}
	got, err := s.st.LearnProgress(r.Context(), userID)
	if err != nil {
		s.gameError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, got)
}

// handleAddLearnProgress adds lessons of a game to those the account has
// solved: {"solved": ["drop", ...]}; it answers them all.
func (s *Server) handleAddLearnProgress(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Solved []string `json:"solved"`
	}
	if !readJSON(w, r, &req) {
		return
	}
	g, err := games.Lookup(r.PathValue("game"))
	if err != nil {
		writeError(w, http.StatusNotFound, err.Error())
		return
	}
	if len(req.Solved) > maxLessons {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("solved: at most %d lessons, not %d", maxLessons, len(req.Solved)))
		return
	}
	for i, id := range req.Solved {
		if id == "" || utf8.RuneCountInString(id) > maxLessonID {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("solved[%d]: a lesson id is 1 to %d characters", i, maxLessonID))
			return
		}
	}
	userID, _ := s.requestIdentity(r)
	if userID == "" {
		writeCoded(w, http.StatusUnauthorized, "learn_login", "log in to keep your lessons on your account (a guest's stay in the browser)")
		return
	}
	all, err := s.st.AddLearnProgress(r.Context(), userID, g.Spec.Name, req.Solved, millis(time.Now()))
	if err != nil {
		s.gameError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string][]string{g.Spec.Name: all})
}
