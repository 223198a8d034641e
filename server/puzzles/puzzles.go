// Package puzzles serves the shipped puzzles (package puzzle), each with a
// Glicko-2 rating that solvers' first attempts move, as lichess rates its
// puzzles. A logged-in player has a puzzle rating per game (the rating
// family store.PuzzleFamily); a guest solves without one.
package puzzles

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"slices"
	"time"

	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/puzzle"
	"github.com/magneton-games/magneton/rating"
	"github.com/magneton-games/magneton/server/identity"
	"github.com/magneton-games/magneton/server/jsonapi"
	"github.com/magneton-games/magneton/server/ratings"
	"github.com/magneton-games/magneton/server/wire"
	"github.com/magneton-games/magneton/store"
)

// Store is the part of the store that keeps the puzzles' and solvers'
// ratings.
type Store interface {
	ratings.Reader
	PuzzleRatings(ctx context.Context) (map[string]store.PuzzleRating, error)
	Attempted(ctx context.Context, userID string) (map[string]bool, error)
	AddPuzzlePlay(ctx context.Context, userID string, p store.PuzzlePlay) error
	PuzzlePlays(ctx context.Context, userID, game string, limit int) ([]store.PuzzlePlay, error)
	RatePuzzle(ctx context.Context, userID, puzzleID, game string, solved bool, at int64,
		freshUser store.Rating, freshPuzzle store.PuzzleRating, update func(user store.Rating, puzzle store.PuzzleRating) (store.Rating, store.PuzzleRating, error)) (store.Rating, store.PuzzleRating, error)
}

// Puzzles answers the puzzles' API.
type Puzzles struct {
	st         Store
	identities *identity.Resolver
	log        *slog.Logger
	// searches, when set, bounds the refutations' searches as the
	// analyses' are (WithSearches).
	searches Searches
	clientIP func(*http.Request) string
	// refuteTime bounds a refutation's wait and search (refuteTime).
	refuteTime time.Duration
}

// Searches hands out the server's analysis slots (computer.Pool.Analysis):
// the answer to a wrong move is a search, shared fairly with the
// analysis board's.
type Searches interface {
	Analysis(ctx context.Context, client string) (done func(), err error)
}

// WithSearches has the refutations wait for a slot of searches, the
// client named by clientIP.
func (h *Puzzles) WithSearches(searches Searches, clientIP func(*http.Request) string) *Puzzles {
	h.searches, h.clientIP = searches, clientIP
	return h
}

// New makes the puzzles' handlers.
func New(st Store, identities *identity.Resolver, log *slog.Logger) *Puzzles {
	return &Puzzles{st: st, identities: identities, log: log, refuteTime: refuteTime}
}

// puzzleStart is a puzzle's rating before anyone tried it: longer wins
// start higher.
func puzzleStart(pz *puzzle.Puzzle) store.PuzzleRating {
	return store.PuzzleRating{Puzzle: pz.ID, R: 1100 + 300*float64(pz.WinIn-1), RD: 250, Vol: 0.06}
}

// shippedPuzzles returns the puzzles of a game ("" for all).
func shippedPuzzles(gameName string) ([]*puzzle.Puzzle, error) {
	all, err := puzzle.Shipped()
	if err != nil || gameName == "" {
		return all, err
	}
	g, err := games.Lookup(gameName)
	if err != nil {
		return nil, wire.Refusal{Msg: err.Error()}
	}
	var out []*puzzle.Puzzle
	for _, pz := range all {
		if pz.Game == g.Spec.Name {
			out = append(out, pz)
		}
	}
	return out, nil
}

func findPuzzle(id string) (*puzzle.Puzzle, error) {
	all, err := puzzle.Shipped()
	if err != nil {
		return nil, err
	}
	for _, pz := range all {
		if pz.ID == id {
			return pz, nil
		}
	}
	return nil, errNoPuzzle
}

var errNoPuzzle = errors.New("no such puzzle")

// summarizePuzzle is a puzzle's summary with its rating (the starting one
// when nobody tried it).
func summarizePuzzle(pz *puzzle.Puzzle, rated map[string]store.PuzzleRating) wire.PuzzleSummary {
	r, ok := rated[pz.ID]
	if !ok {
		r = puzzleStart(pz)
	}
	return wire.PuzzleSummary{ID: pz.ID, Game: pz.Game, WinIn: pz.WinIn, Rating: int(math.Round(r.R)), Plays: r.Plays, Solved: r.Solved}
}

