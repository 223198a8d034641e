package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// BotFamilyPrefix begins the rating family of a rated game between two
// bots: such games rate the bots in a pool of their own ("bot-standard"),
// apart from the people's; a rated game between a person and a bot is in
// the people's pool.
const BotFamilyPrefix = "bot-"

// Token is one API token of an account: a bot's (or any account's)
// credential for the HTTP API and the game socket (Authorization: Bearer).
// The token itself is shown once, when it is made; the store keeps its
// SHA-256 (TokenHash).
type Token struct {
	ID        string
	UserID    string
	Label     string
	TokenHash string
	Created   int64 // ms since the epoch
	Used      int64 // last used, 0 for never
	Revoked   int64 // when it was revoked, 0 for not
}

// Challenge is a challenge to a named account: a waiting private game
// (GameID) reserved for To, made by From.
type Challenge struct {
	GameID   string
	From, To string // account ids
	Created  int64
	Declined int64 // when To declined it, 0 for not
}

// Errors of the bots' store.
var (
	// ErrNoToken is returned for a token that was never made.
	ErrNoToken = errors.New("no such API token")
	// ErrTokenRevoked is returned for a token that was revoked.
	ErrTokenRevoked = errors.New("the API token was revoked")
	// ErrRatedBefore refuses to make a bot of an account that has
	// played a rated game.
	ErrRatedBefore = errors.New("the account has played rated games")
	// ErrNoChallenge is returned when a game is no challenge.
	ErrNoChallenge = errors.New("no such challenge")
)

// Bots keeps the bot accounts, the API tokens and the challenges to a
// named account.
type Bots interface {
	// IsBot reports whether an account is a bot (false for a guest's "").
	IsBot(ctx context.Context, userID string) (bool, error)
	// MakeBot makes an account a bot at a time, for good: ErrRatedBefore
	// when it has a rated game, ErrNoUser when there is no such account.
	MakeBot(ctx context.Context, userID string, at int64) error
	// CreateToken stores a new token; Tokens lists an account's, newest
	// first; RevokeToken revokes one of them (false when the account has
	// no such token, or it was revoked before).
	CreateToken(ctx context.Context, t *Token) error
	Tokens(ctx context.Context, userID string) ([]Token, error)
	RevokeToken(ctx context.Context, userID, id string, at int64) (bool, error)
	// TokenUser returns a token's account and the token, by the token's
	// hash: ErrNoToken or ErrTokenRevoked. TouchToken records its use.
	TokenUser(ctx context.Context, tokenHash string) (*User, Token, error)
	TouchToken(ctx context.Context, id string, at int64) error
	// CreateChallenge records that a game is a challenge; Challenge reads
	// one (ErrNoChallenge); DeclineChallenge marks it declined.
	CreateChallenge(ctx context.Context, c Challenge) error
	Challenge(ctx context.Context, gameID string) (Challenge, error)
	DeclineChallenge(ctx context.Context, gameID string, at int64) error
	// ChallengesTo lists the challenges to an account whose game is still
	// waiting, oldest first.
	ChallengesTo(ctx context.Context, userID string) ([]Challenge, error)
}

func (s *sqlStore) IsBot(ctx context.Context, userID string) (bool, error) {
	if userID == "" {
		return false, nil
	}
	var at int64
	err := s.r.QueryRowContext(ctx, `SELECT bot FROM users WHERE id = $1`, userID).Scan(&at)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("is %s a bot: %w", userID, err)
	}
	return at != 0, nil
}

