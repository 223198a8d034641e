// Package store keeps the play server's games in a SQL database: one row
// per game with its settings, seats and current state, and one row per
// move. The server writes every accepted move in a transaction before it
// tells anyone about it, and reloads the unfinished games at start.
//
// Store is an interface so that another database can follow; the SQL is
// portable ($1 placeholders, no SQLite-only syntax) and the schema is
// applied with goose migrations embedded in the binary. Open knows SQLite
// (the pure-Go modernc.org/sqlite driver, in WAL mode).
package store

import (
	"context"
	"errors"
	"time"
)

// ErrNotFound is returned when no game has the id asked for.
var ErrNotFound = errors.New("no such game")

// ErrNotOwner is returned when a write of a game is refused because the
// writer (Game.Owner) does not hold the game's lease: another server
// instance runs the game now.
var ErrNotOwner = errors.New("another server instance runs this game now")

// Game statuses.
const (
	Waiting  = "waiting"  // a game against a person with a free seat
	Playing  = "playing"  // both seats taken, not over
	Finished = "finished" // over
	// Aborted: given up by the server before it was over (an invitation
	// nobody took, a game abandoned for a day); it has no result and is
	// never resumed.
	Aborted = "aborted"
)

// Game is one game's row.
type Game struct {
	ID       string
	Game     string // the game's name, as games.Lookup knows it
	Rules    string // the settings, as game.Settings writes them
	Start    string // the starting position text
	Opponent string // "computer" or "human"
	Level    int    // the computer's level, 1 to 8, for computer games
	// ComputerPlace is where a computer game's computer thinks: "" or
	// "server" for the play server's search, "browser" for its player's
	// browser, which sends the computer's moves (the server checks them
	// as any move).
	ComputerPlace string
	// Players holds the display name of each side's player ("" for a free
	// seat).
	Players [2]string
	// Seats holds a hash of each seat's token ("" for a free seat or the
	// computer's); Invite a hash of the invitation token.
	Seats  [2]string
	Invite string
	// Users holds the account id of each seat's player ("" for a guest,
	// the computer or a free seat); Guests the hash of a guest player's
	// guest token, so that the games follow a guest who signs up.
	Users  [2]string
	Guests [2]string
	// Bots marks each seat held by a bot account (Bots.MakeBot).
	Bots [2]bool
	// Rated games (between accounts) change the players' ratings of
	// Family, the name of the game's variant their rules are. Ratings
	// holds each player's rating as shown when the game began ("1500?"),
	// Diffs the change the game made once it ended (written by
	// RateGame); MinRating and MaxRating (0 for none) bound the rating of
	// whoever takes the free seat.
	Rated                bool
	Family               string
	Ratings              [2]string
	Diffs                [2]int
	MinRating, MaxRating int
	Public               bool
	Status               string // Waiting, Playing, Finished or Aborted
	Result               string // "*", "1-0", "0-1", "1/2-1/2"
	Reason               string // how the game ended: the word of its game.Ending ("line", "resignation")
	Moves                int    // the number of moves played
	// Position is the current position text.
	Position string
	// Clock: initial time and increment (both 0 for a game without a
	// clock), each side's remaining time as of ClockAt (ms since the epoch).
	ClockInitial   time.Duration
	ClockIncrement time.Duration
	Remaining      [2]time.Duration
	ClockAt        int64
	// PerMove marks a correspondence clock: ClockInitial is the time for
	// each move, and the mover's clock is set back to it after every move
	// (ClockIncrement is 0).
	PerMove   bool
	DrawOffer int // the side offering a draw, or -1
	// TakebackBy is the side asking to take back its last move, or -1.
	TakebackBy  int
	RematchBy   int    // the side asking for a rematch, or -1
	RematchGame string // the id of the rematch once accepted
	RematchOf   string // the id of the game this one is a rematch of
	Created     int64  // ms since the epoch
	Updated     int64  // ms since the epoch
	// NeedsOwner says that the game needs an instance running it with
	// nobody watching: its clock runs or the computer is to move (Orphans
	// lists those whose instance is gone).
	NeedsOwner bool
	// Tournament is the id of the tournament that made the game, "" for
	// none.
	Tournament string
	// Source is where a finished game comes from: "" for a game played on
	// this site, else the source of an imported record (ArchiveSource):
	// "boardspace" or "import". Imported games are never rated and stay
	// out of the lobby's lists.
	Source string
	// Ended is when the game ended (ms since the epoch), set by the write
	// that finishes it; for an imported game, the day it was played. 0
	// while it is not over.
	Ended int64
	// Owner is not stored with the game: it names the server instance
	// that writes it. A write with an Owner succeeds only while that
	// instance holds the game's lease (ErrNotOwner otherwise), and
	// CreateGame gives it the lease; "" writes without a lease (a single
	// server, tools).
	Owner string
}

