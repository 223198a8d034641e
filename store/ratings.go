package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
)

// Rating is an account's rating in one game and family, with its counts.
type Rating struct {
	Game, Family       string
	R, RD, Vol         float64 // Glicko-2, on the Glicko scale
	Games, Wins, Draws int
	Losses             int
	Updated            int64 // ms since the epoch
}

// RatingPoint is a rating after one rated game.
type RatingPoint struct {
	Game, Family, GameID string
	At                   int64 // ms since the epoch
	R, RD                float64
}

// Leader is one row of a leaderboard.
type Leader struct {
	Name  string
	R, RD float64
	Games int
}

// ErrRated is returned by RateGame for a game whose result was applied
// to the ratings already.
var ErrRated = errors.New("the game's result is in the ratings already")

const ratingColumns = `game, family, r, rd, vol, games, wins, draws, losses, updated`

func scanRating(row scanner) (Rating, error) {
	var r Rating
	err := row.Scan(&r.Game, &r.Family, &r.R, &r.RD, &r.Vol, &r.Games, &r.Wins, &r.Draws, &r.Losses, &r.Updated)
	return r, err
}

func (s *sqlStore) Ratings(ctx context.Context, userID string) ([]Rating, error) {
	out, err := collect[Rating](s.r.QueryContext(ctx, `SELECT `+ratingColumns+` FROM ratings WHERE user_id = $1 ORDER BY game, family`, userID))(
		func(rows *sql.Rows) (Rating, error) { return scanRating(rows) })
	if err != nil {
		return nil, fmt.Errorf("ratings of %s: %w", userID, err)
	}
	return out, nil
}

func (s *sqlStore) Rating(ctx context.Context, userID, game, family string) (Rating, bool, error) {
	r, err := scanRating(s.r.QueryRowContext(ctx, `SELECT `+ratingColumns+` FROM ratings WHERE user_id = $1 AND game = $2 AND family = $3`, userID, game, family))
	if errors.Is(err, sql.ErrNoRows) {
		return Rating{Game: game, Family: family}, false, nil
	}
	if err != nil {
		return r, false, fmt.Errorf("rating of %s in %s %s: %w", userID, game, family, err)
	}
	return r, true, nil
}

func (s *sqlStore) RatingHistory(ctx context.Context, userID string) ([]RatingPoint, error) {
	out, err := collect[RatingPoint](s.r.QueryContext(ctx, `SELECT game, family, game_id, at, r, rd FROM rating_history WHERE user_id = $1 ORDER BY at, game_id`, userID))(
		func(rows *sql.Rows) (RatingPoint, error) {
			var p RatingPoint
			err := rows.Scan(&p.Game, &p.Family, &p.GameID, &p.At, &p.R, &p.RD)
			return p, err
		})
	if err != nil {
		return nil, fmt.Errorf("rating history of %s: %w", userID, err)
	}
	return out, nil
}

func (s *sqlStore) Leaderboard(ctx context.Context, game, family string, maxRD float64, limit int) ([]Leader, error) {
	out, err := collect[Leader](s.r.QueryContext(ctx, `SELECT u.name, r.r, r.rd, r.games FROM ratings r JOIN users u ON u.id = r.user_id
		WHERE r.game = $1 AND r.family = $2 AND r.rd <= $3 AND (u.bot = 0 OR r.family LIKE 'bot-%') ORDER BY r.r DESC, u.name LIMIT $4`, game, family, maxRD, limit))(
		func(rows *sql.Rows) (Leader, error) {
			var l Leader
			err := rows.Scan(&l.Name, &l.R, &l.RD, &l.Games)
			return l, err
		})
	if err != nil {
		return nil, fmt.Errorf("leaderboard of %s %s: %w", game, family, err)
	}
	return out, nil
}

func (s *sqlStore) UserGames(ctx context.Context, userID, before string, limit int, publicOnly bool) ([]*Game, error) {
	if limit <= 0 {
		limit = 50
	}
	// Keyset paging on (updated, id), newest first, as List.
	var (
		updated int64 = 1<<63 - 1
		id            = "\uffff"
	)
	if before != "" {
		g, err := s.Game(ctx, before)
		if err != nil {
			return nil, fmt.Errorf("games of %s before %s: %w", userID, before, err)
		}
		updated, id = g.Updated, g.ID
	}
	games, err := s.queryGames(ctx, `SELECT `+gameColumns+` FROM games WHERE (user0 = $1 OR user1 = $1) AND status = 'finished'
		AND ($5 = 0 OR public = 1) AND (updated < $2 OR (updated = $2 AND id < $3)) ORDER BY updated DESC, id DESC LIMIT $4`, userID, updated, id, limit, boolInt(publicOnly))
	if err != nil {
		return nil, fmt.Errorf("games of %s: %w", userID, err)
	}
	return games, nil
}

