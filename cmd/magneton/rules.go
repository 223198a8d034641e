package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
)

func init() {
	commands = append(commands, movesCommand, applyCommand, perftCommand, benchCommand, showCommand, rulesCommand)
}

// setup resolves --game and --rule.
func (g *globalOptions) setup() (*games.Game, game.Rules, error) {
	gm, err := games.Lookup(g.game)
	if err != nil {
		return nil, nil, usageError{err}
	}
	r, err := gm.Spec.Rules(g.rules...)
	if err != nil {
		return nil, nil, usageError{err}
	}
	return gm, r, nil
}

// position resolves --game and --rule and reads a position from the start
// of args (see positionArgs).
func (g *globalOptions) position(args []string) (game.State, []string, error) {
	_, r, err := g.setup()
	if err != nil {
		return nil, nil, err
	}
	return positionArgs(r, args)
}

// parsePosition reads a position argument: "start" or a position text.
func parsePosition(r game.Rules, text string) (game.State, error) {
	switch strings.TrimSpace(text) {
	case "start", "startpos":
		return r.Start(), nil
	}
	return r.ParsePosition(text)
}

// positionArgs reads a position from the start of args and returns the
// rest. The position is normally one quoted argument; when the shell split
// an unquoted one into fields, the fields are joined back.
func positionArgs(r game.Rules, args []string) (game.State, []string, error) {
	s, err := parsePosition(r, args[0])
	if err == nil || strings.ContainsAny(args[0], " \t") {
		return s, args[1:], err
	}
	for n := 2; n <= len(args) && n <= 6; n++ {
		if s2, err2 := r.ParsePosition(strings.Join(args[:n], " ")); err2 == nil {
			return s2, args[n:], nil
		}
	}
	return nil, nil, err
}

func exactArgs(min, max int, what string) cobra.PositionalArgs {
	return func(c *cobra.Command, args []string) error {
		if len(args) < min || (max >= 0 && len(args) > max) {
			return usagef("%s", prefixed(c, fmt.Sprintf("want %s, got %d argument(s) (usage: %s)", what, len(args), c.UseLine())))
		}
		return nil
	}
}

func movesCommand(g *globalOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "moves [POSITION]",
		Short: "Print the legal moves of a position, or of each position read from standard input",
		Long: `Print the legal moves of POSITION on one line, separated by spaces.
Without POSITION, read positions from standard input, one a line, and print
one line of moves for each (batch mode for tools). A finished game has no
moves: its line is empty.`,
		Example: `  magneton moves "8/W1BB2W1/3W4/8/1B1W4/4B1B1/2W5/6B1 w 0 0"   # a7-b7 c2-c6 d4-a1 d4-c4 d4-d1 d6-c5 d6-f4 g7-e7 g7-g4 g7-h8
  magneton moves start
  magneton moves --game tumbling < positions.txt             # one line of moves a position`,
		Args: exactArgs(0, -1, "at most one POSITION"),
		RunE: func(c *cobra.Command, args []string) error {
			_, r, err := g.setup()
			if err != nil {
				return err
			}
			out := bufio.NewWriter(c.OutOrStdout())
			defer out.Flush()
			if len(args) > 0 {
				s, rest, err := positionArgs(r, args)
				if err != nil {
					return err
				}
				if len(rest) > 0 {
					return usagef("moves: unexpected argument %q after the position", rest[0])
				}
				fmt.Fprintln(out, strings.Join(s.Moves(), " "))
				return nil
			}
			return eachLine(c.Context(), c.InOrStdin(), func(n int, line string) error {
				s, err := parsePosition(r, line)
				if err != nil {
					return fmt.Errorf("standard input line %d: %w", n, err)
				}
				fmt.Fprintln(out, strings.Join(s.Moves(), " "))
				return nil
			})
		},
	}
}

