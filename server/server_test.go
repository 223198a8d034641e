package server

import (
	"io"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/magneton-games/magneton/record"
	"github.com/magneton-games/magneton/server/wire"
	"github.com/magneton-games/magneton/tumbling"
)

// humanGame makes a game between two users, a on the first side, and
// connects both.
func humanGame(t *testing.T, s *testServer, extra map[string]any) (a, b *user, sa, sb *sock, id string) {
	t.Helper()
	a, b = s.user(), s.user()
	req := map[string]any{"game": "magneton", "opponent": "human", "color": "first"}
	for k, v := range extra {
		req[k] = v
	}
	c := a.create(req)
	tok := c.Invite[strings.Index(c.Invite, "invite=")+len("invite="):]
	if j, code := b.join(c.ID, map[string]string{"invite": tok}); code != http.StatusOK || j.Seat != 1 {
		t.Fatalf("join: %d %+v", code, j)
	}
	sa, sb = a.connect(c.ID), b.connect(c.ID)
	sa.until("both connected", func(st state) bool { return st.Sides[0].Connected && st.Sides[1].Connected })
	return a, b, sa, sb, c.ID
}

func TestComputerAnswers(t *testing.T) {
	s := startServer(t, t.TempDir())
	for _, tc := range []struct {
		game, color string
		human       int
	}{
		{"magneton", "first", 0},
		{"magneton", "second", 1},
		{"tumbling", "first", 0},
	} {
		t.Run(tc.game+"-"+tc.color, func(t *testing.T) {
			u := s.user()
			c := u.create(map[string]any{"game": tc.game, "opponent": "computer", "level": 2, "color": tc.color})
			if c.Invite != "" || c.URL != "/g/"+c.ID {
				t.Errorf("create answered %+v", c)
			}
			ws := u.connect(c.ID)
			if ws.last.Seat == nil || *ws.last.Seat != tc.human || ws.last.Status != "playing" {
				t.Fatalf("first state: seat %v status %s", ws.last.Seat, ws.last.Status)
			}
			if ws.last.Sides[tc.human].Player != "you" || ws.last.Sides[1-tc.human].Player != "computer (level 2)" || !ws.last.Sides[1-tc.human].Connected {
				t.Errorf("sides %+v", ws.last.Sides)
			}
			n := 0
			if tc.human == 1 {
				ws.moves(1) // the computer opens
				n = 1
			}
			st := ws.last
			ws.move(st.Legal[0])
			st = ws.moves(n + 2)
			if st.Moves[n] != ws.last.Moves[n] || st.Turn != tc.human || len(st.Positions) != n+2 || st.Last != st.Moves[n+1] {
				t.Errorf("after the computer's answer: %+v", st)
			}
		})
	}
}

// TestInviteJoinSpectateAndErrors: a private game is joined through its
// invitation only; a spectator watches; the refusals go to their sender
// only; a player reconnects to the same seat; a resignation ends the game.
func TestInviteJoinSpectateAndErrors(t *testing.T) {
	s := startServer(t, t.TempDir())
	a, b := s.user(), s.user()
	c, sa := inviteJoin(t, s, a, b)
	sb := b.connect(c.ID)
	spec := s.user().connect(c.ID)
	if spec.last.Seat != nil {
		t.Errorf("spectator has seat %d", *spec.last.Seat)
	}
	sa.until("both connected", func(st state) bool { return st.Sides[0].Connected && st.Sides[1].Connected })

	first := sb.last.Legal[0]
	refusedMessages(t, sa, sb, spec, first)
	firstMove(t, s, a, c, first, sa, sb, spec)
	sa = reconnect(t, a, c, sa, sb)
	resignation(t, first, sa, sb, spec)
}

