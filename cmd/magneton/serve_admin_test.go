package main

import (
	"io"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/magneton-games/magneton/server/metrics/metricstest"

	"github.com/magneton-games/magneton/server/wire"
	"github.com/magneton-games/magneton/store/storetest"
)

// scrapeAdmin reads the samples of GET /metrics on the admin address, by
// their name and labels as the text format writes them (the labels in
// the order of their names).
func scrapeAdmin(t *testing.T, admin string) map[string]float64 {
	t.Helper()
	resp, err := http.Get(admin + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /metrics: %d %s", resp.StatusCode, b)
	}
	return metricstest.Samples(t, b)
}

// status is the status of a GET of url.
func status(t *testing.T, url string) int {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestServeAdmin: magneton serve --admin serves the metrics and the
// profiler there, not on the public address; a game's moves over the
// WebSockets show in the series.
func TestServeAdmin(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	p := startServe(t, buildBinary(t), t.TempDir(), "--admin", "127.0.0.1:0")
	admin := p.adminURL(t)
	before := scrapeAdmin(t, admin)

	a, b := newCrashClient(), newCrashClient()
	var c wire.Created
	if err := a.post(p.url+"/api/games", `{"game":"magneton","opponent":"human","color":"first"}`, &c); err != nil {
		t.Fatal(err)
	}
	tok := c.Invite[strings.Index(c.Invite, "invite=")+7:]
	if err := b.post(p.url+"/api/games/"+c.ID+"/join", `{"invite":"`+tok+`"}`, &wire.Joined{}); err != nil {
		t.Fatal(err)
	}
	va, vb := watch(t, a, p.url, c.ID), watch(t, b, p.url, c.ID)
	const moves = 4
	for i := range moves {
		mover, other := va, vb
		if i%2 == 1 {
			mover, other = vb, va
		}
		mover.send(wire.ClientMsg{Type: "move", Move: mover.state().Legal[0]})
		other.until("the move", func(st gameState) bool { return len(st.Moves) == i+1 })
	}
	after := scrapeAdmin(t, admin)
	const inst = `instance="main"`
	for _, c := range []struct {
		sample string
		more   float64 // at least this much more than before
	}{
		{`magneton_moves_total{game="magneton",` + inst + `}`, moves},
		{`magneton_move_latency_seconds_count{` + inst + `}`, moves},
		{`magneton_db_duration_seconds_count{` + inst + `,op="add_move"}`, moves},
		{`magneton_db_duration_seconds_count{` + inst + `,op="create_game"}`, 1},
		{`magneton_sockets_open{` + inst + `}`, 2},
		{`magneton_games_in_memory{` + inst + `,role="owner"}`, 1},
		{`magneton_http_requests_total{` + inst + `,route="POST /api/games",status="2xx"}`, 1},
		{`magneton_http_requests_total{` + inst + `,route="POST /api/games/{id}/join",status="2xx"}`, 1},
		{`magneton_http_requests_total{` + inst + `,route="GET /api/games/{id}/ws",status="1xx"}`, 2},
		{`magneton_http_request_duration_seconds_count{` + inst + `,route="POST /api/games"}`, 1},
	} {
		v, ok := after[c.sample]
		if !ok || v-before[c.sample] < c.more {
			t.Errorf("%s: %v before, %v after (shown: %v), want %v more", c.sample, before[c.sample], v, ok, c.more)
		}
	}
	if n := after[`go_goroutines{`+inst+`}`]; n == 0 {
		t.Error("no go_goroutines series: the Go runtime's collector is missing")
	}

	// The profiler and the metrics on the admin address only.
	for _, path := range []string{"/debug/pprof/", "/debug/pprof/goroutine?debug=1", "/debug/pprof/cmdline"} {
		if code := status(t, admin+path); code != http.StatusOK {
			t.Errorf("GET %s on the admin address: %d, want 200", path, code)
		}
	}
	for _, path := range []string{"/debug/pprof/", "/debug/pprof/goroutine?debug=1", "/metrics"} {
		if code := status(t, p.url+path); code != http.StatusNotFound {
			t.Errorf("GET %s on the public address: %d, want 404", path, code)
		}
	}
	if code := status(t, admin+"/api/meta"); code != http.StatusNotFound {
		t.Errorf("the admin address serves the site: GET /api/meta %d", code)
	}
}

// eventually scrapes admin until ok holds of the samples, for up to 10 s,
// and returns the last scrape.
func eventually(t *testing.T, admin string, ok func(map[string]float64) bool) (map[string]float64, bool) {
	t.Helper()
	var got map[string]float64
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if got = scrapeAdmin(t, admin); ok(got) {
			return got, true
		}
	}
	return got, false
}