// puzzleView is a puzzle as the page plays it: what the board needs,
// with its themes and the game record it comes from.
type puzzleView struct {
	wire.Puzzle
	Themes []string `json:"themes"`
	Record string   `json:"record,omitempty"`
}

// describePuzzle builds what the board needs to play a puzzle.
func describePuzzle(pz *puzzle.Puzzle, sum wire.PuzzleSummary) (puzzleView, error) {
	m, err := boardPuzzle(pz, sum)
	return puzzleView{Puzzle: m, Themes: pz.Themes, Record: pz.Record}, err
}

// boardPuzzle is the puzzle's line played out for the board.
func boardPuzzle(pz *puzzle.Puzzle, sum wire.PuzzleSummary) (wire.Puzzle, error) {
	rules, err := games.Rules(pz.Game, pz.Rules)
	if err != nil {
		return wire.Puzzle{}, err
	}
	s, err := rules.ParsePosition(pz.Position)
	if err != nil {
		return wire.Puzzle{}, err
	}
	m := wire.Puzzle{PuzzleSummary: sum, Title: rules.Spec().Title, Rules: pz.Rules, Position: pz.Position, Side: int(s.Side()),
		Line: pz.Line, Accept: pz.Accept, Source: pz.Source}
	for i, mv := range pz.Line {
		if i%2 == 0 {
			m.Legal = append(m.Legal, s.Moves())
		}
		if s, err = s.Play(mv); err != nil {
			return wire.Puzzle{}, fmt.Errorf("puzzle %s: %w", pz.ID, err)
		}
		m.Positions = append(m.Positions, s.String())
	}
	return m, nil
}

func (h *Puzzles) puzzleError(w http.ResponseWriter, r *http.Request, err error) {
	if errors.Is(err, errNoPuzzle) {
		jsonapi.WriteCoded(w, http.StatusNotFound, "no_puzzle", "no such puzzle")
		return
	}
	var rf wire.Refusal
	if errors.As(err, &rf) {
		jsonapi.WriteRefusal(w, http.StatusBadRequest, rf)
		return
	}
	jsonapi.Fail(w, r, h.log, err)
}

// handlePuzzles lists a game's puzzles (?game=, all without), easiest
// first, marking those the account tried.
func (h *Puzzles) handlePuzzles(w http.ResponseWriter, r *http.Request) {
	ps, err := shippedPuzzles(r.URL.Query().Get("game"))
	if err != nil {
		h.puzzleError(w, r, err)
		return
	}
	rated, err := h.st.PuzzleRatings(r.Context())
	if err != nil {
		jsonapi.Fail(w, r, h.log, err)
		return
	}
	tried := map[string]bool{}
	if userID, _ := h.identities.Identity(r); userID != "" {
		if tried, err = h.st.Attempted(r.Context(), userID); err != nil {
			jsonapi.Fail(w, r, h.log, err)
			return
		}
	}
	out := []wire.PuzzleSummary{}
	for _, pz := range ps {
		sum := summarizePuzzle(pz, rated)
		sum.Tried = tried[pz.ID]
		out = append(out, sum)
	}
	slices.SortStableFunc(out, func(a, b wire.PuzzleSummary) int { return a.Rating - b.Rating })
	jsonapi.Write(w, http.StatusOK, map[string]any{"puzzles": out})
}

// handlePuzzle answers one puzzle: by id, "daily" (the day's, the same
// for everyone), or "next" (see nextPuzzle).
func (h *Puzzles) handlePuzzle(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	ctx := r.Context()
	rated, err := h.st.PuzzleRatings(ctx)
	if err != nil {
		jsonapi.Fail(w, r, h.log, err)
		return
	}
	var pz *puzzle.Puzzle
	switch id {
	case "daily":
		all, err := shippedPuzzles("")
		if err != nil {
			h.puzzleError(w, r, err)
			return
		}
		pz = puzzle.Daily(all, time.Now())
	case "next":
		if pz, err = h.nextPuzzle(r, rated); err != nil {
			h.puzzleError(w, r, err)
			return
		}
	default:
		if pz, err = findPuzzle(id); err != nil {
			h.puzzleError(w, r, err)
			return
		}
	}
	if pz == nil {
		jsonapi.WriteCoded(w, http.StatusNotFound, "no_puzzles", "no puzzles for this game")
		return
	}
	m, err := describePuzzle(pz, summarizePuzzle(pz, rated))
	if err != nil {
		jsonapi.Fail(w, r, h.log, err)
		return
	}
	jsonapi.Write(w, http.StatusOK, m)
}

