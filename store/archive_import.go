package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

func (s *sqlStore) ImportRecords(ctx context.Context, next func() (*ArchiveImport, error), dup func(im *ArchiveImport, earlier string) error) (int, error) {
	f := s.archiveIndexer()
	if f == nil {
		return 0, errors.New("import records: the store has no archive indexer")
	}
	stored := 0
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		stored = 0
		for i := 0; ; i++ {
			im, err := next()
			if err != nil || im == nil {
				return err
			}
			earlier, err := s.importRecord(ctx, tx, im, f)
			if err != nil {
				return &ImportError{i, err}
			}
			if earlier != "" {
				if err := dup(im, earlier); err != nil {
					return err
				}
				continue
			}
			stored++
		}
	})
	if err != nil {
		return 0, fmt.Errorf("import records: %w", err)
	}
	return stored, nil
}

// importRecord stores one imported game in tx, with its moves and what it
// adds to the archive, unless its record key is stored already: then it
// returns the id of the game imported with that key.
func (s *sqlStore) importRecord(ctx context.Context, tx *sql.Tx, im *ArchiveImport, index ArchiveIndexer) (string, error) {
	g := im.Game
	if g.Status != Finished || g.Source == "" {
		return "", fmt.Errorf("an imported game must be finished and have a source")
	}
	at := im.ImportedAt
	if at == 0 {
		at = time.Now().UnixMilli()
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO archive_imports (record_key, game_id, source, imported_by, imported_at)
		VALUES ($1, $2, $3, $4, $5) ON CONFLICT (record_key) DO NOTHING`, im.RecordKey, g.ID, g.Source, im.ImportedBy, at)
	if err != nil {
		return "", err
	}
	if n, err := res.RowsAffected(); err != nil {
		return "", err
	} else if n == 0 {
		var earlier string
		if err := tx.QueryRowContext(ctx, `SELECT game_id FROM archive_imports WHERE record_key = $1`, im.RecordKey).Scan(&earlier); err != nil {
			return "", fmt.Errorf("the game imported before: %w", err)
		}
		return earlier, nil
	}
	if err := insertGame(ctx, tx, g); err != nil {
		return "", err
	}
	moves := make([]string, len(im.Moves))
	for j, m := range im.Moves {
		moves[j] = m.Move
	}
	err = s.insertRows(ctx, tx, len(im.Moves), `INSERT INTO moves (game_id, ply, move, played_at, clock) VALUES `, 5,
		func(j int) []any {
			m := im.Moves[j]
			return []any{g.ID, m.Ply, m.Move, m.PlayedAt, m.Clock.Milliseconds()}
		}, ``)
	if err != nil {
		return "", fmt.Errorf("its moves: %w", err)
	}
	e, err := index(g, moves)
	if err != nil {
		return "", err
	}
	if _, err := s.writeArchive(ctx, tx, g, e, false); err != nil {
		return "", err
	}
	return "", nil
}
