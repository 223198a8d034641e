//go:build abuse

// The abuse suite: each attack of a client on the server, at full scale,
// on loopback, each bounded in count and time. Run it with
//
//	go test -tags abuse -run Abuse -v ./server
//
// (about seven minutes). The default test run keeps a fast subset
// (hardening_test.go). docs/benchmarks.md has the figures.
package server

import (
	"net/http"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/magneton-games/magneton/server/round"
)

func heapMB() float64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return float64(m.HeapInuse) / (1 << 20)
}

// TestAbuseAbandonedGames: 1,000 games against the level-8 computer, each
// left after the computer's first move, hold no search tables: the heap
// stays within the search memory bound while they are made, and the games
// leave memory once idle.
func TestAbuseAbandonedGames(t *testing.T) {
	s := startServer(t, t.TempDir(), func(c *Config) {
		c.Limits = NoLimits // one address makes them all: the memory is what is measured
		c.SearchMemoryMB = 64
	})
	base := heapMB()
	var wg sync.WaitGroup
	sem := make(chan struct{}, 16)
	peak := 0.0
	var mu sync.Mutex
	for i := range 1000 {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			u := s.user()
			c := u.create(map[string]any{"opponent": "computer", "level": 8, "color": "second"})
			ws := u.connect(c.ID)
			ws.moves(1) // the computer has searched its move
			ws.conn.CloseNow()
		})
		if i%100 == 99 {
			h := heapMB()
			mu.Lock()
			peak = max(peak, h)
			mu.Unlock()
			t.Logf("%d games: heap in use %.0f MB", i+1, h)
		}
	}
	wg.Wait()
	held := heapMB()
	s.srv.Sweep(time.Now().Add(2 * round.IdleEvict))
	after := heapMB()
	left := s.srv.Rooms().Count()
	t.Logf("heap: %.0f MB at the start, peak %.0f MB, %.0f MB with the 1,000 games held, %.0f MB after they left memory (%d sessions left)", base, peak, held, after, left)
	if peak-base > 64+100 {
		t.Errorf("the heap grew by %.0f MB making 1,000 abandoned games: more than the 64 MB of search memory and 100 MB of sessions", peak-base)
	}
	if left > 0 {
		t.Errorf("%d idle games left in memory", left)
	}
}

// TestAbuseStarvation: one client starts 20 games against the level-8
// computer at once (its burst); another client's clocked game against
// level 3 still gets its computer's move within its share, its clock
// barely touched.
func TestAbuseStarvation(t *testing.T) {
	s := startServer(t, t.TempDir(), func(c *Config) {
		c.ComputerMoveTime = 1 * time.Second
		c.MaxThinkers = 2
	})
	attacker := s.userFrom("127.0.0.2")
	for range 20 {
		attacker.create(map[string]any{"opponent": "computer", "level": 8, "color": "second"})
	}
	var e struct{ Error string }
	if code := attacker.do("POST", "/api/games", map[string]any{"opponent": "computer", "level": 8}, &e); code != http.StatusTooManyRequests {
		t.Errorf("the attacker's 21st game: %d %q", code, e.Error)
	}
	victim := s.userFrom("127.0.0.3")
	start := time.Now()
	c := victim.create(map[string]any{"opponent": "computer", "level": 3, "color": "second", "clock": "0.25+0"}) // 15 s
	ws := victim.connect(c.ID)
	st := ws.moves(1)
	took := time.Since(start)
	used := 15000 - st.Clock.RemainingMS[1]
	t.Logf("the victim's computer moved after %v, its clock used %d ms of 15,000", took.Round(time.Millisecond), used)
	if took > 3*time.Second || used > 1000 {
		t.Errorf("starved: the computer moved after %v and used %d ms of its clock", took, used)
	}
}

