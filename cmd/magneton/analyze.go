package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
)

func init() {
	commands = append(commands, analyzeCommand)
}

// analyzeOptions are analyze's flags.
type analyzeOptions struct {
	think   time.Duration
	depth   int
	nodes   int64
	threads int
	hash    int
	player  string
	moves   []string
	proveT  time.Duration
}

func analyzeCommand(g *globalOptions) *cobra.Command {
	o := &analyzeOptions{}
	c := &cobra.Command{
		Use:   "analyze POSITION",
		Short: "Search a position and print the evaluation, best move and principal variation as it deepens",
		Long: `Search POSITION ("start" for the starting position) for --time, printing a
line after each completed depth: the score from the side to move's point of
view (in hundredths; "mate N" for a forced win in N moves, negative for a
forced loss), the nodes searched, the speed and the principal variation.
The last line names the best move: the first move of the last depth's
line, or, when the search stopped inside a deeper iteration that had
already found a better move, that move, after a line marked "unfinished"
that says so.

A "mate N" of the search is what its depth saw, not a proof. Level 8 asks
the proof-number solver in the endgame, once its search sees a forced
result, within a small budget: a line that says "proven: a win in N moves
or fewer" is the solver's proof (its move, and the winner's moves on the
proof's longest line). With --prove the position is then given to the proof-number solver (see solve) for that
long, and a last line says what it proved: "proven win for ... in N moves
or fewer", a proven draw, or "not settled".`,
		Example: `  magneton analyze --time 2s start
  magneton analyze --depth 3 "8/W1BB2W1/3W4/8/1B1W4/4B1B1/2W5/6B1 w 0 0"
  magneton --game tumbling analyze --depth 4 "bbbbbbb,b,2,b,1,b,1/2,b,b,b,b,2/b,3,rb,b,2/b,2,rb,b,2,rr/b,b,3,r,2/bb,b,b,2,r,1,r/b,2,r,r,2,r/bb,2,rr,1,r,r,rrrrrrrrrrrrrrr r"
  magneton analyze --moves d4 --moves e5 start
  magneton analyze --depth 2 --prove 1s "8/6WB/B1B3B1/W6W/8/8/5W2/WB6 b 0 0"  # proven win for Black`,
		Args: exactArgs(1, -1, "a POSITION"),
		RunE: func(c *cobra.Command, args []string) error { return o.run(c, g, args) },
	}
	f := c.Flags()
	f.DurationVar(&o.think, "time", 5*time.Second, "thinking time, above 0 and at most 24h")
	f.IntVar(&o.depth, "depth", 0, fmt.Sprintf("stop at this depth, at most %d (0: no limit)", ai.MaxDepth))
	f.Int64Var(&o.nodes, "nodes", 0, "stop after this many nodes (0: no limit)")
	f.IntVar(&o.threads, "threads", 1, fmt.Sprintf("search threads, %d to %d", ai.MinThreads, ai.MaxThreads))
	f.IntVar(&o.hash, "hash", 64, fmt.Sprintf("transposition table size in MB, %d to %d", ai.MinHashMB, ai.MaxHashMB))
	f.StringVar(&o.player, "player", "level:8", "the search: alphabeta, mcts or level:N")
	f.StringArrayVar(&o.moves, "moves", nil, "moves to play from POSITION first (repeatable)")
	f.DurationVar(&o.proveT, "prove", 0, "then run the proof-number solver this long and print what it proved (0: do not)")
	return profiled(c)
}

