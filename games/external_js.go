//go:build js

package games

import (
	"fmt"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/game"
)

// startExternal refuses in the browser's engine (GOOS=js), which can
// start no program; leaving the UGI client out keeps os/exec out of its
// download.
func startExternal(path string, rules game.Rules) (ai.Player, error) {
	return nil, fmt.Errorf("player ugi:%s: the browser's engine cannot start a program", path)
}
