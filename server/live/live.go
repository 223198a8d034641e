// Package live is a game being played on the server, as a value: its
// stored row (settings, seats, clocks, offers, status), the rules
// engine's history of it and when each player was last seen. Nothing here
// does I/O, reads a clock or knows a socket: an event (a player's move,
// an offer, a flag that fell at a given time) is applied to a Game and
// gives back the next Game and the Effects its owner must carry out, in
// order: what to save, what to tell the clients, when to arm the timer,
// whether the computer is to move. The owner (package round) saves, and
// only once the save succeeded takes the next Game as the game; a save
// that fails leaves the game as it was, with nothing to undo.
//
// A Game is cheap to copy, and copies share the rules engine's history,
// which no event changes in place: an event that plays or ends the game
// plays on a clone of it. A History handed to a search on another
// goroutine stays as it was.
package live

import (
	"fmt"
	"time"

	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/rating"
	"github.com/magneton-games/magneton/store"
)

// Opponents of a game's creator, as the row records them.
const (
	OpponentComputer = "computer"
	OpponentHuman    = "human"
)

// Places of a computer game's computer (store.Game.ComputerPlace): the
// play server's search, or its player's browser, whose engine finds the
// computer's moves and sends them (Event.Computer). A row's "" is the
// server's.
const (
	ComputerServer  = "server"
	ComputerBrowser = "browser"
)

// Reasons of a game that ended without a result (status store.Aborted):
// a player aborted it before their first move, the side to move let the
// time for its first move pass, its player took back a seek, or nobody
// took it up or played it for Settings.Expire.
const (
	ReasonAborted     = "aborted"
	ReasonNoFirstMove = "no first move"
	ReasonCancelled   = "cancelled"
	ReasonAbandoned   = "abandoned"
)

// Settings are the server's settings that the play of every game follows.
type Settings struct {
	// MaxPlies ends a game as a draw (game.PlyLimit) when it reaches this
	// many moves.
	MaxPlies int
	// FirstMoveTimeout is how long each side of a live game with a clock
	// against a person has for its first move before the game is aborted
	// (a correspondence game gives its time for a move).
	FirstMoveTimeout time.Duration
	// ClaimAfter is how long a player of a live game against a person
	// must be gone before the opponent may claim the game.
	ClaimAfter time.Duration
	// Expire is how long an invitation nobody takes, or a game against
	// the computer nobody moves in, lives before it is aborted.
	Expire time.Duration
	// NoServerComputer: the server's computer is off. A game's computer
	// may then not be handed to the server, nor a server's computer game
	// have a rematch; those made before it was off play on.
	NoServerComputer bool
	// ComputerMoveTime is the computer's time for a move at a level in a
	// game without a clock (computer.Pool.MoveTime), which the states
	// tell a browser that thinks for it; nil tells none.
	ComputerMoveTime func(level int) time.Duration
}

// Game is one game as its owner holds it. The zero Game is no game; make
// one with Load or New.
type Game struct {
	row   store.Game // as committed (or to be committed, for a Game an event returned)
	rules game.Rules
	// hist is the rules engine's game; never changed in place.
	hist *game.Game
	// positions holds the position text after each move. Copies share its
	// array; only the lineage whose value is kept appends to it, and a
	// takeback makes a new one.
	positions []string
	// legal caches the current position's legal moves, filled when first
	// asked; a new position gets a new cache.
	legal    *legalMoves
	computer int // the computer's seat, or -1
	// waiting: the computer is to move and its search waits for a core;
	// its clock stands still meanwhile (it is not saved: a game read again
	// is not waiting until its owner's search waits again).
	waiting bool
	// away is when each seat's player was last seen connected (zero while
	// connected), as Seen was last told.
	away [2]time.Time
	set  Settings
}

type legalMoves struct {
	moves []string
	done  bool
}

// New is a game just made from its row, with no move played: a new game,
// or a rematch (Effects.Rematch).
func New(row *store.Game, set Settings, now time.Time) (Game, error) {
	g, err := Load(row, nil, set, now)
	if err != nil {
		return Game{}, err
	}
	return g.Saved(), nil
}

