package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Tournament statuses.
const (
	TournamentCreated  = "created"  // entries open, not begun
	TournamentStarted  = "started"  // being played
	TournamentFinished = "finished" // over
)

// ErrNoTournament is returned when no tournament has the id asked for.
var ErrNoTournament = errors.New("no such tournament")

// ErrTooManyTournaments is returned by CreateTournament when the creator
// has as many unfinished tournaments as allowed.
var ErrTooManyTournaments = errors.New("too many unfinished tournaments")

// ErrNotDirector is returned when a director's write is refused because
// the writer does not hold the tournament's lease (another instance
// directs it now), or the tournament is not in the state the write needs.
var ErrNotDirector = errors.New("another server instance directs this tournament now")

// ErrEntered is returned by JoinTournament for a player already entered.
var ErrEntered = errors.New("already entered")

// Tournament is one tournament's row.
type Tournament struct {
	ID, Name string
	Game     string // the game's name, as games.Lookup knows it
	Rules    string // the settings, as game.Settings writes them
	Format   string // tournament.Arena, Swiss or RoundRobin
	Clock    string // as lobby.ParseClock reads it ("3+2", "3d")
	Rated    bool
	Bots     bool   // bot accounts may enter
	Creator  string // the creator's account id
	Status   string // TournamentCreated, Started or Finished
	// Starts is when it begins (ms since the epoch); Ends an arena's end.
	Starts, Ends int64
	// Rounds is a Swiss's or round robin's number of rounds (a round
	// robin's is set when it starts), Round the current one.
	Rounds, Round int
	Winner        string // the winner's account id, once finished
	Director      string // the instance holding its lease ("" for none)
	Created       int64
	Finished      int64
	// Read only: the creator's and the winner's names, and how many
	// players are entered (withdrawn ones included).
	CreatorName, WinnerName string
	Players                 int
}

// TournamentEntry is one player of a tournament.
type TournamentEntry struct {
	User        string // account id
	Name        string // read only: the account's name
	Rating      int    // when entering
	Withdrawn   bool
	Paused      bool
	JoinedRound int
	Joined      int64
}

// TournamentPairing is one game of a tournament, or a bye (Second "").
type TournamentPairing struct {
	Seq           int // its number in the tournament, from 1
	Round         int // 0 in an arena
	First, Second string
	GameID        string
	Result        int // tournament.Result: 0 pending, 1 first wins, 2 second wins, 3 draw
	// Read only, from the game's row: its status, result ("1-0"),
	// ending's word and number of moves.
	GameStatus, GameResult, GameReason string
	GameMoves                          int
}

// TournamentQuery selects tournaments for a list.
type TournamentQuery struct {
	// Finished lists the finished ones, the most recently finished first;
	// otherwise the unfinished ones, the soonest to start first.
	Finished bool
	Winner   string // only those this account won
	Limit    int    // 0 means 50
}

// Tournaments keeps the tournaments, their entries and pairings.
type Tournaments interface {
	// CreateTournament inserts a tournament, unless its creator already
	// has maxOpen unfinished ones (ErrTooManyTournaments).
	CreateTournament(ctx context.Context, t *Tournament, maxOpen int) error
	// ScheduleTournament inserts a tournament the site makes (no creator,
	// no limit) unless one has its id already: it reports whether it
	// inserted it, so that of several instances scheduling the same
	// tournament (the same id) one makes it and the others see it done.
	ScheduleTournament(ctx context.Context, t *Tournament) (bool, error)
	// Tournament returns one by id, or ErrNoTournament; TournamentList a
	// list of them.
	Tournament(ctx context.Context, id string) (*Tournament, error)
	TournamentList(ctx context.Context, q TournamentQuery) ([]*Tournament, error)
	// TournamentEntries returns a tournament's players in the order they
	// joined; TournamentPairings its pairings in order, with their games'
	// state.
	TournamentEntries(ctx context.Context, id string) ([]TournamentEntry, error)
	TournamentPairings(ctx context.Context, id string) ([]TournamentPairing, error)
	// JoinTournament enters a player (ErrEntered when entered and not
	// withdrawn; a withdrawn player who joins again is back with the
	// entry's new JoinedRound). SetEntry writes a player's withdrawn and
	// paused flags (ErrNoUser when not entered).
	JoinTournament(ctx context.Context, id string, e TournamentEntry) error
	SetEntry(ctx context.Context, id, userID string, withdrawn, paused bool) error
	// AcquireTournament gives instance the tournament's lease if nobody
	// holds it or its holder is dead (its last heartbeat before
	// deadBefore), and returns the holder after the attempt.
	AcquireTournament(ctx context.Context, id, instance string, deadBefore int64) (string, error)
	// ReleaseTournaments gives up instance's leases of the tournaments
	// not finished (at its shutdown: another instance takes them at once).
	ReleaseTournaments(ctx context.Context, instance string) error
	// StartTournament marks it started with its number of rounds, by its
	// director (ErrNotDirector otherwise, or when it is not created).
	StartTournament(ctx context.Context, id, director string, rounds int, at int64) error
	// AddPairings writes, by the director, pairings (numbered after the
	// last), their games (with the director's leases) and the current
	// round, in one transaction.
	AddPairings(ctx context.Context, id, director string, round int, ps []TournamentPairing, games []*Game) error
	// RecordResults writes pending pairings' results by seq, by the
	// director; a result already written stays.
	RecordResults(ctx context.Context, id, director string, results map[int]int) error
	// StartSoon moves a tournament not started yet to start at at (the
	// director starts it then), if it was to start later.
	StartSoon(ctx context.Context, id string, at int64) error
	// FinishTournament marks it finished with its winner ("" for none),
	// by the director.
	FinishTournament(ctx context.Context, id, director, winner string, at int64) error
}

