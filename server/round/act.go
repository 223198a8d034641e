package round

import (
	"context"
	"errors"
	"time"

	"github.com/magneton-games/magneton/rating"
	"github.com/magneton-games/magneton/server/chat"
	"github.com/magneton-games/magneton/server/cluster"
	"github.com/magneton-games/magneton/server/ids"
	"github.com/magneton-games/magneton/server/live"
	"github.com/magneton-games/magneton/server/ratings"
	"github.com/magneton-games/magneton/server/socket"
	"github.com/magneton-games/magneton/server/wire"
	"github.com/magneton-games/magneton/store"
)

// errDisagree is what a client hears when the instances passed its action
// back and forth without one doing it.
var errDisagree = wire.Refuse("instances_disagree", "the server instances could not agree who runs this game; please try again")

// act carries out a player's message (move, resign, draw, rematch, chat)
// for seat, as the game's owner, with s.mu held; the message arrived here
// at arrived (for the move's latency).
func (s *Session) act(seat int, m wire.ClientMsg, arrived time.Time) error {
	if s.mirror {
		return cluster.ErrNotOwner
	}
	now := time.Now()
	s.touched = now
	ev := live.Event{Kind: live.Kind(m.Type), Seat: seat, Move: m.Move, Action: m.Action, Computer: m.Computer, Position: m.Position, Where: m.Where}
	if m.Computer && ev.Kind == live.Move {
		if m.Ply == nil {
			return wire.Refusef("move: the computer's move needs its ply, the number of moves before it")
		}
		ev.Ply = *m.Ply
	}
	switch ev.Kind {
	case "chat":
		return s.postChat(seat, m.Name, m.Addr, m.User, m.Text)
	case live.Cancel:
	case live.Move, live.Resign, live.Draw, live.Abort, live.Takeback, live.Claim, live.Rematch, live.HandOver:
		if s.closed {
			return wire.ErrShuttingDown
		}
		if err := s.mayPlay(seat); err != nil {
			return err
		}
	default:
		return wire.Refusef("unknown message type %q", m.Type)
	}
	switch ev.Kind {
	case live.Rematch:
		ev.NewID = ids.New()
	case live.Claim:
		s.seen(now) // the claim is judged by who is away now
	}
	_, err := s.run(ev, now)
	if ev.Kind == live.Move && err == nil {
		// Saved and broadcast: a move refused or not saved is an error.
		s.rooms.metrics.MoveLatency(time.Since(arrived))
	}
	return err
}

// mayPlay refuses the actions of a seat whose account the moderators
// banned or closed.
func (s *Session) mayPlay(seat int) error {
	if mod := s.rooms.cfg.Moderation; mod != nil {
		return mod.CheckPlay(s.rooms.ctx, s.g.Row().Users[seat])
	}
	return nil
}

// mayChat refuses a line of a muted account, and the players' lines in a
// game between two accounts of which one blocks the other.
func (s *Session) mayChat(seat int, user string, now time.Time) error {
	mod := s.rooms.cfg.Moderation
	if mod == nil {
		return nil
	}
	row := s.g.Row()
	if seat >= 0 {
		user = row.Users[seat]
		if err := mod.CheckPair(s.rooms.ctx, row.Users[0], row.Users[1]); err != nil {
			return err
		}
	}
	return mod.CheckChat(s.rooms.ctx, user, now)
}

// postChat adds a line by seat (-1: a spectator named name, from the
// address addr, of the account user or a guest), saved, then sent to those
// who may see it, here and on the other instances.
func (s *Session) postChat(seat int, name, addr, user, text string) error {
	text, err := chat.Clean(text)
	if err != nil {
		return err
	}
	if err := s.mayChat(seat, user, time.Now()); err != nil {
		return err
	}
	writer := chat.Writer(seat, name, addr)
	if seat >= 0 {
		name = s.g.Row().Players[seat]
	}
	if name == "" {
		return wire.Refuse("chat_no_name", "chat: you need a name to chat: open the home page once to play as a guest, or log in")
	}
	now := time.Now()
	if !s.chat.Allow(writer, now) {
		return wire.Refuse("chat_fast", "chat: too many messages; wait a moment")
	}
	if err := s.ensureChat(); err != nil {
		return s.failed("chat not read", err)
	}
	if err := s.chat.Full(chat.Room(seat)); err != nil {
		return err
	}
	l := s.chat.Next(s.id, seat, name, text, now)
	ctx, cancel := s.rooms.dbContext()
	err = s.rooms.st.AddChat(ctx, l)
	cancel()
	if err != nil {
		return s.failed("chat not saved", err)
	}
	s.chat.Add(l)
	s.sendChat(l)
	s.announceChat(l)
	return nil
}

// join gives the free seat of a waiting game to the holder of the token
// whose hash is tokenHash (see live.Join), as its owner, with s.mu held.
func (s *Session) join(tokenHash, inviteHash string, who live.Player) (int, error) {
	if s.mirror {
		return 0, cluster.ErrNotOwner
	}
	if s.closed {
		return 0, wire.ErrShuttingDown
	}
	ev := live.Event{Kind: live.Join, Token: tokenHash, Invite: inviteHash, Player: who}
	if row := s.g.Row(); row.Rated && who.User != "" && row.Users[0] != who.User && row.Users[1] != who.User {
		r, err := s.ratedJoiner(&row, who.User)
		if err != nil {
			return 0, err
		}
		ev.Rating = r
	}
	fx, err := s.run(ev, time.Now())
	if mod := s.rooms.cfg.Moderation; err == nil && mod != nil {
		row := s.g.Row()
		mod.FlagShared(s.rooms.ctx, &row)
	}
	return fx.Seat, err
}