func (s *sqlStore) UserRecord(ctx context.Context, userID string) (wins, draws, losses int, err error) {
	// An account's seat is its first one (user0 when it sat on both sides).
	err = s.r.QueryRowContext(ctx, `SELECT
		COALESCE(SUM(CASE WHEN (user0 = $1 AND result = '1-0') OR (user0 <> $1 AND result = '0-1') THEN 1 ELSE 0 END), 0),
		COALESCE(SUM(CASE WHEN result = '1/2-1/2' THEN 1 ELSE 0 END), 0),
		COALESCE(SUM(CASE WHEN (user0 = $1 AND result = '0-1') OR (user0 <> $1 AND result = '1-0') THEN 1 ELSE 0 END), 0)
		FROM games WHERE (user0 = $1 OR user1 = $1) AND status = 'finished'`, userID).Scan(&wins, &draws, &losses)
	if err != nil {
		return 0, 0, 0, fmt.Errorf("record of %s: %w", userID, err)
	}
	return wins, draws, losses, nil
}

// forUpdate is what a SELECT in a transaction adds to lock the rows it
// reads: on PostgreSQL; SQLite has one writer.
func (s *sqlStore) forUpdate() string {
	if s.pg != nil {
		return " FOR UPDATE"
	}
	return ""
}

// takeRating reads an account's rating in a game and family for a
// change in tx, locking it, after making it fresh when it has none.
func (s *sqlStore) takeRating(ctx context.Context, tx *sql.Tx, userID, game, family string, fresh Rating) (Rating, error) {
	if _, err := tx.ExecContext(ctx, `INSERT INTO ratings (user_id, game, family, r, rd, vol, updated) VALUES ($1, $2, $3, $4, $5, $6, 0)
		ON CONFLICT (user_id, game, family) DO NOTHING`, userID, game, family, fresh.R, fresh.RD, fresh.Vol); err != nil {
		return Rating{}, err
	}
	return scanRating(tx.QueryRowContext(ctx, `SELECT `+ratingColumns+` FROM ratings WHERE user_id = $1 AND game = $2 AND family = $3`+s.forUpdate(), userID, game, family))
}

// writeRating writes an account's new rating in a game and family, and
// the point of its history that what (a game's or a puzzle's id) made.
func writeRating(ctx context.Context, tx *sql.Tx, userID, game, family, what string, a Rating, at int64) error {
	if _, err := tx.ExecContext(ctx, `UPDATE ratings SET r = $4, rd = $5, vol = $6, games = $7, wins = $8, draws = $9, losses = $10, updated = $11
		WHERE user_id = $1 AND game = $2 AND family = $3`, userID, game, family, a.R, a.RD, a.Vol, a.Games, a.Wins, a.Draws, a.Losses, at); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO rating_history (user_id, game, family, game_id, at, r, rd) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
		userID, game, family, what, at, a.R, a.RD)
	return err
}

func (s *sqlStore) RateGame(ctx context.Context, g *Game, fresh Rating, update func(a, b Rating) (Rating, Rating, error)) ([2]Rating, error) {
	var after [2]Rating
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE games SET rating_done = 1 WHERE id = $1 AND rating_done = 0 AND rated = 1`, g.ID)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return ErrRated
		}
		// The rows first, then their locks (on PostgreSQL: SQLite has one
		// writer), so that two games ending at once for one player apply
		// one after the other, each to the other's result.
		var before [2]Rating
		for i, u := range g.Users {
			if before[i], err = s.takeRating(ctx, tx, u, g.Game, g.Family, fresh); err != nil {
				return err
			}
		}
		after[0], after[1], err = update(before[0], before[1])
		if err != nil {
			return err
		}
		for i := range after {
			g.Diffs[i] = int(math.Round(after[i].R) - math.Round(before[i].R))
		}
		for i, u := range g.Users {
			if err := writeRating(ctx, tx, u, g.Game, g.Family, g.ID, after[i], after[i].Updated); err != nil {
				return err
			}
		}
		_, err = tx.ExecContext(ctx, `UPDATE games SET diff0 = $2, diff1 = $3 WHERE id = $1`, g.ID, g.Diffs[0], g.Diffs[1])
		return err
	})
	if err != nil {
		return after, fmt.Errorf("rate game %s: %w", g.ID, err)
	}
	return after, nil
}

func (s *sqlStore) RatedBetween(ctx context.Context, a, b string, since int64) (int, error) {
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM games WHERE status = 'finished' AND rated = 1
		AND ((user0 = $1 AND user1 = $2) OR (user0 = $2 AND user1 = $1)) AND updated >= $3`, a, b, since).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("rated games of %s and %s: %w", a, b, err)
	}
	return n, nil
}