const tournamentColumns = `t.id, t.name, t.game, t.rules, t.format, t.clock, t.rated, t.bots, t.creator, t.status, t.starts, t.ends,
	t.rounds, t.round_no, t.winner, t.director, t.created, t.finished,
	COALESCE(c.name, ''), COALESCE(w.name, ''), (SELECT COUNT(*) FROM tournament_entries e WHERE e.tournament_id = t.id)`

const tournamentFrom = ` FROM tournaments t LEFT JOIN users c ON c.id = t.creator LEFT JOIN users w ON w.id = t.winner`

func scanTournament(row scanner) (*Tournament, error) {
	var t Tournament
	var rated, bots int
	err := row.Scan(&t.ID, &t.Name, &t.Game, &t.Rules, &t.Format, &t.Clock, &rated, &bots, &t.Creator, &t.Status, &t.Starts, &t.Ends,
		&t.Rounds, &t.Round, &t.Winner, &t.Director, &t.Created, &t.Finished, &t.CreatorName, &t.WinnerName, &t.Players)
	t.Rated, t.Bots = rated != 0, bots != 0
	return &t, err
}

func (s *sqlStore) CreateTournament(ctx context.Context, t *Tournament, maxOpen int) error {
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM tournaments WHERE creator = $1 AND status <> 'finished'`, t.Creator).Scan(&n); err != nil {
			return err
		}
		if n >= maxOpen {
			return ErrTooManyTournaments
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO tournaments (id, name, game, rules, format, clock, rated, bots, creator, status,
			starts, ends, rounds, round_no, created) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, 0, $14)`,
			t.ID, t.Name, t.Game, t.Rules, t.Format, t.Clock, boolInt(t.Rated), boolInt(t.Bots), t.Creator, TournamentCreated,
			t.Starts, t.Ends, t.Rounds, t.Created)
		return err
	})
	if err != nil {
		return fmt.Errorf("create tournament %s: %w", t.ID, err)
	}
	t.Status = TournamentCreated
	return nil
}

