package server

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/magneton-games/magneton/server/chat"
	"github.com/magneton-games/magneton/server/live"
	"github.com/magneton-games/magneton/server/wire"
	"github.com/magneton-games/magneton/store"
)

// shortBoard makes the board's waits short enough for a test.
func shortBoard(cfg *Config) {
	cfg.ClaimAfter = 300 * time.Millisecond
	cfg.FirstMoveTimeout = 400 * time.Millisecond
}

func TestAbort(t *testing.T) {
	s := startServer(t, t.TempDir())
	_, _, sa, sb, id := humanGame(t, s, nil)
	if !sa.last.Abortable {
		t.Fatalf("white cannot abort before any move: %+v", sa.last)
	}
	mv := sa.last.Legal[0]
	sa.move(mv)
	st := sb.moves(1)
	if !st.Abortable {
		t.Error("black cannot abort before its first move")
	}
	sa.send(map[string]string{"type": "abort"})
	sa.expectError("only before your first move")
	sb.send(map[string]string{"type": "abort"})
	st = sa.until("aborted", func(st state) bool { return st.Status == store.Aborted })
	if st.Reason != live.ReasonAborted || st.Result != "*" {
		t.Errorf("aborted game: %s %s", st.Result, st.Reason)
	}
	sb.move(sb.last.Legal[0])
	sb.expectError("the game was aborted")
	// Aborted games leave no result: not in the archive.
	var list struct{ Games []wire.Summary }
	s.user().do("GET", "/api/games?status=finished", nil, &list)
	for _, g := range list.Games {
		if g.ID == id {
			t.Errorf("an aborted game is in the archive: %+v", g)
		}
	}
}

// TestAbortRacesFirstMove: a player's abort and first move sent at once
// are judged in one order, and what the clients see is what the
// database keeps.
func TestAbortRacesFirstMove(t *testing.T) {
	dir := t.TempDir()
	s := startServer(t, dir)
	a, _, sa, _, id := humanGame(t, s, nil)
	sa.move(sa.last.Legal[0])
	sa.send(map[string]string{"type": "abort"})
	st := sa.until("the move or the abort", func(st state) bool { return st.Status == store.Aborted || len(st.Moves) == 1 })
	time.Sleep(50 * time.Millisecond) // both are judged; the state below is the last
	st = a.state(id)
	switch {
	case st.Status == store.Aborted && len(st.Moves) == 0:
	case st.Status == store.Playing && len(st.Moves) == 1:
	default:
		t.Errorf("after a move and an abort at once: %s with %d moves", st.Status, len(st.Moves))
	}
	s.stop()
	s2 := startServer(t, dir)
	a.s = s2
	if again := a.state(id); again.Status != st.Status || len(again.Moves) != len(st.Moves) {
		t.Errorf("after a restart %s with %v, before %s with %v", again.Status, again.Moves, st.Status, st.Moves)
	}
}

func TestFirstMoveDeadline(t *testing.T) {
	s := startServer(t, t.TempDir(), shortBoard)
	_, _, sa, sb, _ := humanGame(t, s, map[string]any{"clock": "1+0"})
	if sa.last.FirstMoveBy == nil {
		t.Fatal("no first-move deadline in a live game with a clock")
	}
	sa.move(sa.last.Legal[0])
	st := sb.moves(1)
	if st.FirstMoveBy == nil || st.Clock.Running != nil {
		t.Fatalf("after white's first move: deadline %v, clock %+v", st.FirstMoveBy, st.Clock)
	}
	// Black never moves: the game is aborted, not lost.
	st = sa.until("aborted", func(st state) bool { return st.Status == store.Aborted })
	if st.Reason != live.ReasonNoFirstMove || st.Result != "*" {
		t.Errorf("game without black's first move: %s %s", st.Result, st.Reason)
	}
}

