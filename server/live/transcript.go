package live

import (
	"fmt"
	"strings"
	"time"

	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/store"
)

// Transcript is a stored game as its record tells it: the rules engine's
// history of it with the players, the day it began, its kind ("Rated
// Magneton game"), its address on the site (site is the site's address,
// "" for none), its clock in PGN's TimeControl form and the players'
// ratings when a rated game began.
func Transcript(row *store.Game, history *game.Game, site string) game.Transcript {
	kind := "Casual"
	if row.Rated {
		kind = "Rated"
	}
	t := game.Transcript{Game: history, Players: row.Players, Date: time.UnixMilli(row.Created).UTC(),
		Event:       fmt.Sprintf("%s %s game", kind, history.Rules().Spec().Title),
		TimeControl: timeControl(row)}
	if site != "" {
		t.Site = strings.TrimRight(site, "/") + "/g/" + row.ID
	}
	if row.Rated {
		for i, r := range row.Ratings {
			// A provisional rating is shown "1500?"; PGN's Elo is a number.
			t.Elo[i] = strings.TrimSuffix(r, "?")
		}
	}
	return t
}

// timeControl writes a game's clock as PGN's TimeControl tag does: "-"
// for none, seconds and increment ("300+3"), and a correspondence clock
// as one move in its time ("1/259200").
func timeControl(row *store.Game) string {
	secs := int64(row.ClockInitial / time.Second)
	switch {
	case row.ClockInitial == 0 && row.ClockIncrement == 0:
		return "-"
	case row.PerMove:
		return fmt.Sprintf("1/%d", secs)
	case row.ClockIncrement == 0:
		return fmt.Sprint(secs)
	}
	return fmt.Sprintf("%d+%d", secs, int64(row.ClockIncrement/time.Second))
}
