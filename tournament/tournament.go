// Package tournament is the pure logic of the site's tournaments: who plays
// whom in each round of a round robin, a Swiss or an arena, what each result
// is worth, and the standings with their tie-breaks. It keeps no state and
// knows nothing of databases, games or HTTP: the server stores a
// tournament's [Entry] list and its [Pairing] history and asks this package
// for the next pairings and the standings.
//
// Players are ids (strings). "First" is the player who moves first in the
// game; the site's colours vary by game, so the package stays neutral.
// docs/tournaments.md states the rules for players and organisers.
//
// Every function is deterministic: the same entries and history give the
// same pairings, so a server that takes over a tournament from another
// (or retries after a crash) pairs a round exactly as the first would
// have. Bad input gets an *[Error] with a Code, never a panic.
package tournament

import "fmt"

// Format is a kind of tournament.
type Format string

// The formats.
const (
	Arena      Format = "arena"      // a time window; players are paired whenever they wait
	RoundRobin Format = "roundrobin" // everyone meets everyone once, by the Berger tables
	Swiss      Format = "swiss"      // a fixed number of rounds, opponents of a similar score
)

// Result is a game's outcome.
type Result int8

// The results.
const (
	Pending    Result = iota // the game is being played (or not yet made)
	FirstWins                // the player who moved first won; also the Result of a bye
	SecondWins               // the player who moved second won
	Draw                     // a draw
)

// Pairing is one game of a tournament, or a bye (Second == "").
type Pairing struct {
	Round  int    // 1-based; 0 in an arena
	First  string // the player who moves first (the one who gets the bye)
	Second string // "" for a bye
	Result Result // a bye's is FirstWins
	GameID string // the site's game, "" for a bye or before it is made
}

// Bye reports whether p is a bye rather than a game.
func (p Pairing) Bye() bool { return p.Second == "" }

// Entry is a player in a tournament.
type Entry struct {
	Player      string
	Rating      int
	Withdrawn   bool
	Paused      bool // arena only: not paired until unpaused
	JoinedRound int  // Swiss/RR: the first round they can be paired in (late join), 1 for from the start (0 is taken as 1)
}

// Standing is a player's place.
type Standing struct {
	Player                     string
	Rank                       int // 1-based; players equal on points and every tie-break but the id share a rank
	Points                     float64
	Games, Wins, Draws, Losses int // games played (byes not included), and their outcomes
	Byes                       int
	Buchholz, SonnebornBerger  float64 // Swiss and round robin only
	Fire                       bool    // arena only: on a streak of two wins or more, so a win is worth 4
	Withdrawn                  bool
	Results                    []PlayerResult // in the order of the pairings
}

// PlayerResult is one game (or bye) of a player, as their tournament page
// shows it.
type PlayerResult struct {
	Round    int    // as in the Pairing
	Opponent string // "" for a bye
	First    bool   // the player moved first (true for a bye)
	Result   Result // the Pairing's result (FirstWins for a bye)
	Points   float64
}

// Error is a coded error: Code is a stable identifier the server passes to
// the page (and the i18n catalogues translate), Msg says in English what is
// wrong.
type Error struct {
	Code string
	Msg  string
}

// Error implements error.
func (e *Error) Error() string { return "tournament: " + e.Msg }

// The error codes.
const (
	CodeBadFormat       = "tournament_bad_format"       // a Format this package does not know
	CodeBadRound        = "tournament_bad_round"        // a round number out of range
	CodeTooFewPlayers   = "tournament_too_few_players"  // fewer than two players to pair
	CodeBadEntry        = "tournament_bad_entry"        // an empty or repeated player id
	CodeUnknownPlayer   = "tournament_unknown_player"   // a pairing names a player not entered
	CodeBadPairing      = "tournament_bad_pairing"      // a player against themselves, a bad result, a bye where none may be
	CodeTwiceInRound    = "tournament_twice_in_round"   // a player in two pairings of one round
	CodeRematch         = "tournament_rematch"          // two players meeting twice (Swiss, round robin)
	CodeSecondBye       = "tournament_second_bye"       // a second bye when another player had none
	CodeRoundIncomplete = "tournament_round_incomplete" // pairing a round while an earlier one has games pending
	CodeNoPairing       = "tournament_no_pairing"       // no pairing of the round avoids a rematch
	CodeNotInTable      = "tournament_not_in_table"     // a round robin pairing that is not the Berger table's
)

func errorf(code, format string, args ...any) error {
	return &Error{Code: code, Msg: fmt.Sprintf(format, args...)}
}
