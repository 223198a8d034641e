package server

import (
	"context"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/magneton-games/magneton/server/wire"
)

// noServerComputer turns the server's computer off.
func noServerComputer(cfg *Config) { cfg.NoServerComputer = true }

// expectCode reads messages until an error arrives and checks its code.
func (s *sock) expectCode(code string) {
	s.t.Helper()
	for {
		st := s.next()
		if st.Type == "error" {
			if st.Code != code {
				s.t.Errorf("error %q (%s), want the code %s", st.Message, st.Code, code)
			}
			return
		}
	}
}

// computerMove sends the computer's move mv for the position after ply
// moves, as the player's browser does.
func (s *sock) computerMove(mv string, ply int) {
	s.send(map[string]any{"type": "move", "move": mv, "computer": true, "ply": ply})
}

// playComputer plays the computer's first legal move for the position
// after ply moves, as the browser would, and waits for it.
func (s *sock) playComputer(ply int) state {
	s.t.Helper()
	st := s.moves(ply)
	s.computerMove(st.Legal[0], ply)
	return s.moves(ply + 1)
}

// browserGame makes a game against the computer at level 3 whose
// computer thinks in the player's browser, the player first, and
// connects the player.
func browserGame(t *testing.T, s *testServer, extra map[string]any) (*user, *sock, string) {
	t.Helper()
	u := s.user()
	req := map[string]any{"game": "magneton", "opponent": "computer", "level": 3, "color": "first", "computer": "browser"}
	for k, v := range extra {
		req[k] = v
	}
	c := u.create(req)
	return u, u.connect(c.ID), c.ID
}

// TestBrowserComputerCreate: the create request says where the computer
// thinks; a server whose computer is off refuses games for it and makes
// those for the browser; the states tell the page.
func TestBrowserComputerCreate(t *testing.T) {
	for _, tc := range []struct {
		name   string
		tune   []func(*Config)
		body   map[string]any
		status int
		code   string // the refusal's, "" for none
		where  string // the state's computer.where once made
	}{
		{"the server's, by default", nil, map[string]any{"opponent": "computer"}, http.StatusCreated, "", "server"},
		{"the server's", nil, map[string]any{"opponent": "computer", "computer": "server"}, http.StatusCreated, "", "server"},
		{"the browser's", nil, map[string]any{"opponent": "computer", "computer": "browser"}, http.StatusCreated, "", "browser"},
		{"nowhere", nil, map[string]any{"opponent": "computer", "computer": "moon"}, http.StatusBadRequest, "", ""},
		{"against a person", nil, map[string]any{"opponent": "human", "computer": "browser"}, http.StatusBadRequest, "", ""},
		{"rated", nil, map[string]any{"opponent": "computer", "computer": "browser", "rated": true}, http.StatusBadRequest, "rated_computer", ""},
		{"the server's when off", []func(*Config){noServerComputer}, map[string]any{"opponent": "computer", "computer": "server"}, http.StatusConflict, "server_computer_off", ""},
		{"unsaid when off", []func(*Config){noServerComputer}, map[string]any{"opponent": "computer"}, http.StatusConflict, "server_computer_off", ""},
		{"the browser's when off", []func(*Config){noServerComputer}, map[string]any{"opponent": "computer", "computer": "browser"}, http.StatusCreated, "", "browser"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := startServer(t, t.TempDir(), tc.tune...)
			u := s.user()
			var meta struct {
				ServerComputer *bool `json:"server_computer"`
			}
			if u.do("GET", "/api/meta", nil, &meta); meta.ServerComputer == nil || *meta.ServerComputer == s.srv.cfg.NoServerComputer {
				t.Errorf("the meta's server_computer %v, want %v", meta.ServerComputer, !s.srv.cfg.NoServerComputer)
			}
			var c struct {
				wire.Created
				Error, Code string
			}
			status := u.do("POST", "/api/games", tc.body, &c)
			if status != tc.status || c.Code != tc.code || (status != http.StatusCreated && c.Error == "") {
				t.Fatalf("%d %+v, want %d %q", status, c, tc.status, tc.code)
			}
			if status != http.StatusCreated {
				return
			}
			st := u.connect(c.ID).last
			cp := st.Computer
			if cp == nil || cp.Where != tc.where || cp.Level != 3 || cp.Seat != 1-*st.Seat || cp.MoveTimeMS != 20 || cp.Fallback == s.srv.cfg.NoServerComputer {
				t.Errorf("the state's computer %+v, want %s at level 3 in 20 ms", cp, tc.where)
			}
		})
	}
}