// run analyzes the position of args, after --moves, printing a line for
// each depth the search completes and then the best move (and with
// --prove what the solver proved).
func (o *analyzeOptions) run(c *cobra.Command, g *globalOptions, args []string) error {
	flags := searchFlags{threads: &o.threads, hash: &o.hash, depth: &o.depth, nodes: &o.nodes, times: map[string]*time.Duration{"time": &o.think}}
	if err := flags.check(c); err != nil {
		return err
	}
	st, rest, err := g.position(args)
	if err != nil {
		return err
	}
	rules := st.Rules()
	if len(rest) > 0 {
		return usagef("analyze: unexpected arguments %s after the position", clip(strings.Join(rest, " ")))
	}
	gm := game.NewGame(st)
	for _, m := range o.moves {
		if err := gm.Play(m); err != nil {
			return fmt.Errorf("analyze: --moves: %w", err)
		}
	}
	if r, why := gm.Result(); r.Over() {
		return fmt.Errorf("analyze: the game is over (%s, %s)", r, why)
	}
	p, err := games.NewPlayer(o.player, rules, ai.Config{Threads: o.threads, HashMB: o.hash})
	if err != nil {
		return usageError{err}
	}
	t, ok := p.(ai.Thinker)
	if !ok {
		return usagef("analyze: %s does not search; use alphabeta, mcts or a level from 2 to 8", o.player)
	}
	w := c.OutOrStdout()
	var last ai.Info // the last completed depth's report
	in, err := t.Think(c.Context(), gm, ai.Limits{MoveTime: o.think, Depth: o.depth, Nodes: o.nodes}, func(in ai.Info) {
		last = in
		fmt.Fprintln(w, formatInfo(in, rules.Spec().SideNames))
	})
	if err != nil {
		return fmt.Errorf("analyze: %w", err)
	}
	fmt.Fprintln(w, bestMoveLine(last, in))
	if o.proveT > 0 {
		return proveLine(c, gm.Position(), o.proveT, o.hash)
	}
	return nil
}

// bestMoveLine is the last line of an analysis: the move of final, the
// search's result, with what last, the last completed depth's report,
// says of it. The two disagree when the search stopped inside a deeper
// iteration that had already found a better move than last's; the line
// before the best move then says so instead of passing that move off as
// the last depth's.
func bestMoveLine(last, final ai.Info) string {
	speed := fmt.Sprintf("%d nodes, %.0f nodes/s", final.Nodes, float64(final.NPS()))
	switch {
	case last.BestMove == "":
		return fmt.Sprintf("best move %s (no depth completed; %s)", final.BestMove, speed)
	case final.BestMove == last.BestMove:
		return fmt.Sprintf("best move %s (depth %d, %s)", final.BestMove, last.Depth, speed)
	}
	return fmt.Sprintf("depth %2d  unfinished: %s searched better than depth %d's %s before the search stopped (no score yet)  nodes %10d  time %6dms  pv %s\n",
		last.Depth+1, final.BestMove, last.Depth, last.BestMove, final.Nodes, final.Time.Milliseconds(), final.BestMove) +
		fmt.Sprintf("best move %s (the unfinished depth %d; depth %d's line starts with %s; %s)", final.BestMove, last.Depth+1, last.Depth, last.BestMove, speed)
}

// formatInfo writes one progress line of a search; sides are the game's
// side names.
func formatInfo(in ai.Info, sides [2]string) string {
	score := fmt.Sprintf("%+.2f", float64(in.Score)/100)
	if in.Mate != 0 {
		score = fmt.Sprintf("mate %d", in.Mate)
	}
	if pf := in.Proven; pf != nil && in.Mate != 0 {
		// The proof's (the solver's or the book's), not the search's:
		// certain.
		n := max(in.Mate, -in.Mate)
		bound := " or fewer"
		if pf.Exact {
			bound = ""
		}
		if w, ok := pf.Result.Winner(); ok {
			score += fmt.Sprintf(", proven: %s wins in %s%s", sides[w], movesWord(n), bound)
		}
	}
	return fmt.Sprintf("depth %2d  score %-8s  nodes %10d  nps %9d  time %6dms  pv %s", in.Depth, score, in.Nodes, in.NPS(), in.Time.Milliseconds(), strings.Join(in.PV, " "))
}
