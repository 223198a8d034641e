package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/magneton-games/magneton/server/wire"
	"github.com/magneton-games/magneton/store/storetest"
)

// viewer is one WebSocket of a game, read in the background into the
// state it shows: the whole state first, then updates applied.
type viewer struct {
	t    *testing.T
	conn *websocket.Conn
	mu   sync.Mutex
	st   gameState
	errs []string
	wake chan struct{}
	done chan struct{}
}

var allViewers []*viewer

func watch(t *testing.T, c *crashClient, base, id string) *viewer {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(base, "http")+"/api/games/"+id+"/ws", &websocket.DialOptions{HTTPClient: c.http})
	if err != nil {
		t.Fatalf("dial %s: %v", base, err)
	}
	conn.SetReadLimit(1 << 20)
	v := &viewer{t: t, conn: conn, wake: make(chan struct{}, 1), done: make(chan struct{})}
	allViewers = append(allViewers, v)
	go v.read()
	t.Cleanup(func() { conn.CloseNow() })
	v.until("the first state", func(st gameState) bool { return st.Type == "state" })
	return v
}

func (v *viewer) read() {
	defer close(v.done)
	for {
		_, data, err := v.conn.Read(context.Background())
		if err != nil {
			return
		}
		var m gameState
		if json.Unmarshal(data, &m) != nil {
			continue
		}
		v.mu.Lock()
		switch m.Type {
		case "state":
			v.st = m
		case "update":
			moves, positions := v.st.Moves, v.st.Positions
			switch m.Ply {
			case len(moves) + 1:
				moves = append(slices.Clone(moves), m.Last)
				positions = append(slices.Clone(positions), m.Position)
			case len(moves):
			default:
				v.errs = append(v.errs, fmt.Sprintf("an update of ply %d after %d moves", m.Ply, len(moves)))
				moves, positions = nil, nil
				b, _ := json.Marshal(wire.ClientMsg{Type: "sync"})
				go v.conn.Write(context.Background(), websocket.MessageText, b)
			}
			// An update carries no history and no chat: the history is
			// the last state's with the update's move, and the chat lines
			// seen so far stay, as in the browser (an update replacing
			// them made the test flaky when one came between a line and
			// the check for it).
			m.Type, m.Start, m.Moves, m.Positions, m.Chat = "state", v.st.Start, moves, positions, v.st.Chat
			v.st = m
		case "chat":
			if m.Line != nil {
				v.st.Chat = append(slices.Clone(v.st.Chat), *m.Line)
			}
		case "error":
			v.errs = append(v.errs, m.Message)
		}
		v.mu.Unlock()
		select {
		case v.wake <- struct{}{}:
		default:
		}
	}
}

func (v *viewer) errCount() int {
	v.mu.Lock()
	defer v.mu.Unlock()
	return len(v.errs)
}

func (v *viewer) state() gameState {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.st
}

func (v *viewer) until(what string, ok func(gameState) bool) gameState {
	v.t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		if st := v.state(); ok(st) {
			return st
		}
		select {
		case <-v.wake:
		case <-v.done:
			if st := v.state(); ok(st) {
				return st
			}
			v.t.Fatalf("the socket closed waiting for %s", what)
		case <-deadline:
			st := v.state()
			seat := -1
			if st.Seat != nil {
				seat = *st.Seat
			}
			var all []string
			for _, o := range allViewers {
				o.mu.Lock()
				all = append(all, fmt.Sprintf("%d moves %v", len(o.st.Moves), o.errs))
				o.mu.Unlock()
			}
			v.t.Fatalf("no %s within 20 s; the socket of seat %d shows %d moves, turn %d, status %s; errors: %v; all sockets: %v", what, seat, len(st.Moves), st.Turn, st.Status, v.errs, all)
		}
	}
}

func (v *viewer) send(msg wire.ClientMsg) {
	v.t.Helper()
	b, _ := json.Marshal(msg)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := v.conn.Write(ctx, websocket.MessageText, b); err != nil {
		v.t.Fatalf("write: %v", err)
	}
}

