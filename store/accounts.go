package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
)

// User is one account.
type User struct {
	ID   string
	Name string // as its owner wrote it
	// Password is the encoded password hash (the server's business: the
	// store keeps it as given).
	Password string
	Created  int64 // ms since the epoch
	// Email is the address the links that set a new password go to, ""
	// for none; only its owner sees it.
	Email string
	// Bot marks a bot account (Bots.MakeBot): it plays through the API
	// with a token.
	Bot bool
}

// DeletedPlayer is the name a deleted account's seats and chat lines
// show: a neutral name, the same for every deleted account, that no
// account can take (names have no spaces, and none starts with
// "deleted"); front ends word it in the reader's language.
const DeletedPlayer = "deleted player"

// ErrNameTaken is returned when a user name is taken, in any case.
var ErrNameTaken = errors.New("that user name is taken")

// ErrNoUser is returned when no account has the name or id asked for.
var ErrNoUser = errors.New("no such user")

// ErrNoSession is returned for a session token that is not (or no
// longer) logged in.
var ErrNoSession = errors.New("not logged in")

// emailKey is what makes two e-mail addresses the same for a look-up:
// their lower-case form.
func emailKey(email string) string { return strings.ToLower(email) }

// nameKey is what makes two user names the same: their lower-case form
// (names are ASCII letters, digits, '-' and '_').
func nameKey(name string) string { return strings.ToLower(name) }

// LookKey is a user name as it reads, so that no name passes for another:
// lower case, without - and _, with rn read as m, vv as w, 1 and i as l,
// and 0 as o. Two accounts never have the same (migration 00012 computes
// it the same way in SQL).
func LookKey(name string) string {
	k := strings.ToLower(name)
	for _, r := range [][2]string{{"-", ""}, {"_", ""}, {"rn", "m"}, {"vv", "w"}, {"1", "l"}, {"i", "l"}, {"0", "o"}} {
		k = strings.ReplaceAll(k, r[0], r[1])
	}
	return k
}

func (s *sqlStore) CreateUser(ctx context.Context, u *User) error {
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		var one int
		err := tx.QueryRowContext(ctx, `SELECT 1 FROM users WHERE name_key = $1 OR look_key = $2`, nameKey(u.Name), LookKey(u.Name)).Scan(&one)
		if err == nil {
			return ErrNameTaken
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO users (id, name, name_key, look_key, password, created, email, email_key) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
			u.ID, u.Name, nameKey(u.Name), LookKey(u.Name), u.Password, u.Created, u.Email, emailKey(u.Email))
		return err
	})
	if err != nil && !errors.Is(err, ErrNameTaken) {
		// Two sign-ups of one name at once: the unique key refused the
		// second, whatever the driver calls it.
		var one int
		if s.r.QueryRowContext(ctx, `SELECT 1 FROM users WHERE name_key = $1 OR look_key = $2`, nameKey(u.Name), LookKey(u.Name)).Scan(&one) == nil {
			err = ErrNameTaken
		}
	}
	if err != nil {
		return fmt.Errorf("create user %q: %w", u.Name, err)
	}
	return nil
}

// userColumns are the columns scanUser reads, in its order.
const userColumns = `id, name, password, created, email, bot`

func (s *sqlStore) scanUser(row scanner, what string) (*User, error) {
	var u User
	var bot int64
	err := row.Scan(&u.ID, &u.Name, &u.Password, &u.Created, &u.Email, &bot)
	u.Bot = bot != 0
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("user %s: %w", what, ErrNoUser)
	}
	if err != nil {
		return nil, fmt.Errorf("user %s: %w", what, err)
	}
	return &u, nil
}

func (s *sqlStore) UserByName(ctx context.Context, name string) (*User, error) {
	return s.scanUser(s.r.QueryRowContext(ctx, `SELECT `+userColumns+` FROM users WHERE name_key = $1`, nameKey(name)), fmt.Sprintf("%q", name))
}

func (s *sqlStore) UserByID(ctx context.Context, id string) (*User, error) {
	return s.scanUser(s.r.QueryRowContext(ctx, `SELECT `+userColumns+` FROM users WHERE id = $1`, id), id)
}

