package ai_test

import (
	"math/rand/v2"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/magneton"
	"github.com/magneton-games/magneton/magneton/magnetonai"
	"github.com/magneton-games/magneton/tumbling"
	"github.com/magneton-games/magneton/tumbling/tumblingai"
)

// The tests of the generic searches run on the real games, whose kits and
// profiles are the games' own AI packages, which import this one: hence
// an external test package. export_test.go opens the few internals they
// check.

// The default kits of the games' profiles, as their players search with.
var (
	magnetonKit = mustKit[magneton.Position, magneton.Move](magnetonai.Profile, magneton.Rules{})
	tumblingKit = mustKit[tumbling.Position, tumbling.Move](tumblingai.Profile, tumbling.Rules{})
)

// mustKit is ai.KitFor for the tests' own profiles, which must have one.
func mustKit[P game.Position[P, M], M comparable](pr ai.Profile, rules game.Rules) *ai.Kit[P, M] {
	kit, err := ai.KitFor[P, M](pr, rules)
	if err != nil {
		panic(err)
	}
	return kit
}

// winIn reports whether the side to move in p forces a win within n of its
// own moves, by exhaustive AND-OR search (repetitions aside). It is the
// tests' independent check of the searches.
func winIn[P game.Position[P, M], M comparable](kit *ai.Kit[P, M], p P, n int) bool {
	us := p.Side()
	for _, m := range p.AppendMoves(nil) {
		c := p.Play(m)
		if r, ok := kit.Decided(c); ok {
			if w, won := r.Winner(); won && w == us {
				return true
			}
			continue
		}
		if n == 1 {
			continue
		}
		replies := c.AppendMoves(nil)
		if len(replies) == 0 {
			if r, _ := c.Outcome(); r == game.WinFor(us) {
				return true
			}
			continue
		}
		all := true
		for _, r := range replies {
			g := c.Play(r)
			if res, ok := kit.Decided(g); ok {
				if res != game.WinFor(us) {
					all = false
					break
				}
				continue
			}
			if !winIn(kit, g, n-1) {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

// profileOf returns the profile of the game of rules.
func profileOf(rules game.Rules) ai.Profile {
	if rules.Spec() == tumbling.Spec {
		return tumblingai.Profile
	}
	return magnetonai.Profile
}

// newPlayer makes a named player of the game of rules.
func newPlayer(name string, rules game.Rules, cfg ai.Config) (ai.Player, error) {
	return profileOf(rules).NewPlayer(name, rules, cfg)
}

// randomPlay plays random moves from start while i < base+rng.IntN(spread)
// (drawn anew before each move) and the game goes on; it returns the
// position reached and whether its game is still going.
func randomPlay[P game.Position[P, M], M comparable](start P, rng *rand.Rand, base, spread int) (P, bool) {
	p := start
	for i := 0; i < base+rng.IntN(spread); i++ {
		moves := p.AppendMoves(nil)
		if r, _ := p.Outcome(); r.Over() || len(moves) == 0 {
			break
		}
		p = p.Play(moves[rng.IntN(len(moves))])
	}
	r, _ := p.Outcome()
	return p, !r.Over()
}
