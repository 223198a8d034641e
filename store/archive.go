package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
)

// The archive: every finished game, played here or imported, indexed by
// the positions it reached, for the opening explorer and the game search.
// The store keeps the rows and writes them in the transaction that ends a
// game; what a game adds (the positions' keys, up to the board's
// symmetries) is the rules' business, computed by an ArchiveIndexer that
// the server gives the store (SetArchiveIndexer).

// Sources of archived games (Game.Source, ArchiveGame.Source).
const (
	// SourceSite is a game played on this site (stored as "" in
	// Game.Source, as "site" in the archive).
	SourceSite = "site"
	// SourceBoardspace is a game imported from Boardspace's records.
	SourceBoardspace = "boardspace"
	// SourceImport is a game imported from any other record, such as the
	// site's own.
	SourceImport = "import"
)

// ArchiveEntry is what one finished game adds to the archive, as the
// indexer computes it.
type ArchiveEntry struct {
	// Speed is the game's time control class: "bullet", "blitz",
	// "rapid", "classical", "correspondence" or "untimed".
	Speed string
	// Rating is the average rating of the players when it began (0 when
	// neither had one); Band the rating band it falls in (0 for none).
	Rating, Band int
	// Moves holds each distinct (position, move) of the game once, in
	// the order played.
	Moves []ArchiveMove
	// Positions holds each distinct position the game reached, with the
	// ply at which it first did: the last one has no move.
	Positions []ArchivePosition
	// Plies is the number of moves of the game.
	Plies int
}

// ArchiveMove is one move of a game from a position: Pos is the position's
// key, Move the move in the frame of the position's canonical image, Seat
// the seat (0 or 1) that made it, and Ply the ply at which the game first
// played it from there.
type ArchiveMove struct {
	Pos  int64
	Move string
	Seat int
	Ply  int
}

// ArchivePosition is a position a game reached and the first ply at
// which it did (0 for the start).
type ArchivePosition struct {
	Pos int64
	Ply int
}

// ArchiveIndexer computes what a finished game adds to the archive from
// its row and its moves in order. The store calls it inside the
// transaction that writes the game's end; an error leaves the game out of
// the archive (the result is written all the same), for Archive
// verification to find and a rebuild to mend.
type ArchiveIndexer func(g *Game, moves []string) (*ArchiveEntry, error)

// ExplorerFilter selects the games the explorer counts. Zero values
// select everything.
type ExplorerFilter struct {
	Sources []string // SourceSite, SourceBoardspace, SourceImport; none: all
	Rated   bool     // rated games only
	Speeds  []string // ArchiveEntry.Speed values; none: all
	// MinBand and MaxBand bound the rating band (0: no bound); a bound
	// leaves out games without ratings.
	MinBand, MaxBand int
}

// ExplorerMove is one move's line of the explorer: how often it was
// played from a position and how those games ended for the side that
// played it.
type ExplorerMove struct {
	Move                string // in the canonical position's frame
	Games               int
	Wins, Draws, Losses int   // for the side that played the move
	RatingSum, RatingN  int64 // the sum of the games' average ratings, and how many had one
	LastPlayed          int64 // ms since the epoch
	Mine                bool  // in a repertoire: the account's own move
}

// ArchiveGame is one archived game, as the search lists it.
type ArchiveGame struct {
	ID, Game, Rules, Source string
	Rated                   bool
	Speed                   string
	Rating                  int
	Result                  string
	Ended                   int64 // ms since the epoch: when it ended, or the day an imported game was played
	Plies                   int
	Players                 [2]string
	Users                   [2]string
	// Ply is, in a search by position, the first ply at which the game
	// reached it.
	Ply int
}

// GameSearch selects archived games. Empty fields select everything.
type GameSearch struct {
	// Player and Opponent are players' names, in any case; with Player
	// set, Result is from the player's view ("win", "draw", "loss"),
	// otherwise a result ("1-0", "0-1", "1/2-1/2").
	Player, Opponent string
	Result           string
	From, To         int64 // the games that ended in [From, To), ms; 0 for no bound
	Game             string
	Rules            string
	Source           string
	// Pos selects the games that reached a position (its key); 0 for any.
	Pos int64
	// Viewer is the account that searches ("" for a guest): a private
	// game played here is listed to its players only, as the site's other
	// lists do. Imported games are all listed.
	Viewer string
	// Oldest sorts the oldest first (the newest first otherwise).
	Oldest bool
	Offset int
	Limit  int // 0 means 50; at most 200
}

// ArchiveImport is one imported record to add: the game's row (finished,
// with Source set) and its moves, the entry it adds, and its record key
// (the same record twice is refused).
type ArchiveImport struct {
	Game       *Game
	Moves      []Move
	RecordKey  string
	ImportedBy string // the account that imported it, "" for the command line
	ImportedAt int64  // when, ms since the epoch (ImportRecords; 0: now)
}

