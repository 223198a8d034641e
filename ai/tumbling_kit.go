package ai

import "github.com/magneton-games/magneton/game"

// tumblingPlayer makes a Tumbling Down player; ok is false for other games.
func tumblingPlayer(name string, rules game.Rules, cfg Config) (Player, bool, error) {
	return nil, false, nil
}
