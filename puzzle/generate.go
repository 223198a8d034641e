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
	// Want, if above 0, stops the run once it found that many puzzles.
	Want int
	// keys holds the positions found so far up to symmetry (Key), so that
	// no puzzle is found twice, in one game or in two.
	keys map[string]bool
}

// Run plays games until ctx ends, n games were played or Want puzzles
// found, calling found with each puzzle (its ID made of the game's name,
// the seed and a count; its record the game's; its themes computed) and
// progress after each game. A position already found up to symmetry is
// skipped, and so are the positions on the line of a puzzle found before
// in the same game: they are that puzzle again, shorter.
func (gen *Generator) Run(ctx context.Context, n int, found func(*Puzzle), progress func(games, puzzles int)) error {
	rng := rand.New(rand.NewPCG(gen.Seed, 0x9e3779b97f4a7c15))
	seen := map[string]bool{}
	if gen.keys == nil {
		gen.keys = map[string]bool{}
	}
	count := 0
	for i := 0; i < n && ctx.Err() == nil && (gen.Want <= 0 || count < gen.Want); i++ {
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
					pz.Record = fmt.Sprintf("%s-%d-g%d", gen.Game.Spec.Name, gen.Seed, i+1)
					ok, err := gen.keep(pz, s, seen)
					if err != nil {
						return fmt.Errorf("generate: game %d ply %d: %w", i+1, ply, err)
					}
					if ok && (gen.Want <= 0 || count < gen.Want) {
						count++
						pz.ID = fmt.Sprintf("%s-%d-%d", gen.Game.Spec.Name, gen.Seed, count)
						found(pz)
					}
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

// keep computes a found puzzle's themes and reports whether it is new up
// to symmetry; if so it marks the positions of its line as seen, since a
// puzzle there would be this one again.
func (gen *Generator) keep(pz *Puzzle, s game.State, seen map[string]bool) (bool, error) {
	k, err := Key(pz)
	if err != nil || gen.keys[k] {
		return false, err
	}
	gen.keys[k] = true
	if pz.Themes, err = Themes(pz); err != nil {
		return false, err
	}
	for _, mv := range pz.Line {
		if s, err = s.Play(mv); err != nil {
			return false, err
		}
		seen[s.String()] = true
	}
	return true, nil
}