// twoPlayers makes a game against a person on the first instance with the
// creation request body, and has a second player join it through the
// second instance.
func twoPlayers(t *testing.T, ps []*serveProc, body string) (c wire.Created, a, b *crashClient) {
	t.Helper()
	a, b = newCrashClient(), newCrashClient()
	if err := a.post(ps[0].url+"/api/games", body, &c); err != nil {
		t.Fatal(err)
	}
	tok := c.Invite[strings.Index(c.Invite, "invite=")+7:]
	if err := b.post(ps[1].url+"/api/games/"+c.ID+"/join", `{"invite":"`+tok+`"}`, &wire.Joined{}); err != nil {
		t.Fatalf("join on another instance: %v", err)
	}
	return c, a, b
}

// clusterPlayers starts n instances on one database and a game between
// two players (twoPlayers, with the creation request body), the first
// player's socket on the first instance, the second's on the second.
func clusterPlayers(t *testing.T, n int, body string) (ps []*serveProc, c wire.Created, va, vb *viewer) {
	t.Helper()
	ps = startCluster(t, buildBinary(t), n)
	c, a, b := twoPlayers(t, ps, body)
	return ps, c, watch(t, a, ps[0].url, c.ID), watch(t, b, ps[1].url, c.ID)
}

// holds fails the test if, for d, the socket shows a state that is not ok.
func (v *viewer) holds(what string, ok func(gameState) bool, d time.Duration) {
	v.t.Helper()
	deadline := time.After(d)
	for {
		if st := v.state(); !ok(st) {
			v.t.Fatalf("%s stopped holding: %+v", what, st.Sides)
		}
		select {
		case <-v.wake:
		case <-v.done:
			v.t.Fatalf("the socket closed while %s should hold", what)
		case <-deadline:
			return
		}
	}
}

// startCluster starts n `magneton serve` instances on one new PostgreSQL
// database.
func startCluster(t *testing.T, bin string, n int) []*serveProc {
	t.Helper()
	db := storetest.URL(t, "postgres")
	var ps []*serveProc
	for i := range n {
		ps = append(ps, startServe(t, bin, t.TempDir(), "--db", db, "--instance", fmt.Sprintf("i%d", i+1), "--client-limits", "off"))
	}
	t.Cleanup(func() {
		if t.Failed() {
			for i, p := range ps {
				t.Logf("instance %d's log:\n%s", i+1, p.stderr)
			}
		}
	})
	return ps
}

func getState(t *testing.T, base, id string) gameState {
	t.Helper()
	return getJSON[gameState](t, base+"/api/games/"+id)
}

// TestClusterGame: two players on two instances and a spectator on a
// third play a clocked game to its end; every move reaches all three, and
// each sees the other connected.
func TestClusterGame(t *testing.T) {
	if testing.Short() {
		t.Skip("runs three servers")
	}
	bin := buildBinary(t)
	ps := startCluster(t, bin, 3)
	c, a, b := twoPlayers(t, ps, `{"game":"magneton","opponent":"human","color":"first","clock":"1+2","public":true}`)
	sp := newCrashClient()
	va, vb, vs := watch(t, a, ps[0].url, c.ID), watch(t, b, ps[1].url, c.ID), watch(t, sp, ps[2].url, c.ID)
	both := func(st gameState) bool { return st.Sides[0].Connected && st.Sides[1].Connected }
	for _, v := range []*viewer{va, vb, vs} {
		v.until("both players connected", both)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	players := [2]*viewer{va, vb}
	for ply := 0; ; ply++ {
		st := players[ply%2].until(fmt.Sprintf("ply %d", ply), func(st gameState) bool { return len(st.Moves) == ply })
		if st.Status != "playing" {
			break
		}
		if ply == 60 {
			players[ply%2].send(wire.ClientMsg{Type: "resign"})
			break
		}
		players[ply%2].send(wire.ClientMsg{Type: "move", Move: st.Legal[rng.IntN(len(st.Legal))]})
		time.Sleep(60 * time.Millisecond) // each socket stays under 20 messages a second
	}
	end := func(st gameState) bool { return st.Status == "finished" }
	fa, fb, fs := va.until("the end", end), vb.until("the end", end), vs.until("the end", end)
	if !slices.Equal(fa.Moves, fb.Moves) || !slices.Equal(fa.Moves, fs.Moves) || fa.Result != fs.Result || fa.Result == "*" {
		t.Errorf("the instances disagree:\n%v %s\n%v %s\n%v %s", fa.Moves, fa.Result, fb.Moves, fb.Result, fs.Moves, fs.Result)
	}
	for i, p := range ps {
		var st gameState
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if st = getState(t, p.url, c.ID); slices.Equal(st.Moves, fa.Moves) && st.Status == "finished" {
				break
			}
		}
		if !slices.Equal(st.Moves, fa.Moves) || st.Status != "finished" {
			t.Errorf("instance %d serves %d moves, %s", i+1, len(st.Moves), st.Status)
		}
	}
	// The lists are the same on every instance.
	for i, p := range ps {
		resp, err := http.Get(p.url + "/api/games?status=finished")
		if err != nil {
			t.Fatal(err)
		}
		var l gameList
		json.NewDecoder(resp.Body).Decode(&l)
		resp.Body.Close()
		if len(l.Games) != 1 || l.Games[0].ID != c.ID {
			t.Errorf("instance %d lists %+v", i+1, l.Games)
		}
	}
}

