package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Review statuses.
const (
	ReviewRunning = "running" // being computed (or waiting for its turn)
	ReviewDone    = "done"
)

// Review is the engine's review of a finished game: Done of Total
// positions evaluated so far, Data the evaluations as the server writes
// them (JSON).
type Review struct {
	Game     string
	Status   string // ReviewRunning or ReviewDone
	Done     int
	Total    int
	Instance string // the server instance computing it
	Updated  int64  // ms since the epoch
	Data     string
}

// ErrNoReview is returned when a game has no review.
var ErrNoReview = errors.New("no review of this game")

// StartReview records that instance starts r, unless the game has a
// review already that is done or still being computed by an instance
// that wrote it after staleBefore (ms since the epoch). It returns the
// review as it is after the attempt and whether r's instance now
// computes it (taking over a stale one keeps its evaluations so far).
func (s *sqlStore) StartReview(ctx context.Context, r *Review, staleBefore int64) (*Review, bool, error) {
	res, err := s.w.ExecContext(ctx, `INSERT INTO reviews (game_id, status, done, total, instance, updated, data)
		VALUES ($1, $2, $3, $4, $5, $6, $7)
		ON CONFLICT (game_id) DO UPDATE SET instance = excluded.instance, updated = excluded.updated
		WHERE reviews.status = 'running' AND reviews.updated < $8`,
		r.Game, r.Status, r.Done, r.Total, r.Instance, r.Updated, r.Data, staleBefore)
	if err != nil {
		return nil, false, fmt.Errorf("start the review of %s: %w", r.Game, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return nil, false, fmt.Errorf("start the review of %s: %w", r.Game, err)
	}
	got, err := s.Review(ctx, r.Game)
	if err != nil {
		return nil, false, err
	}
	return got, n > 0 && got.Instance == r.Instance, nil
}

// SaveReview writes a review's progress, as long as instance r.Instance
// still computes it.
func (s *sqlStore) SaveReview(ctx context.Context, r *Review) error {
	res, err := s.w.ExecContext(ctx, `UPDATE reviews SET status = $2, done = $3, total = $4, updated = $5, data = $6
		WHERE game_id = $1 AND instance = $7`, r.Game, r.Status, r.Done, r.Total, r.Updated, r.Data, r.Instance)
	if err != nil {
		return fmt.Errorf("save the review of %s: %w", r.Game, err)
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return fmt.Errorf("save the review of %s: %w", r.Game, ErrNotOwner)
	}
	return nil
}

// Review returns a game's review, or ErrNoReview.
func (s *sqlStore) Review(ctx context.Context, gameID string) (*Review, error) {
	r := &Review{Game: gameID}
	err := s.r.QueryRowContext(ctx, `SELECT status, done, total, instance, updated, data FROM reviews WHERE game_id = $1`, gameID).
		Scan(&r.Status, &r.Done, &r.Total, &r.Instance, &r.Updated, &r.Data)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNoReview
	}
	if err != nil {
		return nil, fmt.Errorf("read the review of %s: %w", gameID, err)
	}
	return r, nil
}