// inviteJoin: a makes a private game, in which a plays second, and b joins
// it through its invitation, refused without it or with a wrong one;
// joining again answers the same seat, and a third person finds the game
// full. It returns the game and a's socket, once the game is being played.
func inviteJoin(t *testing.T, s *testServer, a, b *user) (created, *sock) {
	c := a.create(map[string]any{"game": "magneton", "opponent": "human", "color": "second"})
	if !strings.HasPrefix(c.Invite, "/g/"+c.ID+"?invite=") {
		t.Fatalf("invite %q", c.Invite)
	}
	tok := strings.TrimPrefix(c.Invite, "/g/"+c.ID+"?invite=")
	sa := a.connect(c.ID)
	if sa.last.Status != "waiting" || *sa.last.Seat != 1 || sa.last.Sides[0].Player != "" {
		t.Errorf("waiting state %+v", sa.last)
	}
	// The game is private: joining without the invitation, or with a wrong
	// one, is refused.
	if _, code := b.join(c.ID, map[string]string{}); code != http.StatusForbidden {
		t.Errorf("join without invite: %d", code)
	}
	if _, code := b.join(c.ID, map[string]string{"invite": "nope"}); code != http.StatusForbidden {
		t.Errorf("join with a wrong invite: %d", code)
	}
	if j, code := b.join(c.ID, map[string]string{"invite": tok}); code != http.StatusOK || j.Seat != 0 || j.ID != c.ID {
		t.Fatalf("join: %d %+v", code, j)
	}
	// Joining again answers the same seat; a third person finds it taken.
	if j, code := b.join(c.ID, map[string]string{"invite": tok}); code != http.StatusOK || j.Seat != 0 {
		t.Errorf("second join: %d %+v", code, j)
	}
	if _, code := s.user().join(c.ID, map[string]string{"invite": tok}); code != http.StatusConflict {
		t.Errorf("join of a full game: %d", code)
	}
	st := sa.until("playing", func(st state) bool { return st.Status == "playing" })
	if !guestPattern.MatchString(st.Sides[0].Player) {
		t.Errorf("sides %+v: want the joiner's guest name", st.Sides)
	}
	return c, sa
}

// refusedMessages: what a player or spectator may not send is refused to
// the sender only and changes nothing; a ping is answered.
func refusedMessages(t *testing.T, sa, sb, spec *sock, first string) {
	// Errors go to the sender only and change nothing.
	spec.move(first)
	spec.expectError("spectators cannot move")
	sa.move(first)
	sa.expectError("not your turn")
	sb.move("zz9")
	sb.expectError("zz9")
	sb.sendRaw([]byte(`{"type":`))
	sb.expectError("malformed")
	sb.send(map[string]string{"type": "dance"})
	sb.expectError(`unknown message type "dance"`)
	sb.send(map[string]string{"type": "draw", "action": "maybe"})
	sb.expectError("unknown action")
	sb.send(map[string]string{"type": "rematch", "action": "offer"})
	sb.expectError("when the game is over")
	sb.send(map[string]string{"type": "ping"})
	if m := sb.next(); m.Type != "pong" {
		t.Errorf("ping answered %+v", m)
	}
	sa.quiet(100 * time.Millisecond)
	spec.quiet(10 * time.Millisecond)
}

// firstMove: the first move reaches every socket, and the GET of the
// game's state shows it, with a's seat and none for a stranger.
func firstMove(t *testing.T, s *testServer, a *user, c created, first string, sa, sb, spec *sock) {
	sb.move(first)
	for _, ws := range []*sock{sa, sb, spec} {
		if st := ws.moves(1); st.Moves[0] != first || st.Turn != 1 {
			t.Errorf("after the first move: %+v", st)
		}
	}
	if got := a.state(c.ID); *got.Seat != 1 || len(got.Moves) != 1 {
		t.Errorf("GET state: seat %v, moves %v", got.Seat, got.Moves)
	}
	if got := s.user().state(c.ID); got.Seat != nil {
		t.Errorf("GET state of a stranger has seat %v", *got.Seat)
	}
}

// reconnect: a player who leaves is shown as gone, and reconnecting with
// the same cookie gives the same seat. It returns the new socket of a.
func reconnect(t *testing.T, a *user, c created, sa, sb *sock) *sock {
	sa.conn.Close(websocket.StatusNormalClosure, "")
	sb.until("first player gone", func(st state) bool { return !st.Sides[1].Connected })
	sa = a.connect(c.ID)
	if *sa.last.Seat != 1 || len(sa.last.Moves) != 1 {
		t.Errorf("reconnected: seat %v moves %v", sa.last.Seat, sa.last.Moves)
	}
	sb.until("first player back", func(st state) bool { return st.Sides[1].Connected })
	return sa
}

