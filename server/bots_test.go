package server

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/bot"
	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/server/bots"
)

// coded is an answer's error and code.
type coded struct {
	Error string `json:"error"`
	Code  string `json:"code"`
}

// withToken sends a request with an API token and no cookies; it
// returns the status and decodes the JSON answer into out (if not nil).
func (s *testServer) withToken(token, method, path string, body, out any) int {
	s.t.Helper()
	var rd *strings.Reader
	if body == nil {
		body = map[string]any{}
	}
	b, _ := json.Marshal(body)
	rd = strings.NewReader(string(b))
	req, _ := http.NewRequest(method, s.url+path, rd)
	if method != "GET" {
		req.Header.Set("Content-Type", "application/json")
	} else {
		req.Body = http.NoBody
	}
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	if out != nil {
		json.NewDecoder(resp.Body).Decode(out)
	}
	return resp.StatusCode
}

// makeBot signs up an account, makes it a bot and a token for it.
func (s *testServer) makeBot(name string) (*user, string) {
	s.t.Helper()
	u := s.signedUp(name)
	var up struct {
		Bot bool `json:"bot"`
	}
	if code := u.do("POST", "/api/account/bot", map[string]bool{"confirm": true}, &up); code != http.StatusOK || !up.Bot {
		s.t.Fatalf("%s made a bot: %d %+v", name, code, up)
	}
	var tk bots.NewToken
	if code := u.do("POST", "/api/account/tokens", map[string]string{"label": "engine"}, &tk); code != http.StatusCreated || !strings.HasPrefix(tk.Token, bots.TokenPrefix) {
		s.t.Fatalf("%s's token: %d %+v", name, code, tk)
	}
	return u, tk.Token
}

// stream is a bot's open event stream.
type stream struct {
	resp  *http.Response
	lines chan string
}

func (s *testServer) openStream(token string) (*stream, int) {
	s.t.Helper()
	req, _ := http.NewRequest("GET", s.url+"/api/bot/stream", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		return nil, resp.StatusCode
	}
	st := &stream{resp: resp, lines: make(chan string, 100)}
	go func() {
		defer close(st.lines)
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if sc.Text() != "" {
				st.lines <- sc.Text()
			}
		}
	}()
	s.t.Cleanup(func() { resp.Body.Close() })
	return st, resp.StatusCode
}

// next returns the stream's next event ("" for its end).
func (st *stream) next(t *testing.T) bots.Event {
	t.Helper()
	select {
	case l, ok := <-st.lines:
		if !ok {
			return bots.Event{}
		}
		var ev bots.Event
		if err := json.Unmarshal([]byte(l), &ev); err != nil {
			t.Fatalf("event %q: %v", l, err)
		}
		return ev
	case <-time.After(10 * time.Second):
		t.Fatal("no event within 10 s")
	}
	return bots.Event{}
}

func fastBots(c *Config) { c.BotPoll = 50 * time.Millisecond }

