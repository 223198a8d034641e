package store

import (
	"context"
	"database/sql"
	"fmt"
)

// Unarchived calls f with the row and moves of every finished game that
// the archive does not hold (games finished before the archive existed,
// or whose indexing failed), in the order of their ids, a batch at a
// time, until f returns false or an error. A game archived meanwhile may
// still come: IndexGames archives a game once whatever it is given.
func (s *sqlStore) Unarchived(ctx context.Context, f func(g *Game, moves []string) (bool, error)) error {
	after := ""
	for {
		games, err := s.queryGames(ctx, `SELECT `+gameColumns+` FROM games g WHERE g.status = 'finished' AND g.id > $1
			AND NOT EXISTS (SELECT 1 FROM archive_games a WHERE a.game_id = g.id) ORDER BY g.id LIMIT $2`, after, archiveBatch)
		if err != nil {
			return fmt.Errorf("unarchived games after %q: %w", after, err)
		}
		if len(games) == 0 {
			return nil
		}
		for _, g := range games {
			moves, err := collect[string](s.r.QueryContext(ctx, `SELECT move FROM moves WHERE game_id = $1 ORDER BY ply`, g.ID))(
				func(rows *sql.Rows) (string, error) {
					var m string
					return m, rows.Scan(&m)
				})
			if err != nil {
				return fmt.Errorf("unarchived game %s: %w", g.ID, err)
			}
			more, err := f(g, moves)
			if err != nil || !more {
				return err
			}
		}
		after = games[len(games)-1].ID
	}
}