// resignation: once the resigning side has moved (before, it aborts), a
// resignation ends the game for everyone, and a move after it is refused.
func resignation(t *testing.T, first string, sa, sb, spec *sock) {
	sa.move(sa.last.Legal[0])
	sb.moves(2)
	sa.send(map[string]string{"type": "resign"})
	for _, ws := range []*sock{sa, sb, spec} {
		st := ws.until("finished", func(st state) bool { return st.Status == "finished" })
		if st.Result != "1-0" || st.Reason != "resignation" || len(st.Legal) != 0 {
			t.Errorf("after resigning: %s %s legal %v", st.Result, st.Reason, st.Legal)
		}
	}
	sb.move(first)
	sb.expectError("the game is over")
}

func TestDrawOffers(t *testing.T) {
	s := startServer(t, t.TempDir())
	_, _, sa, sb, _ := humanGame(t, s, nil)
	sa.send(map[string]string{"type": "draw", "action": "offer"})
	if st := sb.until("offer", func(st state) bool { return st.DrawOffer != nil }); *st.DrawOffer != 0 {
		t.Errorf("draw_offer %d", *st.DrawOffer)
	}
	sa.send(map[string]string{"type": "draw", "action": "offer"})
	sa.expectError("already offered")
	sa.send(map[string]string{"type": "draw", "action": "accept"})
	sa.expectError("no draw offer")
	sb.send(map[string]string{"type": "draw", "action": "decline"})
	sa.until("declined", func(st state) bool { return st.DrawOffer == nil })
	// An offer is declined by moving on.
	sb.send(map[string]string{"type": "draw", "action": "offer"})
	sa.until("offer", func(st state) bool { return st.DrawOffer != nil && *st.DrawOffer == 1 })
	sa.move(sa.last.Legal[0])
	if st := sb.moves(1); st.DrawOffer != nil {
		t.Errorf("offer still standing after a move: %d", *st.DrawOffer)
	}
	sa.send(map[string]string{"type": "draw", "action": "offer"})
	sb.until("offer", func(st state) bool { return st.DrawOffer != nil })
	sb.send(map[string]string{"type": "draw", "action": "accept"})
	for _, ws := range []*sock{sa, sb} {
		st := ws.until("finished", func(st state) bool { return st.Status == "finished" })
		if st.Result != "1/2-1/2" || st.Reason != "agreement" || st.DrawOffer != nil {
			t.Errorf("after agreeing: %s %s %v", st.Result, st.Reason, st.DrawOffer)
		}
	}
}

