// Package games lists the games the project plays, so that code handling
// any game (the command line, records, the engine protocol, the server)
// can find one by name.
package games

import (
	"fmt"
	"strings"

	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/magneton"
	"github.com/magneton-games/magneton/tumbling"
)

// All lists every game, Magneton first.
var All = []*game.Spec{magneton.Spec, tumbling.Spec}

// Lookup finds a game by its name or one of its aliases.
func Lookup(name string) (*game.Spec, error) {
	var names []string
	for _, sp := range All {
		if sp.Name == name {
			return sp, nil
		}
		for _, a := range sp.Aliases {
			if a == name {
				return sp, nil
			}
		}
		names = append(names, sp.Name)
		names = append(names, sp.Aliases...)
	}
	return nil, fmt.Errorf("unknown game %q (games: %s)", name, strings.Join(names, ", "))
}