// TestBrowserComputerMoves: the server never searches for a browser's
// computer; the player's socket sends its moves, which are checked as any
// and recorded; a move sent twice or for another position is refused
// (computer_stale), and nobody but the player may send one.
func TestBrowserComputerMoves(t *testing.T) {
	s := startServer(t, t.TempDir())
	u, ws, id := browserGame(t, s, nil)
	ws.move(ws.last.Legal[0])
	ws.moves(1)
	ws.quiet(300 * time.Millisecond) // 20 ms a move: the server's computer would have answered
	st := ws.last
	if st.Turn != 1 || len(st.Moves) != 1 {
		t.Fatalf("the server moved for the browser's computer: %v", st.Moves)
	}
	tab := u.connect(id) // the same player's second tab
	spectator := s.user().connect(id)
	spectator.computerMove(st.Legal[0], 1)
	spectator.expectCode("computer_not_yours")
	spectator.send(map[string]any{"type": "computer", "where": "server"})
	spectator.expectCode("computer_not_yours")
	ws.computerMove("zz9", 1)
	ws.expectCode("illegal_move")
	ws.send(map[string]any{"type": "move", "move": st.Legal[0], "computer": true}) // no ply
	ws.expectError("ply")
	ws.computerMove(st.Legal[0], 0)
	ws.expectCode("computer_stale")
	ws.send(map[string]any{"type": "move", "move": st.Legal[0], "computer": true, "ply": 1, "position": "another"})
	ws.expectCode("computer_stale")
	ws.computerMove(st.Legal[0], 1)
	after := ws.moves(2)
	tab.moves(2)
	tab.computerMove(st.Legal[0], 1) // the other tab's answer, late
	tab.expectCode("computer_stale")
	ws.move(after.Legal[0])
	ws.moves(3)
	ws.computerMove(st.Legal[0], 1)
	ws.expectCode("computer_stale")
	ws.playComputer(3)
	ws.send(map[string]string{"type": "resign"})
	over := ws.until("the end", func(st state) bool { return st.Status == "finished" })
	rec := u.state(id)
	row, err := s.st.Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	moves, err := s.st.Moves(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	var stored []string
	for _, m := range moves {
		stored = append(stored, m.Move)
	}
	if len(over.Moves) != 4 || !slices.Equal(rec.Moves, over.Moves) || !slices.Equal(stored, over.Moves) || row.ComputerPlace != "browser" || row.Result != "0-1" {
		t.Errorf("recorded %v (stored %v, place %q, result %s), played %v", rec.Moves, stored, row.ComputerPlace, row.Result, over.Moves)
	}
}

// TestBrowserComputerClock: a browser's computer's clock runs from the
// player's move, with no wait for a core, and its flag falls when no move
// comes.
func TestBrowserComputerClock(t *testing.T) {
	s := startServer(t, t.TempDir())
	_, ws, _ := browserGame(t, s, map[string]any{"clock": "0.01+0"}) // 600 ms
	ws.move(ws.last.Legal[0])
	ws.playComputer(1)
	ws.move(ws.moves(2).Legal[0])
	st := ws.moves(3)
	if st.Clock == nil || st.Clock.Running == nil || *st.Clock.Running != 1 {
		t.Fatalf("the computer's clock after the player's move: %+v", st.Clock)
	}
	st = ws.until("the computer's flag", func(st state) bool { return st.Status == "finished" })
	if st.Result != "1-0" || st.Reason != "time forfeit" || st.Clock.RemainingMS[1] != 0 {
		t.Errorf("after the computer's flag: %s %s %+v", st.Result, st.Reason, st.Clock)
	}
	ws.computerMove("a1", 3)
	ws.expectCode("computer_stale")
}

// TestBrowserComputerTakeback: a takeback while the browser thinks
// brings back the player's turn, and the browser's late answer is
// refused; the game goes on.
func TestBrowserComputerTakeback(t *testing.T) {
	s := startServer(t, t.TempDir(), noServerComputer)
	_, ws, _ := browserGame(t, s, nil)
	ws.move(ws.last.Legal[0])
	ws.playComputer(1)
	ws.move(ws.moves(2).Legal[0])
	late := ws.moves(3).Legal[0]
	ws.send(map[string]string{"type": "takeback", "action": "offer"})
	st := ws.until("the takeback", func(st state) bool { return len(st.Moves) == 2 })
	if st.Turn != 0 || st.Computer == nil || st.Computer.Where != "browser" {
		t.Errorf("after the takeback: turn %d, computer %+v", st.Turn, st.Computer)
	}
	ws.computerMove(late, 3)
	ws.expectCode("computer_stale")
	ws.move(st.Legal[len(st.Legal)-1])
	ws.playComputer(3)
}

// TestBrowserComputerHandOver: the player's page gives the computer to
// the server when its engine fails, and the server plays on; a server
// whose computer is off refuses.
func TestBrowserComputerHandOver(t *testing.T) {
	for _, tc := range []struct {
		name string
		tune []func(*Config)
		code string
	}{
		{"to the server", nil, ""},
		{"when the server's computer is off", []func(*Config){noServerComputer}, "server_computer_off"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			s := startServer(t, dir, tc.tune...)
			u, ws, id := browserGame(t, s, nil)
			ws.move(ws.last.Legal[0])
			ws.moves(1)
			ws.send(map[string]any{"type": "computer", "where": "elsewhere"})
			ws.expectError("want")
			ws.send(map[string]any{"type": "computer", "where": "server"})
			if tc.code != "" {
				ws.expectCode(tc.code)
				return
			}
			st := ws.moves(2) // the server's computer answers
			if st.Computer == nil || st.Computer.Where != "server" {
				t.Errorf("after the hand-over: %+v", st.Computer)
			}
			ws.send(map[string]any{"type": "computer", "where": "server"}) // again: nothing to do
			ws.computerMove(st.Legal[0], 2)
			ws.expectCode("computer_on_server")
			// The place is the game's, through a restart.
			s.stop()
			s2 := startServer(t, dir)
			u.s = s2
			if after := u.state(id); after.Computer == nil || after.Computer.Where != "server" {
				t.Errorf("after a restart: %+v", after.Computer)
			}
		})
	}
}