func TestRematch(t *testing.T) {
	s := startServer(t, t.TempDir())
	a, b, sa, sb, id := humanGame(t, s, map[string]any{"clock": "3+2", "rules": "weak-force"})
	openHuman(sa, sb)
	sb.send(map[string]string{"type": "resign"}) // b plays second
	sa.until("finished", func(st state) bool { return st.Status == "finished" })
	sa.send(map[string]string{"type": "rematch", "action": "accept"})
	sa.expectError("no rematch offer")
	sa.send(map[string]string{"type": "rematch", "action": "offer"})
	sb.until("offer", func(st state) bool { return st.Rematch != nil && st.Rematch.OfferedBy == 0 })
	sb.send(map[string]string{"type": "rematch", "action": "accept"})
	var next string
	for _, ws := range []*sock{sa, sb} {
		st := ws.until("rematch game", func(st state) bool { return st.Rematch != nil && st.Rematch.Game != "" })
		next = st.Rematch.Game
	}
	sb.send(map[string]string{"type": "rematch", "action": "offer"})
	sb.expectError("already started")
	// Each player proves its seat with the old game's cookie; a stranger
	// cannot.
	if _, code := s.user().join(next, map[string]string{"rematch_of": id}); code != http.StatusForbidden {
		t.Errorf("stranger's rematch join: %d", code)
	}
	if _, code := a.join(next, map[string]string{"rematch_of": next}); code != http.StatusForbidden && code != http.StatusBadRequest {
		t.Errorf("rematch join naming the wrong game: %d", code)
	}
	if j, code := a.join(next, map[string]string{"rematch_of": id}); code != http.StatusOK || j.Seat != 1 {
		t.Errorf("a's rematch seat: %d %+v", code, j)
	}
	if j, code := b.join(next, map[string]string{"rematch_of": id}); code != http.StatusOK || j.Seat != 0 {
		t.Errorf("b's rematch seat: %d %+v", code, j)
	}
	na := a.connect(next)
	if *na.last.Seat != 1 || na.last.Status != "playing" || na.last.Clock == nil || na.last.Clock.InitialMS != 180000 || na.last.Clock.IncrementMS != 2000 {
		t.Errorf("rematch state %+v", na.last)
	}
	old := a.state(id)
	if !strings.Contains(a.state(next).Start, "") || a.state(next).Game != old.Game {
		t.Error("rematch under other settings")
	}
	nb := b.connect(next)
	nb.move(nb.last.Legal[0])
	na.moves(1)

	// Against the computer, offering is enough.
	u := s.user()
	c := u.create(map[string]any{"opponent": "computer", "level": 1, "color": "first"})
	ws := u.connect(c.ID)
	ws.openAgainstComputer()
	ws.send(map[string]string{"type": "resign"})
	ws.until("finished", func(st state) bool { return st.Status == "finished" })
	ws.send(map[string]string{"type": "rematch", "action": "offer"})
	st := ws.until("rematch game", func(st state) bool { return st.Rematch != nil && st.Rematch.Game != "" })
	if j, code := u.join(st.Rematch.Game, map[string]string{"rematch_of": c.ID}); code != http.StatusOK || j.Seat != 1 {
		t.Fatalf("rematch join: %d %+v", code, j)
	}
	nw := u.connect(st.Rematch.Game)
	nw.moves(1) // the computer has the first move now
}

func TestListsAndArchive(t *testing.T) {
	s := startServer(t, t.TempDir())
	a := s.user()
	open := a.create(map[string]any{"opponent": "human", "public": true})
	a.create(map[string]any{"opponent": "human", "public": false})
	type list struct {
		Games []wire.Summary `json:"games"`
	}
	var l list
	if code := a.do("GET", "/api/games?status=open", nil, &l); code != 200 || len(l.Games) != 1 || l.Games[0].ID != open.ID || l.Games[0].Status != "waiting" {
		t.Fatalf("open list: %d %+v", code, l)
	}
	// A public open game is joined without invitation.
	b := s.user()
	if _, code := b.join(open.ID, map[string]string{}); code != http.StatusOK {
		t.Fatalf("join open game: %d", code)
	}
	if code := a.do("GET", "/api/games?status=open", nil, &l); code != 200 || len(l.Games) != 0 {
		t.Errorf("open list after join: %+v", l)
	}
	if code := a.do("GET", "/api/games?status=live", nil, &l); code != 200 || len(l.Games) != 1 || !guestPattern.MatchString(l.Games[0].Players[0]) || !guestPattern.MatchString(l.Games[0].Players[1]) {
		t.Errorf("live list: %+v", l)
	}
	// Finish five public games against the computer.
	var ids []string
	for range 5 {
		c := a.create(map[string]any{"opponent": "computer", "level": 1, "public": true, "color": "first"})
		ws := a.connect(c.ID)
		ws.openAgainstComputer()
		ws.send(map[string]string{"type": "resign"})
		ws.until("finished", func(st state) bool { return st.Status == "finished" })
		ids = append(ids, c.ID)
		time.Sleep(2 * time.Millisecond) // distinct update times
	}
	var got []string
	before := ""
	for range 5 {
		q := "/api/games?status=finished&limit=2"
		if before != "" {
			q += "&before=" + before
		}
		if code := a.do("GET", q, nil, &l); code != 200 {
			t.Fatalf("%s: %d", q, code)
		}
		if len(l.Games) == 0 {
			break
		}
		for _, g := range l.Games {
			got = append(got, g.ID)
			if g.Result != "0-1" || g.Reason != "resignation" || g.Title != "Magneton" {
				t.Errorf("archive entry %+v", g)
			}
		}
		before = l.Games[len(l.Games)-1].ID
	}
	slices.Reverse(ids)
	if !slices.Equal(got, ids) {
		t.Errorf("archive pages %v, want %v", got, ids)
	}
	for _, q := range []string{"status=nope", "status=finished&limit=0", "status=finished&before=x"} {
		var e struct{ Error string }
		if code := a.do("GET", "/api/games?"+q, nil, &e); code != http.StatusBadRequest || e.Error == "" {
			t.Errorf("%s: %d %+v", q, code, e)
		}
	}
}

