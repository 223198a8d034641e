// Command loadtest puts the play server under load on this machine: it
// opens WebSocket clients in many live games (two players and some
// spectators a game), plays random legal moves at a target total rate, and
// measures the latency from a move's sending to the broadcast of the state
// holding it, at the mover (p50, p90, p99, max) and at every other client of
// the game. It stops by itself after -duration.
//
// It targets a loopback address only: a server it starts in its own process
// (the default), or one given with -url, such as
//
//	magneton serve --addr 127.0.0.1:8090 --data /tmp/lt &
//	go run ./tools/loadtest -url http://127.0.0.1:8090 -games 500 -spectators 2 -rate 500 -duration 30s
//
// When a game ends its players start a rematch (colours swapped) and every
// client of the game moves over to it, so the number of live games stays
// the same.
//
// With -computer N it plays N casual games against the computer at
// -level instead, each to its end, its player playing random legal moves:
// first with the computer on the server, then in the "browser", where the
// load test plays the computer's moves itself with package engine, as
// the browser's worker does, and sends them as the computer's. Each way
// runs on a server of its own, this program started again as a child
// process (the second with its computer off), and it reports the
// server's CPU time a game, measured in the child:
//
//	go run ./tools/loadtest -computer 50 -level 3
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/coder/websocket"

	"github.com/magneton-games/magneton/server"
	"github.com/magneton-games/magneton/server/wire"
	"github.com/magneton-games/magneton/store"
)

// config is the load to apply.
type config struct {
	URL        string        // the server; "" starts one in this process
	Games      int           // live games
	Spectators int           // spectators per game
	Rate       float64       // moves a second, all games together
	Duration   time.Duration // how long to measure
	Game       string        // magneton or tumbling
	Setup      int           // games set up at once
	Lobby      int           // clients polling the lists of open and live games
}

func main() {
	var cfg config
	flag.StringVar(&cfg.URL, "url", "", "the server to load, on a loopback address, or several instances separated by commas, over which each game's clients are spread (default: start one in this process on a temporary database)")
	flag.IntVar(&cfg.Games, "games", 500, "live games")
	flag.IntVar(&cfg.Spectators, "spectators", 2, "spectators per game (each game also has its two players)")
	flag.Float64Var(&cfg.Rate, "rate", 500, "target moves a second, all games together")
	flag.DurationVar(&cfg.Duration, "duration", 30*time.Second, "how long to play (then it stops by itself)")
	flag.StringVar(&cfg.Game, "game", "magneton", "the game: magneton or tumbling")
	flag.IntVar(&cfg.Setup, "setup", 25, "games set up at once before the run")
	flag.IntVar(&cfg.Lobby, "lobby", 0, "more clients, each reading the lists of open and live games every 2 s, as the home page does")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of this process (and an in-process server) to this file")
	var cc computerConfig
	flag.IntVar(&cc.Games, "computer", 0, "instead, play this many casual games against the computer each way, on the server and in the \"browser\" (this process's engine), and report the server's CPU a game")
	flag.IntVar(&cc.Level, "level", 3, "the computer's level of -computer, 1 to 8")
	flag.IntVar(&cc.Parallel, "parallel", 10, "the games of -computer played at once")
	if childMode() {
		return
	}
	flag.Parse()
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			fmt.Fprintln(os.Stderr, "loadtest:", err)
			os.Exit(1)
		}
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if cc.Games > 0 {
		cc.Game = cfg.Game
		if _, err := runComputer(ctx, cc, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "loadtest:", err)
			os.Exit(1)
		}
		return
	}
	res, err := run(ctx, cfg, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadtest:", err)
		os.Exit(1)
	}
	if res.Moves == 0 {
		pprof.StopCPUProfile()
		os.Exit(1)
	}
}

// result is what a run measured.
type result struct {
	Clients   int
	Moves     int64
	Rate      float64 // moves a second achieved
	Ack       stats   // send to the mover's receipt of the new state
	Broadcast stats   // send to every other client's receipt
	Errors    int64   // error messages received
	Dropped   int64   // sockets lost during the run
	Rematches int64
	Missed    int64 // ticks no idle game could take
	CPU       time.Duration
	Lobby     stats // the lobby's list requests
	LobbyErrs int64 // list requests that failed
}

