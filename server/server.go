// Package server is the play server: it serves the browser front end,
// answers the HTTP API and carries live games over WebSockets, as
// docs/protocol.md describes. Each game in play is a session guarded by its
// own mutex; every accepted move is committed to the store before it is
// acknowledged or broadcast. Clocks are the server's, and computer
// opponents think in goroutines of their own.
package server

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/magneton-games/magneton/store"
)

// Config holds what a Server needs.
type Config struct {
	Store store.Store
	// Static is the front end's file tree with index.html at its root; nil
	// serves no pages (the API still works).
	Static fs.FS
	Logger *slog.Logger // nil: slog.Default()
	// ComputerMoveTime is the computer's thinking time per move in games
	// without a clock; 0 uses 1s at level 8 and 300ms below.
	ComputerMoveTime time.Duration
	// MaxAnalyses bounds the /api/analyze searches run at once; 0 means 1.
	MaxAnalyses int
	// MaxThinkers bounds the computer players searching at once; 0 means
	// the number of CPUs.
	MaxThinkers int
	// WriteTimeout bounds one database write; 0 means 5s.
	WriteTimeout time.Duration
	// MessageRate and MessageBurst are the token bucket of each socket's
	// incoming messages; 0 means 20 a second and a burst of 20.
	MessageRate  float64
	MessageBurst int
}

// Server is the play server. Make one with New, serve its Handler, and
// Close it when done.
type Server struct {
	cfg     Config
	st      store.Store
	log     *slog.Logger
	ctx     context.Context // cancelled by Close: stops the computers
	cancel  context.CancelFunc
	handler http.Handler

	mu       sync.Mutex
	sessions map[string]*session // games in play, and finished ones being watched

	thinkers chan struct{}
	analyses chan struct{}
	aiWG     sync.WaitGroup
	connWG   sync.WaitGroup
	closing  atomic.Bool
}

// New makes a server on a store and resumes every unfinished game stored
// in it: the moves are replayed, the running clock restarts from its stored
// value, and a computer to move starts thinking.
func New(ctx context.Context, cfg Config) (*Server, error) {
	if cfg.Store == nil {
		return nil, errors.New("server: no store")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.MaxAnalyses <= 0 {
		cfg.MaxAnalyses = 1
	}
	if cfg.MaxThinkers <= 0 {
		cfg.MaxThinkers = runtime.NumCPU()
	}
	if cfg.WriteTimeout <= 0 {
		cfg.WriteTimeout = 5 * time.Second
	}
	if cfg.MessageRate <= 0 {
		cfg.MessageRate = 20
	}
	if cfg.MessageBurst <= 0 {
		cfg.MessageBurst = 20
	}
	s := &Server{
		cfg: cfg, st: cfg.Store, log: cfg.Logger, sessions: map[string]*session{},
		thinkers: make(chan struct{}, cfg.MaxThinkers), analyses: make(chan struct{}, cfg.MaxAnalyses),
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.handler = s.routes()
	rows, err := s.st.Unfinished(ctx)
	if err != nil {
		return nil, fmt.Errorf("server: resume games: %w", err)
	}
	var resumed []*session
	for _, row := range rows {
		moves, err := s.st.Moves(ctx, row.ID)
		if err != nil {
			return nil, fmt.Errorf("server: resume games: %w", err)
		}
		sess, err := newSession(s, row, moves)
		if err != nil {
			// One broken game must not keep the others down.
			s.log.Error("game not resumed", "game", row.ID, "err", err)
			continue
		}
		s.sessions[row.ID] = sess
		resumed = append(resumed, sess)
	}
	for _, sess := range resumed {
		sess.start()
	}
	s.log.Info("games resumed", "count", len(resumed))
	return s, nil
}

// Handler returns the HTTP handler of the whole server.
func (s *Server) Handler() http.Handler { return s.handler }

// Close shuts the server down: it refuses new actions, stops the computers,
// saves the running clocks, closes every socket and waits (within ctx) for
// their handlers. It does not close the store. Stop the http.Server first
// so that no new request arrives.
func (s *Server) Close(ctx context.Context) error {
	if s.closing.Swap(true) {
		return nil
	}
	s.cancel()
	s.mu.Lock()
	sessions := make([]*session, 0, len(s.sessions))
	for _, sess := range s.sessions {
		sessions = append(sessions, sess)
	}
	s.mu.Unlock()
	for _, sess := range sessions {
		sess.shutdown()
	}
	done := make(chan struct{})
	go func() {
		s.aiWG.Wait()
		s.connWG.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("server: close: %w", ctx.Err())
	}
}

// save writes a row within the write timeout.
func (s *Server) save(g *store.Game) error {
	ctx, cancel := context.WithTimeout(context.Background(), s.cfg.WriteTimeout)
	defer cancel()
	if err := s.st.UpdateGame(ctx, g); err != nil {
		s.log.Error("game not saved", "game", g.ID, "err", err)
		return errSave
	}
	return nil
}

// think runs a computer's search when a thinker slot is free.
func (s *Server) think(ctx context.Context, search func() (string, error)) (string, error) {
	select {
	case s.thinkers <- struct{}{}:
	case <-ctx.Done():
		return "", ctx.Err()
	}
	defer func() { <-s.thinkers }()
	return search()
}

// moveTime is the computer's thinking time per move without a clock.
func (s *Server) moveTime(level int) time.Duration {
	switch {
	case s.cfg.ComputerMoveTime > 0:
		return s.cfg.ComputerMoveTime
	case level >= 8:
		return time.Second
	}
	return 300 * time.Millisecond
}

// register adds a session to the map of live sessions.
func (s *Server) register(sess *session) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sessions[sess.id] = sess
}

// unregister removes a session (called with the session's lock held;
// s.mu is always taken after a session's lock, never before).
func (s *Server) unregister(sess *session) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sessions[sess.id] == sess {
		delete(s.sessions, sess.id)
	}
}

// session returns the session of a game: the live one, or one loaded from
// the store. A finished game's session is registered only if keep is set
// (a client will watch it); otherwise it is a snapshot for one request.
func (s *Server) session(ctx context.Context, id string, keep bool) (*session, error) {
	s.mu.Lock()
	sess := s.sessions[id]
	s.mu.Unlock()
	if sess != nil {
		return sess, nil
	}
	row, err := s.st.Game(ctx, id)
	if err != nil {
		return nil, err
	}
	moves, err := s.st.Moves(ctx, id)
	if err != nil {
		return nil, err
	}
	sess, err = newSession(s, row, moves)
	if err != nil {
		return nil, err
	}
	if row.Status != store.Finished {
		// An unfinished game not in the map: made after a list was read,
		// or its session was evicted; keep the one that is there.
		keep = true
	}
	if !keep {
		return sess, nil
	}
	s.mu.Lock()
	if old := s.sessions[id]; old != nil {
		s.mu.Unlock()
		return old, nil
	}
	s.sessions[id] = sess
	s.mu.Unlock()
	if row.Status != store.Finished {
		sess.start()
	}
	return sess, nil
}
