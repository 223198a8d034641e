package server

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/magneton-games/magneton/server/round"
	"github.com/magneton-games/magneton/store"
)

// TestPerIPLimits checks the limits per client address: sockets, game
// creations and analyses each answer 429 with a message over the limit,
// to that client only.
func TestPerIPLimits(t *testing.T) {
	s := startServer(t, t.TempDir(), func(c *Config) {
		c.Limits = Limits{SocketsPerIP: 3, GamesPerMinute: 0.001, GamesBurst: 4, AnalysesPerMinute: 0.001, AnalysesBurst: 2}
	})
	u := s.user()
	var ids []string
	for range 4 {
		ids = append(ids, u.create(map[string]any{"opponent": "computer", "level": 1}).ID)
	}
	var e struct{ Error string }
	if code := u.do("POST", "/api/games", map[string]any{"opponent": "computer"}, &e); code != http.StatusTooManyRequests || !strings.Contains(e.Error, "too many new games") {
		t.Errorf("fifth game: %d %q", code, e.Error)
	}
	for i := range 3 {
		u.connect(ids[i])
	}
	url := "ws" + strings.TrimPrefix(s.url, "http") + "/api/games/" + ids[3] + "/ws"
	_, resp, err := websocket.Dial(t.Context(), url, &websocket.DialOptions{HTTPClient: u.http})
	if err == nil || resp == nil || resp.StatusCode != http.StatusTooManyRequests {
		t.Errorf("fourth socket: %v %v", resp, err)
	}
	analyze := map[string]any{"game": "magneton", "movetime_ms": 100}
	for range 2 {
		if code := u.do("POST", "/api/analyze", analyze, &e); code != http.StatusOK {
			t.Errorf("analysis: %d %q", code, e.Error)
		}
	}
	if code := u.do("POST", "/api/analyze", analyze, &e); code != http.StatusTooManyRequests || !strings.Contains(e.Error, "too many analyses") {
		t.Errorf("third analysis: %d %q", code, e.Error)
	}
}

// TestOneAnalysisAtATime: a client's second analysis while its first runs
// is refused, not queued.
func TestOneAnalysisAtATime(t *testing.T) {
	s := startServer(t, t.TempDir(), func(c *Config) { c.MaxAnalyses = 2 })
	u := s.user()
	first := make(chan int)
	go func() {
		var e struct{ Error string }
		first <- u.do("POST", "/api/analyze", map[string]any{"movetime_ms": 1500}, &e)
	}()
	for running := false; !running; time.Sleep(5 * time.Millisecond) {
		running = s.srv.Clients().Analysing() > 0
	}
	var e struct{ Error string }
	if code := u.do("POST", "/api/analyze", map[string]any{"movetime_ms": 100}, &e); code != http.StatusTooManyRequests || !strings.Contains(e.Error, "one analysis at a time") {
		t.Errorf("second analysis while the first runs: %d %q", code, e.Error)
	}
	if code := <-first; code != http.StatusOK {
		t.Errorf("first analysis: %d", code)
	}
}

