package tournaments

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/magneton-games/magneton/server/ids"
	"github.com/magneton-games/magneton/server/jsonapi"
	"github.com/magneton-games/magneton/store"
	"github.com/magneton-games/magneton/tournament"
)

// Summary is a tournament as the lists show it.
type Summary struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Game    string `json:"game"`
	Rules   string `json:"rules"`
	Format  string `json:"format"`
	Clock   string `json:"clock"`
	Rated   bool   `json:"rated"`
	Bots    bool   `json:"bots"`
	Status  string `json:"status"`
	Starts  int64  `json:"starts"`
	Ends    int64  `json:"ends,omitempty"`
	Rounds  int    `json:"rounds,omitempty"`
	Round   int    `json:"round"`
	Players int    `json:"players"`
	Creator string `json:"creator"`
	// Scheduled is set for a tournament the site made (its schedule), which
	// has no creator.
	Scheduled bool   `json:"scheduled,omitempty"`
	Winner    string `json:"winner,omitempty"`
}

func summary(t *store.Tournament) Summary {
	return Summary{ID: t.ID, Name: t.Name, Game: t.Game, Rules: t.Rules, Format: t.Format, Clock: t.Clock, Rated: t.Rated, Bots: t.Bots,
		Status: t.Status, Starts: t.Starts, Ends: t.Ends, Rounds: t.Rounds, Round: t.Round, Players: t.Players, Creator: t.CreatorName, Scheduled: t.Creator == "", Winner: t.WinnerName}
}

// List is the answer of GET /api/tournaments.
type List struct {
	Current  []Summary `json:"current"`
	Upcoming []Summary `json:"upcoming"`
	Finished []Summary `json:"finished"`
}

func (t *Tournaments) handleList(w http.ResponseWriter, r *http.Request) {
	winner := ""
	if name := r.URL.Query().Get("winner"); name != "" {
		u, err := t.cfg.Store.UserByName(r.Context(), name)
		if errors.Is(err, store.ErrNoUser) {
			jsonapi.WriteCoded(w, http.StatusNotFound, "no_user", "no such player")
			return
		}
		if err != nil {
			t.fail(w, r, err)
			return
		}
		winner = u.ID
	}
	list, err := t.Lists(r.Context(), winner)
	if err != nil {
		t.fail(w, r, err)
		return
	}
	jsonapi.Write(w, http.StatusOK, list)
}

// Lists returns the current, upcoming and recently finished tournaments;
// with winner, only the finished ones that account won.
func (t *Tournaments) Lists(ctx context.Context, winner string) (List, error) {
	out := List{Current: []Summary{}, Upcoming: []Summary{}, Finished: []Summary{}}
	if winner == "" {
		open, err := t.cfg.Store.TournamentList(ctx, store.TournamentQuery{})
		if err != nil {
			return out, err
		}
		for _, tr := range open {
			if tr.Status == store.TournamentStarted {
				out.Current = append(out.Current, summary(tr))
			} else {
				out.Upcoming = append(out.Upcoming, summary(tr))
			}
		}
	}
	done, err := t.cfg.Store.TournamentList(ctx, store.TournamentQuery{Finished: true, Winner: winner, Limit: listFinished})
	if err != nil {
		return out, err
	}
	for _, tr := range done {
		out.Finished = append(out.Finished, summary(tr))
	}
	return out, nil
}

// Player is an entry as the tournament's page shows it.
type Player struct {
	Name            string  `json:"name"`
	Rating          int     `json:"rating"`
	Rank            int     `json:"rank"`
	Points          float64 `json:"points"`
	Games           int     `json:"games"`
	Wins            int     `json:"wins"`
	Draws           int     `json:"draws"`
	Losses          int     `json:"losses"`
	Byes            int     `json:"byes"`
	Buchholz        float64 `json:"buchholz"`
	SonnebornBerger float64 `json:"sonneborn_berger"`
	Fire            bool    `json:"fire"`
	Withdrawn       bool    `json:"withdrawn"`
	// Results name the opponents.
	Results []Result `json:"results"`
	Paused  bool     `json:"paused"`
	Playing string   `json:"playing,omitempty"` // the game in progress
}

// Result is one of a player's games.
type Result struct {
	Round    int     `json:"round"`
	Opponent string  `json:"opponent"` // a name, "" for a bye
	First    bool    `json:"first"`
	Result   string  `json:"result"` // "win", "draw", "loss", "bye", "pending"
	Points   float64 `json:"points"`
}

// Pairing is one game of the tournament, with the players' names.
type Pairing struct {
	Round  int    `json:"round"`
	First  string `json:"first"`
	Second string `json:"second"` // "" for a bye
	Game   string `json:"game,omitempty"`
	Result string `json:"result"` // "1-0", "0-1", "1/2-1/2", "*" pending, "bye"
}

// Detail is the answer of GET /api/tournaments/{id}.
type Detail struct {
	Summary
	Standings []Player  `json:"standings"`
	Pairings  []Pairing `json:"pairings"`
	Playing   []Pairing `json:"playing"`
	// Me is the caller's entry: "" for none, "entered", "paused" or
	// "withdrawn"; Mine whether the caller made it.
	Me   string `json:"me"`
	Mine bool   `json:"mine"`
	Now  int64  `json:"now"`
}