// TestClusterFailover: the owner of a clocked game against the computer is
// killed (SIGKILL) mid-game; another instance takes the game over within
// the lease's expiry: the computer moves again, the clock goes on from
// within a second of where it was, and no acknowledged move is lost.
func TestClusterFailover(t *testing.T) {
	if testing.Short() {
		t.Skip("runs three servers")
	}
	bin := buildBinary(t)
	ps := startCluster(t, bin, 3)
	u := newCrashClient()
	var c wire.Created
	if err := u.post(ps[0].url+"/api/games", `{"game":"magneton","opponent":"computer","level":2,"color":"first","clock":"5+0"}`, &c); err != nil {
		t.Fatal(err)
	}
	v := watch(t, u, ps[1].url, c.ID) // the player's socket is on another instance
	for ply := 0; ply < 6; ply += 2 {
		st := v.until(fmt.Sprintf("ply %d", ply), func(st gameState) bool { return len(st.Moves) == ply })
		v.send(wire.ClientMsg{Type: "move", Move: st.Legal[ply%len(st.Legal)]})
	}
	before := v.until("the computer's third move", func(st gameState) bool { return len(st.Moves) == 6 })
	time.Sleep(1500 * time.Millisecond) // the player thinks; their clock runs, the owner beats
	killed := time.Now()
	ps[0].cmd.Process.Signal(syscall.SIGKILL)
	<-ps[0].done
	// The player moves: the instance forwards to the dead owner, gets no
	// answer, and takes the game over once its lease has expired.
	v.send(wire.ClientMsg{Type: "move", Move: before.Legal[0]})
	st := v.until("the computer's answer after the failover", func(st gameState) bool { return len(st.Moves) >= 8 })
	took := time.Since(killed)
	t.Logf("moves after the kill: %v in %v", st.Moves[6:], took.Round(time.Millisecond))
	if !slices.Equal(st.Moves[:6], before.Moves) {
		t.Errorf("acknowledged moves lost: %v, then %v", before.Moves, st.Moves)
	}
	if took > 15*time.Second {
		t.Errorf("the failover took %v", took)
	}
	// The player's clock: 300 s less the think before the kill (about
	// 1.5 s), its time from the first moves, and the time of the last
	// move's think; the time without an owner is nobody's.
	want := before.Clock.RemainingMS[0] - (killed.UnixMilli() - before.Clock.At)
	got := getState(t, ps[2].url, c.ID)
	if got.Clock == nil {
		t.Fatal("no clock")
	}
	if d := got.Clock.RemainingMS[0] - want; d < -1000 || d > 1000 {
		t.Errorf("the player's clock after the failover: %d ms, want %d within a second", got.Clock.RemainingMS[0], want)
	}
	// The game goes on, served alike by the instances left.
	v.send(wire.ClientMsg{Type: "move", Move: st.Legal[0]})
	v.until("the next answer", func(st gameState) bool { return len(st.Moves) >= 10 })
	// The other instance follows within a notification's time.
	var a, b gameState
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if a, b = getState(t, ps[1].url, c.ID), getState(t, ps[2].url, c.ID); slices.Equal(a.Moves, b.Moves) {
			break
		}
	}
	if !slices.Equal(a.Moves, b.Moves) {
		t.Errorf("the instances left disagree after 5 s: %v, %v", a.Moves, b.Moves)
	}
}

