// Package lessons keeps an account's progress through the lessons (the
// lessons themselves are the front end's, checked by the rules engine
// through POST /api/play); a guest's progress stays in the browser.
package lessons

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"time"
	"unicode/utf8"

	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/server/identity"
	"github.com/magneton-games/magneton/server/jsonapi"
)

// Store is the part of the store that keeps the lessons solved.
type Store interface {
	LearnProgress(ctx context.Context, userID string) (map[string][]string, error)
	AddLearnProgress(ctx context.Context, userID, game string, solved []string, at int64) ([]string, error)
}

// Lessons answers the lessons' API.
type Lessons struct {
	st         Store
	identities *identity.Resolver
	log        *slog.Logger
}

// New makes the lessons' handlers.
func New(st Store, identities *identity.Resolver, log *slog.Logger) *Lessons {
	return &Lessons{st: st, identities: identities, log: log}
}

// Routes adds the lessons' API to mux.
func (h *Lessons) Routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/account/learn", h.handleLearnProgress)
	mux.HandleFunc("POST /api/account/learn/{game}", h.handleAddLearnProgress)
}

// Limits of a lesson progress request.
const (
	maxLessons  = 200
	maxLessonID = 40
)

// handleLearnProgress answers the lessons the account has solved, by game
// ({} for a guest, whose progress the browser keeps).
func (h *Lessons) handleLearnProgress(w http.ResponseWriter, r *http.Request) {
	userID, _ := h.identities.Identity(r)
	if userID == "" {
		jsonapi.Write(w, http.StatusOK, map[string][]string{})
		return
	}
	got, err := h.st.LearnProgress(r.Context(), userID)
	if err != nil {
		jsonapi.Fail(w, r, h.log, err)
		return
	}
	jsonapi.Write(w, http.StatusOK, got)
}

// handleAddLearnProgress adds lessons of a game to those the account has
// solved: {"solved": ["drop", ...]}; it answers them all.
func (h *Lessons) handleAddLearnProgress(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Solved []string `json:"solved"`
	}
	if !jsonapi.Read(w, r, &req) {
		return
	}
	g, err := games.Lookup(r.PathValue("game"))
	if err != nil {
		jsonapi.WriteError(w, http.StatusNotFound, err.Error())
		return
	}
	if len(req.Solved) > maxLessons {
		jsonapi.WriteError(w, http.StatusBadRequest, fmt.Sprintf("solved: at most %d lessons, not %d", maxLessons, len(req.Solved)))
		return
	}
	for i, id := range req.Solved {
		if id == "" || utf8.RuneCountInString(id) > maxLessonID {
			jsonapi.WriteError(w, http.StatusBadRequest, fmt.Sprintf("solved[%d]: a lesson id is 1 to %d characters", i, maxLessonID))
			return
		}
	}
	userID, _ := h.identities.Identity(r)
	if userID == "" {
		jsonapi.WriteCoded(w, http.StatusUnauthorized, "learn_login", "log in to keep your lessons on your account (a guest's stay in the browser)")
		return
	}
	all, err := h.st.AddLearnProgress(r.Context(), userID, g.Spec.Name, req.Solved, time.Now().UnixMilli())
	if err != nil {
		jsonapi.Fail(w, r, h.log, err)
		return
	}
	jsonapi.Write(w, http.StatusOK, map[string][]string{g.Spec.Name: all})
}
