package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
)

// LearnProgress returns the lessons an account has solved, by game.
func (s *sqlStore) LearnProgress(ctx context.Context, userID string) (map[string][]string, error) {
	type row struct {
		game   string
		solved []string
	}
	rows, err := collect[row](s.r.QueryContext(ctx, `SELECT game, solved FROM learn_progress WHERE user_id = $1`, userID))(func(rows *sql.Rows) (row, error) {
		var r row
		var text string
		if err := rows.Scan(&r.game, &text); err != nil {
			return r, err
		}
		return r, json.Unmarshal([]byte(text), &r.solved)
	})
	if err != nil {
		return nil, fmt.Errorf("read the lessons of %s: %w", userID, err)
	}
	out := map[string][]string{}
	for _, r := range rows {
		// A row made for stars alone has no lesson solved.
		if len(r.solved) > 0 {
			out[r.game] = r.solved
		}
	}
	return out, nil
}

// AddLearnProgress adds lessons to those an account has solved in a
// game and returns them all, sorted.
func (s *sqlStore) AddLearnProgress(ctx context.Context, userID, game string, solved []string, at int64) ([]string, error) {
	var all []string
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		if err := readLearnColumn(ctx, tx, "solved", userID, game, &all); err != nil {
			return err
		}
		for _, id := range solved {
			if !slices.Contains(all, id) {
				all = append(all, id)
			}
		}
		slices.Sort(all)
		b, _ := json.Marshal(all)
		_, err := tx.ExecContext(ctx, `INSERT INTO learn_progress (user_id, game, solved, updated) VALUES ($1, $2, $3, $4)
			ON CONFLICT (user_id, game) DO UPDATE SET solved = excluded.solved, updated = excluded.updated`, userID, game, string(b), at)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("save the lessons of %s: %w", userID, err)
	}
	return all, nil
}

// LearnStars returns the stars an account has won at the stages of the
// lessons, by game and "<lesson id>:<stage>".
func (s *sqlStore) LearnStars(ctx context.Context, userID string) (map[string]map[string]int, error) {
	type row struct {
		game  string
		stars map[string]int
	}
	rows, err := collect[row](s.r.QueryContext(ctx, `SELECT game, stars FROM learn_progress WHERE user_id = $1`, userID))(func(rows *sql.Rows) (row, error) {
		var r row
		var text string
		if err := rows.Scan(&r.game, &text); err != nil {
			return r, err
		}
		return r, json.Unmarshal([]byte(text), &r.stars)
	})
	if err != nil {
		return nil, fmt.Errorf("read the lesson stars of %s: %w", userID, err)
	}
	out := map[string]map[string]int{}
	for _, r := range rows {
		if len(r.stars) > 0 {
			out[r.game] = r.stars
		}
	}
	return out, nil
}

// AddLearnStars keeps, for each stage given, the better of the stars
// given and those kept, and returns the game's stars; a row made for them
// has no lesson solved yet.
func (s *sqlStore) AddLearnStars(ctx context.Context, userID, game string, stars map[string]int, at int64) (map[string]int, error) {
	all := map[string]int{}
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		if err := readLearnColumn(ctx, tx, "stars", userID, game, &all); err != nil {
			return err
		}
		for k, n := range stars {
			all[k] = max(all[k], n)
		}
		b, _ := json.Marshal(all)
		_, err := tx.ExecContext(ctx, `INSERT INTO learn_progress (user_id, game, solved, stars, updated) VALUES ($1, $2, '[]', $3, $4)
			ON CONFLICT (user_id, game) DO UPDATE SET stars = excluded.stars, updated = excluded.updated`, userID, game, string(b), at)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("save the lesson stars of %s: %w", userID, err)
	}
	return all, nil
}

// readLearnColumn reads a JSON column of an account's learn_progress row
// of a game into v, leaving v as it is when there is no row; column is
// one of the table's, never user input.
func readLearnColumn(ctx context.Context, tx *sql.Tx, column, userID, game string, v any) error {
	var text string
	err := tx.QueryRowContext(ctx, `SELECT `+column+` FROM learn_progress WHERE user_id = $1 AND game = $2`, userID, game).Scan(&text)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil
	case err != nil:
		return err
	}
	return json.Unmarshal([]byte(text), v)
}