// stats summarises latencies.
type stats struct {
	N                  int
	P50, P90, P99, Max time.Duration
}

func summarize(d []time.Duration) stats {
	if len(d) == 0 {
		return stats{}
	}
	slices.Sort(d)
	at := func(q float64) time.Duration { return d[min(len(d)-1, int(q*float64(len(d))))] }
	return stats{N: len(d), P50: at(0.50), P90: at(0.90), P99: at(0.99), Max: d[len(d)-1]}
}

func (s stats) String() string {
	ms := func(d time.Duration) string { return fmt.Sprintf("%.1fms", float64(d.Microseconds())/1000) }
	return fmt.Sprintf("n=%d p50=%s p90=%s p99=%s max=%s", s.N, ms(s.P50), ms(s.P90), ms(s.P99), ms(s.Max))
}

// checkLoopback refuses any address that is not this machine's loopback.
func checkLoopback(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("-url: %w", err)
	}
	if u.Scheme != "http" {
		return fmt.Errorf("-url %s: want http://127.0.0.1:PORT", raw)
	}
	host := u.Hostname()
	if host == "localhost" {
		return nil
	}
	ip := net.ParseIP(host)
	if ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("-url %s: only loopback addresses (127.0.0.0/8, [::1], localhost) may be loaded", raw)
	}
	return nil
}

// recorder collects latencies from many goroutines.
type recorder struct {
	mu        sync.Mutex
	ack, bcst []time.Duration
	lobby     []time.Duration
	on        atomic.Bool // recording (after set-up, before the end)
}

func (r *recorder) add(ack bool, d time.Duration) {
	if !r.on.Load() {
		return
	}
	r.mu.Lock()
	if ack {
		r.ack = append(r.ack, d)
	} else {
		r.bcst = append(r.bcst, d)
	}
	r.mu.Unlock()
}

// lstate is a message of the server as the load test reads it: a state or
// an update (both say the moves played, Ply), or an error.
type lstate struct {
	wire.State
	Message string `json:"message"` // an error's text (wire.ErrorMsg)
}

// sock is one client connection.
type sock struct {
	conn   *websocket.Conn
	g      *lgame
	seat   int  // -1 for a spectator
	player bool // keeps the latest state
	mu     sync.Mutex
	last   *lstate
	seen   int // moves already timed at this socket
	notify chan struct{}
	done   chan struct{}
}

func (s *sock) latest() *lstate {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.last
}

// readLoop decodes states, times the awaited move, and wakes the game.
func (s *sock) readLoop(lt *loadTest) {
	defer close(s.done)
	for {
		_, data, err := s.conn.Read(context.Background())
		if err != nil {
			if !s.g.closing.Load() && lt.rec.on.Load() {
				lt.dropped.Add(1)
				lt.log.Warn("socket dropped", "game", s.g.id, "seat", s.seat, "err", err)
			}
			return
		}
		var st lstate
		if err := json.Unmarshal(data, &st); err != nil {
			lt.errors.Add(1)
			continue
		}
		now := time.Now()
		switch st.Type {
		case "error":
			lt.errors.Add(1)
			if lt.rec.on.Load() {
				lt.log.Warn("error from server", "game", s.g.id, "seat", s.seat, "message", st.Message)
			}
		case "state", "update":
			if want := int(s.g.expect.Load()); st.Ply == want && s.seen < want {
				s.seen = want
				lt.rec.add(s.seat == int(s.g.mover.Load()), now.Sub(time.Unix(0, s.g.sentAt.Load())))
			}
			if s.player {
				s.mu.Lock()
				s.last = &st
				s.mu.Unlock()
			}
		}
		select {
		case s.notify <- struct{}{}:
		default:
		}
	}
}

func (s *sock) send(ctx context.Context, msg wire.ClientMsg) error {
	b, _ := json.Marshal(msg)
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	return s.conn.Write(ctx, websocket.MessageText, b)
}

