package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// PuzzleFamily is the rating family of a player's puzzle rating.
const PuzzleFamily = "puzzles"

// PuzzleRating is a puzzle's rating and how often it was tried and
// solved.
type PuzzleRating struct {
	Puzzle        string
	R, RD, Vol    float64
	Plays, Solved int
}

// PuzzleRatings returns the ratings of the puzzles tried so far, by id.
func (s *sqlStore) PuzzleRatings(ctx context.Context) (map[string]PuzzleRating, error) {
	rows, err := collect[PuzzleRating](s.r.QueryContext(ctx, `SELECT puzzle_id, r, rd, vol, plays, solved FROM puzzle_ratings`))(func(rows *sql.Rows) (PuzzleRating, error) {
		var p PuzzleRating
		err := rows.Scan(&p.Puzzle, &p.R, &p.RD, &p.Vol, &p.Plays, &p.Solved)
		return p, err
	})
	if err != nil {
		return nil, fmt.Errorf("read puzzle ratings: %w", err)
	}
	out := make(map[string]PuzzleRating, len(rows))
	for _, p := range rows {
		out[p.Puzzle] = p
	}
	return out, nil
}

// Attempted returns the puzzles an account has tried.
func (s *sqlStore) Attempted(ctx context.Context, userID string) (map[string]bool, error) {
	ids, err := collect[string](s.r.QueryContext(ctx, `SELECT puzzle_id FROM puzzle_attempts WHERE user_id = $1`, userID))(func(rows *sql.Rows) (string, error) {
		var id string
		err := rows.Scan(&id)
		return id, err
	})
	if err != nil {
		return nil, fmt.Errorf("read the puzzles of %s: %w", userID, err)
	}
	out := make(map[string]bool, len(ids))
	for _, id := range ids {
		out[id] = true
	}
	return out, nil
}

// ErrAttempted is returned by RatePuzzle for an account's second attempt
// at a puzzle: only the first counts.
var ErrAttempted = errors.New("this puzzle was tried before: only the first attempt is rated")

// RatePuzzle applies an account's first attempt at a puzzle of a game to
// both ratings, in one transaction: it records the attempt (ErrAttempted
// if there was one), takes the player's puzzle rating (freshUser if none)
// and the puzzle's (freshPuzzle if none), has update compute the new
// ones, and writes them and the player's rating history.
func (s *sqlStore) RatePuzzle(ctx context.Context, userID, puzzleID, game string, solved bool, at int64,
	freshUser Rating, freshPuzzle PuzzleRating, update func(user Rating, puzzle PuzzleRating) (Rating, PuzzleRating, error)) (Rating, PuzzleRating, error) {
	var user Rating
	var pz PuzzleRating
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `INSERT INTO puzzle_attempts (user_id, puzzle_id, solved, at) VALUES ($1, $2, $3, $4)
			ON CONFLICT (user_id, puzzle_id) DO NOTHING`, userID, puzzleID, boolInt(solved), at)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return ErrAttempted
		}
		before, err := s.takeRating(ctx, tx, userID, game, PuzzleFamily, freshUser)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO puzzle_ratings (puzzle_id, r, rd, vol, updated) VALUES ($1, $2, $3, $4, 0)
			ON CONFLICT (puzzle_id) DO NOTHING`, puzzleID, freshPuzzle.R, freshPuzzle.RD, freshPuzzle.Vol); err != nil {
			return err
		}
		pb := PuzzleRating{Puzzle: puzzleID}
		if err := tx.QueryRowContext(ctx, `SELECT r, rd, vol, plays, solved FROM puzzle_ratings WHERE puzzle_id = $1`+s.forUpdate(), puzzleID).
			Scan(&pb.R, &pb.RD, &pb.Vol, &pb.Plays, &pb.Solved); err != nil {
			return err
		}
		if user, pz, err = update(before, pb); err != nil {
			return err
		}
		if err := writeRating(ctx, tx, userID, game, PuzzleFamily, puzzleID, user, at); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE puzzle_ratings SET r = $2, rd = $3, vol = $4, plays = $5, solved = $6, updated = $7 WHERE puzzle_id = $1`,
			puzzleID, pz.R, pz.RD, pz.Vol, pz.Plays, pz.Solved, at)
		return err
	})
	if err != nil {
		return user, pz, fmt.Errorf("rate puzzle %s for %s: %w", puzzleID, userID, err)
	}
	return user, pz, nil
}

// PuzzlePlay is one attempt of an account at a puzzle, as its history
// shows it.
type PuzzlePlay struct {
	Puzzle, Game  string
	Solved, Rated bool
	// Rating is the account's puzzle rating after a rated attempt, Diff
	// its change (both 0 when unrated).
	Rating float64
	Diff   int
	At     int64 // Unix milliseconds
}

// AddPuzzlePlay records an attempt of an account at a puzzle (a second
// one in the same millisecond is dropped).
func (s *sqlStore) AddPuzzlePlay(ctx context.Context, userID string, p PuzzlePlay) error {
	_, err := s.w.ExecContext(ctx, `INSERT INTO puzzle_plays (user_id, puzzle_id, game, solved, rated, rating, diff, at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (user_id, at, puzzle_id) DO NOTHING`,
		userID, p.Puzzle, p.Game, boolInt(p.Solved), boolInt(p.Rated), p.Rating, p.Diff, p.At)
	if err != nil {
		return fmt.Errorf("record the attempt of %s at puzzle %s: %w", userID, p.Puzzle, err)
	}
	return nil
}

// PuzzlePlays returns an account's attempts at the puzzles of a game (""
// for all), newest first, at most limit.
func (s *sqlStore) PuzzlePlays(ctx context.Context, userID, game string, limit int) ([]PuzzlePlay, error) {
	plays, err := collect[PuzzlePlay](s.r.QueryContext(ctx, `SELECT puzzle_id, game, solved, rated, rating, diff, at FROM puzzle_plays
		WHERE user_id = $1 AND ($2 = '' OR game = $2) ORDER BY at DESC, puzzle_id LIMIT $3`, userID, game, limit))(func(rows *sql.Rows) (PuzzlePlay, error) {
		var p PuzzlePlay
		var solved, rated int
		err := rows.Scan(&p.Puzzle, &p.Game, &solved, &rated, &p.Rating, &p.Diff, &p.At)
		p.Solved, p.Rated = solved != 0, rated != 0
		return p, err
	})
	if err != nil {
		return nil, fmt.Errorf("read the puzzle history of %s: %w", userID, err)
	}
	return plays, nil
}
