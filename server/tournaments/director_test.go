package tournaments

import (
	"testing"

	"github.com/magneton-games/magneton/store"
	"github.com/magneton-games/magneton/tournament"
)

// TestGameResult: a pairing's result from its game's row: a finished
// game's, a no-show's loss, a later abort a draw, pending while played.
func TestGameResult(t *testing.T) {
	for _, tc := range []struct {
		status, result string
		moves          int
		want           tournament.Result
		noShow         string
	}{
		{store.Playing, "*", 12, tournament.Pending, ""},
		{store.Finished, "1-0", 30, tournament.FirstWins, ""},
		{store.Finished, "0-1", 31, tournament.SecondWins, ""},
		{store.Finished, "1/2-1/2", 80, tournament.Draw, ""},
		{store.Aborted, "*", 0, tournament.SecondWins, "ann"},
		{store.Aborted, "*", 1, tournament.FirstWins, "bob"},
		{store.Aborted, "*", 9, tournament.Draw, ""},
	} {
		p := store.TournamentPairing{First: "ann", Second: "bob", GameStatus: tc.status, GameResult: tc.result, GameMoves: tc.moves}
		if got, noShow := gameResult(p); got != tc.want || noShow != tc.noShow {
			t.Errorf("%s %s after %d moves: %d %q, want %d %q", tc.status, tc.result, tc.moves, got, noShow, tc.want, tc.noShow)
		}
	}
}

// TestOutcome: a player's result in words, and a pairing's as a game's.
func TestOutcome(t *testing.T) {
	for _, tc := range []struct {
		r    tournament.PlayerResult
		want string
	}{
		{tournament.PlayerResult{Opponent: "", First: true, Result: tournament.FirstWins}, "bye"},
		{tournament.PlayerResult{Opponent: "b", First: true, Result: tournament.FirstWins}, "win"},
		{tournament.PlayerResult{Opponent: "b", First: false, Result: tournament.FirstWins}, "loss"},
		{tournament.PlayerResult{Opponent: "b", First: false, Result: tournament.SecondWins}, "win"},
		{tournament.PlayerResult{Opponent: "b", Result: tournament.Draw}, "draw"},
		{tournament.PlayerResult{Opponent: "b", Result: tournament.Pending}, "pending"},
	} {
		if got := outcome(tc.r); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.r, got, tc.want)
		}
	}
	for p, want := range map[store.TournamentPairing]string{
		{First: "a"}: "bye", {First: "a", Second: "b", Result: 1}: "1-0", {First: "a", Second: "b", Result: 2}: "0-1",
		{First: "a", Second: "b", Result: 3}: "1/2-1/2", {First: "a", Second: "b"}: "*",
	} {
		if got := resultText(p); got != want {
			t.Errorf("%+v: %q, want %q", p, got, want)
		}
	}
}
