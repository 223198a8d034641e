package store

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
	_ "modernc.org/sqlite" // the "sqlite" database/sql driver
)

// The migrations of each dialect are its folder's and those of
// migrations/common, which both dialects write alike: one sequence of
// versions for both.
//
//go:embed migrations/sqlite/*.sql migrations/postgres/*.sql migrations/common/*.sql
var migrations embed.FS

// Open opens the database named by url and applies the migrations:
//
//	sqlite:PATH              an SQLite file (created if missing) in WAL mode
//	PATH                     the same
//	postgres://USER@HOST/DB  a PostgreSQL database (also postgresql://), in
//	                         any form pgx takes, such as
//	                         postgres://u:p@db.example:5432/magneton?sslmode=require
func Open(ctx context.Context, url string) (Store, error) {
	switch {
	case strings.HasPrefix(url, "postgres:"), strings.HasPrefix(url, "postgresql:"):
		return OpenPostgres(ctx, url)
	}
	// A URL of another scheme (mysql://, a quoted 'postgres://...') is a
	// mistake, not a file name: opening it would make an empty SQLite
	// database under a strange name and let the caller think all is well.
	// sqlite://PATH is refused too: whether its slashes belong to the
	// path is a guess.
	if scheme, _, ok := strings.Cut(url, "://"); ok {
		return nil, fmt.Errorf("open database %q: %q:// is not a database this server knows: use sqlite:PATH (no slashes after the colon), a file's path, or a postgres:// URL", url, scheme)
	}
	path := strings.TrimPrefix(url, "sqlite:")
	if path == "" {
		return nil, fmt.Errorf("open database: empty path in %q", url)
	}
	return OpenSQLite(ctx, path)
}