// TestClusterRace: one player's two sockets, on two instances, send
// different moves at the same instant, again and again: each time exactly
// one is played, the other refused, and every instance shows the same
// game.
func TestClusterRace(t *testing.T) {
	if testing.Short() {
		t.Skip("runs three servers")
	}
	bin := buildBinary(t)
	ps := startCluster(t, bin, 3)
	a, b := newCrashClient(), newCrashClient()
	var c wire.Created
	if err := a.post(ps[2].url+"/api/games", `{"game":"magneton","opponent":"human","color":"first"}`, &c); err != nil {
		t.Fatal(err)
	}
	tok := c.Invite[strings.Index(c.Invite, "invite=")+7:]
	var j wire.Joined
	if err := b.post(ps[2].url+"/api/games/"+c.ID+"/join", `{"invite":"`+tok+`"}`, &j); err != nil {
		t.Fatal(err)
	}
	a1, a2 := watch(t, a, ps[0].url, c.ID), watch(t, a, ps[1].url, c.ID)
	vb := watch(t, b, ps[2].url, c.ID)
	for round := range 20 {
		ply := 2 * round
		st := a1.until("a's turn", func(st gameState) bool { return len(st.Moves) == ply })
		a2.until("a's turn on the other socket", func(st gameState) bool { return len(st.Moves) == ply })
		if st.Status != "playing" {
			break
		}
		m1, m2 := st.Legal[0], st.Legal[len(st.Legal)-1]
		refusals := a1.errCount() + a2.errCount()
		var wg sync.WaitGroup
		wg.Go(func() { a1.send(wire.ClientMsg{Type: "move", Move: m1}) })
		wg.Go(func() { a2.send(wire.ClientMsg{Type: "move", Move: m2}) })
		wg.Wait()
		after := vb.until("a's move", func(st gameState) bool { return len(st.Moves) >= ply+1 })
		// The other move is answered (refused: not a's turn any more)
		// before b moves, so that it cannot count as a's next one.
		for deadline := time.Now().Add(20 * time.Second); a1.errCount()+a2.errCount() == refusals; time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("round %d: the second of a's moves was never answered", round)
			}
		}
		if n := a1.errCount() + a2.errCount() - refusals; n != 1 {
			t.Fatalf("round %d: %d of a's two moves refused, want 1", round, n)
		}
		if got := after.Moves[ply]; got != m1 && got != m2 {
			t.Fatalf("round %d: %s played, neither %s nor %s", round, got, m1, m2)
		}
		if after.Status != "playing" {
			break
		}
		vb.send(wire.ClientMsg{Type: "move", Move: after.Legal[0]})
		vb.until("b's move", func(st gameState) bool { return len(st.Moves) == ply+2 })
		if len(after.Moves) > ply+1 && after.Moves[ply+1] != vb.state().Moves[ply+1] {
			t.Fatalf("round %d: both of a's moves were played: %v", round, after.Moves)
		}
	}
	final := vb.state()
	for i, p := range ps {
		// A mirror follows the owner's announcements: within moments.
		var st gameState
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if st = getState(t, p.url, c.ID); slices.Equal(st.Moves, final.Moves) {
				break
			}
		}
		if !slices.Equal(st.Moves, final.Moves) {
			t.Errorf("instance %d: %v, want %v", i+1, st.Moves, final.Moves)
		}
	}
}

// TestClusterPresence: a player whose socket is on another instance than
// the game's owner stays connected in everyone's eyes past the time a
// report of presence lapses (the mirrors' periodic reports reach the
// owner), and shows as gone as soon as the socket closes.
func TestClusterPresence(t *testing.T) {
	if testing.Short() {
		t.Skip("runs two servers for 17 s")
	}
	ps, c, va, vb := clusterPlayers(t, 2, `{"game":"tumbling","opponent":"human","color":"first","public":true}`)
	watch(t, newCrashClient(), ps[1].url, c.ID) // a spectator on the mirror
	both := func(st gameState) bool { return st.Sides[0].Connected && st.Sides[1].Connected }
	va.until("both players connected", both)
	vb.until("both players connected", both)
	// 15 s is how long a report lasts (presenceTTL in server/cluster.go).
	va.holds("both players connected", both, 17*time.Second)
	// The owner counts the mirror's spectator (its periodic reports carry
	// it), in the live list.
	live := getJSON[gameList](t, ps[0].url+"/api/games?status=live")
	if len(live.Games) != 1 || live.Games[0].ID != c.ID || live.Games[0].Spectators != 1 {
		t.Errorf("the owner's live list: %+v, want the game with 1 spectator", live.Games)
	}
	vb.conn.Close(websocket.StatusNormalClosure, "")
	va.until("the second player gone", func(st gameState) bool { return st.Sides[0].Connected && !st.Sides[1].Connected })
}

