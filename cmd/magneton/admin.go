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

// open opens the site's database.
func (o *adminOptions) open(ctx context.Context) (store.Store, error) {
	url := o.db
	if url == "" {
		if _, err := os.Stat(o.data); err != nil {
			return nil, fmt.Errorf("admin: --data %s: %w", o.data, err)
		}
		url = "sqlite:" + filepath.Join(o.data, "magneton.db")
	}
	// The site's database must be there already: an administrator's typo
	// would otherwise make an empty one and find no one in it.
	if path, ok := strings.CutPrefix(url, "sqlite:"); ok || !strings.Contains(url, ":") {
		if _, err := os.Stat(path); err != nil {
			return nil, fmt.Errorf("admin: no site's database at %s: %w", path, err)
		}
	}
	st, err := store.Open(ctx, url)
	if err != nil {
		return nil, fmt.Errorf("admin: %w", err)
	}
	return st, nil
}

func adminCommand(_ *globalOptions) *cobra.Command {
	o := &adminOptions{}
	c := &cobra.Command{
		Use:   "admin",
		Short: "Look after the play site's accounts: moderators, and more",
		Long: `Commands for the operator of a play site, run beside magneton serve on the
same database (--data or --db, as serve takes them). What they change takes
effect on every running instance within a few seconds.`,
	}
	c.PersistentFlags().StringVar(&o.data, "data", "./data", "the folder of the SQLite database")
	c.PersistentFlags().StringVar(&o.db, "db", "", "the database URL, sqlite:PATH or postgres://... (default: sqlite:DATA/magneton.db)")
	for _, sub := range adminCommands {
		c.AddCommand(sub(o))
	}
	return c
}
