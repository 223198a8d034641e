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
// commit. A write without an Owner is not checked.
func checkLease(ctx context.Context, tx *sql.Tx, g *Game) error {
	if g.Owner == "" {
		return nil
	}
	res, err := tx.ExecContext(ctx, `UPDATE leases SET expires = expires WHERE game_id = $1 AND owner = $2`, g.ID, g.Owner)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return ErrNotOwner
	}
	return err
}

// takeLease, in the transaction that creates g, gives its writer the lease
// until g.LeaseUntil.
func takeLease(ctx context.Context, tx *sql.Tx, g *Game) error {
	if g.Owner == "" {
		return nil
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO leases (game_id, owner, expires) VALUES ($1, $2, $3)`, g.ID, g.Owner, g.LeaseUntil)
	return err
}

func (s *sqlStore) AcquireLease(ctx context.Context, game, instance string, now, until int64) (string, string, error) {
	var owner, previous string
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `SELECT owner FROM leases WHERE game_id = $1`, game).Scan(&previous)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO leases (game_id, owner, expires) VALUES ($1, $2, $3)
			ON CONFLICT (game_id) DO UPDATE SET owner = excluded.owner, expires = excluded.expires
			WHERE leases.owner = excluded.owner OR leases.expires < $4`, game, instance, until, now); err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, `SELECT owner FROM leases WHERE game_id = $1`, game).Scan(&owner)
	})
	if err != nil {
		return "", "", fmt.Errorf("lease of game %s for %s: %w", game, instance, err)
	}
	return owner, previous, nil
}

func (s *sqlStore) RenewLeases(ctx context.Context, instance string, until int64) ([]string, error) {
	if _, err := s.w.ExecContext(ctx, `UPDATE leases SET expires = $2 WHERE owner = $1`, instance, until); err != nil {
		return nil, fmt.Errorf("renew the leases of %s: %w", instance, err)
	}
	rows, err := s.w.QueryContext(ctx, `SELECT game_id FROM leases WHERE owner = $1`, instance)
	if err != nil {
		return nil, fmt.Errorf("renew the leases of %s: %w", instance, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("renew the leases of %s: %w", instance, err)
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

func (s *sqlStore) LeaseOwner(ctx context.Context, game string) (string, int64, error) {
	var owner string
	var expires int64
	err := s.r.QueryRowContext(ctx, `SELECT owner, expires FROM leases WHERE game_id = $1`, game).Scan(&owner, &expires)
	if errors.Is(err, sql.ErrNoRows) {
		return "", 0, nil
	}
	if err != nil {
		return "", 0, fmt.Errorf("lease of game %s: %w", game, err)
	}
	return owner, expires, nil
}

func (s *sqlStore) ReleaseLease(ctx context.Context, game, instance string) error {
	if _, err := s.w.ExecContext(ctx, `DELETE FROM leases WHERE game_id = $1 AND owner = $2`, game, instance); err != nil {
		return fmt.Errorf("release the lease of game %s: %w", game, err)
	}
	return nil
}

func (s *sqlStore) Orphans(ctx context.Context, now int64) ([]string, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT g.id FROM games g LEFT JOIN leases l ON l.game_id = g.id
		WHERE g.status = 'playing' AND (g.clock_initial > 0 OR g.opponent = 'computer')
		AND (l.game_id IS NULL OR l.expires < $1) ORDER BY g.updated`, now)
	if err != nil {
		return nil, fmt.Errorf("list the games without an instance: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("list the games without an instance: %w", err)
		}
		out = append(out, id)
	}
	return out, rows.Err()
}