// Load is a stored game: its row and its moves, replayed by the rules
// engine. Both players count as last seen now, so that nobody may claim
// a game the server has only just read.
func Load(row *store.Game, moves []store.Move, set Settings, now time.Time) (Game, error) {
	hist, rules, err := Replay(row, moves)
	if err != nil {
		return Game{}, err
	}
	g := Game{row: *row, rules: rules, hist: hist, legal: &legalMoves{}, computer: -1, away: [2]time.Time{now, now}, set: set}
	g.row.Owner = ""
	for _, st := range hist.States()[1:] {
		g.positions = append(g.positions, st.String())
	}
	if row.Opponent == OpponentComputer {
		for i, h := range row.Seats {
			if h == "" {
				g.computer = i
			}
		}
	}
	return g, nil
}

// Replay plays a stored game's moves with the rules engine, and ends it
// as the row says when it ended outside the rules (resignation, time).
func Replay(row *store.Game, moves []store.Move) (*game.Game, game.Rules, error) {
	rules, err := games.Rules(row.Game, row.Rules)
	if err != nil {
		return nil, nil, fmt.Errorf("game %s: %w", row.ID, err)
	}
	start, err := rules.ParsePosition(row.Start)
	if err != nil {
		return nil, nil, fmt.Errorf("game %s: start: %w", row.ID, err)
	}
	g := game.NewGame(start)
	for i, m := range moves {
		if m.Ply != i {
			return nil, nil, fmt.Errorf("game %s: move %d is stored as ply %d", row.ID, i+1, m.Ply+1)
		}
		if err := g.Play(m.Move); err != nil {
			return nil, nil, fmt.Errorf("game %s: move %d: %w", row.ID, i+1, err)
		}
	}
	if row.Status == store.Finished {
		if err := endAsRecorded(g, rules.Spec(), row); err != nil {
			return nil, nil, fmt.Errorf("game %s: %w", row.ID, err)
		}
	}
	return g, rules, nil
}

// endAsRecorded ends g, a finished game's moves, as its row says, when the
// moves alone did not end it.
func endAsRecorded(g *game.Game, sp *game.Spec, row *store.Game) error {
	if res, _ := g.Result(); res.Over() {
		return nil
	}
	want, err := game.ParseResult(row.Result)
	if err != nil {
		return err
	}
	ending, err := sp.Ending(row.Reason)
	if err != nil {
		return err
	}
	loser := game.First
	if want == game.FirstWins {
		loser = game.Second
	}
	return g.End(loser, ending)
}

// Row returns the game's row as committed, saying whether it needs an
// owner with nobody watching (Needed).
func (g Game) Row() store.Game {
	r := g.row
	r.NeedsOwner = g.Needed()
	return r
}

// StaleNeed reports whether the row as read says the game needs an owner
// with nobody watching when it does not (a row of an older version, or
// one whose need ended without a write, such as the computer's move): the
// owner writes it before it lets the game go.
func (g Game) StaleNeed() bool { return g.row.NeedsOwner && !g.Needed() }

// Saved is the game once its Row has been written.
func (g Game) Saved() Game {
	g.row = g.Row()
	return g
}

// ID returns the game's id.
func (g Game) ID() string { return g.row.ID }

// Rules returns the rules the game is played under.
func (g Game) Rules() game.Rules { return g.rules }

// Spec returns the game's description.
func (g Game) Spec() *game.Spec { return g.rules.Spec() }

// History returns the rules engine's game: the positions, moves and
// result. It is shared: it must not be changed (clone it to play on).
func (g Game) History() *game.Game { return g.hist }

// Positions returns the position text after each move; the slice must not
// be changed.
func (g Game) Positions() []string { return g.positions }

// Ply returns the number of moves played.
func (g Game) Ply() int { return len(g.hist.Moves()) }

// Computer returns the computer's seat, or -1 in a game between people.
func (g Game) Computer() int { return g.computer }

// Status returns the row's status: store.Waiting, Playing, Finished or
// Aborted.
func (g Game) Status() string { return g.row.Status }

// Live reports whether the game is waiting for a player or being played.
func (g Game) Live() bool { return g.row.Status == store.Waiting || g.row.Status == store.Playing }

// Legal returns the current position's legal moves (none for a game not
// being played); the slice must not be changed.
func (g Game) Legal() []string {
	if g.row.Status != store.Playing {
		return []string{}
	}
	if !g.legal.done {
		g.legal.moves, g.legal.done = g.hist.Position().Moves(), true
	}
	return g.legal.moves
}

