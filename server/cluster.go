package server

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/magneton-games/magneton/store"
)

// Several instances of the server may share one database (PostgreSQL).
// Each game in play has one owner instance at a time, the holder of the
// game's lease in the database: it alone runs the game's clock and
// computer and writes the game, and the store refuses the writes of any
// other (the lease is checked in each write's transaction). Any instance
// accepts any client: an instance whose client plays a game owned
// elsewhere holds a mirror of it, forwards the client's actions to the
// owner, and refreshes the mirror when the owner announces a change.
// Messages between instances go through the database's notifications
// (LISTEN/NOTIFY): no broker besides.
//
// An instance's leases live as long as it beats (its heartbeat, every
// second): an instance whose last beat is older than leaseTTL is dead, and
// the first instance to try then takes its games over: the instances
// holding a mirror of one, and every instance, every leaseEvery, for the
// games that need an owner with nobody watching (a clock running, the
// computer to move). A dead instance's games thus move within
// leaseTTL + leaseEvery. A single server (SQLite) runs the same way, as
// the owner of everything.
const (
	leaseTTL   = 6 * time.Second
	leaseEvery = time.Second // also the heartbeat's period
	// forwardTimeout is how long a mirror waits for the owner's answer
	// before it tries to take the game over.
	forwardTimeout = 3 * time.Second
	// presenceTTL: a mirror's report of its clients lapses after this;
	// it sends one when they change, and one every presenceEvery for all
	// its games with clients.
	presenceTTL   = 15 * time.Second
	presenceEvery = 5 * time.Second

	gamesChannel = "magneton_games"
	// presenceChannel carries each instance's periodic report of its
	// clients of the games it mirrors, for all of them at once.
	presenceChannel = "magneton_presence"
)

// instChannel is the notification channel of an instance's requests and
// replies: a PostgreSQL identifier (63 bytes at most, lower case).
func instChannel(instance string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(instance) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	sum := sha256.Sum256([]byte(instance))
	name := b.String()
	if len(name) > 30 {
		name = name[:30]
	}
	return "magneton_i_" + name + "_" + hex.EncodeToString(sum[:6])
}

// gameEvent is what an owner announces after each committed change of a
// game: the mirrors read the game again, and show the players' presence
// as the owner sees it (its own clients and the mirrors' reports).
type gameEvent struct {
	ID        string  `json:"id"`
	Ply       int     `json:"ply"`
	By        string  `json:"by"`
	Connected [2]bool `json:"connected"`
	// Watchers is how many spectators the game has on all instances, as
	// the owner knows.
	Watchers int `json:"watchers,omitempty"`
	// Move is the last move and Row the game's row as committed, so that
	// a mirror one move behind catches up without reading the database.
	Move string      `json:"move,omitempty"`
	Row  *store.Game `json:"row,omitempty"`
	// Released says instead that By let the game go: nobody owns it.
	Released bool `json:"released,omitempty"`
	// Chat is a new chat line (the row has not changed).
	Chat *store.ChatLine `json:"chat,omitempty"`
}

// request is what a mirror asks of a game's owner on behalf of a client.
type request struct {
	Req  string `json:"req"`
	From string `json:"from"`
	Game string `json:"game"`
	// Op: "msg" (a client's message, Msg, for Seat), "join" (give the free
	// seat to the token whose hash is Token, with the invitation's hash
	// Invite when one was given, or to anyone for a public game) or
	// "presence" (the mirror's clients per seat, Conns).
	Op     string    `json:"op"`
	Seat   int       `json:"seat"`
	Msg    clientMsg `json:"msg"`
	Token  string    `json:"token,omitempty"`
	Invite string    `json:"invite,omitempty"`
	Who    identity  `json:"who"` // a join's player
	Conns  [2]int    `json:"conns"`
	// Watchers: a presence report's spectators; Sent when it was taken
	// (ns since the epoch).
	Watchers int   `json:"watchers,omitempty"`
	Sent     int64 `json:"sent,omitempty"`
}