// eachLine calls f for every non-blank line of standard input r, numbered
// from 1, and stops at the first error or the end of ctx. A line longer
// than maxLineBytes is an error that says which line and what the limit
// is.
func eachLine(ctx context.Context, r io.Reader, f func(n int, line string) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	lines := readLines(ctx, r)
	for {
		var l inputLine
		var ok bool
		select {
		case <-ctx.Done():
			return ctx.Err()
		case l, ok = <-lines:
		}
		switch {
		case !ok:
			return nil
		case l.err != nil:
			return fmt.Errorf("reading standard input at line %d: %w", l.n, l.err)
		case l.tooLong:
			return fmt.Errorf("standard input line %d is longer than the limit of %d MiB (%d bytes)", l.n, maxLineBytes>>20, maxLineBytes)
		case strings.TrimSpace(l.text) == "":
			continue
		}
		if err := f(l.n, l.text); err != nil {
			return err
		}
	}
}

// applyMoves plays moves from s and returns the final position and result,
// judging repetition along the way.
func applyMoves(s game.State, moves []string) (game.State, game.Result, error) {
	g := game.NewGame(s)
	for i, m := range moves {
		if err := g.Play(m); err != nil {
			if len(moves) > 1 {
				return nil, 0, fmt.Errorf("move %d: %w", i+1, err)
			}
			return nil, 0, err
		}
	}
	res, ending := g.Result()
	if ending == game.NoMoves {
		// The reference data report the result the moves made: a side
		// left without a legal move loses when its turn comes, and shows
		// as "-" here (and as an empty line in `moves`).
		res = game.Ongoing
	}
	return g.Position(), res, nil
}

func applyCommand(g *globalOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "apply [POSITION MOVE...]",
		Short: "Play moves from a position and print the position after them and the result",
		Long: `Play MOVE... from POSITION and print the position after them, a tab, and
the result the moves made: the winner's side letter, "draw" (by repetition),
or "-" otherwise. A side left without a legal move loses when its turn
comes; apply shows that position with "-", and moves prints an empty line.
Without arguments, read lines "POSITION<TAB>MOVE" (or several moves separated
by spaces) from standard input and print "POSITION_AFTER<TAB>RESULT" for each.`,
		Example: `  magneton apply "1W6/8/8/8/8/8/8/8 b 11 12" f5   # 1W6/8/8/5B2/8/8/8/8 w 11 11
  magneton apply start d4 e5 c3
  magneton --game tumbling apply "bbbbbbb,b,2,b,1,b,1/2,b,b,b,b,2/b,3,rb,b,2/b,2,rb,b,2,rr/b,b,3,r,2/bb,b,b,2,r,1,r/b,2,r,r,2,r/bb,2,rr,1,r,r,rrrrrrrrrrrrrrr r" h1>g2   # (Red wins: the result is r)`,
		Args: func(c *cobra.Command, args []string) error {
			if len(args) == 1 {
				return usagef("apply: give a POSITION and at least one MOVE, or no arguments to read standard input")
			}
			return nil
		},
		RunE: func(c *cobra.Command, args []string) error {
			_, r, err := g.setup()
			if err != nil {
				return err
			}
			sp := r.Spec()
			out := bufio.NewWriter(c.OutOrStdout())
			defer out.Flush()
			if len(args) > 0 {
				s, moves, err := positionArgs(r, args)
				if err != nil {
					return err
				}
				if len(moves) == 0 {
					return usagef("apply: no MOVE after the position")
				}
				after, res, err := applyMoves(s, moves)
				if err != nil {
					return err
				}
				fmt.Fprintf(out, "%s\t%s\n", after, sp.ResultWord(res))
				return nil
			}
			return eachLine(c.Context(), c.InOrStdin(), func(n int, line string) error {
				pos, moves, ok := strings.Cut(line, "\t")
				if !ok || strings.TrimSpace(moves) == "" {
					return fmt.Errorf("standard input line %d: want POSITION<TAB>MOVE", n)
				}
				s, err := parsePosition(r, pos)
				if err != nil {
					return fmt.Errorf("standard input line %d: %w", n, err)
				}
				after, res, err := applyMoves(s, strings.Fields(moves))
				if err != nil {
					return fmt.Errorf("standard input line %d: %w", n, err)
				}
				fmt.Fprintf(out, "%s\t%s\n", after, sp.ResultWord(res))
				return nil
			})
		},
	}
}

