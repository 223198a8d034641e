// Package server is the play server: it serves the browser front end,
// answers the HTTP API and carries live games over WebSockets, as
// docs/protocol.md describes. Each game in play is a session guarded by its
// own mutex; every accepted move is committed to the store before it is
// acknowledged or broadcast. Clocks are the server's, and computer
// opponents think in goroutines of their own, sharing the cores through a
// fair scheduler.
//
// What one client may use is bounded (Limits): sockets, game creations,
// analyses and messages per IP, searches at once per IP, the memory of all
// searches, and the length of a game. A game is held in memory only while
// it needs to be: someone watches it, its clock runs, or the computer is
// to move; the database holds the rest. Games nobody takes up or plays are
// given up after Config.Expire. A panic in one game's work rolls that game
// back to what the database holds; it never ends the process.
package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
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
	// SearchMemoryMB bounds the memory of the transposition tables of all
	// the computer players and analyses searching at once; 0 means 256.
	// Tables are made for one move and freed after it.
	SearchMemoryMB int
	// Limits bound what one client may use; zero fields take
	// DefaultLimits.
	Limits Limits
	// MaxPlies ends a game as a draw (game.PlyLimit) when it reaches this
	// many moves, so that no rule setting makes an endless game; 0 means
	// 1000.
	MaxPlies int
	// Expire is how long an invitation nobody takes, or a game against
	// the computer nobody moves in, lives before it is aborted; 0 means
	// 24 hours.
	Expire time.Duration
	// PingInterval is how often the server pings each socket; a peer that
	// does not answer within PingTimeout is dropped. 0 means 30 s and 15 s.
	PingInterval, PingTimeout time.Duration
	// TrustedProxies are the reverse proxies whose X-Forwarded-For (the
	// client's address, for the limits) and X-Forwarded-Proto (TLS, for
	// the Secure cookie) the server believes; nil trusts none.
	TrustedProxies []*net.IPNet
	// Instance names this server among the instances sharing the
	// database (its leases, heartbeats and logs); each must have its own.
	// "" means "main".
	Instance string
	// WriteTimeout bounds one database write; 0 means 5s.
	WriteTimeout time.Duration
	// MessageRate and MessageBurst are the token bucket of each socket's
	// incoming messages; 0 means 20 a second and a burst of 20.
	MessageRate  float64
	MessageBurst int
	// ClaimAfter is how long a player of a live game against a person
	// must be gone before the opponent may claim the win or a draw; 0
	// means 60 s.
	ClaimAfter time.Duration
	// FirstMoveTimeout is how long each side of a live game with a clock
	// against a person has for its first move before the game is
	// aborted (the clocks start only after both have moved); 0 means
	// 30 s. A correspondence game gives its time for a move.
	FirstMoveTimeout time.Duration
	// ReviewMoveTime is the engine's time for each position of a game
	// review; 0 means 300 ms.
	ReviewMoveTime time.Duration
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

	sched    *scheduler
	analyses chan struct{}
	// reviews admits the game reviews computed at once (one).
	reviews chan struct{}
	// hashSlots admits the password hashes that run at once.
	hashSlots chan struct{}
	// lists caches the lobby's lists.
	lists    listCache
	clients  *clients
	cl       cluster
	aiWG     sync.WaitGroup
	connWG   sync.WaitGroup
	bgWG     sync.WaitGroup // the heartbeat and the sweeper
	closing  atomic.Bool
	draining atomic.Bool
	// started is when this run began, and prevBeat the last heartbeat of
	// this instance's previous run: what a clock it ran then is charged
	// up to.
	started  time.Time
	prevBeat int64
}

