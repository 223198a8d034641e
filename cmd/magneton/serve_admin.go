package main

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"time"

	"github.com/magneton-games/magneton/server/metrics"
)

// adminServer is the listener of --admin: the metrics and the profiler,
// for the operators only. (Importing net/http/pprof registers its
// handlers on http.DefaultServeMux too; neither server serves that mux.)
type adminServer struct {
	ln net.Listener
	hs *http.Server
}

// adminMux is what the admin address serves: GET /metrics for
// Prometheus, and net/http/pprof's profiles under /debug/pprof/.
func adminMux(m *metrics.Metrics) *http.ServeMux {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", m.Handler())
	mux.HandleFunc("/debug/pprof/", pprof.Index) // and the named profiles: heap, goroutine, block, mutex, ...
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	return mux
}

// startAdmin listens on addr and serves adminMux there, logging its
// errors as warnings to logs. It has no write timeout: a CPU profile or
// a trace takes as long as it is asked to (30 s by default).
func startAdmin(addr string, m *metrics.Metrics, logs slog.Handler) (*adminServer, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("serve: --admin: %w", err)
	}
	a := &adminServer{ln: ln, hs: &http.Server{
		Handler:           adminMux(m),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       20 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(logs, slog.LevelWarn),
	}}
	log := slog.New(logs)
	go func() {
		if err := a.hs.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			// The site goes on without its metrics: not a reason to stop
			// the games.
			log.Error("admin address stopped serving", "addr", ln.Addr().String(), "err", err)
		}
	}()
	return a, nil
}

// addr is the address the admin server listens on.
func (a *adminServer) addr() net.Addr { return a.ln.Addr() }

// close stops the admin server (last, so that the metrics are there while
// the site drains); nil has nothing to stop.
func (a *adminServer) close() {
	if a != nil {
		a.hs.Close()
	}
}
