package ai

import (
	"fmt"

	"github.com/magneton-games/magneton/game"
)

// KitFor returns the search kit of a game's profile under rules, for a
// search outside this package that runs on the game's concrete types,
// such as the proof-number solver (package prove), which uses the kit's
// win-in-one and threat tests. It fails when pr is not a profile made by
// NewProfile for positions P and moves M.
func KitFor[P game.Position[P, M], M comparable](pr Profile, rules game.Rules) (*Kit[P, M], error) {
	gp, ok := pr.(*profile[P, M])
	if !ok {
		return nil, fmt.Errorf("the profile of %s is not one of these position and move types", pr.Spec().Title)
	}
	return gp.kit(rules, nil)
}
