// Command archivebench measures the game archive and the opening
// explorer on a database that tools/seedarchive filled (docs/benchmarks.md,
// "Game archive and opening explorer"):
//
//   - the index's size: each archive table's bytes (SQLite's dbstat,
//     PostgreSQL's pg_total_relation_size), and per archived game;
//   - the explorer's answer for the start of each game and for positions
//     at ply 10 (the most common among the seeded games, and rare ones),
//     p50 and p99, through the explorer's query path in this process
//     (archive.FrameOf, store.ExplorerMoves, the stored moves translated
//     to the legal moves of the position asked) and through the server's
//     GET /api/explorer, first on a quiet server, then while live games
//     are played on it (tools/loadtest, in child processes, over the game
//     socket);
//   - the time to index a finished game: the store's write of a game's
//     end (UpdateGame) with the archive's indexer and without it, quiet
//     and under the load, and archive.Index alone.
//
// It starts the server in this process on the database, with no
// per-client limits (every client is this machine). Games it finishes to
// time the indexing stay in the database, archived (those finished
// without the indexer are indexed after), so that `magneton archive
// verify` still passes.
//
//	go run ./tools/seedarchive --db sqlite:/tmp/archive.db --games 100000 --seed 1
//	go run ./tools/archivebench --db sqlite:/tmp/archive.db
//
// It is a program, not a Go benchmark: it needs a database that takes an
// hour to seed, a server under load from other processes, and
// percentiles, which testing.B does not report.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime"
	"runtime/pprof"
	"syscall"
	"time"

	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/internal/archiveseed"
	"github.com/magneton-games/magneton/internal/benchutil"
	"github.com/magneton-games/magneton/server"
	"github.com/magneton-games/magneton/server/archive"
	"github.com/magneton-games/magneton/store"
)

// options are the command's flags.
type options struct {
	db       string
	loadtest string // the loadtest program; "" builds it
	// The load: live games (half of each game), their moves a second
	// all together, and spectators a game.
	live       int
	rate       float64
	spectators int
	// How long each phase measures, and the explorer's queries a second.
	quiet, duration time.Duration
	qps             float64
	// The games finished to time the indexing, in each phase; the world
	// they come from (the seed's, so that their players are its
	// accounts) and the first game number after the seeded ones.
	index        int
	seed         int64
	seeded       int
	accounts     int
	plyTen       int // ply-10 positions per game, the most common
	sample       int // games read to find them
	cpuProfile   string
	skipIndexing bool
}

func main() {
	var o options
	flag.StringVar(&o.db, "db", "", "the seeded database: sqlite:PATH or postgres://... (required)")
	flag.StringVar(&o.loadtest, "loadtest", "", "the loadtest program (default: go build ./tools/loadtest into a temporary folder)")
	flag.IntVar(&o.live, "live", 50, "live games played during the measurement under load, half Magneton, half Tumbling Down")
	flag.Float64Var(&o.rate, "rate", 50, "the live games' moves a second, all together")
	flag.IntVar(&o.spectators, "spectators", 2, "spectators a live game")
	flag.DurationVar(&o.quiet, "quiet", 20*time.Second, "how long the explorer is measured on the quiet server")
	flag.DurationVar(&o.duration, "duration", 60*time.Second, "how long the explorer is measured under load")
	flag.Float64Var(&o.qps, "qps", 50, "explorer queries a second, each path")
	flag.IntVar(&o.index, "index", 200, "games finished to time the indexing, in each phase")
	flag.Int64Var(&o.seed, "seed", 1, "the seed the database was seeded with")
	flag.IntVar(&o.seeded, "seeded", 100_000, "how many games it was seeded with")
	flag.IntVar(&o.accounts, "accounts", 300, "how many accounts it was seeded with")
	flag.IntVar(&o.plyTen, "ply10", 3, "ply-10 positions of each game, the most common ones (and one rare one besides)")
	flag.IntVar(&o.sample, "sample", 5000, "archived games read to find the ply-10 positions")
	flag.StringVar(&o.cpuProfile, "cpuprofile", "", "write a CPU profile of this process (the server included) to this file")
	flag.BoolVar(&o.skipIndexing, "no-index", false, "leave out the indexing times")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, o, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "archivebench:", err)
		os.Exit(1)
	}
}

// check says what is wrong with the flags.
func (o options) check() error {
	switch {
	case o.db == "":
		return errors.New("--db is required: the database tools/seedarchive filled, sqlite:PATH or postgres://USER@HOST/DB")
	case o.live < 2 || o.rate <= 0 || o.spectators < 0:
		return fmt.Errorf("--live %d, --rate %g, --spectators %d: want at least 2 games, a positive rate, no negative spectators", o.live, o.rate, o.spectators)
	case o.quiet <= 0 || o.duration <= 0 || o.qps <= 0:
		return fmt.Errorf("--quiet %s, --duration %s, --qps %g: want positive times and rate", o.quiet, o.duration, o.qps)
	case o.index < 2 || o.plyTen < 1 || o.sample < 1:
		return fmt.Errorf("--index %d, --ply10 %d, --sample %d: want at least 2, 1 and 1", o.index, o.plyTen, o.sample)
	}
	return nil
}

