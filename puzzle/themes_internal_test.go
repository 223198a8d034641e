package puzzle

import (
	"slices"
	"testing"

	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/magneton"
	"github.com/magneton-games/magneton/tumbling"
)

// TestThreats: distinct threats among winning moves, as each game counts
// them (a game without motifs: every move its own).
func TestThreats(t *testing.T) {
	for _, tc := range []struct {
		name  string
		spec  *game.Spec
		moves []string
		want  int
	}{
		{"two stacks", tumbling.Spec, []string{"g3>g2", "h2-g1", "h2>g1"}, 2},
		{"one stack", tumbling.Spec, []string{"h2-g1", "h2>g1"}, 1},
		{"two slides", magneton.Spec, []string{"d1-g1", "d1-h1"}, 2},
		{"none", magneton.Spec, nil, 0},
		{"no motifs", &game.Spec{}, []string{"h2-g1", "h2>g1"}, 2},
	} {
		if got := threats(tc.spec.Motifs, tc.moves); got != tc.want {
			t.Errorf("%s %v: %d threats, want %d", tc.name, tc.moves, got, tc.want)
		}
	}
}

// TestAllThemes: the themes of every game, then the game's own motifs;
// the common themes alone for a name no game has.
func TestAllThemes(t *testing.T) {
	common := []string{"win-in-1", "win-in-2", "win-in-3", ThemeDoubleThreat}
	for _, tc := range []struct {
		game string
		want []string
	}{
		{"magneton", append(slices.Clone(common), magneton.Spec.Motifs.IDs...)},
		{"tumbling-down", append(slices.Clone(common), tumbling.Spec.Motifs.IDs...)},
		{"chess", common},
	} {
		if got := AllThemes(tc.game); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.game, got, tc.want)
		}
	}
}
