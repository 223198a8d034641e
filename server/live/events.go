package live

import (
	"fmt"
	"math"
	"time"

	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/rating"
	"github.com/magneton-games/magneton/server/wire"
	"github.com/magneton-games/magneton/store"
)

// Apply applies an event at now. It returns the next game and what to do,
// or a refusal (a wire.Refusal) with g and no effects. A few refusals
// come with effects to carry out all the same (a move when the mover's
// time is up ends the game on time and refuses the move): then the next
// Game is the one to save, and the refusal is what the client hears once
// it is saved.
func (g Game) Apply(ev Event, now time.Time) (Game, Effects, error) {
	next, fx, err := g.apply(ev, now)
	if fx.Save == SaveNone && fx.Send == SendNone {
		next = g
	}
	fx.Timer, fx.HasTimer = next.Timer(now)
	fx.Computer = next.ServerToMove()
	return next, fx, err
}

func (g Game) apply(ev Event, now time.Time) (Game, Effects, error) {
	switch ev.Kind {
	case Move:
		if ev.Computer {
			return g.computerMove(ev, now)
		}
		return g.move(ev.Seat, ev.Move, now)
	case HandOver:
		return g.handOver(ev.Seat, ev.Where, now)
	case Resign:
		return g.resign(ev.Seat, now)
	case Draw:
		return g.draw(ev.Seat, ev.Action, now)
	case Takeback:
		return g.takeback(ev.Seat, ev.Action, now)
	case Rematch:
		return g.rematch(ev.Seat, ev.Action, ev.NewID, now)
	case Abort:
		return g.abort(ev.Seat, now)
	case Cancel:
		return g.cancel(now)
	case Claim:
		return g.claim(ev.Seat, ev.Action, now)
	case Join:
		return g.join(ev, now)
	case Flag:
		return g.flag(now)
	case Expire:
		return g.expire(now)
	case Rebase:
		return g.rebase(now, ev.ChargeUntil)
	case Pause:
		return g.pause(now)
	}
	return g, Effects{}, wire.Refusef("unknown message type %q", ev.Kind)
}

// update is the game with a changed row (an offer, a seat), saved and
// shown.
func (g Game) update(row store.Game, now time.Time) (Game, Effects, error) {
	row.Updated = now.UnixMilli()
	g.row = row
	return g, Effects{Save: SaveRow, Send: SendUpdate}, nil
}

// checkPlaying refuses actions on a game not being played.
func (g Game) checkPlaying() error {
	switch g.row.Status {
	case store.Waiting:
		return wire.Refuse("not_started", "the game has not started: waiting for an opponent")
	case store.Finished:
		return wire.Refuse("game_over", fmt.Sprintf("the game is over (%s, %s)", g.row.Result, g.row.Reason), "result", g.row.Result, "reason", g.row.Reason)
	case store.Aborted:
		return g.abortedRefusal()
	}
	return nil
}

// abortedRefusal says why an aborted game was aborted, refusing an action
// on it.
func (g Game) abortedRefusal() error {
	switch g.row.Reason {
	case ReasonAborted:
		return wire.Refuse("aborted", "the game was aborted")
	case ReasonNoFirstMove:
		return wire.Refuse("aborted_no_first_move", "the game was aborted: a player did not make their first move in time")
	case ReasonCancelled:
		return wire.Refuse("cancelled", "the game was cancelled before anyone took it up")
	}
	return wire.Refuse("abandoned", fmt.Sprintf("the game was aborted: nobody played it for %v", g.set.Expire), "hours", fmt.Sprint(int(g.set.Expire.Hours())))
}