// Move is one move's row.
type Move struct {
	Ply      int    // 0 for the first move
	Move     string // in the game's notation
	PlayedAt int64  // ms since the epoch
	// Clock is the mover's remaining time after the move (with its
	// increment), 0 without a clock.
	Clock time.Duration
}

// Notification is one message of Store.Notify.
type Notification struct {
	Channel, Payload string
	// Reconnected: the listener's connection was lost and made again;
	// notifications of the gap may be missing.
	Reconnected bool
}

// Query selects games for a list.
type Query struct {
	Status     string // Waiting, Playing or Finished
	PublicOnly bool
	// Before pages back through a list: only games listed after the game
	// with this id (older ones) are returned.
	Before string
	Limit  int // at most this many; 0 means 50
}

// Games keeps the games: one row a game with its settings, seats and
// current state, and its moves.
type Games interface {
	// CreateGame inserts a new game.
	CreateGame(ctx context.Context, g *Game) error
	// CreateRematch inserts the rematch next and records it in old, in one
	// transaction.
	CreateRematch(ctx context.Context, old, next *Game) error
	// Game returns a game by id, or ErrNotFound.
	Game(ctx context.Context, id string) (*Game, error)
	// Moves returns a game's moves in order.
	Moves(ctx context.Context, id string) ([]Move, error)
	// UpdateGame writes every changeable field of g.
	UpdateGame(ctx context.Context, g *Game) error
	// AddMove inserts the move and updates the game, in one transaction.
	AddMove(ctx context.Context, g *Game, m Move) error
	// TakeBack removes a game's moves from ply fromPly on and writes its
	// row g, in one transaction (as UpdateGame for the lease).
	TakeBack(ctx context.Context, g *Game, fromPly int) error
	// List returns games by status, the most recently updated first.
	List(ctx context.Context, q Query) ([]*Game, error)
	// Unfinished returns every game waiting or being played.
	Unfinished(ctx context.Context) ([]*Game, error)
	// PlayerGames returns the unfinished games in which an account (by
	// id) or a guest (by the hash of its token) holds a seat.
	PlayerGames(ctx context.Context, userID, guestHash string) ([]*Game, error)
	// PlaysPosition reports whether an account or guest plays a game
	// against a person now in a position.
	PlaysPosition(ctx context.Context, position, userID, guestHash string) (bool, error)
}

// Leases say which server instance runs each game in play: each
// instance beats while it is alive, and holds the leases of the games it
// runs as long as it beats.
type Leases interface {
	// Beat records that a server instance is alive at a time (ms since the
	// epoch); LastBeat returns the last such time, 0 if none.
	Beat(ctx context.Context, instance string, at int64) error
	LastBeat(ctx context.Context, instance string) (int64, error)
	// AcquireLease gives instance the lease of a game if nobody holds it
	// or its holder is dead: its last heartbeat came before deadBefore (ms
	// since the epoch). A lease lives as long as its holder beats. It
	// returns the holder after the attempt (instance when it got or kept
	// it) and the holder before it ("" for none).
	AcquireLease(ctx context.Context, game, instance string, deadBefore int64) (owner, previous string, err error)
	// HeldLeases returns the games whose lease instance holds.
	HeldLeases(ctx context.Context, instance string) ([]string, error)
	// LeaseOwner returns who holds a game's lease ("" for nobody) and its
	// holder's last heartbeat.
	LeaseOwner(ctx context.Context, game string) (owner string, lastBeat int64, err error)
	// ReleaseLease gives up instance's lease of a game, if it holds it.
	ReleaseLease(ctx context.Context, game, instance string) error
	// Orphans returns the games being played that need an instance to run
	// them (Game.NeedsOwner), whose lease is missing or whose holder is
	// dead (last heartbeat before deadBefore).
	Orphans(ctx context.Context, deadBefore int64) ([]string, error)
	// Ownerless returns every game being played whose lease is missing or
	// whose holder is dead, with a clock or without: one query for what
	// would otherwise be a question per game followed.
	Ownerless(ctx context.Context, deadBefore int64) ([]string, error)
}

