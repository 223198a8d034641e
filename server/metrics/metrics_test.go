package metrics

import (
	"strings"
	"testing"
	"time"

	"github.com/magneton-games/magneton/server/computer"
	"github.com/magneton-games/magneton/server/round"
)

// The interfaces the packages report through.
var (
	_ round.Metrics    = (*Metrics)(nil)
	_ computer.Metrics = (*Metrics)(nil)
)

// TestSeries: what the packages report and what Sources give is shown
// with the instance's name, beside the Go runtime's and the process's
// series.
func TestSeries(t *testing.T) {
	m := New("web1", nil)
	m.Moved("magneton")
	m.Moved("magneton")
	m.Moved("tumbling")
	m.MoveLatency(3 * time.Millisecond)
	m.TakenOver()
	m.LeasesHeld(7)
	m.Waited(false, time.Second)
	m.Waited(true, time.Millisecond)
	m.Waited(true, time.Millisecond)
	m.observeDB("add_move", time.Millisecond)
	if err := m.Watch(Sources{
		Games:    func() (int, int) { return 4, 2 },
		Sockets:  func() int { return 5 },
		Searches: func() (int, int, int) { return 3, 1, 18 },
	}); err != nil {
		t.Fatal(err)
	}
	if err := m.Watch(Sources{}); err == nil {
		t.Error("a second Watch was taken")
	}
	all := scrape(t, m)
	for _, c := range []struct {
		name   string
		labels []string
		want   float64
	}{
		{"magneton_moves_total", []string{"game", "magneton"}, 2},
		{"magneton_moves_total", []string{"game", "tumbling"}, 1},
		{"magneton_move_latency_seconds_count", nil, 1},
		{"magneton_move_latency_seconds_bucket", []string{"le", "0.005"}, 1},
		{"magneton_move_latency_seconds_bucket", []string{"le", "0.0025"}, 0},
		{"magneton_takeovers_total", nil, 1},
		{"magneton_leases_held", nil, 7},
		{"magneton_search_wait_seconds_count", []string{"kind", "computer"}, 1},
		{"magneton_search_wait_seconds_count", []string{"kind", "analysis"}, 2},
		{"magneton_db_duration_seconds_count", []string{"op", "add_move"}, 1},
		{"magneton_games_in_memory", []string{"role", "owner"}, 4},
		{"magneton_games_in_memory", []string{"role", "mirror"}, 2},
		{"magneton_sockets_open", nil, 5},
		{"magneton_searches_waiting", []string{"kind", "computer"}, 3},
		{"magneton_searches_waiting", []string{"kind", "analysis"}, 1},
		{"magneton_search_memory_bytes", nil, 18 << 20},
	} {
		got, ok := value(all, c.name, append(c.labels, "instance", "web1")...)
		if !ok || got != c.want {
			t.Errorf("%s%v = %v (shown: %v), want %v", c.name, c.labels, got, ok, c.want)
		}
	}
	if _, ok := value(all, "magneton_db_duration_seconds_count", "op", "game"); ok {
		t.Error("an operation never called is shown")
	}
	goSeries, process := false, false
	for _, s := range all {
		if s.labels["instance"] != "web1" {
			t.Errorf("%s%v has no instance label web1", s.name, s.labels)
		}
		goSeries = goSeries || strings.HasPrefix(s.name, "go_")
		process = process || strings.HasPrefix(s.name, "process_")
	}
	if !goSeries || !process {
		t.Errorf("the Go runtime's series shown: %v, the process's: %v", goSeries, process)
	}
}

// TestNilMetrics: a server without metrics calls a nil *Metrics, which
// does nothing.
func TestNilMetrics(t *testing.T) {
	var m *Metrics
	m.Moved("magneton")
	m.MoveLatency(time.Second)
	m.TakenOver()
	m.LeasesHeld(1)
	m.Waited(true, time.Second)
	m.observeDB("game", time.Second)
	if err := m.Watch(Sources{}); err != nil {
		t.Error(err)
	}
	if m.Store(nil) != nil || m.HTTP(nil) != nil {
		t.Error("a nil *Metrics wraps")
	}
}

// TestNoAllocationPerMove: what a move reports allocates nothing.
func TestNoAllocationPerMove(t *testing.T) {
	m := New("main", nil)
	name := strings.Clone("magneton") // not the constant the map was made with
	if n := testing.AllocsPerRun(100, func() {
		m.Moved(name)
		m.MoveLatency(time.Millisecond)
		m.observeDB("add_move", time.Millisecond)
	}); n != 0 {
		t.Errorf("a move's reports allocate %v times", n)
	}
}
