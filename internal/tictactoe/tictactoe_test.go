package tictactoe_test

import (
	"testing"

	"github.com/magneton-games/magneton/gametest"
	"github.com/magneton-games/magneton/internal/tictactoe"
)

// TestConformance runs the whole conformance suite on the toy game, which
// it registers: nothing else is needed for a game to get it.
func TestConformance(t *testing.T) {
	gametest.Run(t, tictactoe.Game, "testdata")
}