// TestBotTokens: a token made, listed without its secret and revoked: a
// revoked token is refused at once, its open stream ends with the code
// token_revoked and its open game socket is closed.
func TestBotTokens(t *testing.T) {
	s := startServer(t, t.TempDir(), fastBots)
	ann := s.signedUp("ann")
	robo := s.signedUp("robo")
	var tk bots.NewToken
	var e coded
	if code := robo.do("POST", "/api/account/tokens", map[string]string{"label": " "}, &e); code != http.StatusBadRequest || e.Code != "token_label" {
		t.Errorf("an empty label: %d %+v", code, e)
	}
	if code := s.user().do("POST", "/api/account/tokens", map[string]string{"label": "x"}, &e); code != http.StatusUnauthorized || e.Code != "token_login" {
		t.Errorf("a guest's token: %d %+v", code, e)
	}
	robo.do("POST", "/api/account/tokens", map[string]string{"label": "my engine"}, &tk)
	if _, code := s.openStream(tk.Token); code != http.StatusForbidden {
		t.Errorf("a person's stream: %d, want 403", code)
	}
	if code := robo.do("POST", "/api/account/bot", map[string]any{}, &e); code != http.StatusBadRequest || e.Code != "bot_confirm" || !strings.Contains(e.Error, "cannot be undone") {
		t.Errorf("an upgrade without confirming: %d %+v", code, e)
	}
	robo.do("POST", "/api/account/bot", map[string]bool{"confirm": true}, nil)
	var list struct {
		Tokens []map[string]any `json:"tokens"`
		Bot    bool             `json:"bot"`
	}
	robo.do("GET", "/api/account/tokens", nil, &list)
	if len(list.Tokens) != 1 || list.Tokens[0]["label"] != "my engine" || list.Tokens[0]["token"] != nil || !list.Bot {
		t.Errorf("the list: %+v", list)
	}
	if code := s.withToken(tk.Token, "POST", "/api/account/tokens", map[string]string{"label": "more"}, &e); code != http.StatusForbidden || e.Code != "token_session" {
		t.Errorf("a token making a token: %d %+v", code, e)
	}
	if code := s.withToken("mgt_nonsense", "GET", "/api/account", nil, &e); code != http.StatusUnauthorized || e.Code != "token_unknown" {
		t.Errorf("an unknown token: %d %+v", code, e)
	}
	var acct struct {
		Name string `json:"name"`
	}
	if code := s.withToken(tk.Token, "GET", "/api/account", nil, &acct); code != http.StatusOK || acct.Name != "robo" {
		t.Errorf("the token's account: %d %+v", code, acct)
	}
	st, code := s.openStream(tk.Token)
	if code != http.StatusOK {
		t.Fatalf("the stream: %d", code)
	}
	if _, code := s.openStream(tk.Token); code != http.StatusTooManyRequests {
		t.Errorf("a second stream: %d, want 429", code)
	}
	var c created
	if code := ann.do("POST", "/api/challenges", map[string]any{"to": "Robo", "game": "magneton", "clock": "5+0"}, &c); code != http.StatusCreated {
		t.Fatalf("ann's challenge: %d %+v", code, c)
	}
	if ev := st.next(t); ev.Type != "challenge" || ev.ID != c.ID || ev.From != "ann" || ev.Clock != "5+0" || ev.Seat == nil {
		t.Errorf("the challenge's event: %+v", ev)
	}
	ws := dialWithToken(t, s, c.ID, tk.Token)
	id := fmt.Sprint(list.Tokens[0]["id"])
	if code := robo.do("POST", "/api/account/tokens/"+id+"/revoke", map[string]any{}, &e); code != http.StatusOK {
		t.Fatalf("revoke: %d %+v", code, e)
	}
	if ev := st.next(t); ev.Type != "error" || ev.Code != "token_revoked" {
		t.Errorf("the stream after the revocation: %+v", ev)
	}
	if ev := st.next(t); ev.Type != "" {
		t.Errorf("the stream goes on: %+v", ev)
	}
	ws.closed(t)
	if code := s.withToken(tk.Token, "GET", "/api/account", nil, &e); code != http.StatusUnauthorized || e.Code != "token_revoked" {
		t.Errorf("a revoked token: %d %+v", code, e)
	}
}

// wsConn is a game socket opened with a token.
type wsConn struct {
	conn *websocket.Conn
	done chan error
}

func dialWithToken(t *testing.T, s *testServer, id, token string) *wsConn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(s.url, "http")+"/api/games/"+id+"/ws",
		&websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer " + token}}})
	if err != nil {
		t.Fatal(err)
	}
	conn.SetReadLimit(4 << 20)
	w := &wsConn{conn: conn, done: make(chan error, 1)}
	go func() {
		for {
			if _, _, err := conn.Read(context.Background()); err != nil {
				w.done <- err
				return
			}
		}
	}()
	t.Cleanup(func() { conn.CloseNow() })
	return w
}

func (w *wsConn) closed(t *testing.T) {
	t.Helper()
	select {
	case <-w.done:
	case <-time.After(10 * time.Second):
		t.Error("the socket of a revoked token is still open")
	}
}

