package round

import (
	"context"
	"time"

	"github.com/magneton-games/magneton/server/cluster"
	"github.com/magneton-games/magneton/server/live"
	"github.com/magneton-games/magneton/store"
)

// becomeOwner makes the session the game's owner, this instance having
// just taken its lease from previous ("" for nobody): it reads the game
// again, rebases the clock, and starts the clock and the computer.
func (s *Session) becomeOwner(previous string) {
	s.setMirror(false)
	if err := s.refresh(); err != nil {
		s.rooms.log.Warn("game taken over but not read", "game", s.id, "err", err)
	}
	rs := s.rooms
	chargeUntil := s.g.StoppedAt() // nobody held it: nobody ran the clock since
	switch {
	case previous == rs.cfg.Instance && s.g.Row().ClockAt < rs.started.UnixMilli():
		chargeUntil = rs.prevBeat // this instance ran it before a restart
	case previous == rs.cfg.Instance:
		chargeUntil = time.Now().UnixMilli() // this instance has run it all along
	case previous != "":
		ctx, cancel := rs.dbContext()
		beat, err := rs.st.LastBeat(ctx, previous)
		cancel()
		if err == nil && beat > 0 {
			chargeUntil = beat
		}
	}
	if _, err := s.run(live.Event{Kind: live.Rebase, ChargeUntil: chargeUntil}, time.Now()); err != nil {
		rs.log.Warn("clock not rebased on taking the game over", "game", s.id, "err", err)
	}
	if previous != "" && previous != rs.cfg.Instance {
		rs.log.Info("game taken over", "game", s.id, "from", previous)
		rs.metrics.TakenOver()
	}
	s.armFlag()
	s.maybeAI()
}

// tryOwn takes the game over if its lease has expired.
func (s *Session) tryOwn(ctx context.Context, now time.Time) {
	rs := s.rooms
	owner, previous, err := rs.st.AcquireLease(ctx, s.id, rs.cfg.Instance, now.Add(-cluster.LeaseTTL).UnixMilli())
	if err != nil {
		rs.log.Warn("lease not taken", "game", s.id, "err", err)
		return
	}
	if owner == rs.cfg.Instance {
		s.becomeOwner(previous)
	}
}

// follow takes an owner's announcement of the game, with s.mu held.
func (s *Session) follow(ev cluster.Event) {
	if ev.Released {
		if s.knownOwner == ev.By {
			s.knownOwner = ""
		}
		return
	}
	s.ownerConnected, s.ownerWatchers = ev.Connected, ev.Watchers
	s.knownOwner = ev.By
	if !s.mirror {
		// Another instance wrote the game: this one lost it.
		s.becomeMirror()
		return
	}
	if ev.Chat != nil {
		s.takeChat(*ev.Chat)
		return
	}
	defer s.noteStatus()
	if g, ok := s.g.Follow(ev.Row, ev.Ply, ev.Move); ok {
		s.g = g
		s.broadcast()
		return
	}
	if err := s.refresh(); err != nil {
		s.rooms.log.Warn("mirror not refreshed", "game", ev.ID, "err", err)
	}
}

// takeChat is a mirror's part of an owner's new line: it shows the line,
// reading the chat again when it missed one before.
func (s *Session) takeChat(l store.ChatLine) {
	next, have := s.chat.Take(l)
	switch {
	case next:
	case have:
		return // already here
	default:
		if err := s.ensureChat(); err != nil {
			s.rooms.log.Warn("chat not read", "game", s.id, "err", err)
			return
		}
	}
	s.sendChat(l)
}