// Drain makes /readyz answer 503 so that a load balancer sends new
// clients to other instances; the server goes on serving those it has
// until Close.
func (s *Server) Drain() { s.draining.Store(true) }

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
	if cfg.SearchMemoryMB <= 0 {
		cfg.SearchMemoryMB = 256
	}
	if cfg.MaxPlies <= 0 {
		cfg.MaxPlies = 1000
	}
	if cfg.Expire <= 0 {
		cfg.Expire = 24 * time.Hour
	}
	if cfg.PingInterval <= 0 {
		cfg.PingInterval = 30 * time.Second
	}
	if cfg.PingTimeout <= 0 {
		cfg.PingTimeout = 15 * time.Second
	}
	if cfg.Instance == "" {
		cfg.Instance = "main"
	}
	if cfg.ClaimAfter <= 0 {
		cfg.ClaimAfter = defaultClaimAfter
	}
	if cfg.FirstMoveTimeout <= 0 {
		cfg.FirstMoveTimeout = defaultFirstMoveTimeout
	}
	if cfg.ReviewMoveTime <= 0 {
		cfg.ReviewMoveTime = defaultReviewMoveTime
	}
	cfg.Limits = cfg.Limits.withDefaults()
	s := &Server{
		cfg: cfg, st: cfg.Store, log: cfg.Logger.With("instance", cfg.Instance), sessions: map[string]*session{},
		sched:     newScheduler(cfg.MaxThinkers, cfg.Limits.ThinkersPerIP),
		analyses:  make(chan struct{}, cfg.MaxAnalyses),
		reviews:   make(chan struct{}, 1),
		hashSlots: make(chan struct{}, 4),
		clients:   newClients(cfg.Limits),
		cl:        cluster{pending: map[string]chan reply{}},
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.handler = s.routes()
	prev, err := s.st.LastBeat(ctx, cfg.Instance)
	if err != nil {
		return nil, fmt.Errorf("server: %w", err)
	}
	s.started, s.prevBeat = time.Now(), prev
	s.beat() // alive before taking any lease
	if err := s.listen(ctx); err != nil {
		s.cancel()
		return nil, err
	}
	if err := s.resume(ctx); err != nil {
		s.cancel()
		return nil, err
	}
	s.bgWG.Add(3)
	go s.heartbeat(time.Second)
	go s.sweeper(time.Minute)
	go s.leases()
	return s, nil
}

// resume takes over, at the start, the games that need an instance with
// nobody watching (a clock running, the computer to move) and that no
// other instance runs: those whose lease has expired, and those this
// instance held before a restart. A running clock is charged the time
// until the last heartbeat of the instance that ran it, and no more.
func (s *Server) resume(ctx context.Context) error {
	now := time.Now()
	held, err := s.st.HeldLeases(ctx, s.cfg.Instance)
	if err != nil {
		return fmt.Errorf("server: resume games: %w", err)
	}
	orphans, err := s.st.Orphans(ctx, millis(now.Add(-leaseTTL)))
	if err != nil {
		return fmt.Errorf("server: resume games: %w", err)
	}
	n := 0
	for _, id := range append(held, orphans...) {
		sess, err := s.session(ctx, id, true)
		if err != nil {
			// One broken game must not keep the others down.
			s.log.Error("game not resumed", "game", id, "err", err)
			continue
		}
		sess.mu.Lock()
		if !sess.mirror {
			n++
		}
		sess.mu.Unlock()
	}
	s.log.Info("games resumed", "count", n)
	return nil
}

// release gives up the lease of a game leaving memory, so that another
// instance may run it at once.
func (s *Server) release(id string) {
	ctx, cancel := context.WithTimeout(context.Background(), s.cfg.WriteTimeout)
	defer cancel()
	if err := s.st.ReleaseLease(ctx, id, s.cfg.Instance); err != nil {
		s.log.Warn("lease not released", "game", id, "err", err)
		return
	}
	// The mirrors forward to the instance they last heard from: tell
	// them to ask the database instead, since this one may be stopping.
	b, _ := json.Marshal(gameEvent{ID: id, By: s.cfg.Instance, Released: true})
	if err := s.st.Notify(ctx, gamesChannel, string(b)); err != nil {
		s.log.Warn("release not announced", "game", id, "err", err)
	}
}

// heartbeat records every period that the server is alive, for the
// clocks after a crash (resume).
func (s *Server) heartbeat(period time.Duration) {
	defer s.bgWG.Done()
	t := time.NewTicker(period)
	defer t.Stop()
	for {
		s.beat()
		select {
		case <-s.ctx.Done():
			return
		case <-t.C:
		}
	}
}

