package server

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"net/http"
	"slices"
	"time"

	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/puzzle"
	"github.com/magneton-games/magneton/rating"
	"github.com/magneton-games/magneton/store"
)

// Puzzles: the shipped puzzles (package puzzle), each with a Glicko-2
// rating that solvers' first attempts move, as lichess rates its puzzles.
// A logged-in player has a puzzle rating per game (the rating family
// store.PuzzleFamily); a guest solves without one.

// puzzleStart is a puzzle's rating before anyone tried it: longer wins
// start higher.
func puzzleStart(pz *puzzle.Puzzle) store.PuzzleRating {
	return store.PuzzleRating{Puzzle: pz.ID, R: 1100 + 300*float64(pz.WinIn-1), RD: 250, Vol: 0.06}
}

// puzzleSummary is a puzzle's line in a list.
type puzzleSummary struct {
	ID     string `json:"id"`
	Game   string `json:"game"`
	WinIn  int    `json:"win_in"`
	Rating int    `json:"rating"`
	Plays  int    `json:"plays"`
	Solved int    `json:"solved"`
	Tried  bool   `json:"tried,omitempty"`
}

// puzzleMsg is a puzzle as the front end plays it.
type puzzleMsg struct {
	puzzleSummary
	Title    string `json:"title"`
	Rules    string `json:"rules"`
	Position string `json:"position"`
	// Side is the solver's side (to move in Position).
	Side   int        `json:"side"`
	Line   []string   `json:"line"`
	Accept [][]string `json:"accept"`
	// Positions holds the position after each move of the line; Legal
	// the legal moves at each of the solver's turns on it, for the board.
	Positions []string   `json:"positions"`
	Legal     [][]string `json:"legal"`
	Source    string     `json:"source,omitempty"`
}

