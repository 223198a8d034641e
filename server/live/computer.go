package live

import (
	"fmt"
	"time"

	"github.com/magneton-games/magneton/server/wire"
)

// ErrServerComputerOff refuses what needs the server's computer on a
// server whose computer is off (Settings.NoServerComputer): a new game
// for it, a hand-over to it, a rematch of a game it played.
var ErrServerComputerOff = wire.Refuse("server_computer_off", "this server's computer plays only in browsers that run its engine")

// ErrComputerNotYours refuses the computer's moves, or its hand-over, from
// anyone but the game's player: a spectator, another account, a guest on
// another browser.
var ErrComputerNotYours = wire.Refuse("computer_not_yours", "only this game's player can play the computer's moves or hand it over")

// checkComputerSender refuses the computer's moves, or its hand-over, from
// anyone but the game's player (seat) in a game against the computer.
func (g Game) checkComputerSender(seat int) error {
	switch {
	case g.computer < 0:
		return wire.Refuse("no_computer", "this game is between people: it has no computer")
	case seat != 1-g.computer:
		return ErrComputerNotYours
	}
	return nil
}

// computerMove plays the computer's move that the browser of ev.Seat,
// the game's player, found: refused unless the game's computer thinks in
// that browser and the move is for the position the game is in, so that
// a move sent twice (a reconnection, two tabs) or after a takeback is
// refused, not played in another position. It is then checked, timed
// and saved as any move of the computer's.
func (g Game) computerMove(ev Event, now time.Time) (Game, Effects, error) {
	if err := g.checkComputerSender(ev.Seat); err != nil {
		return g, Effects{}, err
	}
	if !g.BrowserComputer() {
		return g, Effects{}, wire.Refuse("computer_on_server", "the server plays this game's computer")
	}
	if !g.ComputerToMove() || ev.Ply != g.Ply() || ev.Position != "" && ev.Position != g.hist.Position().String() {
		return g, Effects{}, wire.Refuse("computer_stale", fmt.Sprintf("the computer's move %s is for move %d, and the game is at move %d: it has moved on", ev.Move, ev.Ply+1, g.Ply()+1),
			"move", ev.Move)
	}
	next, fx, err := g.move(g.computer, ev.Move, now)
	if r, ok := err.(wire.Refusal); ok && r.Code == "time_up" {
		// The computer's flag fell before its move came: the game is
		// over on time, as the states say.
		err = wire.Refuse("computer_time_up", ev.Move+": the computer's time was up before its move came", "move", ev.Move)
	}
	return next, fx, err
}

// handOver gives the game's computer to the server at its player's
// (seat's) request: the browser's engine cannot go on. A computer that
// is the server's already stays so.
func (g Game) handOver(seat int, where string, now time.Time) (Game, Effects, error) {
	if err := g.checkPlaying(); err != nil {
		return g, Effects{}, err
	}
	if err := g.checkComputerSender(seat); err != nil {
		return g, Effects{}, err
	}
	switch {
	case where != ComputerServer:
		return g, Effects{}, wire.Refusef("computer: where %q: want %q (the browser's computer is given to the server)", where, ComputerServer)
	case !g.BrowserComputer():
		return g, Effects{}, nil
	case g.set.NoServerComputer:
		return g, Effects{}, ErrServerComputerOff
	}
	nr := g.row
	nr.ComputerPlace = ComputerServer
	if g.Running() >= 0 {
		// The browser's time is spent: the server's search, once it has
		// a core, starts its clock again from here.
		nr.Remaining, nr.ClockAt = g.Remaining(now), now.UnixMilli()
	}
	return g.update(nr, now)
}

// computerView is the computer of a game against it as the states show
// it, nil in a game between people.
func (g Game) computerView() *wire.Computer {
	if g.computer < 0 {
		return nil
	}
	c := &wire.Computer{Seat: g.computer, Level: g.row.Level, Where: ComputerServer, Fallback: !g.set.NoServerComputer}
	if g.BrowserComputer() {
		c.Where = ComputerBrowser
	}
	if !g.Clocked() && g.set.ComputerMoveTime != nil {
		c.MoveTimeMS = g.set.ComputerMoveTime(g.row.Level).Milliseconds()
	}
	return c
}