// move plays a move for side.
func (g Game) move(side int, mv string, now time.Time) (Game, Effects, error) {
	if mv == "" {
		return g, Effects{}, wire.Refusef("move: no move given")
	}
	if err := g.checkPlaying(); err != nil {
		return g, Effects{}, err
	}
	if int(g.hist.Position().Side()) != side {
		return g, Effects{}, wire.Refuse("not_your_turn", mv+": it is not your turn", "move", mv)
	}
	rem := g.Remaining(now)
	if g.Clocked() && rem[side] <= 0 {
		next, fx, err := g.end(game.Side(side), game.Timeout, now)
		if err != nil {
			return g, Effects{}, err
		}
		return next, fx, wire.Refuse("time_up", mv+": your time is up", "move", mv)
	}
	// The move as the game writes it: a record keeps one spelling.
	canon, err := g.hist.Position().Notation(mv)
	hist := g.hist.Clone()
	if err == nil {
		err = hist.Play(canon)
	}
	if err != nil {
		// The rules engine says why, in English and as a code.
		return g, Effects{}, wire.Refuse("illegal_move", err.Error(), append([]string{"move", mv}, wire.Because(err, "illegal", mv, canon)...)...)
	}
	if res, _ := hist.Result(); !res.Over() && len(hist.Moves()) >= g.set.MaxPlies {
		hist.End(0, game.PlyLimit) // cannot fail: the game goes on
	}
	nr := g.row
	nr.Moves++
	nr.Position = hist.Position().String()
	nr.Updated = now.UnixMilli()
	m := store.Move{Ply: nr.Moves - 1, Move: canon, PlayedAt: now.UnixMilli()}
	if g.Clocked() {
		switch {
		case nr.PerMove:
			rem[side] = nr.ClockInitial // a correspondence clock: the time for the next move
		case nr.Moves > 2:
			rem[side] += nr.ClockIncrement // not for a first move: the clocks did not run
		}
		nr.Remaining, nr.ClockAt = rem, now.UnixMilli()
		m.Clock = rem[side]
	}
	if nr.DrawOffer == 1-side {
		nr.DrawOffer = -1 // moving on declines the opponent's offer
	}
	nr.TakebackBy = -1 // and cancels a takeback request
	res, why := hist.Result()
	if res.Over() {
		nr.Status, nr.Result, nr.Reason, nr.DrawOffer = store.Finished, res.String(), why.String(), -1
	}
	g.row, g.hist, g.legal = nr, hist, &legalMoves{}
	g.positions = append(g.positions, nr.Position)
	return g, Effects{Save: SaveMove, Move: m, Send: SendUpdate, Ended: res.Over()}, nil
}

// end ends the game by an ending from outside the rules against side (or
// drawn), saved and shown.
func (g Game) end(side game.Side, ending *game.Ending, now time.Time) (Game, Effects, error) {
	hist := g.hist.Clone()
	if err := hist.End(side, ending); err != nil {
		return g, Effects{}, wire.Refusal{Msg: err.Error()}
	}
	nr := g.row
	res, why := hist.Result()
	nr.Status, nr.Result, nr.Reason = store.Finished, res.String(), why.String()
	if g.Clocked() {
		nr.Remaining = g.Remaining(now)
		for i := range nr.Remaining {
			nr.Remaining[i] = max(nr.Remaining[i], 0)
		}
		nr.ClockAt = now.UnixMilli()
	}
	nr.DrawOffer = -1
	nr.Updated = now.UnixMilli()
	g.row, g.hist = nr, hist
	return g, Effects{Save: SaveRow, Send: SendUpdate, Ended: true}, nil
}

// abortAs ends the game without a result, for reason.
func (g Game) abortAs(reason string, now time.Time) (Game, Effects, error) {
	nr := g.row
	nr.Status, nr.Reason, nr.DrawOffer, nr.TakebackBy, nr.Updated = store.Aborted, reason, -1, -1, now.UnixMilli()
	if g.Clocked() {
		nr.Remaining = g.Remaining(now)
		nr.ClockAt = now.UnixMilli()
	}
	g.row = nr
	return g, Effects{Save: SaveRow, Send: SendUpdate, Ended: true}, nil
}

// cancel takes back a waiting game (a seek): it leaves the lists, with no
// result, as an abandoned one does.
func (g Game) cancel(now time.Time) (Game, Effects, error) {
	if g.row.Status != store.Waiting {
		return g, Effects{}, wire.Refusef("only a game still waiting for an opponent can be cancelled")
	}
	nr := g.row
	nr.Status, nr.Reason, nr.Updated = store.Aborted, ReasonCancelled, now.UnixMilli()
	g.row = nr
	return g, Effects{Save: SaveRow, Send: SendUpdate, Ended: true}, nil
}

