package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/cookiejar"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/magneton-games/magneton/server/wire"
)

// serveProc is a magneton serve child process.
type serveProc struct {
	cmd    *exec.Cmd
	url    string
	stderr *bytes.Buffer
	done   chan error
	// admin receives the admin address's URL, when serve prints one
	// (--admin) after its first line.
	admin chan string
}

func startServe(t *testing.T, bin, dir string, args ...string) *serveProc {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"serve", "--addr", "127.0.0.1:0", "--data", dir}, args...)...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &serveProc{cmd: cmd, stderr: &bytes.Buffer{}, done: make(chan error, 1), admin: make(chan string, 1)}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	lines := bufio.NewScanner(out)
	if !lines.Scan() {
		t.Fatalf("serve printed nothing: %s", p.stderr)
	}
	line := lines.Text()
	u, ok := strings.CutPrefix(line, "magneton: serving on ")
	if !ok || !strings.HasPrefix(u, "http://127.0.0.1:") {
		t.Fatalf("serve printed %q", line)
	}
	p.url = u
	go func() {
		for lines.Scan() {
			if u, ok := strings.CutPrefix(lines.Text(), "magneton: admin on "); ok {
				p.admin <- u
			}
		}
		io.Copy(io.Discard, out) // after a line too long for the scanner
		p.done <- cmd.Wait()
	}()
	return p
}

// adminURL is the admin address's URL that serve printed.
func (p *serveProc) adminURL(t *testing.T) string {
	t.Helper()
	select {
	case u := <-p.admin:
		return u
	case <-time.After(10 * time.Second):
		t.Fatalf("serve printed no admin address: %s", p.stderr)
		return ""
	}
}

// crashClient is a cookie jar speaking the API.
type crashClient struct{ http *http.Client }

func newCrashClient() *crashClient {
	jar, _ := cookiejar.New(nil)
	return &crashClient{&http.Client{Jar: jar, Timeout: 5 * time.Second}}
}

func (c *crashClient) post(url string, body string, out any) error {
	resp, err := c.http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		b, _ := io.ReadAll(resp.Body)
		return fmt.Errorf("POST %s: %d %s", url, resp.StatusCode, b)
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

// gameState is any message of the server as the tests read it: a game's
// state (GET /api/games/ID, or a socket's "state" and "update" messages),
// an error or a chat line.
type gameState struct {
	wire.State
	// An error's text, code and values (wire.ErrorMsg).
	Message string            `json:"message"`
	Code    string            `json:"code"`
	Vars    map[string]string `json:"vars"`
	// A "chat" message's line (wire.ChatMsg), which the viewer appends to
	// the state's Chat.
	Line *wire.ChatLine `json:"line"`
}

// gameList is a list of games (GET /api/games?status=...).
type gameList struct {
	Games []wire.Summary `json:"games"`
}

// ackLog keeps, for each game, the longest list of moves its clients saw
// acknowledged.
type ackLog struct {
	mu   sync.Mutex
	seen map[string][]string
}

func newAckLog() *ackLog { return &ackLog{seen: map[string][]string{}} }

// burst starts n crashGame clients on base, each with its own random
// source (seeds first to first+n-1 of stream), noting what they saw.
func (a *ackLog) burst(wg *sync.WaitGroup, base string, first, n int, stream uint64) {
	for i := range n {
		rng := rand.New(rand.NewPCG(uint64(first+i), stream))
		wg.Go(func() { crashGame(base, rng, a.note) })
	}
}

func (a *ackLog) note(id string, moves []string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(moves) > len(a.seen[id]) {
		a.seen[id] = slices.Clone(moves)
	}
}

// count returns how many moves were acknowledged in all.
func (a *ackLog) count() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	n := 0
	for _, m := range a.seen {
		n += len(m)
	}
	return n
}

// getJSON reads the JSON answer of a GET of url.
func getJSON[T any](t *testing.T, url string) T {
	t.Helper()
	var v T
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(&v); err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	return v
}

