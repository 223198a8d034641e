// Package socket is one WebSocket connection of a client to a game: a
// queue of messages to it that a slow client cannot make grow, pings that
// find a peer gone without a word, and the reading of its messages within
// the protocol's bounds (their size, their rate, their encoding), each
// decoded message then handed to the game's handler.
package socket

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/coder/websocket"

	"github.com/magneton-games/magneton/server/jsonapi"
	"github.com/magneton-games/magneton/server/limits"
	"github.com/magneton-games/magneton/server/wire"
)

const (
	// MaxFrame is the largest message a client may send; a larger one is
	// answered with an error, then the socket is closed (1009).
	MaxFrame = 4 << 10
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
)

// Limits bound one connection's incoming messages: its own token bucket,
// and its address's, shared by all its sockets (Clients).
type Limits struct {
	Rate    float64 // messages a second
	Burst   int
	Clients *limits.Clients
}

// Client is one WebSocket connection to a game.
type Client struct {
	conn *websocket.Conn
	// IP is the client's address as the limits count it; Seat the seat it
	// plays (-1 for a spectator); Name the account's or guest's name it
	// came with ("" for neither), for a spectator's chat, and User the
	// account's id ("" for a guest).
	IP   string
	Seat int
	Name string
	User string
	out  chan []byte
	quit chan struct{}
	once sync.Once
	code websocket.StatusCode
	why  string
	in   *inbox
}

// New is a client from ip, not connected yet (Accept).
func New(ip string) *Client {
	return &Client{IP: ip, Seat: -1, out: make(chan []byte, sendQueue), quit: make(chan struct{})}
}

// Accept completes the WebSocket handshake of r, whose messages lim
// bounds; after an error the handshake's answer has been written.
func (c *Client) Accept(w http.ResponseWriter, r *http.Request, lim Limits) error {
	// The HTTP server's read and write timeouts bound a request; a socket
	// lives on past them, watched by its pings instead.
	rc := http.NewResponseController(w)
	rc.SetReadDeadline(time.Time{})
	rc.SetWriteDeadline(time.Time{})
	c.in = &inbox{lim: lim, ip: c.IP, own: limits.NewBucket(lim.Rate, lim.Burst, time.Now())}
	conn, err := websocket.Accept(w, r, &websocket.AcceptOptions{
		// A ping is a message too: counted, and not answered over the rate.
		OnPingReceived: func(context.Context, []byte) bool {
			refusal, flooded := c.in.take()
			if flooded {
				c.Kick(websocket.StatusPolicyViolation, "too many messages")
			}
			return refusal.Msg == ""
		},
	})
	if err != nil {
		return err
	}
	conn.SetReadLimit(hardFrame)
	c.conn = conn
	return nil
}

// Close closes a connection that was accepted but will not be served.
func (c *Client) Close(code websocket.StatusCode, why string) { c.conn.Close(code, why) }

// Send queues a message without blocking; a client that cannot keep up is
// dropped.
func (c *Client) Send(msg []byte) {
	select {
	case <-c.quit:
	case c.out <- msg:
	default:
		c.Kick(websocket.StatusPolicyViolation, "too slow: messages were waiting")
	}
}

// Kick asks the writer to close the connection with a status.
func (c *Client) Kick(code websocket.StatusCode, why string) {
	c.once.Do(func() {
		c.code, c.why = code, why
		close(c.quit)
	})
}

// SendRefusal sends a refusal with its code and values, if it has them.
func (c *Client) SendRefusal(rf wire.Refusal) {
	m := rf.JSON("message")
	m["type"] = "error"
	b, _ := json.Marshal(m)
	c.Send(b)
}

// WriteLoop writes queued messages until the client is kicked or a write
// fails, then closes the connection.
func (c *Client) WriteLoop(ctx context.Context) {
	for {
		select {
		case msg := <-c.out:
			wctx, cancel := context.WithTimeout(ctx, writeTimeout)
			err := c.conn.Write(wctx, websocket.MessageText, msg)
			cancel()
			if err != nil {
				c.Kick(websocket.StatusInternalError, "write failed")
				c.conn.CloseNow()
				return
			}
		case <-c.quit:
			c.flush(ctx)
			return
		}
	}
}

// flush writes what is queued (an error, the last state), then closes.
func (c *Client) flush(ctx context.Context) {
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
}

