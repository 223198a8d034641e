package server

import (
	"io"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/magneton-games/magneton/server/metrics/metricstest"

	"github.com/magneton-games/magneton/server/metrics"
)

// scrapeMetrics reads the samples of m's GET /metrics by their name and
// labels as the text format writes them.
func scrapeMetrics(t *testing.T, m *metrics.Metrics) map[string]float64 {
	t.Helper()
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	b, _ := io.ReadAll(rec.Body)
	return metricstest.Samples(t, b)
}

// TestServerMetrics: a server with metrics reports a game against the
// computer: its moves, the player's move's latency, the computer's wait
// for a core, the game and its socket, the store's calls and the HTTP
// requests by route; and it does not serve them itself.
func TestServerMetrics(t *testing.T) {
	m := metrics.New("main", nil)
	s := startServer(t, t.TempDir(), func(c *Config) { c.Metrics = m })
	u := s.user()
	c := u.create(map[string]any{"opponent": "computer", "level": 1, "color": "first"})
	ws := u.connect(c.ID)
	ws.openAgainstComputer()
	var got map[string]float64
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		// The computer's move is counted just after its broadcast.
		if got = scrapeMetrics(t, m); got[`magneton_moves_total{game="magneton",instance="main"}`] == 2 {
			break
		}
	}
	for _, c := range []struct {
		sample string
		min    float64 // at least
	}{
		{`magneton_moves_total{game="magneton",instance="main"}`, 2},
		{`magneton_move_latency_seconds_count{instance="main"}`, 1},
		{`magneton_search_wait_seconds_count{instance="main",kind="computer"}`, 1},
		{`magneton_games_in_memory{instance="main",role="owner"}`, 1},
		{`magneton_sockets_open{instance="main"}`, 1},
		{`magneton_db_duration_seconds_count{instance="main",op="add_move"}`, 2},
		{`magneton_db_duration_seconds_count{instance="main",op="create_game"}`, 1},
		{`magneton_http_requests_total{instance="main",route="POST /api/games",status="2xx"}`, 1},
		{`magneton_http_requests_total{instance="main",route="GET /api/games/{id}/ws",status="1xx"}`, 1},
		{`magneton_http_request_duration_seconds_count{instance="main",route="POST /api/games"}`, 1},
	} {
		if v, ok := got[c.sample]; !ok || v < c.min {
			t.Errorf("%s = %v (shown: %v), want at least %v", c.sample, v, ok, c.min)
		}
	}
	if v := got[`magneton_games_in_memory{instance="main",role="mirror"}`]; v != 0 {
		t.Errorf("%v mirrors on a single server", v)
	}
	if v := got[`magneton_http_request_duration_seconds_count{instance="main",route="GET /api/games/{id}/ws"}`]; v != 0 {
		t.Errorf("the socket's upgrade timed %v times, want none (it lives on)", v)
	}
	for _, path := range []string{"/metrics", "/debug/pprof/", "/debug/pprof/heap"} {
		if code := u.do("GET", path, nil, nil); code != 404 {
			t.Errorf("GET %s on the public handler: %d, want 404", path, code)
		}
	}
}