// TestClusterMetrics: on two instances, the owner and the mirror of a
// game say so, the owner times the move the mirror forwarded and holds
// its lease; when the owner dies, the other takes the game over and
// counts it.
func TestClusterMetrics(t *testing.T) {
	if testing.Short() {
		t.Skip("runs two servers")
	}
	bin, db := buildBinary(t), storetest.URL(t, "postgres")
	var ps []*serveProc
	var admins []string
	for _, name := range []string{"i1", "i2"} {
		p := startServe(t, bin, t.TempDir(), "--db", db, "--instance", name, "--client-limits", "off", "--admin", "127.0.0.1:0")
		ps, admins = append(ps, p), append(admins, p.adminURL(t))
	}
	u := newCrashClient()
	var c wire.Created
	if err := u.post(ps[0].url+"/api/games", `{"game":"magneton","opponent":"computer","level":1,"color":"first","clock":"5+0"}`, &c); err != nil {
		t.Fatal(err)
	}
	v := watch(t, u, ps[1].url, c.ID) // a mirror on i2
	v.send(wire.ClientMsg{Type: "move", Move: v.state().Legal[0]})
	st := v.until("the computer's answer", func(st gameState) bool { return len(st.Moves) == 2 })
	owner, ok := eventually(t, admins[0], func(s map[string]float64) bool {
		return s[`magneton_leases_held{instance="i1"}`] == 1 && s[`magneton_moves_total{game="magneton",instance="i1"}`] == 2
	})
	if !ok || owner[`magneton_move_latency_seconds_count{instance="i1"}`] != 1 || owner[`magneton_games_in_memory{instance="i1",role="owner"}`] != 1 {
		t.Errorf("the owner's leases %v, moves %v, latencies %v, games owned %v; want 1, 2, 1, 1",
			owner[`magneton_leases_held{instance="i1"}`], owner[`magneton_moves_total{game="magneton",instance="i1"}`],
			owner[`magneton_move_latency_seconds_count{instance="i1"}`], owner[`magneton_games_in_memory{instance="i1",role="owner"}`])
	}
	mirror := scrapeAdmin(t, admins[1])
	if mirror[`magneton_games_in_memory{instance="i2",role="mirror"}`] != 1 || mirror[`magneton_sockets_open{instance="i2"}`] != 1 ||
		mirror[`magneton_moves_total{game="magneton",instance="i2"}`] != 0 {
		t.Errorf("the mirror's games mirrored %v, sockets %v, moves %v; want 1, 1, 0",
			mirror[`magneton_games_in_memory{instance="i2",role="mirror"}`], mirror[`magneton_sockets_open{instance="i2"}`],
			mirror[`magneton_moves_total{game="magneton",instance="i2"}`])
	}

	ps[0].cmd.Process.Signal(syscall.SIGKILL)
	<-ps[0].done
	v.send(wire.ClientMsg{Type: "move", Move: st.Legal[0]}) // forwarded to the dead owner, then taken over
	v.until("the computer's answer after the takeover", func(st gameState) bool { return len(st.Moves) >= 4 })
	if got, ok := eventually(t, admins[1], func(s map[string]float64) bool {
		return s[`magneton_takeovers_total{instance="i2"}`] == 1 && s[`magneton_games_in_memory{instance="i2",role="owner"}`] == 1
	}); !ok {
		t.Errorf("after the takeover i2 counts %v takeovers and owns %v games, want 1 and 1",
			got[`magneton_takeovers_total{instance="i2"}`], got[`magneton_games_in_memory{instance="i2",role="owner"}`])
	}
}
