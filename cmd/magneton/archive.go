package main

import (
	"context"
	"fmt"
	"io"
	"slices"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/magneton-games/magneton/server/archive"
	"github.com/magneton-games/magneton/store"
)

func init() {
	commands = append(commands, archiveCommand)
}

// archiveCommand is magneton archive: the game archive's upkeep, on the
// play server's database.
func archiveCommand(_ *globalOptions) *cobra.Command {
	o := &adminOptions{}
	c := &cobra.Command{
		Use:   "archive",
		Short: "The game archive and opening explorer's index: rebuild it, verify it",
		Long: `The game archive counts, for each position reached in a finished game
(up to the board's symmetries), the moves played from it and how those games
ended. The play server indexes each game as it ends, in the transaction that
writes its result; these commands rebuild the index from the games (after a
change of how positions are keyed, or to mend it) and verify it by recounting
into a scratch database and comparing every table.`,
		Example: `  magneton archive verify --data /var/lib/magneton
  magneton archive rebuild --db postgres://magneton@db.internal/magneton`,
	}
	c.PersistentFlags().StringVar(&o.data, "data", "./data", "the folder of the SQLite database, as magneton serve --data")
	c.PersistentFlags().StringVar(&o.db, "db", "", "the database URL, sqlite:PATH or postgres://... (default: sqlite:DATA/magneton.db)")
	var quiet bool
	c.PersistentFlags().BoolVar(&quiet, "quiet", false, "no progress bar")
	c.AddCommand(&cobra.Command{
		Use:     "rebuild",
		Short:   "Empty the archive's counts and index every finished game again",
		Example: "  magneton archive rebuild --db postgres://magneton@db.internal/magneton",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return archiveRun(cmd, o, quiet, "rebuild", func(ctx context.Context, st store.Store, bar func(int)) error {
				n, failed, err := archive.Rebuild(ctx, st, bar)
				if err != nil {
					return err
				}
				fmt.Fprintf(cmd.OutOrStdout(), "%d games indexed\n", n)
				return reportFailed(cmd.OutOrStdout(), failed)
			})
		},
	})
	var scratch string
	verify := &cobra.Command{
		Use:     "verify",
		Short:   "Recount the archive from the finished games and compare",
		Example: "  magneton archive verify --data /var/lib/magneton",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return archiveRun(cmd, o, quiet, "verify", func(ctx context.Context, st store.Store, bar func(int)) error {
				r, err := archive.Verify(ctx, st, scratch, bar)
				if err != nil {
					return err
				}
				w := cmd.OutOrStdout()
				fmt.Fprintf(w, "%d finished games recounted\n", r.Games)
				for _, t := range r.Tables {
					verdict := "same"
					if !t.Same {
						verdict = "DIFFERENT"
					}
					fmt.Fprintf(w, "%-22s %10d rows, recount %10d: %s\n", t.Table, t.Rows, t.Recount, verdict)
				}
				if err := reportFailed(w, r.Failed); err != nil {
					return err
				}
				if !r.OK() {
					return fmt.Errorf("the archive differs from its recount: magneton archive rebuild mends it")
				}
				fmt.Fprintln(w, "the archive matches its recount")
				return nil
			})
		},
	}
	verify.Flags().StringVar(&scratch, "scratch", "", "the folder for the recount's scratch database (default: the system's temporary folder)")
	c.AddCommand(verify)
	return c
}

// archiveRun opens the database and runs f with a progress bar of the
// finished games read.
func archiveRun(cmd *cobra.Command, o *adminOptions, quiet bool, what string, f func(ctx context.Context, st store.Store, bar func(int)) error) error {
	ctx := cmd.Context()
	st, err := o.open(ctx)
	if err != nil {
		return fmt.Errorf("archive %s: %w", what, err)
	}
	defer st.Close()
	var bar func(int)
	if !quiet {
		pb := progressbar.NewOptions(-1, progressbar.OptionSetWriter(cmd.ErrOrStderr()), progressbar.OptionSetDescription(what),
			progressbar.OptionShowCount(), progressbar.OptionShowIts(), progressbar.OptionSetItsString("games"), progressbar.OptionThrottle(200_000_000))
		defer func() { pb.Finish(); fmt.Fprintln(cmd.ErrOrStderr()) }()
		bar = func(n int) { pb.Set(n) }
	}
	if err := f(ctx, st, bar); err != nil {
		return fmt.Errorf("archive %s: %w", what, err)
	}
	return nil
}

// reportFailed lists the games that did not index, and fails when there
// are any.
func reportFailed(w io.Writer, failed map[string]error) error {
	if len(failed) == 0 {
		return nil
	}
	ids := make([]string, 0, len(failed))
	for id := range failed {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		fmt.Fprintf(w, "game %s does not index: %v\n", id, failed[id])
	}
	return fmt.Errorf("%d finished games do not index", len(failed))
}