// ComputerToMove reports whether the computer is to move in a game being
// played.
func (g Game) ComputerToMove() bool {
	return g.computer >= 0 && g.row.Status == store.Playing && int(g.hist.Position().Side()) == g.computer
}

// BrowserComputer reports whether the game's computer thinks in its
// player's browser, which sends its moves.
func (g Game) BrowserComputer() bool {
	return g.computer >= 0 && g.row.ComputerPlace == ComputerBrowser
}

// ServerToMove reports whether the server's computer is to move: the
// computer is, and thinks on the server.
func (g Game) ServerToMove() bool { return g.ComputerToMove() && !g.BrowserComputer() }

// Clocked reports whether the game has a clock.
func (g Game) Clocked() bool { return g.row.ClockInitial > 0 }

// Started reports whether both sides have made their first move: the
// clocks run from then on, and the game can no longer be aborted.
func (g Game) Started() bool { return g.Ply() >= 2 }

// Running returns the side whose clock runs, or -1. The clocks start once
// each side has made its first move, and the computer's stands still while
// its search waits for a core.
func (g Game) Running() int {
	if !g.Clocked() || g.row.Status != store.Playing || !g.Started() || g.waiting && g.ComputerToMove() {
		return -1
	}
	return int(g.hist.Position().Side())
}

// ComputerWaiting is the game with the computer's search waiting for a core
// (yes) or searching, or not at all (no): while it waits its clock stands
// still. The wait ends with a Rebase to the time of the last move when it
// took long, so that the clock runs again from then.
func (g Game) ComputerWaiting(yes bool) Game {
	g.waiting = yes
	return g
}

// Waiting reports whether the computer's search waits for a core.
func (g Game) Waiting() bool { return g.waiting && g.ComputerToMove() }

// Remaining returns both clocks as of now.
func (g Game) Remaining(now time.Time) [2]time.Duration {
	r := g.row.Remaining
	if run := g.Running(); run >= 0 {
		r[run] -= now.Sub(time.UnixMilli(g.row.ClockAt))
	}
	return r
}

// FirstMoveDeadline returns when the side to move must make its first
// move, in a game with a clock against a person, or see the game aborted;
// false when there is no such deadline (the game has begun, or is against
// the computer, or has no clock).
func (g Game) FirstMoveDeadline() (time.Time, bool) {
	if !g.Clocked() || g.computer >= 0 || g.row.Status != store.Playing || g.Started() {
		return time.Time{}, false
	}
	wait := g.set.FirstMoveTimeout
	if g.row.PerMove {
		wait = g.row.ClockInitial
	}
	return time.UnixMilli(g.row.ClockAt).Add(wait), true
}

// StoppedAt is when the game's last owner stopped running it (ms since the
// epoch), for a new owner when no instance held the game: what it charges
// the clock up to (Rebase), and no more. A running clock is saved as of
// the stop; before the first moves, a Pause notes the stop as the row's
// last change.
func (g Game) StoppedAt() int64 {
	if _, first := g.FirstMoveDeadline(); first && g.row.Updated > g.row.ClockAt {
		return g.row.Updated
	}
	return g.row.ClockAt
}

// Timer returns when the game's timer must fire, the Flag event then
// applied: at the first-move deadline, or when the running side's time
// runs out (at once when it has); false when nothing waits on time.
func (g Game) Timer(now time.Time) (time.Time, bool) {
	if at, ok := g.FirstMoveDeadline(); ok {
		return at, true
	}
	run := g.Running()
	if run < 0 {
		return time.Time{}, false
	}
	return now.Add(max(g.Remaining(now)[run], 0)), true
}

// Needed reports whether the game needs its owner with nobody watching:
// it is being played and its clock runs or the server's computer is to
// move (a browser's computer moves only with its player there).
func (g Game) Needed() bool {
	return g.row.Status == store.Playing && (g.Clocked() || g.ServerToMove())
}

// lastMoveBy returns the ply of seat's last move, or -1 when it has made
// none.
func (g Game) lastMoveBy(seat int) int {
	states := g.hist.States()
	for p := g.Ply() - 1; p >= 0; p-- {
		if int(states[p].Side()) == seat {
			return p
		}
	}
	return -1
}

