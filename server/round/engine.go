package round

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/coder/websocket"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/server/cluster"
	"github.com/magneton-games/magneton/server/live"
	"github.com/magneton-games/magneton/server/ratings"
	"github.com/magneton-games/magneton/store"
)

// run applies an event to the game at now, as its owner, with s.mu held:
// it saves what the event changed, takes the new value, and carries out
// the rest of the effects. It returns the event's refusal, or what stopped
// the save (the game is then as it was).
func (s *Session) run(ev live.Event, now time.Time) (live.Effects, error) {
	next, fx, refusal := s.g.Apply(ev, now)
	if fx.Save == live.SaveNone {
		return fx, refusal
	}
	switch {
	case ev.Kind == live.Move && fx.Save == live.SaveMove:
		hook("move")
		s.touched = now
	case ev.Kind == live.Flag:
		hook("flag")
	}
	var rematch *Session
	if fx.Rematch != nil {
		if err := s.casualPastPairLimit(fx.Rematch, now); err != nil {
			return fx, err
		}
		g, err := live.New(fx.Rematch, s.rooms.cfg.Play, now)
		if err != nil {
			return fx, err
		}
		fx.Rematch.NeedsOwner = g.Needed()
		rematch = s.rooms.newSession(g, now)
	}
	if what, err := s.persist(next, fx); err != nil {
		return fx, s.failed(what, err)
	}
	s.g = next.Saved()
	s.carryOut(fx, rematch)
	if fx.Save == live.SaveMove {
		s.rooms.metrics.Moved(s.g.Spec().Name)
	}
	if fx.Then != nil && refusal == nil {
		return s.run(*fx.Then, now)
	}
	return fx, refusal
}

// casualPastPairLimit makes a rated rematch casual when its two accounts
// have played ratings.PairLimit rated games with each other lately.
func (s *Session) casualPastPairLimit(next *store.Game, now time.Time) error {
	if !next.Rated {
		return nil
	}
	ctx, cancel := s.rooms.dbContext()
	defer cancel()
	ok, err := ratings.PairAllowed(ctx, s.rooms.st, next.Users[0], next.Users[1], now)
	if err != nil || ok {
		return err
	}
	next.Rated, next.Family, next.MinRating, next.MaxRating = false, "", 0, 0
	s.rooms.log.Info("rematch casual: the pair's rated games for the day are played", "game", s.id)
	return nil
}

// failed is what a client hears of a save that failed; a game that
// another instance took over becomes a mirror.
func (s *Session) failed(what string, err error) error {
	refusal, lost := s.saveError(what, err)
	if lost {
		s.becomeMirror()
	}
	return refusal
}

// carryOut does what a saved event's effects say after the save.
func (s *Session) carryOut(fx live.Effects, rematch *Session) {
	if fx.StopComputer {
		s.stopAI()
	}
	if fx.Save == live.SaveTakeBack {
		s.rooms.log.Info("takeback", "game", s.id, "to", fx.FromPly)
	}
	if rematch != nil {
		rematch.client = s.client
		s.rooms.register(rematch)
		rematch.start()
		s.rooms.log.Info("rematch", "game", s.id, "new", rematch.id)
	}
	s.announce()
	if fx.Ended {
		s.ended()
		return
	}
	if fx.Computer && !s.thinking && !s.closed {
		// Before anyone hears of it: the computer's clock stands still
		// until its search has a core.
		s.g = s.g.ComputerWaiting(true)
	}
	switch fx.Send {
	case live.SendUpdate:
		s.broadcast()
	case live.SendState:
		s.sendState()
	}
	s.armFlag()
	if fx.Computer {
		s.maybeAI()
	}
}

// start arms the clock and the computer of a session just made; call it
// once, before the session is shared.
func (s *Session) start() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.mirror {
		return
	}
	s.armFlag()
	s.maybeAI()
}

// ended stops what runs during a game and tells everyone.
func (s *Session) ended() {
	s.stopFlag()
	s.stopAI()
	s.rate()
	row := s.g.Row()
	s.rooms.log.Info("game over", "game", s.id, "status", row.Status, "result", row.Result, "reason", row.Reason, "moves", row.Moves)
	s.broadcast()
	s.showSpectatorChat()
	s.maybeEvict(time.Now())
}

// rate applies a finished rated game to its players' ratings and shows the
// change.
func (s *Session) rate() {
	ctx, cancel := s.rooms.dbContext()
	defer cancel()
	nr, err := ratings.Rate(ctx, s.rooms.st, s.g.Row(), time.Now())
	switch {
	case errors.Is(err, ratings.ErrNotRated):
		return
	case err != nil:
		s.rooms.log.Error("ratings not updated", "game", s.id, "err", err)
		return
	}
	s.g = s.g.WithDiffs(nr.Diffs)
	s.announce() // the mirrors show the change too
	s.rooms.log.Info("game rated", "game", s.id, "family", nr.Family, "diffs", fmt.Sprint(nr.Diffs))
}

func (s *Session) stopFlag() {
	if s.flag != nil {
		s.flag.Stop()
		s.flag = nil
	}
}