// OpenSQLite opens (creating if needed) an SQLite database file in WAL mode
// with a busy timeout and applies the migrations. Writes go through one
// connection, so that they queue in Go instead of in SQLite's busy loop;
// reads use a small pool of their own.
func OpenSQLite(ctx context.Context, path string) (Store, error) {
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("open database: %w", err)
		}
	}
	// synchronous=FULL in WAL mode: a commit returns once the log is on
	// the disk, so an acknowledged move survives a power cut as well as a
	// crash of the process. The committer's group commit (AddMove) shares
	// one sync among the moves that arrive together, which keeps the cost
	// (docs/benchmarks.md). Checkpoints run in the background instead of
	// in whichever commit crosses the threshold, so that copying the log
	// never holds up a move.
	dsn := "file:" + path + "?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)&_pragma=foreign_keys(1)&_pragma=wal_autocheckpoint(0)&_txlock=immediate"
	w, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxLifetime(0)
	w.SetConnMaxIdleTime(0)
	if err := migrate(ctx, w, goose.DialectSQLite3, "migrations/sqlite"); err != nil {
		w.Close()
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	r, err := sql.Open("sqlite", dsn)
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	r.SetMaxOpenConns(4)
	r.SetMaxIdleConns(4)
	r.SetConnMaxIdleTime(0)
	s := &sqlStore{w: w, r: r, bus: newBus()}
	if err := s.start(ctx); err != nil {
		s.Close()
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	go s.checkpoints(time.Second)
	return s, nil
}

// start prepares the hot statements and starts the committer (and, for
// SQLite, the checkpointer: stopped is closed by whichever background
// loop the store has besides the committer).
func (s *sqlStore) start(ctx context.Context) error {
	var err error
	if s.insertMove, err = s.w.PrepareContext(ctx, insertMoveSQL); err == nil {
		s.update, err = s.w.PrepareContext(ctx, updateGameSQL)
	}
	if err != nil {
		return err
	}
	s.stop = make(chan struct{})
	s.stopped = make(chan struct{})
	s.moves = make(chan *moveReq)
	s.committerDone = make(chan struct{})
	go s.commitMoves()
	s.startMerger()
	return nil
}

// migrate applies the embedded migrations of a dialect. On PostgreSQL an
// advisory lock keeps instances starting together from migrating at once.
func migrate(ctx context.Context, db *sql.DB, dialect goose.Dialect, dir string) error {
	own, err := fs.Sub(migrations, dir)
	if err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	common, err := fs.Sub(migrations, "migrations/common")
	if err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	sub := unionFS{own, common}
	var opts []goose.ProviderOption
	if dialect == goose.DialectPostgres {
		locker, err := lock.NewPostgresSessionLocker()
		if err != nil {
			return fmt.Errorf("migrations: %w", err)
		}
		opts = append(opts, goose.WithSessionLocker(locker))
	}
	p, err := goose.NewProvider(dialect, db, sub, opts...)
	if err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	return nil
}

// unionFS is the files of two flat folders as one folder; a name in both
// is the first's.
type unionFS [2]fs.FS

func (u unionFS) Open(name string) (fs.File, error) {
	f, err := u[0].Open(name)
	if errors.Is(err, fs.ErrNotExist) && name != "." {
		return u[1].Open(name)
	}
	return f, err
}

func (u unionFS) ReadDir(name string) ([]fs.DirEntry, error) {
	seen := map[string]bool{}
	var out []fs.DirEntry
	for _, f := range u {
		entries, err := fs.ReadDir(f, name)
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			if !seen[e.Name()] {
				seen[e.Name()] = true
				out = append(out, e)
			}
		}
	}
	slices.SortFunc(out, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return out, nil
}

// sqlStore is a Store on database/sql: w for writes, r for reads (for
// SQLite, one connection for writes and a small pool for reads; for
// PostgreSQL, both the same pool).
type sqlStore struct {
	w, r *sql.DB
	// pg is set for PostgreSQL: its notifications go through the
	// database; SQLite's stay in this process (bus).
	pg  *pgNotifier
	bus *bus
	// Prepared on w for the hot path: a move.
	insertMove, update *sql.Stmt
	// The background checkpointer and committer: stop is closed to stop
	// them, stopped and committerDone when they have.
	stop, stopped, committerDone chan struct{}
	closeOnce                    sync.Once
	moves                        chan *moveReq
	// indexer archives the games as they end (SetArchiveIndexer);
	// onIndexError hears of those it could not.
	indexMu      sync.RWMutex
	indexer      ArchiveIndexer
	onIndexError func(gameID string, err error)
	// merger moves the archive's recent rows into its big tables
	// (archive_merge.go).
	merger mergerState
}

// restartFrames is the length of the write-ahead log (in pages) past which
// a checkpoint also starts the log over, briefly holding up writers.
const restartFrames = 4096

// restartTail is the most pages a restart may have left to copy.
const restartTail = 512

// checkpoint copies the log into the database without blocking writers;
// when the log has grown long, it then starts it over on the write
// connection (writers wait for that part only, which has little left to
// copy).
func (s *sqlStore) checkpoint() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var busy, frames, done int
	if err := s.r.QueryRowContext(ctx, `PRAGMA wal_checkpoint(PASSIVE)`).Scan(&busy, &frames, &done); err != nil {
		return // retried next time
	}
	// Start the log over only when the passive pass left little to copy,
	// so that writers wait for a short tail and one sync, never for the
	// whole log.
	if frames > restartFrames && frames-done < restartTail {
		s.w.ExecContext(ctx, `PRAGMA wal_checkpoint(RESTART)`)
	}
}

// checkpoints copies the write-ahead log into the database file every
// period, without blocking writers (PASSIVE), on a reading connection.
func (s *sqlStore) checkpoints(period time.Duration) {
	defer close(s.stopped)
	t := time.NewTicker(period)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-t.C:
			s.checkpoint()
		}
	}
}

const gameColumns = `id, game, rules, start, opponent, level, player0, player1, seat0, seat1, invite, public,
	status, result, reason, nmoves, position, clock_initial, clock_increment, remaining0, remaining1, clock_at,
	draw_offer, rematch_by, rematch_game, rematch_of, created, updated, user0, user1, guest0, guest1,
	rated, family, rating0, rating1, diff0, diff1, min_rating, max_rating, per_move, takeback_by, needs_owner, computer_place, tournament_id, bots, source, ended`