// moved reports whether seat has made a move in the game.
func (g Game) moved(seat int) bool { return g.lastMoveBy(seat) >= 0 }

// Abortable reports whether seat may abort the game now: it is being
// played and seat has not moved yet.
func (g Game) Abortable(seat int) bool {
	return seat >= 0 && g.row.Status == store.Playing && !g.moved(seat)
}

// TakebackAllowed reports whether seat may ask to take a move back: in the
// computer's games always, in casual games against a person by the
// opponent's leave, and only when seat has a move to take back.
func (g Game) TakebackAllowed(seat int) bool {
	return seat >= 0 && g.row.Status == store.Playing && (g.computer >= 0 || !g.row.Rated) && g.moved(seat)
}

// Seen notes who is connected at now: a player who is not has been away
// since the first time Seen was told so. The opponent may claim the game
// once a player has been away for Settings.ClaimAfter.
func (g Game) Seen(connected [2]bool, now time.Time) Game {
	for i := range g.away {
		switch {
		case connected[i]:
			g.away[i] = time.Time{}
		case g.away[i].IsZero():
			g.away[i] = now
		}
	}
	return g
}

// AwaySince returns when seat's player was last seen connected, zero
// while connected (as Seen was last told).
func (g Game) AwaySince(seat int) time.Time { return g.away[seat] }

// claimWait returns how long the opponent of side must still wait to claim
// the game against side's player, who left, or -1 when a claim is not
// possible at all: only in a live game against a person (a correspondence
// game has its clock for that).
func (g Game) claimWait(side int, now time.Time) time.Duration {
	if g.row.Status != store.Playing || g.computer >= 0 || g.row.PerMove || g.away[side].IsZero() {
		return -1
	}
	return max(g.set.ClaimAfter-now.Sub(g.away[side]), 0)
}

// Claimable reports whether the opponent of side may claim the game now.
func (g Game) Claimable(side int, now time.Time) bool { return g.claimWait(side, now) == 0 }

// Follow brings a game that another instance owns up to that owner's
// announcement of its row after a change, when the change is at most one
// move (move, the ply-th); false when the follower must read the database
// instead.
func (g Game) Follow(row *store.Game, ply int, move string) (Game, bool) {
	if row == nil || row.ID != g.row.ID || row.Moves != ply {
		return g, false
	}
	switch ply {
	case g.Ply():
	case g.Ply() + 1:
		hist := g.hist.Clone()
		if err := hist.Play(move); err != nil {
			return g, false
		}
		g.hist, g.legal = hist, &legalMoves{}
		g.positions = append(g.positions, hist.Position().String())
	default:
		return g, false
	}
	if row.Status == store.Finished {
		if res, _ := g.hist.Result(); !res.Over() {
			hist := g.hist.Clone()
			if endAsRecorded(hist, g.Spec(), row) != nil {
				return g, false
			}
			g.hist = hist
		}
	}
	g.row, g.legal = *row, &legalMoves{}
	g.row.Owner = ""
	return g, true
}

// WithDiffs is the game with the rating changes a rated game's end made
// (store.Store.RateGame writes them to the row).
func (g Game) WithDiffs(diffs [2]int) Game {
	g.row.Diffs = diffs
	return g
}

// ClaimGuest is the game after a guest (by the hash of its guest token)
// signed up as the account userID named name, the database written
// already; false when the guest has no seat in it.
func (g Game) ClaimGuest(guestHash, userID, name string) (Game, bool) {
	changed := false
	for i := range 2 {
		if g.row.Guests[i] == guestHash && g.row.Users[i] == "" {
			g.row.Users[i], g.row.Players[i], g.row.Guests[i] = userID, name, ""
			changed = true
		}
	}
	return g, changed
}

// ForgetUser is the game after the account userID was deleted, the
// database written already (store.Privacy.DeleteUser): its seats show
// store.DeletedPlayer, with no account, guest or seat token; false when
// the account has no seat in it.
func (g Game) ForgetUser(userID string) (Game, bool) {
	changed := false
	for i := range 2 {
		if userID != "" && g.row.Users[i] == userID {
			g.row.Users[i], g.row.Players[i], g.row.Guests[i], g.row.Seats[i] = "", store.DeletedPlayer, "", ""
			changed = true
		}
	}
	return g, changed
}

