package main

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/magneton-games/magneton/server/archive"
)

func init() {
	commands = append(commands, importCommand)
}

// importCommand is magneton import: files of game records into the play
// server's archive.
func importCommand(_ *globalOptions) *cobra.Command {
	o := &adminOptions{}
	var quiet bool
	c := &cobra.Command{
		Use:   "import FILE...",
		Short: "Import files of game records into the game archive",
		Long: `Import game records into the play server's game archive, the opening
explorer's counts and the game search: Tumbling Down SGF (the site's, or
Boardspace.net's records), the site's PGN-like records of any game, one or
many records a file, or zip archives of such files (Boardspace's archive of a
month). A folder is read for the files in it, and in its folders.

Each file is imported whole, in one transaction, or not at all: a record that
cannot be read or replayed, or that has no result, refuses its file, and the
refusal names the file, the zip member, the record's number, its line, and
what is wrong. A record imported before (the same game, rules, moves, players
and day) is passed over and named with the id of the earlier game; the file's
other records go in. Imported games are marked as imported (Boardspace's as
Boardspace's) and never rated. Files are read one at a time, a record at a
time, so that memory does not grow with their number or size.

The summary counts the files, the games imported, the duplicates and the
files refused; the exit status is 1 when a file was refused.`,
		Example: `  magneton import games-Mar-01-2010.zip --data ./data
  magneton import boardspace/ my-games.pgn --db postgres://magneton@db/magneton`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return importRun(cmd, o, quiet, args)
		},
	}
	c.Flags().StringVar(&o.data, "data", "./data", "the folder of the SQLite database, as magneton serve --data")
	c.Flags().StringVar(&o.db, "db", "", "the database URL, sqlite:PATH or postgres://... (default: sqlite:DATA/magneton.db)")
	c.Flags().BoolVar(&quiet, "quiet", false, "no progress bar")
	return c
}

// importRun imports the files named (folders for the files in them).
func importRun(cmd *cobra.Command, o *adminOptions, quiet bool, args []string) error {
	ctx := cmd.Context()
	files, err := importFiles(args)
	if err != nil {
		return fmt.Errorf("import: %w", err)
	}
	st, err := o.open(ctx)
	if err != nil {
		return fmt.Errorf("import: %w", err)
	}
	defer st.Close()
	st.SetArchiveIndexer(archive.Index)
	im := &archive.Importer{Store: st}
	out, errw := cmd.OutOrStdout(), cmd.ErrOrStderr()
	var bar *progressbar.ProgressBar
	if !quiet {
		bar = progressbar.NewOptions(-1, progressbar.OptionSetWriter(errw), progressbar.OptionSetDescription("import"),
			progressbar.OptionShowCount(), progressbar.OptionShowIts(), progressbar.OptionSetItsString("records"), progressbar.OptionThrottle(200_000_000))
		im.Progress = func() { bar.Add(1) }
	}
	var games, dups, refused int
	for _, name := range files {
		res, err := importOne(ctx, im, name)
		if bar != nil {
			bar.Clear()
		}
		if err != nil {
			if bar != nil {
				bar.Finish()
				fmt.Fprintln(errw)
			}
			return fmt.Errorf("import: %w", err)
		}
		for _, d := range res.Duplicates {
			fmt.Fprintf(out, "%s: imported before, as game %s\n", d.Place, d.Earlier)
		}
		if res.Refused != nil {
			refused++
			fmt.Fprintf(out, "%s: refused, nothing of %s imported: %s\n", res.Refused.Place, name, res.Refused.Reason)
		} else {
			fmt.Fprintf(out, "%s: %s imported, %d imported before\n", name, plural(res.Games, "game"), len(res.Duplicates))
		}
		games += res.Games
		dups += len(res.Duplicates)
	}
	if bar != nil {
		bar.Finish()
		fmt.Fprintln(errw)
	}
	fmt.Fprintf(out, "%s: %s imported, %s, %s refused\n", plural(len(files), "file"), plural(games, "game"), plural(dups, "duplicate"), plural(refused, "file"))
	if refused > 0 {
		return fmt.Errorf("import: %d of %d files refused", refused, len(files))
	}
	return nil
}

// importOne imports one file.
func importOne(ctx context.Context, im *archive.Importer, name string) (archive.FileResult, error) {
	f, err := os.Open(name)
	if err != nil {
		return archive.FileResult{}, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return archive.FileResult{}, err
	}
	return im.ImportFile(ctx, name, f, info.Size())
}

// importFiles lists the files named, a folder's files (and those of its
// folders) in their names' order.
func importFiles(args []string) ([]string, error) {
	var files []string
	for _, a := range args {
		info, err := os.Stat(a)
		if err != nil {
			return nil, err
		}
		if !info.IsDir() {
			files = append(files, a)
			continue
		}
		err = filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && d.Name()[0] != '.' {
				files = append(files, p)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return files, nil
}