// botBits is the column bots: bit i set for a bot in seat i.
func botBits(b [2]bool) int { return boolInt(b[0]) | boolInt(b[1])<<1 }

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (s *sqlStore) CreateGame(ctx context.Context, g *Game) error {
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		if err := insertGame(ctx, tx, g); err != nil {
			return err
		}
		return takeLease(ctx, tx, g)
	})
	if err != nil {
		return fmt.Errorf("create game %s: %w", g.ID, err)
	}
	return nil
}

type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// stmtExecer runs a prepared statement as an execer (the query is the one
// it was prepared with).
type stmtExecer struct{ st *sql.Stmt }

func (e stmtExecer) ExecContext(ctx context.Context, _ string, args ...any) (sql.Result, error) {
	return e.st.ExecContext(ctx, args...)
}

func insertGame(ctx context.Context, db execer, g *Game) error {
	_, err := db.ExecContext(ctx, `INSERT INTO games (`+gameColumns+`) VALUES
		($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28,
		$29, $30, $31, $32, $33, $34, $35, $36, $37, $38, $39, $40, $41, $42, $43, $44, $45, $46, $47, $48)`,
		g.ID, g.Game, g.Rules, g.Start, g.Opponent, g.Level, g.Players[0], g.Players[1], g.Seats[0], g.Seats[1], g.Invite, boolInt(g.Public),
		g.Status, g.Result, g.Reason, g.Moves, g.Position, g.ClockInitial.Milliseconds(), g.ClockIncrement.Milliseconds(),
		g.Remaining[0].Milliseconds(), g.Remaining[1].Milliseconds(), g.ClockAt,
		g.DrawOffer, g.RematchBy, g.RematchGame, g.RematchOf, g.Created, g.Updated, g.Users[0], g.Users[1], g.Guests[0], g.Guests[1],
		boolInt(g.Rated), g.Family, g.Ratings[0], g.Ratings[1], g.Diffs[0], g.Diffs[1], g.MinRating, g.MaxRating, boolInt(g.PerMove), g.TakebackBy, boolInt(g.NeedsOwner), g.ComputerPlace, g.Tournament, botBits(g.Bots), g.Source, g.Ended)
	return err
}

// updateGameSQL writes a game's row. A seat given to an account stays the
// account's (and keeps its name): a server that still holds the row from
// before a guest signed up (ClaimGuestGames) must not give it back.
//
// A deleted account's seat (DeleteUser) stays deleted the same way: no
// account, guest or seat token, and the name DeletedPlayer.
const updateGameSQL = `UPDATE games SET
	player0 = CASE WHEN player0 = '` + DeletedPlayer + `' OR (user0 <> '' AND $19 = '') THEN player0 ELSE $2 END,
	player1 = CASE WHEN player1 = '` + DeletedPlayer + `' OR (user1 <> '' AND $20 = '') THEN player1 ELSE $3 END,
	seat0 = CASE WHEN player0 = '` + DeletedPlayer + `' THEN '' ELSE $4 END,
	seat1 = CASE WHEN player1 = '` + DeletedPlayer + `' THEN '' ELSE $5 END,
	invite = $6,
	status = $7, result = $8, reason = $9, nmoves = $10, position = $11, remaining0 = $12, remaining1 = $13, clock_at = $14,
	draw_offer = $15, rematch_by = $16, rematch_game = $17, updated = $18,
	user0 = CASE WHEN player0 = '` + DeletedPlayer + `' THEN '' WHEN user0 <> '' THEN user0 ELSE $19 END,
	user1 = CASE WHEN player1 = '` + DeletedPlayer + `' THEN '' WHEN user1 <> '' THEN user1 ELSE $20 END,
	guest0 = CASE WHEN player0 = '` + DeletedPlayer + `' OR user0 <> '' THEN '' ELSE $21 END,
	guest1 = CASE WHEN player1 = '` + DeletedPlayer + `' OR user1 <> '' THEN '' ELSE $22 END,
	rating0 = $23, rating1 = $24, takeback_by = $25, needs_owner = $26, computer_place = $27, bots = $28,
	ended = CASE WHEN ended = 0 AND $7 = '` + Finished + `' THEN $18 ELSE ended END
	WHERE id = $1`

const insertMoveSQL = `INSERT INTO moves (game_id, ply, move, played_at, clock) VALUES ($1, $2, $3, $4, $5)`