// TestClusterStop: an instance stopped with SIGTERM lets its games go, and
// tells the others so: a player whose socket is on another instance moves
// at once afterwards, without waiting for the stopped one to answer
// (forwardTimeout, 3 s) or for its heartbeat to lapse.
func TestClusterStop(t *testing.T) {
	if testing.Short() {
		t.Skip("runs two servers")
	}
	bin := buildBinary(t)
	ps := startCluster(t, bin, 2)
	c, a, b := twoPlayers(t, ps, `{"game":"magneton","opponent":"human","color":"first","clock":"5+0"}`)
	va, vb := watch(t, a, ps[1].url, c.ID), watch(t, b, ps[1].url, c.ID)
	st := va.until("the start", func(st gameState) bool { return len(st.Legal) > 0 })
	va.send(wire.ClientMsg{Type: "move", Move: st.Legal[0]})
	st = vb.until("the first move", func(st gameState) bool { return len(st.Moves) == 1 })
	ps[0].cmd.Process.Signal(syscall.SIGTERM)
	<-ps[0].done
	start := time.Now()
	vb.send(wire.ClientMsg{Type: "move", Move: st.Legal[0]})
	vb.until("the second move", func(st gameState) bool { return len(st.Moves) == 2 })
	if took := time.Since(start); took > 2500*time.Millisecond {
		t.Errorf("the move after the owner stopped took %v", took)
	}
}

// TestClusterBoard: chat lines and a takeback made on one instance reach
// the clients of the others; the spectators' room stays apart from the
// players' on every instance.
func TestClusterBoard(t *testing.T) {
	if testing.Short() {
		t.Skip("runs three servers")
	}
	ps, c, va, vb := clusterPlayers(t, 3, `{"game":"magneton","opponent":"human","color":"first","public":true}`)
	spec := newCrashClient()
	if _, err := spec.http.Get(ps[2].url + "/api/account"); err != nil { // a guest, with a name
		t.Fatal(err)
	}
	vs := watch(t, spec, ps[2].url, c.ID)
	has := func(text string) func(gameState) bool {
		return func(st gameState) bool {
			for _, l := range st.Chat {
				if l.Text == text {
					return true
				}
			}
			return false
		}
	}
	vs.send(wire.ClientMsg{Type: "chat", Text: "from the stands"})
	vs.until("the spectator's own line", has("from the stands"))
	vb.send(wire.ClientMsg{Type: "chat", Text: "good luck"}) // a mirror's player
	va.until("black's line on the owner", has("good luck"))
	vs.until("black's line on the third instance", has("good luck"))
	if st := va.state(); has("from the stands")(st) {
		t.Errorf("a player saw the spectators' room: %+v", st.Chat)
	}
	// A takeback asked on the owner and accepted through a mirror.
	for ply := range 3 {
		v := []*viewer{va, vb}[ply%2]
		st := v.until(fmt.Sprintf("ply %d", ply), func(st gameState) bool { return len(st.Moves) == ply })
		v.send(wire.ClientMsg{Type: "move", Move: st.Legal[0]})
	}
	vb.until("3 moves", func(st gameState) bool { return len(st.Moves) == 3 })
	va.send(wire.ClientMsg{Type: "takeback", Action: "offer"})
	vb.until("the request", func(st gameState) bool { return st.Takeback != nil && st.Takeback.OfferedBy == 0 })
	vb.send(wire.ClientMsg{Type: "takeback", Action: "accept"})
	for _, v := range []*viewer{va, vb, vs} {
		v.until("the takeback", func(st gameState) bool { return len(st.Moves) == 2 && st.Takeback == nil })
	}
	if st := getState(t, ps[2].url, c.ID); len(st.Moves) != 2 {
		t.Errorf("the third instance serves %d moves after the takeback", len(st.Moves))
	}
	for _, v := range []*viewer{va, vb, vs} {
		if n := v.errCount(); n != 0 {
			t.Errorf("errors: %v", v.errs)
		}
	}
}
