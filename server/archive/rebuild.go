package archive

import (
	"context"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"slices"

	"github.com/magneton-games/magneton/store"
)

// rebuildBatch is how many games Rebuild writes in one transaction.
const rebuildBatch = 200

// Rebuild empties the archive's counts and indexes every finished game
// again (the imported ones included), a batch of games a transaction,
// calling progress with the number of games read so far. A game that
// ends meanwhile is indexed once, by whichever comes first. It returns
// the number of games indexed and those that could not be, by id with
// the reason.
func Rebuild(ctx context.Context, st store.Store, progress func(read int)) (int, map[string]error, error) {
	if err := st.ClearArchive(ctx); err != nil {
		return 0, nil, err
	}
	return indexAll(ctx, st, st, progress)
}

// CatchUp archives the finished games the archive does not hold: those
// that ended before the site had an archive (the server runs it at
// start, in the background) or whose indexing failed as they ended. It
// returns how many it archived and those that do not index.
func CatchUp(ctx context.Context, st store.Store) (int, map[string]error, error) {
	return index(ctx, st.Unarchived, st, nil)
}

// indexAll indexes every finished game of from into to.
func indexAll(ctx context.Context, from, to store.Store, progress func(read int)) (int, map[string]error, error) {
	all := func(ctx context.Context, f func(g *store.Game, moves []string) (bool, error)) error {
		return from.ArchiveGames(ctx, "", f)
	}
	return index(ctx, all, to, progress)
}

// index indexes into to the games that each calls f with.
func index(ctx context.Context, each func(ctx context.Context, f func(g *store.Game, moves []string) (bool, error)) error, to store.Store, progress func(read int)) (int, map[string]error, error) {
	var (
		batch  []store.IndexedGame
		read   int
		done   int
		failed = map[string]error{}
	)
	flush := func() error {
		n, err := to.IndexGames(ctx, batch)
		done += n
		batch = batch[:0]
		return err
	}
	err := each(ctx, func(g *store.Game, moves []string) (bool, error) {
		read++
		e, err := Index(g, moves)
		if err != nil {
			failed[g.ID] = err
		} else {
			batch = append(batch, store.IndexedGame{Game: g, Entry: e})
		}
		if len(batch) == rebuildBatch {
			if err := flush(); err != nil {
				return false, err
			}
		}
		if progress != nil {
			progress(read)
		}
		return true, ctx.Err()
	})
	if err == nil && len(batch) > 0 {
		err = flush()
	}
	if err != nil {
		return done, failed, fmt.Errorf("index the finished games: %w", err)
	}
	return done, failed, nil
}

// TableCheck compares one table of the archive with its recount.
type TableCheck struct {
	Table         string
	Rows, Recount int64
	// Same: the two hold the same rows (compared as multisets, by the
	// count and the sum of a hash of each row).
	Same bool
}

// Report is what Verify found.
type Report struct {
	Games  int // finished games read
	Tables []TableCheck
	// Failed are the finished games that do not index (by id, the
	// reason); they are in neither the archive nor the recount.
	Failed map[string]error
}

// OK reports whether the archive matched its recount.
func (r *Report) OK() bool {
	for _, t := range r.Tables {
		if !t.Same {
			return false
		}
	}
	return true
}

// Verify recounts the archive from the finished games, into a scratch
// SQLite database in dir (a temporary folder when ""), and compares
// every table with the archive: the rows of each, as multisets. On a
// live site, games that end while it runs may make it differ.
func Verify(ctx context.Context, st store.Store, dir string, progress func(read int)) (*Report, error) {
	tmp, err := os.MkdirTemp(dir, "magneton-verify-")
	if err != nil {
		return nil, fmt.Errorf("verify the archive: %w", err)
	}
	defer os.RemoveAll(tmp)
	scratch, err := store.OpenSQLite(ctx, filepath.Join(tmp, "recount.db"))
	if err != nil {
		return nil, fmt.Errorf("verify the archive: %w", err)
	}
	defer scratch.Close()
	r := &Report{}
	r.Games, r.Failed, err = countGames(ctx, st, scratch, progress)
	if err != nil {
		return nil, fmt.Errorf("verify the archive: %w", err)
	}
	have, err := digest(ctx, st)
	if err != nil {
		return nil, fmt.Errorf("verify the archive: %w", err)
	}
	want, err := digest(ctx, scratch)
	if err != nil {
		return nil, fmt.Errorf("verify the archive: the recount: %w", err)
	}
	tables := make([]string, 0, len(want))
	for t := range want {
		tables = append(tables, t)
	}
	for t := range have {
		if _, ok := want[t]; !ok {
			tables = append(tables, t)
		}
	}
	slices.Sort(tables)
	for _, t := range tables {
		r.Tables = append(r.Tables, TableCheck{Table: t, Rows: have[t].rows, Recount: want[t].rows, Same: have[t] == want[t]})
	}
	return r, nil
}

// countGames indexes every finished game of st into scratch and returns
// how many it read.
func countGames(ctx context.Context, st, scratch store.Store, progress func(read int)) (int, map[string]error, error) {
	read := 0
	_, failed, err := indexAll(ctx, st, scratch, func(n int) {
		read = n
		if progress != nil {
			progress(n)
		}
	})
	return read, failed, err
}

// tableDigest is a multiset's fingerprint: its size, and the sum and the
// xor of a 64-bit hash of each row.
type tableDigest struct {
	rows     int64
	sum, xor uint64
}

// digest fingerprints each table of a store's archive.
func digest(ctx context.Context, st store.Store) (map[string]tableDigest, error) {
	out := map[string]tableDigest{}
	err := st.DumpArchive(ctx, func(table, row string) error {
		h := fnv.New64a()
		h.Write([]byte(row))
		v := h.Sum64()
		d := out[table]
		d.rows++
		d.sum += v
		d.xor ^= v * 0x9e3779b97f4a7c15
		out[table] = d
		return ctx.Err()
	})
	return out, err
}
