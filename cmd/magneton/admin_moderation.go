package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/magneton-games/magneton/server/moderation"
)

func init() {
	adminCommands = append(adminCommands, adminModeratorCommand)
}

func adminModeratorCommand(o *adminOptions) *cobra.Command {
	revoke := false
	c := &cobra.Command{
		Use:   "moderator NAME",
		Short: "Make an account a moderator of the site (or, with --revoke, no longer)",
		Long: `Give the account NAME the moderators' role: on the site, its account menu
then opens the moderators' page (/mod), with the players' reports, and the
mute, ban and close actions (docs/deploy.md). --revoke takes the role back.
The change is logged with the moderators' actions.`,
		Example: `  magneton admin moderator ann
  magneton admin moderator ann --revoke --db 'postgres://magneton:PASSWORD@db.internal/magneton'`,
		Args: exactArgs(1, 1, "one account name"),
		RunE: func(c *cobra.Command, args []string) error {
			st, err := o.open(c.Context())
			if err != nil {
				return fmt.Errorf("admin moderator: %w", err)
			}
			defer st.Close()
			if err := moderation.Grant(c.Context(), st, args[0], !revoke); err != nil {
				return fmt.Errorf("admin moderator: %w", err)
			}
			what := "is a moderator now"
			if revoke {
				what = "is no longer a moderator"
			}
			fmt.Fprintf(c.OutOrStdout(), "%s %s\n", args[0], what)
			return nil
		},
	}
	c.Flags().BoolVar(&revoke, "revoke", false, "take the moderators' role back")
	return c
}