func updateGame(ctx context.Context, db execer, g *Game) error {
	res, err := db.ExecContext(ctx, updateGameSQL,
		g.ID, g.Players[0], g.Players[1], g.Seats[0], g.Seats[1], g.Invite,
		g.Status, g.Result, g.Reason, g.Moves, g.Position, g.Remaining[0].Milliseconds(), g.Remaining[1].Milliseconds(), g.ClockAt,
		g.DrawOffer, g.RematchBy, g.RematchGame, g.Updated, g.Users[0], g.Users[1], g.Guests[0], g.Guests[1], g.Ratings[0], g.Ratings[1], g.TakebackBy, boolInt(g.NeedsOwner), g.ComputerPlace, botBits(g.Bots))
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return ErrNotFound
	}
	return nil
}

func (s *sqlStore) UpdateGame(ctx context.Context, g *Game) error {
	var err error
	if g.Owner == "" && (g.Status != Finished || s.archiveIndexer() == nil) {
		err = updateGame(ctx, stmtExecer{s.update}, g)
	} else {
		// A finished game is archived in the transaction that writes
		// its end (archiveInTx: once, whichever write comes first).
		err = s.inTx(ctx, func(tx *sql.Tx) error {
			if g.Owner != "" {
				if err := checkLease(ctx, tx, g); err != nil {
					return err
				}
			}
			if err := updateGame(ctx, stmtExecer{tx.StmtContext(ctx, s.update)}, g); err != nil {
				return err
			}
			return s.archiveInTx(ctx, tx, g)
		})
	}
	if err != nil {
		return fmt.Errorf("update game %s: %w", g.ID, err)
	}
	return nil
}

// inTx runs f in a write transaction.
func (s *sqlStore) inTx(ctx context.Context, f func(tx *sql.Tx) error) error {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := f(tx); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

func (s *sqlStore) CreateRematch(ctx context.Context, old, next *Game) error {
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		if err := checkLease(ctx, tx, old); err != nil {
			return err
		}
		if err := insertGame(ctx, tx, next); err != nil {
			return err
		}
		if err := takeLease(ctx, tx, next); err != nil {
			return err
		}
		return updateGame(ctx, tx, old)
	})
	if err != nil {
		return fmt.Errorf("create rematch %s of %s: %w", next.ID, old.ID, err)
	}
	return nil
}

// AddMove queues the move for the committer, which writes the moves of
// every game that arrive together in one transaction (group commit), and
// waits until that transaction has committed.
func (s *sqlStore) AddMove(ctx context.Context, g *Game, m Move) error {
	req := &moveReq{ctx: ctx, g: *g, m: m, done: make(chan error, 1)}
	select {
	case s.moves <- req:
	case <-ctx.Done():
		return fmt.Errorf("add move %d %s to game %s: %w", m.Ply+1, m.Move, g.ID, ctx.Err())
	case <-s.stop:
		return fmt.Errorf("add move %d %s to game %s: the store is closed", m.Ply+1, m.Move, g.ID)
	}
	// The committer always answers, even after ctx ends: the caller must
	// know whether the move was written.
	if err := <-req.done; err != nil {
		return fmt.Errorf("add move %d %s to game %s: %w", m.Ply+1, m.Move, g.ID, err)
	}
	return nil
}

// moveReq is one move waiting for the committer.
type moveReq struct {
	ctx  context.Context
	g    Game
	m    Move
	done chan error
}

// maxBatch bounds the moves written in one transaction.
const maxBatch = 256

// commitMoves is the committer: it takes the waiting moves, writes each
// under a savepoint of one transaction (so that a bad one fails alone),
// commits, and answers every caller.
func (s *sqlStore) commitMoves() {
	defer close(s.committerDone)
	batch := make([]*moveReq, 0, maxBatch)
	for {
		batch = batch[:0]
		select {
		case req := <-s.moves:
			batch = append(batch, req)
		case <-s.stop:
			return
		}
	more:
		for len(batch) < maxBatch {
			select {
			case req := <-s.moves:
				batch = append(batch, req)
			default:
				break more
			}
		}
		s.writeBatch(batch)
	}
}

