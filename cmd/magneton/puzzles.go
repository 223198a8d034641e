package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/magneton-games/magneton/games"
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
	var all bool
	c := &cobra.Command{
		Use:   "generate",
		Short: "Play self-play games and write the puzzles found in them, one JSON line each",
		Long: `Play self-play games and write the puzzles found in them, one JSON line each,
no two the same position up to the board's symmetries, each with its themes.
With --all, every game in turn under its default rules (--game and --rule are
ignored), up to --puzzles puzzles each, easier first in each game, after a
header that says the command: the shipped set puzzle/data/puzzles.jsonl is
made so (see its first line), and the same command makes it again.`,
		Example: `  magneton puzzles generate --games 1 --max-win 1 --plies 12
  magneton --game tumbling puzzles generate --games 50 --player level:3 --seed 7 > tumbling.jsonl
  magneton puzzles generate --all --games 3000 --puzzles 600 --seed 30 > puzzle/data/puzzles.jsonl`,
		Args: exactArgs(0, 0, "no argument"),
		RunE: func(c *cobra.Command, _ []string) error {
			if gen.MaxWin < 1 || gen.MaxWin > 5 {
				return usagef("--max-win %d: want 1 to 5", gen.MaxWin)
			}
			ctx, stop := signal.NotifyContext(c.Context(), os.Interrupt)
			defer stop()
			out := c.OutOrStdout()
			progress := func(name string) func(games, found int) {
				return func(games, found int) {
					fmt.Fprintf(c.ErrOrStderr(), "%s: game %d of %d: %d puzzles\n", name, games, n, found)
				}
			}
			if all {
				return generateAll(ctx, out, gen, n, generateCommandLine(c), progress)
			}
			gm, rules, err := g.setup()
			if err != nil {
				return err
			}
			gen.Game, gen.Rules = gm, rules
			return gen.Run(ctx, n, func(pz *puzzle.Puzzle) {
				puzzle.Write(out, []*puzzle.Puzzle{pz})
			}, progress(gm.Spec.Name))
		},
	}
	f := c.Flags()
	f.IntVar(&n, "games", 10, "self-play games to play (a game's, with --all)")
	f.BoolVar(&all, "all", false, "every game, with a header, easier first: the shipped set")
	f.IntVar(&gen.Want, "puzzles", 0, "stop at this many puzzles (a game's, with --all); 0 for no limit")
	f.StringVar(&gen.Player, "player", "level:2", "the player of both sides")
	f.DurationVar(&gen.MoveTime, "movetime", 20*time.Millisecond, "the player's time a move (the levels below 4 stop at a node cap first, so the games do not depend on the machine)")
	f.IntVar(&gen.Random, "random", 4, "random opening moves before the player plays")
	f.IntVar(&gen.MaxWin, "max-win", 3, "the longest puzzle, in the winner's moves (1 to 5)")
	f.IntVar(&gen.MaxPlies, "plies", 200, "the longest game")
	f.Uint64Var(&gen.Seed, "seed", 1, "the seed of the random opening moves and the players")
	return c
}

// generateCommandLine is the command that runs c with its flags as given,
// for the header of the shipped set.
func generateCommandLine(c *cobra.Command) string {
	var b strings.Builder
	b.WriteString("magneton puzzles generate")
	c.Flags().Visit(func(f *pflag.Flag) { fmt.Fprintf(&b, " --%s %s", f.Name, f.Value) })
	return strings.Replace(b.String(), " --all true", " --all", 1)
}

// generateAll makes the puzzles of every game, as the shipped set holds
// them: a header naming the command, then each game's puzzles, easier
// (shorter) first.
func generateAll(ctx context.Context, out io.Writer, tmpl *puzzle.Generator, n int, command string, progress func(string) func(int, int)) error {
	fmt.Fprintf(out, "# The project's puzzles, made by `%s > puzzle/data/puzzles.jsonl`\n", command)
	fmt.Fprintf(out, "# (from the repository's root); checked by `magneton puzzles verify` and the puzzle package's tests. Easier first in each game.\n")
	for _, gm := range games.All() {
		rules, err := gm.Spec.Rules()
		if err != nil {
			return fmt.Errorf("%s: %w", gm.Spec.Name, err)
		}
		gen := *tmpl
		gen.Game, gen.Rules = gm, rules
		var ps []*puzzle.Puzzle
		if err := gen.Run(ctx, n, func(pz *puzzle.Puzzle) { ps = append(ps, pz) }, progress(gm.Spec.Name)); err != nil {
			return err
		}
		if ctx.Err() != nil {
			return fmt.Errorf("%s: interrupted after %d puzzles: %w", gm.Spec.Name, len(ps), ctx.Err())
		}
		slices.SortStableFunc(ps, func(a, b *puzzle.Puzzle) int { return a.WinIn - b.WinIn })
		if err := puzzle.Write(out, ps); err != nil {
			return err
		}
	}
	return nil
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
			if err := puzzle.CheckSet(ps); err != nil {
				fmt.Fprintln(c.ErrOrStderr(), err)
				bad++
			}
			if bad > 0 {
				return fmt.Errorf("%d of %d puzzles are wrong", bad, len(ps))
			}
			fmt.Fprintf(c.OutOrStdout(), "%d puzzles verified\n", len(ps))
			return nil
		},
	}
}