// resign ends the game with a loss for side; before side's first move it
// aborts the game instead, which leaves no result (and no rating change):
// there is nothing to resign yet.
func (g Game) resign(side int, now time.Time) (Game, Effects, error) {
	if err := g.checkPlaying(); err != nil {
		return g, Effects{}, err
	}
	if g.Abortable(side) {
		return g.abortAs(ReasonAborted, now)
	}
	return g.end(game.Side(side), game.Resignation, now)
}

// abort ends the game without a result at seat's request.
func (g Game) abort(seat int, now time.Time) (Game, Effects, error) {
	if err := g.checkPlaying(); err != nil {
		return g, Effects{}, err
	}
	if !g.Abortable(seat) {
		return g, Effects{}, wire.Refuse("abort_late", "a game can be aborted only before your first move; resign instead")
	}
	return g.abortAs(ReasonAborted, now)
}

// draw handles a draw offer, acceptance or refusal by side.
func (g Game) draw(side int, action string, now time.Time) (Game, Effects, error) {
	if err := g.checkPlaying(); err != nil {
		return g, Effects{}, err
	}
	offer := g.row.DrawOffer
	switch action {
	case "offer":
		if offer == 1-side {
			return g.draw(side, "accept", now)
		}
		if offer == side {
			return g, Effects{}, wire.Refuse("draw_offered", "you have already offered a draw")
		}
		nr := g.row
		nr.DrawOffer = side
		next, fx, err := g.update(nr, now)
		if g.computer == 1-side {
			// The computer plays on.
			fx.Then = &Event{Kind: Draw, Seat: g.computer, Action: "decline"}
		}
		return next, fx, err
	case "accept":
		if offer != 1-side {
			return g, Effects{}, wire.Refuse("no_draw_offer", "there is no draw offer to accept")
		}
		return g.end(game.Side(side), game.Agreement, now)
	case "decline":
		return g.decline(side, offer, "no_draw_offer", "draw offer", func(r *store.Game) { r.DrawOffer = -1 }, now)
	}
	return g, Effects{}, wire.Refusef("draw: unknown action %q (offer, accept or decline)", action)
}

// takeback handles a takeback request, acceptance or refusal by seat.
func (g Game) takeback(seat int, action string, now time.Time) (Game, Effects, error) {
	if err := g.checkPlaying(); err != nil {
		return g, Effects{}, err
	}
	by := g.row.TakebackBy
	switch action {
	case "offer":
		switch {
		case g.computer < 0 && g.row.Rated:
			return g, Effects{}, wire.Refuse("takeback_rated", "takeback: not in a rated game")
		case !g.moved(seat):
			return g, Effects{}, wire.Refuse("takeback_nothing", "takeback: you have no move to take back")
		case by == seat:
			return g, Effects{}, wire.Refuse("takeback_asked", "takeback: you have already asked")
		case by == 1-seat:
			return g.takeback(seat, "accept", now)
		case g.computer == 1-seat:
			// The computer always agrees: back to seat's turn.
			return g.undoTo(g.lastMoveBy(seat), now)
		}
		nr := g.row
		nr.TakebackBy = seat
		return g.update(nr, now)
	case "accept":
		if by != 1-seat {
			return g, Effects{}, wire.Refuse("no_takeback", "takeback: there is no request to accept")
		}
		// Back to before the asker's last move (and any reply since).
		return g.undoTo(g.lastMoveBy(by), now)
	case "decline":
		if by != 1-seat {
			return g, Effects{}, wire.Refuse("no_takeback", "takeback: there is no request to decline")
		}
		nr := g.row
		nr.TakebackBy = -1
		return g.update(nr, now)
	}
	return g, Effects{}, wire.Refusef("takeback: unknown action %q (offer, accept or decline)", action)
}