// PingLoop pings the client every interval and drops it when it does not
// answer within timeout: a peer gone without a word (a dead network, a
// sleeping laptop) does not stay "connected".
func (c *Client) PingLoop(ctx context.Context, interval, timeout time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-c.quit:
			return
		case <-t.C:
		}
		pctx, cancel := context.WithTimeout(ctx, timeout)
		err := c.conn.Ping(pctx)
		cancel()
		if err != nil {
			c.Kick(websocket.StatusGoingAway, "no answer to ping")
			c.conn.CloseNow() // the reader is blocked on a dead peer
			return
		}
	}
}

// ReadLoop reads the client's messages until the connection ends, hands
// each to handle, and answers handle's error: a refusal as it is,
// anything else (logged) as an internal error.
func (c *Client) ReadLoop(ctx context.Context, log *slog.Logger, handle func(wire.ClientMsg) error) {
	for {
		m, ok := c.next(ctx)
		if !ok {
			return
		}
		if m == nil {
			continue
		}
		if err := handle(*m); err != nil {
			var rf wire.Refusal
			if errors.As(err, &rf) {
				c.SendRefusal(rf)
			} else {
				log.Error("message failed", "type", m.Type, "err", err)
				c.SendRefusal(wire.Refuse("internal", "internal error"))
			}
		}
	}
}

// next reads the next message: nil for one refused (answered already),
// false when the connection ends.
func (c *Client) next(ctx context.Context) (*wire.ClientMsg, bool) {
	typ, r, err := c.conn.Reader(ctx)
	if err != nil {
		return nil, false
	}
	data, err := io.ReadAll(io.LimitReader(r, MaxFrame+1))
	if err != nil {
		if errors.Is(err, websocket.ErrMessageTooBig) {
			// Over hardFrame: the library has closed the socket (1009).
			c.Kick(websocket.StatusMessageTooBig, fmt.Sprintf("message over %d bytes", MaxFrame))
		}
		return nil, false
	}
	select {
	case <-c.quit:
		return nil, false
	default:
	}
	if refusal, flooded := c.in.take(); refusal.Msg != "" {
		if flooded {
			c.SendRefusal(wire.Refuse("messages_flood", refusal.Msg+"; closing the connection", "rate", refusal.Vars["rate"]))
			c.Kick(websocket.StatusPolicyViolation, "too many messages")
			return nil, false
		}
		c.SendRefusal(refusal)
		return nil, true
	}
	switch {
	case len(data) > MaxFrame:
		c.SendRefusal(wire.Refuse("message_too_big", fmt.Sprintf("message over %d bytes; closing the connection", MaxFrame), "max", fmt.Sprint(MaxFrame)))
		c.Kick(websocket.StatusMessageTooBig, fmt.Sprintf("message over %d bytes", MaxFrame))
		return nil, false
	case typ != websocket.MessageText:
		c.SendRefusal(wire.Refuse("message_binary", "binary message: the protocol's messages are JSON text; closing the connection"))
		c.Kick(websocket.StatusUnsupportedData, "binary messages are not accepted")
		return nil, false
	case !utf8.Valid(data):
		c.Kick(websocket.StatusInvalidFramePayloadData, "the message is not valid UTF-8")
		return nil, false
	}
	var m wire.ClientMsg
	if err := json.Unmarshal(data, &m); err != nil {
		c.SendRefusal(wire.Refuse("message_malformed", "malformed message: "+jsonapi.DecodeError(err)))
		return nil, true
	}
	return &m, true
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

// inbox is the rate limits of one connection's incoming messages, data and
// pings alike: the connection's own bucket and its IP's.
type inbox struct {
	mu     sync.Mutex
	lim    Limits
	ip     string
	own    *limits.Bucket
	floods floods
}

// take counts a message; over the rate it returns why (a refusal with no
// text when within it), and whether the connection has flooded enough to
// be closed.
func (in *inbox) take() (refusal wire.Refusal, flooded bool) {
	in.mu.Lock()
	defer in.mu.Unlock()
	now := time.Now()
	switch {
	case !in.own.Allow(now):
		rate := fmt.Sprint(in.own.Rate())
		refusal = wire.Refuse("messages_fast", fmt.Sprintf("too many messages: at most %s a second on one connection", rate), "rate", rate)
	case !in.lim.Clients.AllowMessage(in.ip):
		rate := fmt.Sprint(in.lim.Clients.Limits().MessagesPerSecond)
		refusal = wire.Refuse("messages_fast_address", fmt.Sprintf("too many messages from your address: at most %s a second over all its connections", rate), "rate", rate)
	default:
		return wire.Refusal{}, false
	}
	return refusal, in.floods.add(now)
}
