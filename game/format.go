package game

import "time"

// Transcript is one whole game as a record file holds it: the game itself
// (rules, start, moves and result, with its ending) and what a record adds
// about it.
type Transcript struct {
	Game    *Game
	Players [2]string // the names of the first and the second player; "" when not recorded
	Date    time.Time // the day the game was played; zero when not recorded
	// Event names the kind of game ("Rated Magneton game"), Site where it
	// was played (the game's address), TimeControl its clock in PGN's form
	// ("300+3", "-" for none); Elo each player's rating when it began ("" when
	// not rated). All "" when not recorded.
	Event, Site, TimeControl string
	Elo                      [2]string
}

// RecordFormat is a file format for whole games. Every game has the
// project's PGN-like record (package record); a game lists any others in
// its Spec.Formats, such as SGF for Tumbling Down.
type RecordFormat struct {
	// Name is the format's short name, used as the file extension and as
	// the play server's format= parameter: "sgf".
	Name string
	// Title names it for people: "SGF (Smart Game Format)".
	Title string
	// Write writes one game.
	Write func(t Transcript) (string, error)
	// Read reads one game written by Write (or by another program that
	// writes the format) and replays its moves by the rules; the error
	// says what is wrong and where.
	Read func(text string) (Transcript, error)
}