// undoTo takes the game back to ply moves. The clocks keep the time they
// show now, and the side to move's runs from now on: nobody gains or
// loses time by a takeback.
func (g Game) undoTo(ply int, now time.Time) (Game, Effects, error) {
	if ply < 0 || ply >= g.Ply() {
		return g, Effects{}, wire.Refusef("takeback: no move to take back")
	}
	hist := game.NewGame(g.hist.Start())
	for _, m := range g.hist.Moves()[:ply] {
		if err := hist.Play(m); err != nil {
			return g, Effects{}, fmt.Errorf("replay for a takeback: %w", err) // they were legal a moment ago
		}
	}
	nr := g.row
	nr.Moves, nr.Position, nr.TakebackBy, nr.DrawOffer, nr.Updated = ply, hist.Position().String(), -1, -1, now.UnixMilli()
	if g.Clocked() {
		nr.Remaining, nr.ClockAt = g.Remaining(now), now.UnixMilli()
	}
	g.row, g.hist, g.legal = nr, hist, &legalMoves{}
	g.positions = append([]string(nil), g.positions[:ply]...)
	return g, Effects{Save: SaveTakeBack, FromPly: ply, Send: SendState, StopComputer: true}, nil
}

// claim ends the game for seat, whose opponent has left: won ("win") or
// drawn ("draw"). Seen must have been told who is connected.
func (g Game) claim(seat int, action string, now time.Time) (Game, Effects, error) {
	if err := g.checkPlaying(); err != nil {
		return g, Effects{}, err
	}
	opp := 1 - seat
	switch wait := g.claimWait(opp, now); {
	case g.computer >= 0:
		return g, Effects{}, wire.Refuse("claim_computer", "claim: the computer never leaves a game")
	case g.row.PerMove:
		return g, Effects{}, wire.Refuse("claim_correspondence", "claim: in a correspondence game the clock decides")
	case wait < 0:
		return g, Effects{}, wire.Refuse("claim_connected", "claim: your opponent is connected")
	case wait > 0:
		ago, in := fmt.Sprint(int(now.Sub(g.away[opp]).Seconds())), fmt.Sprint(int((wait+time.Second-1)/time.Second))
		return g, Effects{}, wire.Refuse("claim_wait", "claim: your opponent left "+ago+" s ago; you can claim in "+in+" s", "ago", ago, "wait", in)
	}
	switch action {
	case "win":
		return g.end(game.Side(opp), game.Abandonment, now)
	case "draw":
		return g.end(game.Side(opp), game.AbandonmentDraw, now)
	}
	return g, Effects{}, wire.Refusef("claim: unknown action %q (win or draw)", action)
}

// rematch handles a rematch offer or acceptance by side; the rematch, if
// this starts it, gets the id newID.
func (g Game) rematch(side int, action, newID string, now time.Time) (Game, Effects, error) {
	switch {
	case g.row.Status != store.Finished && !(g.row.Status == store.Aborted && g.paired()):
		// An aborted game had its rematch only if both seats were taken:
		// a seek called off had no opponent to play again.
		return g, Effects{}, wire.Refuse("rematch_not_over", "a rematch can be asked for when the game is over")
	case g.row.RematchGame != "":
		return g, Effects{}, wire.Refuse("rematch_started", "the rematch has already started: /g/"+g.row.RematchGame, "game", g.row.RematchGame)
	}
	by := g.row.RematchBy
	switch action {
	case "offer":
		if g.computer == 1-side || by == 1-side {
			return g.startRematch(side, newID, now)
		}
		if by == side {
			return g, Effects{}, wire.Refuse("rematch_asked", "you have already asked for a rematch")
		}
		nr := g.row
		nr.RematchBy = side
		return g.update(nr, now)
	case "accept":
		if by != 1-side {
			return g, Effects{}, wire.Refuse("no_rematch_offer", "there is no rematch offer to accept")
		}
		return g.startRematch(by, newID, now)
	case "decline":
		return g.decline(side, by, "no_rematch_offer", "rematch offer", func(r *store.Game) { r.RematchBy = -1 }, now)
	}
	return g, Effects{}, wire.Refusef("rematch: unknown action %q (offer, accept or decline)", action)
}

// decline is side's no to the offer the opponent made (by: the side
// that made it, -1 for none), which clear takes off the row; what names
// the offer in the refusal (code) when there is none to decline.
func (g Game) decline(side, by int, code, what string, clear func(*store.Game), now time.Time) (Game, Effects, error) {
	if by != 1-side {
		return g, Effects{}, wire.Refuse(code, "there is no "+what+" to decline")
	}
	nr := g.row
	clear(&nr)
	return g.update(nr, now)
}

