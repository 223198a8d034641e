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

func analyzeCommand(g *globalOptions) *cobra.Command {
	var (
		think   time.Duration
		depth   int
		nodes   int64
		threads int
		hash    int
		player  string
		moves   []string
	)
	c := &cobra.Command{
		Use:   "analyze POSITION",
		Short: "Search a position and print the evaluation, best move and principal variation as it deepens",
		Long: `Search POSITION ("start" for the starting position) for --time, printing a
line after each completed depth: the score from the side to move's point of
view (in hundredths; "mate N" for a forced win in N moves, negative for a
forced loss), the nodes searched, the speed and the principal variation.
The last line names the best move.`,
		Args: exactArgs(1, -1, "a POSITION"),
		RunE: func(c *cobra.Command, args []string) error {
			st, rest, err := g.position(args)
			if err != nil {
				return err
			}
			rules := st.Rules()
			if len(rest) > 0 {
				return usagef("analyze: unexpected arguments %q after the position", rest)
			}
			gm := game.NewGame(st)
			for _, m := range moves {
				if err := gm.Play(m); err != nil {
					return fmt.Errorf("analyze: --moves: %w", err)
				}
			}
			if r, why := gm.Result(); r.Over() {
				return fmt.Errorf("analyze: the game is over (%s, %s)", r, why)
			}
			p, err := games.NewPlayer(player, rules, ai.Config{Threads: threads, HashMB: hash})
			if err != nil {
				return usageError{err}
			}
			t, ok := p.(ai.Thinker)
			if !ok {
				return usagef("analyze: %s does not search; use alphabeta, mcts or a level from 2 to 8", player)
			}
			w := c.OutOrStdout()
			in, err := t.Think(c.Context(), gm, ai.Limits{MoveTime: think, Depth: depth, Nodes: nodes}, func(in ai.Info) {
				fmt.Fprintln(w, formatInfo(in))
			})
			if err != nil {
				return fmt.Errorf("analyze: %w", err)
			}
			fmt.Fprintf(w, "best move %s (depth %d, %d nodes, %.0f nodes/s)\n", in.BestMove, in.Depth, in.Nodes, float64(in.NPS()))
			return nil
		},
	}
	f := c.Flags()
	f.DurationVar(&think, "time", 5*time.Second, "thinking time")
	f.IntVar(&depth, "depth", 0, "stop at this depth (0: no limit)")
	f.Int64Var(&nodes, "nodes", 0, "stop after this many nodes (0: no limit)")
	f.IntVar(&threads, "threads", 1, "search threads")
	f.IntVar(&hash, "hash", 64, "transposition table size in MB")
	f.StringVar(&player, "player", "level:8", "the search: alphabeta, mcts or level:N")
	f.StringArrayVar(&moves, "moves", nil, "moves to play from POSITION first (repeatable)")
	return c
}

// formatInfo writes one progress line of a search.
func formatInfo(in ai.Info) string {
	score := fmt.Sprintf("%+.2f", float64(in.Score)/100)
	if in.Mate > 0 {
		score = fmt.Sprintf("mate %d", in.Mate)
	} else if in.Mate < 0 {
		score = fmt.Sprintf("mate %d", in.Mate)
	}
	return fmt.Sprintf("depth %2d  score %-8s  nodes %10d  nps %9d  time %6dms  pv %s", in.Depth, score, in.Nodes, in.NPS(), in.Time.Milliseconds(), strings.Join(in.PV, " "))
}