func TestRecords(t *testing.T) {
	s := startServer(t, t.TempDir())
	for _, tc := range []struct{ game, format string }{
		{"magneton", "pgn"}, {"tumbling", "pgn"}, {"tumbling", "sgf"},
	} {
		t.Run(tc.game+"-"+tc.format, func(t *testing.T) {
			u := s.user()
			c := u.create(map[string]any{"game": tc.game, "opponent": "computer", "level": 1, "color": "first"})
			ws := u.connect(c.ID)
			// Up to three moves each, or fewer if the game ends.
			st := ws.last
			for i := range 3 {
				st = ws.until("my turn or the end", func(st state) bool {
					return st.Status == "finished" || len(st.Moves) == 2*i && st.Turn == 0
				})
				if st.Status == "finished" {
					break
				}
				ws.move(st.Legal[0])
			}
			st = ws.until("six moves or the end", func(st state) bool { return st.Status == "finished" || len(st.Moves) == 6 })
			resp, err := u.http.Get(s.url + "/api/games/" + c.ID + "/record?format=" + tc.format)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 || !strings.Contains(resp.Header.Get("Content-Disposition"), "attachment") {
				t.Fatalf("record: %d %v %s", resp.StatusCode, resp.Header, body)
			}
			var moves []string
			if tc.format == "pgn" {
				rec, err := record.Parse(string(body))
				if err != nil {
					t.Fatalf("%v\n%s", err, body)
				}
				g, err := rec.Replay()
				if err != nil {
					t.Fatal(err)
				}
				moves = g.Moves()
			} else {
				h, err := tumbling.ParseSGF(string(body))
				if err != nil {
					t.Fatalf("%v\n%s", err, body)
				}
				moves = h.Moves
			}
			if !slices.Equal(moves, st.Moves) {
				t.Errorf("record moves %v, want %v", moves, st.Moves)
			}
		})
	}
	u := s.user()
	c := u.create(map[string]any{"opponent": "computer", "level": 1})
	var e struct{ Error string }
	if code := u.do("GET", "/api/games/"+c.ID+"/record?format=sgf", nil, &e); code != http.StatusBadRequest {
		t.Errorf("SGF of Magneton: %d %+v", code, e)
	}
	if code := u.do("GET", "/api/games/AAAAAAAAAAAAAAAA/record", nil, &e); code != http.StatusNotFound {
		t.Errorf("record of a missing game: %d", code)
	}
}

func TestAnalyze(t *testing.T) {
	s := startServer(t, t.TempDir())
	u := s.user()
	var out struct {
		Score string   `json:"score"`
		Best  string   `json:"best"`
		PV    []string `json:"pv"`
		Depth int      `json:"depth"`
		Error string   `json:"error"`
	}
	if code := u.do("POST", "/api/analyze", map[string]any{"game": "magneton", "position": "start", "movetime_ms": 100}, &out); code != 200 {
		t.Fatalf("analyze: %d %+v", code, out)
	}
	if out.Best == "" || out.Depth < 1 || len(out.PV) == 0 || out.PV[0] != out.Best || !(strings.HasPrefix(out.Score, "+") || strings.HasPrefix(out.Score, "-") || strings.HasPrefix(out.Score, "mate")) {
		t.Errorf("analysis %+v", out)
	}
	for _, body := range []string{
		`{"game":"chess"}`,
		`{"game":"magneton","rules":"force=huge"}`,
		`{"game":"magneton","position":"not a position"}`,
		`{"game":"magneton","movetime_ms":60000}`,
		`{"game":"magneton",`,
		`{"game":"magneton","movetime_ms":"fast"}`,
	} {
		out.Error = ""
		if code := u.do("POST", "/api/analyze", body, &out); code != http.StatusBadRequest || out.Error == "" {
			t.Errorf("%s: %d %+v", body, code, out)
		}
	}
}