// ErrDuplicateRecord is returned by ImportGames when a record was
// imported before; the error names the record (ImportError).
var ErrDuplicateRecord = errors.New("this game was imported before")

// ImportError says which record of an import was refused.
type ImportError struct {
	Index int // in the slice given to ImportGames
	Err   error
}

func (e *ImportError) Error() string { return fmt.Sprintf("record %d: %v", e.Index+1, e.Err) }
func (e *ImportError) Unwrap() error { return e.Err }

// IndexedGame is a finished game and what it adds to the archive.
type IndexedGame struct {
	Game  *Game
	Entry *ArchiveEntry
}

// ArchiveCounts are the sizes of the archive's tables.
type ArchiveCounts struct {
	Games, Moves, PlayerMoves, Positions int64
}

// Archive keeps the archive and answers the explorer and the search.
type Archive interface {
	// SetArchiveIndexer gives the store the function that indexes a game
	// as it ends; without one, games are not archived as they end.
	SetArchiveIndexer(f ArchiveIndexer)
	// SetIndexErrorHandler sets the function told of a game the indexer
	// could not archive as it ended (the server logs it).
	SetIndexErrorHandler(h func(gameID string, err error))
	// ExplorerMoves returns the moves played from a position (its key)
	// in the games the filter selects, the most played first.
	ExplorerMoves(ctx context.Context, pos int64, f ExplorerFilter) ([]ExplorerMove, error)
	// RepertoireMoves returns the moves of an account's games from a
	// position: its own (Mine) and its opponents', with the results
	// from the account's view.
	RepertoireMoves(ctx context.Context, userID string, pos int64) ([]ExplorerMove, error)
	// SearchGames returns the archived games a search selects, and
	// whether there are more after them.
	SearchGames(ctx context.Context, q GameSearch) ([]ArchiveGame, bool, error)
	// ImportGames stores imported games and archives them, all in one
	// transaction: nothing when one is refused (an *ImportError naming
	// it, wrapping ErrDuplicateRecord for a record imported before).
	ImportGames(ctx context.Context, imports []ArchiveImport) error
	// ImportRecords is ImportGames for records that come one at a time
	// (next returns nil after the last), so that a long file needs the
	// memory of one record: all in one transaction, nothing when next or
	// the store fails. A record imported before (its key stored, by this
	// call too) is passed over: dup is told of it and of the id of the
	// game it was imported as, and the import goes on (an error from dup
	// ends it, with nothing stored). It returns how many games it stored.
	ImportRecords(ctx context.Context, next func() (*ArchiveImport, error), dup func(im *ArchiveImport, earlier string) error) (int, error)
	// ArchiveGames calls f with every finished game's row and moves, in
	// the order of their ids, from the id after `after` on, until f
	// returns false or an error.
	ArchiveGames(ctx context.Context, after string, f func(g *Game, moves []string) (bool, error)) error
	// ClearArchive empties the archive's counts (the imported games and
	// their record keys stay); IndexGames archives finished games, in one
	// transaction, each unless it is already, and returns how many it did.
	ClearArchive(ctx context.Context) error
	IndexGames(ctx context.Context, batch []IndexedGame) (int, error)
	// Unarchived calls f with every finished game the archive does not
	// hold, as ArchiveGames does.
	Unarchived(ctx context.Context, f func(g *Game, moves []string) (bool, error)) error
	// ArchiveCounts returns the sizes of the archive's tables, after a
	// MergeArchive.
	ArchiveCounts(ctx context.Context) (ArchiveCounts, error)
	// MergeArchive moves the rows that games' ends wrote into the
	// archive's recent tables into its big ones (the store's merger does
	// so in the background a moment after each game's end) and returns
	// how many games it moved; ArchiveMergeStats returns the merger's
	// totals. The explorer and the search count the recent rows too.
	MergeArchive(ctx context.Context) (int, error)
	ArchiveMergeStats() ArchiveMergeStats
	// DumpArchive calls f with every row of the explorer's and the
	// repertoires' counts and of the positions, as text, in a fixed order,
	// after a MergeArchive: what a verification compares with a recount.
	DumpArchive(ctx context.Context, f func(table, row string) error) error
}

func (s *sqlStore) SetArchiveIndexer(f ArchiveIndexer) {
	s.indexMu.Lock()
	s.indexer = f
	s.indexMu.Unlock()
}

func (s *sqlStore) archiveIndexer() ArchiveIndexer {
	s.indexMu.RLock()
	defer s.indexMu.RUnlock()
	return s.indexer
}