func perftCommand(g *globalOptions) *cobra.Command {
	var divide bool
	var threads int
	c := &cobra.Command{
		Use:   "perft [--divide] [--threads N] POSITION DEPTH",
		Short: "Count the leaves of the game tree to a depth (checks move generation)",
		Long: `Count every sequence of DEPTH legal moves from POSITION, each move generated
and played; a finished game has no children. The count is on the last line;
--divide first prints each root move with its count.`,
		Example: `  magneton perft "8/3B2W1/1W3B2/3W4/8/6B1/2W2B2/6B1 w 8 7" 2   # 2970
  magneton perft --threads 2 start 4                        # 15249024
  magneton --game tumbling perft --divide "bbbbbbb,b,2,b,1,b,1/2,b,b,b,b,2/b,3,rb,b,2/b,2,rb,b,2,rr/b,b,3,r,2/bb,b,b,2,r,1,r/b,2,r,r,2,r/bb,2,rr,1,r,r,rrrrrrrrrrrrrrr r" 1   # 78`,
		Args: exactArgs(2, -1, "POSITION DEPTH"),
		RunE: func(c *cobra.Command, args []string) error {
			if err := (searchFlags{threads: &threads}).check(c); err != nil {
				return err
			}
			s, rest, err := g.position(args)
			if err != nil {
				return err
			}
			if len(rest) != 1 {
				return usagef("perft: want POSITION DEPTH (quote the position)")
			}
			depth, err := strconv.Atoi(rest[0])
			if err != nil || depth < 0 || depth > maxPerftDepth {
				return usagef("perft: depth %s is not a number from 0 to %d", clip(rest[0]), maxPerftDepth)
			}
			out := bufio.NewWriter(c.OutOrStdout())
			defer out.Flush()
			return perft(c.Context(), s, depth, threads, divide, out)
		},
	}
	c.Flags().BoolVar(&divide, "divide", false, "print each root move's leaf count first")
	c.Flags().IntVar(&threads, "threads", 1, fmt.Sprintf("goroutines that share the root moves, %d to %d", ai.MinThreads, ai.MaxThreads))
	return profiled(c)
}

// perft prints the leaf count of depth below s, after the count below
// each move when divide is set.
func perft(ctx context.Context, s game.State, depth, threads int, divide bool, w io.Writer) error {
	if depth < 1 {
		fmt.Fprintln(w, 1)
		return nil
	}
	// Divide looks at ctx only between root moves, which may take long
	// each: an interrupt returns at once, leaving the count to the end of
	// the process.
	var counts []game.MoveCount
	var err error
	done := make(chan struct{})
	go func() {
		defer close(done)
		counts, err = s.Divide(ctx, depth, threads)
	}()
	select {
	case <-done:
	case <-ctx.Done():
		return ctx.Err()
	}
	if err != nil {
		return err
	}
	var total uint64
	for _, c := range counts {
		total += c.Nodes
		if divide {
			fmt.Fprintf(w, "%s %d\n", c.Move, c.Nodes)
		}
	}
	fmt.Fprintln(w, total)
	return nil
}

