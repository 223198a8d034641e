package ai

import (
	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/tumbling"
)

// winIn reports whether the side to move in p forces a win within n of its
// own moves, by exhaustive AND-OR search (repetitions aside). It is the
// tests' independent check of the searches.
func winIn[P game.Position[P, M], M comparable](kit *Kit[P, M], p P, n int) bool {
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
func profileOf(rules game.Rules) Profile {
	if rules.Spec() == tumbling.Spec {
		return TumblingProfile
	}
	return MagnetonProfile
}

// newPlayer makes a named player of the game of rules.
func newPlayer(name string, rules game.Rules, cfg Config) (Player, error) {
	return profileOf(rules).NewPlayer(name, rules, cfg)
}
