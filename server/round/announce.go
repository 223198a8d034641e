package round

import (
	"context"
	"time"

	"github.com/magneton-games/magneton/server/cluster"
	"github.com/magneton-games/magneton/store"
)

// announce tells the other instances that the game changed (after a
// commit) and who is connected to it.
func (s *Session) announce() {
	s.noteStatus()
	if s.mirror {
		return
	}
	row := s.g.Row()
	s.notify(cluster.Event{ID: s.id, Ply: s.g.Ply(), Row: &row})
}

// announceChat tells the other instances of a new chat line.
func (s *Session) announceChat(l store.ChatLine) {
	if !s.mirror {
		s.notify(cluster.Event{ID: s.id, Ply: s.g.Ply(), Chat: &l})
	}
}

// notify sends an event of the game, as its owner, with its last move and
// who is connected.
func (s *Session) notify(ev cluster.Event) {
	if ev.Ply > 0 {
		ev.Move = s.g.History().Moves()[ev.Ply-1]
	}
	ev.Connected = s.connectedBoth()
	ev.Watchers = s.watchers()
	s.rooms.node.Announce(ev)
}

// noteStatus tells the lobby when the game's status changed since it last
// looked: the game joined or left a list.
func (s *Session) noteStatus() {
	if st := s.g.Status(); st != s.listed {
		s.listed = st
		s.rooms.listsChanged()
	}
}

// reportPresence sends this mirror's clients per seat to the owner, when
// they change; the round of leases reports all the games mirrored at once
// to keep the reports from lapsing.
func (s *Session) reportPresence() {
	rq := cluster.Request{Game: s.id, Op: "presence", Conns: s.conns, Watchers: s.localWatchers(), Sent: time.Now().UnixNano()}
	owner := s.leaseOwner()
	rs := s.rooms
	go func() {
		ctx, cancel := context.WithTimeout(rs.ctx, cluster.ForwardTimeout)
		defer cancel()
		rs.node.Forward(ctx, owner, rq)
	}()
}