// archiveInTx archives a game that the transaction tx has just written as
// finished, unless it is archived already or no indexer is set. An
// indexer's error leaves the game out (reported to IndexErrors) and the
// transaction goes on: the result must be written whatever the archive
// says.
func (s *sqlStore) archiveInTx(ctx context.Context, tx *sql.Tx, g *Game) error {
	if g.Status != Finished {
		return nil
	}
	f := s.archiveIndexer()
	if f == nil {
		return nil
	}
	var one int
	err := tx.QueryRowContext(ctx, `SELECT 1 FROM archive_games WHERE game_id = $1`, g.ID).Scan(&one)
	if err == nil {
		return nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("archive game %s: %w", g.ID, err)
	}
	moves, err := gameMoves(ctx, tx, g.ID)
	if err != nil {
		return fmt.Errorf("archive game %s: %w", g.ID, err)
	}
	e, err := f(g, moves)
	if err != nil {
		s.reportIndexError(g.ID, err)
		return nil
	}
	if _, err = s.writeArchive(ctx, tx, g, e, true); err != nil {
		return err
	}
	s.kickMerger()
	return nil
}

// reportIndexError passes an indexer's error to the function set by
// SetIndexErrorHandler.
func (s *sqlStore) reportIndexError(gameID string, err error) {
	s.indexMu.RLock()
	h := s.onIndexError
	s.indexMu.RUnlock()
	if h != nil {
		h(gameID, err)
	}
}

func (s *sqlStore) SetIndexErrorHandler(h func(gameID string, err error)) {
	s.indexMu.Lock()
	s.onIndexError = h
	s.indexMu.Unlock()
}

// archiveSource is the archive's name of a game's source.
func archiveSource(g *Game) string {
	if g.Source == "" {
		return SourceSite
	}
	return g.Source
}

// rowsPerInsert bounds the rows of one multi-row INSERT (SQLite takes at
// most 32,766 parameters in a statement). At 200 rows (2,600 numbered
// parameters) SQLite's lookup of each $N was a third of an import's time;
// insertRows now writes anonymous parameters on SQLite, and 32 rows keep
// the statements short on both databases (docs/benchmarks.md, "Game
// archive: import").
const rowsPerInsert = 32

// endedAt is when a game ended: its Ended, or, for the row of the write
// that ends it (which sets ended from updated), its Updated.
func endedAt(g *Game) int64 {
	if g.Ended != 0 {
		return g.Ended
	}
	return g.Updated
}