// crashGame plays random moves in new games between two clients until the
// server dies, recording every move acknowledged (broadcast back).
func crashGame(base string, rng *rand.Rand, acked func(id string, moves []string)) error {
	for {
		a, b := newCrashClient(), newCrashClient()
		var c wire.Created
		if err := a.post(base+"/api/games", `{"game":"magneton","opponent":"human","color":"first"}`, &c); err != nil {
			return err
		}
		tok := c.Invite[strings.Index(c.Invite, "invite=")+7:]
		var j wire.Joined
		if err := b.post(base+"/api/games/"+c.ID+"/join", `{"invite":"`+tok+`"}`, &j); err != nil {
			return err
		}
		var conns [2]*websocket.Conn
		for i, cl := range []*crashClient{a, b} {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(base, "http")+"/api/games/"+c.ID+"/ws", &websocket.DialOptions{HTTPClient: cl.http})
			cancel()
			if err != nil {
				return err
			}
			defer conn.CloseNow()
			conns[i] = conn
		}
		var moves []string // as the messages tell them: a state, then updates
		read := func(conn *websocket.Conn, want int) (gameState, error) {
			for {
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				_, data, err := conn.Read(ctx)
				cancel()
				if err != nil {
					return gameState{}, err
				}
				var st gameState
				if err := json.Unmarshal(data, &st); err != nil {
					return gameState{}, err
				}
				switch {
				case st.Type == "state":
					moves = st.Moves
				case st.Type == "update" && st.Ply == len(moves)+1:
					moves = append(moves, st.Last)
				case st.Type == "update" && st.Ply != len(moves):
					return gameState{}, fmt.Errorf("an update of ply %d after %d moves", st.Ply, len(moves))
				}
				st.Moves = slices.Clone(moves)
				if (st.Type == "state" || st.Type == "update") && len(st.Moves) >= want {
					return st, nil
				}
			}
		}
		st, err := read(conns[0], 0)
		if err != nil {
			return err
		}
		for st.Status == "playing" {
			mover := conns[st.Turn]
			msg, _ := json.Marshal(wire.ClientMsg{Type: "move", Move: st.Legal[rng.IntN(len(st.Legal))]})
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			err := mover.Write(ctx, websocket.MessageText, msg)
			cancel()
			if err != nil {
				return err
			}
			if st, err = read(mover, len(st.Moves)+1); err != nil {
				return err
			}
			acked(c.ID, st.Moves)
			time.Sleep(35 * time.Millisecond) // stay under 20 messages a second per socket
		}
	}
}

// TestServeCrash kills magneton serve with SIGKILL in the middle of a burst
// of moves and checks that every move it had acknowledged is there after a
// restart.
func TestServeCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	// Eight clients on one address make games faster than a person may.
	p := startServe(t, bin, dir, "--client-limits", "off")
	acks := newAckLog()
	var wg sync.WaitGroup
	acks.burst(&wg, p.url, 0, 8, 1)
	time.Sleep(1500 * time.Millisecond)
	n := acks.count()
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-p.done
	wg.Wait()
	if n < 20 {
		t.Fatalf("only %d moves acknowledged before the kill; stderr:\n%s", n, p.stderr)
	}

	p2 := startServe(t, bin, dir)
	total := 0
	for id, want := range acks.seen {
		st := getJSON[gameState](t, p2.url+"/api/games/"+id)
		// The restarted game holds every acknowledged move, and at most one
		// more (saved, but killed before it was broadcast).
		if len(st.Moves) < len(want) || len(st.Moves) > len(want)+1 || !slices.Equal(st.Moves[:len(want)], want) {
			t.Errorf("game %s after the restart: %v\nacknowledged: %v", id, st.Moves, want)
		}
		total += len(want)
	}
	t.Logf("%d games, %d acknowledged moves, all present after SIGKILL and restart", len(acks.seen), total)

	// SIGTERM stops the server gracefully.
	p2.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-p2.done:
		if err != nil {
			t.Errorf("after SIGTERM: %v\n%s", err, p2.stderr)
		}
		if !strings.Contains(p2.stderr.String(), "msg=stopped") {
			t.Errorf("no orderly stop in the log:\n%s", p2.stderr)
		}
	case <-time.After(15 * time.Second):
		t.Error("serve did not stop within 15 s of SIGTERM")
	}
}

func TestServeUsage(t *testing.T) {
	for _, args := range [][]string{
		{"serve", "extra"},
		{"serve", "--log-level", "loud"},
		{"serve", "--bogus"},
		{"serve", "--search-memory", "1"},
		{"serve", "--max-plies", "5"},
		{"serve", "--client-limits", "maybe"},
		{"serve", "--expire", "1s"},
		{"serve", "--trusted-proxy", "not-an-address"},
		{"serve", "--schedule", "/no/such/schedule.json"},
	} {
		_, errs, code := runCmd(t, "", args...)
		if code != 2 {
			t.Errorf("%v: exit %d, want 2 (%s)", args, code, errs)
		}
	}
	// A PostgreSQL server that is not there: a clear message, without the
	// password.
	_, errs, code := runCmd(t, "", "serve", "--db", "postgres://u:secret@127.0.0.1:1/x?connect_timeout=2", "--addr", "127.0.0.1:0")
	if code != 1 || !strings.Contains(errs, "postgres://u@127.0.0.1:1/x") || strings.Contains(errs, "secret") {
		t.Errorf("postgres not there: exit %d: %s", code, errs)
	}
	_, errs, code = runCmd(t, "", "serve", "--data", filepath.Join(t.TempDir(), "d"), "--addr", "256.0.0.1:1")
	if code != 1 {
		t.Errorf("bad address: exit %d: %s", code, errs)
	}
}

