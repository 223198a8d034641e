package games_test

import (
	"path/filepath"
	"testing"

	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/gametest"
)

// TestConformance runs the conformance suite over every registered game,
// with its reference data in testdata/<name>.
func TestConformance(t *testing.T) {
	for _, g := range games.All() {
		t.Run(g.Spec.Name, func(t *testing.T) {
			gametest.Run(t, g, filepath.Join("..", "testdata", g.Spec.Name))
		})
	}
}
