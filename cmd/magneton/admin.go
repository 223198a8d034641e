package main

import "github.com/spf13/cobra"

func init() { commands = append(commands, adminCommand) }

// adminCommands holds the constructors of magneton admin's subcommands;
// each file of them adds its own (admin_accounts.go: reset-link).
var adminCommands []func(*globalOptions) *cobra.Command

// adminCommand is magneton admin, which only groups the operator's
// subcommands.
func adminCommand(g *globalOptions) *cobra.Command {
	c := &cobra.Command{
		Use:   "admin",
		Short: "The site operator's tasks on the play server's database",
		Long: `The site operator's tasks, run on the play server's database (--data or
--db, as magneton serve takes them) while the server runs or not.`,
		Args: exactArgs(0, 0, "a subcommand"),
		RunE: func(c *cobra.Command, _ []string) error {
			return usagef("admin: name a subcommand (see magneton admin --help)")
		},
	}
	for _, add := range adminCommands {
		c.AddCommand(add(g))
	}
	return c
}