func (s *sqlStore) writeBatch(batch []*moveReq) {
	errs := make([]error, len(batch))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		ins, upd := tx.StmtContext(ctx, s.insertMove), stmtExecer{tx.StmtContext(ctx, s.update)}
		for i, r := range batch {
			if err := r.ctx.Err(); err != nil {
				errs[i] = err
				continue
			}
			if _, err := tx.ExecContext(ctx, `SAVEPOINT move`); err != nil {
				return err
			}
			err := checkLease(ctx, tx, &r.g)
			if err == nil {
				_, err = ins.ExecContext(ctx, r.g.ID, r.m.Ply, r.m.Move, r.m.PlayedAt, r.m.Clock.Milliseconds())
			}
			if err == nil {
				err = updateGame(ctx, upd, &r.g)
			}
			if err == nil {
				err = s.archiveInTx(ctx, tx, &r.g)
			}
			if err != nil {
				errs[i] = err
				if _, err := tx.ExecContext(ctx, `ROLLBACK TO SAVEPOINT move`); err != nil {
					return err
				}
			}
			if _, err := tx.ExecContext(ctx, `RELEASE SAVEPOINT move`); err != nil {
				return err
			}
		}
		return nil
	})
	for i, r := range batch {
		if err != nil && errs[i] == nil {
			errs[i] = err
		}
		r.done <- errs[i]
	}
}

type scanner interface {
	Scan(dest ...any) error
}

func scanGame(row scanner) (*Game, error) {
	var (
		g                        Game
		public                   int
		ci, cinc, r0, r1         int64
		player0, player1, s0, s1 string
		u0, u1, gu0, gu1         string
		rated, perMove, needs    int
		bots                     int
	)
	err := row.Scan(&g.ID, &g.Game, &g.Rules, &g.Start, &g.Opponent, &g.Level, &player0, &player1, &s0, &s1, &g.Invite, &public,
		&g.Status, &g.Result, &g.Reason, &g.Moves, &g.Position, &ci, &cinc, &r0, &r1, &g.ClockAt,
		&g.DrawOffer, &g.RematchBy, &g.RematchGame, &g.RematchOf, &g.Created, &g.Updated, &u0, &u1, &gu0, &gu1,
		&rated, &g.Family, &g.Ratings[0], &g.Ratings[1], &g.Diffs[0], &g.Diffs[1], &g.MinRating, &g.MaxRating, &perMove, &g.TakebackBy, &needs, &g.ComputerPlace, &g.Tournament, &bots, &g.Source, &g.Ended)
	if err != nil {
		return nil, err
	}
	g.Bots = [2]bool{bots&1 != 0, bots&2 != 0}
	g.Rated, g.PerMove, g.NeedsOwner = rated != 0, perMove != 0, needs != 0
	g.Users, g.Guests = [2]string{u0, u1}, [2]string{gu0, gu1}
	g.Players = [2]string{player0, player1}
	g.Seats = [2]string{s0, s1}
	g.Public = public != 0
	g.ClockInitial = time.Duration(ci) * time.Millisecond
	g.ClockIncrement = time.Duration(cinc) * time.Millisecond
	g.Remaining = [2]time.Duration{time.Duration(r0) * time.Millisecond, time.Duration(r1) * time.Millisecond}
	return &g, nil
}

