// Package metrics shows the play server's work to Prometheus: the one
// package of the server that knows of it. The packages it measures report
// through small interfaces of their own (round.Metrics, computer.Metrics),
// which *Metrics implements, or are read at each scrape (Sources); the
// store's calls are timed by a wrapper (Store), the HTTP requests by a
// middleware (HTTP).
//
// Every series is named magneton_..., carries the instance's name as the
// constant label instance, and lives in the Metrics' own registry (with
// the Go runtime's and the process's collectors), never in Prometheus's
// global one: a test or a second server in a process has its own.
//
// What is measured per move costs no allocation: the labelled series are
// looked up in maps made ahead, and a histogram's observation is a few
// atomic adds.
package metrics

import (
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/magneton-games/magneton/games"
)

// Buckets of the histograms, in seconds. A move's save and broadcast and a
// database call take a few ms on a healthy site (SQLite syncs each move to
// disk; PostgreSQL is a network hop away), up to the write timeout (5 s)
// on a sick one; a search may wait behind others for seconds.
var (
	fastBuckets = []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5}
	waitBuckets = []float64{.001, .01, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60}
	httpBuckets = []float64{.001, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10}
)

// Metrics is the series of one server instance and their registry. Make
// one with New; its methods are safe for concurrent use, and a nil
// *Metrics reports nothing.
type Metrics struct {
	reg  *prometheus.Registry
	with prometheus.Registerer // reg, adding the instance label
	log  *slog.Logger

	moves       labelled[prometheus.Counter]
	moveLatency prometheus.Histogram
	searchWait  [2]prometheus.Observer // a computer player's, an analysis's
	db          labelled[prometheus.Observer]
	leases      prometheus.Gauge
	takeovers   prometheus.Counter
	// The HTTP requests, by route and status class, and their time.
	httpRequests *prometheus.CounterVec
	httpDuration *prometheus.HistogramVec

	watched sync.Once
}

// New makes the series of the instance named instance, in a registry of
// their own with the Go runtime's and the process's collectors; log hears
// what goes wrong in a scrape (nil: slog.Default()).
func New(instance string, log *slog.Logger) *Metrics {
	if log == nil {
		log = slog.Default()
	}
	reg := prometheus.NewRegistry()
	with := prometheus.WrapRegistererWith(prometheus.Labels{"instance": instance}, reg)
	m := &Metrics{reg: reg, with: with, log: log}
	with.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))

	moves := prometheus.NewCounterVec(prometheus.CounterOpts{Name: "magneton_moves_total",
		Help: "Moves saved and sent to the clients, the players' and the computer's, by game: its rate is the moves per second."}, []string{"game"})
	m.moves = newLabelled(func(game string) prometheus.Counter { return moves.WithLabelValues(game) })
	for _, gm := range games.All() {
		m.moves.of(gm.Spec.Name) // shown at 0 from the start, so that a rate is there before the first move
	}
	m.moveLatency = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "magneton_move_latency_seconds",
		Help: "Time from a player's move message's arrival at the game's owner instance to the move's save and broadcast.", Buckets: fastBuckets})
	wait := prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "magneton_search_wait_seconds",
		Help:    "Time a search waited for a core (kind computer: a computer player's move) or an analysis slot (kind analysis), once it got it.",
		Buckets: waitBuckets}, []string{"kind"})
	m.searchWait = [2]prometheus.Observer{wait.WithLabelValues("computer"), wait.WithLabelValues("analysis")}
	db := prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "magneton_db_duration_seconds",
		Help: "Time of the store's calls, by operation (the store method, in snake case), errors included.", Buckets: fastBuckets}, []string{"op"})
	// An operation is shown from its first call: most of the fifty are
	// rare, and each is seventeen series.
	m.db = newLabelled(func(op string) prometheus.Observer { return db.WithLabelValues(op) })
	m.leases = prometheus.NewGauge(prometheus.GaugeOpts{Name: "magneton_leases_held",
		Help: "Games whose lease this instance holds (it runs them), as the database said at the last round of leases (every second)."})
	m.takeovers = prometheus.NewCounter(prometheus.CounterOpts{Name: "magneton_takeovers_total",
		Help: "Games this instance took over from another instance whose lease had lapsed (it died or stopped beating)."})
	m.httpRequests = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "magneton_http_requests_total",
		Help: "HTTP requests answered, by route (the pattern of the server's mux that took it, none when refused before routing) and status class (2xx, 4xx, ...; 1xx is a WebSocket's upgrade)."},
		[]string{"route", "status"})
	m.httpDuration = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "magneton_http_request_duration_seconds",
		Help: "Time to answer an HTTP request, by route; a WebSocket, which lives on after its upgrade, is not observed.", Buckets: httpBuckets},
		[]string{"route"})
	with.MustRegister(moves, m.moveLatency, wait, db, m.leases, m.takeovers, m.httpRequests, m.httpDuration)
	return m
}

// Handler serves the series in Prometheus's text format (GET /metrics
// on the admin address).
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{
		ErrorLog:      slog.NewLogLogger(m.log.Handler(), slog.LevelWarn),
		ErrorHandling: promhttp.ContinueOnError, // a series that fails does not hide the others
		Registry:      m.with,                   // counts the scrapes' errors, with the instance label
	})
}

// Registry is the registry of the series, for tests and for a program that
// serves it its own way.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// Moved counts a move of a game (round.Metrics).
func (m *Metrics) Moved(game string) {
	if m != nil {
		m.moves.of(game).Inc()
	}
}

// MoveLatency observes a player's move from its message's arrival to its
// save and broadcast (round.Metrics).
func (m *Metrics) MoveLatency(d time.Duration) {
	if m != nil {
		m.moveLatency.Observe(d.Seconds())
	}
}

// TakenOver counts a game taken over from another instance
// (round.Metrics).
func (m *Metrics) TakenOver() {
	if m != nil {
		m.takeovers.Inc()
	}
}

// LeasesHeld sets the leases this instance holds (round.Metrics).
func (m *Metrics) LeasesHeld(n int) {
	if m != nil {
		m.leases.Set(float64(n))
	}
}

// Waited observes a search's wait for its core or analysis slot
// (computer.Metrics).
func (m *Metrics) Waited(analysis bool, d time.Duration) {
	if m == nil {
		return
	}
	k := 0
	if analysis {
		k = 1
	}
	m.searchWait[k].Observe(d.Seconds())
}

// observeDB observes a store call's time, for Store.
func (m *Metrics) observeDB(op string, d time.Duration) {
	if m != nil {
		m.db.of(op).Observe(d.Seconds())
	}
}

// labelled is the series of a vector by their one label's value, looked up
// without allocating (a vector's own lookup takes its values as a slice);
// a value not seen before is added on its first use.
type labelled[T any] struct {
	mu        *sync.RWMutex
	by        map[string]T
	newSeries func(value string) T
}

func newLabelled[T any](newSeries func(string) T) labelled[T] {
	return labelled[T]{mu: &sync.RWMutex{}, by: map[string]T{}, newSeries: newSeries}
}

// of is the series of a label value.
func (l labelled[T]) of(value string) T {
	l.mu.RLock()
	s, ok := l.by[value]
	l.mu.RUnlock()
	if ok {
		return s
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if s, ok = l.by[value]; !ok {
		s = l.newSeries(value)
		l.by[value] = s
	}
	return s
}
