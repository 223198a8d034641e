package store

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"sync"
	"time"
)

// The archive's merger. A game's end writes its archive rows into two
// small tables (archive_recent and archive_recent_moves, writeRecent) in
// the transaction of its result, and the merger turns them into the big
// tables' counts a moment later, mergeChunk games a transaction. Both
// steps are transactions, so a crash at any point loses nothing and
// counts nothing twice; the explorer, the repertoires and the search read
// the big tables and the recent ones together, so a game counts as soon
// as its result is written.
//
// Why: a game's ~200 rows in the big tables are keyed by position, and so
// land on ~200 pages of tables of a gigabyte; writing those pages was 95%
// of the time of a game's end (docs/benchmarks.md, "Game archive and
// opening explorer"). The recent tables take about 60 narrow rows a game
// on a few pages.

const (
	// mergeDelay is how long the merger waits after a game's end before it
	// merges: the games that end meanwhile go in the same transactions.
	mergeDelay = 100 * time.Millisecond
	// mergeEvery is how often the merger looks for rows without being
	// told (those another instance or process left, say after a crash).
	mergeEvery = 30 * time.Second
	// mergeChunk is the most games a merge transaction moves: on SQLite it
	// holds the only writer, and moves and results wait for it (12 to
	// 17 ms a game on a database of 100,000 games, docs/benchmarks.md).
	mergeChunk = 2
	// mergeLockKey is the PostgreSQL advisory lock that keeps two
	// instances' mergers from moving the same rows at once.
	mergeLockKey = 0x6d65_7267_6572 // "merger" in ASCII: any fixed number
)

// ArchiveMergeStats are the merger's totals since the store opened.
type ArchiveMergeStats struct {
	Merges int64         // transactions that moved at least one game
	Games  int64         // games moved into the big tables
	Time   time.Duration // the time those transactions took
}

// mergerState is the merger's channel and totals.
type mergerState struct {
	kick chan struct{} // a token: games to merge
	done chan struct{} // closed when the merger has stopped
	mu   sync.Mutex
	tot  ArchiveMergeStats
}

// kickMerger tells the merger that a game's rows are waiting.
func (s *sqlStore) kickMerger() {
	select {
	case s.merger.kick <- struct{}{}:
	default:
	}
}

// startMerger starts the merger, which first merges what an earlier run
// left.
func (s *sqlStore) startMerger() {
	s.merger.kick = make(chan struct{}, 1)
	s.merger.done = make(chan struct{})
	s.merger.kick <- struct{}{}
	go s.mergeLoop()
}

func (s *sqlStore) mergeLoop() {
	defer close(s.merger.done)
	t := time.NewTicker(mergeEvery)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-s.merger.kick:
		case <-t.C:
		}
		select {
		case <-s.stop:
			return
		case <-time.After(mergeDelay):
		}
		for {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			n, err := s.mergeChunk(ctx, false)
			cancel()
			if err != nil {
				// Tried again at the next game's end or tick; the rows
				// count meanwhile, read from the recent tables.
				slog.Warn("archive merge", "err", err)
				break
			}
			if n < mergeChunk {
				break
			}
			select {
			case <-s.stop:
				return
			default:
			}
		}
	}
}

// MergeArchive moves every game's rows waiting in the recent tables into
// the big ones and returns how many games it moved.
func (s *sqlStore) MergeArchive(ctx context.Context) (int, error) {
	total := 0
	for {
		n, err := s.mergeChunk(ctx, true)
		total += n
		if err != nil {
			return total, err
		}
		if n == 0 {
			return total, nil
		}
	}
}

func (s *sqlStore) ArchiveMergeStats() ArchiveMergeStats {
	s.merger.mu.Lock()
	defer s.merger.mu.Unlock()
	return s.merger.tot
}

// mergeChunk moves up to mergeChunk games' recent rows into the big
// tables, in one transaction, and returns how many games it moved. On
// PostgreSQL, one instance merges at a time: without wait, it moves
// nothing when another one is merging.
func (s *sqlStore) mergeChunk(ctx context.Context, wait bool) (int, error) {
	start := time.Now()
	var ids []string
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		ids = nil
		if s.pg != nil && wait {
			if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock($1)`, mergeLockKey); err != nil {
				return err
			}
		} else if s.pg != nil {
			var got bool
			if err := tx.QueryRowContext(ctx, `SELECT pg_try_advisory_xact_lock($1)`, mergeLockKey).Scan(&got); err != nil || !got {
				return err
			}
		}
		var err error
		ids, err = collect[string](tx.QueryContext(ctx, `SELECT game_id FROM archive_recent ORDER BY game_id LIMIT $1`, mergeChunk))(
			func(rows *sql.Rows) (string, error) {
				var id string
				return id, rows.Scan(&id)
			})
		if err != nil || len(ids) == 0 {
			return err
		}
		var args []any
		in := placeholders(&args, ids)
		// A game's recent rows are all written by the transaction of its
		// end, with its row in archive_recent: the rows of the games
		// listed are all there, and no other writer adds to them, so the
		// copies and the deletes below count each once. The
		// rows are added in key order, so that two transactions adding to
		// the same rows (an import) take them in one order.
		for _, q := range []string{
			`INSERT INTO archive_moves (pos, move, source, rated, speed, band, games, wins, draws, losses, rating_sum, rating_n, last_played)
				SELECT m.pos, m.move, r.source, r.rated, r.speed, r.band, COUNT(*), ` + moverResultSums + `, SUM(r.rating), SUM(r.rating_n), MAX(r.ended)
				FROM ` + recentJoin + ` WHERE m.game_id IN (` + in + `) AND m.move <> ''
				GROUP BY m.pos, m.move, r.source, r.rated, r.speed, r.band ORDER BY 1, 2, 3, 4, 5, 6` + addMoveCounts,
			`INSERT INTO archive_player_moves (user_id, pos, move, mine, games, wins, draws, losses, last_played)
				SELECT CASE WHEN s.seat = 0 THEN r.user0 ELSE r.user1 END, m.pos, m.move, CASE WHEN m.seat = s.seat THEN 1 ELSE 0 END,
					COUNT(*), ` + accountResultSums + `, MAX(r.ended)
				FROM ` + recentJoin + seatsOfAccounts + ` WHERE m.game_id IN (` + in + `) AND m.move <> ''
				GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4` + addPlayerMoveCounts,
			`INSERT INTO archive_positions (pos, ended, game_id, ply)
				SELECT m.pos, r.ended, m.game_id, MIN(m.ply) FROM ` + recentJoin + ` WHERE m.game_id IN (` + in + `)
				GROUP BY m.pos, r.ended, m.game_id ORDER BY 1, 2, 3 ON CONFLICT (pos, ended, game_id) DO NOTHING`,
			`DELETE FROM archive_recent_moves WHERE game_id IN (` + in + `)`,
			`DELETE FROM archive_recent WHERE game_id IN (` + in + `)`,
		} {
			if _, err := tx.ExecContext(ctx, q, args...); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("merge the archive's recent rows: %w", err)
	}
	if len(ids) > 0 {
		s.merger.mu.Lock()
		s.merger.tot.Merges++
		s.merger.tot.Games += int64(len(ids))
		s.merger.tot.Time += time.Since(start)
		s.merger.mu.Unlock()
	}
	return len(ids), nil
}
