package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Reset is a one-time link that sets a new password: the hash of its
// random token (the token itself is only in the link), for an account,
// valid until Expires.
type Reset struct {
	TokenHash string
	UserID    string
	Created   int64  // ms since the epoch
	Expires   int64  // ms since the epoch
	Via       string // ResetByMail, ResetByAdmin or ResetByModerator
}

// Who made a reset link: the account, asking for a mail, the operator
// (magneton admin reset-link), or a moderator (from the moderators' page).
const (
	ResetByMail      = "mail"
	ResetByAdmin     = "admin"
	ResetByModerator = "moderator"
)

// ErrNoReset is returned for a reset link that is not (or no longer)
// valid: never made, expired, or used.
var ErrNoReset = errors.New("no such link to set a password: it expired, was used or is mistyped")

func (s *sqlStore) CreateReset(ctx context.Context, r Reset) error {
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		// The expired links of every account go as a new one comes.
		if _, err := tx.ExecContext(ctx, `DELETE FROM password_resets WHERE expires <= $1`, r.Created); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO password_resets (token_hash, user_id, created, expires, via) VALUES ($1, $2, $3, $4, $5)`,
			r.TokenHash, r.UserID, r.Created, r.Expires, r.Via)
		return err
	})
	if err != nil {
		return fmt.Errorf("make a reset link for %s: %w", r.UserID, err)
	}
	return nil
}

func (s *sqlStore) UseReset(ctx context.Context, tokenHash, password string, now int64) (*User, error) {
	var u *User
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		var userID string
		err := tx.QueryRowContext(ctx, `SELECT user_id FROM password_resets WHERE token_hash = $1 AND expires > $2`+s.forUpdate(), tokenHash, now).Scan(&userID)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNoReset
		}
		if err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `DELETE FROM password_resets WHERE token_hash = $1`, tokenHash)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return ErrNoReset // used at the same moment by another request
		}
		for _, q := range []string{
			`DELETE FROM password_resets WHERE user_id = $1`,
			`DELETE FROM sessions WHERE user_id = $1`,
		} {
			if _, err := tx.ExecContext(ctx, q, userID); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, `UPDATE users SET password = $2 WHERE id = $1`, userID, password); err != nil {
			return err
		}
		u, err = s.scanUser(tx.QueryRowContext(ctx, `SELECT `+userColumns+` FROM users WHERE id = $1`, userID), userID)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("set a password by a link: %w", err)
	}
	return u, nil
}