// Notifier carries messages between the instances sharing the database.
type Notifier interface {
	// Notify sends payload (at most 7,000 bytes) to every listener of
	// channel, in this process and, on PostgreSQL, in every process on
	// the same database, after the current transactions commit.
	Notify(ctx context.Context, channel, payload string) error
	// Listen delivers the notifications of the channels until ctx ends.
	// After a lost connection to the database the listener reconnects
	// and delivers a Notification with Reconnected set, since some may
	// have been missed meanwhile.
	Listen(ctx context.Context, channels ...string) (<-chan Notification, error)
}

// Accounts keeps the players' accounts.
type Accounts interface {
	// CreateUser adds an account; ErrNameTaken when another has the name
	// in any case, or one that reads the same (LookKey).
	CreateUser(ctx context.Context, u *User) error
	// UserByName finds an account by name, in any case; UserByID by id.
	// Both return ErrNoUser when there is none.
	UserByName(ctx context.Context, name string) (*User, error)
	UserByID(ctx context.Context, id string) (*User, error)
	// SetPassword replaces an account's password hash; SetEmail its
	// e-mail address ("" for none).
	SetPassword(ctx context.Context, userID, password string) error
	SetEmail(ctx context.Context, userID, email string) error
	// UsersByEmail returns the accounts with an e-mail address, in any
	// case, at most limit of them, the oldest first.
	UsersByEmail(ctx context.Context, email string, limit int) ([]*User, error)
	// ClaimGuestGames gives the games a guest played or plays (by the
	// hash of its guest token) to an account, and returns how many seats
	// changed. A server still holding a game from before writes it back
	// without undoing the claim (UpdateGame keeps a seat's account).
	ClaimGuestGames(ctx context.Context, guestHash string, u *User) (int, error)
}

// Sessions keeps the logins: a browser's session token, hashed, for an
// account.
type Sessions interface {
	// CreateSession logs a browser in: the hash of its session token, for
	// an account, its browser in short (agent), at a time (ms since the
	// epoch).
	CreateSession(ctx context.Context, tokenHash, userID, agent string, at int64) error
	// SessionUser returns the account of a session made after
	// createdAfter (older ones have expired), or ErrNoSession.
	SessionUser(ctx context.Context, tokenHash string, createdAfter int64) (*User, error)
	// DeleteSessions logs out the session with tokenHash, or, when
	// tokenHash is "", every session of the account.
	DeleteSessions(ctx context.Context, userID, tokenHash string) error
	// Sessions returns an account's sessions made after createdAfter,
	// the last seen first; TouchSession records that a session was seen
	// at a time (never earlier than it was).
	Sessions(ctx context.Context, userID string, createdAfter int64) ([]Session, error)
	TouchSession(ctx context.Context, tokenHash string, at int64) error
	// EndSession logs out the account's session whose ID is id (false
	// when it has none); EndOtherSessions every session of the account
	// but the one with keepTokenHash, returning how many.
	EndSession(ctx context.Context, userID, id string) (bool, error)
	EndOtherSessions(ctx context.Context, userID, keepTokenHash string) (int, error)
}

