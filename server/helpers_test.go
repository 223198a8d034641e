package server

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/coder/websocket"

	"github.com/magneton-games/magneton/server/wire"
	"github.com/magneton-games/magneton/store"
)

// testServer is a server on a store in a folder, served by httptest.
type testServer struct {
	t   *testing.T
	dir string
	st  store.Store
	srv *Server
	ts  *httptest.Server
	url string
}

var testStatic = fstest.MapFS{
	"index.html":  {Data: []byte("<!doctype html><title>magneton</title>")},
	"css/app.css": {Data: []byte("body{}")},
}

func startServer(t *testing.T, dir string, tune ...func(*Config)) *testServer {
	t.Helper()
	return startServerOn(t, dir, "sqlite:"+filepath.Join(dir, "games.db"), tune...)
}

// startServerOn is startServer on the database at url.
func startServerOn(t *testing.T, dir, url string, tune ...func(*Config)) *testServer {
	t.Helper()
	st, err := store.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Store: st, Static: testStatic, ComputerMoveTime: 20 * time.Millisecond, Logger: slog.New(slog.DiscardHandler)}
	for _, f := range tune {
		f(&cfg)
	}
	srv, err := New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	s := &testServer{t: t, dir: dir, st: st, srv: srv, ts: ts, url: ts.URL}
	t.Cleanup(s.stop)
	return s
}

// stop shuts the server down as magneton serve does; stopping twice is
// harmless.
func (s *testServer) stop() {
	if s.ts == nil {
		return
	}
	s.ts.Listener.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := s.srv.Close(ctx); err != nil {
		s.t.Error(err)
	}
	s.ts.Close()
	s.st.Close()
	s.ts = nil
}

// user is a browser: a cookie jar and the sockets it opened.
type user struct {
	t    *testing.T
	s    *testServer
	http *http.Client
}

func (s *testServer) user() *user {
	jar, _ := cookiejar.New(nil)
	return &user{t: s.t, s: s, http: &http.Client{Jar: jar, Timeout: 20 * time.Second}}
}

// userFrom is a browser whose connections come from the loopback address
// ip (127.x.y.z): another client as far as the per-address limits go, for
// tests of what one address may do to another's.
func (s *testServer) userFrom(ip string) *user {
	u := s.user()
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
	u.http.Transport = &http.Transport{DialContext: d.DialContext, MaxIdleConnsPerHost: 100}
	return u
}

// text GETs path and returns the answer's body, whatever its status.
func (u *user) text(path string) string {
	u.t.Helper()
	resp, err := u.http.Get(u.s.url + path)
	if err != nil {
		u.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		u.t.Fatal(err)
	}
	return string(b)
}

// do sends a request with a JSON body (nil for none) and decodes the JSON
// answer into out (if not nil), returning the status.
func (u *user) do(method, path string, body any, out any) int {
	u.t.Helper()
	var rd io.Reader
	if body != nil {
		if s, ok := body.(string); ok {
			rd = strings.NewReader(s)
		} else {
			b, _ := json.Marshal(body)
			rd = bytes.NewReader(b)
		}
	}
	req, err := http.NewRequest(method, u.s.url+path, rd)
	if err != nil {
		u.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := u.http.Do(req)
	if err != nil {
		u.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			u.t.Fatalf("%s %s: %d %q: %v", method, path, resp.StatusCode, data, err)
		}
	}
	return resp.StatusCode
}

// created is the answer to a game's creation, or its error.
type created struct {
	wire.Created
	Error string `json:"error"`
}

func (u *user) create(req map[string]any) created {
	u.t.Helper()
	var c created
	if code := u.do("POST", "/api/games", req, &c); code != http.StatusCreated {
		u.t.Fatalf("create %v: %d %s", req, code, c.Error)
	}
	return c
}

// joinResult is the answer of a join.
type joinResult struct {
	wire.Joined
	Error string `json:"error"`
}

func (u *user) join(id string, body any) (joinResult, int) {
	u.t.Helper()
	var j joinResult
	code := u.do("POST", "/api/games/"+id+"/join", body, &j)
	return j, code
}

// state is any message of the server as a client reads it: a state or
// an update (merged into the last state), an error, a chat line.
type state struct {
	wire.State
	// An error's text, code and values (wire.ErrorMsg).
	Message string            `json:"message"`
	Code    string            `json:"code"`
	Vars    map[string]string `json:"vars"`
	// A "chat" message's line (wire.ChatMsg).
	Line *wire.ChatLine `json:"line"`
}

// chatLine is a chat line as a client reads it.
type chatLine = wire.ChatLine

func (u *user) state(id string) state {
	u.t.Helper()
	var st state
	if code := u.do("GET", "/api/games/"+id, nil, &st); code != http.StatusOK {
		u.t.Fatalf("state of %s: %d", id, code)
	}
	return st
}

// sock is one WebSocket of a user; a goroutine reads it into msgs, since
// a Read whose context ends closes the connection.
type sock struct {
	t    *testing.T
	conn *websocket.Conn
	msgs chan []byte
	err  error // why the socket closed, once msgs is closed
	last state
}