// handlePuzzleResult records an attempt: {"solved": bool}. An account's
// first attempt at a puzzle moves its puzzle rating and the puzzle's.
func (h *Puzzles) handlePuzzleResult(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Solved bool `json:"solved"`
	}
	if !jsonapi.Read(w, r, &req) {
		return
	}
	pz, err := findPuzzle(r.PathValue("id"))
	if err != nil {
		h.puzzleError(w, r, err)
		return
	}
	userID, _ := h.identities.Identity(r)
	if userID == "" {
		jsonapi.Write(w, http.StatusOK, map[string]any{"rated": false, "why": "log in to have a puzzle rating"})
		return
	}
	score := 0.0
	if req.Solved {
		score = 1
	}
	update := func(u store.Rating, p store.PuzzleRating) (store.Rating, store.PuzzleRating, error) {
		ur, pr := ratings.Value(u), rating.Rating{R: p.R, RD: p.RD, Vol: p.Vol}
		nu, err := rating.DefaultParams.Update(ur, []rating.Result{{Opponent: pr, Score: score}})
		if err != nil {
			return u, p, err
		}
		np, err := rating.DefaultParams.Update(pr, []rating.Result{{Opponent: ur, Score: 1 - score}})
		if err != nil {
			return u, p, err
		}
		u = ratings.With(u, nu)
		u.Games++
		if req.Solved {
			u.Wins++
		} else {
			u.Losses++
		}
		p.R, p.RD, p.Vol = np.R, np.RD, np.Vol
		p.Plays++
		if req.Solved {
			p.Solved++
		}
		return u, p, nil
	}
	before, err := ratings.Of(r.Context(), h.st, userID, pz.Game, store.PuzzleFamily)
	if err != nil {
		jsonapi.Fail(w, r, h.log, err)
		return
	}
	at := time.Now().UnixMilli()
	u, p, err := h.st.RatePuzzle(r.Context(), userID, pz.ID, pz.Game, req.Solved, at, ratings.Fresh(), puzzleStart(pz), update)
	play := store.PuzzlePlay{Puzzle: pz.ID, Game: pz.Game, Solved: req.Solved, At: at}
	if errors.Is(err, store.ErrAttempted) {
		if err := h.st.AddPuzzlePlay(r.Context(), userID, play); err != nil {
			jsonapi.Fail(w, r, h.log, err)
			return
		}
		jsonapi.Write(w, http.StatusOK, map[string]any{"rated": false, "retry": true, "why": "only the first attempt at a puzzle is rated", "rating": before.String()})
		return
	}
	if err != nil {
		jsonapi.Fail(w, r, h.log, err)
		return
	}
	diff := int(math.Round(u.R) - math.Round(before.R))
	play.Rated, play.Rating, play.Diff = true, u.R, diff
	if err := h.st.AddPuzzlePlay(r.Context(), userID, play); err != nil {
		jsonapi.Fail(w, r, h.log, err)
		return
	}
	now := ratings.Value(u)
	jsonapi.Write(w, http.StatusOK, map[string]any{
		"rated": true, "rating": now.String(), "diff": diff, "puzzle_rating": int(math.Round(p.R)),
	})
}

// Routes adds the puzzles' API to mux.
func (h *Puzzles) Routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/puzzles", h.handlePuzzles)
	mux.HandleFunc("GET /api/puzzles/themes", h.handleThemes)
	mux.HandleFunc("GET /api/puzzles/history", h.handleHistory)
	mux.HandleFunc("GET /api/puzzles/{id}", h.handlePuzzle)
	mux.HandleFunc("POST /api/puzzles/{id}/result", h.handlePuzzleResult)
	mux.HandleFunc("POST /api/puzzles/{id}/refute", h.handleRefute)
}