// Resets keeps the one-time links that set a new password, by the hash
// of their token.
type Resets interface {
	// CreateReset stores a link (and forgets the expired ones).
	CreateReset(ctx context.Context, r Reset) error
	// UseReset sets the password hash of the account of a link valid at
	// now, in one transaction that deletes the link and the account's
	// other links and logs out every session of the account; it returns
	// the account, or ErrNoReset.
	UseReset(ctx context.Context, tokenHash, password string, now int64) (*User, error)
}

// Privacy is an account's own data: all of it, for its owner to
// download, and its erasure.
type Privacy interface {
	// AccountData returns everything kept about an account.
	AccountData(ctx context.Context, userID string) (*AccountData, error)
	// DeleteUser deletes an account in one transaction: its games stay,
	// its seats in them and its chat lines shown as DeletedPlayer; its
	// ratings and their history, sessions, lesson progress, puzzle
	// attempts, reset links and e-mail go, and its name is free again.
	// ErrPlaying when it has games waiting or being played, ErrNoUser
	// when there is no such account.
	DeleteUser(ctx context.Context, userID string) error
}

// Ratings keeps the ratings of rated games, their history, and each
// account's finished games.
type Ratings interface {
	// Ratings returns an account's ratings; Rating one of them (false
	// when the account has none in that game and family yet);
	// RatingHistory every rating after a rated game, oldest first.
	Ratings(ctx context.Context, userID string) ([]Rating, error)
	Rating(ctx context.Context, userID, game, family string) (Rating, bool, error)
	RatingHistory(ctx context.Context, userID string) ([]RatingPoint, error)
	// Leaderboard returns the best ratings of a game and family whose
	// deviation is at most maxRD, best first: people only, but for a
	// bots' family (BotFamilyPrefix), which lists its bots.
	Leaderboard(ctx context.Context, game, family string, maxRD float64, limit int) ([]Leader, error)
	// UserGames returns an account's finished games, newest first, paged
	// as List; the public ones only with publicOnly.
	UserGames(ctx context.Context, userID, before string, limit int, publicOnly bool) ([]*Game, error)
	// RatedBetween counts the finished rated games of two accounts with
	// each other updated at or after since (ms since the epoch).
	RatedBetween(ctx context.Context, a, b string, since int64) (int, error)
	// UserRecord counts an account's finished games won, drawn and lost.
	UserRecord(ctx context.Context, userID string) (wins, draws, losses int, err error)
	// RateGame applies a finished rated game's result to its players'
	// ratings, once (ErrRated after): in one transaction it takes both
	// ratings (fresh for a player without one), has update compute the
	// new ones, writes them and their history, and the change of each
	// (rounded) into g.Diffs and the game's row.
	RateGame(ctx context.Context, g *Game, fresh Rating, update func(a, b Rating) (Rating, Rating, error)) ([2]Rating, error)
}

// Chats keeps the games' chat lines.
type Chats interface {
	// AddChat stores a chat line; Chat returns a game's lines from seq
	// fromSeq on, in order.
	AddChat(ctx context.Context, l ChatLine) error
	Chat(ctx context.Context, gameID string, fromSeq int) ([]ChatLine, error)
}

// Reviews keeps the engine's reviews of finished games.
type Reviews interface {
	// StartReview records that an instance starts a game's review unless
	// it has one that is done or fresh (written after staleBefore); it
	// returns the review after the attempt and whether the caller now
	// computes it. SaveReview writes its progress while the caller still
	// computes it (ErrNotOwner after another took it over); Review reads
	// it (ErrNoReview when there is none).
	StartReview(ctx context.Context, r *Review, staleBefore int64) (*Review, bool, error)
	SaveReview(ctx context.Context, r *Review) error
	Review(ctx context.Context, gameID string) (*Review, error)
}

