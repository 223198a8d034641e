package tictactoeai_test

import (
	"path/filepath"
	"testing"

	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/gametest"
	"github.com/magneton-games/magneton/internal/tictactoe"
	"github.com/magneton-games/magneton/internal/tictactoe/tictactoeai"
)

// TestConformance runs the whole conformance suite on the toy game, which
// it registers as a built-in game is (its rules, its computer players and
// its solver), with its reference data where a built-in game's is: nothing
// else is needed for a game to get it.
func TestConformance(t *testing.T) {
	g := &games.Game{Spec: tictactoe.Spec, AI: tictactoeai.Profile, Solver: tictactoeai.Solver}
	gametest.Run(t, g, filepath.Join("..", "..", "..", "testdata", tictactoe.Spec.Name))
}
