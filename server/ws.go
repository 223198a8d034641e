package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/coder/websocket"
)

const (
	// maxFrame is the largest message a client may send.
	maxFrame = 4 << 10
	// sendQueue is how many messages may wait for a slow client before it
	// is dropped.
	sendQueue = 64
	// maxFloods is how many messages over the rate a connection may send
	// before it is closed.
	maxFloods = 40
	// writeTimeout bounds one write to a socket.
	writeTimeout = 10 * time.Second

	closeGoingAway = websocket.StatusGoingAway
)

// A client is one WebSocket connection to a game.
type client struct {
	conn *websocket.Conn
	seat int // -1 for a spectator
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
	b, _ := json.Marshal(map[string]string{"type": "error", "message": msg})
	c.send(b)
}

// clientMsg is any message a client sends.
type clientMsg struct {
	Type   string `json:"type"`
	Move   string `json:"move"`
	Action string `json:"action"`
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

func (s *Server) handleWS(w http.ResponseWriter, r *http.Request) {
	id, ok := pathID(w, r)
	if !ok {
		return
	}
	if s.closing.Load() {
		writeError(w, http.StatusServiceUnavailable, "the server is shutting down")
		return
	}
	var sess *session
	var err error
	c := &client{out: make(chan []byte, sendQueue), quit: make(chan struct{})}
	for range 3 {
		sess, err = s.session(r.Context(), id, true)
		if err != nil {
			s.gameError(w, r, err)
			return
		}
		sess.mu.Lock()
		c.seat = seatOf(r, sess.row)
		evicted := sess.evicted
		sess.mu.Unlock()
		if !evicted {
			break
		}
	}
	conn, err := websocket.Accept(w, r, nil)
	if err != nil {
		return // Accept has answered
	}
	conn.SetReadLimit(maxFrame)
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
	s.readLoop(ctx, sess, c)
	sess.detach(c)
	c.kick(websocket.StatusNormalClosure, "")
	<-writerDone
	s.log.Debug("client left", "game", id, "seat", c.seat)
}

// readLoop handles a client's messages until the connection ends.
func (s *Server) readLoop(ctx context.Context, sess *session, c *client) {
	lim := &bucket{rate: s.cfg.MessageRate, burst: float64(s.cfg.MessageBurst), tokens: float64(s.cfg.MessageBurst), last: time.Now()}
	floods := 0
	for {
		_, data, err := c.conn.Read(ctx)
		if err != nil {
			if errors.Is(err, websocket.ErrMessageTooBig) {
				// The library has closed the socket with status 1009.
				c.kick(websocket.StatusMessageTooBig, fmt.Sprintf("message over %d bytes", maxFrame))
			}
			return
		}
		select {
		case <-c.quit:
			return
		default:
		}
		if !lim.allow(time.Now()) {
			floods++
			if floods > maxFloods {
				c.kick(websocket.StatusPolicyViolation, "too many messages")
				return
			}
			c.sendError(fmt.Sprintf("too many messages: at most %g a second", s.cfg.MessageRate))
			continue
		}
		var m clientMsg
		if err := json.Unmarshal(data, &m); err != nil {
			c.sendError("malformed message: " + err.Error())
			continue
		}
		if err := s.handleMsg(sess, c, m); err != nil {
			var ue userError
			if errors.As(err, &ue) {
				c.sendError(ue.msg)
			} else {
				s.log.Error("message failed", "game", sess.id, "type", m.Type, "err", err)
				c.sendError("internal error")
			}
		}
	}
}

// handleMsg carries out one client message.
func (s *Server) handleMsg(sess *session, c *client, m clientMsg) error {
	switch m.Type {
	case "ping":
		c.send([]byte(`{"type":"pong"}`))
		return nil
	case "move", "resign", "draw", "rematch":
	default:
		return refuse("unknown message type %q", m.Type)
	}
	if c.seat < 0 {
		return refuse("spectators cannot %s", m.Type)
	}
	sess.mu.Lock()
	defer sess.mu.Unlock()
	switch m.Type {
	case "move":
		if m.Move == "" {
			return refuse("move: no move given")
		}
		return sess.move(c.seat, m.Move)
	case "resign":
		return sess.resign(c.seat)
	case "draw":
		return sess.draw(c.seat, m.Action)
	default:
		return sess.rematch(c.seat, m.Action)
	}
}
