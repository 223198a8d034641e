package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/puzzle"
	"github.com/magneton-games/magneton/suite"
)

func init() { commands = append(commands, suiteCommand) }

// readSuite reads a suite file ("-": standard input).
func readSuite(c *cobra.Command, name string) ([]*suite.Entry, error) {
	var in io.Reader = c.InOrStdin()
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		in = f
	}
	entries, err := suite.Read(in)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(entries) == 0 {
		return nil, fmt.Errorf("%s: no entries", name)
	}
	return entries, nil
}

func suiteCommand(g *globalOptions) *cobra.Command {
	sc := suite.Scorer{}
	var verbose bool
	c := &cobra.Command{
		Use:   "suite --player P --movetime T FILE",
		Short: "Score a player on positions of known value: how often it keeps the proven result",
		Long: `A suite holds positions whose value the proof search settled (see
"suite build"): "win" positions, where the side to move has a forced win in
` + fmt.Sprint(suite.MinWin) + ` to ` + fmt.Sprint(suite.MaxWin) + ` moves, and "hold" positions, where every move but 1 to ` + fmt.Sprint(suite.MaxSafe) + `
lets the opponent win by force within ` + fmt.Sprint(suite.Horizon-1) + ` plies. The player moves once in
each position, with no game history, and the prover checks the move: a win
is kept when the opponent is then proven lost (a win one move slower
counts), a hold when the opponent then has no forced win. The report gives
the share kept of each kind and in all, with its 95% Wilson interval.

Players: ` + games.PlayerNames() + `.`,
		Example: `  magneton suite --player level:8 --movetime 100ms testdata/magneton/suite.tsv
  magneton --game tumbling suite --player boardspace-d5 --movetime 100ms testdata/tumbling-down/suite.tsv`,
		Args: exactArgs(1, 1, "one suite file (- for standard input)"),
		RunE: func(c *cobra.Command, args []string) error {
			if err := g.readBooks(); err != nil {
				return err
			}
			if sc.MoveTime <= 0 {
				return usagef("--movetime %s: want a positive time", sc.MoveTime)
			}
			entries, err := readSuite(c, args[0])
			if err != nil {
				return err
			}
			out := c.OutOrStdout()
			rep, err := sc.Score(c.Context(), entries, func(r suite.Result) {
				if verbose {
					fmt.Fprintf(out, "%s\t%s\t%v\t%s\n", r.Entry.Kind, r.Move, r.Kept, r.Entry.Position)
				}
			})
			if err != nil {
				return err
			}
			fmt.Fprintf(out, "%s at %s a move on %s:\n", sc.Player, sc.MoveTime, args[0])
			for _, k := range []suite.Kind{suite.Win, suite.Hold} {
				if t := rep.Kinds[k]; t.Total > 0 {
					fmt.Fprintf(out, "  %-4s kept %s\n", k, t)
				}
			}
			fmt.Fprintf(out, "  all  kept %s\n", rep.All)
			return nil
		},
	}
	f := c.Flags()
	f.StringVar(&sc.Player, "player", "level:8", "the player to score")
	f.DurationVar(&sc.MoveTime, "movetime", 100*time.Millisecond, "the player's time a move")
	f.IntVar(&sc.HashMB, "hash", 16, "the player's transposition table in MB")
	f.Int64Var(&sc.Nodes, "nodes", suite.DefaultNodes, "the prover's budget of one check, in nodes (the suite's build's)")
	f.BoolVar(&verbose, "verbose", false, "print each position's move and whether it was kept")
	c.AddCommand(suiteBuildCommand(g), suiteVerifyCommand(), suiteMergeCommand())
	return c
}

