//go:build abuse

package server

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/magneton-games/magneton/server/analysis"
	"github.com/magneton-games/magneton/server/chat"
	"github.com/magneton-games/magneton/server/wire"
	"golang.org/x/time/rate"
)

// The audit's attacks on games (issue 27: 2 and 4 to 8) at the scale it
// tried them.

// readUntil reads ws until ok holds of a state, within timeout, calling
// each on every state read; false when the socket fails or time runs out.
func readUntil(ws *sock, timeout time.Duration, ok, each func(state) bool) bool {
	deadline := time.Now().Add(timeout)
	for !ok(ws.last) {
		st, _, err := ws.read(time.Until(deadline))
		if err != nil {
			return false
		}
		if st.Type == "state" && each != nil && !each(st) {
			return false
		}
	}
	return true
}

// TestAbuseComputerClockUnderLoad: 50 addresses each play a game against
// the level-8 computer, always moving at once so that 50 searches of a
// second queue for the cores; another player's 6-second game against
// level 8 (the computer lost it on time after 3 plies) goes on: the
// computer's clock stands still while it waits, never runs back up, and
// does not fall.
func TestAbuseComputerClockUnderLoad(t *testing.T) {
	s := startServer(t, t.TempDir(), func(c *Config) { c.ComputerMoveTime = 0 }) // 1 s at level 8, as served
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var loaderMoves atomic.Int64
	for a := range 50 {
		u := s.userFrom(fmt.Sprintf("127.0.13.%d", a+1))
		wg.Go(func() {
			for {
				c := u.create(map[string]any{"opponent": "computer", "level": 8, "color": "second"})
				ws := u.connect(c.ID)
				for ply := 1; ws.last.Status != "finished"; ply += 2 {
					for len(ws.last.Moves) < ply && ws.last.Status != "finished" {
						select {
						case <-stop:
							ws.conn.CloseNow()
							return
						default:
						}
						if _, _, err := ws.read(time.Second); err != nil && !errors.Is(err, context.DeadlineExceeded) {
							return
						}
					}
					if ws.last.Status == "playing" {
						ws.move(ws.last.Legal[0])
						loaderMoves.Add(1)
					}
				}
				ws.conn.CloseNow()
			}
		})
	}
	defer func() {
		close(stop)
		wg.Wait()
	}()
	for s.srv.Rooms().Pool().Stats().Waiting < 40 {
		time.Sleep(50 * time.Millisecond) // until the queue is long
	}
	victim := s.userFrom("127.0.14.1")
	c := victim.create(map[string]any{"opponent": "computer", "level": 8, "color": "first", "clock": "0.1+0"})
	ws := victim.connect(c.ID)
	computerLeft := ws.last.Clock.RemainingMS[1]
	for reply := 1; reply <= 3; reply++ {
		ws.move(ws.last.Legal[0])
		asked := time.Now()
		answered := readUntil(ws, 3*time.Minute, func(st state) bool {
			return len(st.Moves) >= 2*reply || st.Status != "playing"
		}, func(st state) bool {
			if left := st.Clock.RemainingMS[1]; left > computerLeft {
				t.Errorf("the computer's clock ran back up from %d to %d ms", computerLeft, left)
			}
			computerLeft = st.Clock.RemainingMS[1]
			return true
		})
		if !answered || ws.last.Status != "playing" {
			t.Fatalf("reply %d: %v, %s %s, the computer's clock %d ms", reply, answered, ws.last.Status, ws.last.Reason, computerLeft)
		}
		t.Logf("reply %d after %v in the queue of %d searches; the computer's clock %d ms of 6,000", reply, time.Since(asked).Round(100*time.Millisecond), s.srv.Rooms().Pool().Stats().Waiting, computerLeft)
	}
	t.Logf("the 50 loaders moved %d times meanwhile", loaderMoves.Load())
}