// waitFor waits until the socket's latest state satisfies ok.
func (s *sock) waitFor(ctx context.Context, ok func(*lstate) bool) (*lstate, error) {
	deadline := time.NewTimer(10 * time.Second)
	defer deadline.Stop()
	for {
		if st := s.latest(); st != nil && ok(st) {
			return st, nil
		}
		select {
		case <-s.notify:
		case <-s.done:
			return nil, errors.New("socket closed")
		case <-deadline.C:
			return nil, errors.New("no answer within 10 s")
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// lgame is one game under load and its clients.
type lgame struct {
	n       int // the game's number: which instances its clients use
	id      string
	players [2]*http.Client // cookie jars; players[i] created or joined i-th
	socks   []*sock         // the two players first, then spectators
	kick    chan struct{}
	expect  atomic.Int64 // the move count awaited
	sentAt  atomic.Int64 // when the awaited move was sent (unix ns)
	mover   atomic.Int64 // the seat that sent it
	closing atomic.Bool
	rng     *rand.Rand
}

type loadTest struct {
	cfg       config
	bases     []string // the servers: client k of game n uses bases[(n+k) % len]
	log       *slog.Logger
	rec       recorder
	errors    atomic.Int64
	dropped   atomic.Int64
	rematches atomic.Int64
	moves     atomic.Int64
	lobbyErrs atomic.Int64
}

// pollLobby reads the lists of open and live games every 2 s, as the home
// page does, starting at a random moment of the period, until ctx ends.
func (lt *loadTest) pollLobby(ctx context.Context, i int) {
	hc := newJar()
	base := lt.bases[i%len(lt.bases)]
	wait := time.Duration(rand.Int64N(int64(2 * time.Second)))
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		wait = 2 * time.Second
		for _, status := range []string{"open", "live"} {
			t0 := time.Now()
			req, _ := http.NewRequestWithContext(ctx, "GET", base+"/api/games?status="+status, nil)
			resp, err := hc.Do(req)
			if err == nil {
				_, err = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if err == nil && resp.StatusCode != http.StatusOK {
					err = fmt.Errorf("%s", resp.Status)
				}
			}
			switch {
			case ctx.Err() != nil:
				return
			case err != nil:
				lt.lobbyErrs.Add(1)
			case lt.rec.on.Load():
				lt.rec.mu.Lock()
				lt.rec.lobby = append(lt.rec.lobby, time.Since(t0))
				lt.rec.mu.Unlock()
			}
		}
	}
}

func newJar() *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar, Timeout: 10 * time.Second, Transport: http.DefaultTransport}
}

// base is the server of client k of game g.
func (lt *loadTest) base(g *lgame, k int) string { return lt.bases[(g.n+k)%len(lt.bases)] }

func (lt *loadTest) post(c *http.Client, base, path, body string, out any) error {
	resp, err := c.Post(base+path, "application/json", strings.NewReader(body))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 300 {
		return fmt.Errorf("POST %s: %d %s", path, resp.StatusCode, data)
	}
	return json.Unmarshal(data, out)
}

// connect opens the game's sockets: players with their cookies, then
// spectators without.
func (lt *loadTest) connect(ctx context.Context, g *lgame) error {
	g.closing.Store(false)
	g.expect.Store(-1)
	g.socks = g.socks[:0]
	for i := range 2 + lt.cfg.Spectators {
		hc := &http.Client{Timeout: 10 * time.Second}
		if i < 2 {
			hc = g.players[i]
		}
		dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		conn, _, err := websocket.Dial(dctx, "ws"+strings.TrimPrefix(lt.base(g, i), "http")+"/api/games/"+g.id+"/ws", &websocket.DialOptions{HTTPClient: hc})
		cancel()
		if err != nil {
			return fmt.Errorf("game %s: %w", g.id, err)
		}
		conn.SetReadLimit(1 << 20)
		s := &sock{conn: conn, g: g, seat: -1, player: i < 2, notify: make(chan struct{}, 1), done: make(chan struct{})}
		g.socks = append(g.socks, s)
		go s.readLoop(lt)
		if i < 2 {
			st, err := s.waitFor(ctx, func(*lstate) bool { return true })
			if err != nil {
				return fmt.Errorf("game %s: %w", g.id, err)
			}
			if st.Seat == nil {
				return fmt.Errorf("game %s: player %d has no seat", g.id, i)
			}
			s.seat = *st.Seat
		}
	}
	return nil
}

