package accounts

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/magneton-games/magneton/server/bots"
	"github.com/magneton-games/magneton/server/jsonapi"
	"github.com/magneton-games/magneton/store"
)

// handleDelete deletes the account, with its password: its games stay,
// its seats in them shown as store.DeletedPlayer, and everything else it
// has goes (store.Privacy.DeleteUser); its name is free again. An account
// with games waiting or being played must end them first. The browser is
// a guest afterwards, without the account's seats.
func (a *Accounts) handleDelete(w http.ResponseWriter, r *http.Request) {
	var req accountRequest
	if !jsonapi.Read(w, r, &req) {
		return
	}
	u, _ := a.loggedIn(w, r)
	if u == nil || !a.checkPassword(w, r, u, req.Password) {
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), a.cfg.WriteTimeout)
	defer cancel()
	playing, err := a.cfg.Store.PlayerGames(ctx, u.ID, "")
	if err != nil {
		a.fail(w, r, err)
		return
	}
	err = store.ErrPlaying
	if len(playing) == 0 {
		err = a.cfg.Store.DeleteUser(ctx, u.ID)
	}
	switch {
	case errors.Is(err, store.ErrPlaying):
		n := fmt.Sprint(max(len(playing), 1))
		jsonapi.WriteCoded(w, http.StatusConflict, "delete_playing", fmt.Sprintf("finish, resign or cancel your games first: %s not over", n), "n", n)
		return
	case err != nil:
		a.fail(w, r, err)
		return
	}
	a.cfg.Games.ForgetUser(u.ID)
	a.cfg.Logger.Info("account deleted", "user", u.Name)
	a.loggedOut(w, r, true)
}

// The account's data as its download gives it.
type (
	dataJSON struct {
		Exported      int64               `json:"exported"`
		Account       dataAccount         `json:"account"`
		Ratings       []dataRating        `json:"ratings"`
		RatingHistory []dataPoint         `json:"rating_history"`
		Games         []dataGame          `json:"games"`
		Chat          []dataLine          `json:"chat"`
		Lessons       map[string][]string `json:"lessons"`
		Puzzles       []dataPuzzle        `json:"puzzles"`
		PuzzlePlays   []dataPuzzlePlay    `json:"puzzle_plays"`
		Sessions      []sessionJSON       `json:"sessions"`
		Tournaments   []dataTournament    `json:"tournaments"`
		Tokens        []bots.TokenInfo    `json:"api_tokens"`
	}
	// dataTournament is a tournament the account made or entered.
	dataTournament struct {
		ID        string `json:"id"`
		Name      string `json:"name"`
		Game      string `json:"game"`
		Format    string `json:"format"`
		Status    string `json:"status"`
		Made      bool   `json:"made"`
		Entered   bool   `json:"entered"`
		Rating    int    `json:"rating,omitempty"`
		Withdrawn bool   `json:"withdrawn,omitempty"`
		Joined    int64  `json:"joined,omitempty"`
	}
	dataAccount struct {
		ID      string `json:"id"`
		Name    string `json:"name"`
		Created int64  `json:"created"`
		Email   string `json:"email"`
	}
	dataRating struct {
		Game       string  `json:"game"`
		Family     string  `json:"family"`
		Rating     float64 `json:"rating"`
		RD         float64 `json:"rd"`
		Volatility float64 `json:"volatility"`
		Games      int     `json:"games"`
		Wins       int     `json:"wins"`
		Draws      int     `json:"draws"`
		Losses     int     `json:"losses"`
		Updated    int64   `json:"updated"`
	}
	dataPoint struct {
		Game   string  `json:"game"`
		Family string  `json:"family"`
		GameID string  `json:"game_id"`
		At     int64   `json:"at"`
		Rating float64 `json:"rating"`
		RD     float64 `json:"rd"`
	}
	dataGame struct {
		ID          string     `json:"id"`
		Game        string     `json:"game"`
		Rules       string     `json:"rules"`
		Start       string     `json:"start"`
		Opponent    string     `json:"opponent"`
		Level       int        `json:"level,omitempty"`
		Players     [2]string  `json:"players"`
		Seats       []int      `json:"seats"` // the account's
		Status      string     `json:"status"`
		Result      string     `json:"result"`
		Reason      string     `json:"reason"`
		Rated       bool       `json:"rated"`
		Family      string     `json:"family,omitempty"`
		Ratings     [2]string  `json:"ratings"`
		RatingDiffs [2]int     `json:"rating_diffs"`
		Public      bool       `json:"public"`
		Created     int64      `json:"created"`
		Updated     int64      `json:"updated"`
		Moves       []dataMove `json:"moves"`
	}
	dataMove struct {
		Move     string `json:"move"`
		PlayedAt int64  `json:"played_at"`
		ClockMS  int64  `json:"clock_ms"`
	}
	dataLine struct {
		Game string `json:"game"`
		Room string `json:"room"`
		Side int    `json:"side"`
		Name string `json:"name"`
		Text string `json:"text"`
		At   int64  `json:"at"`
	}
	dataPuzzle struct {
		Puzzle string `json:"puzzle"`
		Solved bool   `json:"solved"`
		At     int64  `json:"at"`
	}
	// dataPuzzlePlay is one attempt of the puzzle history, rated or not.
	dataPuzzlePlay struct {
		Puzzle string  `json:"puzzle"`
		Game   string  `json:"game"`
		Solved bool    `json:"solved"`
		Rated  bool    `json:"rated"`
		Rating float64 `json:"rating"`
		Diff   int     `json:"diff"`
		At     int64   `json:"at"`
	}
)