// TestCrossSiteAndContentType: a state-changing request must be declared
// JSON and come from the server's own pages.
func TestCrossSiteAndContentType(t *testing.T) {
	s := startServer(t, t.TempDir())
	for _, tc := range []struct {
		ctype, origin, site string
		want                int
	}{
		{"application/x-www-form-urlencoded", "", "", http.StatusUnsupportedMediaType},
		{"text/plain", "", "", http.StatusUnsupportedMediaType},
		{"", "", "", http.StatusUnsupportedMediaType},
		{"application/json", "https://evil.example", "", http.StatusForbidden},
		{"application/json", "", "cross-site", http.StatusForbidden},
		{"application/json; charset=utf-8", s.url, "same-origin", http.StatusCreated},
	} {
		req, _ := http.NewRequest("POST", s.url+"/api/games", strings.NewReader(`{"opponent":"computer"}`))
		for k, v := range map[string]string{"Content-Type": tc.ctype, "Origin": tc.origin, "Sec-Fetch-Site": tc.site} {
			if v != "" {
				req.Header.Set(k, v)
			}
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var e struct{ Error string }
		json.NewDecoder(resp.Body).Decode(&e)
		resp.Body.Close()
		if resp.StatusCode != tc.want || (tc.want >= 400 && e.Error == "") {
			t.Errorf("%+v: %d %q, want %d with a message", tc, resp.StatusCode, e.Error, tc.want)
		}
	}
}

// TestProtocolDetails: binary and invalid UTF-8 frames close the socket
// with their RFC 6455 codes, an oversized frame first gets an error, and
// malformed messages are answered in the protocol's words.
func TestProtocolDetails(t *testing.T) {
	s := startServer(t, t.TempDir())
	_, _, sa, _, id := humanGame(t, s, nil)
	for _, tc := range []struct{ msg, want, code string }{
		{`{"type":5}`, `field "type" must be a string, not number`, "message_malformed"},
		{`[1,2]`, "want a JSON object, not array", "message_malformed"},
		{`{"type":"move"`, "malformed message", "message_malformed"},
		{`{"type":"jump"}`, `unknown message type "jump"`, ""},
	} {
		sa.sendRaw([]byte(tc.msg))
		st := sa.next()
		if st.Type != "error" || !strings.Contains(st.Message, tc.want) || st.Code != tc.code || strings.Contains(st.Message, "Go ") || strings.Contains(st.Message, "clientMsg") {
			t.Errorf("%s: %+v, want an error with %q, code %q", tc.msg, st, tc.want, tc.code)
		}
	}
	closeWith := func(what string, typ websocket.MessageType, data []byte, code websocket.StatusCode, wantError bool) {
		t.Helper()
		ws := s.user().connect(id)
		if err := ws.conn.Write(t.Context(), typ, data); err != nil {
			t.Fatal(err)
		}
		gotError := false
		for {
			st, _, err := ws.read(5 * time.Second)
			if err != nil {
				if got := websocket.CloseStatus(err); got != code {
					t.Errorf("%s: closed with %v (%v), want %v", what, got, err, code)
				}
				break
			}
			gotError = gotError || st.Type == "error"
		}
		if gotError != wantError {
			t.Errorf("%s: an error message first: %v, want %v", what, gotError, wantError)
		}
	}
	closeWith("binary", websocket.MessageBinary, []byte(`{"type":"ping"}`), websocket.StatusUnsupportedData, true)
	closeWith("invalid UTF-8", websocket.MessageText, []byte("{\"type\":\"\xff\"}"), websocket.StatusInvalidFramePayloadData, false)
	closeWith("oversized", websocket.MessageText, []byte(`{"type":"move","move":"`+strings.Repeat("a", 5000)+`"}`), websocket.StatusMessageTooBig, true)
	// Over the rate, a refusal with its code and rate, which a page can
	// say in the player's language.
	fast := s.user().connect(id)
	for range 60 {
		fast.sendRaw([]byte(`{"type":"sync"}`))
	}
	var over state
	for over.Type != "error" {
		over = fast.next()
	}
	if over.Code != "messages_fast" || over.Vars["rate"] == "" {
		t.Errorf("60 messages at once: %+v, want messages_fast with the rate", over)
	}
	// The players' game is untouched.
	sa.move(sa.last.Legal[0])
	sa.moves(1)
}

// TestUpdatesAndSync: after the first state, changes come as updates, each
// one move on, and sync gives the whole state again.
func TestUpdatesAndSync(t *testing.T) {
	s := startServer(t, t.TempDir())
	_, _, sa, sb, _ := humanGame(t, s, nil)
	sa.move(sa.last.Legal[0])
	var raw []byte
	for {
		st, data, err := sb.read(5 * time.Second)
		if err != nil {
			t.Fatal(err)
		}
		if st.Ply == 1 {
			raw = data
			break
		}
	}
	var u map[string]json.RawMessage
	json.Unmarshal(raw, &u)
	if string(u["type"]) != `"update"` || u["moves"] != nil || u["positions"] != nil || u["start"] != nil {
		t.Errorf("the move's message carries the history: %s", raw)
	}
	sb.send(map[string]string{"type": "sync"})
	st := sb.next()
	if st.Type != "state" || len(st.Moves) != 1 || st.Moves[0] != sb.last.Moves[0] {
		t.Errorf("sync answered %+v", st)
	}
}

// TestPlyLimit: a game reaching Config.MaxPlies is drawn.
func TestPlyLimit(t *testing.T) {
	s := startServer(t, t.TempDir(), func(c *Config) { c.MaxPlies = 6 })
	_, _, sa, sb, _ := humanGame(t, s, nil)
	for i := range 6 {
		ws := []*sock{sa, sb}[i%2]
		ws.move(ws.moves(i).Legal[0])
	}
	st := sa.until("the end", func(st state) bool { return st.Status == "finished" })
	if st.Result != "1/2-1/2" || st.Reason != "ply limit" || len(st.Moves) != 6 {
		t.Errorf("after 6 plies: %s %s, %d moves", st.Result, st.Reason, len(st.Moves))
	}
}

// TestPanicRollsBack injects a panic into each kind of a game's work: a
// player's move, the computer's move and a flag's fall. Each time the
// process and the other games go on, the game is rolled back to what the
// database holds, and it plays on.
func TestPanicRollsBack(t *testing.T) {
	var point atomic.Value
	point.Store("")
	var once sync.Once
	round.FaultHook = func(p string) {
		if p == point.Load().(string) {
			once.Do(func() { panic("injected at " + p) })
		}
	}
	t.Cleanup(func() { round.FaultHook = nil })
	s := startServer(t, t.TempDir())

	// A player's move: refused with an internal error, not played.
	point.Store("move")
	_, _, sa, sb, id := humanGame(t, s, nil)
	mv := sa.last.Legal[0]
	sa.move(mv)
	sa.expectError("internal error")
	if st := s.user().state(id); len(st.Moves) != 0 {
		t.Errorf("the panicked move is served: %v", st.Moves)
	}
	sa.move(mv) // the hook panics once: this one is played
	sb.moves(1)

	// The computer's move: rolled back, then played again.
	once = sync.Once{}
	point.Store("computer")
	u := s.user()
	c := u.create(map[string]any{"opponent": "computer", "level": 2, "color": "second"})
	cw := u.connect(c.ID)
	cw.moves(1)
	if st := u.state(c.ID); len(st.Moves) != 1 || st.Turn != 1 {
		t.Errorf("after the computer's panic: %+v", st)
	}

	// A flag's fall: the game is rolled back and the flag falls again.
	once = sync.Once{}
	point.Store("flag")
	_, _, fa, fb, fid := humanGame(t, s, map[string]any{"clock": "0.01+0"})
	fa.move(fa.last.Legal[0])
	fb.move(fb.moves(1).Legal[0]) // the clocks start
	st := fa.until("time forfeit", func(st state) bool { return st.Status == "finished" })
	if st.Reason != "time forfeit" {
		t.Errorf("flag game %s ended by %s", fid, st.Reason)
	}
	// The first game is still served.
	sb.move(sb.last.Legal[0])
	sa.moves(2)
}

// TestWaitingForACoreIsNotOnTheClock: a computer that waits for a core
// has its clock start only when it has one.
func TestWaitingForACoreIsNotOnTheClock(t *testing.T) {
	s := startServer(t, t.TempDir(), func(c *Config) { c.MaxThinkers = 1 })
	hold, err := s.srv.Rooms().Pool().Acquire(t.Context(), "someone else")
	if err != nil {
		t.Fatal(err)
	}
	u := s.user()
	c := u.create(map[string]any{"opponent": "computer", "level": 2, "color": "second", "clock": "0.1+0"}) // 6 s
	ws := u.connect(c.ID)
	time.Sleep(1500 * time.Millisecond)
	hold()
	st := ws.moves(1)
	if r := st.Clock.RemainingMS[0]; r < 5500 {
		t.Errorf("the computer waited 1.5 s for a core and has %d ms of 6000 left", r)
	}
}

// TestExpiryAndEviction: an invitation nobody took and a computer game
// nobody played are aborted after Config.Expire, are not resumed, and
// games that need no timer leave memory.
func TestExpiryAndEviction(t *testing.T) {
	dir := t.TempDir()
	s := startServer(t, dir)
	u := s.user()
	invite := u.create(map[string]any{"opponent": "human"})
	comp := u.create(map[string]any{"opponent": "computer", "color": "first"})
	_, _, _, _, human := humanGame(t, s, nil)
	s.srv.Sweep(time.Now().Add(25 * time.Hour))
	for id, want := range map[string]string{invite.ID: store.Aborted, comp.ID: store.Aborted, human: store.Playing} {
		if st := u.state(id); st.Status != want {
			t.Errorf("game %s after a day: %s, want %s", id, st.Status, want)
		}
	}
	ws := u.connect(comp.ID)
	ws.move("d4")
	ws.expectError("aborted")
	ws.conn.CloseNow()
	// Games that need no timer leave memory once idle (and unwatched).
	for watched := true; watched; time.Sleep(5 * time.Millisecond) {
		n, inMemory := s.srv.Rooms().Sockets(comp.ID)
		if !inMemory {
			break // an aborted game leaves memory with its last client
		}
		watched = n > 0
	}
	s.srv.Sweep(time.Now().Add(2 * round.IdleEvict))
	if s.srv.Rooms().InMemory(invite.ID) || s.srv.Rooms().InMemory(comp.ID) {
		t.Error("an aborted game nobody watches stays in memory")
	}
	s.stop()
	s2 := startServer(t, dir)
	if n := s2.srv.Rooms().Count(); n != 0 {
		t.Errorf("%d games resumed; the only game going on has no clock and no computer", n)
	}
}

// TestHalfOpenPeer: a client that stops answering is dropped after a ping.
func TestHalfOpenPeer(t *testing.T) {
	s := startServer(t, t.TempDir(), func(c *Config) { c.PingInterval, c.PingTimeout = 100*time.Millisecond, 200*time.Millisecond })
	_, b, _, _, id := humanGame(t, s, nil)
	clients := func() int {
		n, _ := s.srv.Rooms().Sockets(id)
		return n
	}
	// A third socket that reads nothing after the handshake, so it answers
	// no ping (the two players' sockets read on, and answer).
	url := "ws" + strings.TrimPrefix(s.url, "http") + "/api/games/" + id + "/ws"
	conn, _, err := websocket.Dial(t.Context(), url, &websocket.DialOptions{HTTPClient: b.http})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseNow()
	seen3 := false
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		switch n := clients(); {
		case n == 3:
			seen3 = true
		case n == 2 && seen3:
			return // dropped; the players' sockets stay
		case n < 2:
			t.Fatalf("%d clients: a socket that answers pings was dropped", n)
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Errorf("the silent socket was not dropped (seen attached: %v)", seen3)
}