// TestAbusePerIPLimits: a script's flood of sockets, games and analyses
// meets 429s with messages, and another address is not affected.
func TestAbusePerIPLimits(t *testing.T) {
	s := startServer(t, t.TempDir())
	bot := s.userFrom("127.0.0.4")
	made, refused := 0, 0
	var lastErr string
	for range 266 {
		var c created
		switch code := bot.do("POST", "/api/games", map[string]any{"opponent": "human"}, &c); code {
		case http.StatusCreated:
			made++
		case http.StatusTooManyRequests:
			refused++
			lastErr = c.Error
		default:
			t.Fatalf("create: %d", code)
		}
	}
	t.Logf("266 creations from one address: %d created, %d refused (%q)", made, refused, lastErr)
	if made > 21 || !strings.Contains(lastErr, "too many new games") {
		t.Errorf("%d games created in a burst of 266", made)
	}
	person := s.userFrom("127.0.0.5")
	id := person.create(map[string]any{"opponent": "human"}).ID
	opened, sockRefused := 0, 0
	var conns []*websocket.Conn
	url := "ws" + strings.TrimPrefix(s.url, "http") + "/api/games/" + id + "/ws"
	for range 2000 {
		conn, resp, err := websocket.Dial(t.Context(), url, &websocket.DialOptions{HTTPClient: bot.http})
		if err != nil {
			if resp != nil && resp.StatusCode == http.StatusTooManyRequests {
				sockRefused++
				continue
			}
			t.Fatal(err)
		}
		conns = append(conns, conn)
		opened++
	}
	t.Logf("2,000 sockets from one address: %d opened, %d refused", opened, sockRefused)
	if opened > DefaultLimits.SocketsPerIP {
		t.Errorf("%d sockets open from one address", opened)
	}
	// The person is not affected.
	ws := person.connect(id)
	if ws.last.Status != "waiting" {
		t.Errorf("the person's game: %+v", ws.last)
	}
	for _, c := range conns {
		c.CloseNow()
	}
	// Analyses: one at a time per address; another address still gets one.
	var wg sync.WaitGroup
	codes := make(chan int, 6)
	for range 6 {
		wg.Go(func() {
			var e struct{ Error string }
			codes <- bot.do("POST", "/api/analyze", map[string]any{"movetime_ms": 500}, &e)
		})
	}
	time.Sleep(100 * time.Millisecond)
	var e struct{ Error string }
	if code := person.do("POST", "/api/analyze", map[string]any{"movetime_ms": 200}, &e); code != http.StatusOK && code != http.StatusTooManyRequests {
		t.Errorf("the person's analysis: %d %q", code, e.Error)
	}
	wg.Wait()
	close(codes)
	ok := 0
	for c := range codes {
		if c == http.StatusOK {
			ok++
		}
	}
	if ok > 1 {
		t.Errorf("%d of 6 simultaneous analyses from one address ran", ok)
	}
}

// TestAbusePanicsUnderLoad: with 50 games being played, panics injected in
// each kind of a game's work (players' moves, the computer's move, a
// flag's fall) leave the process and the other games going, and every
// game is still played on to 30 moves.
func TestAbusePanicsUnderLoad(t *testing.T) {
	var mu sync.Mutex
	panicAt := map[string]int{}
	injected := 0
	round.FaultHook = func(p string) {
		mu.Lock()
		defer mu.Unlock()
		if panicAt[p] > 0 {
			panicAt[p]--
			injected++
			panic("injected at " + p)
		}
	}
	t.Cleanup(func() { round.FaultHook = nil })
	s := startServer(t, t.TempDir(), func(c *Config) { c.Limits = NoLimits })
	type pair struct{ a, b *sock }
	var games []pair
	for range 50 {
		_, _, sa, sb, _ := humanGame(t, s, nil)
		games = append(games, pair{sa, sb})
	}
	mu.Lock()
	panicAt["move"] = 10
	mu.Unlock()

	// Each game: the side to move moves, and again when refused, until 30
	// moves are played; all from this goroutine (the helpers may fail the
	// test), round robin.
	deadline := time.Now().Add(60 * time.Second)
	for ply := range 30 {
		for _, g := range games {
			ws := []*sock{g.a, g.b}[ply%2]
			for len(ws.last.Moves) == ply && ws.last.Status == "playing" {
				ws.move(ws.last.Legal[ply%len(ws.last.Legal)])
				for {
					st, _, err := ws.read(10 * time.Second)
					if err != nil {
						t.Fatalf("game %s: %v", ws.last.ID, err)
					}
					if st.Type == "error" || len(ws.last.Moves) > ply {
						break
					}
				}
				if time.Now().After(deadline) {
					t.Fatal("the games did not get to 30 moves in a minute")
				}
			}
			other := []*sock{g.a, g.b}[1-ply%2]
			if ws.last.Status == "playing" {
				other.moves(ply + 1)
			}
		}
	}
	// The computer's move and a flag's fall, twice each (a third time
	// the game would stop restarting them), while the 50 games go on.
	mu.Lock()
	panicAt["computer"], panicAt["flag"] = 2, 2
	mu.Unlock()
	u := s.user()
	c := u.create(map[string]any{"opponent": "computer", "level": 2, "color": "second"})
	cw := u.connect(c.ID)
	_, _, fa, fb, _ := humanGame(t, s, map[string]any{"clock": "0.01+0"})
	openHuman(fa, fb) // the clocks start
	for _, g := range games {
		if g.a.last.Status == "playing" {
			g.a.send(map[string]string{"type": "resign"})
			g.b.until("resigned", func(st state) bool { return st.Status == "finished" })
		}
	}
	cw.moves(1)
	fa.until("time forfeit", func(st state) bool { return st.Status == "finished" })
	mu.Lock()
	t.Logf("%d panics injected and rolled back; left uninjected: %v", injected, panicAt)
	mu.Unlock()
	if injected != 14 {
		t.Errorf("%d panics injected, want 14", injected)
	}
}