func benchCommand(g *globalOptions) *cobra.Command {
	var search time.Duration
	c := profiled(&cobra.Command{
		Use:   "bench",
		Short: "Run the fixed benchmark suite: perft speed and random playouts, one thread",
		Long: `Run the game's fixed perft suite (every leaf move played, no bulk counting)
and three seconds of uniformly random games from the start, each played
until it ends by the rules (the repetition rule included) or at 400 plies,
on one thread. The lines "perft-nps N" and "playouts-per-second N"
are the figures; docs/benchmarks.md lists the suite and recorded results.
With --search, level 8 then searches the start that long on one thread
and "search-nps N" is its nodes a second. The browser's engine runs the
same code (tools/wasmbench compares the two).`,
		Example: `  magneton bench                    # Magneton's suite
  magneton --game tumbling bench    # Tumbling Down's
  tools/bench-compare.sh 6 HEAD~1 . # two builds taking turns, on a noisy machine`,
		Args: exactArgs(0, 0, "no arguments"),
		RunE: func(c *cobra.Command, args []string) error {
			_, r, err := g.setup()
			if err != nil {
				return err
			}
			return bench(c.Context(), r, search, c.OutOrStdout())
		},
	})
	c.Flags().DurationVar(&search, "search", 0, "also search the start with level 8 for this long and print its nodes a second")
	return c
}

func showCommand(g *globalOptions) *cobra.Command {
	var color string
	c := &cobra.Command{
		Use:   "show POSITION",
		Short: "Draw a position in the terminal",
		Example: `  magneton show "8/W1BB2W1/3W4/8/1B1W4/4B1B1/2W5/6B1 w 0 0"
  magneton --game tumbling show --color never "bbbbbbb,b,2,b,1,b,1/2,b,b,b,b,2/b,3,rb,b,2/b,2,rb,b,2,rr/b,b,3,r,2/bb,b,b,2,r,1,r/b,2,r,r,2,r/bb,2,rr,1,r,r,rrrrrrrrrrrrrrr r"   # Red's King: height 15`,
		Args: exactArgs(1, -1, "a POSITION"),
		RunE: func(c *cobra.Command, args []string) error {
			s, rest, err := g.position(args)
			if err != nil {
				return err
			}
			if len(rest) > 0 {
				return usagef("show: unexpected argument %q after the position", rest[0])
			}
			useColor, err := colorFlag(c, color)
			if err != nil {
				return err
			}
			fmt.Fprint(c.OutOrStdout(), s.Diagram(useColor))
			return nil
		},
	}
	addColorFlag(c, &color)
	return c
}

// addColorFlag defines --color, the terminal colour of the board, the same
// in every command that draws one.
func addColorFlag(c *cobra.Command, color *string) {
	c.Flags().StringVar(color, "color", "auto", "colour the board: auto (when standard output is a terminal and NO_COLOR is not set), always, never")
}

// colorFlag reads --color: whether to draw the board in colour.
func colorFlag(c *cobra.Command, color string) (bool, error) {
	switch color {
	case "auto":
		return isTerminal(c.OutOrStdout()) && os.Getenv("NO_COLOR") == "", nil
	case "always":
		return true, nil
	case "never":
		return false, nil
	}
	return false, usagef("%s", prefixed(c, fmt.Sprintf("--color %s: want auto, always or never", clip(color))))
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func rulesCommand(g *globalOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "rules",
		Short: "List the rule options and variants of the game",
		Example: `  magneton rules                                    # in force: force=strong,movement=any-magnet
  magneton --game tumbling --rule boardspace rules   # in force: capture=boardspace,layout=boardspace`,
		Args: exactArgs(0, 0, "no arguments"),
		RunE: func(c *cobra.Command, args []string) error {
			_, r, err := g.setup()
			if err != nil {
				return err
			}
			sp := r.Spec()
			w := c.OutOrStdout()
			fmt.Fprintf(w, "%s rule options (--rule name=value; the default first):\n", sp.Title)
			for _, o := range sp.Options {
				fmt.Fprintf(w, "  %-11s %-28s %s\n", o.Name, strings.Join(o.Values, " | "), o.Summary)
			}
			fmt.Fprintln(w, "variants (--rule NAME):")
			for _, v := range sp.Variants {
				fmt.Fprintf(w, "  %-11s %s (%s)\n", v.Name, v.Summary, v.Settings)
			}
			fmt.Fprintf(w, "in force: %s\n", r.Settings())
			return nil
		},
	}
}
