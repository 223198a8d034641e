// Package cluster is the traffic between the server instances that share
// one database (PostgreSQL). Each game in play has one owner instance at
// a time, the holder of the game's lease in the database: it alone runs
// the game's clock and computer and writes the game, and the store refuses
// the writes of any other (the lease is checked in each write's
// transaction). Any instance accepts any client: an instance whose client
// plays a game owned elsewhere holds a mirror of it, forwards the
// client's actions to the owner (Request), and follows the owner's
// announcements of each change (Event). Messages go through the
// database's notifications (LISTEN/NOTIFY): no broker besides.
//
// An instance's leases live as long as it beats (its heartbeat, every
// second): an instance whose last beat is older than LeaseTTL is dead,
// and the first instance to try then takes its games over: the instances
// holding a mirror of one, and every instance, every LeaseEvery, for the
// games that need an owner with nobody watching (a clock running, the
// computer to move). A dead instance's games thus move within LeaseTTL +
// LeaseEvery. A single server (SQLite) runs the same way, as the owner of
// everything.
//
// This package carries the messages; what an instance does with them is
// its Handler's (package round).
package cluster

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/magneton-games/magneton/server/ids"
	"github.com/magneton-games/magneton/server/live"
	"github.com/magneton-games/magneton/server/wire"
	"github.com/magneton-games/magneton/store"
)

// The timing of leases and reports.
const (
	LeaseTTL   = 6 * time.Second
	LeaseEvery = time.Second // also the heartbeat's period
	// ForwardTimeout is how long a mirror waits for the owner's answer
	// before it tries to take the game over.
	ForwardTimeout = 3 * time.Second
	// PresenceTTL: a mirror's report of its clients lapses after this; it
	// sends one when they change, and one every PresenceEvery for all its
	// games with clients.
	PresenceTTL   = 15 * time.Second
	PresenceEvery = 5 * time.Second
)

const (
	gamesChannel = "magneton_games"
	// presenceChannel carries each instance's periodic report of its
	// clients of the games it mirrors, for all of them at once.
	presenceChannel = "magneton_presence"
	// maxEvent is the size past which an event is sent without its row
	// (the mirrors read the database instead): a notification holds at
	// most 7,000 bytes.
	maxEvent = 6000
	// presenceChunk is how many games go in one report: a game takes
	// about 30 bytes.
	presenceChunk = 150
)

