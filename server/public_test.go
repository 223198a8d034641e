package server

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/magneton-games/magneton/server/analysis"
	"github.com/magneton-games/magneton/server/chat"
	"github.com/magneton-games/magneton/server/ratings"
	"github.com/magneton-games/magneton/server/round"
	"github.com/magneton-games/magneton/server/wire"
	"github.com/magneton-games/magneton/store"
	"github.com/magneton-games/magneton/store/storetest"
)

// concurrently sends n requests at once (each from its own browser of
// one address) and counts the answers by status.
func concurrently(s *testServer, n int, req func(i int, u *user) int) map[int]int {
	users := make([]*user, n)
	for i := range users {
		users[i] = s.user()
	}
	counts := map[int]int{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i, u := range users {
		wg.Go(func() {
			<-start
			code := req(i, u)
			mu.Lock()
			counts[code]++
			mu.Unlock()
		})
	}
	close(start)
	wg.Wait()
	return counts
}

// TestAuthLimitsUnderConcurrency: the limits on failed logins and sign-ups
// hold when the attempts come all at once, not only one after the other:
// each attempt takes its place in the limit before its password is hashed.
func TestAuthLimitsUnderConcurrency(t *testing.T) {
	s := startServer(t, t.TempDir())
	s.signedUp("ann")
	logins := concurrently(s, 40, func(i int, u *user) int {
		password := "wrong guess"
		if i == 17 {
			password = "long enough"
		}
		_, code := u.account("POST", "/api/account/login", map[string]string{"name": "ann", "password": password})
		return code
	})
	// At most the burst of failures for one name (5) is hashed and refused
	// 401; the rest wait with 429.
	if logins[http.StatusUnauthorized] > DefaultLimits.FailuresBurst || logins[http.StatusTooManyRequests] == 0 {
		t.Errorf("40 logins at once for one account, one with the right password: %v; want at most %d refused 401 and the rest 429", logins, DefaultLimits.FailuresBurst)
	}
	s2 := startServer(t, t.TempDir())
	signups := concurrently(s2, 40, func(i int, u *user) int {
		_, code := u.account("POST", "/api/account/signup", map[string]string{"name": fmt.Sprintf("player%d", i), "password": "long enough"})
		return code
	})
	if signups[http.StatusOK] > DefaultLimits.AuthBurst || signups[http.StatusTooManyRequests] != 40-signups[http.StatusOK] {
		t.Errorf("40 sign-ups at once from one address: %v; want at most %d and the rest 429", signups, DefaultLimits.AuthBurst)
	}
}

// TestComputerClockStopsWhileWaiting: a computer whose search waits for a
// core has its clock stopped, in the middle of a game too: it does not
// lose on time while it waits, and the players see its clock stand still.
func TestComputerClockStopsWhileWaiting(t *testing.T) {
	s := startServer(t, t.TempDir(), func(c *Config) { c.MaxThinkers = 1 })
	u := s.user()
	c := u.create(map[string]any{"opponent": "computer", "level": 2, "color": "first", "clock": "0.05+0"}) // 3 s each
	ws := u.connect(c.ID)
	ws.move(ws.moves(0).Legal[0])
	st := ws.moves(2) // the computer answered: both clocks run from now on
	hold, err := s.srv.Rooms().Pool().Acquire(t.Context(), "someone else")
	if err != nil {
		t.Fatal(err)
	}
	ws.move(st.Legal[0])
	waiting := ws.until("the computer's clock stopped", func(st state) bool { return len(st.Moves) == 3 })
	if waiting.Clock.Running != nil {
		t.Errorf("the computer waits for a core with its clock running (side %d)", *waiting.Clock.Running)
	}
	left := waiting.Clock.RemainingMS[1]
	// Longer than the computer's whole clock: it would lose on time.
	time.Sleep(3500 * time.Millisecond)
	if st := u.state(c.ID); st.Status != "playing" || st.Clock.RemainingMS[1] != left {
		t.Errorf("after 3.5 s waiting for a core: %s %s, its clock %d ms (was %d)", st.Status, st.Reason, st.Clock.RemainingMS[1], left)
	}
	hold()
	if st := ws.moves(4); st.Status != "playing" || st.Clock.RemainingMS[1] < left-1000 {
		t.Errorf("the computer's answer after the wait: %s %s, its clock %d ms of %d", st.Status, st.Reason, st.Clock.RemainingMS[1], left)
	}
}

// TestIdleGamesLeaveMemory: a game that needs no timer and nobody watches
// leaves memory when idle, and the round of leases does not bring it back
// (only the games that need an owner with nobody watching are orphans).
func TestIdleGamesLeaveMemory(t *testing.T) {
	s := startServer(t, t.TempDir())
	u := s.user()
	var ids []string
	for range 3 {
		c := u.create(map[string]any{"opponent": "computer", "level": 1, "color": "first"})
		ws := u.connect(c.ID)
		ws.move(ws.moves(0).Legal[0])
		ws.moves(2) // the computer answered: the human is to move, no clock
		ws.conn.CloseNow()
		ids = append(ids, c.ID)
	}
	for _, id := range ids {
		for n, in := s.srv.Rooms().Sockets(id); in && n > 0; n, in = s.srv.Rooms().Sockets(id) {
			time.Sleep(5 * time.Millisecond) // the socket's handler has not left yet
		}
	}
	s.srv.Sweep(time.Now().Add(2 * round.IdleEvict))
	// Three rounds of leases, one a second.
	time.Sleep(3500 * time.Millisecond)
	for _, id := range ids {
		if s.srv.Rooms().InMemory(id) {
			t.Errorf("idle game %s is back in memory after the rounds of leases", id)
		}
	}
	if n := s.srv.Rooms().Count(); n != 0 {
		t.Errorf("%d games in memory, want none", n)
	}
}

// TestSpectatorsShareTheirAddressPace: spectators without cookies each
// come as a new guest, but their lines are paced by their address, so
// that one client cannot flood a game's chat; and the players' room is
// never full because of the spectators'.
func TestSpectatorsShareTheirAddressPace(t *testing.T) {
	s := startServer(t, t.TempDir())
	_, _, sa, _, id := humanGame(t, s, nil)
	accepted := 0
	for i := range 12 {
		sc := s.user().connect(id)
		sc.send(wire.ClientMsg{Type: "chat", Text: fmt.Sprintf("line %d", i)})
		for {
			st := sc.next()
			if st.Type == "chat" {
				accepted++
				break
			}
			if st.Type == "error" {
				if st.Code != "chat_fast" {
					t.Errorf("spectator %d: %s %q", i, st.Code, st.Message)
				}
				break
			}
		}
		sc.conn.CloseNow()
	}
	if accepted > chat.Burst {
		t.Errorf("12 spectators of one address, each a new guest, posted %d lines at once; want the address's burst, %d", accepted, chat.Burst)
	}
	sa.send(wire.ClientMsg{Type: "chat", Text: "the players still chat"})
	for st := sa.next(); st.Type != "chat"; st = sa.next() {
		if st.Type == "error" {
			t.Fatalf("a player's line: %s", st.Message)
		}
	}
}

// TestPrivateGamesStayUnlisted: a game made private (public: false) is
// reached through its link only: it is listed nowhere, not on its
// players' profiles or in their PGN exports either, but to themselves.
func TestPrivateGamesStayUnlisted(t *testing.T) {
	s := startServer(t, t.TempDir())
	ann, bob := s.signedUp("ann"), s.signedUp("bob")
	c := ann.create(map[string]any{"opponent": "human", "color": "first", "public": false})
	tok := c.Invite[strings.Index(c.Invite, "invite=")+len("invite="):]
	if j, code := bob.join(c.ID, map[string]string{"invite": tok}); code != http.StatusOK {
		t.Fatalf("join: %d %q", code, j.Error)
	}
	sa, sb := ann.connect(c.ID), bob.connect(c.ID)
	sa.move(sa.moves(0).Legal[0])
	sb.move(sb.moves(1).Legal[0])
	sa.moves(2)
	sa.send(wire.ClientMsg{Type: "resign"})
	sa.until("the end", func(st state) bool { return st.Status == "finished" })
	stranger := s.user()
	var p profile
	if code := stranger.do("GET", "/api/users/ann", nil, &p); code != http.StatusOK || len(p.Games) != 0 || p.Record["losses"] != 1 {
		t.Errorf("ann's profile to a stranger: %d, %d games, record %v", code, len(p.Games), p.Record)
	}
	if code := ann.do("GET", "/api/users/ann", nil, &p); code != http.StatusOK || len(p.Games) != 1 {
		t.Errorf("ann's profile to ann: %d, %d games", code, len(p.Games))
	}
	var list struct{ Games []wire.Summary }
	if stranger.do("GET", "/api/users/bob/games", nil, &list); len(list.Games) != 0 {
		t.Errorf("bob's games to a stranger: %d", len(list.Games))
	}
	if bob.do("GET", "/api/users/bob/games", nil, &list); len(list.Games) != 1 {
		t.Errorf("bob's games to bob: %d", len(list.Games))
	}
	if stranger.do("GET", "/api/games?status=finished", nil, &list); len(list.Games) != 0 {
		t.Errorf("the archive: %d games", len(list.Games))
	}
	if got := stranger.text("/api/users/ann/games.pgn"); strings.Contains(got, "[White") {
		t.Errorf("ann's PGN export to a stranger: %q", got)
	}
	if got := ann.text("/api/users/ann/games.pgn"); !strings.Contains(got, "[White \"ann\"]") {
		t.Errorf("ann's PGN export to ann: %q", got)
	}
}

// loopAnalyses has a client of each address of ips ask for analyses of ms
// milliseconds one after another, within the limits, until stop; it
// returns once each has had one, so that the loops hold or wait for the
// slot from then on.
func (s *testServer) loopAnalyses(ms int, ips ...string) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	started := make(chan struct{}, len(ips))
	for _, ip := range ips {
		u := s.userFrom(ip)
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-done:
					return
				default:
				}
				u.do("POST", "/api/analyze", map[string]any{"movetime_ms": ms}, nil)
				if i == 0 {
					started <- struct{}{}
				}
			}
		})
	}
	for range ips {
		<-started
	}
	return func() {
		close(done)
		wg.Wait()
	}
}

