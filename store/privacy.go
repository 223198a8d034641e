package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"time"
)

// ErrPlaying is returned by DeleteUser for an account with games waiting
// for an opponent or being played: they must end first.
var ErrPlaying = errors.New("the account has games waiting or being played")

// PuzzleAttempt is an account's first attempt at a puzzle.
type PuzzleAttempt struct {
	Puzzle string
	Solved bool
	At     int64 // ms since the epoch
}

// AccountData is everything the store keeps about an account.
type AccountData struct {
	User    User
	Ratings []Rating
	History []RatingPoint
	// Games are every game with a seat of the account, the oldest first,
	// and Moves their moves by game id.
	Games []*Game
	Moves map[string][]Move
	// Chat holds the lines the account wrote: in its games' players' room
	// from its seat, and as a spectator under its name.
	Chat    []ChatLine
	Lessons map[string][]string
	// LessonStars are the stars won at each stage of the lessons, by game.
	LessonStars map[string]map[string]int
	Puzzles     []PuzzleAttempt
	// PuzzlePlays are every attempt at a puzzle, newest first.
	PuzzlePlays []PuzzlePlay
	Sessions    []Session
	// Tournaments are those the account entered or made, the oldest first.
	Tournaments []AccountTournament
	// Tokens are the account's API tokens, revoked ones too (their hashes
	// are the store's, not for a download).
	Tokens []Token
}

// AccountTournament is a tournament in an account's data: one it made
// (Made) or entered (Entered, with its entry's rating, withdrawal and
// time of joining).
type AccountTournament struct {
	ID, Name, Game, Format, Status string
	Made, Entered                  bool
	Rating                         int
	Withdrawn                      bool
	Joined                         int64
}

func (s *sqlStore) AccountData(ctx context.Context, userID string) (*AccountData, error) {
	u, err := s.UserByID(ctx, userID)
	if err != nil {
		return nil, err
	}
	d := &AccountData{User: *u}
	steps := []func() error{
		func() (err error) { d.Ratings, err = s.Ratings(ctx, userID); return },
		func() (err error) { d.History, err = s.RatingHistory(ctx, userID); return },
		func() (err error) {
			d.Games, err = s.queryGames(ctx, `SELECT `+gameColumns+` FROM games WHERE user0 = $1 OR user1 = $1 ORDER BY created, id`, userID)
			return
		},
		func() (err error) { d.Moves, err = s.userMoves(ctx, userID); return },
		func() (err error) { d.Chat, err = s.userChat(ctx, userID, u.Name); return },
		func() (err error) { d.Lessons, err = s.LearnProgress(ctx, userID); return },
		func() (err error) { d.LessonStars, err = s.LearnStars(ctx, userID); return },
		func() (err error) { d.Puzzles, err = s.puzzleAttempts(ctx, userID); return },
		func() (err error) { d.PuzzlePlays, err = s.PuzzlePlays(ctx, userID, "", math.MaxInt32); return },
		func() (err error) { d.Sessions, err = s.Sessions(ctx, userID, 0); return },
		func() (err error) { d.Tournaments, err = s.accountTournaments(ctx, userID); return },
		func() (err error) { d.Tokens, err = s.Tokens(ctx, userID); return },
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return nil, fmt.Errorf("the data of %s: %w", userID, err)
		}
	}
	return d, nil
}

// accountTournaments returns the tournaments an account made or entered.
func (s *sqlStore) accountTournaments(ctx context.Context, userID string) ([]AccountTournament, error) {
	return collect[AccountTournament](s.r.QueryContext(ctx, `SELECT t.id, t.name, t.game, t.format, t.status,
		CASE WHEN t.creator = $1 THEN 1 ELSE 0 END, CASE WHEN e.user_id IS NULL THEN 0 ELSE 1 END,
		COALESCE(e.rating, 0), COALESCE(e.withdrawn, 0), COALESCE(e.joined, 0)
		FROM tournaments t LEFT JOIN tournament_entries e ON e.tournament_id = t.id AND e.user_id = $1
		WHERE t.creator = $1 OR e.user_id IS NOT NULL ORDER BY t.created, t.id`, userID))(func(rows *sql.Rows) (AccountTournament, error) {
		var a AccountTournament
		var made, entered, withdrawn int
		err := rows.Scan(&a.ID, &a.Name, &a.Game, &a.Format, &a.Status, &made, &entered, &a.Rating, &withdrawn, &a.Joined)
		a.Made, a.Entered, a.Withdrawn = made != 0, entered != 0, withdrawn != 0
		return a, err
	})
}

// userMoves returns the moves of every game of an account, by game.
func (s *sqlStore) userMoves(ctx context.Context, userID string) (map[string][]Move, error) {
	type gameMove struct {
		game string
		m    Move
	}
	rows, err := collect[gameMove](s.r.QueryContext(ctx, `SELECT m.game_id, m.ply, m.move, m.played_at, m.clock FROM moves m
		JOIN games g ON g.id = m.game_id WHERE g.user0 = $1 OR g.user1 = $1 ORDER BY m.game_id, m.ply`, userID))(func(rows *sql.Rows) (gameMove, error) {
		var gm gameMove
		var clock int64
		err := rows.Scan(&gm.game, &gm.m.Ply, &gm.m.Move, &gm.m.PlayedAt, &clock)
		gm.m.Clock = time.Duration(clock) * time.Millisecond
		return gm, err
	})
	if err != nil {
		return nil, err
	}
	out := map[string][]Move{}
	for _, r := range rows {
		out[r.game] = append(out[r.game], r.m)
	}
	return out, nil
}