// pathID reads and checks the {id} of a path; false when it has answered
// 404.
func pathID(w http.ResponseWriter, r *http.Request) (string, bool) {
	id := r.PathValue("id")
	if !ids.Valid(id) {
		jsonapi.WriteCoded(w, http.StatusNotFound, "no_tournament", "no such tournament")
		return "", false
	}
	return id, true
}

// state reads a tournament, its entries and pairings.
func (t *Tournaments) state(ctx context.Context, id string) (*store.Tournament, []store.TournamentEntry, []store.TournamentPairing, error) {
	tr, err := t.cfg.Store.Tournament(ctx, id)
	if err != nil {
		return nil, nil, nil, err
	}
	entries, err := t.cfg.Store.TournamentEntries(ctx, id)
	if err != nil {
		return nil, nil, nil, err
	}
	ps, err := t.cfg.Store.TournamentPairings(ctx, id)
	return tr, entries, ps, err
}

// logic is the store's entries and pairings as package tournament's.
func logic(entries []store.TournamentEntry, ps []store.TournamentPairing) ([]tournament.Entry, []tournament.Pairing) {
	es := make([]tournament.Entry, len(entries))
	for i, e := range entries {
		es[i] = tournament.Entry{Player: e.User, Rating: e.Rating, Withdrawn: e.Withdrawn, Paused: e.Paused, JoinedRound: e.JoinedRound}
	}
	out := make([]tournament.Pairing, len(ps))
	for i, p := range ps {
		out[i] = tournament.Pairing{Round: p.Round, First: p.First, Second: p.Second, Result: tournament.Result(p.Result), GameID: p.GameID}
	}
	return es, out
}

func (t *Tournaments) handleShow(w http.ResponseWriter, r *http.Request) {
	id, ok := pathID(w, r)
	if !ok {
		return
	}
	tr, entries, ps, err := t.state(r.Context(), id)
	if errors.Is(err, store.ErrNoTournament) {
		jsonapi.WriteCoded(w, http.StatusNotFound, "no_tournament", "no such tournament")
		return
	}
	if err != nil {
		t.fail(w, r, err)
		return
	}
	userID := t.cfg.Identities.UserID(r)
	jsonapi.Write(w, http.StatusOK, detail(tr, entries, ps, userID))
}

// detail is a tournament's page's data, for the account userID.
func detail(tr *store.Tournament, entries []store.TournamentEntry, ps []store.TournamentPairing, userID string) Detail {
	d := Detail{Summary: summary(tr), Standings: []Player{}, Pairings: []Pairing{}, Playing: []Pairing{}, Mine: userID != "" && userID == tr.Creator,
		Now: time.Now().UnixMilli()}
	names, byUser := map[string]string{}, map[string]store.TournamentEntry{}
	for _, e := range entries {
		names[e.User], byUser[e.User] = e.Name, e
		if e.User == userID {
			d.Me = "entered"
			switch {
			case e.Withdrawn:
				d.Me = "withdrawn"
			case e.Paused:
				d.Me = "paused"
			}
		}
	}
	playing := map[string]string{}
	for _, p := range ps {
		out := Pairing{Round: p.Round, First: names[p.First], Second: names[p.Second], Game: p.GameID, Result: resultText(p)}
		d.Pairings = append(d.Pairings, out)
		if p.Second != "" && tournament.Result(p.Result) == tournament.Pending {
			d.Playing = append(d.Playing, out)
			playing[p.First], playing[p.Second] = p.GameID, p.GameID
		}
	}
	es, logicPs := logic(entries, ps)
	for _, s := range tournament.Standings(tournament.Format(tr.Format), es, logicPs) {
		e := byUser[s.Player]
		pl := Player{Name: names[s.Player], Rating: e.Rating, Rank: s.Rank, Points: s.Points, Games: s.Games, Wins: s.Wins, Draws: s.Draws,
			Losses: s.Losses, Byes: s.Byes, Buchholz: s.Buchholz, SonnebornBerger: s.SonnebornBerger, Fire: s.Fire, Withdrawn: s.Withdrawn,
			Results: []Result{}, Paused: e.Paused, Playing: playing[s.Player]}
		for _, res := range s.Results {
			pl.Results = append(pl.Results, Result{Round: res.Round, Opponent: names[res.Opponent], First: res.First,
				Result: outcome(res), Points: res.Points})
		}
		d.Standings = append(d.Standings, pl)
	}
	return d
}

// resultText is a pairing's result as a game's: "1-0", or "bye".
func resultText(p store.TournamentPairing) string {
	if p.Second == "" {
		return "bye"
	}
	switch tournament.Result(p.Result) {
	case tournament.FirstWins:
		return "1-0"
	case tournament.SecondWins:
		return "0-1"
	case tournament.Draw:
		return "1/2-1/2"
	}
	return "*"
}

// outcome is a player's result in words.
func outcome(r tournament.PlayerResult) string {
	switch {
	case r.Opponent == "":
		return "bye"
	case r.Result == tournament.Pending:
		return "pending"
	case r.Result == tournament.Draw:
		return "draw"
	case (r.Result == tournament.FirstWins) == r.First:
		return "win"
	}
	return "loss"
}