// TestAbuseSpectatorFlood: 200 spectators' sockets from 100 addresses,
// each a new guest, post as fast as they may for 12 seconds: each address
// is held to its pace, the spectators' room fills at most to its cap, and
// the players chat through it all.
func TestAbuseSpectatorFlood(t *testing.T) {
	s := startServer(t, t.TempDir())
	_, _, sa, _, id := humanGame(t, s, nil)
	const addresses, per = 100, 2
	const flood = 12 * time.Second
	stop := time.Now().Add(flood)
	var wg sync.WaitGroup
	for a := range addresses {
		for k := range per {
			sc := s.userFrom(fmt.Sprintf("127.0.15.%d", a+1)).connect(id)
			wg.Go(func() {
				defer sc.conn.CloseNow()
				for n := 0; time.Now().Before(stop); n++ {
					b := fmt.Appendf(nil, `{"type":"chat","text":"a%d s%d n%d"}`, a, k, n)
					if err := sc.conn.Write(context.Background(), websocket.MessageText, b); err != nil {
						return
					}
					time.Sleep(200 * time.Millisecond) // the script's pace, within the socket's message limit
				}
			})
		}
	}
	observer := s.userFrom("127.0.16.1").connect(id)
	perAddr := map[string]int{}
	total := 0
	full := false
	deadline := time.Now().Add(flood + 5*time.Second)
	for time.Now().Before(deadline) {
		st, _, err := observer.read(time.Until(deadline))
		if err != nil {
			break
		}
		if st.Type == "chat" && st.Line != nil && st.Line.Side < 0 {
			addr, _, _ := strings.Cut(st.Line.Text, " ")
			perAddr[addr]++
			total++
		}
	}
	wg.Wait()
	most := chat.Burst + int(flood/chat.Every) + 1
	for addr, n := range perAddr {
		if n > most {
			t.Errorf("address %s posted %d lines in %v; want at most %d", addr, n, flood, most)
		}
	}
	full = total >= chat.MaxLines
	t.Logf("%d spectators' lines from %d addresses in %v (the room full: %v)", total, len(perAddr), flood, full)
	if total > chat.MaxLines {
		t.Errorf("the spectators' room holds %d lines, past its cap of %d", total, chat.MaxLines)
	}
	sa.send(wire.ClientMsg{Type: "chat", Text: "the players still chat"})
	for st := sa.next(); st.Type != "chat" || st.Line.Side < 0; st = sa.next() {
		if st.Type == "error" {
			t.Fatalf("a player's line after the flood: %s %q", st.Code, st.Message)
		}
	}
}

// TestAbusePrivateGamesCrawl: a crawler, as a guest and as an account,
// reads every list the site has (profiles, their games and PGN, the
// archive, the lobby, the leaderboard) and finds none of the players'
// private games there, while their own lists hold them.
func TestAbusePrivateGamesCrawl(t *testing.T) {
	s := startServer(t, t.TempDir())
	ann, bob := s.signedUp("ann"), s.signedUp("bob")
	var private, public []string
	for i := range 20 {
		pub := i%4 == 0
		c := ann.create(map[string]any{"opponent": "human", "color": "first", "public": pub})
		tok := c.Invite[strings.Index(c.Invite, "invite=")+len("invite="):]
		if j, code := bob.join(c.ID, map[string]string{"invite": tok}); code != http.StatusOK {
			t.Fatalf("join: %d %q", code, j.Error)
		}
		sa, sb := ann.connect(c.ID), bob.connect(c.ID)
		openHuman(sa, sb)
		if i%2 == 0 { // half finished, half still playing
			sa.send(wire.ClientMsg{Type: "resign"})
			sa.until("the end", func(st state) bool { return st.Status == "finished" })
		}
		sa.conn.CloseNow()
		sb.conn.CloseNow()
		if pub {
			public = append(public, c.ID)
		} else {
			private = append(private, c.ID)
		}
	}
	pages := []string{"/api/users/ann", "/api/users/bob", "/api/users/ann/games", "/api/users/bob/games",
		"/api/users/ann/games.pgn", "/api/users/bob/games.pgn", "/api/games", "/api/games?status=finished",
		"/api/games?status=playing", "/api/games?status=waiting", "/api/leaderboard", "/api/my-games"}
	guest, carl := s.user(), s.signedUp("carl")
	seenPublic := 0
	for _, crawler := range []*user{guest, carl} {
		for _, path := range pages {
			body := crawler.text(path)
			for _, id := range private {
				if strings.Contains(body, id) {
					t.Errorf("a crawler finds the private game %s in %s", id, path)
				}
			}
			for _, id := range public {
				if strings.Contains(body, id) {
					seenPublic++
				}
			}
		}
	}
	if seenPublic == 0 {
		t.Error("the crawler found no public game either: the pages it read list nothing")
	}
	mine := ann.text("/api/users/ann/games") + ann.text("/api/my-games")
	for _, id := range private {
		if !strings.Contains(mine, id) {
			t.Errorf("ann's own lists lack her private game %s", id)
		}
	}
}

// TestAbuseAnalysisSlotHeld: two addresses loop 5-second analyses (the
// longest, within their per-minute limit) on the one slot; five visitors
// in turn, each from an address of its own, all get theirs.
func TestAbuseAnalysisSlotHeld(t *testing.T) {
	s := startServer(t, t.TempDir())
	stop := s.loopAnalyses(5000, "127.0.17.1", "127.0.17.2")
	defer stop()
	for v := range 5 {
		var e struct{ Error, Code string }
		asked := time.Now()
		code := s.userFrom(fmt.Sprintf("127.0.18.%d", v+1)).do("POST", "/api/analyze", map[string]any{"movetime_ms": 200}, &e)
		t.Logf("visitor %d: %d after %v", v+1, code, time.Since(asked).Round(100*time.Millisecond))
		if code != http.StatusOK {
			t.Errorf("visitor %d's analysis while two addresses hold the slot: %d %s %q", v+1, code, e.Code, e.Error)
		}
	}
}