// TestAnalysisSlotIsShared: two addresses that keep the one analysis slot
// busy with long analyses, within their limits, do not keep a third
// visitor's analysis out: the slot goes to whoever has used it least.
func TestAnalysisSlotIsShared(t *testing.T) {
	s := startServer(t, t.TempDir())
	stop := s.loopAnalyses(1500, "127.0.0.2", "127.0.0.3")
	visitor := s.userFrom("127.0.0.4")
	var e struct{ Error, Code string }
	code := visitor.do("POST", "/api/analyze", map[string]any{"movetime_ms": 100}, &e)
	stop()
	if code != http.StatusOK {
		t.Errorf("a visitor's analysis while two addresses loop theirs: %d %s %q", code, e.Code, e.Error)
	}
}

// TestMovesRecordedInTheGamesNotation: a move the rules engine reads in
// another spelling (a "tumble" of a single disk is its step) is recorded,
// shown and replayed as the game writes it, the spelling of the legal
// moves.
func TestMovesRecordedInTheGamesNotation(t *testing.T) {
	s := startServer(t, t.TempDir())
	u := s.user()
	c := u.create(map[string]any{"game": "tumbling", "opponent": "human", "color": "first"})
	other := s.user()
	tok := c.Invite[strings.Index(c.Invite, "invite=")+len("invite="):]
	other.join(c.ID, map[string]string{"invite": tok})
	ws := u.connect(c.ID)
	st := ws.moves(0)
	var step string
	for _, m := range st.Legal {
		if strings.Contains(m, "-") {
			step = m // a step of a single disk, which "a>b" spells too
			break
		}
	}
	if step == "" {
		t.Fatalf("no step among %v", st.Legal)
	}
	ws.move(strings.Replace(step, "-", ">", 1))
	if got := ws.moves(1); got.Moves[0] != step || got.Last != step {
		t.Errorf("the move %s spelt with >: recorded %q (last %q), want %q", step, got.Moves[0], got.Last, step)
	}
	if got := other.state(c.ID); got.Moves[0] != step {
		t.Errorf("the stored game's move: %q, want %q", got.Moves[0], step)
	}
}