// reply is the owner's answer: Error is "" for done, with User set when
// it is a refusal to tell the client (else an internal error); Seat is
// the seat a join gave.
type reply struct {
	Req      string `json:"req"`
	Error    string `json:"error,omitempty"`
	User     bool   `json:"user,omitempty"`
	NotOwner bool   `json:"not_owner,omitempty"`
	// Forbidden: the refusal is of what the client may not do at all.
	Forbidden bool `json:"forbidden,omitempty"`
	// Code and Vars: the refusal's code and values (userError).
	Code string            `json:"code,omitempty"`
	Vars map[string]string `json:"vars,omitempty"`
	Seat int               `json:"seat"`
}

// presenceReport is an instance's periodic report of its clients of the
// games it mirrors (game ID to clients of each seat, then spectators). Each owner takes
// the games it runs. One message for many games: a request per game, each
// with its answer and the owner's announcement, made a burst of thousands
// of notifications every presenceEvery with a thousand games mirrored.
type presenceReport struct {
	By    string            `json:"by"`
	Sent  int64             `json:"sent"` // when it was taken (ns)
	Games map[string][3]int `json:"games"`
}

// presenceChunk is how many games go in one report: a notification holds
// at most 7,000 bytes, and a game takes about 30.
const presenceChunk = 150

// presence is a mirror's last report of its clients of a game.
type presence struct {
	conns    [2]int
	watchers int // spectators
	at       time.Time
	// sent is when the mirror took the report (ns since the epoch): the
	// reports of one mirror travel by two ways (a request when its
	// clients change, the periodic report) and may arrive out of order.
	sent int64
}

// notePresence records a mirror's report of its clients unless one taken
// later has arrived already, and reports whether the players' presence
// changed.
func (s *session) notePresence(from string, p presence) bool {
	if old, ok := s.remote[from]; ok && old.sent > p.sent {
		return false
	}
	before := [2]bool{s.connected(0), s.connected(1)}
	s.remote[from] = p
	return before != [2]bool{s.connected(0), s.connected(1)}
}

// errNotOwner is what a session answers when it is (or became) a mirror
// and cannot do the action itself.
var errNotOwner = errors.New("this instance does not run the game")

// cluster is the server's side of the instances' traffic.
type cluster struct {
	mu      sync.Mutex
	pending map[string]chan reply
}

// listen starts the delivery of the notifications for this instance.
func (s *Server) listen(ctx context.Context) error {
	ns, err := s.st.Listen(s.ctx, gamesChannel, presenceChannel, instChannel(s.cfg.Instance))
	if err != nil {
		return fmt.Errorf("server: listen: %w", err)
	}
	s.bgWG.Add(1)
	go func() {
		defer s.bgWG.Done()
		for n := range ns {
			s.onNotification(n)
		}
	}()
	return nil
}

func (s *Server) onNotification(n store.Notification) {
	switch {
	case n.Reconnected:
		// Notifications may be lost: read every mirror again.
		for _, sess := range s.liveSessions() {
			sess.mu.Lock()
			if sess.mirror {
				sess.refresh()
			}
			sess.mu.Unlock()
		}
	case n.Channel == gamesChannel:
		var ev gameEvent
		if json.Unmarshal([]byte(n.Payload), &ev) != nil || ev.By == s.cfg.Instance {
			return
		}
		s.mu.Lock()
		sess := s.sessions[ev.ID]
		s.mu.Unlock()
		if sess == nil {
			return
		}
		sess.mu.Lock()
		defer sess.mu.Unlock()
		if ev.Released {
			if sess.knownOwner == ev.By {
				sess.knownOwner = ""
			}
			return
		}
		sess.ownerConnected, sess.ownerWatchers = ev.Connected, ev.Watchers
		sess.knownOwner = ev.By
		if !sess.mirror {
			// Another instance wrote the game: this one lost it.
			sess.becomeMirror()
			return
		}
		if ev.Chat != nil {
			sess.takeChat(*ev.Chat)
			return
		}
		defer sess.noteStatus()
		if sess.follow(ev) {
			return
		}
		if err := sess.refresh(); err != nil {
			s.log.Warn("mirror not refreshed", "game", ev.ID, "err", err)
		}
	case n.Channel == presenceChannel:
		var r presenceReport
		if json.Unmarshal([]byte(n.Payload), &r) != nil || r.By == s.cfg.Instance {
			return
		}
		// Off the listener: a game's lock may be held by a commit.
		s.bgWG.Add(1) // the listener, which is here, holds the group open
		go func() {
			defer s.bgWG.Done()
			s.takePresence(r)
		}()
	default:
		var rp reply
		if strings.Contains(n.Payload, `"op"`) {
			var rq request
			if json.Unmarshal([]byte(n.Payload), &rq) == nil {
				go s.serveRequest(rq)
			}
			return
		}
		if json.Unmarshal([]byte(n.Payload), &rp) == nil {
			s.cl.mu.Lock()
			ch := s.cl.pending[rp.Req]
			delete(s.cl.pending, rp.Req)
			s.cl.mu.Unlock()
			if ch != nil {
				ch <- rp
			}
		}
	}
}