func TestCreateValidation(t *testing.T) {
	s := startServer(t, t.TempDir())
	u := s.user()
	for _, body := range []string{
		`{"opponent":"robot"}`,
		`{"game":"go","opponent":"computer"}`,
		`{"opponent":"computer","rules":"win=nobody"}`,
		`{"opponent":"computer","level":9}`,
		`{"opponent":"computer","color":"blue"}`,
		`{"opponent":"computer","clock":"fast"}`,
		`{"opponent":"computer","clock":"0+3"}`,
		`not json`,
		`{"opponent":"computer","pad":"` + strings.Repeat("x", 20000) + `"}`,
	} {
		var e struct{ Error string }
		if code := u.do("POST", "/api/games", body, &e); code != http.StatusBadRequest || e.Error == "" {
			t.Errorf("%.60s: %d %+v", body, code, e)
		}
	}
	var e struct{ Error string }
	for _, p := range []string{"/api/games/short", "/api/games/AAAAAAAAAAAAAAAA", "/api/nothing"} {
		if code := u.do("GET", p, nil, &e); code != http.StatusNotFound || e.Error == "" {
			t.Errorf("GET %s: %d %+v", p, code, e)
		}
	}
	if _, code := u.join("AAAAAAAAAAAAAAAA", map[string]string{}); code != http.StatusNotFound {
		t.Errorf("join of a missing game: %d", code)
	}
}