func (lt *loadTest) disconnect(g *lgame) {
	g.closing.Store(true)
	for _, s := range g.socks {
		s.conn.CloseNow()
		<-s.done
	}
}

// setup creates a game between two new players and connects its clients.
func (lt *loadTest) setup(ctx context.Context, g *lgame) error {
	g.players = [2]*http.Client{newJar(), newJar()}
	var c wire.Created
	if err := lt.post(g.players[0], lt.base(g, 0), "/api/games", `{"game":"`+lt.cfg.Game+`","opponent":"human","color":"first"}`, &c); err != nil {
		return err
	}
	tok := c.Invite[strings.Index(c.Invite, "invite=")+len("invite="):]
	var j wire.Joined
	if err := lt.post(g.players[1], lt.base(g, 1), "/api/games/"+c.ID+"/join", `{"invite":"`+tok+`"}`, &j); err != nil {
		return err
	}
	g.id = c.ID
	return lt.connect(ctx, g)
}

// rematch starts the next game once one ends and moves every client there.
func (lt *loadTest) rematch(ctx context.Context, g *lgame) error {
	a, b := g.socks[0], g.socks[1]
	if err := a.send(ctx, wire.ClientMsg{Type: "rematch", Action: "offer"}); err != nil {
		return err
	}
	if _, err := b.waitFor(ctx, func(st *lstate) bool { return st.Rematch != nil }); err != nil {
		return fmt.Errorf("rematch offer: %w", err)
	}
	if err := b.send(ctx, wire.ClientMsg{Type: "rematch", Action: "accept"}); err != nil {
		return err
	}
	st, err := a.waitFor(ctx, func(st *lstate) bool { return st.Rematch != nil && st.Rematch.Game != "" })
	if err != nil {
		return fmt.Errorf("rematch: %w", err)
	}
	old := g.id
	lt.disconnect(g)
	g.id = st.Rematch.Game
	for i, p := range g.players {
		var j wire.Joined
		if err := lt.post(p, lt.base(g, i), "/api/games/"+g.id+"/join", `{"rematch_of":"`+old+`"}`, &j); err != nil {
			return err
		}
	}
	lt.rematches.Add(1)
	return lt.connect(ctx, g)
}

// play makes one move each time the scheduler kicks the game.
func (lt *loadTest) play(ctx context.Context, g *lgame) {
	defer lt.disconnect(g)
	for {
		select {
		case <-ctx.Done():
			return
		case <-g.kick:
		}
		st := g.socks[0].latest()
		if st.Status == "finished" {
			if err := lt.rematch(ctx, g); err != nil {
				if ctx.Err() == nil {
					lt.log.Error("rematch failed", "game", g.id, "err", err)
				}
				return
			}
			continue
		}
		if st.Status != "playing" || len(st.Legal) == 0 {
			continue
		}
		var mover *sock
		for _, s := range g.socks[:2] {
			if s.seat == st.Turn {
				mover = s
			}
		}
		n := st.Ply
		g.mover.Store(int64(st.Turn))
		g.sentAt.Store(time.Now().UnixNano())
		g.expect.Store(int64(n + 1))
		if err := mover.send(ctx, wire.ClientMsg{Type: "move", Move: st.Legal[g.rng.IntN(len(st.Legal))]}); err != nil {
			if ctx.Err() == nil {
				lt.log.Error("send failed", "game", g.id, "err", err)
			}
			return
		}
		if _, err := mover.waitFor(ctx, func(s *lstate) bool { return s.Ply > n }); err != nil {
			if ctx.Err() == nil {
				lt.log.Error("move not acknowledged", "game", g.id, "err", err)
			}
			return
		}
		// Both players must have the new state before the next move.
		other := g.socks[0]
		if other == mover {
			other = g.socks[1]
		}
		if _, err := other.waitFor(ctx, func(s *lstate) bool { return s.Ply > n }); err != nil {
			if ctx.Err() == nil {
				lt.log.Error("opponent not told", "game", g.id, "err", err)
			}
			return
		}
		if lt.rec.on.Load() {
			lt.moves.Add(1)
		}
		// A game that was kicked many times (catching up after a stall)
		// still moves like people: at most every minGap.
		select {
		case <-time.After(minGap):
		case <-ctx.Done():
			return
		}
	}
}

