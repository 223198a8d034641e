// Package profiles is the players as the site shows them: a player's
// profile (ratings with their history, record, newest games), all their
// games as a list or one PGN file, and the leaderboards.
package profiles

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"strconv"

	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/rating"
	"github.com/magneton-games/magneton/record"
	"github.com/magneton-games/magneton/server/identity"
	"github.com/magneton-games/magneton/server/ids"
	"github.com/magneton-games/magneton/server/jsonapi"
	"github.com/magneton-games/magneton/server/limits"
	"github.com/magneton-games/magneton/server/live"
	"github.com/magneton-games/magneton/server/ratings"
	"github.com/magneton-games/magneton/server/wire"
	"github.com/magneton-games/magneton/store"
)

// Store is the part of the store the profiles read.
type Store interface {
	UserByName(ctx context.Context, name string) (*store.User, error)
	Ratings(ctx context.Context, userID string) ([]store.Rating, error)
	RatingHistory(ctx context.Context, userID string) ([]store.RatingPoint, error)
	Leaderboard(ctx context.Context, game, family string, maxRD float64, limit int) ([]store.Leader, error)
	UserGames(ctx context.Context, userID, before string, limit int, publicOnly bool) ([]*store.Game, error)
	UserRecord(ctx context.Context, userID string) (wins, draws, losses int, err error)
	Moves(ctx context.Context, id string) ([]store.Move, error)
}

// Config is what the profiles need.
type Config struct {
	Store      Store
	Identities *identity.Resolver
	Clients    *limits.Clients
	Proxies    limits.Proxies
	Logger     *slog.Logger
	// SiteURL is the site's address, for the records' Site tag ("": the
	// address a request reached).
	SiteURL string
}

// Profiles answers the players' API.
type Profiles struct {
	st         Store
	identities *identity.Resolver
	clients    *limits.Clients
	proxies    limits.Proxies
	log        *slog.Logger
	site       string
}

// New makes the profiles' handlers.
func New(cfg Config) *Profiles {
	return &Profiles{st: cfg.Store, identities: cfg.Identities, clients: cfg.Clients, proxies: cfg.Proxies, log: cfg.Logger, site: cfg.SiteURL}
}

// publicOnly reports whether the request sees only the public games of
// u's: everyone but u, whose private games are shown to it alone.
func (h *Profiles) publicOnly(r *http.Request, u *store.User) bool {
	return h.identities.UserID(r) != u.ID
}

// Routes adds the players' API to mux.
func (h *Profiles) Routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/users/{name}", h.handleUser)
	mux.HandleFunc("GET /api/users/{name}/games", h.handleUserGames)
	mux.HandleFunc("GET /api/users/{name}/games.pgn", h.handleUserPGN)
	mux.HandleFunc("GET /api/leaderboard", h.handleLeaderboard)
}

// ratingJSON is a rating as the API shows it.
type ratingJSON struct {
	Game        string         `json:"game"`
	Family      string         `json:"family"`
	Rating      int            `json:"rating"`
	RD          int            `json:"rd"`
	Provisional bool           `json:"provisional"`
	Display     string         `json:"display"`
	Games       int            `json:"games"`
	Wins        int            `json:"wins"`
	Draws       int            `json:"draws"`
	Losses      int            `json:"losses"`
	History     []historyPoint `json:"history"`
}

type historyPoint struct {
	At     int64 `json:"at"`
	Rating int   `json:"rating"`
}

// withStart puts before a rating's history the rating every player
// starts with, as of the account's creation (or the first game, if the
// account is newer by its clock), so that the chart starts where the
// player did rather than after the first game.
func withStart(history []historyPoint, created int64) []historyPoint {
	if len(history) == 0 {
		return history
	}
	at := min(created, history[0].At)
	return append([]historyPoint{{At: at, Rating: int(math.Round(rating.New().R))}}, history...)
}

// userByPath reads the {name} of a path and finds the account, answering
// the client itself when there is none.
func (h *Profiles) userByPath(w http.ResponseWriter, r *http.Request) (*store.User, bool) {
	if !h.clients.AllowProfile(h.proxies.ClientIP(r)) {
		max := fmt.Sprintf("%g", h.clients.Limits().ProfilesPerMinute)
		jsonapi.WriteCoded(w, http.StatusTooManyRequests, "profiles_fast", "too many profiles looked up from your address: at most "+max+" a minute; try again in a moment", "max", max)
		return nil, false
	}
	name := r.PathValue("name")
	var u *store.User
	err := store.ErrNoUser
	if identity.CheckUserName(name) == nil { // else no account can have the name
		u, err = h.st.UserByName(r.Context(), name)
	}
	if errors.Is(err, store.ErrNoUser) {
		jsonapi.WriteCoded(w, http.StatusNotFound, "no_user", "no such user")
		return nil, false
	}
	if err != nil {
		jsonapi.Fail(w, r, h.log, err)
		return nil, false
	}
	return u, true
}

