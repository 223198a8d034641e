package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"time"

	"github.com/spf13/cobra"

	"github.com/magneton-games/magneton/puzzle"
)

func init() { commands = append(commands, puzzlesCommand) }

func puzzlesCommand(g *globalOptions) *cobra.Command {
	c := &cobra.Command{
		Use:   "puzzles",
		Short: "Find and check puzzles: positions with a proven forced win and one winning first move",
		Long: `Puzzles are positions from the engine's self-play where the side to move
wins by force, proven by the proof search (no evaluation enters it), with
exactly one first move that wins within the puzzle's length. Each puzzle is
one JSON line: the position, the solution line (the winner's moves and the
loser's most stubborn replies) and, for each of the winner's turns, every
move that keeps the proven win.`,
		Example: `  magneton puzzles verify
  magneton puzzles generate --games 20 --max-win 2 > more.jsonl
  magneton puzzles verify - < more.jsonl`,
	}
	c.AddCommand(puzzlesGenerateCommand(g), puzzlesVerifyCommand(g))
	return c
}

func puzzlesGenerateCommand(g *globalOptions) *cobra.Command {
	gen := &puzzle.Generator{}
	var n int
	c := &cobra.Command{
		Use:   "generate",
		Short: "Play self-play games and write the puzzles found in them, one JSON line each",
		Example: `  magneton puzzles generate --games 1 --max-win 1 --plies 12
  magneton --game tumbling puzzles generate --games 50 --player level:3 --seed 7 > tumbling.jsonl`,
		Args: exactArgs(0, 0, "no argument"),
		RunE: func(c *cobra.Command, _ []string) error {
			gm, rules, err := g.setup()
			if err != nil {
				return err
			}
			if gen.MaxWin < 1 || gen.MaxWin > 5 {
				return usagef("--max-win %d: want 1 to 5", gen.MaxWin)
			}
			gen.Game, gen.Rules = gm, rules
			ctx, stop := signal.NotifyContext(c.Context(), os.Interrupt)
			defer stop()
			out := c.OutOrStdout()
			return gen.Run(ctx, n, func(pz *puzzle.Puzzle) {
				puzzle.Write(out, []*puzzle.Puzzle{pz})
			}, func(games, found int) {
				fmt.Fprintf(c.ErrOrStderr(), "game %d of %d: %d puzzles\n", games, n, found)
			})
		},
	}
	f := c.Flags()
	f.IntVar(&n, "games", 10, "self-play games to play")
	f.StringVar(&gen.Player, "player", "level:2", "the player of both sides")
	f.DurationVar(&gen.MoveTime, "movetime", 20*time.Millisecond, "the player's time a move")
	f.IntVar(&gen.Random, "random", 4, "random opening moves before the player plays")
	f.IntVar(&gen.MaxWin, "max-win", 3, "the longest puzzle, in the winner's moves (1 to 5)")
	f.IntVar(&gen.MaxPlies, "plies", 200, "the longest game")
	f.Uint64Var(&gen.Seed, "seed", 1, "the seed of the random opening moves")
	return c
}

func puzzlesVerifyCommand(g *globalOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "verify [FILE]",
		Short: "Check puzzles with the rules and the proof search (the shipped ones without FILE; - reads standard input)",
		Example: `  magneton puzzles verify                     # puzzles verified
  magneton puzzles verify - < more.jsonl`,
		Args: exactArgs(0, 1, "at most one file"),
		RunE: func(c *cobra.Command, args []string) error {
			ps, err := puzzle.Shipped()
			if len(args) == 1 {
				var in io.Reader = c.InOrStdin()
				if args[0] != "-" {
					f, err := os.Open(args[0])
					if err != nil {
						return err
					}
					defer f.Close()
					in = f
				}
				ps, err = puzzle.Read(in)
				if err != nil {
					err = fmt.Errorf("%s: %w", args[0], err)
				}
			}
			if err != nil {
				return err
			}
			bad := 0
			for _, pz := range ps {
				if err := puzzle.Verify(context.Background(), pz); err != nil {
					fmt.Fprintln(c.ErrOrStderr(), err)
					bad++
				}
			}
			if bad > 0 {
				return fmt.Errorf("%d of %d puzzles are wrong", bad, len(ps))
			}
			fmt.Fprintf(c.OutOrStdout(), "%d puzzles verified\n", len(ps))
			return nil
		},
	}
}