// Channel is the notification channel of an instance's requests and
// replies: a PostgreSQL identifier (63 bytes at most, lower case).
func Channel(instance string) string {
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

// Event is what an owner announces after each committed change of a game:
// the mirrors follow it, and show the players' presence as the owner sees
// it (its own clients and the mirrors' reports).
type Event struct {
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

// Request is what a mirror asks of a game's owner on behalf of a client.
type Request struct {
	Req  string `json:"req"`
	From string `json:"from"`
	Game string `json:"game"`
	// Op: "msg" (a client's message, Msg, for Seat), "join" (give the free
	// seat to the token whose hash is Token, with the invitation's hash
	// Invite when one was given, or to anyone for a public game) or
	// "presence" (the mirror's clients per seat, Conns).
	Op     string         `json:"op"`
	Seat   int            `json:"seat"`
	Msg    wire.ClientMsg `json:"msg"`
	Token  string         `json:"token,omitempty"`
	Invite string         `json:"invite,omitempty"`
	Who    live.Player    `json:"who"` // a join's player
	Conns  [2]int         `json:"conns"`
	// Watchers: a presence report's spectators; Sent when it was taken
	// (ns since the epoch).
	Watchers int   `json:"watchers,omitempty"`
	Sent     int64 `json:"sent,omitempty"`
}

// Reply is the owner's answer: Error is "" for done, with User set when it
// is a refusal to tell the client (else an internal error); Seat is the
// seat a join gave.
type Reply struct {
	Req      string `json:"req"`
	Error    string `json:"error,omitempty"`
	User     bool   `json:"user,omitempty"`
	NotOwner bool   `json:"not_owner,omitempty"`
	// Forbidden, Code and Vars: the refusal's (wire.Refusal).
	Forbidden bool              `json:"forbidden,omitempty"`
	Code      string            `json:"code,omitempty"`
	Vars      map[string]string `json:"vars,omitempty"`
	Seat      int               `json:"seat"`
}

// ErrNotOwner is what an instance answers when it does not run the game
// (or no longer does): the caller may take it over and try again.
var ErrNotOwner = errors.New("this instance does not run the game")

// Answer is the reply to a request that the owner's work answered with
// seat and err.
func Answer(rq Request, seat int, err error) Reply {
	rp := Reply{Req: rq.Req, Seat: seat}
	var rf wire.Refusal
	switch {
	case err == nil:
	case errors.Is(err, ErrNotOwner):
		rp.NotOwner, rp.Error = true, err.Error()
	case errors.As(err, &rf):
		rp.Error, rp.User, rp.Forbidden, rp.Code, rp.Vars = rf.Msg, true, rf.Forbidden, rf.Code, rf.Vars
	default:
		rp.Error = "internal error"
	}
	return rp
}

// Err is the owner's answer as the mirror's error: nil, ErrNotOwner, the
// refusal, or the owner's internal error.
func (rp Reply) Err() error {
	switch {
	case rp.NotOwner:
		return ErrNotOwner
	case rp.Error != "" && rp.User:
		return wire.Refusal{Msg: rp.Error, Forbidden: rp.Forbidden, Code: rp.Code, Vars: rp.Vars}
	case rp.Error != "":
		return errors.New(rp.Error)
	}
	return nil
}

// PresenceReport is an instance's periodic report of its clients of the
// games it mirrors (game ID to clients of each seat, then spectators).
// Each owner takes the games it runs. One message for many games: a
// request per game, each with its answer and the owner's announcement,
// made a burst of thousands of notifications every PresenceEvery with a
// thousand games mirrored.
type PresenceReport struct {
	By    string            `json:"by"`
	Sent  int64             `json:"sent"` // when it was taken (ns)
	Games map[string][3]int `json:"games"`
}

// Handler is what an instance does with the traffic for it. Each method is
// called on a goroutine of its own but GameEvent and Reconnected, which
// the listener calls in order.
type Handler interface {
	// GameEvent follows another instance's announcement of a game.
	GameEvent(ev Event)
	// Request does a mirror's request as the game's owner.
	Request(rq Request) (seat int, err error)
	// Presence takes another instance's report of its clients.
	Presence(r PresenceReport)
	// Reconnected is told that notifications may have been lost.
	Reconnected()
}

// Notifier is the part of the store that carries the notifications.
type Notifier interface {
	Notify(ctx context.Context, channel, payload string) error
	Listen(ctx context.Context, channels ...string) (<-chan store.Notification, error)
}

// Node is one instance's end of the traffic.
type Node struct {
	st       Notifier
	instance string
	log      *slog.Logger
	timeout  time.Duration // of one notification sent
	mu       sync.Mutex
	pending  map[string]chan Reply
}

// NewNode is the end of instance, sending through st, each notification
// within timeout.
func NewNode(st Notifier, instance string, timeout time.Duration, log *slog.Logger) *Node {
	return &Node{st: st, instance: instance, timeout: timeout, log: log, pending: map[string]chan Reply{}}
}

// Instance returns the instance's name.
func (n *Node) Instance() string { return n.instance }

// Listen starts the delivery of the notifications for this instance to h,
// until ctx ends; wg counts the goroutines it starts.
func (n *Node) Listen(ctx context.Context, h Handler, wg *sync.WaitGroup) error {
	ns, err := n.st.Listen(ctx, gamesChannel, presenceChannel, Channel(n.instance))
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for note := range ns {
			n.deliver(note, h, wg)
		}
	}()
	return nil
}

func (n *Node) deliver(note store.Notification, h Handler, wg *sync.WaitGroup) {
	switch {
	case note.Reconnected:
		h.Reconnected()
	case note.Channel == gamesChannel:
		var ev Event
		if json.Unmarshal([]byte(note.Payload), &ev) == nil && ev.By != n.instance {
			h.GameEvent(ev)
		}
	case note.Channel == presenceChannel:
		var r PresenceReport
		if json.Unmarshal([]byte(note.Payload), &r) != nil || r.By == n.instance {
			return
		}
		// Off the listener: a game's lock may be held by a commit.
		wg.Add(1) // the listener, which is here, holds the group open
		go func() {
			defer wg.Done()
			h.Presence(r)
		}()
	case strings.Contains(note.Payload, `"op"`):
		var rq Request
		if json.Unmarshal([]byte(note.Payload), &rq) == nil {
			go n.serve(rq, h)
		}
	default:
		var rp Reply
		if json.Unmarshal([]byte(note.Payload), &rp) == nil {
			n.mu.Lock()
			ch := n.pending[rp.Req]
			delete(n.pending, rp.Req)
			n.mu.Unlock()
			if ch != nil {
				ch <- rp
			}
		}
	}
}

// serve does a mirror's request with h and answers it.
func (n *Node) serve(rq Request, h Handler) {
	seat, err := h.Request(rq)
	if err != nil && !errors.Is(err, ErrNotOwner) {
		var rf wire.Refusal
		if !errors.As(err, &rf) {
			n.log.Error("request failed", "game", rq.Game, "op", rq.Op, "from", rq.From, "err", err)
		}
	}
	b, _ := json.Marshal(Answer(rq, seat, err))
	ctx, cancel := context.WithTimeout(context.Background(), n.timeout)
	defer cancel()
	if err := n.st.Notify(ctx, Channel(rq.From), string(b)); err != nil {
		n.log.Warn("reply not sent", "to", rq.From, "err", err)
	}
}

// Forward sends a request to the owner of a game and waits for the
// answer. When the owner does not answer within ForwardTimeout, the
// caller may take the game over.
func (n *Node) Forward(ctx context.Context, owner string, rq Request) (Reply, error) {
	rq.Req, rq.From = ids.Token(), n.instance
	ch := make(chan Reply, 1)
	n.mu.Lock()
	n.pending[rq.Req] = ch
	n.mu.Unlock()
	defer func() {
		n.mu.Lock()
		delete(n.pending, rq.Req)
		n.mu.Unlock()
	}()
	b, _ := json.Marshal(rq)
	if err := n.st.Notify(ctx, Channel(owner), string(b)); err != nil {
		return Reply{}, err
	}
	t := time.NewTimer(ForwardTimeout)
	defer t.Stop()
	select {
	case rp := <-ch:
		return rp, nil
	case <-t.C:
		return Reply{}, fmt.Errorf("the instance %s running the game did not answer within %v", owner, ForwardTimeout)
	case <-ctx.Done():
		return Reply{}, ctx.Err()
	}
}

// Announce sends an owner's event of a game, with the row when it fits.
func (n *Node) Announce(ev Event) {
	ev.By = n.instance
	b, _ := json.Marshal(ev)
	if len(b) > maxEvent {
		// Too long to carry the row: the mirrors read the database.
		ev.Row = nil
		b, _ = json.Marshal(ev)
	}
	ctx, cancel := context.WithTimeout(context.Background(), n.timeout)
	defer cancel()
	if err := n.st.Notify(ctx, gamesChannel, string(b)); err != nil {
		n.log.Warn("change not announced", "game", ev.ID, "err", err)
	}
}

// Released tells the mirrors that this instance let a game go: they
// forward to the instance they last heard from, and must ask the database
// instead, since this one may be stopping.
func (n *Node) Released(ctx context.Context, id string) {
	b, _ := json.Marshal(Event{ID: id, By: n.instance, Released: true})
	if err := n.st.Notify(ctx, gamesChannel, string(b)); err != nil {
		n.log.Warn("release not announced", "game", id, "err", err)
	}
}

// SendPresence sends this instance's report of the games it mirrors, in
// chunks that fit a notification.
func (n *Node) SendPresence(ctx context.Context, games map[string][3]int, sent int64) {
	chunk := map[string][3]int{}
	flush := func() {
		if len(chunk) == 0 {
			return
		}
		b, _ := json.Marshal(PresenceReport{By: n.instance, Sent: sent, Games: chunk})
		if err := n.st.Notify(ctx, presenceChannel, string(b)); err != nil {
			n.log.Warn("presence not reported", "err", err)
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