// respell is another spelling of a legal move that a game's reader may
// take: the other separator (a step of one disk spelt as a tumble), none,
// capitals, spaces around.
func respell(rng *rand.Rand, m string) string {
	switch rng.IntN(5) {
	case 0:
		return strings.NewReplacer("-", ">", ">", "-").Replace(m)
	case 1:
		return strings.NewReplacer("-", "", ">", "").Replace(m)
	case 2:
		return strings.ToUpper(m)
	case 3:
		return " " + m + " "
	}
	return m
}

// TestAbuseMoveSpellings: games of both kinds played with every move sent
// in a random spelling (the audit found 19 of 484 accepted moves recorded
// as spelt, off the legal list): at least 500 moves are accepted as sent
// and each is recorded as one of the legal moves of its position.
func TestAbuseMoveSpellings(t *testing.T) {
	s := startServer(t, t.TempDir(), func(c *Config) { c.Limits = NoLimits })
	rng := rand.New(rand.NewPCG(27, 7))
	played, respelt := 0, 0
	for g := 0; played < 500 && g < 100; g++ {
		name := []string{"tumbling", "magneton"}[g%2]
		_, _, sa, sb, _ := humanGame(t, s, map[string]any{"game": name})
		socks := []*sock{sa, sb}
		// Each socket's pace, under the one connection's message rate.
		pace := []*rate.Limiter{rate.NewLimiter(10, 1), rate.NewLimiter(10, 1)}
		for ply := 0; ply < 120 && sa.last.Status == "playing"; ply++ {
			ws := socks[ply%2]
			ws.moves(ply)
			legal := ws.last.Legal
			want := legal[rng.IntN(len(legal))]
			sent := respell(rng, want)
			for try := sent; len(ws.last.Moves) <= ply; {
				if err := pace[ply%2].Wait(t.Context()); err != nil {
					t.Fatal(err)
				}
				ws.move(try)
				for st := ws.next(); st.Type != "error" && len(ws.last.Moves) <= ply; st = ws.next() {
				}
				if len(ws.last.Moves) > ply {
					break
				}
				if try == sent && sent != want {
					try = want // a spelling the reader does not take: the move as written
					continue
				}
				t.Fatalf("%s: %q refused", name, try)
			}
			got := ws.last.Moves[ply]
			if !slices.Contains(legal, got) {
				t.Fatalf("%s: %q sent for %s was recorded as %q, not a legal move of %v", name, sent, want, got, legal)
			}
			played++
			if sent != want && got == want {
				respelt++
			}
			socks[1-ply%2].moves(ply + 1)
		}
		sa.conn.CloseNow()
		sb.conn.CloseNow()
	}
	t.Logf("%d moves recorded, %d of them sent and taken in another spelling", played, respelt)
	if played < 500 || respelt < 50 {
		t.Errorf("%d moves played, %d taken in another spelling", played, respelt)
	}
}

// TestAbuseReviewPanics: 20 reviews asked at once, 10 of which panic in
// their work, while games are played: the process, the games and the
// other reviews go on, and each faulted review completes when asked again.
func TestAbuseReviewPanics(t *testing.T) {
	var faults atomic.Int64
	faults.Store(10)
	analysis.FaultHook = func(point string) {
		if point == "review" && faults.Add(-1) >= 0 {
			panic("injected in a review")
		}
	}
	t.Cleanup(func() { analysis.FaultHook = nil })
	s := startServer(t, t.TempDir(), func(c *Config) {
		c.ReviewMoveTime = 10 * time.Millisecond
		c.Limits = NoLimits
	})
	u := s.user()
	var ids []string
	for range 20 {
		c := u.create(map[string]any{"opponent": "computer", "level": 1, "color": "first"})
		ws := u.connect(c.ID)
		ws.move(ws.moves(0).Legal[0])
		ws.moves(2)
		ws.send(wire.ClientMsg{Type: "resign"})
		ws.until("the end", func(st state) bool { return st.Status == "finished" })
		ws.conn.CloseNow()
		ids = append(ids, c.ID)
	}
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Go(func() { u.do("POST", "/api/games/"+id+"/review", map[string]any{}, nil) })
	}
	_, _, sa, sb, _ := humanGame(t, s, nil) // a game played meanwhile
	openHuman(sa, sb)
	wg.Wait()
	done := 0
	deadline := time.Now().Add(2 * time.Minute)
	for _, id := range ids {
		var rv wire.Review
		for rv.Status != "done" && time.Now().Before(deadline) {
			// Asked again: a faulted review is stale and starts over.
			u.do("POST", "/api/games/"+id+"/review", map[string]any{}, &rv)
			if rv.Status != "done" {
				time.Sleep(50 * time.Millisecond) // polling the review's progress
			}
		}
		if rv.Status == "done" {
			done++
		}
	}
	t.Logf("%d faults injected; %d of 20 reviews done", 10-max(faults.Load(), 0), done)
	if done != 20 {
		t.Errorf("%d of 20 reviews done after 10 faulted", done)
	}
	sa.move(sa.moves(2).Legal[0])
	sb.moves(3)
}