func TestTakebackHuman(t *testing.T) {
	dir := t.TempDir()
	s := startServer(t, dir)
	a, _, sa, sb, id := humanGame(t, s, map[string]any{"clock": "5+0"})
	if sa.last.TakebackAllowed {
		t.Error("a takeback offered before any move")
	}
	var played []string
	for i := range 3 {
		ws := []*sock{sa, sb}[i%2]
		mv := ws.moves(i).Legal[0]
		played = append(played, mv)
		ws.move(mv)
	}
	sb.moves(3)
	sb.send(map[string]string{"type": "takeback", "action": "accept"})
	sb.expectError("no request to accept")
	sa.send(map[string]string{"type": "takeback", "action": "offer"})
	st := sb.until("the request", func(st state) bool { return st.Takeback != nil })
	if st.Takeback.OfferedBy != 0 {
		t.Errorf("request by %d, want 0", st.Takeback.OfferedBy)
	}
	sa.send(map[string]string{"type": "takeback", "action": "offer"})
	sa.expectError("already asked")
	before := st.Clock.RemainingMS
	sb.send(map[string]string{"type": "takeback", "action": "accept"})
	st = sa.until("the takeback", func(st state) bool { return len(st.Moves) == 2 && st.Type == "state" })
	if !slices.Equal(st.Moves, played[:2]) || st.Turn != 0 || st.Takeback != nil {
		t.Errorf("after the takeback: moves %v turn %d request %+v; want %v", st.Moves, st.Turn, st.Takeback, played[:2])
	}
	if d := before[1] - st.Clock.RemainingMS[1]; d < 0 || d > 1000 {
		t.Errorf("black's clock %d ms before the takeback, %d after", before[1], st.Clock.RemainingMS[1])
	}
	// A move declines a pending request; a declined one can be asked again.
	sb.send(map[string]string{"type": "takeback", "action": "offer"})
	sa.until("black's request", func(st state) bool { return st.Takeback != nil && st.Takeback.OfferedBy == 1 })
	sa.send(map[string]string{"type": "takeback", "action": "decline"})
	sb.until("declined", func(st state) bool { return st.Takeback == nil })
	sb.send(map[string]string{"type": "takeback", "action": "offer"})
	sa.until("black's request again", func(st state) bool { return st.Takeback != nil })
	sa.move(sa.last.Legal[0])
	st = sb.until("the move", func(st state) bool { return len(st.Moves) == 3 })
	if st.Takeback != nil {
		t.Errorf("a move left the request pending: %+v", st.Takeback)
	}
	// The database keeps the game as taken back.
	s.stop()
	s2 := startServer(t, dir)
	a.s = s2
	if again := a.state(id); len(again.Moves) != 3 || !slices.Equal(again.Moves[:2], played[:2]) {
		t.Errorf("after a restart: %v", again.Moves)
	}
}

// TestTakebackRacesMove: a takeback request and the opponent's move sent
// at once: the move goes first and cancels the request, or the request
// goes first and the move cancels it; either way nothing is pending and
// the move is played.
func TestTakebackRacesMove(t *testing.T) {
	s := startServer(t, t.TempDir())
	a, _, sa, sb, id := humanGame(t, s, nil)
	sa.move(sa.last.Legal[0])
	st := sb.moves(1)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); sa.send(map[string]string{"type": "takeback", "action": "offer"}) }()
	go func() { defer wg.Done(); sb.move(st.Legal[0]) }()
	wg.Wait()
	sb.moves(2)
	time.Sleep(50 * time.Millisecond) // both judged
	got := a.state(id)
	switch {
	case len(got.Moves) == 2 && got.Takeback == nil: // request, then the move
	case len(got.Moves) == 2 && got.Takeback != nil && got.Takeback.OfferedBy == 0: // the move, then the request
	default:
		t.Errorf("after a request and a move at once: %d moves, request %+v", len(got.Moves), got.Takeback)
	}
}

func TestTakebackComputerAndRated(t *testing.T) {
	s := startServer(t, t.TempDir())
	u := s.user()
	c := u.create(map[string]any{"opponent": "computer", "level": 1, "color": "first"})
	ws := u.connect(c.ID)
	ws.move(ws.last.Legal[0])
	st := ws.moves(2) // the computer answered
	if !st.TakebackAllowed {
		t.Fatal("no takeback against the computer")
	}
	ws.send(map[string]string{"type": "takeback", "action": "offer"})
	st = ws.until("the takeback", func(st state) bool { return len(st.Moves) == 0 && st.Type == "state" })
	if st.Turn != 0 {
		t.Errorf("after a takeback against the computer it is %d's turn", st.Turn)
	}
	// The computer moves again once the human has.
	ws.move(st.Legal[0])
	ws.moves(2)

	// Rated games have none.
	a, b := s.signedUp("takebacka"), s.signedUp("takebackb")
	g := a.create(map[string]any{"game": "magneton", "opponent": "human", "color": "first", "rated": true, "public": true})
	if j, code := b.join(g.ID, map[string]any{}); code != http.StatusOK {
		t.Fatalf("join rated: %d %+v", code, j)
	}
	sa := a.connect(g.ID)
	sa.move(sa.last.Legal[0])
	st = sa.moves(1)
	if st.TakebackAllowed {
		t.Error("a takeback offered in a rated game")
	}
	sa.send(map[string]string{"type": "takeback", "action": "offer"})
	sa.expectError("not in a rated game")
}

