package store

import (
	"context"
	"database/sql"
	"fmt"
)

// ChatLine is one chat message of a game.
type ChatLine struct {
	Game string
	// Seq numbers the game's lines from 0, in order; the server that runs
	// the game gives them.
	Seq  int
	Room string // ChatPlayers or ChatSpectators
	Side int    // the writer's side, -1 for a spectator
	Name string // the writer's name as shown
	Text string
	At   int64 // ms since the epoch
}

// Chat rooms: the players' messages, and the spectators', which players
// do not see while the game goes on.
const (
	ChatPlayers    = "players"
	ChatSpectators = "spectators"
)

// TakeBack removes the moves from ply fromPly on and writes g (which
// shows the game without them), in one transaction, as UpdateGame does.
func (s *sqlStore) TakeBack(ctx context.Context, g *Game, fromPly int) error {
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		if g.Owner != "" {
			if err := checkLease(ctx, tx, g); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM moves WHERE game_id = $1 AND ply >= $2`, g.ID, fromPly); err != nil {
			return err
		}
		if err := updateGame(ctx, tx, g); err != nil {
			return err
		}
		return s.archiveInTx(ctx, tx, g)
	})
	if err != nil {
		return fmt.Errorf("take back game %s to move %d: %w", g.ID, fromPly, err)
	}
	return nil
}

// AddChat stores a chat line.
func (s *sqlStore) AddChat(ctx context.Context, l ChatLine) error {
	_, err := s.w.ExecContext(ctx, `INSERT INTO chat (game_id, seq, room, side, name, body, at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
		l.Game, l.Seq, l.Room, l.Side, l.Name, l.Text, l.At)
	if err != nil {
		return fmt.Errorf("add chat line %d of game %s: %w", l.Seq, l.Game, err)
	}
	return nil
}

// Chat returns a game's chat lines from seq on, in order.
func (s *sqlStore) Chat(ctx context.Context, gameID string, fromSeq int) ([]ChatLine, error) {
	lines, err := collect[ChatLine](s.r.QueryContext(ctx, `SELECT seq, room, side, name, body, at FROM chat
		WHERE game_id = $1 AND seq >= $2 ORDER BY seq`, gameID, fromSeq))(func(rows *sql.Rows) (ChatLine, error) {
		l := ChatLine{Game: gameID}
		err := rows.Scan(&l.Seq, &l.Room, &l.Side, &l.Name, &l.Text, &l.At)
		return l, err
	})
	if err != nil {
		return nil, fmt.Errorf("read chat of %s: %w", gameID, err)
	}
	return lines, nil
}

// PlayerGames returns the unfinished games (waiting or being played) in
// which the account userID or the guest guestHash holds a seat ("" for
// neither), the most recently changed first.
func (s *sqlStore) PlayerGames(ctx context.Context, userID, guestHash string) ([]*Game, error) {
	if userID == "" && guestHash == "" {
		return nil, nil
	}
	games, err := s.queryGames(ctx, `SELECT `+gameColumns+` FROM games
		WHERE (status = 'waiting' OR status = 'playing')
		AND (($1 <> '' AND (user0 = $1 OR user1 = $1)) OR ($2 <> '' AND (guest0 = $2 OR guest1 = $2)))
		ORDER BY updated DESC, id DESC LIMIT 200`, userID, guestHash)
	if err != nil {
		return nil, fmt.Errorf("list a player's games: %w", err)
	}
	return games, nil
}

// PlaysPosition reports whether the account userID or the guest
// guestHash ("" for neither) holds a seat in a game against a person
// being played whose current position is position (the fair-play check
// of the analysis).
func (s *sqlStore) PlaysPosition(ctx context.Context, position, userID, guestHash string) (bool, error) {
	if userID == "" && guestHash == "" {
		return false, nil
	}
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM games
		WHERE status = 'playing' AND opponent = 'human' AND position = $1
		AND (($2 <> '' AND (user0 = $2 OR user1 = $2)) OR ($3 <> '' AND (guest0 = $3 OR guest1 = $3)))`, position, userID, guestHash).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("look for a live game in a position: %w", err)
	}
	return n > 0, nil
}