// paired reports whether both seats have a player: a person's seat or the
// computer's.
func (g Game) paired() bool {
	for i, seat := range g.row.Seats {
		if seat == "" && g.computer != i {
			return false
		}
	}
	return true
}

// startRematch makes the new game, colours swapped: each player's seat
// token carries over to the other side, so the old seat cookie proves the
// new seat. A rated game's rematch is rated; its owner fills the ratings
// as they are now.
func (g Game) startRematch(by int, id string, now time.Time) (Game, Effects, error) {
	old := g.row
	if g.computer >= 0 && !g.BrowserComputer() && g.set.NoServerComputer {
		return g, Effects{}, ErrServerComputerOff
	}
	next := &store.Game{
		ID: id, Game: old.Game, Rules: old.Rules, Start: old.Start, Opponent: old.Opponent, Level: old.Level, ComputerPlace: old.ComputerPlace,
		Players: [2]string{old.Players[1], old.Players[0]},
		Seats:   [2]string{old.Seats[1], old.Seats[0]},
		Users:   [2]string{old.Users[1], old.Users[0]},
		Guests:  [2]string{old.Guests[1], old.Guests[0]},
		Bots:    [2]bool{old.Bots[1], old.Bots[0]},
		Public:  old.Public, Status: store.Playing, Result: game.Ongoing.String(), Position: old.Start,
		ClockInitial: old.ClockInitial, ClockIncrement: old.ClockIncrement, PerMove: old.PerMove,
		Remaining: [2]time.Duration{old.ClockInitial, old.ClockInitial}, ClockAt: now.UnixMilli(),
		DrawOffer: -1, RematchBy: -1, TakebackBy: -1, RematchOf: old.ID, Created: now.UnixMilli(), Updated: now.UnixMilli(),
	}
	if old.Rated {
		next.Rated, next.Family, next.MinRating, next.MaxRating = true, old.Family, old.MinRating, old.MaxRating
	}
	nr := old
	nr.RematchBy, nr.RematchGame, nr.Updated = by, next.ID, now.UnixMilli()
	g.row = nr
	return g, Effects{Save: SaveRematch, Rematch: next, Send: SendUpdate}, nil
}

// join gives the free seat of a waiting game to ev.Player.
func (g Game) join(ev Event, now time.Time) (Game, Effects, error) {
	switch {
	case ev.Invite != "" && (g.row.Invite == "" || ev.Invite != g.row.Invite):
		return g, Effects{}, wire.Forbid("invite_wrong", "this invitation is not for this game")
	case ev.Invite == "" && !g.row.Public && g.row.Status == store.Waiting:
		return g, Effects{}, wire.Forbid("private_game", "this game is private: it needs its invitation link")
	case g.row.Status != store.Waiting:
		return g, Effects{}, wire.Refuse("two_players", "the game already has two players")
	}
	free := -1
	for i, h := range g.row.Seats {
		if h == "" {
			free = i
		}
	}
	if free < 0 {
		return g, Effects{}, wire.Refuse("two_players", "the game already has two players")
	}
	who := ev.Player
	if who.Name == "" {
		who.Name = "Anonymous" // from an instance of an older version
	}
	nr := g.row
	nr.Seats[free] = ev.Token
	if g.row.Rated {
		shown, err := g.checkJoinRated(who, ev.Rating)
		if err != nil {
			return g, Effects{}, err
		}
		nr.Ratings[free] = shown
	}
	nr.Players[free], nr.Users[free], nr.Guests[free], nr.Bots[free] = who.Name, who.User, who.Guest, who.Bot
	nr.Status = store.Playing
	nr.ClockAt = now.UnixMilli()
	next, fx, err := g.update(nr, now)
	fx.Seat = free
	return next, fx, err
}

