package record

import (
	"fmt"
	"strings"
	"time"

	"github.com/magneton-games/magneton/game"
)

// PGN is the project's record as a record format, the one every game has.
var PGN = game.RecordFormat{
	Name:  "pgn",
	Title: "PGN-like record",
	Write: func(t game.Transcript) (string, error) {
		return FromTranscript(t).Format(), nil
	},
	Read: func(text string) (game.Transcript, error) {
		r, err := Parse(text)
		if err != nil {
			return game.Transcript{}, err
		}
		return r.Transcript()
	},
}

// Transcript replays the record (Replay) and returns the game with the
// players and the date its tags name, as PGN's Read does.
func (r *Record) Transcript() (game.Transcript, error) {
	g, err := r.Replay()
	if err != nil {
		return game.Transcript{}, err
	}
	sp := g.Rules().Spec()
	t := game.Transcript{Game: g, Players: [2]string{r.Tag(sp.SideNames[0]), r.Tag(sp.SideNames[1])},
		Event: r.Tag("Event"), Site: r.Tag("Site"), TimeControl: r.Tag("TimeControl")}
	for i, side := range sp.SideNames {
		if elo := r.Tag(side + "Elo"); elo != "?" {
			t.Elo[i] = elo
		}
	}
	if d, err := time.Parse("2006.01.02", r.Tag("Date")); err == nil {
		t.Date = d
	}
	return t, nil
}

// Formats returns the record formats of a game: PGN first, then the
// game's own (Spec.Formats).
func Formats(sp *game.Spec) []game.RecordFormat {
	return append([]game.RecordFormat{PGN}, sp.Formats...)
}

// FormatOf finds a record format of a game by name; the error lists the
// game's formats.
func FormatOf(sp *game.Spec, name string) (game.RecordFormat, error) {
	var known []string
	for _, f := range Formats(sp) {
		if f.Name == name {
			return f, nil
		}
		known = append(known, f.Name)
	}
	return game.RecordFormat{}, fmt.Errorf("%s records are %s, not %q", sp.Title, strings.Join(known, " or "), name)
}
