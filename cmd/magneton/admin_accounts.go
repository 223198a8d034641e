package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/magneton-games/magneton/server/accounts"
	"github.com/magneton-games/magneton/store"
)

func init() { adminCommands = append(adminCommands, adminResetLinkCommand) }

// adminResetLinkCommand is magneton admin reset-link: a one-time link
// that sets an account's password, for a site that sends no mail (or a
// player whose account has no e-mail address).
func adminResetLinkCommand(o *adminOptions) *cobra.Command {
	var (
		siteURL string
		valid   time.Duration
	)
	c := &cobra.Command{
		Use:   "reset-link NAME",
		Short: "Print a one-time link that sets the password of the account NAME",
		Long: `Print a link to the page that sets a new password for the account NAME
(in any case), on the site at --site-url: for a player who forgot their
password on a site that sends no mail, or whose account has no e-mail
address. The link works once, for --valid; setting the password logs out
every browser of the account. Hand it to its owner only: whoever holds it
sets the password. The database keeps a hash of the link's token, never
the token.`,
		Example: `  magneton admin reset-link ann --data /var/lib/magneton --site-url https://play.example.org
  magneton admin reset-link ann --db 'postgres://magneton@db.internal/magneton' --site-url https://play.example.org --valid 2h`,
		Args: exactArgs(1, 1, "the account's name"),
		RunE: func(c *cobra.Command, args []string) error {
			if err := checkSiteURL("admin reset-link", siteURL); err != nil {
				return err
			}
			if valid < time.Minute || valid > 168*time.Hour {
				return usagef("admin reset-link: --valid %v: want 1m to 168h", valid)
			}
			link, err := resetLink(c.Context(), o, args[0], siteURL, valid)
			if err != nil {
				return fmt.Errorf("admin reset-link: %w", err)
			}
			fmt.Fprintln(c.OutOrStdout(), link)
			return nil
		},
	}
	f := c.Flags()
	f.StringVar(&siteURL, "site-url", "http://127.0.0.1:8080", "the site's address as its players reach it, which the link starts with")
	f.DurationVar(&valid, "valid", accounts.AdminLinkLife, "how long the link works: 1m to 168h")
	return c
}

// resetLink makes a link for the account name in the database of o.
func resetLink(ctx context.Context, o *adminOptions, name, siteURL string, valid time.Duration) (string, error) {
	st, err := o.open(ctx)
	if err != nil {
		return "", err
	}
	defer st.Close()
	u, err := st.UserByName(ctx, name)
	if errors.Is(err, store.ErrNoUser) {
		return "", fmt.Errorf("no account is named %q", name)
	}
	if err != nil {
		return "", err
	}
	token, err := accounts.IssueReset(ctx, st, u.ID, valid, store.ResetByAdmin)
	if err != nil {
		return "", err
	}
	return accounts.ResetLink(siteURL, token), nil
}