// run measures and writes the report on out.
func run(ctx context.Context, o options, out io.Writer) error {
	if err := o.check(); err != nil {
		return err
	}
	if o.cpuProfile != "" {
		f, err := os.Create(o.cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	rep := &report{out: out, db: benchutil.RedactURL(o.db), load0: benchutil.LoadAverage(), cores: runtime.NumCPU(), started: time.Now()}
	st, err := store.Open(ctx, o.db)
	if err != nil {
		return err
	}
	defer st.Close()

	if rep.counts, err = st.ArchiveCounts(ctx); err != nil {
		return err
	}
	if rep.counts.Games == 0 {
		return fmt.Errorf("%s has no archived game: seed it first (go run ./tools/seedarchive --db ...)", rep.db)
	}
	if rep.sizes, err = tableSizes(ctx, o.db); err != nil {
		return err
	}
	rep.writeSizes()

	positions, err := pickPositions(ctx, st, o.plyTen, o.sample)
	if err != nil {
		return err
	}
	base, stopServer, err := startServer(ctx, st)
	if err != nil {
		return err
	}
	defer stopServer()
	ex := &explorer{ex: &archive.Explorer{Store: st, Book: games.ProvenBook}, base: base, client: &http.Client{Timeout: 30 * time.Second}}
	if err := ex.describe(ctx, positions); err != nil {
		return err
	}
	rep.writePositions(positions)

	var w *archiveseed.World
	var quietGames, loadGames []*indexGame
	if !o.skipIndexing {
		if w, err = archiveseed.NewWorld(o.seed, []string{"magneton", "tumbling-down"}, o.accounts, 400); err != nil {
			return err
		}
		// Both phases' games are made and played up to their last move
		// now, so that making them loads neither phase.
		games, err := prepareGames(ctx, st, w, o.seeded, 2*o.index)
		if err != nil {
			return err
		}
		quietGames, loadGames = games[:len(games)/2], games[len(games)/2:]
		// Their moves' writes leave the log to copy into the database
		// (SQLite's checkpoints, every second): let them finish first.
		select {
		case <-time.After(settle):
		case <-ctx.Done():
			return ctx.Err()
		}
	}

	// The quiet server.
	rep.quiet = ex.measure(ctx, positions, o.quiet, o.qps)
	if !o.skipIndexing {
		rep.indexQuiet, err = timeIndexing(ctx, st, quietGames, true, 0)
		if err != nil {
			return err
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}

	// Under load: the live games, the explorer and, at a steady pace,
	// games ending.
	lt, err := loadtestProgram(ctx, o.loadtest)
	if err != nil {
		return err
	}
	load, err := startLoad(ctx, lt, base, o)
	if err != nil {
		return err
	}
	rep.load1 = benchutil.LoadAverage()
	indexDone := make(chan error, 1)
	if !o.skipIndexing {
		go func() {
			var err error
			rep.indexLoad, err = timeIndexing(ctx, st, loadGames, false, o.duration/time.Duration(len(loadGames)+1))
			indexDone <- err
		}()
	} else {
		indexDone <- nil
	}
	rep.loaded = ex.measure(ctx, positions, o.duration, o.qps)
	rep.load2 = benchutil.LoadAverage()
	if err := <-indexDone; err != nil {
		load.stop()
		return err
	}
	rep.loadOut, err = load.wait()
	if err != nil {
		return err
	}
	if !o.skipIndexing {
		// The games finished without the indexer join the archive, as a
		// rebuild would put them there.
		if err := indexLeftOut(ctx, st, quietGames); err != nil {
			return err
		}
	}
	rep.writeRest()
	return nil
}

// settle is the pause after writing the games to end, before the quiet
// measurements.
const settle = 5 * time.Second

// startServer serves the store on a loopback port in this process, with
// no per-client limits, and returns its URL.
func startServer(ctx context.Context, st store.Store) (string, func(), error) {
	srv, err := server.New(ctx, server.Config{Store: st, Limits: server.NoLimits,
		Logger: slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))})
	if err != nil {
		return "", nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		srv.Close(ctx)
		return "", nil, err
	}
	hs := &http.Server{Handler: srv.Handler()}
	go hs.Serve(ln)
	stop := func() {
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		hs.Shutdown(sctx)
		srv.Close(sctx)
	}
	return "http://" + ln.Addr().String(), stop, nil
}
