package ai

import (
	"errors"

	"github.com/magneton-games/magneton/game"
)

// NewUGIPlayer starts an external engine speaking UGI.
func NewUGIPlayer(path string, rules game.Rules) (Player, error) {
	return nil, errors.New("ugi players are not implemented yet")
}
