package archive

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/magneton-games/magneton/server/jsonapi"
	"github.com/magneton-games/magneton/server/wire"
	"github.com/magneton-games/magneton/store"
)

// The game search's pages: SearchPage games a page, at most MaxPage pages
// (an offset deeper than that costs the database more than anyone reads).
const (
	SearchPage = 50
	MaxPage    = 1000
	// maxName bounds a player's name in a search.
	maxName = 64
)

// FoundGame is one game of a search's answer (GET /api/archive/games).
type FoundGame struct {
	ID      string    `json:"id"`
	Game    string    `json:"game"`
	Rules   string    `json:"rules"`
	Source  string    `json:"source"`
	Rated   bool      `json:"rated"`
	Speed   string    `json:"speed"`
	Rating  *int      `json:"rating"` // the players' average, nil for none
	Result  string    `json:"result"`
	Ended   int64     `json:"ended"`
	Plies   int       `json:"plies"`
	Players [2]string `json:"players"`
	Users   [2]string `json:"users"`
	// Ply is, in a search by position, the first ply at which the game
	// reached it.
	Ply *int `json:"ply,omitempty"`
}

// SearchAnswer is a page of a search.
type SearchAnswer struct {
	Games []FoundGame `json:"games"`
	Page  int         `json:"page"`
	More  bool        `json:"more"`
}

// dayParam reads a day, YYYY-MM-DD (UTC), as ms since the epoch at its
// start; 0 when absent.
func dayParam(q url.Values, name string) (int64, error) {
	v := q.Get(name)
	if v == "" {
		return 0, nil
	}
	d, err := time.Parse(time.DateOnly, v)
	if err != nil {
		return 0, badParam(name, v, "a day written YYYY-MM-DD")
	}
	return d.UnixMilli(), nil
}

// nameParam reads a player's name.
func nameParam(q url.Values, name string) (string, error) {
	v := q.Get(name)
	if utf8.RuneCountInString(v) > maxName {
		return "", badParam(name, v, fmt.Sprintf("a name of at most %d characters", maxName))
	}
	return v, nil
}

// ReadSearch reads a game search from a request's query: player,
// opponent, result, from, to, game, rules, source, position (with
// moves), sort and page.
func ReadSearch(q url.Values) (store.GameSearch, int, error) {
	var (
		gs  store.GameSearch
		err error
	)
	if gs.Player, err = nameParam(q, "player"); err != nil {
		return gs, 0, err
	}
	if gs.Opponent, err = nameParam(q, "opponent"); err != nil {
		return gs, 0, err
	}
	switch r := q.Get("result"); r {
	case "", "1-0", "0-1", "1/2-1/2", "draw":
		gs.Result = r
	case "win", "loss":
		if gs.Player == "" {
			return gs, 0, wire.Refuse("archive_result", fmt.Sprintf("result %q: a win or a loss is a player's: name the player (player=NAME), or ask for 1-0, 0-1 or draw", r), "result", r)
		}
		gs.Result = r
	default:
		return gs, 0, badParam("result", r, "win, draw or loss (with a player), or 1-0, 0-1 or 1/2-1/2")
	}
	if gs.From, err = dayParam(q, "from"); err != nil {
		return gs, 0, err
	}
	if gs.To, err = dayParam(q, "to"); err != nil {
		return gs, 0, err
	}
	if gs.To != 0 {
		gs.To += (24 * time.Hour).Milliseconds() // the day given is in
	}
	if gs.From != 0 && gs.To != 0 && gs.From >= gs.To {
		return gs, 0, wire.Refuse("archive_dates", fmt.Sprintf("from %s is after to %s", q.Get("from"), q.Get("to")),
			"from", q.Get("from"), "to", q.Get("to"))
	}
	name := q.Get("game")
	if name != "" || q.Get("rules") != "" || q.Get("position") != "" {
		if name == "" {
			return gs, 0, badParam("game", "", "a game, for the rules or the position")
		}
		rules, err := ReadRules(name, q.Get("rules"))
		if err != nil {
			return gs, 0, err
		}
		gs.Game = rules.Spec().Name
		if q.Get("rules") != "" {
			gs.Rules = rules.Settings().String()
		}
		if q.Get("position") != "" || q.Get("moves") != "" {
			start, err := ReadPosition(rules, q.Get("position"))
			if err != nil {
				return gs, 0, err
			}
			g, err := Replay(start, ReadMoves(q.Get("moves")))
			if err != nil {
				return gs, 0, err
			}
			gs.Pos = FrameOf(g.Position()).Key
		}
	}
	switch src := q.Get("source"); src {
	case "", store.SourceSite, store.SourceBoardspace, store.SourceImport:
		gs.Source = src
	default:
		return gs, 0, badParam("source", src, orList(Sources))
	}
	switch sort := q.Get("sort"); sort {
	case "", "newest":
	case "oldest":
		gs.Oldest = true
	default:
		return gs, 0, badParam("sort", sort, "newest or oldest")
	}
	page := 1
	if v := q.Get("page"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > MaxPage {
			return gs, 0, badParam("page", v, fmt.Sprintf("a page from 1 to %d", MaxPage))
		}
		page = n
	}
	gs.Offset, gs.Limit = (page-1)*SearchPage, SearchPage
	return gs, page, nil
}

// handleSearch answers GET /api/archive/games: a page of the archived
// games a search selects.
func (s *Service) handleSearch(w http.ResponseWriter, r *http.Request) {
	if !s.allowed(w, r) {
		return
	}
	gs, page, err := ReadSearch(r.URL.Query())
	if err != nil {
		jsonapi.WriteRefusal(w, http.StatusBadRequest, err)
		return
	}
	// A private game is listed to its players only.
	gs.Viewer = s.cfg.Identities.UserID(r)
	found, more, err := s.cfg.Store.SearchGames(r.Context(), gs)
	if err != nil {
		jsonapi.Fail(w, r, s.cfg.Logger, err)
		return
	}
	out := SearchAnswer{Games: make([]FoundGame, 0, len(found)), Page: page, More: more}
	for _, g := range found {
		fg := FoundGame{ID: g.ID, Game: g.Game, Rules: g.Rules, Source: g.Source, Rated: g.Rated, Speed: g.Speed,
			Result: g.Result, Ended: g.Ended, Plies: g.Plies, Players: g.Players, Users: g.Users}
		if g.Rating > 0 {
			fg.Rating = &g.Rating
		}
		if gs.Pos != 0 {
			fg.Ply = &g.Ply
		}
		out.Games = append(out.Games, fg)
	}
	jsonapi.Write(w, http.StatusOK, out)
}
