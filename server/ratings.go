package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/rating"
	"github.com/magneton-games/magneton/record"
	"github.com/magneton-games/magneton/store"
)

// Ratings: rated games are between accounts, with rules that are one of
// the game's named variants; the variant's name is the rating family, so
// that each family of rules has its own ratings (Tumbling Down's standard
// and Boardspace rules play differently enough) and a new game's variants
// are families without any list here. A rated game's result is applied
// when it ends, one rating period a game (as lichess does).

// ratingFamily returns the variant whose settings the rules are, or an
// error saying that a rated game needs one.
func ratingFamily(rules game.Rules) (string, error) {
	sp := rules.Spec()
	want := rules.Settings().String()
	var names []string
	for _, v := range sp.Variants {
		names = append(names, v.Name)
		if r, err := sp.Rules(v.Name); err == nil && r.Settings().String() == want {
			return v.Name, nil
		}
	}
	list := strings.Join(names, ", ")
	return "", coded("rated_variant", fmt.Sprintf("a rated game plays one of %s's variants (%s), not %s", sp.Title, list, want), "game", sp.Title, "variants", list)
}

// toRating and fromRating convert between the store's row and the rating
// package's value.
func toRating(r store.Rating) rating.Rating { return rating.Rating{R: r.R, RD: r.RD, Vol: r.Vol} }

func withRating(r store.Rating, v rating.Rating) store.Rating {
	r.R, r.RD, r.Vol = v.R, v.RD, v.Vol
	return r
}

// freshRating is the rating of a player's first game in a family.
func freshRating() store.Rating {
	n := rating.New()
	return store.Rating{R: n.R, RD: n.RD, Vol: n.Vol}
}

// ratingOf returns an account's rating in a game and family, a new
// player's when it has none.
func (s *Server) ratingOf(ctx context.Context, userID, gameName, family string) (rating.Rating, error) {
	r, ok, err := s.st.Rating(ctx, userID, gameName, family)
	if err != nil || !ok {
		return rating.New(), err
	}
	return toRating(r), nil
}

// checkRange says what is wrong with a seek's rating bounds, or nil.
func checkRange(lo, hi int) error {
	code, why := "", ""
	switch {
	case lo < 0 || hi < 0:
		code, why = "range_negative", "the bounds are ratings, 0 for none"
	case lo > 0 && hi > 0 && lo > hi:
		code, why = "range_order", "the lower bound is above the upper"
	case lo > 4000 || hi > 4000:
		code, why = "range_max", "ratings go up to 4000"
	default:
		return nil
	}
	return coded(code, fmt.Sprintf("rating range %d to %d: %s", lo, hi, why), "lo", fmt.Sprint(lo), "hi", fmt.Sprint(hi))
}

// checkJoinRated says why who may not take the free seat of a rated game,
// or nil; it returns the joiner's rating as shown. Called with s.mu held.
func (s *session) checkJoinRated(who identity) (string, error) {
	r := s.row
	if who.User == "" {
		return "", forbidCoded("rated_login", "log in to play a rated game")
	}
	for _, u := range r.Users {
		if u == who.User {
			return "", coded("rated_self", "you cannot play a rated game against yourself")
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), s.srv.cfg.WriteTimeout)
	defer cancel()
	mine, err := s.srv.ratingOf(ctx, who.User, r.Game, r.Family)
	if err != nil {
		return "", err
	}
	if v := int(math.Round(mine.R)); r.MinRating > 0 && v < r.MinRating || r.MaxRating > 0 && v > r.MaxRating {
		code := "rating_between"
		switch {
		case r.MaxRating == 0:
			code = "rating_above"
		case r.MinRating == 0:
			code = "rating_below"
		}
		return "", forbidCoded(code, fmt.Sprintf("this game is for ratings %s; yours is %s", rangeText(r.MinRating, r.MaxRating), mine),
			"lo", fmt.Sprint(r.MinRating), "hi", fmt.Sprint(r.MaxRating), "rating", mine.String())
	}
	return mine.String(), nil
}

// rangeText says a seek's rating bounds.
func rangeText(lo, hi int) string {
	switch {
	case lo > 0 && hi > 0:
		return fmt.Sprintf("%d to %d", lo, hi)
	case lo > 0:
		return fmt.Sprintf("%d and above", lo)
	default:
		return fmt.Sprintf("up to %d", hi)
	}
}

// rate applies a finished rated game to its players' ratings and shows
// the change. Called with s.mu held, by the game's owner.
func (s *session) rate() {
	r := s.row
	if !r.Rated || r.Status != store.Finished || r.Users[0] == "" || r.Users[1] == "" {
		return
	}
	var score float64
	switch r.Result {
	case "1-0":
		score = 1
	case "0-1":
		score = 0
	case "1/2-1/2":
		score = 0.5
	default:
		return
	}
	now := millis(time.Now())
	update := func(a, b store.Rating) (store.Rating, store.Rating, error) {
		na, err := rating.DefaultParams.Update(toRating(a), []rating.Result{{Opponent: toRating(b), Score: score}})
		if err != nil {
			return a, b, err
		}
		nb, err := rating.DefaultParams.Update(toRating(b), []rating.Result{{Opponent: toRating(a), Score: 1 - score}})
		if err != nil {
			return a, b, err
		}
		a, b = withRating(a, na), withRating(b, nb)
		a.Games, b.Games = a.Games+1, b.Games+1
		switch score {
		case 1:
			a.Wins, b.Losses = a.Wins+1, b.Losses+1
		case 0:
			a.Losses, b.Wins = a.Losses+1, b.Wins+1
		default:
			a.Draws, b.Draws = a.Draws+1, b.Draws+1
		}
		a.Updated, b.Updated = now, now
		return a, b, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), s.srv.cfg.WriteTimeout)
	defer cancel()
	nr := *r
	if _, err := s.srv.st.RateGame(ctx, &nr, freshRating(), update); err != nil {
		if !errors.Is(err, store.ErrRated) {
			s.srv.log.Error("ratings not updated", "game", s.id, "err", err)
		}
		return
	}
	s.row = &nr
	s.announce() // the mirrors show the change too
	s.srv.log.Info("game rated", "game", s.id, "family", r.Family, "diffs", fmt.Sprint(nr.Diffs))
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