// minGap is the shortest time between two moves of one game, which keeps
// each player well under the server's 20 messages a second.
const minGap = 60 * time.Millisecond

// startLocal runs a server in this process on a temporary database; tune,
// if not nil, changes its configuration.
func startLocal(ctx context.Context, tune func(*server.Config)) (base string, stop func(), err error) {
	dir, err := os.MkdirTemp("", "loadtest")
	if err != nil {
		return "", nil, err
	}
	st, err := store.Open(ctx, "sqlite:"+filepath.Join(dir, "games.db"))
	if err != nil {
		os.RemoveAll(dir)
		return "", nil, err
	}
	cfg := server.Config{Store: st, Limits: server.NoLimits, Logger: slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))}
	if tune != nil {
		tune(&cfg)
	}
	srv, err := server.New(ctx, cfg)
	if err != nil {
		st.Close()
		os.RemoveAll(dir)
		return "", nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		st.Close()
		os.RemoveAll(dir)
		return "", nil, err
	}
	hs := &http.Server{Handler: srv.Handler()}
	go hs.Serve(ln)
	stop = func() {
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		hs.Shutdown(sctx)
		srv.Close(sctx)
		st.Close()
		os.RemoveAll(dir)
	}
	return "http://" + ln.Addr().String(), stop, nil
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// run applies the load and prints the figures.
func run(ctx context.Context, cfg config, out io.Writer) (result, error) {
	if cfg.Games < 1 || cfg.Rate <= 0 || cfg.Duration <= 0 || cfg.Spectators < 0 {
		return result{}, errors.New("want -games >= 1, -rate > 0, -duration > 0, -spectators >= 0")
	}
	if cfg.Setup < 1 {
		cfg.Setup = 1
	}
	lt := &loadTest{cfg: cfg, log: slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))}
	where, stop, err := lt.target(ctx)
	if err != nil {
		return result{}, err
	}
	defer stop()
	clients := cfg.Games * (2 + cfg.Spectators)
	fmt.Fprintf(out, "loadtest: %s, %d games x (2 players + %d spectators) = %d clients, target %.0f moves/s for %s\n",
		where, cfg.Games, cfg.Spectators, clients, cfg.Rate, cfg.Duration)

	t0 := time.Now()
	games, err := lt.setupAll(ctx)
	if err != nil {
		return result{}, err
	}
	fmt.Fprintf(out, "set-up: %d clients connected in %s\n", clients, time.Since(t0).Round(time.Millisecond))

	res, elapsed := lt.measure(ctx, games)
	res.Clients = clients
	lt.report(out, res, elapsed)
	return res, nil
}

// target sets the servers to load: one it starts in this process, on a
// temporary database, when -url is empty, or those of -url, which must be
// loopback addresses. It returns how the first line names them, and stop,
// which stops a server it started.
func (lt *loadTest) target(ctx context.Context) (where string, stop func(), err error) {
	if lt.cfg.URL == "" {
		base, stop, err := startLocal(ctx, nil)
		if err != nil {
			return "", nil, fmt.Errorf("start a server: %w", err)
		}
		lt.bases = []string{base}
		return "in-process server", stop, nil
	}
	for _, u := range strings.Split(lt.cfg.URL, ",") {
		if err := checkLoopback(u); err != nil {
			return "", nil, err
		}
		lt.bases = append(lt.bases, strings.TrimSuffix(u, "/"))
	}
	return strings.Join(lt.bases, ", "), func() {}, nil
}

// setupAll sets up every game, -setup at a time. When one fails it closes
// the sockets of all and returns the first error.
func (lt *loadTest) setupAll(ctx context.Context) ([]*lgame, error) {
	games := make([]*lgame, lt.cfg.Games)
	sem := make(chan struct{}, lt.cfg.Setup)
	var (
		wg       sync.WaitGroup
		setupErr atomic.Value
	)
	for i := range games {
		g := &lgame{n: i, kick: make(chan struct{}, 1), rng: rand.New(rand.NewPCG(uint64(i), 7))}
		games[i] = g
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			if err := lt.setup(ctx, g); err != nil {
				setupErr.CompareAndSwap(nil, err)
			}
		})
	}
	wg.Wait()
	if err, _ := setupErr.Load().(error); err != nil {
		for _, g := range games {
			lt.disconnect(g)
		}
		return nil, fmt.Errorf("set-up: %w", err)
	}
	return games, nil
}

