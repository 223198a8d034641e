package metrics

import (
	"errors"

	"github.com/prometheus/client_golang/prometheus"
)

// Sources are what the series read at each scrape, from the packages that
// hold it (round.Rooms.Census and SocketsOpen, computer.Pool.Stats); a nil
// func's series are not shown.
type Sources struct {
	// Games is how many games this instance has in memory as their owner
	// and as a mirror of another instance's.
	Games func() (owned, mirrored int)
	// Sockets is how many clients' sockets are open.
	Sockets func() int
	// Searches is how many computer players' searches wait for a core,
	// how many analyses wait for a slot, and the MB of the transposition
	// tables of the searches running.
	Searches func() (waiting, analysesWaiting, tableMB int)
}

// Descriptions of the series read from Sources.
var (
	gamesDesc = prometheus.NewDesc("magneton_games_in_memory",
		"Games this instance holds in memory, by role: owner (it runs the game: clock, computer, writes) or mirror (another instance runs it; this one shows it to its clients).",
		[]string{"role"}, nil)
	socketsDesc = prometheus.NewDesc("magneton_sockets_open",
		"Clients' WebSockets open on this instance.", nil, nil)
	waitingDesc = prometheus.NewDesc("magneton_searches_waiting",
		"Searches waiting for a core (kind computer: a computer player's move) or an analysis slot (kind analysis): the queue's depth.",
		[]string{"kind"}, nil)
	memoryDesc = prometheus.NewDesc("magneton_search_memory_bytes",
		"Memory of the transposition tables of the searches running (those waiting hold none); --search-memory bounds it.", nil, nil)
)

// Watch adds the series read from src at each scrape. Call it once, when
// the server has made what src reads.
func (m *Metrics) Watch(src Sources) error {
	if m == nil {
		return nil
	}
	err := errors.New("metrics: Watch called twice")
	m.watched.Do(func() { err = m.with.Register(sourced{src}) })
	return err
}

// sourced is the collector of the series read from Sources.
type sourced struct{ src Sources }

func (c sourced) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{gamesDesc, socketsDesc, waitingDesc, memoryDesc} {
		ch <- d
	}
}

func (c sourced) Collect(ch chan<- prometheus.Metric) {
	gauge := func(d *prometheus.Desc, v int, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, float64(v), labels...)
	}
	if c.src.Games != nil {
		owned, mirrored := c.src.Games()
		gauge(gamesDesc, owned, "owner")
		gauge(gamesDesc, mirrored, "mirror")
	}
	if c.src.Sockets != nil {
		gauge(socketsDesc, c.src.Sockets())
	}
	if c.src.Searches != nil {
		waiting, analyses, mb := c.src.Searches()
		gauge(waitingDesc, waiting, "computer")
		gauge(waitingDesc, analyses, "analysis")
		gauge(memoryDesc, mb<<20)
	}
}