// TestBotLimits: a token's requests a second, and a bot's games at once.
func TestBotLimits(t *testing.T) {
	s := startServer(t, t.TempDir(), fastBots, func(c *Config) { c.Bots = bots.Limits{Rate: 1, Burst: 3, Games: 1} })
	ann := s.signedUp("ann")
	_, token := s.makeBot("robo")
	var ids []string
	for range 2 {
		var c created
		if code := ann.do("POST", "/api/challenges", map[string]any{"to": "robo", "game": "magneton"}, &c); code != http.StatusCreated {
			t.Fatalf("a challenge: %d %+v", code, c)
		}
		ids = append(ids, c.ID)
	}
	var e coded
	if code := s.withToken(token, "POST", "/api/challenges/"+ids[0]+"/accept", nil, &e); code != http.StatusOK {
		t.Fatalf("accept: %d %+v", code, e)
	}
	if code := s.withToken(token, "POST", "/api/challenges/"+ids[1]+"/accept", nil, &e); code != http.StatusTooManyRequests || e.Code != "bot_games" {
		t.Errorf("a second game at once: %d %+v", code, e)
	}
	if code := s.withToken(token, "POST", "/api/games", map[string]any{"opponent": "human"}, &e); code != http.StatusForbidden || e.Code != "bot_api_only" {
		t.Errorf("a bot's seek: %d %+v", code, e)
	}
	if code := s.withToken(token, "GET", "/api/account", nil, &e); code != http.StatusTooManyRequests || e.Code != "token_fast" {
		t.Errorf("past the rate: %d %+v", code, e)
	}
}

// TestBotChallenges: the refusals of challenges, and a decline.
func TestBotChallenges(t *testing.T) {
	s := startServer(t, t.TempDir(), fastBots)
	ann, bob := s.signedUp("ann"), s.signedUp("bob")
	_, token := s.makeBot("robo")
	cases := []struct {
		who  *user
		body map[string]any
		code int
		want string
	}{
		{s.user(), map[string]any{"to": "robo", "game": "magneton"}, http.StatusUnauthorized, "challenge_login"},
		{ann, map[string]any{"to": "nobody", "game": "magneton"}, http.StatusNotFound, "challenge_nobody"},
		{ann, map[string]any{"to": "ann", "game": "magneton"}, http.StatusBadRequest, "challenge_self"},
		{ann, map[string]any{"to": "robo", "game": "chess"}, http.StatusBadRequest, ""},
		{ann, map[string]any{"to": "robo", "game": "magneton", "rules": "repetition=off", "rated": true}, http.StatusBadRequest, "rated_variant"},
	}
	for _, c := range cases {
		var e coded
		if code := c.who.do("POST", "/api/challenges", c.body, &e); code != c.code || e.Code != c.want {
			t.Errorf("%v: %d %+v, want %d %s", c.body, code, e, c.code, c.want)
		}
	}
	var c created
	ann.do("POST", "/api/challenges", map[string]any{"to": "robo", "game": "magneton"}, &c)
	var e coded
	if code := bob.do("POST", "/api/challenges/"+c.ID+"/accept", map[string]any{}, &e); code != http.StatusForbidden || e.Code != "challenge_not_yours" {
		t.Errorf("bob accepts ann's challenge to robo: %d %+v", code, e)
	}
	if _, code := bob.join(c.ID, map[string]string{}); code != http.StatusForbidden {
		t.Errorf("bob joins the challenge's game: %d", code)
	}
	if code := s.withToken(token, "POST", "/api/challenges/"+c.ID+"/decline", nil, &e); code != http.StatusOK {
		t.Fatalf("decline: %d %+v", code, e)
	}
	if st := ann.state(c.ID); st.Status != "aborted" {
		t.Errorf("the declined challenge's game: %s", st.Status)
	}
	if code := s.withToken(token, "POST", "/api/challenges/"+c.ID+"/accept", nil, &e); code != http.StatusConflict || e.Code != "challenge_gone" {
		t.Errorf("a declined challenge accepted: %d %+v", code, e)
	}
	// A person challenged sees the challenge among their games, and
	// accepts it.
	ann.do("POST", "/api/challenges", map[string]any{"to": "bob", "game": "magneton", "color": "first"}, &c)
	var mine struct {
		Games []struct {
			ID        string    `json:"id"`
			Challenge bool      `json:"challenge"`
			Seat      int       `json:"seat"`
			Players   [2]string `json:"players"`
		} `json:"games"`
	}
	bob.do("GET", "/api/my-games", nil, &mine)
	if len(mine.Games) != 1 || mine.Games[0].ID != c.ID || !mine.Games[0].Challenge || mine.Games[0].Seat != 1 || mine.Games[0].Players[0] != "ann" {
		t.Errorf("bob's games: %+v", mine)
	}
	var j joinResult
	if code := bob.do("POST", "/api/challenges/"+c.ID+"/accept", map[string]any{}, &j); code != http.StatusOK || j.Seat != 1 {
		t.Errorf("bob accepts: %d %+v", code, j)
	}
	if st := bob.state(c.ID); st.Status != "playing" || st.Seat == nil || *st.Seat != 1 {
		t.Errorf("the accepted challenge: %s seat %v", st.Status, st.Seat)
	}
}

