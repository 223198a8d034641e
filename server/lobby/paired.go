package lobby

import (
	"time"

	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/server/live"
	"github.com/magneton-games/magneton/server/ratings"
	"github.com/magneton-games/magneton/store"
)

// Settings are the checked settings of the games the server makes between
// two accounts (a tournament's): the rules, the clock and, for rated
// games, the rating family.
type Settings struct {
	Rules  game.Rules
	Clock  string
	Rated  bool
	Family string // the rules' variant, for rated games
	// PerMove marks a correspondence clock.
	PerMove      bool
	initial, inc time.Duration
}

// CheckSettings reads a game's name, rules, clock and whether it is
// rated as POST /api/games does; each refusal says what is wrong.
func CheckSettings(gameName, rules, clock string, rated bool) (Settings, error) {
	st := Settings{Clock: clock, Rated: rated}
	var err error
	if st.Rules, err = games.Rules(gameName, rules); err != nil {
		return st, err
	}
	if st.initial, st.inc, st.PerMove, err = ParseClock(clock); err != nil {
		return st, err
	}
	if rated {
		if st.Family, err = ratings.Family(st.Rules); err != nil {
			return st, err
		}
	}
	return st, nil
}

// Seat is a player of a game the server makes: an account's id, its name,
// in a rated game its rating as shown ("1500?"), and whether it is a bot.
type Seat struct {
	User, Name, Rating string
	Bot                bool
}

// PairedGame is the row of a new game between two accounts, first moving
// first, both seated (by their accounts: no seat tokens), as a game joined
// in the lobby is.
func (st Settings) PairedGame(first, second Seat, now time.Time) *store.Game {
	ng := newGame{rules: st.Rules, initial: st.initial, inc: st.inc, perMove: st.PerMove, clock: st.Clock,
		opponent: live.OpponentHuman, rated: st.Rated, family: st.Family, rating: first.Rating,
		creator: live.Player{Name: first.Name, User: first.User}}
	if !st.Rated {
		ng.family, ng.rating = "", ""
	}
	row := ng.row(now)
	row.Seats[0], row.Invite, row.Status = "", "", store.Playing
	row.Players[1], row.Users[1] = second.Name, second.User
	row.Bots = [2]bool{first.Bot, second.Bot}
	if st.Rated {
		row.Ratings[1] = second.Rating
	}
	return row
}