func TestClaim(t *testing.T) {
	s := startServer(t, t.TempDir(), shortBoard)
	_, b, sa, sb, id := humanGame(t, s, nil)
	for i := range 2 {
		ws := []*sock{sa, sb}[i%2]
		ws.move(ws.moves(i).Legal[0])
	}
	sa.moves(2)
	sa.send(map[string]string{"type": "claim", "action": "win"})
	sa.expectError("your opponent is connected")
	sb.conn.Close(1000, "")
	st := sa.until("black away", func(st state) bool { return st.Sides[1].AwaySince != nil })
	if st.ClaimAfterMS != 300 {
		t.Errorf("claim_after_ms %d", st.ClaimAfterMS)
	}
	sa.send(map[string]string{"type": "claim", "action": "win"})
	sa.expectError("you can claim in")
	// The countdown is the client's; the server says when it may claim.
	deadline := time.Now().Add(5 * time.Second)
	for !sa.last.Sides[1].Claimable && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
		sa.send(map[string]string{"type": "sync"})
		sa.until("a sync", func(state) bool { return true })
		sa.next()
	}
	// A reconnect races the claim: whichever the server judges first wins.
	sb2 := b.connect(id)
	sa.send(map[string]string{"type": "claim", "action": "win"})
	sb2.until("connected", func(st state) bool { return st.Sides[1].Connected })
	time.Sleep(50 * time.Millisecond)
	if st := b.state(id); st.Status == store.Finished && (st.Result != "1-0" || st.Reason != "abandonment") {
		t.Errorf("claimed game: %s %s", st.Result, st.Reason)
	}
	// Gone again, for good: the claim of a draw ends the game.
	if b.state(id).Status == store.Playing {
		sa.until("black back", func(st state) bool { return st.Sides[1].Connected })
		sb2.conn.Close(1000, "")
		sa.until("black away", func(st state) bool { return st.Sides[1].AwaySince != nil })
		for {
			time.Sleep(100 * time.Millisecond)
			sa.send(map[string]string{"type": "claim", "action": "draw"})
			st, _, err := sa.read(5 * time.Second)
			for err == nil && st.Type != "error" && st.Status != store.Finished {
				st, _, err = sa.read(5 * time.Second)
			}
			if err != nil {
				t.Fatal(err)
			}
			if st.Status == store.Finished {
				if st.Result != "1/2-1/2" || st.Reason != "abandonment draw" {
					t.Errorf("draw claimed: %s %s", st.Result, st.Reason)
				}
				break
			}
			if !strings.Contains(st.Message, "you can claim in") && !strings.Contains(st.Message, "is connected") {
				t.Fatalf("claim refused: %s", st.Message)
			}
		}
	}
}

// TestChat: the players' and the spectators' rooms, the refusals of a
// line too long, empty or too soon, a first visitor's line, and the chat
// once the game is over and after a restart.
func TestChat(t *testing.T) {
	dir := t.TempDir()
	s := startServer(t, dir)
	a, _, sa, sb, id := humanGame(t, s, nil)
	if sa.last.ChatRoom != store.ChatPlayers || len(sa.last.Chat) != 0 {
		t.Fatalf("chat room %q, lines %v", sa.last.ChatRoom, sa.last.Chat)
	}
	spec := s.user()
	spec.do("GET", "/api/account", nil, nil) // a guest, with a name
	sc := spec.connect(id)
	if sc.last.ChatRoom != store.ChatSpectators {
		t.Errorf("spectator's room %q", sc.last.ChatRoom)
	}
	spectatorLine(t, sc)
	playersLines(t, a, id, sa, sb, sc)
	chatRefusals(t, sa, sb)
	firstVisitorLine(t, s, id)

	// Once the game is over the players see the spectators' room; the chat
	// is kept with the game.
	sa.send(map[string]string{"type": "abort"})
	st := sa.until("the full state after the end", func(st state) bool { return st.Status == store.Aborted && len(st.Chat) > 2 })
	if st.Chat[0].Room != store.ChatSpectators {
		t.Errorf("chat after the end: %+v", st.Chat)
	}
	s.stop()
	s2 := startServer(t, dir)
	a.s = s2
	if again := a.state(id); !slices.Equal(again.Chat, st.Chat) {
		t.Errorf("chat after a restart:\n%+v\nwant\n%+v", again.Chat, st.Chat)
	}
}

