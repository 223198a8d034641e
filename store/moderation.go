package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Standing is an account's standing with the site's moderators.
type Standing struct {
	Role       string // "" or RoleModerator
	MutedUntil int64  // ms since the epoch; 0 for not muted
	Banned     int64  // when a moderator banned the account; 0 for not
	Closed     int64  // when a moderator closed it; 0 for not
	// Reason is the last sanction's, as the player is told it.
	Reason string
}

// RoleModerator is the role of the site's moderators.
const RoleModerator = "moderator"

// Report is a player's report of another player, a game or a chat line,
// or the system's own flag (Reporter SystemReporter).
type Report struct {
	ID           string
	Reporter     string // an account's id, or a guest's token hash
	ReporterName string
	Target       string // the account reported, "" for a guest
	TargetName   string
	Game         string // "" for none
	ChatSeq      int    // the chat line's number in Game, -1 for none
	Reason       string // the front end's reason code: "cheating", "abuse", ...
	Text         string // the reporter's words; for a chat line, the line
	Created      int64
	Closed       int64 // 0 while open
	ClosedBy     string
	Outcome      string
}

// SystemReporter is the reporter of the system's own flags.
const SystemReporter = "system"

// ModAction is one moderator's action, as the log keeps it.
type ModAction struct {
	ID            string
	Moderator     string // the moderator's account id ("" for the command line)
	ModeratorName string
	Action        string // "mute", "unmute", "ban", "unban", "close", "void", "dismiss", "grant", "revoke"
	Target        string
	TargetName    string
	Game          string
	Reason        string
	At            int64
}

// Where an account is seen, for the flags of games between accounts that
// share one.
const (
	SeenAddress = "addr"
	SeenBrowser = "browser"
)

// ErrNoReport is returned for a report id that names none.
var ErrNoReport = errors.New("no such report")

func (s *sqlStore) Standing(ctx context.Context, userID string) (Standing, error) {
	var st Standing
	err := s.r.QueryRowContext(ctx, `SELECT role, muted_until, banned, closed, sanction_reason FROM users WHERE id = $1`, userID).
		Scan(&st.Role, &st.MutedUntil, &st.Banned, &st.Closed, &st.Reason)
	if errors.Is(err, sql.ErrNoRows) {
		return st, ErrNoUser
	}
	if err != nil {
		return st, fmt.Errorf("read the standing of %s: %w", userID, err)
	}
	return st, nil
}

func (s *sqlStore) SetStanding(ctx context.Context, userID string, st Standing) error {
	return s.execOne(ctx, fmt.Sprintf("set the standing of %s", userID), ErrNoUser,
		`UPDATE users SET role = $2, muted_until = $3, banned = $4, closed = $5, sanction_reason = $6 WHERE id = $1`,
		userID, st.Role, st.MutedUntil, st.Banned, st.Closed, st.Reason)
}

// execOne runs a write that must change one row, else answers none.
func (s *sqlStore) execOne(ctx context.Context, what string, none error, query string, args ...any) error {
	var n int64
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, query, args...)
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	if err == nil && n == 0 {
		err = none
	}
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}

const reportColumns = `id, reporter, reporter_name, target, target_name, game_id, chat_seq, reason, text, created, closed, closed_by, outcome`