func (s *sqlStore) ScheduleTournament(ctx context.Context, t *Tournament) (bool, error) {
	res, err := s.w.ExecContext(ctx, `INSERT INTO tournaments (id, name, game, rules, format, clock, rated, bots, creator, status,
		starts, ends, rounds, round_no, created) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, '', $9, $10, $11, $12, 0, $13) ON CONFLICT (id) DO NOTHING`,
		t.ID, t.Name, t.Game, t.Rules, t.Format, t.Clock, boolInt(t.Rated), boolInt(t.Bots), TournamentCreated, t.Starts, t.Ends, t.Rounds, t.Created)
	if err != nil {
		return false, fmt.Errorf("schedule tournament %s: %w", t.ID, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("schedule tournament %s: %w", t.ID, err)
	}
	t.Creator, t.Status = "", TournamentCreated
	return n == 1, nil
}

func (s *sqlStore) Tournament(ctx context.Context, id string) (*Tournament, error) {
	t, err := scanTournament(s.r.QueryRowContext(ctx, `SELECT `+tournamentColumns+tournamentFrom+` WHERE t.id = $1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNoTournament
	}
	if err != nil {
		return nil, fmt.Errorf("read tournament %s: %w", id, err)
	}
	return t, nil
}

func (s *sqlStore) TournamentList(ctx context.Context, q TournamentQuery) ([]*Tournament, error) {
	limit := q.Limit
	if limit <= 0 {
		limit = 50
	}
	where, order := `t.status <> 'finished'`, `t.starts, t.id`
	if q.Finished {
		where, order = `t.status = 'finished'`, `t.finished DESC, t.id`
	}
	list, err := collect[*Tournament](s.r.QueryContext(ctx, `SELECT `+tournamentColumns+tournamentFrom+` WHERE `+where+`
		AND ($1 = '' OR t.winner = $1) ORDER BY `+order+` LIMIT $2`, q.Winner, limit))(func(rows *sql.Rows) (*Tournament, error) {
		return scanTournament(rows)
	})
	if err != nil {
		return nil, fmt.Errorf("list tournaments: %w", err)
	}
	return list, nil
}

func (s *sqlStore) TournamentEntries(ctx context.Context, id string) ([]TournamentEntry, error) {
	list, err := collect[TournamentEntry](s.r.QueryContext(ctx, `SELECT e.user_id, COALESCE(u.name, ''), e.rating, e.withdrawn, e.paused,
		e.joined_round, e.joined FROM tournament_entries e LEFT JOIN users u ON u.id = e.user_id
		WHERE e.tournament_id = $1 ORDER BY e.joined, e.user_id`, id))(func(rows *sql.Rows) (TournamentEntry, error) {
		var e TournamentEntry
		var withdrawn, paused int
		err := rows.Scan(&e.User, &e.Name, &e.Rating, &withdrawn, &paused, &e.JoinedRound, &e.Joined)
		e.Withdrawn, e.Paused = withdrawn != 0, paused != 0
		if e.Name == "" {
			e.Name = DeletedPlayer
		}
		return e, err
	})
	if err != nil {
		return nil, fmt.Errorf("the entries of tournament %s: %w", id, err)
	}
	return list, nil
}

func (s *sqlStore) TournamentPairings(ctx context.Context, id string) ([]TournamentPairing, error) {
	list, err := collect[TournamentPairing](s.r.QueryContext(ctx, `SELECT p.seq, p.round_no, p.first_id, p.second_id, p.game_id, p.result,
		COALESCE(g.status, ''), COALESCE(g.result, ''), COALESCE(g.reason, ''), COALESCE(g.nmoves, 0)
		FROM tournament_pairings p LEFT JOIN games g ON g.id = p.game_id AND p.game_id <> ''
		WHERE p.tournament_id = $1 ORDER BY p.seq`, id))(func(rows *sql.Rows) (TournamentPairing, error) {
		var p TournamentPairing
		err := rows.Scan(&p.Seq, &p.Round, &p.First, &p.Second, &p.GameID, &p.Result, &p.GameStatus, &p.GameResult, &p.GameReason, &p.GameMoves)
		return p, err
	})
	if err != nil {
		return nil, fmt.Errorf("the pairings of tournament %s: %w", id, err)
	}
	return list, nil
}

func (s *sqlStore) JoinTournament(ctx context.Context, id string, e TournamentEntry) error {
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `INSERT INTO tournament_entries (tournament_id, user_id, rating, joined_round, joined)
			VALUES ($1, $2, $3, $4, $5) ON CONFLICT (tournament_id, user_id) DO UPDATE SET withdrawn = 0, paused = 0,
			joined_round = CASE WHEN tournament_entries.joined_round > excluded.joined_round THEN tournament_entries.joined_round ELSE excluded.joined_round END
			WHERE tournament_entries.withdrawn = 1`, id, e.User, e.Rating, e.JoinedRound, e.Joined)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err == nil && n == 0 {
			return ErrEntered
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("enter %s in tournament %s: %w", e.User, id, err)
	}
	return nil
}

func (s *sqlStore) SetEntry(ctx context.Context, id, userID string, withdrawn, paused bool) error {
	err := s.execOne(ctx, "entry", ErrNoUser, `UPDATE tournament_entries SET withdrawn = $3, paused = $4 WHERE tournament_id = $1 AND user_id = $2`,
		id, userID, boolInt(withdrawn), boolInt(paused))
	if err != nil {
		return fmt.Errorf("tournament %s: %w", id, err)
	}
	return nil
}

// aliveDirector is the condition that tournaments t's director is alive
// at $3.
const aliveDirector = `EXISTS (SELECT 1 FROM heartbeats h WHERE h.instance = tournaments.director AND h.at >= $3)`

func (s *sqlStore) AcquireTournament(ctx context.Context, id, instance string, deadBefore int64) (string, error) {
	var owner string
	err := s.r.QueryRowContext(ctx, `SELECT director FROM tournaments WHERE id = $1`, id).Scan(&owner)
	if err == nil && owner != instance {
		_, err = s.w.ExecContext(ctx, `UPDATE tournaments SET director = $2 WHERE id = $1 AND director <> $2
			AND (director = '' OR NOT `+aliveDirector+`)`, id, instance, deadBefore)
		if err == nil {
			err = s.w.QueryRowContext(ctx, `SELECT director FROM tournaments WHERE id = $1`, id).Scan(&owner)
		}
	}
	if errors.Is(err, sql.ErrNoRows) {
		return "", ErrNoTournament
	}
	if err != nil {
		return "", fmt.Errorf("lease of tournament %s for %s: %w", id, instance, err)
	}
	return owner, nil
}

// checkDirector, in a write transaction, makes sure director holds the
// tournament's lease and the tournament has status ("": is not finished),
// locking its row (on PostgreSQL) until the transaction ends, as
// checkLease does a game's.
func checkDirector(ctx context.Context, tx *sql.Tx, id, director, status string) error {
	res, err := tx.ExecContext(ctx, `UPDATE tournaments SET director = director WHERE id = $1 AND director = $2
		AND (status = $3 OR ($3 = '' AND status <> 'finished'))`, id, director, status)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return ErrNotDirector
	}
	return err
}

func (s *sqlStore) StartTournament(ctx context.Context, id, director string, rounds int, at int64) error {
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		if err := checkDirector(ctx, tx, id, director, TournamentCreated); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `UPDATE tournaments SET status = 'started', rounds = $2, starts = $3 WHERE id = $1`, id, rounds, at)
		return err
	})
	if err != nil {
		return fmt.Errorf("start tournament %s: %w", id, err)
	}
	return nil
}

func (s *sqlStore) AddPairings(ctx context.Context, id, director string, round int, ps []TournamentPairing, games []*Game) error {
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		if err := checkDirector(ctx, tx, id, director, TournamentStarted); err != nil {
			return err
		}
		var last int
		if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(seq), 0) FROM tournament_pairings WHERE tournament_id = $1`, id).Scan(&last); err != nil {
			return err
		}
		for i, p := range ps {
			if _, err := tx.ExecContext(ctx, `INSERT INTO tournament_pairings (tournament_id, seq, round_no, first_id, second_id, game_id, result)
				VALUES ($1, $2, $3, $4, $5, $6, $7)`, id, last+1+i, p.Round, p.First, p.Second, p.GameID, p.Result); err != nil {
				return err
			}
		}
		for _, g := range games {
			if err := insertGame(ctx, tx, g); err != nil {
				return err
			}
			if err := takeLease(ctx, tx, g); err != nil {
				return err
			}
		}
		_, err := tx.ExecContext(ctx, `UPDATE tournaments SET round_no = $2 WHERE id = $1`, id, round)
		return err
	})
	if err != nil {
		return fmt.Errorf("pair tournament %s: %w", id, err)
	}
	return nil
}

