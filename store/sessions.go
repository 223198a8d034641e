package store

import (
	"context"
	"database/sql"
	"fmt"
)

// Session is one logged-in browser of an account.
type Session struct {
	// ID names the session to its owner (SessionID of its token's hash):
	// the list shows it, and EndSession takes it.
	ID        string
	TokenHash string
	Created   int64  // when it logged in, ms since the epoch
	Seen      int64  // when it was last seen (TouchSession)
	Agent     string // its browser, in short ("Firefox 128 on Linux"), or ""
}

// SessionID is the public name of the session whose token has the hash
// tokenHash: its first 16 characters (96 bits), which say nothing of the
// token and are unique among an account's few sessions.
func SessionID(tokenHash string) string {
	if len(tokenHash) > 16 {
		return tokenHash[:16]
	}
	return tokenHash
}

func (s *sqlStore) Sessions(ctx context.Context, userID string, createdAfter int64) ([]Session, error) {
	out, err := collect[Session](s.r.QueryContext(ctx, `SELECT token_hash, created, seen, agent FROM sessions
		WHERE user_id = $1 AND created > $2 ORDER BY seen DESC, created DESC`, userID, createdAfter))(func(rows *sql.Rows) (Session, error) {
		var se Session
		err := rows.Scan(&se.TokenHash, &se.Created, &se.Seen, &se.Agent)
		se.ID = SessionID(se.TokenHash)
		return se, err
	})
	if err != nil {
		return nil, fmt.Errorf("sessions of %s: %w", userID, err)
	}
	return out, nil
}

func (s *sqlStore) TouchSession(ctx context.Context, tokenHash string, at int64) error {
	if _, err := s.w.ExecContext(ctx, `UPDATE sessions SET seen = $2 WHERE token_hash = $1 AND seen < $2`, tokenHash, at); err != nil {
		return fmt.Errorf("a session seen: %w", err)
	}
	return nil
}

func (s *sqlStore) EndSession(ctx context.Context, userID, id string) (bool, error) {
	if len(id) != 16 {
		return false, nil
	}
	res, err := s.w.ExecContext(ctx, `DELETE FROM sessions WHERE user_id = $1 AND substr(token_hash, 1, 16) = $2`, userID, id)
	if err != nil {
		return false, fmt.Errorf("log out a session of %s: %w", userID, err)
	}
	n, _ := res.RowsAffected()
	return n > 0, nil
}

func (s *sqlStore) EndOtherSessions(ctx context.Context, userID, keepTokenHash string) (int, error) {
	res, err := s.w.ExecContext(ctx, `DELETE FROM sessions WHERE user_id = $1 AND token_hash <> $2`, userID, keepTokenHash)
	if err != nil {
		return 0, fmt.Errorf("log out the other sessions of %s: %w", userID, err)
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}