// Puzzles keeps the puzzles' ratings and the solvers' attempts.
type Puzzles interface {
	// PuzzleRatings returns the rated puzzles' ratings by id; Attempted
	// the puzzles an account has tried; RatePuzzle applies an account's
	// first attempt at a puzzle to both ratings (ErrAttempted after).
	PuzzleRatings(ctx context.Context) (map[string]PuzzleRating, error)
	Attempted(ctx context.Context, userID string) (map[string]bool, error)
	RatePuzzle(ctx context.Context, userID, puzzleID, game string, solved bool, at int64,
		freshUser Rating, freshPuzzle PuzzleRating, update func(user Rating, puzzle PuzzleRating) (Rating, PuzzleRating, error)) (Rating, PuzzleRating, error)
	// AddPuzzlePlay records every attempt, rated or not, for the
	// account's puzzle history; PuzzlePlays reads it, newest first.
	AddPuzzlePlay(ctx context.Context, userID string, p PuzzlePlay) error
	PuzzlePlays(ctx context.Context, userID, game string, limit int) ([]PuzzlePlay, error)
}

// Lessons keeps the lessons each account has solved.
type Lessons interface {
	// LearnProgress returns the lessons an account has solved, by game;
	// AddLearnProgress adds some of a game's and returns them all.
	LearnProgress(ctx context.Context, userID string) (map[string][]string, error)
	AddLearnProgress(ctx context.Context, userID, game string, solved []string, at int64) ([]string, error)
	// LearnStars returns the stars an account has won at each stage of
	// the lessons, by game and "<lesson id>:<stage>"; AddLearnStars keeps
	// the better of those given and those kept, and returns them all.
	LearnStars(ctx context.Context, userID string) (map[string]map[string]int, error)
	AddLearnStars(ctx context.Context, userID, game string, stars map[string]int, at int64) (map[string]int, error)
}

// Moderation keeps what the site's moderators know and do: each account's
// standing (role, mute, ban, closure), the players' reports and blocks,
// the log of the moderators' actions, where each account was seen, and the
// removal of a game from the ratings.
type Moderation interface {
	// Standing returns an account's standing (ErrNoUser for none);
	// SetStanding writes it.
	Standing(ctx context.Context, userID string) (Standing, error)
	SetStanding(ctx context.Context, userID string, st Standing) error
	// AddReport stores a report; Reports lists the open ones (or the
	// closed), newest first; Report reads one (ErrNoReport); CloseReport
	// closes an open one with its outcome.
	AddReport(ctx context.Context, r *Report) error
	Reports(ctx context.Context, open bool, limit int) ([]Report, error)
	Report(ctx context.Context, id string) (Report, error)
	CloseReport(ctx context.Context, id, by, outcome string, at int64) error
	// Block and Unblock change whom an account blocks; Blocks lists the
	// names it blocks; Blocked reports whether either of two accounts
	// blocks the other.
	Block(ctx context.Context, userID, blocked string, at int64) error
	Unblock(ctx context.Context, userID, blocked string) error
	Blocks(ctx context.Context, userID string) ([]string, error)
	Blocked(ctx context.Context, a, b string) (bool, error)
	// LogAction logs a moderator's action; ModLog reads the newest.
	LogAction(ctx context.Context, a *ModAction) error
	ModLog(ctx context.Context, limit int) ([]ModAction, error)
	// Seen notes where an account was seen (SeenAddress, SeenBrowser);
	// Shared returns the kinds of place where two accounts were both seen.
	Seen(ctx context.Context, userID, kind, value string, at int64) error
	Shared(ctx context.Context, a, b string) ([]string, error)
	// RatedGames returns the finished games whose result is in an
	// account's rating; VoidGame takes one game's result off both its
	// players' ratings (ErrNotVoidable when it is in none).
	RatedGames(ctx context.Context, userID string) ([]string, error)
	VoidGame(ctx context.Context, gameID string, at int64) error
}

// Store is the whole database: each of the interfaces above, which the
// server's packages take one or a few of. It is safe for concurrent use.
type Store interface {
	Games
	Leases
	Notifier
	Accounts
	Sessions
	Resets
	Privacy
	Ratings
	Chats
	Reviews
	Puzzles
	Lessons
	Moderation
	Tournaments
	Bots
	Archive
	// Ping checks that the database answers.
	Ping(ctx context.Context) error
	// Close closes the database.
	Close() error
}
