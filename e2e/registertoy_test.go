package e2e

import (
	"testing"

	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/internal/tictactoe"
	"github.com/magneton-games/magneton/internal/tictactoe/tictactoeai"
)

// registerToyGame registers the toy third game, internal/tictactoe, so
// that the play server offers it (only tests register it; registering it
// again does nothing). It stays registered for the tests run after.
func registerToyGame(t *testing.T) {
	t.Helper()
	if err := games.Register(&games.Game{Spec: tictactoe.Spec, AI: tictactoeai.Profile, Solver: tictactoeai.Solver}); err != nil {
		t.Fatal(err)
	}
}