func (h *Profiles) handleUser(w http.ResponseWriter, r *http.Request) {
	u, ok := h.userByPath(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	rated, err := h.st.Ratings(ctx, u.ID)
	if err != nil {
		jsonapi.Fail(w, r, h.log, err)
		return
	}
	history, err := h.st.RatingHistory(ctx, u.ID)
	if err != nil {
		jsonapi.Fail(w, r, h.log, err)
		return
	}
	out := struct {
		Name    string         `json:"name"`
		Bot     bool           `json:"bot"`
		Created int64          `json:"created"`
		Ratings []ratingJSON   `json:"ratings"`
		Record  map[string]int `json:"record"`
		Games   []wire.Summary `json:"games"`
	}{Name: u.Name, Bot: u.Bot, Created: u.Created, Ratings: []ratingJSON{}}
	for _, rt := range rated {
		v := ratings.Value(rt)
		j := ratingJSON{Game: rt.Game, Family: rt.Family, Rating: int(math.Round(rt.R)), RD: int(math.Round(rt.RD)),
			Provisional: v.Provisional(), Display: v.String(), Games: rt.Games, Wins: rt.Wins, Draws: rt.Draws, Losses: rt.Losses,
			History: []historyPoint{}}
		for _, p := range history {
			if p.Game == rt.Game && p.Family == rt.Family {
				j.History = append(j.History, historyPoint{At: p.At, Rating: int(math.Round(p.R))})
			}
		}
		j.History = withStart(j.History, u.Created)
		out.Ratings = append(out.Ratings, j)
	}
	games, err := h.st.UserGames(ctx, u.ID, "", 50, h.publicOnly(r, u))
	if err != nil {
		jsonapi.Fail(w, r, h.log, err)
		return
	}
	out.Games = live.Summaries(games)
	// The record counts every finished game, rated or not; the games
	// listed are the newest 50.
	wins, draws, losses, err := h.st.UserRecord(ctx, u.ID)
	if err != nil {
		jsonapi.Fail(w, r, h.log, err)
		return
	}
	out.Record = map[string]int{"wins": wins, "draws": draws, "losses": losses}
	jsonapi.Write(w, http.StatusOK, out)
}

func (h *Profiles) handleUserGames(w http.ResponseWriter, r *http.Request) {
	u, ok := h.userByPath(w, r)
	if !ok {
		return
	}
	limit := 50
	if l := r.URL.Query().Get("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 1 || n > 200 {
			jsonapi.WriteError(w, http.StatusBadRequest, fmt.Sprintf("limit %q: want 1 to 200", l))
			return
		}
		limit = n
	}
	before := r.URL.Query().Get("before")
	if before != "" && !ids.Valid(before) {
		jsonapi.WriteError(w, http.StatusBadRequest, fmt.Sprintf("before %q: not a game id", before))
		return
	}
	games, err := h.st.UserGames(r.Context(), u.ID, before, limit, h.publicOnly(r, u))
	if errors.Is(err, store.ErrNotFound) {
		jsonapi.WriteError(w, http.StatusBadRequest, fmt.Sprintf("before %q: no such game", before))
		return
	}
	if err != nil {
		jsonapi.Fail(w, r, h.log, err)
		return
	}
	jsonapi.Write(w, http.StatusOK, map[string]any{"games": live.Summaries(games)})
}

// handleUserPGN answers every finished game of a player as one PGN file.
func (h *Profiles) handleUserPGN(w http.ResponseWriter, r *http.Request) {
	u, ok := h.userByPath(w, r)
	if !ok {
		return
	}
	publicOnly := h.publicOnly(r, u)
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s.pgn"`, u.Name))
	for before := ""; ; {
		page, err := h.st.UserGames(r.Context(), u.ID, before, 200, publicOnly)
		if err != nil {
			h.log.Warn("a player's games not all written", "user", u.Name, "err", err)
			return // the answer has begun: cut short
		}
		for _, g := range page {
			moves, err := h.st.Moves(r.Context(), g.ID)
			if err != nil {
				h.log.Warn("a player's games not all written", "user", u.Name, "err", err)
				return
			}
			gm, _, err := live.Replay(g, moves)
			if err != nil {
				h.log.Warn("a game not written", "game", g.ID, "err", err)
				continue
			}
			text, err := record.PGN.Write(live.Transcript(g, gm, h.proxies.Site(r, h.site)))
			if err != nil {
				h.log.Warn("a game not written", "game", g.ID, "err", err)
				continue
			}
			io.WriteString(w, text+"\n")
		}
		if len(page) < 200 {
			return
		}
		before = page[len(page)-1].ID
	}
}

func (h *Profiles) handleLeaderboard(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	rules, err := games.Rules(q.Get("game"), q.Get("family"))
	if err != nil {
		jsonapi.WriteError(w, http.StatusBadRequest, err.Error())
		return
	}
	family, err := ratings.Family(rules)
	if err != nil {
		jsonapi.WriteError(w, http.StatusBadRequest, fmt.Sprintf("family %q: %v", q.Get("family"), err))
		return
	}
	switch q.Get("pool") {
	case "bots": // the bots' own pool: their rated games with each other
		family = store.BotFamilyPrefix + family
	case "", "people":
	default:
		jsonapi.WriteError(w, http.StatusBadRequest, fmt.Sprintf("pool %q: want people or bots", q.Get("pool")))
		return
	}
	leaders, err := h.st.Leaderboard(r.Context(), rules.Spec().Name, family, ratings.ProvisionalRD, 50)
	if err != nil {
		jsonapi.Fail(w, r, h.log, err)
		return
	}
	type row struct {
		Name   string `json:"name"`
		Rating int    `json:"rating"`
		RD     int    `json:"rd"`
		Games  int    `json:"games"`
	}
	out := []row{}
	for _, l := range leaders {
		out = append(out, row{Name: l.Name, Rating: int(math.Round(l.R)), RD: int(math.Round(l.RD)), Games: l.Games})
	}
	jsonapi.Write(w, http.StatusOK, map[string]any{"game": rules.Spec().Name, "family": family, "players": out})
}
