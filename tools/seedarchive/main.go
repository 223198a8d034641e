// Command seedarchive fills a database with games of the engine against
// itself, for the game archive's benchmarks (docs/benchmarks.md, "Game
// archive and opening explorer"): finished site games between a few
// hundred accounts, guests and the computer, rated and casual, at every
// speed, each indexed in the archive by the code that indexes a game as
// it ends (store.Seeder, with archive.Index).
//
// The games are a function of the seed: the same seed writes the same
// games, ids, players, clocks and times, however many cores play them.
// A run that stops can be started again with the same flags: the games
// already written are skipped. With several databases (--db A,B) each
// gets the same games, played once.
//
//	go run ./tools/seedarchive --db sqlite:/tmp/archive.db --games 100000 --seed 1
//	go run ./tools/seedarchive --db postgres://magneton@127.0.0.1/archive_bench --games 100000 --seed 1 --game magneton
//	magneton archive verify --db sqlite:/tmp/archive.db
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/magneton-games/magneton/internal/archiveseed"
	"github.com/magneton-games/magneton/internal/benchutil"
	"github.com/magneton-games/magneton/server/archive"
	"github.com/magneton-games/magneton/store"
)

// options are the command's flags.
type options struct {
	db       string
	games    int
	seed     int64
	game     string // a game's name, or "both"
	accounts int
	nodes    int64
	workers  int
	batch    int
	quiet    bool
	verify   bool
}

func main() {
	var o options
	flag.StringVar(&o.db, "db", "", "the database to fill, as magneton serve --db takes it: sqlite:PATH or postgres://... (required); several, separated by commas, get the same games, played once")
	flag.IntVar(&o.games, "games", 100_000, "how many games")
	flag.Int64Var(&o.seed, "seed", 1, "the seed: the same seed makes the same games")
	flag.StringVar(&o.game, "game", "both", "the game: magneton, tumbling-down, or both (half each, in turn)")
	flag.IntVar(&o.accounts, "accounts", 300, "how many accounts play the games")
	flag.Int64Var(&o.nodes, "nodes", 400, "the engine's search budget a move, in nodes (the levels below 8 cap it further)")
	flag.IntVar(&o.workers, "workers", runtime.NumCPU(), "games played at once")
	flag.IntVar(&o.batch, "batch", 200, "games written in one transaction")
	flag.BoolVar(&o.quiet, "quiet", false, "no progress bar")
	flag.BoolVar(&o.verify, "verify", false, "then recount the archive from the games and compare (magneton archive verify)")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, o, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "seedarchive:", err)
		os.Exit(1)
	}
}

// check says what is wrong with the flags.
func (o options) check() error {
	switch {
	case o.db == "":
		return errors.New("--db is required: sqlite:PATH or postgres://USER@HOST/DB")
	case o.games < 1:
		return fmt.Errorf("--games %d: want at least 1", o.games)
	case o.accounts < 2:
		return fmt.Errorf("--accounts %d: want at least 2", o.accounts)
	case o.nodes < 1:
		return fmt.Errorf("--nodes %d: want at least 1", o.nodes)
	case o.workers < 1 || o.batch < 1:
		return fmt.Errorf("--workers %d, --batch %d: want at least 1 each", o.workers, o.batch)
	}
	return nil
}

// gameNames are the games of --game.
func (o options) gameNames() []string {
	if o.game == "both" {
		return []string{"magneton", "tumbling-down"}
	}
	return []string{o.game}
}

// run seeds the databases of o and prints what it wrote on stdout, the
// progress bar on stderr.
func run(ctx context.Context, o options, stdout, stderr io.Writer) error {
	if err := o.check(); err != nil {
		return err
	}
	w, err := archiveseed.NewWorld(o.seed, o.gameNames(), o.accounts, o.nodes)
	if err != nil {
		return fmt.Errorf("--game %s: %w", o.game, err)
	}
	var targets []*target
	defer func() {
		for _, t := range targets {
			t.st.Close()
		}
	}()
	for _, url := range strings.Split(o.db, ",") {
		t, err := openTarget(ctx, url)
		if err != nil {
			return err
		}
		targets = append(targets, t)
	}
	t0 := time.Now()
	var bar func(done int)
	if !o.quiet {
		pb := progressbar.NewOptions(o.games, progressbar.OptionSetWriter(stderr), progressbar.OptionSetDescription("seed"),
			progressbar.OptionShowCount(), progressbar.OptionShowIts(), progressbar.OptionSetItsString("games"), progressbar.OptionThrottle(200*time.Millisecond))
		defer func() { pb.Finish(); fmt.Fprintln(stderr) }()
		bar = func(n int) { pb.Set(n) }
	}
	skipped, err := seed(ctx, targets, w, o, bar)
	if err != nil {
		return err
	}
	el := time.Since(t0)
	fmt.Fprintf(stdout, "%d games seeded (%d were there already) in %s, %.0f games/s\n", o.games-skipped, skipped, el.Round(time.Second), float64(o.games-skipped)/el.Seconds())
	for _, t := range targets {
		c, err := t.st.ArchiveCounts(ctx)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s: the archive holds %d games, %d move rows, %d repertoire rows, %d position rows\n", t.name, c.Games, c.Moves, c.PlayerMoves, c.Positions)
		if !o.verify {
			continue
		}
		r, err := archive.Verify(ctx, t.st, "", nil)
		if err != nil {
			return err
		}
		if !r.OK() || len(r.Failed) > 0 {
			return fmt.Errorf("%s: the archive differs from its recount: %+v", t.name, r.Tables)
		}
		fmt.Fprintf(stdout, "%s: the archive matches its recount of %d finished games\n", t.name, r.Games)
	}
	return nil
}

