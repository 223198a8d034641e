// Package ai holds the computer players of every game, generic over
// game.Position: the alpha-beta and MCTS searches, the threat-space and
// proof searches of forced results, the players every game has (levels 1
// to 8, random, greedy) and the profile (GameProfile, Profile) through
// which a game gives them what is its own: its evaluation and search kit
// (Kit), its levels' handicaps and its baselines. Each game's profile is
// in the game's own AI package beside its rules (such as
// magneton/magnetonai); this package imports no game.
package ai

import (
	"context"
	"time"

	"github.com/magneton-games/magneton/game"
)

// Limits bound one move's thinking. Zero fields are unlimited; a player
// given no limit at all uses a default suited to its level.
type Limits struct {
	MoveTime time.Duration // think this long
	Depth    int           // search at most this many plies
	Nodes    int64         // search at most this many nodes
	// Clock: the remaining time and increment of each side; the player
	// budgets its own time from them when MoveTime is zero.
	Time      [2]time.Duration
	Increment [2]time.Duration
	// Exclude lists root moves, in the game's notation, that an
	// alpha-beta player's search must not choose: the analysis asks for
	// its second and third lines so (multi-PV). Other players ignore it.
	Exclude []string
}

// Player chooses moves for a game in progress.
type Player interface {
	// Name says who plays, such as "level 5" or "greedy".
	Name() string
	// Move returns a legal move, in the game's notation, for the side to
	// move in g's current position. It returns early with the best move
	// found so far when ctx is cancelled, and an error only when it has no
	// move (the game is over) or ctx was cancelled before any move was found.
	Move(ctx context.Context, g *game.Game, lim Limits) (string, error)
}