func (s *sqlStore) RecordResults(ctx context.Context, id, director string, results map[int]int) error {
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		if err := checkDirector(ctx, tx, id, director, TournamentStarted); err != nil {
			return err
		}
		for seq, r := range results {
			if _, err := tx.ExecContext(ctx, `UPDATE tournament_pairings SET result = $3 WHERE tournament_id = $1 AND seq = $2 AND result = 0`,
				id, seq, r); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("record results of tournament %s: %w", id, err)
	}
	return nil
}

func (s *sqlStore) FinishTournament(ctx context.Context, id, director, winner string, at int64) error {
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		if err := checkDirector(ctx, tx, id, director, ""); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `UPDATE tournaments SET status = 'finished', winner = $2, finished = $3 WHERE id = $1`, id, winner, at)
		return err
	})
	if err != nil {
		return fmt.Errorf("finish tournament %s: %w", id, err)
	}
	return nil
}

func (s *sqlStore) StartSoon(ctx context.Context, id string, at int64) error {
	if _, err := s.w.ExecContext(ctx, `UPDATE tournaments SET starts = $2 WHERE id = $1 AND status = 'created' AND starts > $2`, id, at); err != nil {
		return fmt.Errorf("start tournament %s: %w", id, err)
	}
	return nil
}

func (s *sqlStore) ReleaseTournaments(ctx context.Context, instance string) error {
	if _, err := s.w.ExecContext(ctx, `UPDATE tournaments SET director = '' WHERE director = $1 AND status <> 'finished'`, instance); err != nil {
		return fmt.Errorf("release the tournaments of %s: %w", instance, err)
	}
	return nil
}