// handleData answers everything the site keeps about the account, as a
// JSON file to download.
func (a *Accounts) handleData(w http.ResponseWriter, r *http.Request) {
	u, current := a.loggedIn(w, r)
	if u == nil {
		return
	}
	if !a.cfg.Clients.AllowExport(a.cfg.Proxies.ClientIP(r)) {
		jsonapi.WriteCoded(w, http.StatusTooManyRequests, "data_fast", "too many downloads of your data: try again in an hour")
		return
	}
	d, err := a.cfg.Store.AccountData(r.Context(), u.ID)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	b, err := json.MarshalIndent(accountData(d, current, time.Now()), "", "  ")
	if err != nil {
		a.fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="magneton-%s.json"`, u.Name))
	w.Write(append(b, '\n'))
}

// accountData is the download of d, current marking the session that
// asked.
func accountData(d *store.AccountData, current string, now time.Time) dataJSON {
	out := dataJSON{Exported: now.UnixMilli(), Account: dataAccount{ID: d.User.ID, Name: d.User.Name, Created: d.User.Created, Email: d.User.Email},
		Ratings: []dataRating{}, RatingHistory: []dataPoint{}, Games: []dataGame{}, Chat: []dataLine{}, Lessons: d.Lessons, Puzzles: []dataPuzzle{}, PuzzlePlays: []dataPuzzlePlay{},
		Sessions: sessionsJSON(d.Sessions, current)["sessions"].([]sessionJSON), Tournaments: []dataTournament{}, Tokens: []bots.TokenInfo{}}
	for _, t := range d.Tournaments {
		out.Tournaments = append(out.Tournaments, dataTournament{t.ID, t.Name, t.Game, t.Format, t.Status, t.Made, t.Entered, t.Rating, t.Withdrawn, t.Joined})
	}
	for _, t := range d.Tokens {
		out.Tokens = append(out.Tokens, bots.Info(t))
	}
	for _, p := range d.PuzzlePlays {
		out.PuzzlePlays = append(out.PuzzlePlays, dataPuzzlePlay{p.Puzzle, p.Game, p.Solved, p.Rated, p.Rating, p.Diff, p.At})
	}
	for _, p := range d.Puzzles {
		out.Puzzles = append(out.Puzzles, dataPuzzle{p.Puzzle, p.Solved, p.At})
	}
	for _, r := range d.Ratings {
		out.Ratings = append(out.Ratings, dataRating{r.Game, r.Family, r.R, r.RD, r.Vol, r.Games, r.Wins, r.Draws, r.Losses, r.Updated})
	}
	for _, p := range d.History {
		out.RatingHistory = append(out.RatingHistory, dataPoint{p.Game, p.Family, p.GameID, p.At, p.R, p.RD})
	}
	for _, g := range d.Games {
		out.Games = append(out.Games, dataGameOf(g, d.User.ID, d.Moves[g.ID]))
	}
	for _, l := range d.Chat {
		out.Chat = append(out.Chat, dataLine{l.Game, l.Room, l.Side, l.Name, l.Text, l.At})
	}
	return out
}

// dataGameOf is a game of the account userID in its download: what any
// player of it sees, not its seats' tokens nor the others' accounts.
func dataGameOf(g *store.Game, userID string, moves []store.Move) dataGame {
	dg := dataGame{ID: g.ID, Game: g.Game, Rules: g.Rules, Start: g.Start, Opponent: g.Opponent, Level: g.Level, Players: g.Players,
		Seats: []int{}, Status: g.Status, Result: g.Result, Reason: g.Reason, Rated: g.Rated, Family: g.Family, Ratings: g.Ratings,
		RatingDiffs: g.Diffs, Public: g.Public, Created: g.Created, Updated: g.Updated, Moves: []dataMove{}}
	for i, u := range g.Users {
		if u == userID {
			dg.Seats = append(dg.Seats, i)
		}
	}
	for _, m := range moves {
		dg.Moves = append(dg.Moves, dataMove{m.Move, m.PlayedAt, m.Clock.Milliseconds()})
	}
	return dg
}
