package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// checkLease, in a write transaction, makes sure the writer of g holds
// its lease. The statement writes the lease's row without changing it:
// on PostgreSQL that locks the row until the transaction ends, so no
// other instance can take the lease over between the check and the
// commit. (The row changes only when the game changes hands; renewing a
// lease is the holder's heartbeat, elsewhere, so this lock is never
// waited for in the usual run.) A write without an Owner is not checked.
func checkLease(ctx context.Context, tx *sql.Tx, g *Game) error {
	if g.Owner == "" {
		return nil
	}
	res, err := tx.ExecContext(ctx, `UPDATE leases SET owner = owner WHERE game_id = $1 AND owner = $2`, g.ID, g.Owner)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return ErrNotOwner
	}
	return err
}

// takeLease, in the transaction that creates g, gives its writer the lease.
func takeLease(ctx context.Context, tx *sql.Tx, g *Game) error {
	if g.Owner == "" {
		return nil
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO leases (game_id, owner) VALUES ($1, $2)`, g.ID, g.Owner)
	return err
}

// alive is the condition that the holder of leases l is alive at $3
// (its heartbeat not before it).
const alive = `EXISTS (SELECT 1 FROM heartbeats h WHERE h.instance = leases.owner AND h.at >= $3)`

func (s *sqlStore) AcquireLease(ctx context.Context, game, instance string, deadBefore int64) (string, string, error) {
	// Mirrors ask every second, and nearly always find the game held by a
	// live instance: a read answers that. The write below would lock the
	// lease's row even when it changes nothing, and so wait for (and hold
	// up) the owner's commits of moves, and flush the log each time.
	holder, beat, err := s.LeaseOwner(ctx, game)
	if err != nil {
		return "", "", fmt.Errorf("lease of game %s for %s: %w", game, instance, err)
	}
	if holder != "" && holder != instance && beat >= deadBefore {
		return holder, holder, nil
	}
	var owner, previous string
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `SELECT owner FROM leases WHERE game_id = $1`, game).Scan(&previous)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO leases (game_id, owner) VALUES ($1, $2)
			ON CONFLICT (game_id) DO UPDATE SET owner = excluded.owner
			WHERE leases.owner <> excluded.owner AND NOT `+alive, game, instance, deadBefore); err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, `SELECT owner FROM leases WHERE game_id = $1`, game).Scan(&owner)
	})
	if err != nil {
		return "", "", fmt.Errorf("lease of game %s for %s: %w", game, instance, err)
	}
	return owner, previous, nil
}

func (s *sqlStore) HeldLeases(ctx context.Context, instance string) ([]string, error) {
	ids, err := s.ids(ctx, `SELECT game_id FROM leases WHERE owner = $1`, instance)
	if err != nil {
		return nil, fmt.Errorf("the leases of %s: %w", instance, err)
	}
	return ids, nil
}

func (s *sqlStore) LeaseOwner(ctx context.Context, game string) (string, int64, error) {
	var owner string
	var beat sql.NullInt64
	err := s.r.QueryRowContext(ctx, `SELECT l.owner, h.at FROM leases l LEFT JOIN heartbeats h ON h.instance = l.owner
		WHERE l.game_id = $1`, game).Scan(&owner, &beat)
	if errors.Is(err, sql.ErrNoRows) {
		return "", 0, nil
	}
	if err != nil {
		return "", 0, fmt.Errorf("lease of game %s: %w", game, err)
	}
	return owner, beat.Int64, nil
}

func (s *sqlStore) ReleaseLease(ctx context.Context, game, instance string) error {
	if _, err := s.w.ExecContext(ctx, `DELETE FROM leases WHERE game_id = $1 AND owner = $2`, game, instance); err != nil {
		return fmt.Errorf("release the lease of game %s: %w", game, err)
	}
	return nil
}

func (s *sqlStore) Orphans(ctx context.Context, deadBefore int64) ([]string, error) {
	ids, err := s.ownerless(ctx, `AND g.needs_owner = 1`, deadBefore)
	if err != nil {
		return nil, fmt.Errorf("list the games without an instance: %w", err)
	}
	return ids, nil
}

func (s *sqlStore) Ownerless(ctx context.Context, deadBefore int64) ([]string, error) {
	ids, err := s.ownerless(ctx, "", deadBefore)
	if err != nil {
		return nil, fmt.Errorf("list the games without a living owner: %w", err)
	}
	return ids, nil
}

// ownerless lists the games being played (and meeting the condition and,
// a fixed SQL fragment) whose lease is missing or whose holder's last beat
// came before deadBefore.
func (s *sqlStore) ownerless(ctx context.Context, and string, deadBefore int64) ([]string, error) {
	return s.ids(ctx, `SELECT g.id FROM games g LEFT JOIN leases l ON l.game_id = g.id
		LEFT JOIN heartbeats h ON h.instance = l.owner
		WHERE g.status = 'playing' `+and+`
		AND (l.game_id IS NULL OR h.at IS NULL OR h.at < $1) ORDER BY g.updated`, deadBefore)
}

// ids runs a query of one text column.
func (s *sqlStore) ids(ctx context.Context, query string, args ...any) ([]string, error) {
	return collect[string](s.r.QueryContext(ctx, query, args...))(func(rows *sql.Rows) (string, error) {
		var id string
		err := rows.Scan(&id)
		return id, err
	})
}
