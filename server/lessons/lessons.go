// Package lessons keeps an account's progress through the lessons (the
// lessons themselves are the front end's, checked by the rules engine
// through POST /api/play); a guest's progress stays in the browser.
package lessons

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
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
	LearnStars(ctx context.Context, userID string) (map[string]map[string]int, error)
	AddLearnStars(ctx context.Context, userID, game string, stars map[string]int, at int64) (map[string]int, error)
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
	mux.HandleFunc("GET /api/account/learn-stars", h.handleLearnStars)
}

// handleLearnStars answers the stars the account has won at each stage of
// the lessons, by game and "<lesson id>:<stage>" ({} for a guest).
func (h *Lessons) handleLearnStars(w http.ResponseWriter, r *http.Request) {
	userID, _ := h.identities.Identity(r)
	if userID == "" {
		jsonapi.Write(w, http.StatusOK, map[string]map[string]int{})
		return
	}
	got, err := h.st.LearnStars(r.Context(), userID)
	if err != nil {
		jsonapi.Fail(w, r, h.log, err)
		return
	}
	jsonapi.Write(w, http.StatusOK, got)
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
// solved, and stars won at their stages to those kept (the best of each):
// {"solved": ["drop", ...], "stars": {"drop:0": 3, ...}}; it answers the
// lessons solved, all of them.
func (h *Lessons) handleAddLearnProgress(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Solved []string       `json:"solved"`
		Stars  map[string]int `json:"stars"`
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
	if msg := checkStars(req.Stars); msg != "" {
		jsonapi.WriteError(w, http.StatusBadRequest, msg)
		return
	}
	userID, _ := h.identities.Identity(r)
	if userID == "" {
		jsonapi.WriteCoded(w, http.StatusUnauthorized, "learn_login", "log in to keep your lessons on your account (a guest's stay in the browser)")
		return
	}
	now := time.Now().UnixMilli()
	if len(req.Stars) > 0 {
		if _, err := h.st.AddLearnStars(r.Context(), userID, g.Spec.Name, req.Stars, now); err != nil {
			jsonapi.Fail(w, r, h.log, err)
			return
		}
	}
	all, err := h.st.AddLearnProgress(r.Context(), userID, g.Spec.Name, req.Solved, now)
	if err != nil {
		jsonapi.Fail(w, r, h.log, err)
		return
	}
	jsonapi.Write(w, http.StatusOK, map[string][]string{g.Spec.Name: all})
}

// checkStars says what is wrong with the stars of a progress request ("" when
// nothing): each key a lesson id and a stage number, "drop:0", each value 1
// to 3.
func checkStars(stars map[string]int) string {
	if len(stars) > maxLessons {
		return fmt.Sprintf("stars: at most %d stages, not %d", maxLessons, len(stars))
	}
	for k, n := range stars {
		id, stage, ok := strings.Cut(k, ":")
		if !ok || id == "" || utf8.RuneCountInString(id) > maxLessonID {
			return fmt.Sprintf("stars[%q]: a stage is written <lesson id>:<stage>, the id 1 to %d characters", k, maxLessonID)
		}
		if i, err := strconv.Atoi(stage); err != nil || i < 0 || i > 99 {
			return fmt.Sprintf("stars[%q]: the stage is a number from 0 to 99", k)
		}
		if n < 1 || n > 3 {
			return fmt.Sprintf("stars[%q]: %d stars; a stage has 1 to 3", k, n)
		}
	}
	return ""
}
