package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/coder/websocket"
)

const (
	// maxFrame is the largest message a client may send; a larger one is
	// answered with an error, then the socket is closed (1009).
	maxFrame = 4 << 10
	// hardFrame is the most the socket reads of any message before it
	// closes at once: the bound on what a client can make the server
	// hold.
	hardFrame = 64 << 10
	// sendQueue is how many messages may wait for a slow client before it
	// is dropped.
	sendQueue = 64
	// floodWindow and maxFloods: a connection that sends more than
	// maxFloods messages over its rate within floodWindow is closed (1008).
	// Only recent floods count, so a client whose rate is fine on the
	// whole is never cut off for old bursts.
	floodWindow = 10 * time.Second
	maxFloods   = 40
	// writeTimeout bounds one write to a socket.
	writeTimeout = 10 * time.Second

	closeGoingAway = websocket.StatusGoingAway
)

// A client is one WebSocket connection to a game.
type client struct {
	conn *websocket.Conn
	ip   string
	seat int // -1 for a spectator
	// name is the account's or guest's name the socket came with ("" for
	// neither), for a spectator's chat.
	name string
	out  chan []byte
	quit chan struct{}
	once sync.Once
	code websocket.StatusCode
	why  string
}

// send queues a message without blocking; a client that cannot keep up is
// dropped.
func (c *client) send(msg []byte) {
	select {
	case <-c.quit:
	case c.out <- msg:
	default:
		c.kick(websocket.StatusPolicyViolation, "too slow: messages were waiting")
	}
}

// kick asks the writer to close the connection with a status.
func (c *client) kick(code websocket.StatusCode, why string) {
	c.once.Do(func() {
		c.code, c.why = code, why
		close(c.quit)
	})
}

// writeLoop writes queued messages until the client is kicked or a write
// fails, then closes the connection.
func (c *client) writeLoop(ctx context.Context) {
	for {
		select {
		case msg := <-c.out:
			wctx, cancel := context.WithTimeout(ctx, writeTimeout)
			err := c.conn.Write(wctx, websocket.MessageText, msg)
			cancel()
			if err != nil {
				c.kick(websocket.StatusInternalError, "write failed")
				c.conn.CloseNow()
				return
			}
		case <-c.quit:
			// Flush what is queued (an error, the last state), then close.
			for {
				select {
				case msg := <-c.out:
					wctx, cancel := context.WithTimeout(ctx, time.Second)
					err := c.conn.Write(wctx, websocket.MessageText, msg)
					cancel()
					if err != nil {
						c.conn.CloseNow()
						return
					}
					continue
				default:
				}
				break
			}
			c.conn.Close(c.code, c.why)
			return
		}
	}
}

func (c *client) sendError(msg string) {
	c.sendRefusal(userError{msg: msg})
}

// sendRefusal sends a refusal with its code and values, if it has them.
func (c *client) sendRefusal(ue userError) {
	m := refusalJSON(ue, "message")
	m["type"] = "error"
	b, _ := json.Marshal(m)
	c.send(b)
}

// clientMsg is any message a client sends.
type clientMsg struct {
	Type   string `json:"type"`
	Move   string `json:"move"`
	Action string `json:"action"`
	Text   string `json:"text"` // a chat line
	// Name is the sender's name for a spectator's chat line: set by the
	// server from the socket's account or guest (whatever a client
	// sends there is replaced), carried to the game's owner.
	Name string `json:"name,omitempty"`
}

// jsonError says what is wrong with a JSON text that did not decode, in
// the protocol's words rather than Go's.
func jsonError(err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return fmt.Sprintf("not JSON (at byte %d: %v)", syn.Offset, syn)
	case errors.As(err, &typ):
		want := "a " + jsonKind(typ.Type)
		if typ.Field == "" {
			return fmt.Sprintf("want a JSON object, not %s", typ.Value)
		}
		return fmt.Sprintf("field %q must be %s, not %s", typ.Field, want, typ.Value)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "the JSON text ends too early"
	}
	return "not a JSON object"
}

// jsonKind names a Go type as its JSON kind.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return "number"
	case reflect.Slice, reflect.Array:
		return "array"
	}
	return "object"
}

// bucket is a token bucket limiting a connection's messages.
type bucket struct {
	rate   float64
	burst  float64
	tokens float64
	last   time.Time
}