// runBot runs a bot client with the engine level:1 until it has played
// games games; the returned function waits for it.
func runBot(t *testing.T, s *testServer, token string, games int, challenge *bot.Challenge) func() {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	var wg sync.WaitGroup
	wg.Add(1)
	var err error
	go func() {
		defer wg.Done()
		err = bot.Run(ctx, bot.Config{Server: s.url, Token: token, NewPlayer: level1, Rated: true, Casual: true, MaxGames: 2,
			QuitAfter: games, Challenge: challenge, Logger: slog.New(slog.DiscardHandler), Backoff: 50 * time.Millisecond})
	}()
	t.Cleanup(cancel)
	return func() {
		t.Helper()
		wg.Wait()
		if ctx.Err() != nil {
			t.Fatal("the bot did not finish its games within 2 minutes")
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

func level1(rules game.Rules) (ai.Player, error) {
	return games.NewPlayer("level:1", rules, ai.Config{})
}

// shortGames ends every game as a draw after 16 moves at the latest.
func shortGames(c *Config) { c.MaxPlies = 16 }

// TestBotPlaysPerson: a person's rated challenge accepted by a bot
// client and played to the end, both rated in the people's pool; the
// game's state shows the bot.
func TestBotPlaysPerson(t *testing.T) {
	s := startServer(t, t.TempDir(), fastBots, shortGames)
	ann := s.signedUp("ann")
	_, token := s.makeBot("robo")
	wait := runBot(t, s, token, 1, nil)
	var c created
	if code := ann.do("POST", "/api/challenges", map[string]any{"to": "robo", "game": "magneton", "rules": "standard", "rated": true, "clock": "1+0", "color": "first"}, &c); code != http.StatusCreated {
		t.Fatalf("the challenge: %d %+v", code, c)
	}
	sock := ann.connect(c.ID)
	if st := sock.until("playing", func(st state) bool { return st.Status == "playing" }); !st.Sides[1].Bot || st.Sides[0].Bot {
		t.Errorf("the sides' bot flags: %+v", st.Sides)
	}
	for {
		st := sock.until("ann's turn or the end", func(st state) bool { return st.Status == "finished" || st.Status == "playing" && st.Turn == 0 })
		if st.Status == "finished" {
			break
		}
		sock.move(st.Legal[0])
		sock.moves(len(st.Moves) + 1)
	}
	wait()
	for name, family := range map[string]string{"ann": "standard", "robo": "standard"} {
		var p profile
		s.user().do("GET", "/api/users/"+name, nil, &p)
		if len(p.Ratings) != 1 || p.Ratings[0].Family != family || p.Ratings[0].Games != 1 {
			t.Errorf("%s's ratings: %+v", name, p.Ratings)
		}
	}
}

// TestBotPool: a rated game between two bot clients, one challenging the
// other, rates them in the bots' pool.
func TestBotPool(t *testing.T) {
	s := startServer(t, t.TempDir(), fastBots, shortGames)
	_, a := s.makeBot("robo1")
	_, b := s.makeBot("robo2")
	waitA := runBot(t, s, a, 1, nil)
	waitB := runBot(t, s, b, 1, &bot.Challenge{To: "robo1", Game: "magneton", Rules: "standard", Clock: "1+0", Rated: true})
	waitA()
	waitB()
	for _, name := range []string{"robo1", "robo2"} {
		var p profile
		s.user().do("GET", "/api/users/"+name, nil, &p)
		if len(p.Ratings) != 1 || p.Ratings[0].Family != "bot-standard" || p.Ratings[0].Games != 1 {
			t.Errorf("%s's ratings: %+v", name, p.Ratings)
		}
	}
}

// cutProxy is a TCP proxy to a server whose connections the test can cut
// all at once, as a dropped network does.
type cutProxy struct {
	ln    net.Listener
	mu    sync.Mutex
	conns []net.Conn
}

func newCutProxy(t *testing.T, target string) *cutProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &cutProxy{ln: ln}
	t.Cleanup(func() { ln.Close(); p.cut() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			up, err := net.Dial("tcp", target)
			if err != nil {
				c.Close()
				continue
			}
			p.mu.Lock()
			p.conns = append(p.conns, c, up)
			p.mu.Unlock()
			go func() { io.Copy(up, c); up.Close() }()
			go func() { io.Copy(c, up); c.Close() }()
		}
	}()
	return p
}

func (p *cutProxy) url() string { return "http://" + p.ln.Addr().String() }

// cut closes every connection through the proxy.
func (p *cutProxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

// TestBotReconnects: the bot client's connections dropped in the middle
// of a game: it reconnects its stream and its game socket, and plays the
// game to the end.
func TestBotReconnects(t *testing.T) {
	s := startServer(t, t.TempDir(), fastBots, shortGames)
	ann := s.signedUp("ann")
	_, token := s.makeBot("robo")
	proxy := newCutProxy(t, strings.TrimPrefix(s.url, "http://"))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- bot.Run(ctx, bot.Config{Server: proxy.url(), Token: token, NewPlayer: level1, Rated: true, Casual: true,
			QuitAfter: 1, Logger: slog.New(slog.DiscardHandler), Backoff: 50 * time.Millisecond})
	}()
	var c created
	ann.do("POST", "/api/challenges", map[string]any{"to": "robo", "game": "magneton", "color": "first"}, &c)
	sock := ann.connect(c.ID)
	for ply := 0; ; ply += 2 {
		st := sock.until("ann's turn or the end", func(st state) bool {
			return st.Status == "finished" || st.Status == "playing" && st.Turn == 0 && len(st.Moves) == ply
		})
		if st.Status == "finished" {
			break
		}
		if ply == 4 {
			proxy.cut() // the bot's stream and socket drop while it waits for ann's move
		}
		sock.move(st.Legal[0])
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-ctx.Done():
		t.Fatal("the bot did not end after its game")
	}
	if st := ann.state(c.ID); st.Status != "finished" || len(st.Moves) < 6 {
		t.Errorf("the game: %s after %d moves", st.Status, len(st.Moves))
	}
}

// TestBotStreamOutlivesTimeouts: the event stream lasts past the HTTP
// server's read and write timeouts (magneton serve has 20 s and 30 s).
func TestBotStreamOutlivesTimeouts(t *testing.T) {
	s := startServer(t, t.TempDir(), fastBots)
	ann := s.signedUp("ann")
	_, token := s.makeBot("robo")
	ts := httptest.NewUnstartedServer(s.srv.Handler())
	ts.Config.ReadTimeout, ts.Config.WriteTimeout = 300*time.Millisecond, 300*time.Millisecond
	ts.Start()
	defer ts.Close()
	short := &testServer{t: t, url: ts.URL}
	st, code := short.openStream(token)
	if code != http.StatusOK {
		t.Fatalf("the stream: %d", code)
	}
	defer st.resp.Body.Close() // before ts.Close, which waits for the stream
	time.Sleep(time.Second)    // past both timeouts
	var c created
	ann.do("POST", "/api/challenges", map[string]any{"to": "robo", "game": "magneton"}, &c)
	if ev := st.next(t); ev.Type != "challenge" || ev.ID != c.ID {
		t.Errorf("the event after the timeouts: %+v", ev)
	}
}