// checkJoinRated says why who, whose rating is mine, may not take the free
// seat of a rated game, or nil; it returns the rating as shown.
func (g Game) checkJoinRated(who Player, mine rating.Rating) (string, error) {
	r := g.row
	if who.User == "" {
		return "", wire.Forbid("rated_login", "log in to play a rated game")
	}
	for _, u := range r.Users {
		if u == who.User {
			return "", wire.Refuse("rated_self", "you cannot play a rated game against yourself")
		}
	}
	if v := int(math.Round(mine.R)); r.MinRating > 0 && v < r.MinRating || r.MaxRating > 0 && v > r.MaxRating {
		code := "rating_between"
		switch {
		case r.MaxRating == 0:
			code = "rating_above"
		case r.MinRating == 0:
			code = "rating_below"
		}
		return "", wire.Forbid(code, fmt.Sprintf("this game is for ratings %s; yours is %s", RangeText(r.MinRating, r.MaxRating), mine),
			"lo", fmt.Sprint(r.MinRating), "hi", fmt.Sprint(r.MaxRating), "rating", mine.String())
	}
	return mine.String(), nil
}

// RangeText says a seek's rating bounds.
func RangeText(lo, hi int) string {
	switch {
	case lo > 0 && hi > 0:
		return fmt.Sprintf("%d to %d", lo, hi)
	case lo > 0:
		return fmt.Sprintf("%d and above", lo)
	default:
		return fmt.Sprintf("up to %d", hi)
	}
}

// flag is the timer's event: before the clocks start, the game is aborted
// when the side to move let the time for its first move pass; after, the
// running side loses on time when its time is up. A timer that fired
// early changes nothing (and is armed again).
func (g Game) flag(now time.Time) (Game, Effects, error) {
	if at, ok := g.FirstMoveDeadline(); ok {
		if now.Before(at) {
			return g, Effects{}, nil
		}
		return g.abortAs(ReasonNoFirstMove, now)
	}
	run := g.Running()
	if run < 0 || g.Remaining(now)[run] > 0 {
		return g, Effects{}, nil
	}
	return g.end(game.Side(run), game.Timeout, now)
}

// expire aborts the game if nobody took it up (an invitation) or played it
// (against the computer) for Settings.Expire before now.
func (g Game) expire(now time.Time) (Game, Effects, error) {
	switch {
	case g.row.Updated >= now.Add(-g.set.Expire).UnixMilli():
		return g, Effects{}, nil
	case g.row.Status == store.Waiting:
	case g.row.Status == store.Playing && g.computer >= 0:
	default:
		return g, Effects{}, nil
	}
	return g.abortAs(ReasonAbandoned, now)
}

// rebase starts a new stretch of the running clock at now, the running
// side charged up to chargeUntil; before the first moves, the time to
// make one likewise. A correspondence clock runs by the calendar, server
// or not: it is left alone.
func (g Game) rebase(now time.Time, chargeUntil int64) (Game, Effects, error) {
	if g.row.PerMove {
		return g, Effects{}, nil
	}
	if _, first := g.FirstMoveDeadline(); first {
		nr := g.row
		nr.ClockAt = now.UnixMilli() - max(chargeUntil-nr.ClockAt, 0)
		return g.update(nr, now)
	}
	run := g.Running()
	if run < 0 {
		return g, Effects{}, nil
	}
	nr := g.row
	if chargeUntil > nr.ClockAt {
		nr.Remaining[run] -= time.Duration(chargeUntil-nr.ClockAt) * time.Millisecond
	}
	nr.ClockAt = now.UnixMilli()
	return g.update(nr, now)
}

// pause saves the running clock as of now; before the first moves, when
// the game stopped (StoppedAt), so that the time to make one that ran
// stays spent.
func (g Game) pause(now time.Time) (Game, Effects, error) {
	if _, first := g.FirstMoveDeadline(); first && !g.row.PerMove {
		g.row.Updated = now.UnixMilli()
		return g, Effects{Save: SaveRow}, nil
	}
	run := g.Running()
	if run < 0 {
		return g, Effects{}, nil
	}
	nr := g.row
	nr.Remaining = g.Remaining(now)
	nr.Remaining[run] = max(nr.Remaining[run], 0)
	nr.ClockAt = now.UnixMilli()
	g.row = nr
	return g, Effects{Save: SaveRow}, nil
}
