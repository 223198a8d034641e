package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// SeededGame is a game played to its end (or aborted) outside the server,
// with its moves in order: what SeedGames writes.
type SeededGame struct {
	Game  *Game
	Moves []Move
}

// Seeder writes games in bulk as the server would have left them: the
// benchmarks' databases (tools/seedarchive) hold a hundred thousand games,
// which one transaction a move (CreateGame, AddMove) would take hours to
// write. The store returned by Open is a Seeder.
type Seeder interface {
	// SeedGames writes finished or aborted games played on this site
	// (Source ""), with their moves, in one transaction, and archives each
	// finished one as the write that ends a game does (the same code, with
	// the indexer SetArchiveIndexer set): the archive's rows are those the
	// live path writes. Nothing is written when one game is refused.
	SeedGames(ctx context.Context, games []SeededGame) error
}

var _ Seeder = (*sqlStore)(nil)

func (s *sqlStore) SeedGames(ctx context.Context, games []SeededGame) error {
	if s.archiveIndexer() == nil {
		return errors.New("seed games: the store has no archive indexer")
	}
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		for _, sg := range games {
			g := *sg.Game
			if err := checkSeeded(&g, sg.Moves); err != nil {
				return fmt.Errorf("game %s: %w", g.ID, err)
			}
			// The write that ends a game sets ended from updated
			// (updateGameSQL); an aborted game never ends.
			if g.Status == Finished && g.Ended == 0 {
				g.Ended = g.Updated
			}
			if err := insertGame(ctx, tx, &g); err != nil {
				return fmt.Errorf("game %s: %w", g.ID, err)
			}
			err := s.insertRows(ctx, tx, len(sg.Moves), `INSERT INTO moves (game_id, ply, move, played_at, clock) VALUES `, 5,
				func(i int) []any {
					m := sg.Moves[i]
					return []any{g.ID, m.Ply, m.Move, m.PlayedAt, m.Clock.Milliseconds()}
				}, ``)
			if err != nil {
				return fmt.Errorf("game %s: moves: %w", g.ID, err)
			}
			if err := s.archiveInTx(ctx, tx, &g); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("seed %d games: %w", len(games), err)
	}
	return nil
}

// checkSeeded says what makes a game unfit for SeedGames.
func checkSeeded(g *Game, moves []Move) error {
	switch {
	case g.Source != "":
		return fmt.Errorf("source %q: a seeded game is played on this site (no source; imports go through ImportGames)", g.Source)
	case g.Status != Finished && g.Status != Aborted:
		return fmt.Errorf("status %q: want %s or %s", g.Status, Finished, Aborted)
	case g.Status == Aborted && g.Ended != 0:
		return errors.New("an aborted game has no end (Ended 0)")
	case g.Moves != len(moves):
		return fmt.Errorf("the row counts %d moves, %d given", g.Moves, len(moves))
	}
	for i, m := range moves {
		if m.Ply != i {
			return fmt.Errorf("move %d has ply %d: want the moves in order from ply 0", i+1, m.Ply)
		}
	}
	return nil
}
