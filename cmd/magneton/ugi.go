package main

import (
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
"setoption name <option> value <value>". Other options: player (any player
name of the match command, default level:8), threads, hash (MB).
Positions are "position startpos|fen POSITION [moves M...]", with the
game's position text after fen. Malformed commands are ignored with an
"info string" saying why.`,
		Args: exactArgs(0, 0, "no arguments"),
		RunE: func(c *cobra.Command, _ []string) error {
			_, rules, err := g.setup()
			if err != nil {
				return err
			}
			return ugi.NewEngine(games.Catalog, rules, c.OutOrStdout()).Run(c.Context(), c.InOrStdin())
		},
	}
}