// target is a database being seeded.
type target struct {
	name string // the database as the messages name it (without a password)
	st   store.Store
	sd   store.Seeder
	// first is the first batch missing from it, where an earlier run
	// stopped.
	first    int
	mu       sync.Mutex
	indexErr error // what the indexer failed on
}

// openTarget opens a database to seed, with the archive's indexer set as
// the server sets it.
func openTarget(ctx context.Context, url string) (*target, error) {
	name := benchutil.RedactURL(url)
	st, err := store.Open(ctx, url)
	if err != nil {
		return nil, err
	}
	sd, ok := st.(store.Seeder)
	if !ok {
		st.Close()
		return nil, fmt.Errorf("%s: the store %T cannot seed games", name, st)
	}
	t := &target{name: name, st: st, sd: sd}
	st.SetArchiveIndexer(archive.Index)
	st.SetIndexErrorHandler(func(id string, err error) {
		t.mu.Lock()
		t.indexErr = errors.Join(t.indexErr, fmt.Errorf("game %s: %w", id, err))
		t.mu.Unlock()
	})
	return t, nil
}

// write writes batch b into the target, unless an earlier run did.
func (t *target) write(ctx context.Context, b int, games []store.SeededGame) error {
	if b < t.first {
		return nil
	}
	if err := t.sd.SeedGames(ctx, games); err != nil {
		return fmt.Errorf("%s: %w", t.name, err)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.indexErr != nil {
		return fmt.Errorf("%s: the archive's indexer failed: %w", t.name, t.indexErr)
	}
	return nil
}

// seed writes the world's accounts and games 0 to o.games-1 into every
// target, skipping the batches an earlier run wrote, and returns how many
// games it skipped. Workers play the batches in turn (worker k the
// batches k, k+workers, ...) and one writer writes them in order, each
// in one transaction a database (store.Seeder), the databases at once: a
// batch is written whole or not at all, so the first missing batch is
// where an earlier run stopped.
func seed(ctx context.Context, targets []*target, w *archiveseed.World, o options, progress func(done int)) (int, error) {
	batches := (o.games + o.batch - 1) / o.batch
	first := batches
	for _, t := range targets {
		if err := createAccounts(ctx, t.st, w); err != nil {
			return 0, fmt.Errorf("%s: %w", t.name, err)
		}
		var err error
		if t.first, err = firstMissing(ctx, t.st, w, batches, o.batch); err != nil {
			return 0, fmt.Errorf("%s: %w", t.name, err)
		}
		first = min(first, t.first)
	}
	skipped := min(first*o.batch, o.games)
	if progress != nil {
		progress(skipped)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type played struct {
		games []store.SeededGame
		err   error
	}
	outs := make([]chan played, o.workers)
	var wg sync.WaitGroup
	for k := range outs {
		outs[k] = make(chan played, 1)
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer close(outs[k])
			for b := first + k; b < batches; b += o.workers {
				var p played
				for i := b * o.batch; i < min((b+1)*o.batch, o.games) && p.err == nil; i++ {
					sg, err := w.Play(ctx, i)
					p.games, p.err = append(p.games, sg), err
				}
				select {
				case outs[k] <- p:
				case <-ctx.Done():
					return
				}
				if p.err != nil {
					return
				}
			}
		}()
	}
	defer wg.Wait()
	done := skipped
	for b := first; b < batches; b++ {
		p, ok := <-outs[(b-first)%o.workers]
		switch {
		case !ok:
			return skipped, ctx.Err()
		case p.err != nil:
			return skipped, p.err
		}
		errs := make([]error, len(targets))
		var tw sync.WaitGroup
		for j, t := range targets {
			tw.Add(1)
			go func() {
				defer tw.Done()
				errs[j] = t.write(ctx, b, p.games)
			}()
		}
		tw.Wait()
		if err := errors.Join(errs...); err != nil {
			return skipped, err
		}
		done += len(p.games)
		if progress != nil {
			progress(done)
		}
	}
	return skipped, nil
}

// createAccounts creates the world's accounts, but those there already
// (an earlier run's).
func createAccounts(ctx context.Context, st store.Store, w *archiveseed.World) error {
	for i, a := range w.Accounts {
		err := st.CreateUser(ctx, &store.User{ID: a.ID, Name: a.Name, Created: archiveseed.Epoch - int64(len(w.Accounts)-i)*3_600_000})
		if errors.Is(err, store.ErrNameTaken) {
			u, uerr := st.UserByName(ctx, a.Name)
			if uerr == nil && u.ID == a.ID {
				continue
			}
			return fmt.Errorf("account %s: the name is another account's: seed an empty database (or one seeded with the same seed)", a.Name)
		}
		if err != nil {
			return fmt.Errorf("account %s: %w", a.Name, err)
		}
	}
	return nil
}

// firstMissing is the first batch whose first game is not in the
// database.
func firstMissing(ctx context.Context, st store.Store, w *archiveseed.World, batches, size int) (int, error) {
	for b := range batches {
		_, err := st.Game(ctx, w.GameID(b*size))
		if errors.Is(err, store.ErrNotFound) {
			return b, nil
		}
		if err != nil {
			return 0, fmt.Errorf("look for the games of an earlier run: %w", err)
		}
	}
	return batches, nil
}