func (u *user) connect(id string) *sock {
	u.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	url := "ws" + strings.TrimPrefix(u.s.url, "http") + "/api/games/" + id + "/ws"
	conn, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPClient: u.http})
	if err != nil {
		u.t.Fatalf("dial %s: %v", url, err)
	}
	conn.SetReadLimit(4 << 20) // a browser reads a game with its full chat, 2,000 lines
	s := &sock{t: u.t, conn: conn, msgs: make(chan []byte, 1000)}
	go func() {
		for {
			_, data, err := conn.Read(context.Background())
			if err != nil {
				s.err = err
				close(s.msgs)
				return
			}
			s.msgs <- data
		}
	}()
	u.t.Cleanup(func() { conn.CloseNow() })
	s.last = s.next()
	if s.last.Type != "state" {
		u.t.Fatalf("first message %+v, want a state", s.last)
	}
	return s
}

// read returns the next message, or an error (a closed socket, or nothing
// within timeout).
func (s *sock) read(timeout time.Duration) (state, []byte, error) {
	var data []byte
	select {
	case d, ok := <-s.msgs:
		if !ok {
			return state{}, nil, s.err
		}
		data = d
	case <-time.After(timeout):
		return state{}, nil, context.DeadlineExceeded
	}
	var st state
	if err := json.Unmarshal(data, &st); err != nil {
		s.t.Fatalf("bad message %q: %v", data, err)
	}
	switch st.Type {
	case "state":
		if st.Ply != len(st.Moves) || len(st.Positions) != len(st.Moves) {
			s.t.Fatalf("a state with ply %d, %d moves and %d positions", st.Ply, len(st.Moves), len(st.Positions))
		}
		s.last = st
	case "update":
		st = s.apply(st)
	}
	return st, data, nil
}

// apply merges an update into the last state, as a client does: it
// appends the move when the update is one move on, and fails the test on
// an update that does not follow (a client would ask for a sync).
func (s *sock) apply(u state) state {
	st := s.last
	switch u.Ply {
	case len(st.Moves):
	case len(st.Moves) + 1:
		st.Moves = append(append([]string(nil), st.Moves...), u.Last)
		st.Positions = append(append([]string(nil), st.Positions...), u.Position)
	default:
		s.t.Fatalf("an update of ply %d after a state of %d moves", u.Ply, len(st.Moves))
	}
	if u.Ply > 0 && st.Moves[u.Ply-1] != u.Last || u.Ply > 0 && st.Positions[u.Ply-1] != u.Position {
		s.t.Fatalf("an update with last move %s at %s does not follow the moves %v", u.Last, u.Position, st.Moves)
	}
	moves, positions, start := st.Moves, st.Positions, st.Start
	st = u
	st.Type, st.Moves, st.Positions, st.Start = "state", moves, positions, start
	s.last = st
	return st
}

func (s *sock) next() state {
	s.t.Helper()
	st, _, err := s.read(10 * time.Second)
	if err != nil {
		s.t.Fatalf("read: %v", err)
	}
	return st
}

// until reads states until one satisfies ok.
func (s *sock) until(what string, ok func(state) bool) state {
	s.t.Helper()
	if ok(s.last) {
		return s.last
	}
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		st, _, err := s.read(time.Until(deadline))
		if err != nil {
			s.t.Fatalf("waiting for %s: %v", what, err)
		}
		if st.Type == "state" && ok(st) {
			return st
		}
	}
	s.t.Fatalf("no state with %s", what)
	return state{}
}

// expectError reads messages until an error arrives, failing on a state
// that shows a change.
func (s *sock) expectError(contains string) {
	s.t.Helper()
	for {
		st := s.next()
		if st.Type == "error" {
			if !strings.Contains(st.Message, contains) {
				s.t.Errorf("error %q, want one containing %q", st.Message, contains)
			}
			return
		}
	}
}

func (s *sock) send(v any) {
	s.t.Helper()
	b, _ := json.Marshal(v)
	s.sendRaw(b)
}

func (s *sock) sendRaw(b []byte) {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := s.conn.Write(ctx, websocket.MessageText, b); err != nil {
		s.t.Fatalf("write: %v", err)
	}
}

func (s *sock) move(m string) { s.send(map[string]string{"type": "move", "move": m}) }

// openAgainstComputer plays the human's first move (the human playing
// first) and waits for the computer's answer: a resignation after it is a
// result, where one before it would abort the game.
func (s *sock) openAgainstComputer() {
	s.t.Helper()
	s.move(s.moves(0).Legal[0])
	s.moves(2)
}

// openHuman plays each side's first move of a game between first and
// second, so that the game has begun.
func openHuman(first, second *sock) {
	first.t.Helper()
	first.move(first.moves(0).Legal[0])
	second.move(second.moves(1).Legal[0])
	first.moves(2)
}

// moves waits for a state with n moves.
func (s *sock) moves(n int) state {
	s.t.Helper()
	return s.until("moves", func(st state) bool { return len(st.Moves) >= n })
}

// quiet checks that nothing arrives for a moment.
func (s *sock) quiet(d time.Duration) {
	s.t.Helper()
	st, data, err := s.read(d)
	if err == nil {
		s.t.Errorf("unexpected message %s (%+v)", data, st.Type)
	}
}