// armFlag sets the game's timer (live.Game.Timer): the first-move
// deadline, or the running side's flag.
func (s *Session) armFlag() {
	s.stopFlag()
	if s.closed || s.mirror {
		return
	}
	now := time.Now()
	if at, ok := s.g.Timer(now); ok {
		s.flag = time.AfterFunc(max(at.Sub(now), 0), s.onFlag)
	}
}

// onFlag is the timer's work: the flag falls, or the game is aborted for
// want of a first move, or (a timer that fired early) the timer is armed
// again.
func (s *Session) onFlag() {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.recoverPanic("flag")
	if s.closed || s.mirror {
		return
	}
	_, first := s.g.FirstMoveDeadline()
	if _, err := s.run(live.Event{Kind: live.Flag}, time.Now()); err != nil {
		what := "flag fall not saved"
		if first {
			what = "abort for no first move not saved"
		}
		s.rooms.log.Error(what, "game", s.id, "err", err)
	}
	s.armFlag() // moved on since the timer was set, or try again
}

// maybeAI starts the computer's search when it is to move, and thinks on
// the server (a browser's computer is its player's page's to play). The
// search waits for a core from the pool, fairly shared among the
// clients; its clock starts only when it has one, so the wait is not its
// time.
func (s *Session) maybeAI() {
	if s.closed || s.thinking || !s.g.ServerToMove() {
		return
	}
	if !s.g.Waiting() {
		// Its clock stands still while the search waits for a core.
		s.g = s.g.ComputerWaiting(true)
		s.armFlag()
	}
	hist := s.g.History() // shared: no event changes it in place
	ctx, cancel := context.WithCancel(s.rooms.ctx)
	s.aiGen++
	s.aiCancel, s.thinking = cancel, true
	gen, level := s.aiGen, s.g.Row().Level
	s.rooms.aiWG.Add(1)
	go func() {
		defer s.rooms.aiWG.Done()
		defer cancel()
		defer func() {
			if p := recover(); p != nil {
				s.mu.Lock()
				defer s.mu.Unlock()
				if s.aiGen == gen {
					s.thinking, s.aiCancel = false, nil
				}
				s.recovered("computer", p)
			}
		}()
		s.think(ctx, hist, gen, level)
	}()
}

// think runs the computer's search of a maybeAI and plays its move.
func (s *Session) think(ctx context.Context, hist *game.Game, gen, level int) {
	mv, err := s.rooms.pool.Play(ctx, s.client, level, hist, func() (ai.Limits, bool) { return s.startClock(ctx, gen, level) })
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.searchDone(ctx, gen) {
		return
	}
	if err != nil {
		s.rooms.log.Error("computer found no move", "game", s.id, "err", err)
		return
	}
	if mv == "" {
		return // the game moved on before the search began
	}
	hook("computer")
	if _, err := s.run(live.Event{Kind: live.Move, Seat: s.g.Computer(), Move: mv}, time.Now()); err != nil {
		s.rooms.log.Error("computer move refused", "game", s.id, "move", mv, "err", err)
	}
}

// searchDone ends search gen's turn with s.mu held; false if it was
// stopped or replaced meanwhile (its result is then of no use).
func (s *Session) searchDone(ctx context.Context, gen int) bool {
	if s.aiGen != gen {
		return false
	}
	s.thinking, s.aiCancel = false, nil
	s.g = s.g.ComputerWaiting(false)
	return ctx.Err() == nil && !s.closed
}

// startClock prepares the computer's search once it has a core: it
// restarts the computer's clock (the wait was not its time) and returns
// the search's limits; false if the game moved on meanwhile.
func (s *Session) startClock(ctx context.Context, gen, level int) (ai.Limits, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.aiGen != gen || ctx.Err() != nil || s.closed {
		s.searchDone(ctx, gen)
		return ai.Limits{}, false
	}
	s.g = s.g.ComputerWaiting(false)
	if !s.g.Clocked() {
		return ai.Limits{MoveTime: s.rooms.pool.MoveTime(level)}, true
	}
	row := s.g.Row()
	if waited := time.Since(time.UnixMilli(row.ClockAt)); waited > 20*time.Millisecond {
		// Charge nothing of the wait: the clock starts again from its
		// value at the last move.
		if _, err := s.run(live.Event{Kind: live.Rebase, ChargeUntil: row.ClockAt}, time.Now()); err != nil {
			s.rooms.log.Warn("the computer's clock not restarted", "game", s.id, "err", err)
		}
	} else {
		s.broadcast() // the clients see its clock run from now
	}
	s.armFlag()
	inc := s.g.Row().ClockIncrement
	return ai.Limits{Time: s.g.Remaining(time.Now()), Increment: [2]time.Duration{inc, inc}}, true
}

// stopAI stops the computer's search, if any: its goroutine finds its
// number changed and leaves the game alone.
func (s *Session) stopAI() {
	if s.aiCancel != nil {
		s.aiCancel()
	}
	if s.thinking {
		s.aiGen++
	}
	s.thinking, s.aiCancel = false, nil
	s.g = s.g.ComputerWaiting(false)
}