func (s *Server) beat() {
	ctx, cancel := context.WithTimeout(context.Background(), s.cfg.WriteTimeout)
	defer cancel()
	if err := s.st.Beat(ctx, s.cfg.Instance, millis(time.Now())); err != nil {
		s.log.Warn("heartbeat not saved", "err", err)
	}
}

// sweeper, every period, forgets idle clients, drops from memory the games
// that no longer need it, and aborts the games nobody took up or played
// for Config.Expire.
func (s *Server) sweeper(period time.Duration) {
	defer s.bgWG.Done()
	t := time.NewTicker(period)
	defer t.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-t.C:
		}
		s.sweep(time.Now())
	}
}

// sweep is one round of the sweeper.
func (s *Server) sweep(now time.Time) {
	s.clients.sweep(now.Add(-10 * time.Minute))
	for _, sess := range s.liveSessions() {
		sess.mu.Lock()
		sess.maybeEvict(now)
		sess.mu.Unlock()
	}
	ctx, cancel := context.WithTimeout(s.ctx, time.Minute)
	defer cancel()
	rows, err := s.st.Unfinished(ctx)
	if err != nil {
		s.log.Warn("expiry: games not listed", "err", err)
		return
	}
	cutoff := millis(now.Add(-s.cfg.Expire))
	for _, row := range rows {
		if row.Updated >= cutoff || (row.Status != store.Waiting && row.Opponent != opponentComputer) {
			continue
		}
		sess, err := s.session(ctx, row.ID, true)
		if err != nil {
			s.log.Warn("expiry: game not loaded", "game", row.ID, "err", err)
			continue
		}
		sess.mu.Lock()
		if err := sess.expire(now); err != nil {
			s.log.Warn("expiry: game not aborted", "game", row.ID, "err", err)
		}
		sess.mu.Unlock()
	}
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
	for _, sess := range s.liveSessions() {
		sess.shutdown()
		sess.mu.Lock()
		mirror := sess.mirror
		sess.mu.Unlock()
		if !mirror {
			// The clock is saved: another instance may take over at once.
			s.release(sess.id)
		}
	}
	done := make(chan struct{})
	go func() {
		s.aiWG.Wait()
		s.connWG.Wait()
		s.bgWG.Wait()
		s.beat() // the clocks were saved as of now
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("server: close: %w", ctx.Err())
	}
}

// tableMB is the transposition table of one search at a level: a share
// of Config.SearchMemoryMB for each search that may run at once, 16 MB at
// the most at level 8 and 2 MB below (more does not help them).
func (s *Server) tableMB(level int) int {
	share := s.cfg.SearchMemoryMB / (s.cfg.MaxThinkers + s.cfg.MaxAnalyses)
	want := 2
	if level >= 8 {
		want = 16
	}
	return max(1, min(want, share))
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
	s.lists.clear() // a new game may be in a list
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
// the store. A session kept in memory takes the game's lease if nobody
// else holds it (becoming its owner, with its clock and computer
// started), else it is a mirror of the owner's. A game over is kept only
// if keep is set (a client will watch it, and may ask for a rematch);
// otherwise its session is a snapshot for one request.
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
	live := row.Status == store.Waiting || row.Status == store.Playing
	if live {
		// An unfinished game not in the map: made after a list was read,
		// its session evicted, or run by another instance; keep the one
		// that is there.
		keep = true
	}
	if !keep {
		return sess, nil
	}
	now := time.Now()
	owner, previous, err := s.st.AcquireLease(ctx, id, s.cfg.Instance, millis(now.Add(-leaseTTL)))
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	if old := s.sessions[id]; old != nil {
		s.mu.Unlock()
		return old, nil
	}
	s.sessions[id] = sess
	s.mu.Unlock()
	sess.mu.Lock()
	sess.mirror = owner != s.cfg.Instance
	if sess.mirror {
		sess.reportPresence() // the owner answers with an announcement of who is connected
	} else {
		sess.becomeOwner(previous)
	}
	sess.mu.Unlock()
	return sess, nil
}
