package round

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/coder/websocket"

	"github.com/magneton-games/magneton/server/identity"
	"github.com/magneton-games/magneton/server/jsonapi"
	"github.com/magneton-games/magneton/server/live"
	"github.com/magneton-games/magneton/server/socket"
	"github.com/magneton-games/magneton/server/wire"
)

// ServeWS is GET /api/games/{id}/ws: a client's socket to a game, as a
// player when its cookies hold a seat, else as a spectator.
func (rs *Rooms) ServeWS(w http.ResponseWriter, r *http.Request) {
	id, ok := jsonapi.PathID(w, r)
	if !ok {
		return
	}
	if rs.closing.Load() {
		jsonapi.WriteError(w, http.StatusServiceUnavailable, "the server is shutting down")
		return
	}
	ip := rs.cfg.Proxies.ClientIP(r)
	if !rs.cfg.Clients.OpenSocket(ip) {
		jsonapi.WriteError(w, http.StatusTooManyRequests, fmt.Sprintf("too many connections from your address: at most %d at once", rs.cfg.Clients.Limits().SocketsPerIP))
		return
	}
	defer rs.cfg.Clients.CloseSocket(ip)
	c := socket.New(ip)
	// The socket's player, by account or guest: a first-time visitor
	// becomes a guest here, the cookie set on the handshake's answer, so
	// that a spectator who opened a game's link at once can chat.
	who, err := rs.cfg.Identities.Who(w, r)
	if err != nil {
		rs.log.Warn("session not read", "err", err)
	}
	c.Name, c.User = who.Name, who.User
	s, err := rs.seat(r, id, who.User, c)
	if err != nil {
		jsonapi.Fail(w, r, rs.log, err)
		return
	}
	if c.Accept(w, r, rs.cfg.Sockets) != nil {
		return // Accept has answered
	}
	rs.connWG.Add(1)
	defer rs.connWG.Done()
	rs.sockets.Add(1)
	defer rs.sockets.Add(-1)
	if rs.closing.Load() {
		c.Close(websocket.StatusGoingAway, "the server is shutting down")
		return
	}
	rs.serve(s, c)
}

// seat finds the game in memory and the client's seat in it, trying again
// when the session left memory meanwhile.
func (rs *Rooms) seat(r *http.Request, id, userID string, c *socket.Client) (*Session, error) {
	var s *Session
	for range 3 {
		var err error
		if s, err = rs.Session(r.Context(), id, true); err != nil {
			return nil, err
		}
		s.mu.Lock()
		row := s.g.Row()
		c.Seat = identity.SeatOf(r, &row, userID)
		evicted := s.evicted
		s.mu.Unlock()
		if !evicted {
			break
		}
	}
	return s, nil
}

// serve runs an accepted socket until it ends.
func (rs *Rooms) serve(s *Session, c *socket.Client) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	writerDone := make(chan struct{})
	go func() {
		c.WriteLoop(ctx)
		close(writerDone)
	}()
	if !s.attach(c) {
		c.Kick(websocket.StatusTryAgainLater, "the game was reloaded or the server is stopping; connect again")
		<-writerDone
		return
	}
	rs.log.Debug("client connected", "game", s.id, "seat", c.Seat)
	go c.PingLoop(ctx, rs.cfg.PingInterval, rs.cfg.PingTimeout)
	c.ReadLoop(ctx, rs.log.With("game", s.id), func(m wire.ClientMsg) error { return rs.handle(s, c, m) })
	s.detach(c)
	c.Kick(websocket.StatusNormalClosure, "")
	<-writerDone
	rs.log.Debug("client left", "game", s.id, "seat", c.Seat)
}

// handle carries out one client message. A panic in it rolls the game back
// to what the database holds and answers an internal error. The actions
// of a game another instance owns are forwarded to it.
func (rs *Rooms) handle(s *Session, c *socket.Client, m wire.ClientMsg) error {
	switch m.Type {
	case "ping":
		c.Send([]byte(`{"type":"pong"}`))
		return nil
	case "sync":
		s.mu.Lock()
		defer s.mu.Unlock()
		c.Send(s.stateJSON(c.Seat, time.Now()))
		return nil
	case "chat":
		m.Name, m.Addr, m.User = c.Name, c.IP, c.User
		return rs.ActAnywhere(s, c.Seat, m)
	case "move", "resign", "draw", "rematch", "cancel", "abort", "takeback", "claim", "computer":
	default:
		return wire.Refusef("unknown message type %q (%s)", m.Type, wire.ClientTypes)
	}
	if c.Seat < 0 && (m.Computer || m.Type == "computer") {
		// Another browser, account or guest: only the player's own may.
		return live.ErrComputerNotYours
	}
	if c.Seat < 0 {
		return wire.Refuse("spectator", "spectators cannot "+m.Type, "action", m.Type)
	}
	return rs.ActAnywhere(s, c.Seat, m)
}