// TestPanicInReview: a panic in a game review's work stops that review,
// not the process: the server goes on, reviews again, and reviews the
// faulted game when asked again.
func TestPanicInReview(t *testing.T) {
	var once sync.Once
	panicked := make(chan struct{})
	analysis.FaultHook = func(point string) {
		if point == "review" {
			once.Do(func() {
				close(panicked)
				panic("injected in a review")
			})
		}
	}
	t.Cleanup(func() { analysis.FaultHook = nil })
	s := startServer(t, t.TempDir(), func(c *Config) { c.ReviewMoveTime = 20 * time.Millisecond })
	u := s.user()
	finished := func() string {
		c := u.create(map[string]any{"opponent": "computer", "level": 1, "color": "first"})
		ws := u.connect(c.ID)
		ws.move(ws.moves(0).Legal[0])
		ws.moves(2)
		ws.send(wire.ClientMsg{Type: "resign"})
		ws.until("the end", func(st state) bool { return st.Status == "finished" })
		return c.ID
	}
	first := finished()
	if code := u.do("POST", "/api/games/"+first+"/review", map[string]any{}, nil); code != http.StatusAccepted {
		t.Fatalf("the first review: %d", code)
	}
	<-panicked
	second := finished()
	var rv wire.Review
	u.do("POST", "/api/games/"+second+"/review", map[string]any{}, &rv)
	for deadline := time.Now().Add(20 * time.Second); rv.Status != "done" && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		u.do("GET", "/api/games/"+second+"/review", nil, &rv)
	}
	if rv.Status != "done" {
		t.Errorf("a review after a review's panic: %+v", rv)
	}
	// Asked again, the faulted review starts over at once, not once it
	// is stale (two minutes on).
	rv = wire.Review{}
	for deadline := time.Now().Add(20 * time.Second); rv.Status != "done" && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		u.do("POST", "/api/games/"+first+"/review", map[string]any{}, &rv)
	}
	if rv.Status != "done" {
		t.Errorf("the faulted review asked again: %+v", rv)
	}
}