// writeArchive writes a game's archive rows in tx, once: it reports false
// when the game was archived already. With recent, the rows go into the
// small tables that the merger empties (archive_recent and
// archive_recent_moves, writeRecent): what a game's end does, so that its transaction
// writes a few pages rather than the ~200 that the big tables' rows of a
// game, keyed by position, lie on. Bulk writes (imports, rebuilds) write
// the big tables directly.
func (s *sqlStore) writeArchive(ctx context.Context, tx execer, g *Game, e *ArchiveEntry, recent bool) (bool, error) {
	src := archiveSource(g)
	ended := endedAt(g)
	res, err := tx.ExecContext(ctx, `INSERT INTO archive_games (game_id, game, rules, source, rated, speed, band, rating, result, ended, plies, user0, user1, name0, name1)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) ON CONFLICT (game_id) DO NOTHING`,
		g.ID, g.Game, g.Rules, src, boolInt(g.Rated), e.Speed, e.Band, e.Rating, g.Result, ended, e.Plies,
		g.Users[0], g.Users[1], strings.ToLower(g.Players[0]), strings.ToLower(g.Players[1]))
	if err != nil {
		return false, fmt.Errorf("archive game %s: %w", g.ID, err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return false, err
	}
	if recent {
		if err := s.writeRecent(ctx, tx, g, e); err != nil {
			return false, fmt.Errorf("archive game %s: %w", g.ID, err)
		}
		return true, nil
	}
	ratingN := 0
	if e.Rating > 0 {
		ratingN = 1
	}
	err = s.insertRows(ctx, tx, len(e.Moves),
		`INSERT INTO archive_moves (pos, move, source, rated, speed, band, games, wins, draws, losses, rating_sum, rating_n, last_played) VALUES `,
		13, func(i int) []any {
			m := e.Moves[i]
			w, d, l := seatScore(g.Result, m.Seat)
			return []any{m.Pos, m.Move, src, boolInt(g.Rated), e.Speed, e.Band, 1, w, d, l, e.Rating, ratingN, ended}
		}, addMoveCounts)
	if err != nil {
		return false, fmt.Errorf("archive game %s: moves: %w", g.ID, err)
	}
	for seat := range g.Users {
		if err := s.writeSeatArchive(ctx, tx, g, e, seat); err != nil {
			return false, err
		}
	}
	err = s.insertRows(ctx, tx, len(e.Positions), `INSERT INTO archive_positions (pos, ended, game_id, ply) VALUES `, 4,
		func(i int) []any { return []any{e.Positions[i].Pos, ended, g.ID, e.Positions[i].Ply} },
		` ON CONFLICT (pos, ended, game_id) DO NOTHING`)
	if err != nil {
		return false, fmt.Errorf("archive game %s: positions: %w", g.ID, err)
	}
	return true, nil
}

// addMoveCounts and addPlayerMoveCounts end an INSERT into archive_moves
// and archive_player_moves: a row already there takes the new one's
// games and results.
const (
	addMoveCounts = ` ON CONFLICT (pos, move, source, rated, speed, band) DO UPDATE SET
			games = archive_moves.games + excluded.games, wins = archive_moves.wins + excluded.wins,
			draws = archive_moves.draws + excluded.draws, losses = archive_moves.losses + excluded.losses,
			rating_sum = archive_moves.rating_sum + excluded.rating_sum, rating_n = archive_moves.rating_n + excluded.rating_n,
			last_played = CASE WHEN excluded.last_played > archive_moves.last_played THEN excluded.last_played ELSE archive_moves.last_played END`
	addPlayerMoveCounts = ` ON CONFLICT (user_id, pos, move, mine) DO UPDATE SET
			games = archive_player_moves.games + excluded.games, wins = archive_player_moves.wins + excluded.wins,
			draws = archive_player_moves.draws + excluded.draws, losses = archive_player_moves.losses + excluded.losses,
			last_played = CASE WHEN excluded.last_played > archive_player_moves.last_played THEN excluded.last_played ELSE archive_player_moves.last_played END`
)

// seatScore is a game's result for a seat as (wins, draws, losses), one
// of them 1.
func seatScore(result string, seat int) (int, int, int) {
	switch {
	case result == "1/2-1/2":
		return 0, 1, 0
	case (result == "1-0") == (seat == 0):
		return 1, 0, 0
	}
	return 0, 0, 1
}

// writeSeatArchive adds a game's moves to the repertoire of the account
// in a seat, if an account holds it.
func (s *sqlStore) writeSeatArchive(ctx context.Context, tx execer, g *Game, e *ArchiveEntry, seat int) error {
	user := g.Users[seat]
	if user == "" {
		return nil
	}
	w, d, l := seatScore(g.Result, seat)
	ended := endedAt(g)
	err := s.insertRows(ctx, tx, len(e.Moves),
		`INSERT INTO archive_player_moves (user_id, pos, move, mine, games, wins, draws, losses, last_played) VALUES `,
		9, func(i int) []any {
			m := e.Moves[i]
			return []any{user, m.Pos, m.Move, boolInt(m.Seat == seat), 1, w, d, l, ended}
		}, addPlayerMoveCounts)
	if err != nil {
		return fmt.Errorf("archive game %s: the moves of seat %d: %w", g.ID, seat+1, err)
	}
	return nil
}

// writeRecent writes a game's rows into the archive's recent tables
// (writeArchive with recent): one row for the game and one for each
// distinct move, with the last position when the game first reached it at
// its end (migration 00024 says what the rows hold).
func (s *sqlStore) writeRecent(ctx context.Context, tx execer, g *Game, e *ArchiveEntry) error {
	ratingN := 0
	if e.Rating > 0 {
		ratingN = 1
	}
	winner := 1
	if w, d, _ := seatScore(g.Result, 0); d == 1 {
		winner = -1
	} else if w == 1 {
		winner = 0
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO archive_recent (game_id, source, rated, speed, band, rating, rating_n, winner, ended, user0, user1)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
		g.ID, archiveSource(g), boolInt(g.Rated), e.Speed, e.Band, e.Rating, ratingN, winner, endedAt(g), g.Users[0], g.Users[1])
	if err != nil {
		return err
	}
	type row struct {
		pos       int64
		move      string
		seat, ply int
	}
	rows := make([]row, 0, len(e.Moves)+1)
	first := make(map[int64]int, len(e.Moves))
	for _, m := range e.Moves {
		rows = append(rows, row{m.Pos, m.Move, m.Seat, m.Ply})
		if p, ok := first[m.Pos]; !ok || m.Ply < p {
			first[m.Pos] = m.Ply
		}
	}
	// A position's first ply is the least of its rows': a position
	// reached first where no move was made from it (the last) gets a row
	// of its own.
	for _, p := range e.Positions {
		if q, ok := first[p.Pos]; !ok || q != p.Ply {
			rows = append(rows, row{p.Pos, "", 0, p.Ply})
		}
	}
	// A game's rows in one statement, mostly (5 columns: 640 parameters
	// at most, fewer than a statement of 32 rows of archive_moves): each
	// statement is a round trip on PostgreSQL.
	err = s.insertRowsPer(ctx, tx, 128, len(rows), `INSERT INTO archive_recent_moves (game_id, pos, move, seat, ply) VALUES `, 5,
		func(i int) []any { return []any{g.ID, rows[i].pos, rows[i].move, rows[i].seat, rows[i].ply} }, ``)
	if err != nil {
		return fmt.Errorf("moves: %w", err)
	}
	return nil
}

// The SQL that counts the archive's recent rows as the big tables do,
// built once: the join of a game's moves with its row (m and r); a move's
// wins, draws and losses, and their sums, for the seat that made it
// (mover) and for the seat s of an account (account); and s itself, a
// game's moves once for each seat that account $1 holds (seatsOfUser) or
// that any account holds (seatsOfAccounts).
const recentJoin = `archive_recent_moves m JOIN archive_recent r ON r.game_id = m.game_id`

var (
	moverResults, moverResultSums     = recentResults("m.seat")
	accountResults, accountResultSums = recentResults("s.seat")
	seatsOfUser                       = recentSeats("= $1")
	seatsOfAccounts                   = recentSeats("<> ''")
)

// recentResults returns the wins, draws and losses columns for seat (an
// SQL expression), and their sums.
func recentResults(seat string) (cols, sums string) {
	wdl := []string{
		`CASE WHEN r.winner = ` + seat + ` THEN 1 ELSE 0 END`,
		`CASE WHEN r.winner < 0 THEN 1 ELSE 0 END`,
		`CASE WHEN r.winner >= 0 AND r.winner <> ` + seat + ` THEN 1 ELSE 0 END`,
	}
	return strings.Join(wdl, `, `), `SUM(` + strings.Join(wdl, `), SUM(`) + `)`
}

// recentSeats joins s, the seats 0 and 1 whose account meets cond (SQL
// after r.user0 and r.user1).
func recentSeats(cond string) string {
	return ` JOIN (SELECT 0 AS seat UNION ALL SELECT 1) s ON (s.seat = 0 AND r.user0 ` + cond + `) OR (s.seat = 1 AND r.user1 ` + cond + `)`
}

// archiveSeatInTx gives an archived game's seat, just given to an account
// (ClaimGuestGames), to that account in the archive too: its name and
// its repertoire.
func (s *sqlStore) archiveSeatInTx(ctx context.Context, tx *sql.Tx, id string, seat int) error {
	g, err := scanGame(tx.QueryRowContext(ctx, `SELECT `+gameColumns+` FROM games WHERE id = $1`, id))
	if err != nil {
		return fmt.Errorf("archive game %s: %w", id, err)
	}
	_, err = tx.ExecContext(ctx, fmt.Sprintf(`UPDATE archive_games SET user%[1]d = $2, name%[1]d = $3 WHERE game_id = $1`, seat),
		id, g.Users[seat], strings.ToLower(g.Players[seat]))
	if err != nil {
		return fmt.Errorf("archive game %s: %w", id, err)
	}
	f := s.archiveIndexer()
	if f == nil {
		return nil
	}
	moves, err := gameMoves(ctx, tx, id)
	if err != nil {
		return fmt.Errorf("archive game %s: %w", id, err)
	}
	e, err := f(g, moves)
	if err != nil {
		s.reportIndexError(id, err)
		return nil
	}
	// Into the big table: the game's other rows may be merged already,
	// and the merger moves a game's recent rows once.
	return s.writeSeatArchive(ctx, tx, g, e, seat)
}

// gameMoves reads a game's moves in order in tx.
func gameMoves(ctx context.Context, tx *sql.Tx, id string) ([]string, error) {
	return collect[string](tx.QueryContext(ctx, `SELECT move FROM moves WHERE game_id = $1 ORDER BY ply`, id))(
		func(rows *sql.Rows) (string, error) {
			var m string
			return m, rows.Scan(&m)
		})
}

// insertRows runs head VALUES (...), (...) tail for n rows of cols
// values each (row(i) gives row i's), rowsPerInsert rows a statement.
// On SQLite the parameters are anonymous (?) rather than numbered ($1):
// SQLite keeps a numbered parameter's name in a list that it searches
// for each new one as it parses, and the driver for each one it binds,
// which made the parse of a statement of a couple of thousand
// parameters cost more than its writes (docs/benchmarks.md, "Game
// archive and opening explorer").
func (s *sqlStore) insertRows(ctx context.Context, tx execer, n int, head string, cols int, row func(i int) []any, tail string) error {
	return s.insertRowsPer(ctx, tx, rowsPerInsert, n, head, cols, row, tail)
}

// insertRowsPer is insertRows with per rows a statement.
func (s *sqlStore) insertRowsPer(ctx context.Context, tx execer, per, n int, head string, cols int, row func(i int) []any, tail string) error {
	for lo := 0; lo < n; lo += per {
		hi := min(n, lo+per)
		var b strings.Builder
		b.WriteString(head)
		args := make([]any, 0, (hi-lo)*cols)
		for i := lo; i < hi; i++ {
			if i > lo {
				b.WriteString(", ")
			}
			b.WriteByte('(')
			for c := range cols {
				if c > 0 {
					b.WriteString(", ")
				}
				if s.pg == nil {
					b.WriteByte('?')
				} else {
					fmt.Fprintf(&b, "$%d", len(args)+c+1)
				}
			}
			b.WriteByte(')')
			args = append(args, row(i)...)
		}
		b.WriteString(tail)
		if _, err := tx.ExecContext(ctx, b.String(), args...); err != nil {
			return err
		}
	}
	return nil
}

// placeholders appends to args and returns "$k, $k+1, ..." for vals.
func placeholders(args *[]any, vals []string) string {
	var b strings.Builder
	for i, v := range vals {
		if i > 0 {
			b.WriteString(", ")
		}
		*args = append(*args, v)
		fmt.Fprintf(&b, "$%d", len(*args))
	}
	return b.String()
}

func (s *sqlStore) ExplorerMoves(ctx context.Context, pos int64, f ExplorerFilter) ([]ExplorerMove, error) {
	args := []any{pos}
	var where strings.Builder
	where.WriteString(`pos = $1`)
	if len(f.Sources) > 0 {
		where.WriteString(` AND source IN (` + placeholders(&args, f.Sources) + `)`)
	}
	if f.Rated {
		where.WriteString(` AND rated = 1`)
	}
	if len(f.Speeds) > 0 {
		where.WriteString(` AND speed IN (` + placeholders(&args, f.Speeds) + `)`)
	}
	if f.MinBand > 0 || f.MaxBand > 0 {
		args = append(args, f.MinBand)
		fmt.Fprintf(&where, ` AND band > 0 AND band >= $%d`, len(args))
		if f.MaxBand > 0 {
			args = append(args, f.MaxBand)
			fmt.Fprintf(&where, ` AND band <= $%d`, len(args))
		}
	}
	// The big table and the recent rows the merger has not moved yet
	// (the filters' columns are r's there, pos is m's).
	out, err := collect[ExplorerMove](s.r.QueryContext(ctx, `SELECT move, SUM(games), SUM(wins), SUM(draws), SUM(losses), SUM(rating_sum), SUM(rating_n), MAX(last_played)
		FROM (SELECT move, games, wins, draws, losses, rating_sum, rating_n, last_played FROM archive_moves WHERE `+where.String()+`
			UNION ALL SELECT m.move, 1, `+moverResults+`, r.rating, r.rating_n, r.ended
			FROM `+recentJoin+` WHERE `+where.String()+` AND m.move <> '') t
		GROUP BY move ORDER BY SUM(games) DESC, move`, args...))(
		func(rows *sql.Rows) (ExplorerMove, error) {
			var m ExplorerMove
			err := rows.Scan(&m.Move, &m.Games, &m.Wins, &m.Draws, &m.Losses, &m.RatingSum, &m.RatingN, &m.LastPlayed)
			return m, err
		})
	if err != nil {
		return nil, fmt.Errorf("explorer: %w", err)
	}
	return out, nil
}

func (s *sqlStore) RepertoireMoves(ctx context.Context, userID string, pos int64) ([]ExplorerMove, error) {
	out, err := collect[ExplorerMove](s.r.QueryContext(ctx, `SELECT move, mine, SUM(games), SUM(wins), SUM(draws), SUM(losses), MAX(last_played)
		FROM (SELECT move, mine, games, wins, draws, losses, last_played FROM archive_player_moves WHERE user_id = $1 AND pos = $2
			UNION ALL SELECT m.move, CASE WHEN m.seat = s.seat THEN 1 ELSE 0 END, 1, `+accountResults+`, r.ended
			FROM `+recentJoin+seatsOfUser+` WHERE m.pos = $2 AND m.move <> '') t
		GROUP BY move, mine ORDER BY mine DESC, SUM(games) DESC, move`, userID, pos))(
		func(rows *sql.Rows) (ExplorerMove, error) {
			var (
				m    ExplorerMove
				mine int
			)
			err := rows.Scan(&m.Move, &mine, &m.Games, &m.Wins, &m.Draws, &m.Losses, &m.LastPlayed)
			m.Mine = mine != 0
			return m, err
		})
	if err != nil {
		return nil, fmt.Errorf("repertoire of %s: %w", userID, err)
	}
	return out, nil
}

const archiveGameColumns = `a.game_id, a.game, a.rules, a.source, a.rated, a.speed, a.rating, a.result, a.ended, a.plies, g.player0, g.player1, a.user0, a.user1`

func scanArchiveGame(rows *sql.Rows, withPly bool) (ArchiveGame, error) {
	var (
		a     ArchiveGame
		rated int
	)
	dest := []any{&a.ID, &a.Game, &a.Rules, &a.Source, &rated, &a.Speed, &a.Rating, &a.Result, &a.Ended, &a.Plies,
		&a.Players[0], &a.Players[1], &a.Users[0], &a.Users[1]}
	if withPly {
		dest = append(dest, &a.Ply)
	}
	err := rows.Scan(dest...)
	a.Rated = rated != 0
	return a, err
}

func (s *sqlStore) SearchGames(ctx context.Context, q GameSearch) ([]ArchiveGame, bool, error) {
	limit := q.Limit
	if limit <= 0 {
		limit = 50
	}
	limit = min(limit, 200)
	var (
		args  []any
		where []string
		from  = `archive_games a JOIN games g ON g.id = a.game_id`
		cols  = archiveGameColumns
	)
	arg := func(v any) string {
		args = append(args, v)
		return fmt.Sprintf("$%d", len(args))
	}
	if q.Pos != 0 {
		pos := arg(q.Pos)
		from = `(SELECT game_id, ply FROM archive_positions WHERE pos = ` + pos + `
			UNION ALL SELECT game_id, MIN(ply) FROM archive_recent_moves WHERE pos = ` + pos + ` GROUP BY game_id) p
			JOIN archive_games a ON a.game_id = p.game_id JOIN games g ON g.id = a.game_id`
		cols += `, p.ply`
	}
	if q.Viewer != "" {
		v := arg(q.Viewer)
		where = append(where, fmt.Sprintf(`(g.public = 1 OR g.source <> '' OR a.user0 = %[1]s OR a.user1 = %[1]s)`, v))
	} else {
		where = append(where, `(g.public = 1 OR g.source <> '')`)
	}
	player, opponent := strings.ToLower(q.Player), strings.ToLower(q.Opponent)
	// seat is the player's seat in a row: 0 or 1, as SQL.
	const seat = `(CASE WHEN a.name0 = %[1]s THEN 0 ELSE 1 END)`
	switch {
	case player != "" && opponent != "":
		p, o := arg(player), arg(opponent)
		where = append(where, fmt.Sprintf(`((a.name0 = %s AND a.name1 = %s) OR (a.name1 = %[1]s AND a.name0 = %[2]s))`, p, o))
	case player != "":
		p := arg(player)
		where = append(where, fmt.Sprintf(`(a.name0 = %[1]s OR a.name1 = %[1]s)`, p))
	case opponent != "":
		o := arg(opponent)
		where = append(where, fmt.Sprintf(`(a.name0 = %[1]s OR a.name1 = %[1]s)`, o))
	}
	switch r := q.Result; {
	case r == "":
	case player != "" && (r == "win" || r == "loss"):
		p := arg(player)
		// A win is 1-0 in seat 0 or 0-1 in seat 1.
		won := fmt.Sprintf(`((a.result = '1-0' AND `+seat+` = 0) OR (a.result = '0-1' AND `+seat+` = 1))`, p)
		if r == "loss" {
			won = fmt.Sprintf(`((a.result = '0-1' AND `+seat+` = 0) OR (a.result = '1-0' AND `+seat+` = 1))`, p)
		}
		where = append(where, won)
	case r == "draw" || r == "1/2-1/2":
		where = append(where, `a.result = '1/2-1/2'`)
	case r == "1-0" || r == "0-1":
		where = append(where, `a.result = `+arg(r))
	default:
		return nil, false, fmt.Errorf("search games: result %q: want win, draw or loss (with a player), or 1-0, 0-1 or 1/2-1/2", r)
	}
	if q.From > 0 {
		where = append(where, `a.ended >= `+arg(q.From))
	}
	if q.To > 0 {
		where = append(where, `a.ended < `+arg(q.To))
	}
	if q.Game != "" {
		where = append(where, `a.game = `+arg(q.Game))
	}
	if q.Rules != "" {
		where = append(where, `a.rules = `+arg(q.Rules))
	}
	if q.Source != "" {
		where = append(where, `a.source = `+arg(q.Source))
	}
	order := `DESC`
	if q.Oldest {
		order = `ASC`
	}
	query := `SELECT ` + cols + ` FROM ` + from
	if len(where) > 0 {
		query += ` WHERE ` + strings.Join(where, ` AND `)
	}
	query += ` ORDER BY a.ended ` + order + `, a.game_id ` + order + ` LIMIT ` + arg(limit+1) + ` OFFSET ` + arg(max(q.Offset, 0))
	out, err := collect[ArchiveGame](s.r.QueryContext(ctx, query, args...))(
		func(rows *sql.Rows) (ArchiveGame, error) { return scanArchiveGame(rows, q.Pos != 0) })
	if err != nil {
		return nil, false, fmt.Errorf("search games: %w", err)
	}
	more := len(out) > limit
	if more {
		out = out[:limit]
	}
	return out, more, nil
}

func (s *sqlStore) ImportGames(ctx context.Context, imports []ArchiveImport) error {
	f := s.archiveIndexer()
	if f == nil {
		return errors.New("import games: the store has no archive indexer")
	}
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		for i := range imports {
			earlier, err := s.importRecord(ctx, tx, &imports[i], f)
			if err == nil && earlier != "" {
				err = ErrDuplicateRecord
			}
			if err != nil {
				return &ImportError{i, err}
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("import games: %w", err)
	}
	return nil
}

// archiveBatch is how many games ArchiveGames reads at a time.
const archiveBatch = 500

func (s *sqlStore) ArchiveGames(ctx context.Context, after string, f func(g *Game, moves []string) (bool, error)) error {
	for {
		games, err := s.queryGames(ctx, `SELECT `+gameColumns+` FROM games WHERE status = 'finished' AND id > $1 ORDER BY id LIMIT $2`, after, archiveBatch)
		if err != nil {
			return fmt.Errorf("archive games after %q: %w", after, err)
		}
		if len(games) == 0 {
			return nil
		}
		// The moves of the batch in one query, in order.
		moves := map[string][]string{}
		rows, err := s.r.QueryContext(ctx, `SELECT m.game_id, m.move FROM moves m JOIN games g ON g.id = m.game_id
			WHERE g.status = 'finished' AND m.game_id > $1 AND m.game_id <= $2 ORDER BY m.game_id, m.ply`, after, games[len(games)-1].ID)
		if err != nil {
			return fmt.Errorf("archive games after %q: %w", after, err)
		}
		for rows.Next() {
			var id, m string
			if err := rows.Scan(&id, &m); err != nil {
				rows.Close()
				return fmt.Errorf("archive games after %q: %w", after, err)
			}
			moves[id] = append(moves[id], m)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fmt.Errorf("archive games after %q: %w", after, err)
		}
		for _, g := range games {
			more, err := f(g, moves[g.ID])
			if err != nil || !more {
				return err
			}
		}
		after = games[len(games)-1].ID
	}
}

func (s *sqlStore) ClearArchive(ctx context.Context) error {
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		for _, t := range []string{"archive_games", "archive_moves", "archive_player_moves", "archive_positions",
			"archive_recent", "archive_recent_moves"} {
			if _, err := tx.ExecContext(ctx, `DELETE FROM `+t); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("clear the archive: %w", err)
	}
	return nil
}

func (s *sqlStore) IndexGames(ctx context.Context, batch []IndexedGame) (int, error) {
	n := 0
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		n = 0
		for _, ig := range batch {
			did, err := s.writeArchive(ctx, tx, ig.Game, ig.Entry, false)
			if err != nil {
				return err
			}
			if did {
				n++
			}
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("index %d games: %w", len(batch), err)
	}
	return n, nil
}

func (s *sqlStore) ArchiveCounts(ctx context.Context) (ArchiveCounts, error) {
	var c ArchiveCounts
	if _, err := s.MergeArchive(ctx); err != nil {
		return c, err
	}
	for _, q := range []struct {
		table string
		n     *int64
	}{{"archive_games", &c.Games}, {"archive_moves", &c.Moves}, {"archive_player_moves", &c.PlayerMoves}, {"archive_positions", &c.Positions}} {
		if err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM `+q.table).Scan(q.n); err != nil {
			return c, fmt.Errorf("count %s: %w", q.table, err)
		}
	}
	return c, nil
}

func (s *sqlStore) DumpArchive(ctx context.Context, f func(table, row string) error) error {
	if _, err := s.MergeArchive(ctx); err != nil {
		return err
	}
	for _, q := range []struct{ table, sql string }{
		{"archive_games", `SELECT game_id, game, rules, source, rated, speed, band, rating, result, ended, plies, user0, user1, name0, name1 FROM archive_games ORDER BY game_id`},
		{"archive_moves", `SELECT pos, move, source, rated, speed, band, games, wins, draws, losses, rating_sum, rating_n, last_played FROM archive_moves ORDER BY pos, move, source, rated, speed, band`},
		{"archive_player_moves", `SELECT user_id, pos, move, mine, games, wins, draws, losses, last_played FROM archive_player_moves ORDER BY user_id, pos, move, mine`},
		{"archive_positions", `SELECT pos, ended, game_id, ply FROM archive_positions ORDER BY pos, ended, game_id`},
	} {
		rows, err := s.r.QueryContext(ctx, q.sql)
		if err != nil {
			return fmt.Errorf("read %s: %w", q.table, err)
		}
		cols, _ := rows.Columns()
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		for rows.Next() {
			if err := rows.Scan(ptrs...); err != nil {
				rows.Close()
				return fmt.Errorf("read %s: %w", q.table, err)
			}
			parts := make([]string, len(vals))
			for i, v := range vals {
				if b, ok := v.([]byte); ok {
					v = string(b)
				}
				parts[i] = fmt.Sprint(v)
			}
			if err := f(q.table, strings.Join(parts, "\t")); err != nil {
				rows.Close()
				return err
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fmt.Errorf("read %s: %w", q.table, err)
		}
	}
	return nil
}