// TestServeCrashClock kills magneton serve with SIGKILL while a clock runs
// and checks that after a restart the clock shows the time it ran until
// the kill, within a second, and not the time the server was down.
func TestServeCrashClock(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	p := startServe(t, bin, dir)
	a, b := newCrashClient(), newCrashClient()
	var c wire.Created
	if err := a.post(p.url+"/api/games", `{"game":"magneton","opponent":"human","color":"first","clock":"1+0"}`, &c); err != nil {
		t.Fatal(err)
	}
	tok := c.Invite[strings.Index(c.Invite, "invite=")+7:]
	var j wire.Joined
	if err := b.post(p.url+"/api/games/"+c.ID+"/join", `{"invite":"`+tok+`"}`, &j); err != nil {
		t.Fatal(err)
	}
	type clockState struct {
		Clock wire.Clock `json:"clock"`
	}
	get := func(base string) clockState { return getJSON[clockState](t, base+"/api/games/"+c.ID) }
	// The clocks start once each side has made its first move.
	va, vb := watch(t, a, p.url, c.ID), watch(t, b, p.url, c.ID)
	va.send(wire.ClientMsg{Type: "move", Move: va.state().Legal[0]})
	st := vb.until("white's first move", func(st gameState) bool { return len(st.Moves) == 1 })
	vb.send(wire.ClientMsg{Type: "move", Move: st.Legal[0]})
	va.until("black's first move", func(st gameState) bool { return len(st.Moves) == 2 })
	before := get(p.url)
	time.Sleep(2500 * time.Millisecond) // the clock runs, the heartbeat beats
	killed := time.Now()
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-p.done
	time.Sleep(2 * time.Second) // down: nobody's time
	p2 := startServe(t, bin, dir)
	after := get(p2.url)
	want := before.Clock.RemainingMS[0] - (killed.UnixMilli() - before.Clock.At)
	got := after.Clock.RemainingMS[0] + (after.Clock.At - time.Now().UnixMilli()) // as of now
	if after.Clock.Running == nil || *after.Clock.Running != 0 {
		t.Fatalf("after the restart the running clock is %v", after.Clock.Running)
	}
	// Within a second above (the last heartbeat came up to a second before
	// the kill) and a little below (the time since the restart).
	if d := got - want; d < -500 || d > 1100 {
		t.Errorf("the running clock after the crash: %d ms, want %d within a second (the downtime was 2 s)", got, want)
	}
}

// TestHealthWhileStarting: while the database is opened (here a server that
// accepts the connection and never answers), /healthz and /readyz answer
// 503 at once instead of hanging.
func TestHealthWhileStarting(t *testing.T) {
	silent, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	go func() {
		for {
			c, err := silent.Accept()
			if err != nil {
				return
			}
			defer c.Close() // held open, never answered
		}
	}()
	free, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := free.Addr().String()
	free.Close()
	cmd := exec.Command(buildBinary(t), "serve", "--addr", addr, "--db", "postgres://magneton@"+silent.Addr().String()+"/magneton?connect_timeout=60")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	client := &http.Client{Timeout: 2 * time.Second}
	for _, path := range []string{"/healthz", "/readyz"} {
		var resp *http.Response
		for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			if resp, err = client.Get("http://" + addr + path); err == nil {
				break
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				t.Fatalf("%s while the database opens: no answer within 2 s", path)
			}
		}
		if resp == nil {
			t.Fatalf("%s: the server never listened: %v", path, err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(body), "starting") {
			t.Errorf("%s while the database opens: %d %q", path, resp.StatusCode, body)
		}
	}
}

// TestServeScheduleFlag: --schedule keeps the default schedule, reads a
// file's, turns it off with none, and says what is wrong with a bad file.
func TestServeScheduleFlag(t *testing.T) {
	dir := t.TempDir()
	good, bad := filepath.Join(dir, "good.json"), filepath.Join(dir, "bad.json")
	os.WriteFile(good, []byte(`[{"key": "hourly", "name": "Hourly arena", "game": "magneton", "clock": "1+0", "minutes": 30,
		"every": "1h", "at": "0s", "ahead": "1h"}]`), 0o644)
	os.WriteFile(bad, []byte(`[{"key": "hourly", "name": "Hourly arena", "game": "magneton", "clock": "1+0", "minutes": 30,
		"every": "1h", "at": "2h", "ahead": "1h"}]`), 0o644)
	for _, tc := range []struct {
		schedule string
		keys     string
		err      string
	}{
		{"", "daily-magneton daily-tumbling", ""},
		{"none", "", ""},
		{good, "hourly", ""},
		{bad, "", "at: from 0 to less than every"},
		{filepath.Join(dir, "missing.json"), "", "no such file"},
	} {
		o := serveOptions{searchMemory: 256, maxPlies: 1000, expire: time.Hour, limits: "on", schedule: tc.schedule}
		cfg, err := o.config()
		var keys []string
		for _, e := range cfg.Schedule {
			keys = append(keys, e.Key)
		}
		if got := strings.Join(keys, " "); got != tc.keys || (err == nil) != (tc.err == "") || (err != nil && !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("--schedule %q: %q, %v; want %q, %q", tc.schedule, got, err, tc.keys, tc.err)
		}
	}
}