// ratedJoiner reads the rating of userID, who joins the rated game row,
// and refuses the join when the two accounts have played their rated
// games with each other for the day (ratings.PairLimit).
func (s *Session) ratedJoiner(row *store.Game, userID string) (rating.Rating, error) {
	ctx, cancel := s.rooms.dbContext()
	defer cancel()
	for _, creator := range row.Users {
		if creator == "" {
			continue
		}
		ok, err := ratings.PairAllowed(ctx, s.rooms.st, creator, userID, time.Now())
		if err != nil {
			return rating.Rating{}, err
		}
		if !ok {
			return rating.Rating{}, ratings.ErrPair
		}
	}
	return ratings.Of(ctx, s.rooms.st, userID, row.Game, row.Family)
}

// ActAnywhere does a seated player's action on this instance if it owns
// the game, else on its owner.
func (rs *Rooms) ActAnywhere(s *Session, seat int, m wire.ClientMsg) error {
	arrived := time.Now()
	for range 3 {
		err := rs.actLocally(s, seat, m, arrived)
		if !errors.Is(err, cluster.ErrNotOwner) {
			return err
		}
		rq := cluster.Request{Game: s.id, Op: "msg", Seat: seat, Msg: m}
		if _, err = rs.forward(s, rq); !errors.Is(err, cluster.ErrNotOwner) {
			return err
		}
	}
	return errDisagree
}

// actLocally does the action as the game's owner (cluster.ErrNotOwner for
// a mirror).
func (rs *Rooms) actLocally(s *Session, seat int, m wire.ClientMsg, arrived time.Time) (err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.recoverError(&err, "message "+m.Type)
	return s.act(seat, m, arrived)
}

// JoinAnywhere gives the free seat to a token's holder, on this instance
// if it owns the game, else on its owner.
func (rs *Rooms) JoinAnywhere(s *Session, tokenHash, inviteHash string, who live.Player) (int, error) {
	for range 3 {
		s.mu.Lock()
		seat, err := s.join(tokenHash, inviteHash, who)
		s.mu.Unlock()
		if !errors.Is(err, cluster.ErrNotOwner) {
			return seat, err
		}
		rq := cluster.Request{Game: s.id, Op: "join", Token: tokenHash, Invite: inviteHash, Who: who}
		if seat, err = rs.forward(s, rq); !errors.Is(err, cluster.ErrNotOwner) {
			return seat, err
		}
	}
	return 0, errDisagree
}

// forward sends a request to the game's owner. When the owner does not
// answer, or is not the owner any more, this instance tries to take the
// game over, and cluster.ErrNotOwner tells the caller to try again.
func (rs *Rooms) forward(s *Session, rq cluster.Request) (int, error) {
	s.mu.Lock()
	owner := s.knownOwner
	if owner == "" {
		owner = s.leaseOwner()
	}
	s.mu.Unlock()
	if owner == rs.cfg.Instance || owner == "" {
		rs.takeOver(s)
		return 0, cluster.ErrNotOwner
	}
	ctx, cancel := context.WithTimeout(rs.ctx, cluster.ForwardTimeout+time.Second)
	defer cancel()
	rp, err := rs.node.Forward(ctx, owner, rq)
	if err != nil || rp.NotOwner {
		rs.takeOver(s)
		return 0, cluster.ErrNotOwner
	}
	return rp.Seat, rp.Err()
}

// takeOver makes this instance the game's owner if its lease has expired.
func (rs *Rooms) takeOver(s *Session) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.knownOwner = "" // ask the database next time
	if s.mirror {
		ctx, cancel := context.WithTimeout(rs.ctx, rs.cfg.WriteTimeout)
		defer cancel()
		s.tryOwn(ctx, time.Now())
	}
}

// attach adds a client and sends it the state; false if the session has
// left the map meanwhile or the server is shutting down.
func (s *Session) attach(c *socket.Client) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.evicted || s.closed {
		return false
	}
	now := time.Now()
	s.touched = now
	if c.Seat >= 0 {
		s.conns[c.Seat]++
	}
	c.Send(s.stateJSON(c.Seat, now))
	if c.Seat >= 0 && s.conns[c.Seat] == 1 {
		s.presenceChanged() // the others see the player connected
	}
	s.clients[c] = struct{}{}
	return true
}

// presenceChanged tells everyone that a seat's connection changed: the
// local clients, and the other instances (through the owner).
func (s *Session) presenceChanged() {
	s.broadcast()
	if s.mirror {
		s.reportPresence()
	} else {
		s.announce()
	}
}

// detach removes a client.
func (s *Session) detach(c *socket.Client) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.clients[c]; !ok {
		return
	}
	delete(s.clients, c)
	if c.Seat >= 0 {
		s.conns[c.Seat]--
		if s.conns[c.Seat] == 0 && !s.closed {
			s.presenceChanged()
		}
	}
	s.maybeEvict(time.Now())
}