// TestLogoutLeavesTheSeats: logging out takes the browser's seats in its
// games with it, so that a shared browser keeps no control of the
// account's games.
func TestLogoutLeavesTheSeats(t *testing.T) {
	s := startServer(t, t.TempDir())
	ann := s.signedUp("ann")
	c := ann.create(map[string]any{"opponent": "computer", "level": 1, "color": "first"})
	if st := ann.state(c.ID); st.Seat == nil || *st.Seat != 0 {
		t.Fatalf("ann's seat before logging out: %v", st.Seat)
	}
	if _, code := ann.account("POST", "/api/account/logout", map[string]any{}); code != http.StatusOK {
		t.Fatalf("logout: %d", code)
	}
	if st := ann.state(c.ID); st.Seat != nil {
		t.Errorf("the browser still holds seat %d after logging out", *st.Seat)
	}
	ann.account("POST", "/api/account/login", map[string]string{"name": "ann", "password": "long enough"})
	if st := ann.state(c.ID); st.Seat == nil || *st.Seat != 0 {
		t.Errorf("ann's seat after logging in again: %v", st.Seat)
	}
}

// TestFirstMoveDeadlineSurvivesARestart: the time for a first move that
// ran before a restart stays spent after it, as a running clock's does.
// The wait is long beside the 3 s that run before the restart: on a
// loaded machine the game's set-up and the server's stop add seconds of
// their own, which count too (a 6 s wait ran out once in CI).
func TestFirstMoveDeadlineSurvivesARestart(t *testing.T) {
	const wait, ran = 20 * time.Second, 3 * time.Second
	dir := t.TempDir()
	s := startServer(t, dir, func(c *Config) { c.FirstMoveTimeout = wait })
	_, b, _, _, id := humanGame(t, s, map[string]any{"clock": "5+0"})
	before := b.state(id)
	if before.FirstMoveBy == nil {
		t.Fatal("no first-move deadline")
	}
	time.Sleep(ran)
	s.stop()
	s2 := startServer(t, dir, func(c *Config) { c.FirstMoveTimeout = wait })
	u := s2.user()
	st := u.state(id)
	if st.FirstMoveBy == nil {
		t.Fatalf("after the restart: no first-move deadline (%s %s)", st.Status, st.Reason)
	}
	if left := time.Duration(*st.FirstMoveBy-st.At) * time.Millisecond; left > wait-ran+500*time.Millisecond {
		t.Errorf("the first move's time after a restart: %v left of %v, %v of which had run", left, wait, ran)
	}
}