// needed reports whether the game must stay in memory with nobody
// watching: it is being played and its clock runs, or the computer is to
// move or thinking.
func (s *Session) needed() bool {
	return s.g.Needed() || (s.thinking && s.g.Status() == store.Playing)
}

// maybeEvict drops the session from the map when nobody watches it and it
// needs no timer: at once for a game over, after idleEvict for one that is
// not (it loads again from the database when someone opens it).
func (s *Session) maybeEvict(now time.Time) {
	if s.evicted || len(s.clients) > 0 {
		return
	}
	if s.g.Live() && (s.needed() || now.Sub(s.touched) < idleEvict) {
		return
	}
	if !s.mirror && s.g.StaleNeed() {
		// The row says the game needs an owner with nobody watching: as
		// it stands, the next round of leases would take it back.
		if _, err := s.persist(s.g, live.Effects{Save: live.SaveRow}); err != nil {
			s.rooms.log.Warn("game's need of an owner not saved", "game", s.id, "err", err)
			return
		}
		s.g = s.g.Saved()
	}
	s.evicted = true
	s.stopFlag()
	s.stopAI()
	s.rooms.unregister(s)
	if !s.mirror {
		s.rooms.release(s.id)
	}
}

// recoverPanic, deferred in a game's work with s.mu held, turns a panic
// into a rollback of the game (see recovered).
func (s *Session) recoverPanic(point string) {
	if p := recover(); p != nil {
		s.recovered(point, p)
	}
}

// recoverError is recoverPanic for work that answers with an error, which
// the panic becomes.
func (s *Session) recoverError(err *error, point string) {
	if p := recover(); p != nil {
		s.recovered(point, p)
		*err = errors.New("a panic (the game was rolled back)")
	}
}

// recovered handles a panic in the game's work at point, with s.mu held:
// it logs the stack and rolls the game back to what the database holds, so
// that nobody is served a move that was not saved. The process and the
// other games go on.
func (s *Session) recovered(point string, p any) {
	s.rooms.log.Error("panic in a game", "game", s.id, "at", point, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
	s.panics++
	if err := s.reload(); err != nil {
		s.rooms.log.Error("game not rolled back: dropped from memory", "game", s.id, "err", err)
		s.evicted = true
		s.stopFlag()
		s.stopAI()
		s.rooms.unregister(s)
		for c := range s.clients {
			c.Kick(websocket.StatusInternalError, "the game failed; connect again")
		}
	}
}

// reload replaces the game in memory by what the database holds, then
// re-arms its clock and computer and tells everyone.
func (s *Session) reload() error {
	g, _, err := s.readGame()
	if err != nil {
		return err
	}
	s.g = g
	s.stopFlag()
	s.stopAI()
	s.sendState()
	if s.panics >= maxPanics {
		s.rooms.log.Error("game stopped after repeated panics: its clock and computer wait for a restart", "game", s.id, "panics", s.panics)
		return nil
	}
	s.armFlag()
	s.maybeAI()
	return nil
}

// refresh reads the game from the database and shows it to the clients: an
// update when it is at most one move on, the whole state else.
func (s *Session) refresh() error {
	before := s.g.Ply()
	s.chat.Forget() // lines may have been missed too
	g, moves, err := s.readGame()
	if err != nil {
		return err
	}
	s.g = g
	if d := len(moves) - before; d == 0 || d == 1 {
		s.broadcast()
	} else {
		s.sendState()
	}
	return nil
}

// becomeMirror makes the session a mirror: another instance owns the game
// now. Its clock and computer stop here, and it reads the game again.
func (s *Session) becomeMirror() {
	if s.mirror {
		return
	}
	s.setMirror(true)
	s.stopFlag()
	s.stopAI()
	s.rooms.log.Info("game lost to another instance", "game", s.id)
	s.refresh()
}

// expirePresence drops the mirrors' reports that have lapsed.
func (s *Session) expirePresence(now time.Time) {
	changed := false
	for inst, p := range s.remote {
		if now.Sub(p.at) > cluster.PresenceTTL {
			delete(s.remote, inst)
			changed = true
		}
	}
	if changed {
		s.announce()
		s.broadcast()
	}
}

// shutdown stops the session for a server shutdown: it saves the running
// clock as of now (so the downtime is not charged) and closes the sockets.
func (s *Session) shutdown() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	s.closed = true
	s.stopFlag()
	s.stopAI()
	// The owner saves the clock; a mirror has nothing to save.
	if next, fx, _ := s.g.Apply(live.Event{Kind: live.Pause}, time.Now()); fx.Save != live.SaveNone && !s.mirror {
		if what, err := s.persist(next, fx); err != nil {
			s.rooms.log.Error("clock not saved at shutdown", "game", s.id, "err", err, "what", what)
		} else {
			s.g = next.Saved()
		}
	}
	for c := range s.clients {
		c.Kick(websocket.StatusGoingAway, "the server is shutting down")
	}
}