// takePresence records another instance's report for the games this one
// runs; the players see a change at once.
func (s *Server) takePresence(r presenceReport) {
	now := time.Now()
	for id, v := range r.Games {
		s.mu.Lock()
		sess := s.sessions[id]
		s.mu.Unlock()
		if sess == nil {
			continue
		}
		sess.mu.Lock()
		if !sess.mirror && !sess.closed && !sess.evicted &&
			sess.notePresence(r.By, presence{conns: [2]int{v[0], v[1]}, watchers: v[2], at: now, sent: r.Sent}) {
			sess.announce()
			sess.broadcast()
		}
		sess.mu.Unlock()
	}
}

// sendPresence sends this instance's report of the games it mirrors, in
// chunks that fit a notification.
func (s *Server) sendPresence(ctx context.Context, games map[string][3]int, sent int64) {
	chunk := map[string][3]int{}
	flush := func() {
		if len(chunk) == 0 {
			return
		}
		b, _ := json.Marshal(presenceReport{By: s.cfg.Instance, Sent: sent, Games: chunk})
		if err := s.st.Notify(ctx, presenceChannel, string(b)); err != nil {
			s.log.Warn("presence not reported", "err", err)
		}
		chunk = map[string][3]int{}
	}
	for id, conns := range games {
		chunk[id] = conns
		if len(chunk) == presenceChunk {
			flush()
		}
	}
	flush()
}

// idSet returns the set of the ids.
func idSet(ids []string) map[string]bool {
	set := make(map[string]bool, len(ids))
	for _, id := range ids {
		set[id] = true
	}
	return set
}

// liveSessions returns the sessions in memory.
func (s *Server) liveSessions() []*session {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*session, 0, len(s.sessions))
	for _, sess := range s.sessions {
		out = append(out, sess)
	}
	return out
}

// serveRequest carries out a mirror's request as the game's owner and
// answers it.
func (s *Server) serveRequest(rq request) {
	rp := reply{Req: rq.Req}
	seat, err := s.ownerDo(rq)
	var ue userError
	switch {
	case err == nil:
	case errors.Is(err, errNotOwner):
		rp.NotOwner, rp.Error = true, err.Error()
	case errors.As(err, &ue):
		rp.Error, rp.User, rp.Forbidden, rp.Code, rp.Vars = ue.msg, true, ue.forbidden, ue.code, ue.vars
	default:
		s.log.Error("request failed", "game", rq.Game, "op", rq.Op, "from", rq.From, "err", err)
		rp.Error = "internal error"
	}
	rp.Seat = seat
	b, _ := json.Marshal(rp)
	ctx, cancel := context.WithTimeout(context.Background(), s.cfg.WriteTimeout)
	defer cancel()
	if err := s.st.Notify(ctx, instChannel(rq.From), string(b)); err != nil {
		s.log.Warn("reply not sent", "to", rq.From, "err", err)
	}
}

// ownerDo is serveRequest's work; the seat is a join's.
func (s *Server) ownerDo(rq request) (seat int, err error) {
	ctx, cancel := context.WithTimeout(s.ctx, s.cfg.WriteTimeout)
	defer cancel()
	sess, err := s.session(ctx, rq.Game, true)
	if err != nil {
		return 0, err
	}
	sess.mu.Lock()
	defer sess.mu.Unlock()
	defer sess.recoverError(&err, "request "+rq.Op)
	if sess.mirror {
		// Asked as the owner: the lease may say so already, before this
		// instance's round of leases has caught up.
		sess.tryOwn(ctx, time.Now())
	}
	if sess.mirror {
		return 0, errNotOwner
	}
	switch rq.Op {
	case "msg":
		return 0, sess.act(rq.Seat, rq.Msg)
	case "join":
		return sess.joinHashed(rq.Token, rq.Invite, rq.Who)
	case "presence":
		// Announced even when nothing changed: a new mirror learns who is
		// connected so.
		changed := sess.notePresence(rq.From, presence{conns: rq.Conns, watchers: rq.Watchers, at: time.Now(), sent: rq.Sent})
		sess.announce()
		if changed {
			sess.broadcast()
		}
		return 0, nil
	}
	return 0, fmt.Errorf("unknown request %q", rq.Op)
}