func (s *sqlStore) AddReport(ctx context.Context, r *Report) error {
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO reports (`+reportColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
			r.ID, r.Reporter, r.ReporterName, r.Target, r.TargetName, r.Game, r.ChatSeq, r.Reason, r.Text, r.Created, r.Closed, r.ClosedBy, r.Outcome)
		return err
	})
	if err != nil {
		return fmt.Errorf("add a report of %s: %w", r.TargetName, err)
	}
	return nil
}

func (s *sqlStore) Reports(ctx context.Context, open bool, limit int) ([]Report, error) {
	cond := "closed <> 0"
	if open {
		cond = "closed = 0"
	}
	reports, err := collect[Report](s.r.QueryContext(ctx, `SELECT `+reportColumns+` FROM reports WHERE `+cond+` ORDER BY created DESC, id LIMIT $1`, limit))(scanReport)
	if err != nil {
		return nil, fmt.Errorf("list the reports: %w", err)
	}
	return reports, nil
}

func scanReport(rows *sql.Rows) (Report, error) {
	var r Report
	err := rows.Scan(&r.ID, &r.Reporter, &r.ReporterName, &r.Target, &r.TargetName, &r.Game, &r.ChatSeq, &r.Reason, &r.Text, &r.Created, &r.Closed, &r.ClosedBy, &r.Outcome)
	return r, err
}

func (s *sqlStore) Report(ctx context.Context, id string) (Report, error) {
	reports, err := collect[Report](s.r.QueryContext(ctx, `SELECT `+reportColumns+` FROM reports WHERE id = $1`, id))(scanReport)
	switch {
	case err != nil:
		return Report{}, fmt.Errorf("read report %s: %w", id, err)
	case len(reports) == 0:
		return Report{}, ErrNoReport
	}
	return reports[0], nil
}

func (s *sqlStore) CloseReport(ctx context.Context, id, by, outcome string, at int64) error {
	return s.execOne(ctx, fmt.Sprintf("close report %s", id), ErrNoReport,
		`UPDATE reports SET closed = $2, closed_by = $3, outcome = $4 WHERE id = $1 AND closed = 0`, id, at, by, outcome)
}

func (s *sqlStore) Block(ctx context.Context, userID, blocked string, at int64) error {
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO blocks (user_id, blocked, created) VALUES ($1, $2, $3) ON CONFLICT (user_id, blocked) DO NOTHING`, userID, blocked, at)
		return err
	})
	if err != nil {
		return fmt.Errorf("block %s for %s: %w", blocked, userID, err)
	}
	return nil
}

func (s *sqlStore) Unblock(ctx context.Context, userID, blocked string) error {
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM blocks WHERE user_id = $1 AND blocked = $2`, userID, blocked)
		return err
	})
	if err != nil {
		return fmt.Errorf("unblock %s for %s: %w", blocked, userID, err)
	}
	return nil
}

func (s *sqlStore) Blocks(ctx context.Context, userID string) ([]string, error) {
	names, err := collect[string](s.r.QueryContext(ctx, `SELECT u.name FROM blocks b JOIN users u ON u.id = b.blocked WHERE b.user_id = $1 ORDER BY u.name_key`, userID))(func(rows *sql.Rows) (string, error) {
		var n string
		return n, rows.Scan(&n)
	})
	if err != nil {
		return nil, fmt.Errorf("list the blocks of %s: %w", userID, err)
	}
	return names, nil
}

func (s *sqlStore) Blocked(ctx context.Context, a, b string) (bool, error) {
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM blocks WHERE (user_id = $1 AND blocked = $2) OR (user_id = $2 AND blocked = $1)`, a, b).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("blocks between %s and %s: %w", a, b, err)
	}
	return n > 0, nil
}

const modColumns = `id, moderator, action, target, target_name, game_id, reason, at`

func (s *sqlStore) LogAction(ctx context.Context, a *ModAction) error {
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO mod_log (`+modColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
			a.ID, a.Moderator, a.Action, a.Target, a.TargetName, a.Game, a.Reason, a.At)
		return err
	})
	if err != nil {
		return fmt.Errorf("log the action %s: %w", a.Action, err)
	}
	return nil
}

func (s *sqlStore) ModLog(ctx context.Context, limit int) ([]ModAction, error) {
	actions, err := collect[ModAction](s.r.QueryContext(ctx, `SELECT l.id, l.moderator, COALESCE(u.name, l.moderator), l.action, l.target, l.target_name, l.game_id, l.reason, l.at
		FROM mod_log l LEFT JOIN users u ON u.id = l.moderator ORDER BY l.at DESC, l.id LIMIT $1`, limit))(func(rows *sql.Rows) (ModAction, error) {
		var a ModAction
		err := rows.Scan(&a.ID, &a.Moderator, &a.ModeratorName, &a.Action, &a.Target, &a.TargetName, &a.Game, &a.Reason, &a.At)
		return a, err
	})
	if err != nil {
		return nil, fmt.Errorf("read the moderators' log: %w", err)
	}
	return actions, nil
}

func (s *sqlStore) Seen(ctx context.Context, userID, kind, value string, at int64) error {
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO seen (user_id, kind, value, at) VALUES ($1, $2, $3, $4)
			ON CONFLICT (user_id, kind, value) DO UPDATE SET at = excluded.at`, userID, kind, value, at)
		return err
	})
	if err != nil {
		return fmt.Errorf("note where %s is seen: %w", userID, err)
	}
	return nil
}

