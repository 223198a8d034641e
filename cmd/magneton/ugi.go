package main

import (
	"runtime"

	"github.com/spf13/cobra"

	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/ugi"
)

func init() {
	commands = append(commands, ugiCommand)
}

func ugiCommand(g *globalOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "ugi",
		Short: "Run as an engine speaking UGI, the UCI-like protocol for two-player games",
		Long: `Read UGI commands from standard input and answer on standard output.

The game is chosen by "setoption name game value NAME" with any game's
name or alias (the --game flag gives the initial one) and each rule option by
"setoption name <option> value <value>" (the option lines of "ugi" default to
the rules of --game and --rule). Other options: player (any player name of
the match command, default level:8), threads (1 to 64), hash (MB, 1 to 4096).
Positions are "position startpos|fen POSITION [moves M...]", with the
game's position text after fen. Malformed commands are ignored with an
"info string" saying why; go always answers bestmove (ignoring what it cannot
use), within its movetime or its share of the clock, even on a busy machine.`,
		Example: `  magneton ugi
  magneton --game tumbling --rule boardspace ugi

A session (> what the client sends):
  > ugi
  id name magneton
  ...
  ugiok
  > position fen 8/W1BB2W1/3W4/8/1B1W4/4B1B1/2W5/6B1 w 0 0
  > go movetime 500
  info depth 1 score cp ... pv ...
  bestmove ...`,
		Args: exactArgs(0, 0, "no arguments"),
		RunE: func(c *cobra.Command, _ []string) error {
			_, rules, err := g.setup()
			if err != nil {
				return err
			}
			// One processor more than the cores, so that the engine's own
			// goroutines (the reader, the deadline's watchdog) find one at
			// once even while the search's threads hold every core: the
			// answer within movetime does not wait for the scheduler to
			// preempt a search thread.
			if n := runtime.NumCPU() + 1; runtime.GOMAXPROCS(0) < n {
				runtime.GOMAXPROCS(n)
			}
			// Read the book before the first command is answered, as an
			// engine loads its tables before it says it is ready: not at
			// its first go of level 8, whose clock would pay for it (and
			// whose watchdog would answer without the proof).
			if _, err := games.ProvenBook(); err != nil {
				return err
			}
			return ugi.NewEngine(games.Catalog, rules, c.OutOrStdout()).Run(c.Context(), c.InOrStdin())
		},
	}
}