func TestPagesAndHealth(t *testing.T) {
	s := startServer(t, t.TempDir())
	for _, tc := range []struct {
		path   string
		status int
		body   string
	}{
		{"/", 200, "<title>magneton"},
		{"/g/AAAAAAAAAAAAAAAA?invite=x", 200, "<title>magneton"},
		{"/css/app.css", 200, "body{}"},
		{"/nope.js", 404, "not found"},
		{"/healthz", 200, "ok"},
		{"/api/meta", 200, `"level":8,"name":"max"`},
		{"/api/meta", 200, `"level_ratings":[800,1000,1155,1307,1480,1631,1746,1992]`},
	} {
		resp, err := http.Get(s.url + tc.path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.status || !strings.Contains(string(body), tc.body) {
			t.Errorf("GET %s: %d %.200s", tc.path, resp.StatusCode, body)
		}
	}
	var meta struct {
		Games []struct {
			Name  string
			Start string
			Sides []struct{ Name, Letter string }
		}
	}
	s.user().do("GET", "/api/meta", nil, &meta)
	if len(meta.Games) != 2 || meta.Games[1].Name != "tumbling-down" || meta.Games[0].Start == "" || len(meta.Games[0].Sides) != 2 {
		t.Errorf("meta %+v", meta)
	}
}

func TestBadFrames(t *testing.T) {
	s := startServer(t, t.TempDir())
	_, _, sa, sb, _ := humanGame(t, s, nil)
	// A flood: the first 20 messages pass, the rest are refused, and the
	// socket is closed with 1008 after repeated floods.
	for range 100 {
		if err := sb.conn.Write(t.Context(), websocket.MessageText, []byte(`{"type":"ping"}`)); err != nil {
			break
		}
	}
	pongs, errs := 0, 0
	var closeErr error
	for {
		st, _, err := sb.read(5 * time.Second)
		if err != nil {
			closeErr = err
			break
		}
		switch st.Type {
		case "pong":
			pongs++
		case "error":
			errs++
		}
	}
	if got := websocket.CloseStatus(closeErr); got != websocket.StatusPolicyViolation {
		t.Errorf("flood closed with %v (%v), want 1008", got, closeErr)
	}
	if pongs < 20 || pongs > 30 || errs == 0 {
		t.Errorf("flood: %d pongs, %d errors", pongs, errs)
	}
	// An oversized frame closes that socket with 1009; the other player
	// goes on.
	sa.sendRaw([]byte(`{"type":"move","move":"` + strings.Repeat("a", 5000) + `"}`))
	for {
		_, _, err := sa.read(5 * time.Second)
		if err != nil {
			if got := websocket.CloseStatus(err); got != websocket.StatusMessageTooBig {
				t.Errorf("oversized frame closed with %v (%v), want 1009", got, err)
			}
			break
		}
	}
	s2 := s.user().connect(sb.last.ID)
	if s2.last.Status != "playing" || len(s2.last.Moves) != 0 {
		t.Errorf("game after bad frames: %+v", s2.last)
	}
}

func TestClockAndFlag(t *testing.T) {
	s := startServer(t, t.TempDir())
	_, _, sa, sb, _ := humanGame(t, s, map[string]any{"clock": "0.02+1"}) // 1.2 s, 1 s increment
	st := sa.last
	// The clocks start once each side has made its first move (and the
	// first moves earn no increment).
	if st.Clock == nil || st.Clock.InitialMS != 1200 || st.Clock.Running != nil || st.FirstMoveBy == nil {
		t.Fatalf("clock before the first move %+v, first move by %v", st.Clock, st.FirstMoveBy)
	}
	time.Sleep(200 * time.Millisecond) // time that must not count
	sa.move(sa.last.Legal[0])
	st = sb.moves(1)
	if st.Clock.RemainingMS != [2]int64{1200, 1200} || st.Clock.Running != nil {
		t.Errorf("clock after the first move: %+v", st.Clock)
	}
	sb.move(st.Legal[0])
	st = sa.moves(2)
	if st.Clock.RemainingMS[1] != 1200 || st.Clock.Running == nil || *st.Clock.Running != 0 || st.FirstMoveBy != nil {
		t.Errorf("clock after both first moves: %+v, first move by %v", st.Clock, st.FirstMoveBy)
	}
	sa.move(st.Legal[0])
	st = sb.moves(3)
	if r := st.Clock.RemainingMS[0]; r < 1200 || r > 2200 {
		t.Errorf("first clock after a move with 1 s increment: %d ms", r)
	}
	if *st.Clock.Running != 1 {
		t.Errorf("running %v", *st.Clock.Running)
	}
	// Second player never moves again: the flag falls.
	st = sa.until("time forfeit", func(st state) bool { return st.Status == "finished" })
	if st.Result != "1-0" || st.Reason != "time forfeit" || st.Clock.RemainingMS[1] != 0 || st.Clock.Running != nil {
		t.Errorf("after the flag fell: %s %s %+v", st.Result, st.Reason, st.Clock)
	}
}

func TestRestartResumes(t *testing.T) {
	dir := t.TempDir()
	s := startServer(t, dir)
	a, b, sa, sb, id := humanGame(t, s, map[string]any{"clock": "5+0"})
	for i := range 4 {
		ws := []*sock{sa, sb}[i%2]
		ws.move(ws.moves(i).Legal[0])
	}
	before := sa.moves(4)
	// A computer game where the computer is to move when the server stops.
	u := s.user()
	cg := u.create(map[string]any{"opponent": "computer", "level": 8, "color": "first", "clock": "0.2+0"})
	cw := u.connect(cg.ID)
	cw.move(cw.last.Legal[0])
	cw.moves(1)
	time.Sleep(100 * time.Millisecond)
	snapA := a.state(id)
	s.stop()
	time.Sleep(500 * time.Millisecond) // downtime is not charged

	s2 := startServer(t, dir)
	a.s, b.s, u.s = s2, s2, s2
	after := a.state(id)
	if !slices.Equal(after.Moves, before.Moves) || after.Position != before.Position || *after.Seat != 0 || after.Status != "playing" {
		t.Errorf("restarted game: %+v\nwant moves %v", after, before.Moves)
	}
	for i := range 2 {
		d := after.Clock.RemainingMS[i] - snapA.Clock.RemainingMS[i]
		if d < -1000 || d > 1000 {
			t.Errorf("clock %d: %d ms before the restart, %d after", i, snapA.Clock.RemainingMS[i], after.Clock.RemainingMS[i])
		}
	}
	// Both players go on; the computer resumes its move.
	na, nb := a.connect(id), b.connect(id)
	na.move(na.last.Legal[0])
	nb.moves(5)
	nc := u.connect(cg.ID)
	nc.moves(2)
}

func TestManyGamesAtOnce(t *testing.T) {
	s := startServer(t, t.TempDir())
	// Concurrent games are exercised by the load test; here a few games
	// played in turn by the same server must each keep their own moves.
	var socks [][2]*sock
	for range 4 {
		_, _, sa, sb, _ := humanGame(t, s, nil)
		socks = append(socks, [2]*sock{sa, sb})
	}
	for ply := range 6 {
		for _, p := range socks {
			ws := p[ply%2]
			ws.move(ws.moves(ply).Legal[ply%len(ws.last.Legal)])
		}
	}
	for _, p := range socks {
		if st := p[0].moves(6); len(st.Moves) != 6 || len(st.Positions) != 6 {
			t.Errorf("game %s: %v", st.ID, st.Moves)
		}
	}
}

func TestComputerDeclinesDrawAndFinishedGamesStayWatchable(t *testing.T) {
	s := startServer(t, t.TempDir())
	u := s.user()
	c := u.create(map[string]any{"opponent": "computer", "level": 1, "color": "first", "public": true})
	ws := u.connect(c.ID)
	ws.send(map[string]string{"type": "draw", "action": "offer"})
	ws.until("the offer", func(st state) bool { return st.DrawOffer != nil && *st.DrawOffer == 0 })
	if st := ws.until("the refusal", func(st state) bool { return st.DrawOffer == nil }); st.Status != "playing" {
		t.Errorf("after the computer declined: %+v", st)
	}
	ws.openAgainstComputer()
	ws.send(map[string]string{"type": "resign"})
	ws.until("finished", func(st state) bool { return st.Status == "finished" })
	ws.conn.Close(websocket.StatusNormalClosure, "")
	// A spectator opens the finished game later: it is loaded from the
	// database and shows the end; actions are refused.
	time.Sleep(50 * time.Millisecond)
	sp := s.user().connect(c.ID)
	if sp.last.Status != "finished" || sp.last.Reason != "resignation" || sp.last.Seat != nil {
		t.Errorf("finished game for a spectator: %+v", sp.last)
	}
	sp.send(map[string]string{"type": "rematch", "action": "offer"})
	sp.expectError("spectators cannot")
	// The player comes back and asks for the rematch from the reloaded game.
	back := u.connect(c.ID)
	back.send(map[string]string{"type": "rematch", "action": "offer"})
	st := back.until("rematch", func(st state) bool { return st.Rematch != nil && st.Rematch.Game != "" })
	sp.until("rematch seen by the spectator", func(st state) bool { return st.Rematch != nil && st.Rematch.Game != "" })
	if _, code := u.join(st.Rematch.Game, map[string]string{"rematch_of": c.ID}); code != http.StatusOK {
		t.Errorf("rematch join: %d", code)
	}
}

func TestIsPage(t *testing.T) {
	for name, want := range map[string]bool{
		"g/abc": true, "g/": false, "g": false, "@/ann": true, "analysis": true, "analysis/x": true,
		"learn": true, "learn/magneton": true, "puzzles": true, "js/app.js": false, "favicon.svg": false, "learning": false,
		"computer": true, "computers": false,
	} {
		if got := isPage(name); got != want {
			t.Errorf("isPage(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestPagePattern checks that the service worker's pattern of the pages
// is isPage (with the home page and index.html).
func TestPagePattern(t *testing.T) {
	re := regexp.MustCompile(pagePattern)
	for _, name := range []string{
		"", "index.html", "g/abc", "g/", "g", "@/ann", "@/", "analysis", "analysis/x", "analysisx", "learn", "learn/magneton",
		"learning", "puzzles", "puzzles/x", "computer", "computer/x", "computers", "mod", "reset", "reset/x", "js/app.js",
		"favicon.svg", "sw.js", "manifest.webmanifest", "engine/worker.js", "api/meta", "index.htmlx",
	} {
		want := name == "" || name == "index.html" || isPage(name)
		if got := re.MatchString("/" + name); got != want {
			t.Errorf("the pattern says %v of /%s, isPage %v", got, name, want)
		}
	}
}