func (s *sqlStore) Game(ctx context.Context, id string) (*Game, error) {
	g, err := scanGame(s.r.QueryRowContext(ctx, `SELECT `+gameColumns+` FROM games WHERE id = $1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("read game %s: %w", id, err)
	}
	return g, nil
}

func (s *sqlStore) Moves(ctx context.Context, id string) ([]Move, error) {
	moves, err := collect[Move](s.r.QueryContext(ctx, `SELECT ply, move, played_at, clock FROM moves WHERE game_id = $1 ORDER BY ply`, id))(func(rows *sql.Rows) (Move, error) {
		var m Move
		var clock int64
		err := rows.Scan(&m.Ply, &m.Move, &m.PlayedAt, &clock)
		m.Clock = time.Duration(clock) * time.Millisecond
		return m, err
	})
	if err != nil {
		return nil, fmt.Errorf("read moves of %s: %w", id, err)
	}
	return moves, nil
}

func (s *sqlStore) queryGames(ctx context.Context, query string, args ...any) ([]*Game, error) {
	return collect[*Game](s.r.QueryContext(ctx, query, args...))(func(rows *sql.Rows) (*Game, error) { return scanGame(rows) })
}

// collect reads every row of a query's answer with scan: called as
// collect(db.QueryContext(...))(scan).
func collect[T any](rows *sql.Rows, err error) func(scan func(*sql.Rows) (T, error)) ([]T, error) {
	return func(scan func(*sql.Rows) (T, error)) ([]T, error) {
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		var out []T
		for rows.Next() {
			v, err := scan(rows)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, rows.Err()
	}
}

func (s *sqlStore) List(ctx context.Context, q Query) ([]*Game, error) {
	limit := q.Limit
	if limit <= 0 {
		limit = 50
	}
	// Keyset paging on (updated, id), newest first.
	var (
		updated int64 = 1<<63 - 1
		id            = "\uffff"
	)
	if q.Before != "" {
		g, err := s.Game(ctx, q.Before)
		if err != nil {
			return nil, fmt.Errorf("list games before %s: %w", q.Before, err)
		}
		updated, id = g.Updated, g.ID
	}
	// The status is written into the query, not passed, so that SQLite
	// can use the partial indexes.
	var status string
	switch q.Status {
	case Waiting, Playing, Finished, Aborted:
		status = q.Status
	default:
		return nil, fmt.Errorf("list games: unknown status %q", q.Status)
	}
	games, err := s.queryGames(ctx, `SELECT `+gameColumns+` FROM games
		WHERE status = '`+status+`' AND source = '' AND ($1 = 0 OR public = 1) AND (updated < $2 OR (updated = $2 AND id < $3))
		ORDER BY updated DESC, id DESC LIMIT $4`, boolInt(q.PublicOnly), updated, id, limit)
	if err != nil {
		return nil, fmt.Errorf("list %s games: %w", q.Status, err)
	}
	return games, nil
}

func (s *sqlStore) Unfinished(ctx context.Context) ([]*Game, error) {
	games, err := s.queryGames(ctx, `SELECT `+gameColumns+` FROM games WHERE status = 'waiting' OR status = 'playing' ORDER BY created`)
	if err != nil {
		return nil, fmt.Errorf("list unfinished games: %w", err)
	}
	return games, nil
}

func (s *sqlStore) Beat(ctx context.Context, instance string, at int64) error {
	_, err := s.w.ExecContext(ctx, `INSERT INTO heartbeats (instance, at) VALUES ($1, $2)
		ON CONFLICT (instance) DO UPDATE SET at = excluded.at`, instance, at)
	if err != nil {
		return fmt.Errorf("heartbeat of %s: %w", instance, err)
	}
	return nil
}

func (s *sqlStore) LastBeat(ctx context.Context, instance string) (int64, error) {
	var at int64
	err := s.r.QueryRowContext(ctx, `SELECT at FROM heartbeats WHERE instance = $1`, instance).Scan(&at)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("heartbeat of %s: %w", instance, err)
	}
	return at, nil
}

func (s *sqlStore) Ping(ctx context.Context) error {
	var one int
	if err := s.r.QueryRowContext(ctx, `SELECT 1`).Scan(&one); err != nil {
		return fmt.Errorf("ping database: %w", err)
	}
	return nil
}

func (s *sqlStore) Close() error {
	if s.stop != nil {
		s.closeOnce.Do(func() { close(s.stop) })
		<-s.stopped
		<-s.committerDone
		<-s.merger.done
		if s.pg == nil {
			// Leave a small file behind: everything in the database proper.
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			s.w.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`)
			cancel()
		}
	}
	if s.pg != nil {
		s.pg.close()
	}
	for _, st := range []*sql.Stmt{s.insertMove, s.update} {
		if st != nil {
			st.Close()
		}
	}
	var err1 error
	if s.r != s.w {
		err1 = s.r.Close()
	}
	err2 := s.w.Close()
	if err := errors.Join(err1, err2); err != nil {
		return fmt.Errorf("close database: %w", err)
	}
	return nil
}