// SeenAs is the game with the away times of prev, the same game as it was
// before it was read again.
func (g Game) SeenAs(prev Game) Game {
	if prev.hist != nil {
		g.away = prev.away
	}
	return g
}

// Kind names an event: the players' actions (the types of their socket
// messages) and what the server does to a game by itself.
type Kind string

// The events.
const (
	// The players' actions: Seat acts; Move is a move's text, Action a
	// draw's, takeback's or rematch's "offer", "accept" or "decline", a
	// claim's "win" or "draw".
	Move     Kind = "move"
	Resign   Kind = "resign"
	Draw     Kind = "draw"
	Takeback Kind = "takeback"
	Rematch  Kind = "rematch" // NewID: the id the rematch gets if this event starts it
	Abort    Kind = "abort"
	Cancel   Kind = "cancel" // a seek taken back by its player
	Claim    Kind = "claim"
	// Join gives the free seat of a waiting game to Player, the holder of
	// the token whose hash is Token: with Invite, the hash of the
	// invitation given ("" for none, which only a public game takes), and,
	// for a rated game, the joiner's Rating.
	Join Kind = "join"
	// Flag: the game's timer fired (Game.Timer).
	Flag Kind = "flag"
	// Expire: the server's sweep of games nobody took up or played.
	Expire Kind = "expire"
	// Rebase starts a new stretch of the running clock now, charging the
	// running side up to ChargeUntil (ms since the epoch) and no more: for
	// an owner that took the game over (the time the game had no running
	// owner is nobody's), and for the computer once its search has a
	// core (the wait is not its time).
	Rebase Kind = "rebase"
	// Pause saves the running clock as of now, for a server that stops:
	// the downtime is not charged.
	Pause Kind = "pause"
	// HandOver gives a computer that thinks in the browser of Seat, the
	// game's player, to the server (Where "server"), when the browser's
	// engine cannot go on.
	HandOver Kind = "computer"
)

// Event is something that happens to a game at a time.
type Event struct {
	Kind   Kind
	Seat   int
	Move   string
	Action string
	// Join's.
	Token, Invite string
	Player        Player
	Rating        rating.Rating
	// Rematch's.
	NewID string
	// Rebase's.
	ChargeUntil int64
	// A Move's with Computer: the move is the computer's, found by the
	// browser of Seat, the game's player, for the position after Ply
	// moves (and, if not "", the position Position).
	Computer bool
	Ply      int
	Position string
	// HandOver's new place of the computer.
	Where string
}

// Player is who takes a seat: an account, or a guest.
type Player struct {
	Name  string // shown to everyone
	User  string // the account's id, or ""
	Guest string // the hash of a guest's token, or ""
	Bot   bool   `json:",omitempty"` // a bot account's
}

// Save is what an event's owner writes to the store, the next Game's row
// with it.
type Save int

// What to save.
const (
	SaveNone     Save = iota
	SaveRow           // store.Store.UpdateGame
	SaveMove          // store.Store.AddMove with Effects.Move
	SaveTakeBack      // store.Store.TakeBack from Effects.FromPly
	SaveRematch       // store.Store.CreateRematch with Effects.Rematch
)

// Send is what the clients are told once the save succeeded.
type Send int

// What to send.
const (
	SendNone   Send = iota
	SendUpdate      // a wire.Update to each client
	SendState       // the whole wire.State (after a change an update cannot say)
)

// Effects are what the owner of a game must do after an event, in order:
// save (nothing else happens when that fails), tell the other instances
// and the clients, then, for a game that ended, stop its computer and
// timer and rate it; else arm the timer for Timer and start the
// computer's search if Computer.
type Effects struct {
	Save    Save
	Move    store.Move  // SaveMove's
	FromPly int         // SaveTakeBack's
	Rematch *store.Game // SaveRematch's new game; a rated one's Ratings are the owner's to fill
	Send    Send
	// Ended: the event ended the game.
	Ended bool
	// StopComputer: the computer's search going on is for a position the
	// event took back.
	StopComputer bool
	// Timer is when to fire the timer (Game.Timer), HasTimer false for
	// no timer.
	Timer    time.Time
	HasTimer bool
	// Computer: the server's computer is to move.
	Computer bool
	// Seat is the seat a Join gave.
	Seat int
	// Then is an event to apply once this one is saved (the computer
	// declines a draw it was offered).
	Then *Event
}
