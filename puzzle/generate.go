package puzzle

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
)

// Generator finds puzzles in the engine's self-play games.
type Generator struct {
	Game  *games.Game
	Rules game.Rules
	// Player plays both sides (a name games.NewPlayer knows, such as
	// "level:3"), MoveTime a move, after Random random opening moves.
	Player   string
	MoveTime time.Duration
	Random   int
	// MaxWin bounds the puzzles' length in the winner's moves; MaxPlies a
	// game's.
	MaxWin, MaxPlies int
	Seed             uint64
}

// Run plays games until ctx ends or n games were played, calling found
// with each puzzle (its ID made of the game's name, the seed and a count)
// and progress after each game.
func (gen *Generator) Run(ctx context.Context, n int, found func(*Puzzle), progress func(games, puzzles int)) error {
	rng := rand.New(rand.NewPCG(gen.Seed, 0x9e3779b97f4a7c15))
	seen := map[string]bool{}
	count := 0
	for i := 0; i < n && ctx.Err() == nil; i++ {
		p, err := gen.Game.AI.NewPlayer(gen.Player, gen.Rules, ai.Config{HashMB: 4, Seed: rng.Int64()})
		if err != nil {
			return fmt.Errorf("generate: %w", err)
		}
		g := game.NewGame(gen.Rules.Start())
		for ply := 0; ply < gen.MaxPlies && ctx.Err() == nil; ply++ {
			if res, _ := g.Result(); res.Over() {
				break
			}
			s := g.Position()
			if ply >= gen.Random && !seen[s.String()] {
				seen[s.String()] = true
				pz, err := Find(ctx, gen.Game, s, gen.MaxWin)
				if err != nil && ctx.Err() == nil {
					return fmt.Errorf("generate: game %d ply %d: %w", i+1, ply, err)
				}
				if pz != nil {
					pz.Source = fmt.Sprintf("self-play of %s, seed %d, game %d, after %d moves", gen.Player, gen.Seed, i+1, ply)
					count++
					pz.ID = fmt.Sprintf("%s-%d-%d", gen.Game.Spec.Name, gen.Seed, count)
					found(pz)
				}
			}
			var mv string
			if ply < gen.Random {
				mv, _ = s.RandomMove(rng)
			} else if mv, err = p.Move(ctx, g, ai.Limits{MoveTime: gen.MoveTime}); err != nil {
				break
			}
			if err := g.Play(mv); err != nil {
				return fmt.Errorf("generate: game %d: %w", i+1, err)
			}
		}
		if progress != nil {
			progress(i+1, count)
		}
	}
	return nil
}