func suiteBuildCommand(g *globalOptions) *cobra.Command {
	b := &suite.Builder{}
	var records, puzzleFiles []string
	var puzzles bool
	c := &cobra.Command{
		Use:   "build",
		Short: "Gather a suite from game records and the shipped puzzles, classified by the proof search",
		Long: `The positions of the puzzle files (as "magneton puzzles generate" writes
them) and those on their lines, every position of the records (as
"magneton match --pgn" writes them) after --skip plies, then the shipped
puzzles' and those on their lines, is classified by the proof search: a
win in ` + fmt.Sprint(suite.MinWin) + ` to ` + fmt.Sprint(suite.MaxWin) + ` moves, a hold, or nothing. Positions equal up to the game's symmetries are kept once. At most
--per-game entries of each kind come from one game, and --want of each kind
in all. The suite is written to standard output.`,
		Example: `  magneton match --a level:4 --b simple-ab --games 100 --movetime 50ms --openings balanced:4 --pgn games.pgn
  magneton suite build --records games.pgn --puzzles > suite.tsv`,
		Args: exactArgs(0, 0, "no argument"),
		RunE: func(c *cobra.Command, _ []string) error {
			gm, rules, err := g.setup()
			if err != nil {
				return err
			}
			b.Prover.Game, b.Rules = gm, rules
			b.Progress = func(src string, wins, holds int) {
				fmt.Fprintf(c.ErrOrStderr(), "%s: %d wins, %d holds\n", src, wins, holds)
			}
			gathered := gather(c, b, records, puzzleFiles, puzzles)
			comments := []string{
				"Positions of known value, made by `magneton " + strings.Join(os.Args[1:], " ") + "`;",
				"checked by `magneton suite verify`. See the package suite for the kinds.",
			}
			if c.Context().Err() != nil {
				comments = append(comments, "Interrupted: the entries gathered until then.")
			}
			// What was gathered is written even when interrupted: hours of
			// proof search are not thrown away by a Ctrl-C.
			if err := suite.Write(c.OutOrStdout(), comments, b.Entries()); err != nil {
				return err
			}
			return gathered
		},
	}
	f := c.Flags()
	f.StringSliceVar(&records, "records", nil, "files of game records to take positions from")
	f.BoolVar(&puzzles, "puzzles", false, "take positions from the shipped puzzles too")
	f.StringSliceVar(&puzzleFiles, "puzzle-file", nil, "files of puzzles (as puzzles generate writes them) to take positions from, first")
	f.IntVar(&b.Want, "want", 300, "the most entries of each kind")
	f.IntVar(&b.Skip, "skip", 4, "opening plies of each game left out")
	f.IntVar(&b.PerGame, "per-game", 3, "the most entries of each kind from one game or puzzle")
	f.Int64Var(&b.Prover.Nodes, "nodes", suite.DefaultNodes, "the proof search's budget of one call, in nodes")
	return c
}

// gather adds the records' and (with puzzles) the shipped puzzles'
// positions to b.
func gather(c *cobra.Command, b *suite.Builder, records, puzzleFiles []string, puzzles bool) error {
	for _, name := range puzzleFiles {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		ps, err := puzzle.Read(f)
		f.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if err := b.AddPuzzles(c.Context(), ps); err != nil {
			return err
		}
	}
	for _, name := range records {
		text, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		if err := b.AddRecords(c.Context(), name, string(text)); err != nil {
			return err
		}
	}
	if !puzzles {
		return nil
	}
	ps, err := puzzle.Shipped()
	if err != nil {
		return err
	}
	return b.AddPuzzles(c.Context(), ps)
}

func suiteVerifyCommand() *cobra.Command {
	var nodes int64
	c := &cobra.Command{
		Use:     "verify FILE",
		Short:   "Check a suite with the proof search: every entry classified again the same, none equal up to symmetry",
		Example: `  magneton suite verify testdata/magneton/suite.tsv`,
		Args:    exactArgs(1, 1, "one suite file (- for standard input)"),
		RunE: func(c *cobra.Command, args []string) error {
			entries, err := readSuite(c, args[0])
			if err != nil {
				return err
			}
			if err := suite.Verify(c.Context(), entries, nodes, nil); err != nil {
				return fmt.Errorf("%s: %w", args[0], err)
			}
			fmt.Fprintf(c.OutOrStdout(), "%d positions verified\n", len(entries))
			return nil
		},
	}
	c.Flags().Int64Var(&nodes, "nodes", suite.DefaultNodes, "the proof search's budget of one call, in nodes (the build's)")
	return c
}

func suiteMergeCommand() *cobra.Command {
	var want int
	c := &cobra.Command{
		Use:     "merge FILE...",
		Short:   "Join suites: the entries of each file in turn, none equal to an earlier one up to symmetry, at most --want of each kind",
		Example: `  magneton suite merge a.tsv b.tsv > suite.tsv`,
		Args:    cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			var all []*suite.Entry
			for _, name := range args {
				entries, err := readSuite(c, name)
				if err != nil {
					return err
				}
				all = append(all, entries...)
			}
			kept := map[suite.Kind]int{}
			var out []*suite.Entry
			for _, e := range suite.Dedupe(all) {
				if kept[e.Kind] < want {
					kept[e.Kind]++
					out = append(out, e)
				}
			}
			slices.SortStableFunc(out, func(a, b *suite.Entry) int { return strings.Compare(string(b.Kind), string(a.Kind)) })
			comments := []string{
				"Positions of known value: `magneton " + strings.Join(os.Args[1:], " ") + "` of suites made by `magneton suite build`;",
				"checked by `magneton suite verify`. See the package suite for the kinds.",
			}
			return suite.Write(c.OutOrStdout(), comments, out)
		},
	}
	c.Flags().IntVar(&want, "want", 300, "the most entries of each kind")
	return c
}