func (s *sqlStore) MakeBot(ctx context.Context, userID string, at int64) error {
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		var bot int64
		err := tx.QueryRowContext(ctx, `SELECT bot FROM users WHERE id = $1`+s.forUpdate(), userID).Scan(&bot)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNoUser
		}
		if err != nil || bot != 0 {
			return err
		}
		var rated int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM games WHERE rated <> 0 AND (user0 = $1 OR user1 = $1) AND status <> 'aborted'`, userID).Scan(&rated); err != nil {
			return err
		}
		if rated > 0 {
			return ErrRatedBefore
		}
		_, err = tx.ExecContext(ctx, `UPDATE users SET bot = $2 WHERE id = $1`, userID, at)
		return err
	})
	if err != nil {
		return fmt.Errorf("make %s a bot: %w", userID, err)
	}
	return nil
}

func (s *sqlStore) CreateToken(ctx context.Context, t *Token) error {
	if _, err := s.w.ExecContext(ctx, `INSERT INTO api_tokens (id, user_id, label, token_hash, created) VALUES ($1, $2, $3, $4, $5)`,
		t.ID, t.UserID, t.Label, t.TokenHash, t.Created); err != nil {
		return fmt.Errorf("create an API token for %s: %w", t.UserID, err)
	}
	return nil
}

// tokenColumns are the columns scanToken reads, in its order.
const tokenColumns = `t.id, t.user_id, t.label, t.token_hash, t.created, t.used, t.revoked`

func scanToken(row scanner, t *Token) error {
	return row.Scan(&t.ID, &t.UserID, &t.Label, &t.TokenHash, &t.Created, &t.Used, &t.Revoked)
}

func (s *sqlStore) Tokens(ctx context.Context, userID string) ([]Token, error) {
	out, err := collect[Token](s.r.QueryContext(ctx, `SELECT `+tokenColumns+` FROM api_tokens t WHERE t.user_id = $1 ORDER BY t.created DESC, t.id`, userID))(
		func(rows *sql.Rows) (Token, error) {
			var t Token
			err := scanToken(rows, &t)
			return t, err
		})
	if err != nil {
		return nil, fmt.Errorf("API tokens of %s: %w", userID, err)
	}
	return out, nil
}

func (s *sqlStore) RevokeToken(ctx context.Context, userID, id string, at int64) (bool, error) {
	res, err := s.w.ExecContext(ctx, `UPDATE api_tokens SET revoked = $3 WHERE user_id = $1 AND id = $2 AND revoked = 0`, userID, id, at)
	if err != nil {
		return false, fmt.Errorf("revoke API token %s of %s: %w", id, userID, err)
	}
	n, _ := res.RowsAffected()
	return n > 0, nil
}

func (s *sqlStore) TokenUser(ctx context.Context, tokenHash string) (*User, Token, error) {
	var t Token
	var u User
	var bot int64
	err := s.r.QueryRowContext(ctx, `SELECT `+tokenColumns+`, u.id, u.name, u.password, u.created, u.email, u.bot
		FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE t.token_hash = $1`, tokenHash).
		Scan(&t.ID, &t.UserID, &t.Label, &t.TokenHash, &t.Created, &t.Used, &t.Revoked, &u.ID, &u.Name, &u.Password, &u.Created, &u.Email, &bot)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, Token{}, ErrNoToken
	case err != nil:
		return nil, Token{}, fmt.Errorf("an API token's account: %w", err)
	case t.Revoked != 0:
		return nil, t, ErrTokenRevoked
	}
	u.Bot = bot != 0
	return &u, t, nil
}

func (s *sqlStore) TouchToken(ctx context.Context, id string, at int64) error {
	if _, err := s.w.ExecContext(ctx, `UPDATE api_tokens SET used = $2 WHERE id = $1 AND used < $2`, id, at); err != nil {
		return fmt.Errorf("an API token used: %w", err)
	}
	return nil
}

func (s *sqlStore) CreateChallenge(ctx context.Context, c Challenge) error {
	if _, err := s.w.ExecContext(ctx, `INSERT INTO challenges (game_id, from_user, to_user, created) VALUES ($1, $2, $3, $4)`,
		c.GameID, c.From, c.To, c.Created); err != nil {
		return fmt.Errorf("create a challenge of %s to %s: %w", c.From, c.To, err)
	}
	return nil
}

// challengeColumns are the columns scanChallenge reads, in its order.
const challengeColumns = `c.game_id, c.from_user, c.to_user, c.created, c.declined`

func scanChallenge(row scanner, c *Challenge) error {
	return row.Scan(&c.GameID, &c.From, &c.To, &c.Created, &c.Declined)
}

func (s *sqlStore) Challenge(ctx context.Context, gameID string) (Challenge, error) {
	var c Challenge
	err := scanChallenge(s.r.QueryRowContext(ctx, `SELECT `+challengeColumns+` FROM challenges c WHERE c.game_id = $1`, gameID), &c)
	if errors.Is(err, sql.ErrNoRows) {
		return c, fmt.Errorf("challenge %s: %w", gameID, ErrNoChallenge)
	}
	if err != nil {
		return c, fmt.Errorf("challenge %s: %w", gameID, err)
	}
	return c, nil
}

func (s *sqlStore) DeclineChallenge(ctx context.Context, gameID string, at int64) error {
	if _, err := s.w.ExecContext(ctx, `UPDATE challenges SET declined = $2 WHERE game_id = $1 AND declined = 0`, gameID, at); err != nil {
		return fmt.Errorf("decline challenge %s: %w", gameID, err)
	}
	return nil
}

func (s *sqlStore) ChallengesTo(ctx context.Context, userID string) ([]Challenge, error) {
	out, err := collect[Challenge](s.r.QueryContext(ctx, `SELECT `+challengeColumns+` FROM challenges c JOIN games g ON g.id = c.game_id
		WHERE c.to_user = $1 AND c.declined = 0 AND g.status = 'waiting' ORDER BY c.created, c.game_id`, userID))(
		func(rows *sql.Rows) (Challenge, error) {
			var c Challenge
			err := scanChallenge(rows, &c)
			return c, err
		})
	if err != nil {
		return nil, fmt.Errorf("challenges to %s: %w", userID, err)
	}
	return out, nil
}