// shippedPuzzles returns the puzzles of a game ("" for all).
func shippedPuzzles(gameName string) ([]*puzzle.Puzzle, error) {
	all, err := puzzle.Shipped()
	if err != nil || gameName == "" {
		return all, err
	}
	g, err := games.Lookup(gameName)
	if err != nil {
		return nil, userError{msg: err.Error()}
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
func summarizePuzzle(pz *puzzle.Puzzle, ratings map[string]store.PuzzleRating) puzzleSummary {
	r, ok := ratings[pz.ID]
	if !ok {
		r = puzzleStart(pz)
	}
	return puzzleSummary{ID: pz.ID, Game: pz.Game, WinIn: pz.WinIn, Rating: int(math.Round(r.R)), Plays: r.Plays, Solved: r.Solved}
}

// describePuzzle builds what the board needs to play a puzzle.
func describePuzzle(pz *puzzle.Puzzle, sum puzzleSummary) (puzzleMsg, error) {
	rules, err := games.Rules(pz.Game, pz.Rules)
	if err != nil {
		return puzzleMsg{}, err
	}
	s, err := rules.ParsePosition(pz.Position)
	if err != nil {
		return puzzleMsg{}, err
	}
	m := puzzleMsg{puzzleSummary: sum, Title: rules.Spec().Title, Rules: pz.Rules, Position: pz.Position, Side: int(s.Side()),
		Line: pz.Line, Accept: pz.Accept, Source: pz.Source}
	for i, mv := range pz.Line {
		if i%2 == 0 {
			m.Legal = append(m.Legal, s.Moves())
		}
		if s, err = s.Play(mv); err != nil {
			return puzzleMsg{}, fmt.Errorf("puzzle %s: %w", pz.ID, err)
		}
		m.Positions = append(m.Positions, s.String())
	}
	return m, nil
}

func (s *Server) puzzleError(w http.ResponseWriter, r *http.Request, err error) {
	if errors.Is(err, errNoPuzzle) {
		writeCoded(w, http.StatusNotFound, "no_puzzle", "no such puzzle")
		return
	}
	var ue userError
	if errors.As(err, &ue) {
		writeRefusal(w, http.StatusBadRequest, ue)
		return
	}
	s.gameError(w, r, err)
}

// handlePuzzles lists a game's puzzles (?game=, all without), easiest
// first, marking those the account tried.
func (s *Server) handlePuzzles(w http.ResponseWriter, r *http.Request) {
	ps, err := shippedPuzzles(r.URL.Query().Get("game"))
	if err != nil {
		s.puzzleError(w, r, err)
		return
	}
	ratings, err := s.st.PuzzleRatings(r.Context())
	if err != nil {
		s.gameError(w, r, err)
		return
	}
	tried := map[string]bool{}
	if userID, _ := s.requestIdentity(r); userID != "" {
		if tried, err = s.st.Attempted(r.Context(), userID); err != nil {
			s.gameError(w, r, err)
			return
		}
	}
	out := []puzzleSummary{}
	for _, pz := range ps {
		sum := summarizePuzzle(pz, ratings)
		sum.Tried = tried[pz.ID]
		out = append(out, sum)
	}
	slices.SortStableFunc(out, func(a, b puzzleSummary) int { return a.Rating - b.Rating })
	writeJSON(w, http.StatusOK, map[string]any{"puzzles": out})
}

// handlePuzzle answers one puzzle: by id, "daily" (the day's, the same
// for everyone), or "next" (?game=: for an account the untried puzzle
// nearest its puzzle rating, for a guest one at random).
func (s *Server) handlePuzzle(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	ctx := r.Context()
	ratings, err := s.st.PuzzleRatings(ctx)
	if err != nil {
		s.gameError(w, r, err)
		return
	}
	var pz *puzzle.Puzzle
	switch id {
	case "daily":
		all, err := shippedPuzzles("")
		if err != nil {
			s.puzzleError(w, r, err)
			return
		}
		pz = puzzle.Daily(all, time.Now())
	case "next":
		if pz, err = s.nextPuzzle(r, ratings); err != nil {
			s.puzzleError(w, r, err)
			return
		}
	default:
		if pz, err = findPuzzle(id); err != nil {
			s.puzzleError(w, r, err)
			return
		}
	}
	if pz == nil {
		writeCoded(w, http.StatusNotFound, "no_puzzles", "no puzzles for this game")
		return
	}
	m, err := describePuzzle(pz, summarizePuzzle(pz, ratings))
	if err != nil {
		s.gameError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, m)
}

// nextPuzzle chooses the puzzle to solve next.
func (s *Server) nextPuzzle(r *http.Request, ratings map[string]store.PuzzleRating) (*puzzle.Puzzle, error) {
	gameName := r.URL.Query().Get("game")
	if gameName == "" {
		gameName = games.Default().Spec.Name
	}
	ps, err := shippedPuzzles(gameName)
	if err != nil || len(ps) == 0 {
		return nil, err
	}
	userID, _ := s.requestIdentity(r)
	if userID == "" {
		return ps[rand.IntN(len(ps))], nil
	}
	tried, err := s.st.Attempted(r.Context(), userID)
	if err != nil {
		return nil, err
	}
	g, _ := games.Lookup(gameName)
	mine, err := s.ratingOf(r.Context(), userID, g.Spec.Name, store.PuzzleFamily)
	if err != nil {
		return nil, err
	}
	var best *puzzle.Puzzle
	gap := math.Inf(1)
	for _, pz := range ps {
		if tried[pz.ID] {
			continue
		}
		if d := math.Abs(float64(summarizePuzzle(pz, ratings).Rating) - mine.R); d < gap {
			best, gap = pz, d
		}
	}
	if best == nil { // all tried: any, for practice
		best = ps[rand.IntN(len(ps))]
	}
	return best, nil
}

// handlePuzzleResult records an attempt: {"solved": bool}. An account's
// first attempt at a puzzle moves its puzzle rating and the puzzle's.
func (s *Server) handlePuzzleResult(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Solved bool `json:"solved"`
	}
	if !readJSON(w, r, &req) {
		return
	}
	pz, err := findPuzzle(r.PathValue("id"))
	if err != nil {
		s.puzzleError(w, r, err)
		return
	}
	userID, _ := s.requestIdentity(r)
	if userID == "" {
		writeJSON(w, http.StatusOK, map[string]any{"rated": false, "why": "log in to have a puzzle rating"})
		return
	}
	score := 0.0
	if req.Solved {
		score = 1
	}
	update := func(u store.Rating, p store.PuzzleRating) (store.Rating, store.PuzzleRating, error) {
		ur, pr := toRating(u), rating.Rating{R: p.R, RD: p.RD, Vol: p.Vol}
		nu, err := rating.DefaultParams.Update(ur, []rating.Result{{Opponent: pr, Score: score}})
		if err != nil {
			return u, p, err
		}
		np, err := rating.DefaultParams.Update(pr, []rating.Result{{Opponent: ur, Score: 1 - score}})
		if err != nil {
			return u, p, err
		}
		u = withRating(u, nu)
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
	before, err := s.ratingOf(r.Context(), userID, pz.Game, store.PuzzleFamily)
	if err != nil {
		s.gameError(w, r, err)
		return
	}
	u, p, err := s.st.RatePuzzle(r.Context(), userID, pz.ID, pz.Game, req.Solved, millis(time.Now()), freshRating(), puzzleStart(pz), update)
	if errors.Is(err, store.ErrAttempted) {
		writeJSON(w, http.StatusOK, map[string]any{"rated": false, "why": "only the first attempt at a puzzle is rated", "rating": before.String()})
		return
	}
	if err != nil {
		s.gameError(w, r, err)
		return
	}
	now := toRating(u)
	writeJSON(w, http.StatusOK, map[string]any{
		"rated": true, "rating": now.String(), "diff": int(math.Round(u.R) - math.Round(before.R)), "puzzle_rating": int(math.Round(p.R)),
	})
}