// TestOriginSchemeAndHeaders: a request whose Origin names this host by
// another scheme is another site's, for the API and the game sockets; and
// every answer, pages and API alike, says it may not be framed and whence
// it loads what.
func TestOriginSchemeAndHeaders(t *testing.T) {
	s := startServer(t, t.TempDir())
	host := strings.TrimPrefix(s.url, "http://")
	for _, tc := range []struct {
		origin string
		want   int
	}{
		{"http://" + host, http.StatusCreated},
		{"https://" + host, http.StatusForbidden}, // the plain-HTTP site is not the TLS one
		{"http://evil.example", http.StatusForbidden},
	} {
		req, _ := http.NewRequest("POST", s.url+"/api/games", strings.NewReader(`{"opponent":"computer"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Origin", tc.origin)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Errorf("POST with Origin %s: %d, want %d", tc.origin, resp.StatusCode, tc.want)
		}
	}
	c := s.user().create(map[string]any{"opponent": "computer"})
	url := "ws" + strings.TrimPrefix(s.url, "http") + "/api/games/" + c.ID + "/ws"
	h := http.Header{"Origin": {"https://" + host}}
	if conn, _, err := websocket.Dial(t.Context(), url, &websocket.DialOptions{HTTPHeader: h}); err == nil {
		conn.CloseNow()
		t.Error("a socket opened from the TLS origin of a plain-HTTP site")
	}
	for _, path := range []string{"/", "/g/" + c.ID, "/api/meta", "/css/app.css"} {
		resp, err := http.Get(s.url + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		csp := resp.Header.Get("Content-Security-Policy")
		if !strings.Contains(csp, "frame-ancestors 'none'") || !strings.Contains(csp, "script-src 'self'") ||
			resp.Header.Get("X-Frame-Options") != "DENY" || resp.Header.Get("Referrer-Policy") == "" || resp.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: CSP %q, X-Frame-Options %q, Referrer-Policy %q, X-Content-Type-Options %q", path, csp,
				resp.Header.Get("X-Frame-Options"), resp.Header.Get("Referrer-Policy"), resp.Header.Get("X-Content-Type-Options"))
		}
	}
}

// TestLookAlikeNames: a name that reads as another's (I, l and 1 alike, O
// and 0, rn and m, with or without - and _) is taken, and names that pass
// for the computer are reserved.
func TestLookAlikeNames(t *testing.T) {
	s := startServer(t, t.TempDir())
	s.signedUp("alice")
	s.signedUp("Morgan_1")
	for _, name := range []string{"aIice", "a1ice", "ALICE", "al-ice", "Morgan-l", "MorganI", "rnorgan_1"} {
		a, code := s.userFrom("127.0.1.1").account("POST", "/api/account/signup", map[string]string{"name": name, "password": "long enough"})
		if code != http.StatusConflict || !strings.Contains(a.Error, "taken") {
			t.Errorf("sign-up as %s: %d %q, want 409 taken", name, code, a.Error)
		}
	}
	for _, name := range []string{"computer-8", "Computer8", "c0mputer"} {
		a, code := s.userFrom("127.0.1.2").account("POST", "/api/account/signup", map[string]string{"name": name, "password": "long enough"})
		if code != http.StatusBadRequest || !strings.Contains(a.Error, "reserved") {
			t.Errorf("sign-up as %s: %d %q, want 400 reserved", name, code, a.Error)
		}
	}
	if _, code := s.userFrom("127.0.1.3").account("POST", "/api/account/signup", map[string]string{"name": "alicia", "password": "long enough"}); code != http.StatusOK {
		t.Errorf("sign-up as alicia: %d", code)
	}
}

// TestProfilesLimited: one address cannot look up profiles without limit
// (names could be enumerated so), and another is not held up by it.
func TestProfilesLimited(t *testing.T) {
	s := startServer(t, t.TempDir())
	s.signedUp("ann")
	scanner := s.userFrom("127.0.2.1")
	limited := 0
	for i := range DefaultLimits.ProfilesBurst + 10 {
		var e struct{ Error, Code string }
		if code := scanner.do("GET", fmt.Sprintf("/api/users/name%d", i), nil, &e); code == http.StatusTooManyRequests {
			if e.Code != "profiles_fast" {
				t.Errorf("the refusal: %s %q", e.Code, e.Error)
			}
			limited++
		}
	}
	if limited < 10 {
		t.Errorf("%d of %d lookups refused, want the ones over the burst of %d", limited, DefaultLimits.ProfilesBurst+10, DefaultLimits.ProfilesBurst)
	}
	if code := s.userFrom("127.0.2.2").do("GET", "/api/users/ann", nil, nil); code != http.StatusOK {
		t.Errorf("another address: %d", code)
	}
}

// logBuffer is a logger's output kept for a test to read.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// startInstance starts an instance of the server on the database at url.
func startInstance(t *testing.T, url, instance string, log io.Writer) *testServer {
	t.Helper()
	st, err := store.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Store: st, Static: testStatic, ComputerMoveTime: 20 * time.Millisecond, Instance: instance,
		Logger: slog.New(slog.NewTextHandler(log, nil))}
	srv, err := New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	s := &testServer{t: t, st: st, srv: srv, ts: ts, url: ts.URL}
	t.Cleanup(s.stop)
	return s
}

// TestMirrorStopsQuietly: an instance that only mirrors a game does not
// save its clock when it stops (the owner does), and logs no error for it.
func TestMirrorStopsQuietly(t *testing.T) {
	url := storetest.URL(t, "postgres")
	var logA, logB logBuffer
	a := startInstance(t, url, "a", &logA)
	b := startInstance(t, url, "b", &logB)
	u := a.user()
	c := u.create(map[string]any{"opponent": "computer", "level": 1, "color": "first", "clock": "5+0"})
	ws := u.connect(c.ID)
	ws.move(ws.moves(0).Legal[0])
	ws.moves(2) // both clocks run
	viewer := b.user()
	viewer.connect(c.ID).until("the mirror shows the moves", func(st state) bool { return len(st.Moves) >= 2 })
	b.stop()
	if strings.Contains(logB.String(), "level=ERROR") {
		t.Errorf("the mirror logged errors as it stopped:\n%s", logB.String())
	}
}

// TestRatedPairLimit: two accounts play at most ratings.PairLimit rated
// games with each other in a day: the next rated seek of one is refused
// to the other, and a rated game's rematch past the limit is casual. (Two
// accounts of one address gained 486 points in 84 games in 7 minutes.)
func TestRatedPairLimit(t *testing.T) {
	s := startServer(t, t.TempDir())
	ann, bob := s.signedUp("ann"), s.signedUp("bob")
	var last created
	for i := range ratings.PairLimit {
		c := ann.create(map[string]any{"opponent": "human", "rated": true, "public": true, "color": "first"})
		if j, code := bob.join(c.ID, map[string]string{}); code != http.StatusOK {
			t.Fatalf("rated game %d: bob's join %d %q", i+1, code, j.Error)
		}
		sa, sb := ann.connect(c.ID), bob.connect(c.ID)
		openHuman(sa, sb)
		sb.send(wire.ClientMsg{Type: "resign"})
		sa.until("rated", func(st state) bool { return st.Status == "finished" && st.Sides[0].RatingDiff != nil })
		last = c
	}
	c := ann.create(map[string]any{"opponent": "human", "rated": true, "public": true, "color": "first"})
	if j, code := bob.join(c.ID, map[string]string{}); code != http.StatusForbidden || !strings.Contains(j.Error, "rated games") {
		t.Errorf("a rated game past the day's limit for the pair: %d %q, want 403", code, j.Error)
	}
	sa := ann.connect(last.ID)
	sa.send(wire.ClientMsg{Type: "rematch", Action: "offer"})
	bob.connect(last.ID).send(wire.ClientMsg{Type: "rematch", Action: "accept"})
	st := sa.until("the rematch", func(st state) bool { return st.Rematch != nil && st.Rematch.Game != "" })
	if next := ann.state(st.Rematch.Game); next.Rated {
		t.Errorf("the rematch past the pair's limit is rated")
	}
}
