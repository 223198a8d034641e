package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/magneton-games/magneton/store"
)

func init() {
	commands = append(commands, adminCommand)
}

// adminCommands are the subcommands of `magneton admin`, each in a file of
// its own.
var adminCommands []func(*adminOptions) *cobra.Command

// adminOptions are the flags every admin subcommand takes: the database,
// as `magneton serve` names it.
type adminOptions struct {
	data, db string
}

// open opens the site's database, which must be there; the caller
// names itself in the error.
func (o *adminOptions) open(ctx context.Context) (store.Store, error) {
	url := o.db
	if url == "" {
		if _, err := os.Stat(o.data); err != nil {
			return nil, fmt.Errorf("no site's database in %s (--data): %w", o.data, err)
		}
		url = "sqlite:" + filepath.Join(o.data, "magneton.db")
	}
	// The site's database must be there already: an administrator's typo
	// would otherwise make an empty one and find no one in it.
	if path, ok := strings.CutPrefix(url, "sqlite:"); ok || !strings.Contains(url, ":") {
		if _, err := os.Stat(path); err != nil {
			return nil, fmt.Errorf("no site's database at %s (--data or --db): %w", path, err)
		}
	}
	return store.Open(ctx, url)
}

// adminCommand is magneton admin, which groups the operator's
// subcommands and their database flags.
func adminCommand(_ *globalOptions) *cobra.Command {
	o := &adminOptions{}
	c := &cobra.Command{
		Use:   "admin",
		Short: "The site operator's tasks on the play server's database: moderators, reset links",
		Long: `The site operator's tasks, run on the play server's database (--data or
--db, as magneton serve takes them) while the server runs or not. What they
change takes effect on every running instance within a few seconds.`,
		Example: `  magneton admin moderator ann --data /var/lib/magneton
  magneton admin reset-link ann --data /var/lib/magneton --site-url https://play.example.org`,
	}
	c.PersistentFlags().StringVar(&o.data, "data", "./data", "the folder of the SQLite database, as magneton serve --data")
	c.PersistentFlags().StringVar(&o.db, "db", "", "the database URL, sqlite:PATH or postgres://... (default: sqlite:DATA/magneton.db)")
	for _, sub := range adminCommands {
		c.AddCommand(sub(o))
	}
	return c
}
