package live

import (
	"slices"
	"testing"
	"time"

	"github.com/magneton-games/magneton/store"
)

// TestPremoves: the player waiting in a live game gets the moves that may
// be legal once the opponent has moved; the player to move, a
// correspondence game and a game over get none.
func TestPremoves(t *testing.T) {
	for _, tc := range []struct {
		name  string
		opts  []func(*store.Game)
		moves []string
		seat  int
		has   []string // among the premoves
		none  bool
	}{
		{name: "White waits after d4", moves: []string{"d4"}, seat: 0, has: []string{"a1", "h8"}},
		{name: "Black waits at the start", seat: 1, has: []string{"a1", "e5"}},
		{name: "the player to move", moves: []string{"d4"}, seat: 1, none: true},
		{name: "by correspondence", opts: []func(*store.Game){clock(72*time.Hour, 0), perMove}, moves: []string{"d4"}, seat: 0, none: true},
	} {
		g := load(t, row(t, tc.opts...), tc.moves...)
		got := g.View(tc.seat, t0, [2]bool{true, true}, "players").Premoves
		if tc.none != (len(got) == 0) {
			t.Errorf("%s: premoves %v", tc.name, got)
		}
		for _, m := range tc.has {
			if !slices.Contains(got, m) {
				t.Errorf("%s: %s is not among the premoves %v", tc.name, m, got)
			}
		}
	}
}