// userChat returns the lines an account wrote: from its seats in the
// players' rooms, and under its name in the spectators' (a name is one
// account's at a time, and a deleted account's lines lose it).
func (s *sqlStore) userChat(ctx context.Context, userID, name string) ([]ChatLine, error) {
	return collect[ChatLine](s.r.QueryContext(ctx, `SELECT c.game_id, c.seq, c.room, c.side, c.name, c.body, c.at FROM chat c
		JOIN games g ON g.id = c.game_id
		WHERE c.room = 'players' AND ((c.side = 0 AND g.user0 = $1) OR (c.side = 1 AND g.user1 = $1))
		UNION ALL
		SELECT game_id, seq, room, side, name, body, at FROM chat WHERE room = 'spectators' AND name = $2
		ORDER BY at, game_id, seq`, userID, name))(func(rows *sql.Rows) (ChatLine, error) {
		var l ChatLine
		err := rows.Scan(&l.Game, &l.Seq, &l.Room, &l.Side, &l.Name, &l.Text, &l.At)
		return l, err
	})
}

func (s *sqlStore) puzzleAttempts(ctx context.Context, userID string) ([]PuzzleAttempt, error) {
	return collect[PuzzleAttempt](s.r.QueryContext(ctx, `SELECT puzzle_id, solved, at FROM puzzle_attempts WHERE user_id = $1 ORDER BY at, puzzle_id`, userID))(
		func(rows *sql.Rows) (PuzzleAttempt, error) {
			var a PuzzleAttempt
			var solved int
			err := rows.Scan(&a.Puzzle, &solved, &a.At)
			a.Solved = solved != 0
			return a, err
		})
}

// deleteUserSQL are the statements of an account's erasure, in order,
// each with the arguments it takes: $1 the account's id, $2 the name
// its seats and lines take, $3 its name.
var deleteUserSQL = []struct {
	query string
	args  int
}{
	// Its lines: from its seats in its games' players' rooms, and under
	// its name in the spectators' rooms.
	{`UPDATE chat SET name = $2 WHERE room = 'players' AND ((side = 0 AND game_id IN (SELECT id FROM games WHERE user0 = $1))
		OR (side = 1 AND game_id IN (SELECT id FROM games WHERE user1 = $1)))`, 2},
	{`UPDATE chat SET name = $2 WHERE room = 'spectators' AND name = $3 AND $1 <> ''`, 3},
	// Its seats: no account, no guest, no seat token.
	{`UPDATE games SET user0 = '', player0 = $2, guest0 = '', seat0 = '' WHERE user0 = $1`, 2},
	{`UPDATE games SET user1 = '', player1 = $2, guest1 = '', seat1 = '' WHERE user1 = $1`, 2},
	// Its archive: its repertoire goes, its games stay under the deleted
	// player's name (as games.player0 and player1, in lower case).
	{`DELETE FROM archive_player_moves WHERE user_id = $1`, 1},
	{`UPDATE archive_recent SET user0 = '' WHERE user0 = $1`, 1},
	{`UPDATE archive_recent SET user1 = '' WHERE user1 = $1`, 1},
	{`UPDATE archive_games SET user0 = '', name0 = '` + DeletedPlayer + `' WHERE user0 = $1`, 1},
	{`UPDATE archive_games SET user1 = '', name1 = '` + DeletedPlayer + `' WHERE user1 = $1`, 1},
	{`DELETE FROM rating_history WHERE user_id = $1`, 1},
	{`DELETE FROM ratings WHERE user_id = $1`, 1},
	{`DELETE FROM sessions WHERE user_id = $1`, 1},
	{`DELETE FROM learn_progress WHERE user_id = $1`, 1},
	{`DELETE FROM puzzle_attempts WHERE user_id = $1`, 1},
	{`DELETE FROM puzzle_plays WHERE user_id = $1`, 1},
	{`DELETE FROM password_resets WHERE user_id = $1`, 1},
	{`DELETE FROM api_tokens WHERE user_id = $1`, 1},
	{`DELETE FROM challenges WHERE from_user = $1 OR to_user = $1`, 1},
	// Its tournaments: out of those not begun, withdrawn from those under
	// way (so that no director pairs it again); its results in those
	// begun stay, under the deleted player's name.
	{`DELETE FROM tournament_entries WHERE user_id = $1 AND tournament_id IN (SELECT id FROM tournaments WHERE status = 'created')`, 1},
	{`UPDATE tournament_entries SET withdrawn = 1, paused = 0 WHERE user_id = $1 AND tournament_id IN (SELECT id FROM tournaments WHERE status = 'started')`, 1},
	{`DELETE FROM users WHERE id = $1`, 1},
}

func (s *sqlStore) DeleteUser(ctx context.Context, userID string) error {
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		var name string
		err := tx.QueryRowContext(ctx, `SELECT name FROM users WHERE id = $1`+s.forUpdate(), userID).Scan(&name)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNoUser
		}
		if err != nil {
			return err
		}
		var playing int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM games WHERE (user0 = $1 OR user1 = $1) AND status IN ('waiting', 'playing')`, userID).Scan(&playing); err != nil {
			return err
		}
		if playing > 0 {
			return ErrPlaying
		}
		args := []any{userID, DeletedPlayer, name}
		for _, st := range deleteUserSQL {
			if _, err := tx.ExecContext(ctx, st.query, args[:st.args]...); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("delete account %s: %w", userID, err)
	}
	return nil
}
