//go:build !js

package games

import (
	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/ugi"
)

// startExternal starts the engine program at path as a player, over UGI.
func startExternal(path string, rules game.Rules) (ai.Player, error) {
	return ugi.Start(path, rules)
}