func (b *bucket) allow(now time.Time) bool {
	b.tokens = min(b.burst, b.tokens+now.Sub(b.last).Seconds()*b.rate)
	b.last = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// floods counts a connection's recent messages over its rate.
type floods struct {
	at []time.Time
}

// add counts one at now and reports whether there are more than maxFloods
// within floodWindow.
func (f *floods) add(now time.Time) bool {
	keep := f.at[:0]
	for _, t := range f.at {
		if now.Sub(t) < floodWindow {
			keep = append(keep, t)
		}
	}
	f.at = append(keep, now)
	return len(f.at) > maxFloods
}

// inbox is the rate limits of one connection's incoming messages, data
// and pings alike: the connection's own bucket and its IP's.
type inbox struct {
	mu     sync.Mutex
	srv    *Server
	ip     string
	own    bucket
	floods floods
}

// take counts a message; over the rate it returns why, and whether the
// connection has flooded enough to be closed.
func (in *inbox) take() (refusal string, flooded bool) {
	in.mu.Lock()
	defer in.mu.Unlock()
	now := time.Now()
	switch {
	case !in.own.allow(now):
		refusal = fmt.Sprintf("too many messages: at most %g a second on one connection", in.own.rate)
	case !in.srv.clients.allowMessage(in.ip):
		refusal = fmt.Sprintf("too many messages from your address: at most %g a second over all its connections", in.srv.cfg.Limits.MessagesPerSecond)
	default:
		return "", false
	}
	return refusal, in.floods.add(now)
}

func (s *Server) handleWS(w http.ResponseWriter, r *http.Request) {
	id, ok := pathID(w, r)
	if !ok {
		return
	}
	if s.closing.Load() {
		writeError(w, http.StatusServiceUnavailable, "the server is shutting down")
		return
	}
	ip := s.clientIP(r)
	if !s.clients.openSocket(ip) {
		writeError(w, http.StatusTooManyRequests, fmt.Sprintf("too many connections from your address: at most %d at once", s.cfg.Limits.SocketsPerIP))
		return
	}
	defer s.clients.closeSocket(ip)
	var sess *session
	var err error
	c := &client{ip: ip, out: make(chan []byte, sendQueue), quit: make(chan struct{})}
	// The socket's player, by account or guest: a first-time visitor
	// becomes a guest here, the cookie set on the handshake's answer, so
	// that a spectator who opened a game's link at once can chat.
	who, err := s.who(w, r)
	if err != nil {
		s.log.Warn("session not read", "err", err)
	}
	user := who.User
	c.name = who.Name
	for range 3 {
		sess, err = s.session(r.Context(), id, true)
		if err != nil {
			s.gameError(w, r, err)
			return
		}
		sess.mu.Lock()
		c.seat = seatOf(r, sess.row, user)
		evicted := sess.evicted
		sess.mu.Unlock()
		if !evicted {
			break
		}
	}
	// The HTTP server's read and write timeouts bound a request; a socket
	// lives on past them, watched by its pings instead.
	rc := http.NewResponseController(w)
	rc.SetReadDeadline(time.Time{})
	rc.SetWriteDeadline(time.Time{})
	in := &inbox{srv: s, ip: ip, own: bucket{rate: s.cfg.MessageRate, burst: float64(s.cfg.MessageBurst), tokens: float64(s.cfg.MessageBurst), last: time.Now()}}
	conn, err := websocket.Accept(w, r, &websocket.AcceptOptions{
		// A ping is a message too: counted, and not answered over the rate.
		OnPingReceived: func(context.Context, []byte) bool {
			refusal, flooded := in.take()
			if flooded {
				c.kick(websocket.StatusPolicyViolation, "too many messages")
			}
			return refusal == ""
		},
	})
	if err != nil {
		return // Accept has answered
	}
	conn.SetReadLimit(hardFrame)
	c.conn = conn
	s.connWG.Add(1)
	defer s.connWG.Done()
	if s.closing.Load() {
		conn.Close(websocket.StatusGoingAway, "the server is shutting down")
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	writerDone := make(chan struct{})
	go func() {
		c.writeLoop(ctx)
		close(writerDone)
	}()
	if !sess.attach(c) {
		c.kick(websocket.StatusTryAgainLater, "the game was reloaded or the server is stopping; connect again")
		<-writerDone
		return
	}
	s.log.Debug("client connected", "game", id, "seat", c.seat)
	go s.pingLoop(ctx, c)
	s.readLoop(ctx, sess, c, in)
	sess.detach(c)
	c.kick(websocket.StatusNormalClosure, "")
	<-writerDone
	s.log.Debug("client left", "game", id, "seat", c.seat)
}

// pingLoop pings the client every Config.PingInterval and drops it when
// it does not answer within Config.PingTimeout: a peer gone without a word
// (a dead network, a sleeping laptop) does not stay "connected".
func (s *Server) pingLoop(ctx context.Context, c *client) {
	t := time.NewTicker(s.cfg.PingInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-c.quit:
			return
		case <-t.C:
		}
		pctx, cancel := context.WithTimeout(ctx, s.cfg.PingTimeout)
		err := c.conn.Ping(pctx)
		cancel()
		if err != nil {
			c.kick(websocket.StatusGoingAway, "no answer to ping")
			c.conn.CloseNow() // the reader is blocked on a dead peer
			return
		}
	}
}

// readLoop handles a client's messages until the connection ends.
func (s *Server) readLoop(ctx context.Context, sess *session, c *client, in *inbox) {
	for {
		typ, r, err := c.conn.Reader(ctx)
		if err != nil {
			return
		}
		data, err := io.ReadAll(io.LimitReader(r, maxFrame+1))
		if err != nil {
			if errors.Is(err, websocket.ErrMessageTooBig) {
				// Over hardFrame: the library has closed the socket (1009).
				c.kick(websocket.StatusMessageTooBig, fmt.Sprintf("message over %d bytes", maxFrame))
			}
			return
		}
		select {
		case <-c.quit:
			return
		default:
		}
		if refusal, flooded := in.take(); refusal != "" {
			if flooded {
				c.sendError(refusal + "; closing the connection")
				c.kick(websocket.StatusPolicyViolation, "too many messages")
				return
			}
			c.sendError(refusal)
			continue
		}
		switch {
		case len(data) > maxFrame:
			c.sendError(fmt.Sprintf("message over %d bytes; closing the connection", maxFrame))
			c.kick(websocket.StatusMessageTooBig, fmt.Sprintf("message over %d bytes", maxFrame))
			return
		case typ != websocket.MessageText:
			c.sendError("binary message: the protocol's messages are JSON text; closing the connection")
			c.kick(websocket.StatusUnsupportedData, "binary messages are not accepted")
			return
		case !utf8.Valid(data):
			c.kick(websocket.StatusInvalidFramePayloadData, "the message is not valid UTF-8")
			return
		}
		var m clientMsg
		if err := json.Unmarshal(data, &m); err != nil {
			c.sendError("malformed message: " + jsonError(err))
			continue
		}
		if err := s.handleMsg(sess, c, m); err != nil {
			var ue userError
			if errors.As(err, &ue) {
				c.sendRefusal(ue)
			} else {
				s.log.Error("message failed", "game", sess.id, "type", m.Type, "err", err)
				c.sendError("internal error")
			}
		}
	}
}

// handleMsg carries out one client message. A panic in it rolls the game
// back to what the database holds and answers an internal error. The
// actions of a game another instance owns are forwarded to it.
func (s *Server) handleMsg(sess *session, c *client, m clientMsg) error {
	switch m.Type {
	case "ping":
		c.send([]byte(`{"type":"pong"}`))
		return nil
	case "sync":
		sess.mu.Lock()
		defer sess.mu.Unlock()
		c.send(sess.stateJSON(c.seat, time.Now()))
		return nil
	case "chat":
		m.Name = c.name
		return s.actAnywhere(sess, c.seat, m)
	case "move", "resign", "draw", "rematch", "cancel", "abort", "takeback", "claim":
	default:
		return refuse("unknown message type %q (move, resign, draw, rematch, cancel, abort, takeback, claim, chat, sync, ping)", m.Type)
	}
	if c.seat < 0 {
		return coded("spectator", "spectators cannot "+m.Type, "action", m.Type)
	}
	return s.actAnywhere(sess, c.seat, m)
}

// actAnywhere does a seated player's action on this instance if it owns
// the game, else on its owner.
func (s *Server) actAnywhere(sess *session, seat int, m clientMsg) error {
	for range 3 {
		err := s.actLocally(sess, seat, m)
		if !errors.Is(err, errNotOwner) {
			return err
		}
		if err = s.actRemotely(sess, seat, m); !errors.Is(err, errNotOwner) {
			return err
		}
	}
	return refuse("the server instances could not agree who runs this game; please try again")
}

// actLocally does the action as the game's owner (errNotOwner for a
// mirror).
func (s *Server) actLocally(sess *session, seat int, m clientMsg) (err error) {
	sess.mu.Lock()
	defer sess.mu.Unlock()
	defer sess.recoverError(&err, "message "+m.Type)
	return sess.act(seat, m)
}

// actRemotely forwards the action to the game's owner. When the owner
// does not answer, or is not the owner any more, this instance tries to
// take the game over, and errNotOwner tells the caller to try again.
func (s *Server) actRemotely(sess *session, seat int, m clientMsg) error {
	sess.mu.Lock()
	owner := sess.knownOwner
	if owner == "" {
		owner = sess.leaseOwner()
	}
	sess.mu.Unlock()
	if owner == s.cfg.Instance || owner == "" {
		s.takeOver(sess)
		return errNotOwner
	}
	ctx, cancel := context.WithTimeout(s.ctx, forwardTimeout+time.Second)
	defer cancel()
	rp, err := s.forward(ctx, owner, request{Game: sess.id, Op: "msg", Seat: seat, Msg: m})
	switch {
	case err != nil || rp.NotOwner:
		s.takeOver(sess)
		return errNotOwner
	case rp.Error != "" && rp.User:
		return userError{msg: rp.Error, forbidden: rp.Forbidden, code: rp.Code, vars: rp.Vars}
	case rp.Error != "":
		return errors.New(rp.Error)
	}
	return nil
}

// takeOver makes this instance the game's owner if its lease has expired.
func (s *Server) takeOver(sess *session) {
	sess.mu.Lock()
	defer sess.mu.Unlock()
	sess.knownOwner = "" // ask the database next time
	if sess.mirror {
		ctx, cancel := context.WithTimeout(s.ctx, s.cfg.WriteTimeout)
		defer cancel()
		sess.tryOwn(ctx, time.Now())
	}
}