func (s *sqlStore) SetPassword(ctx context.Context, userID, password string) error {
	res, err := s.w.ExecContext(ctx, `UPDATE users SET password = $2 WHERE id = $1`, userID, password)
	if err == nil {
		if n, e := res.RowsAffected(); e == nil && n == 0 {
			err = ErrNoUser
		}
	}
	if err != nil {
		return fmt.Errorf("set the password of %s: %w", userID, err)
	}
	return nil
}

func (s *sqlStore) SetEmail(ctx context.Context, userID, email string) error {
	res, err := s.w.ExecContext(ctx, `UPDATE users SET email = $2, email_key = $3 WHERE id = $1`, userID, email, emailKey(email))
	if err == nil {
		if n, e := res.RowsAffected(); e == nil && n == 0 {
			err = ErrNoUser
		}
	}
	if err != nil {
		return fmt.Errorf("set the e-mail of %s: %w", userID, err)
	}
	return nil
}

func (s *sqlStore) UsersByEmail(ctx context.Context, email string, limit int) ([]*User, error) {
	if email == "" {
		return nil, nil
	}
	users, err := collect[*User](s.r.QueryContext(ctx, `SELECT `+userColumns+` FROM users WHERE email_key = $1 ORDER BY created, id LIMIT $2`, emailKey(email), limit))(
		func(rows *sql.Rows) (*User, error) { return s.scanUser(rows, "by e-mail") })
	if err != nil {
		return nil, fmt.Errorf("users by e-mail: %w", err)
	}
	return users, nil
}

func (s *sqlStore) CreateSession(ctx context.Context, tokenHash, userID, agent string, at int64) error {
	if _, err := s.w.ExecContext(ctx, `INSERT INTO sessions (token_hash, user_id, created, seen, agent) VALUES ($1, $2, $3, $3, $4)`, tokenHash, userID, at, agent); err != nil {
		return fmt.Errorf("create a session for %s: %w", userID, err)
	}
	return nil
}

func (s *sqlStore) SessionUser(ctx context.Context, tokenHash string, createdAfter int64) (*User, error) {
	row := s.r.QueryRowContext(ctx, `SELECT u.id, u.name, u.password, u.created, u.email, u.bot FROM sessions s JOIN users u ON u.id = s.user_id
		WHERE s.token_hash = $1 AND s.created > $2`, tokenHash, createdAfter)
	u, err := s.scanUser(row, "of a session")
	if errors.Is(err, ErrNoUser) {
		return nil, ErrNoSession
	}
	return u, err
}

func (s *sqlStore) DeleteSessions(ctx context.Context, userID, tokenHash string) error {
	var err error
	if tokenHash != "" {
		_, err = s.w.ExecContext(ctx, `DELETE FROM sessions WHERE token_hash = $1`, tokenHash)
	} else {
		_, err = s.w.ExecContext(ctx, `DELETE FROM sessions WHERE user_id = $1`, userID)
	}
	if err != nil {
		return fmt.Errorf("log out %s: %w", userID, err)
	}
	return nil
}

func (s *sqlStore) ClaimGuestGames(ctx context.Context, guestHash string, u *User) (int, error) {
	if guestHash == "" {
		return 0, nil
	}
	n := 0
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		for seat := range 2 {
			// The finished games the guest played in this seat: their
			// archive follows them to the account.
			archived, err := collect[string](tx.QueryContext(ctx, fmt.Sprintf(`SELECT g.id FROM games g JOIN archive_games a ON a.game_id = g.id
				WHERE g.guest%[1]d = $1 AND g.user%[1]d = '' AND g.status = 'finished'`, seat), guestHash))(
				func(rows *sql.Rows) (string, error) {
					var id string
					return id, rows.Scan(&id)
				})
			if err != nil {
				return err
			}
			res, err := tx.ExecContext(ctx, fmt.Sprintf(`UPDATE games SET user%[1]d = $1, player%[1]d = $2, guest%[1]d = ''
				WHERE guest%[1]d = $3 AND user%[1]d = ''`, seat),
				u.ID, u.Name, guestHash)
			if err != nil {
				return err
			}
			k, _ := res.RowsAffected()
			n += int(k)
			for _, id := range archived {
				if err := s.archiveSeatInTx(ctx, tx, id, seat); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("give the guest's games to %s: %w", u.Name, err)
	}
	return n, nil
}
