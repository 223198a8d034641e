package round

import (
	"time"

	"github.com/magneton-games/magneton/server/chat"
	"github.com/magneton-games/magneton/server/jsonapi"
	"github.com/magneton-games/magneton/server/wire"
	"github.com/magneton-games/magneton/store"
)

// seen tells the game who is connected at now, for the claims.
func (s *Session) seen(now time.Time) {
	s.g = s.g.Seen(s.connectedBoth(), now)
}

// view is the game as seat sees it at now, as an update.
func (s *Session) view(seat int, now time.Time) wire.Update {
	s.seen(now)
	return s.g.View(seat, now, s.connectedBoth(), chat.Room(seat))
}

// state is the whole game as seat sees it at now, with the chat lines it
// may see.
func (s *Session) state(seat int, now time.Time) wire.State {
	if err := s.ensureChat(); err != nil {
		s.rooms.log.Warn("chat not read", "game", s.id, "err", err)
	}
	s.seen(now)
	return s.g.State(seat, now, s.connectedBoth(), chat.Room(seat), s.chat.Visible(seat, !s.g.Live()))
}

func (s *Session) stateJSON(seat int, now time.Time) []byte {
	return jsonapi.Marshal(s.state(seat, now))
}

// broadcast sends an update to every client, encoding it once per seat.
func (s *Session) broadcast() {
	if len(s.clients) == 0 {
		return
	}
	now := time.Now()
	var cache [3][]byte
	for c := range s.clients {
		i := c.Seat + 1
		if cache[i] == nil {
			cache[i] = jsonapi.Marshal(s.view(c.Seat, now))
		}
		c.Send(cache[i])
	}
}

// sendState sends every client the whole state (after a change an update
// cannot say, such as a takeback).
func (s *Session) sendState() {
	now := time.Now()
	for c := range s.clients {
		c.Send(s.stateJSON(c.Seat, now))
	}
}

// sendChat sends a line to this instance's clients who may see it.
func (s *Session) sendChat(l store.ChatLine) {
	msg := jsonapi.Marshal(wire.ChatMsg{Type: "chat", Line: chat.Line(l)})
	over := !s.g.Live()
	for c := range s.clients {
		if chat.Sees(c.Seat, l.Room, over) {
			c.Send(msg)
		}
	}
}

// showSpectatorChat sends the players the whole state when a game ends
// whose spectators chatted: they see the spectators' room from now on.
func (s *Session) showSpectatorChat() {
	if s.ensureChat() != nil || !s.chat.HasSpectatorLines() {
		return
	}
	now := time.Now()
	for c := range s.clients {
		if c.Seat >= 0 {
			c.Send(s.stateJSON(c.Seat, now))
		}
	}
}
