package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/internal/tictactoe"
	"github.com/magneton-games/magneton/internal/tictactoe/tictactoeai"
)

// TestThirdGame checks the design of one registration per game: the toy
// game of package tictactoe, registered here and named nowhere else,
// works in every subcommand that handles any game.
func TestThirdGame(t *testing.T) {
	if err := games.Register(&games.Game{Spec: tictactoe.Spec, AI: tictactoeai.Profile, Solver: tictactoeai.Solver}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args  []string
		stdin string
		want  []string
	}{
		{[]string{"--game", "tictactoe", "perft", "start", "9"}, "", []string{"127872\n"}},
		{[]string{"--game", "noughts-and-crosses", "perft", "--divide", "x.o/.x./o.. x", "1"}, "", []string{"a2 1\n", "c2 1\n", "5\n"}},
		{[]string{"--game", "tictactoe", "moves", "x.o/.x./o.. x"}, "", []string{"a2 b1 b3 c1 c2\n"}},
		{[]string{"--game", "tictactoe", "apply", "x.o/.x./o.. x", "c1"}, "", []string{"x.o/.x./o.x o\tx\n"}},
		{[]string{"--game", "tictactoe", "--rule", "misere", "apply", "x.o/.x./o.. x", "c1"}, "", []string{"\to\n"}},
		{[]string{"--game", "tictactoe", "show", "x.o/.x./o.. x"}, "", []string{"x.o\n.x.\no..\nX to move."}},
		{[]string{"--game", "tictactoe", "rules"}, "", []string{"Tic-tac-toe rule options", "misere", "in force: goal=three-wins"}},
		{[]string{"--game", "tictactoe", "analyze", "--depth", "9", "start"}, "", []string{"depth  9", "best move"}},
		{[]string{"--game", "tictactoe", "analyze", "--depth", "3", "x.o/.x./o.. x"}, "", []string{"mate 1", "best move c1"}},
		{[]string{"--game", "tictactoe", "match", "--a", "level:8", "--b", "random", "--games", "6", "--movetime", "5ms", "--quiet"}, "", []string{"Tic-tac-toe, 6 games", "score A: "}},
		{[]string{"--game", "tictactoe", "ugi"}, "ugi\nisready\nposition fen x.o/.x./o.. x\ngo depth 2\nquery gameover\n", []string{"option name game type combo default tictactoe", "option name goal", "readyok", "bestmove c1", "response false"}},
		{[]string{"ugi"}, "setoption name game value noughts-and-crosses\nposition startpos moves b2 a1 c3\nquery p1turn\nquit\n", []string{"response false"}},
		{[]string{"--game", "tictactoe", "play", "--level", "8", "--time", "10ms"}, "b2\nmoves\nquit\n", []string{".x.", "O to move"}},
	} {
		// (The engine's input ends without quit: the end of input lets a
		// bounded search finish, where quit would cut it short, at
		// whatever depth a loaded machine had reached.)
		out, errs, code := runCmd(t, tc.stdin, tc.args...)
		if code != 0 {
			t.Errorf("%v: exit %d: %s", tc.args, code, errs)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("%v: output lacks %q:\n%s", tc.args, w, out)
			}
		}
	}
	// The start is a draw, and its certificate (each side's proof that
	// it does not lose) says so when verified.
	proof := filepath.Join(t.TempDir(), "draw.proof")
	out, errs, code := runCmd(t, "", "--game", "tictactoe", "solve", "--hash", "1", "--out", proof, "start")
	if code != 0 || !strings.Contains(out, "proven draw") || !strings.Contains(out, "the draw's two proofs") {
		t.Fatalf("solve start: exit %d: %s%s", code, out, errs)
	}
	out, errs, code = runCmd(t, "", "solve", "--verify", proof)
	if code != 0 || !strings.Contains(out, "X does not lose") || !strings.Contains(out, "O does not lose") || !strings.Contains(out, "is a draw: neither side can force a win") {
		t.Errorf("verify the draw: exit %d: %s%s", code, out, errs)
	}
	// A level 8 never loses at tic-tac-toe: against random it wins or
	// draws every game.
	out, _, _ = runCmd(t, "", "--game", "tictactoe", "match", "--a", "level:8", "--b", "random", "--games", "20", "--movetime", "5ms", "--quiet")
	if !strings.Contains(out, "-0)") {
		t.Errorf("level 8 lost a game of tic-tac-toe:\n%s", out)
	}
}