// forward sends a request to the owner of a game and waits for the
// answer. When the owner does not answer in time, or answers that it is
// not the owner any more, the caller may take the game over.
func (s *Server) forward(ctx context.Context, owner string, rq request) (reply, error) {
	rq.Req, rq.From = newToken(), s.cfg.Instance
	ch := make(chan reply, 1)
	s.cl.mu.Lock()
	s.cl.pending[rq.Req] = ch
	s.cl.mu.Unlock()
	defer func() {
		s.cl.mu.Lock()
		delete(s.cl.pending, rq.Req)
		s.cl.mu.Unlock()
	}()
	b, _ := json.Marshal(rq)
	if err := s.st.Notify(ctx, instChannel(owner), string(b)); err != nil {
		return reply{}, err
	}
	t := time.NewTimer(forwardTimeout)
	defer t.Stop()
	select {
	case rp := <-ch:
		return rp, nil
	case <-t.C:
		return reply{}, fmt.Errorf("the instance %s running the game did not answer within %v", owner, forwardTimeout)
	case <-ctx.Done():
		return reply{}, ctx.Err()
	}
}

// leases renews this instance's leases, takes over the games whose owner
// is gone, and lets go of what it lost, every leaseEvery.
func (s *Server) leases() {
	defer s.bgWG.Done()
	t := time.NewTicker(leaseEvery)
	defer t.Stop()
	round := 0
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-t.C:
		}
		round++
		s.leaseRound(round%int(presenceEvery/leaseEvery) == 0)
	}
}

// leaseRound is one round of leases.
func (s *Server) leaseRound(reportPresence bool) {
	ctx, cancel := context.WithTimeout(s.ctx, 10*time.Second)
	defer cancel()
	now := time.Now()
	// The sessions first: a game made here is in the database, lease and
	// all, before its session is listed, so every session of the list
	// whose lease is this instance's is among those held.
	sessions := s.liveSessions()
	held, err := s.st.HeldLeases(ctx, s.cfg.Instance)
	if err != nil {
		s.log.Warn("leases not read", "err", err)
		return
	}
	mine := idSet(held)
	// One question for all the games followed here, rather than one per
	// game: with a thousand games mirrored, those reads were most of
	// what an instance asked of the database.
	unowned, err := s.st.Ownerless(ctx, millis(now.Add(-leaseTTL)))
	if err != nil {
		s.log.Warn("games without an owner not listed", "err", err)
		return
	}
	free := idSet(unowned)
	report, taken := map[string][3]int{}, time.Now().UnixNano() // before any snapshot: a report taken meanwhile wins
	for _, sess := range sessions {
		sess.mu.Lock()
		switch {
		case sess.closed || sess.evicted:
		case !sess.mirror && !mine[sess.id] && sess.leaseOwner() != s.cfg.Instance:
			// Another instance took it over. (The second look catches a
			// game taken over here since the list was read.)
			sess.becomeMirror()
		case sess.mirror && (free[sess.id] || mine[sess.id]):
			sess.tryOwn(ctx, now)
		}
		if !sess.mirror {
			sess.expirePresence(now)
		} else if reportPresence && len(sess.clients) > 0 {
			report[sess.id] = [3]int{sess.conns[0], sess.conns[1], sess.localWatchers()}
		}
		sess.mu.Unlock()
	}
	s.sendPresence(ctx, report, taken)
	orphans, err := s.st.Orphans(ctx, millis(now.Add(-leaseTTL)))
	if err != nil {
		s.log.Warn("games without an instance not listed", "err", err)
		return
	}
	for _, id := range orphans {
		if _, err := s.session(ctx, id, true); err != nil {
			s.log.Warn("game not taken over", "game", id, "err", err)
		}
	}
}