// measure plays the games (and polls the lobby) for -duration and returns
// what was measured, but the number of clients, and the time it played.
// The run ends when the timer fires: recording stops first, then the
// games stop (cancelling a write closes its socket, which is no drop).
func (lt *loadTest) measure(ctx context.Context, games []*lgame) (result, time.Duration) {
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	timer := time.NewTimer(lt.cfg.Duration)
	defer timer.Stop()
	var pw sync.WaitGroup
	for _, g := range games {
		pw.Go(func() { lt.play(runCtx, g) })
	}
	for i := range lt.cfg.Lobby {
		pw.Go(func() { lt.pollLobby(runCtx, i) })
	}
	cpu0 := cpuTime()
	lt.rec.on.Store(true)
	start := time.Now()
	missed := lt.kickGames(runCtx, timer, games, start)
	lt.rec.on.Store(false)
	elapsed := time.Since(start)
	cpu := cpuTime() - cpu0
	cancel()
	pw.Wait()

	lt.rec.mu.Lock()
	res := result{
		Moves: lt.moves.Load(), Ack: summarize(lt.rec.ack), Broadcast: summarize(lt.rec.bcst),
		Errors: lt.errors.Load(), Dropped: lt.dropped.Load(), Rematches: lt.rematches.Load(), Missed: missed, CPU: cpu,
		Lobby: summarize(lt.rec.lobby), LobbyErrs: lt.lobbyErrs.Load(),
	}
	lt.rec.mu.Unlock()
	res.Rate = float64(res.Moves) / elapsed.Seconds()
	return res, elapsed
}

// kickGames kicks the games at -rate, from start until the timer fires or
// ctx ends: at each tick as many as the rate says by now, so that merged
// ticks are caught up, each the next idle game round robin. It returns
// the kicks that no idle game could take.
func (lt *loadTest) kickGames(ctx context.Context, timer *time.Timer, games []*lgame, start time.Time) (missed int64) {
	var kicked int64
	interval := time.Duration(float64(time.Second) / lt.cfg.Rate)
	tick := time.NewTicker(max(interval, time.Millisecond))
	defer tick.Stop()
	next := 0
	for {
		select {
		case <-ctx.Done():
			return missed
		case <-timer.C:
			return missed
		case now := <-tick.C:
			due := int64(now.Sub(start).Seconds()*lt.cfg.Rate) - kicked - missed
			for k := int64(0); k < due && k < int64(len(games)); k++ {
				if kickIdle(games, &next) {
					kicked++
				} else {
					missed++
				}
			}
		}
	}
}

// kickIdle kicks the first idle game from games[*next] on, round robin,
// moving *next past it, and says whether there was one.
func kickIdle(games []*lgame, next *int) bool {
	for range games {
		g := games[*next]
		*next = (*next + 1) % len(games)
		select {
		case g.kick <- struct{}{}:
			return true
		default:
		}
	}
	return false
}

// report prints the figures of a run that played for elapsed.
func (lt *loadTest) report(out io.Writer, res result, elapsed time.Duration) {
	cfg := lt.cfg
	fmt.Fprintf(out, "moves: %d in %s = %.1f moves/s (target %.0f); rematches %d; error messages %d; sockets dropped %d\n",
		res.Moves, elapsed.Round(time.Millisecond), res.Rate, cfg.Rate, res.Rematches, res.Errors, res.Dropped)
	fmt.Fprintf(out, "move to broadcast, at the mover:   %s\n", res.Ack)
	fmt.Fprintf(out, "move to broadcast, other clients:  %s\n", res.Broadcast)
	if cfg.Lobby > 0 {
		fmt.Fprintf(out, "lobby lists, %d clients every 2 s: %s; failed %d\n", cfg.Lobby, res.Lobby, res.LobbyErrs)
	}
	fmt.Fprintf(out, "CPU of this process during the run: %.1fs (%.0f%% of one core)\n", res.CPU.Seconds(), 100*res.CPU.Seconds()/elapsed.Seconds())
}