func (s *sqlStore) Shared(ctx context.Context, a, b string) ([]string, error) {
	kinds, err := collect[string](s.r.QueryContext(ctx, `SELECT DISTINCT x.kind FROM seen x JOIN seen y ON y.kind = x.kind AND y.value = x.value
		WHERE x.user_id = $1 AND y.user_id = $2 ORDER BY x.kind`, a, b))(func(rows *sql.Rows) (string, error) {
		var k string
		return k, rows.Scan(&k)
	})
	if err != nil {
		return nil, fmt.Errorf("where %s and %s are both seen: %w", a, b, err)
	}
	return kinds, nil
}

func (s *sqlStore) RatedGames(ctx context.Context, userID string) ([]string, error) {
	ids, err := s.ids(ctx, `SELECT id FROM games WHERE (user0 = $1 OR user1 = $1) AND rated = 1 AND rating_done = 1 ORDER BY updated`, userID)
	if err != nil {
		return nil, fmt.Errorf("the rated games of %s: %w", userID, err)
	}
	return ids, nil
}

// ErrNotVoidable is returned for a game whose result changed no rating, or
// was removed from the ratings already.
var ErrNotVoidable = errors.New("the game's result is in no rating")

func (s *sqlStore) VoidGame(ctx context.Context, gameID string, at int64) error {
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE games SET rating_done = 2 WHERE id = $1 AND rating_done = 1`, gameID)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return ErrNotVoidable
		}
		var g Game
		err = tx.QueryRowContext(ctx, `SELECT game, family, result, user0, user1, diff0, diff1 FROM games WHERE id = $1`, gameID).
			Scan(&g.Game, &g.Family, &g.Result, &g.Users[0], &g.Users[1], &g.Diffs[0], &g.Diffs[1])
		if err != nil {
			return err
		}
		for seat, u := range g.Users {
			if u != "" {
				if err := s.unrate(ctx, tx, &g, seat, gameID, at); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("remove game %s from the ratings: %w", gameID, err)
	}
	return nil
}

// unrate takes a voided game's change off the rating of its player in
// seat: the points it gave or took, and the game from the record; the
// history gets a point at the restored rating.
func (s *sqlStore) unrate(ctx context.Context, tx *sql.Tx, g *Game, seat int, gameID string, at int64) error {
	r, err := scanRating(tx.QueryRowContext(ctx, `SELECT `+ratingColumns+` FROM ratings WHERE user_id = $1 AND game = $2 AND family = $3`+s.forUpdate(),
		g.Users[seat], g.Game, g.Family))
	if errors.Is(err, sql.ErrNoRows) {
		return nil // the account is gone, its ratings with it
	}
	if err != nil {
		return err
	}
	r.R -= float64(g.Diffs[seat])
	r.Games = max(r.Games-1, 0)
	switch {
	case g.Result == "1/2-1/2":
		r.Draws = max(r.Draws-1, 0)
	case (g.Result == "1-0") == (seat == 0):
		r.Wins = max(r.Wins-1, 0)
	default:
		r.Losses = max(r.Losses-1, 0)
	}
	return writeRating(ctx, tx, g.Users[seat], g.Game, g.Family, "void:"+gameID, r, at)
}