// userByPath reads the {name} of a path and finds the account, answering
// the client itself when there is none.
func (s *Server) userByPath(w http.ResponseWriter, r *http.Request) (*store.User, bool) {
	name := r.PathValue("name")
	var u *store.User
	err := store.ErrNoUser
	if checkUserName(name) == nil { // else no account can have the name
		u, err = s.st.UserByName(r.Context(), name)
	}
	if errors.Is(err, store.ErrNoUser) {
		writeCoded(w, http.StatusNotFound, "no_user", "no such user")
		return nil, false
	}
	if err != nil {
		s.gameError(w, r, err)
		return nil, false
	}
	return u, true
}

func (s *Server) handleUser(w http.ResponseWriter, r *http.Request) {
	u, ok := s.userByPath(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	ratings, err := s.st.Ratings(ctx, u.ID)
	if err != nil {
		s.gameError(w, r, err)
		return
	}
	history, err := s.st.RatingHistory(ctx, u.ID)
	if err != nil {
		s.gameError(w, r, err)
		return
	}
	out := struct {
		Name    string         `json:"name"`
		Created int64          `json:"created"`
		Ratings []ratingJSON   `json:"ratings"`
		Record  map[string]int `json:"record"`
		Games   []summary      `json:"games"`
	}{Name: u.Name, Created: u.Created, Ratings: []ratingJSON{}}
	for _, rt := range ratings {
		v := toRating(rt)
		j := ratingJSON{Game: rt.Game, Family: rt.Family, Rating: int(math.Round(rt.R)), RD: int(math.Round(rt.RD)),
			Provisional: v.Provisional(), Display: v.String(), Games: rt.Games, Wins: rt.Wins, Draws: rt.Draws, Losses: rt.Losses,
			History: []historyPoint{}}
		for _, p := range history {
			if p.Game == rt.Game && p.Family == rt.Family {
				j.History = append(j.History, historyPoint{At: p.At, Rating: int(math.Round(p.R))})
			}
		}
		out.Ratings = append(out.Ratings, j)
	}
	games, err := s.st.UserGames(ctx, u.ID, "", 50)
	if err != nil {
		s.gameError(w, r, err)
		return
	}
	out.Games = summaries(games)
	// The record counts every finished game, rated or not; the games
	// listed are the newest 50.
	wins, draws, losses, err := s.st.UserRecord(ctx, u.ID)
	if err != nil {
		s.gameError(w, r, err)
		return
	}
	out.Record = map[string]int{"wins": wins, "draws": draws, "losses": losses}
	writeJSON(w, http.StatusOK, out)
}

func summaries(games []*store.Game) []summary {
	out := make([]summary, 0, len(games))
	for _, g := range games {
		out = append(out, summarize(g))
	}
	return out
}

func (s *Server) handleUserGames(w http.ResponseWriter, r *http.Request) {
	u, ok := s.userByPath(w, r)
	if !ok {
		return
	}
	limit := 50
	if l := r.URL.Query().Get("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 1 || n > 200 {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("limit %q: want 1 to 200", l))
			return
		}
		limit = n
	}
	before := r.URL.Query().Get("before")
	if before != "" && !validID(before) {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("before %q: not a game id", before))
		return
	}
	games, err := s.st.UserGames(r.Context(), u.ID, before, limit)
	if errors.Is(err, store.ErrNotFound) {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("before %q: no such game", before))
		return
	}
	if err != nil {
		s.gameError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"games": summaries(games)})
}

// handleUserPGN answers every finished game of a player as one PGN file.
func (s *Server) handleUserPGN(w http.ResponseWriter, r *http.Request) {
	u, ok := s.userByPath(w, r)
	if !ok {
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s.pgn"`, u.Name))
	for before := ""; ; {
		page, err := s.st.UserGames(r.Context(), u.ID, before, 200)
		if err != nil {
			s.log.Warn("a player's games not all written", "user", u.Name, "err", err)
			return // the answer has begun: cut short
		}
		for _, g := range page {
			moves, err := s.st.Moves(r.Context(), g.ID)
			if err != nil {
				s.log.Warn("a player's games not all written", "user", u.Name, "err", err)
				return
			}
			gm, _, err := buildGame(g, moves)
			if err != nil {
				s.log.Warn("a game not written", "game", g.ID, "err", err)
				continue
			}
			text, err := record.PGN.Write(game.Transcript{Game: gm, Players: g.Players, Date: time.UnixMilli(g.Created).UTC()})
			if err != nil {
				s.log.Warn("a game not written", "game", g.ID, "err", err)
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

func (s *Server) handleLeaderboard(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	rules, err := requestRules(q.Get("game"), q.Get("family"))
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	family, err := ratingFamily(rules)
	if err != nil {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("family %q: %v", q.Get("family"), err))
		return
	}
	leaders, err := s.st.Leaderboard(r.Context(), rules.Spec().Name, family, provisionalRD, 50)
	if err != nil {
		s.gameError(w, r, err)
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
	writeJSON(w, http.StatusOK, map[string]any{"game": rules.Spec().Name, "family": family, "players": out})
}

// provisionalRD is the deviation up to which a rating is established
// (rating.Rating.Provisional).
const provisionalRD = 110