// nextChat reads messages until a chat line arrives, and returns it.
func (s *sock) nextChat() chatLine {
	s.t.Helper()
	for {
		st := s.next()
		if st.Type == "chat" {
			return *st.Line
		}
	}
}

// spectatorLine: a spectator's line goes to the spectators' room under
// the spectator's own name, whatever name it sends, its text as it is.
func spectatorLine(t *testing.T, sc *sock) {
	sc.send(map[string]string{"type": "chat", "text": "who wins? <script>x</script>", "name": "Impostor"})
	if l := sc.nextChat(); l.Room != store.ChatSpectators || l.Side != -1 || l.Name == "Impostor" || !strings.HasPrefix(l.Name, "Guest-") || l.Text != "who wins? <script>x</script>" {
		t.Errorf("spectator's line %+v", l)
	}
}

// playersLines: two players' lines at once are both kept, in one order,
// and the spectator sees them; the players never see the spectator's.
func playersLines(t *testing.T, a *user, id string, sa, sb, sc *sock) {
	// Two players at once: both kept, in one order.
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); sa.send(map[string]string{"type": "chat", "text": "good luck"}) }()
	go func() { defer wg.Done(); sb.send(map[string]string{"type": "chat", "text": "you too"}) }()
	wg.Wait()
	got := []string{sa.nextChat().Text, sa.nextChat().Text}
	slices.Sort(got)
	if !slices.Equal(got, []string{"good luck", "you too"}) {
		t.Errorf("players saw %v", got)
	}
	for range 2 {
		if l := sc.nextChat(); l.Room != store.ChatPlayers {
			t.Errorf("spectator saw %+v", l)
		}
	}
	// The players never saw the spectator's line.
	if st := a.state(id); len(st.Chat) != 2 {
		t.Errorf("players' view of the chat: %+v", st.Chat)
	}
}

// chatRefusals: a line too long or empty is refused, and a burst of lines
// is slowed.
func chatRefusals(t *testing.T, sa, sb *sock) {
	sa.send(map[string]string{"type": "chat", "text": strings.Repeat("x", 301)})
	for {
		// The refusal names itself for a front end in another language.
		if st := sa.next(); st.Type == "error" {
			if !strings.Contains(st.Message, "at most 300 characters (this one has 301)") || st.Code != "chat_long" || st.Vars["n"] != "301" || st.Vars["max"] != "300" {
				t.Errorf("the refusal of a long line: %q, code %q, vars %v", st.Message, st.Code, st.Vars)
			}
			break
		}
	}
	sa.send(map[string]string{"type": "chat", "text": "   "})
	sa.expectError("empty")
	// The pace: a burst, then refusals.
	refused := false
	for i := range chat.Burst + 1 {
		sb.send(map[string]string{"type": "chat", "text": "spam " + strings.Repeat("!", i)})
	}
	for !refused {
		st, _, err := sb.read(2 * time.Second)
		if err != nil {
			break
		}
		refused = st.Type == "error" && strings.Contains(st.Message, "too many messages") && st.Code == "chat_fast"
	}
	if !refused {
		t.Error("a burst of chat lines was not slowed")
	}
}

// firstVisitorLine: a first-time visitor's socket makes it a guest, which
// can chat at once, under the name its account then has.
func firstVisitorLine(t *testing.T, s *testServer, id string) {
	first := s.user()
	fs := first.connect(id)
	fs.send(map[string]string{"type": "chat", "text": "first visit"})
	var line chatLine
	for line.Text == "" {
		if st := fs.next(); st.Type == "chat" {
			line = *st.Line
		} else if st.Type == "error" {
			t.Fatalf("a first visitor's chat: %s", st.Message)
		}
	}
	var me struct{ Name string }
	first.do("GET", "/api/account", nil, &me)
	if !guestPattern.MatchString(line.Name) || me.Name != line.Name {
		t.Errorf("a first visitor chatted as %q and is %q after", line.Name, me.Name)
	}

}

