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
		Example: `  magneton admin reset-link ann --data /var/lib/magneton --site-url https://play.example.org`,
		// Without a subcommand it shows its help; an unknown one is bad
		// usage (status 2).
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usagef("admin: unknown subcommand %q (see magneton admin --help)", args[0])
			}
			return nil
		},
		RunE: func(c *cobra.Command, _ []string) error { return c.Help() },
	}
	for _, add := range adminCommands {
		c.AddCommand(add(g))
	}
	return c
}
