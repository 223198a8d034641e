package puzzles

import (
	"math"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"sync"

	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/puzzle"
	"github.com/magneton-games/magneton/server/jsonapi"
	"github.com/magneton-games/magneton/server/ratings"
	"github.com/magneton-games/magneton/server/wire"
	"github.com/magneton-games/magneton/store"
)

// shippedKeys holds each shipped puzzle's position up to symmetry
// (puzzle.Key), computed once: the next puzzle is chosen among a
// thousand on every request.
var shippedKeys = sync.OnceValue(func() map[string]string {
	out := map[string]string{}
	all, err := puzzle.Shipped()
	if err != nil {
		return out
	}
	for _, pz := range all {
		if k, err := puzzle.Key(pz); err == nil {
			out[pz.ID] = k
		}
	}
	return out
})

// alike reports whether b should not follow a: the same game record, or
// the same position up to symmetry (puzzle.Alike, with the keys cached).
func alike(a, b *puzzle.Puzzle) bool {
	if a == nil || b == nil {
		return false
	}
	if a.Record != "" && a.Record == b.Record {
		return true
	}
	keys := shippedKeys()
	ka, ok := keys[a.ID]
	return ok && ka == keys[b.ID]
}

// candidates are the puzzles of ps that may follow prev (nil for none):
// of the theme ("" for any), and not alike prev.
func candidates(ps []*puzzle.Puzzle, theme string, prev *puzzle.Puzzle) []*puzzle.Puzzle {
	var out []*puzzle.Puzzle
	for _, pz := range ps {
		if (theme == "" || slices.Contains(pz.Themes, theme)) && pz != prev && !alike(prev, pz) {
			out = append(out, pz)
		}
	}
	return out
}

// nextPuzzle chooses the puzzle to solve next, of ?game= (the default
// game without), of ?theme= when given, and never one alike ?after= (the
// puzzle just shown): for a streak (?min=) one of the easiest rated at
// least min (streakPuzzle); otherwise for an account the untried one
// nearest its puzzle rating, for a guest (or when all are tried) one at
// random.
func (h *Puzzles) nextPuzzle(r *http.Request, rated map[string]store.PuzzleRating) (*puzzle.Puzzle, error) {
	q := r.URL.Query()
	gameName := q.Get("game")
	if gameName == "" {
		gameName = games.Default().Spec.Name
	}
	ps, err := shippedPuzzles(gameName)
	if err != nil || len(ps) == 0 {
		return nil, err
	}
	theme := q.Get("theme")
	if theme != "" && !slices.Contains(puzzle.AllThemes(ps[0].Game), theme) {
		return nil, wire.Refusef("no theme %q among the puzzles of %s (known: %v)", theme, ps[0].Game, puzzle.AllThemes(ps[0].Game))
	}
	var prev *puzzle.Puzzle
	if after := q.Get("after"); after != "" {
		prev, _ = findPuzzle(after) // an unknown one (an old kept puzzle) keeps nothing out
	}
	ps = candidates(ps, theme, prev)
	if len(ps) == 0 {
		return nil, nil
	}
	if m := q.Get("min"); m != "" {
		least, err := strconv.Atoi(m)
		if err != nil {
			return nil, wire.Refusef("min %q: want a rating, a whole number", m)
		}
		return streakPuzzle(ps, rated, least), nil
	}
	userID, _ := h.identities.Identity(r)
	if userID == "" {
		return ps[rand.IntN(len(ps))], nil
	}
	tried, err := h.st.Attempted(r.Context(), userID)
	if err != nil {
		return nil, err
	}
	mine, err := ratings.Of(r.Context(), h.st, userID, ps[0].Game, store.PuzzleFamily)
	if err != nil {
		return nil, err
	}
	var best *puzzle.Puzzle
	gap := math.Inf(1)
	for _, pz := range ps {
		if tried[pz.ID] {
			continue
		}
		if d := math.Abs(float64(summarizePuzzle(pz, rated).Rating) - mine.R); d < gap {
			best, gap = pz, d
		}
	}
	if best == nil { // all tried: any, for practice
		best = ps[rand.IntN(len(ps))]
	}
	return best, nil
}

// streakChoices is how many of the easiest puzzles at or above a streak's
// rating the next one is drawn from, so that two streaks differ.
const streakChoices = 8

// streakPuzzle is the next puzzle of a streak (?min=): drawn among the
// easiest rated at least least, or the hardest when none is.
func streakPuzzle(ps []*puzzle.Puzzle, rated map[string]store.PuzzleRating, least int) *puzzle.Puzzle {
	type rp struct {
		pz     *puzzle.Puzzle
		rating int
	}
	all := make([]rp, 0, len(ps))
	for _, pz := range ps {
		all = append(all, rp{pz, summarizePuzzle(pz, rated).Rating})
	}
	slices.SortStableFunc(all, func(a, b rp) int { return a.rating - b.rating })
	i, _ := slices.BinarySearchFunc(all, least, func(a rp, v int) int { return a.rating - v })
	i = min(i, len(all)-1)
	j := min(i+streakChoices, len(all))
	if j-i < streakChoices {
		i = max(0, j-streakChoices)
	}
	return all[i+rand.IntN(j-i)].pz
}

// themeCount is a theme with the number of a game's puzzles that have it.
type themeCount struct {
	ID    string `json:"id"`
	Count int    `json:"count"`
}

// handleThemes lists the themes of a game's puzzles (?game=, the default
// game without), in menu order, with how many puzzles have each; themes
// no puzzle has are left out.
func (h *Puzzles) handleThemes(w http.ResponseWriter, r *http.Request) {
	gameName := r.URL.Query().Get("game")
	if gameName == "" {
		gameName = games.Default().Spec.Name
	}
	ps, err := shippedPuzzles(gameName)
	if err != nil {
		h.puzzleError(w, r, err)
		return
	}
	g, _ := games.Lookup(gameName)
	out := []themeCount{}
	for _, id := range puzzle.AllThemes(g.Spec.Name) {
		n := 0
		for _, pz := range ps {
			if slices.Contains(pz.Themes, id) {
				n++
			}
		}
		if n > 0 {
			out = append(out, themeCount{ID: id, Count: n})
		}
	}
	jsonapi.Write(w, http.StatusOK, map[string]any{"game": g.Spec.Name, "themes": out})
}