func TestCorrespondence(t *testing.T) {
	dir := t.TempDir()
	s := startServer(t, dir)
	u := s.user()
	var bad struct{ Error string }
	if code := u.do("POST", "/api/games", map[string]any{"opponent": "human", "clock": "4d"}, &bad); code != http.StatusBadRequest || !strings.Contains(bad.Error, "1, 2, 3, 5, 7 or 14 days a move") {
		t.Errorf("clock 4d: %d %q", code, bad.Error)
	}
	if code := u.do("POST", "/api/games", map[string]any{"opponent": "computer", "clock": "3d"}, &bad); code != http.StatusBadRequest {
		t.Errorf("a correspondence game against the computer: %d", code)
	}
	a, b, sa, sb, id := humanGame(t, s, map[string]any{"clock": "1d"})
	if c := sa.last.Clock; c == nil || !c.PerMove || c.InitialMS != 24*3600*1000 {
		t.Fatalf("clock %+v", c)
	}
	for i := range 3 {
		ws := []*sock{sa, sb}[i%2]
		ws.move(ws.moves(i).Legal[0])
	}
	st := sb.moves(3)
	if st.Clock.RemainingMS[0] != 24*3600*1000 || *st.Clock.Running != 1 {
		t.Errorf("after white's second move: %+v", st.Clock)
	}
	// Black's games list says it is its turn; white's that it is not.
	var mine struct {
		Games []struct {
			ID       string
			Seat     int
			YourTurn bool `json:"your_turn"`
			Deadline *int64
			Clock    string
		}
	}
	b.do("GET", "/api/my-games", nil, &mine)
	if len(mine.Games) != 1 || mine.Games[0].ID != id || !mine.Games[0].YourTurn || mine.Games[0].Seat != 1 || mine.Games[0].Deadline == nil || mine.Games[0].Clock != "1d" {
		t.Errorf("black's games: %+v", mine.Games)
	}
	a.do("GET", "/api/my-games", nil, &mine)
	if len(mine.Games) != 1 || mine.Games[0].YourTurn {
		t.Errorf("white's games: %+v", mine.Games)
	}

	// Black's day runs out while the server is down: the game ends on time
	// when it is back.
	s.stop()
	ctx := context.Background()
	st2, err := store.Open(ctx, "sqlite:"+dir+"/games.db")
	if err != nil {
		t.Fatal(err)
	}
	row, err := st2.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	row.ClockAt -= 25 * 3600 * 1000
	if err := st2.UpdateGame(ctx, row); err != nil {
		t.Fatal(err)
	}
	st2.Close()
	s2 := startServer(t, dir)
	a.s = s2
	deadline := time.Now().Add(10 * time.Second)
	for a.state(id).Status != store.Finished && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if got := a.state(id); got.Status != store.Finished || got.Result != "1-0" || got.Reason != "time forfeit" {
		t.Errorf("after the restart: %s %s %s", got.Status, got.Result, got.Reason)
	}
}

// TestResignBeforeFirstMove: before one's first move a resignation
// aborts the game: no result, no rating change.
func TestResignBeforeFirstMove(t *testing.T) {
	s := startServer(t, t.TempDir())
	_, _, sa, sb, _ := humanGame(t, s, nil)
	sa.move(sa.last.Legal[0])
	sb.moves(1)
	sb.send(map[string]string{"type": "resign"})
	if st := sa.until("the end", func(st state) bool { return st.Status != store.Playing }); st.Status != store.Aborted || st.Result != "*" {
		t.Errorf("resigned before black's first move: %s %s %s", st.Status, st.Result, st.Reason)
	}
}

// TestIllegalMoveCode: an illegal move's refusal carries the rules
// engine's English sentence and, for other languages, its code, the move,
// and the reason as a code with its values; the reason does not say the
// move again (a page shows "{move}: {why}").
func TestIllegalMoveCode(t *testing.T) {
	s := startServer(t, t.TempDir())
	_, _, sa, _, _ := humanGame(t, s, nil)
	sa.move("zz9")
	for {
		if st := sa.next(); st.Type == "error" {
			if st.Code != "illegal_move" || st.Vars["move"] != "zz9" || st.Vars["why"] == "" || !strings.HasSuffix(st.Message, st.Vars["why"]) {
				t.Errorf("refusal %q, code %q, vars %v", st.Message, st.Code, st.Vars)
			}
			if strings.Contains(st.Vars["why"], "zz9") {
				t.Errorf("the reason %q says the move again", st.Vars["why"])
			}
			if st.Vars["why_code"] != "mg_not_drop_or_move" {
				t.Errorf("the reason's code is %q, want mg_not_drop_or_move", st.Vars["why_code"])
			}
			return
		}
	}
}
