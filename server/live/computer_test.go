package live

import (
	"testing"
	"time"

	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/store"
)

// inBrowser makes a computer game's computer think in its player's
// browser.
func inBrowser(r *store.Game) { r.ComputerPlace = ComputerBrowser }

// offSet are the settings of a server whose computer is off.
var offSet = func() Settings {
	s := set
	s.NoServerComputer = true
	return s
}()

// loadOff is load on a server whose computer is off.
func loadOff(t *testing.T, r *store.Game, moves ...string) Game {
	t.Helper()
	g, err := New(r, offSet, t0)
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range moves {
		g = apply(t, g, Event{Kind: Move, Seat: int(g.hist.Position().Side()), Move: m}, t0.Add(time.Duration(i+1)*time.Second))
	}
	return g
}

// computerMove is the computer's move mv for the position after ply
// moves, as its player's browser sends it.
func computerMove(mv string, ply int) Event {
	return Event{Kind: Move, Seat: 0, Move: mv, Computer: true, Ply: ply}
}

// browserCases are the cases of a computer that thinks in the browser:
// its moves, who may send them, its clock and its hand-over to the
// server.
var browserCases = []applyCase{
	{name: "the browser's move for the computer", game: func(t *testing.T) Game { return load(t, row(t, vsComputer(1), inBrowser), "d4") },
		ev: computerMove("e5", 1), at: 2 * time.Second, save: SaveMove, send: SendUpdate, check: func(t *testing.T, g Game, fx Effects) {
			if g.Ply() != 2 || fx.Move.Move != "e5" || fx.Move.Ply != 1 || g.Row().Position != g.Positions()[1] || fx.Computer {
				t.Errorf("after the computer's e5: ply %d, saved %+v, computer to move %v", g.Ply(), fx.Move, fx.Computer)
			}
		}},
	{name: "the move for the position given", game: func(t *testing.T) Game { return load(t, row(t, vsComputer(1), inBrowser), "d4") },
		ev: func() Event {
			e := computerMove("e5", 1)
			e.Position = positionAfter("d4")
			return e
		}(), save: SaveMove, send: SendUpdate},
	{name: "a move for another position", game: func(t *testing.T) Game { return load(t, row(t, vsComputer(1), inBrowser), "d4") },
		ev: func() Event {
			e := computerMove("e5", 1)
			e.Position = positionAfter("a1") // the position after another first move
			return e
		}(), code: "computer_stale"},
	{name: "a move for an earlier move", game: func(t *testing.T) Game { return load(t, row(t, vsComputer(1), inBrowser), "d4", "e5", "a1") },
		ev: computerMove("b2", 1), code: "computer_stale"},
	{name: "a move sent twice", game: func(t *testing.T) Game { return load(t, row(t, vsComputer(1), inBrowser), "d4", "e5") },
		ev: computerMove("e5", 1), code: "computer_stale"},
	{name: "a computer's move on the player's turn", game: func(t *testing.T) Game { return load(t, row(t, vsComputer(1), inBrowser), "d4", "e5") },
		ev: computerMove("a1", 2), code: "computer_stale"},
	{name: "a computer's move after the end", game: func(t *testing.T) Game {
		return apply(t, load(t, row(t, vsComputer(1), inBrowser), "d4", "e5", "a1"), Event{Kind: Resign, Seat: 0}, t0)
	}, ev: computerMove("b2", 3), code: "computer_stale"},
	{name: "an illegal computer's move", game: func(t *testing.T) Game { return load(t, row(t, vsComputer(1), inBrowser), "d4") },
		ev: computerMove("d4", 1), code: "illegal_move"},
	{name: "the computer's move from a spectator", game: func(t *testing.T) Game { return load(t, row(t, vsComputer(1), inBrowser), "d4") },
		ev: Event{Kind: Move, Seat: -1, Move: "e5", Computer: true, Ply: 1}, code: "computer_not_yours"},
	{name: "the computer's move when the server plays it", game: func(t *testing.T) Game { return load(t, row(t, vsComputer(1)), "d4") },
		ev: computerMove("e5", 1), code: "computer_on_server"},
	{name: "the computer's move in a game between people", game: func(t *testing.T) Game { return load(t, row(t), "d4") },
		ev: computerMove("e5", 1), code: "no_computer"},
	{name: "the computer's clock runs from the player's move and takes its increment",
		game: func(t *testing.T) Game {
			return load(t, row(t, clock(time.Minute, 2*time.Second), vsComputer(1), inBrowser), "d4", "e5", "a1")
		},
		ev: computerMove("b2", 3), at: 8 * time.Second, save: SaveMove, send: SendUpdate, check: func(t *testing.T, g Game, fx Effects) {
			// From a1 (t0+3s) to its move (t0+8s), with 2 s back.
			if got := g.Row().Remaining[1]; got != 57*time.Second || fx.Move.Clock != got {
				t.Errorf("the computer's clock after its move: %v, want 57s", got)
			}
		}},
	{name: "the computer's flag falls before its move comes",
		game: func(t *testing.T) Game {
			return load(t, row(t, clock(time.Minute, 0), vsComputer(1), inBrowser), "d4", "e5", "a1")
		},
		ev: computerMove("b2", 3), at: 3*time.Second + time.Minute + time.Millisecond,
		code: "computer_time_up", save: SaveRow, send: SendUpdate, ended: true, check: func(t *testing.T, g Game, _ Effects) {
			if r := g.Row(); r.Result != "1-0" || r.Reason != game.Timeout.String() {
				t.Errorf("after the computer's flag: %s %s", r.Result, r.Reason)
			}
		}},
	{name: "a takeback while the browser thinks", game: func(t *testing.T) Game { return load(t, row(t, vsComputer(1), inBrowser), "d4", "e5", "a1") },
		ev: Event{Kind: Takeback, Seat: 0, Action: "offer"}, save: SaveTakeBack, send: SendState, check: func(t *testing.T, g Game, fx Effects) {
			if g.Ply() != 2 || fx.Computer || !g.BrowserComputer() {
				t.Errorf("after the takeback: ply %d, server's computer to move %v, browser's %v", g.Ply(), fx.Computer, g.BrowserComputer())
			}
			if _, _, err := g.Apply(computerMove("b2", 3), t0); code(err) != "computer_stale" {
				t.Errorf("the browser's answer for the position taken back: %v, want computer_stale", err)
			}
		}},
	{name: "the hand-over to the server", game: func(t *testing.T) Game { return load(t, row(t, vsComputer(1), inBrowser), "d4") },
		ev: Event{Kind: HandOver, Seat: 0, Where: ComputerServer}, save: SaveRow, send: SendUpdate, check: func(t *testing.T, g Game, fx Effects) {
			if g.BrowserComputer() || g.Row().ComputerPlace != ComputerServer || !fx.Computer || !g.Needed() {
				t.Errorf("after the hand-over: place %q, server's computer to move %v, needed %v", g.Row().ComputerPlace, fx.Computer, g.Needed())
			}
		}},
	{name: "the hand-over keeps the time the browser spent", game: func(t *testing.T) Game {
		return load(t, row(t, vsComputer(1), inBrowser, clock(time.Minute, 0)), "d4", "e5", "a1")
	}, ev: Event{Kind: HandOver, Seat: 0, Where: ComputerServer}, at: 10 * time.Second, save: SaveRow, send: SendUpdate,
		check: func(t *testing.T, g Game, fx Effects) {
			// From a1 (t0+3s) to the hand-over (t0+10s).
			if r := g.Row(); r.Remaining[1] != 53*time.Second || r.ClockAt != t0.Add(10*time.Second).UnixMilli() || !fx.Computer {
				t.Errorf("after the hand-over: remaining %v at %d", r.Remaining, r.ClockAt)
			}
		}},
	{name: "the hand-over of a computer on the server already", game: func(t *testing.T) Game { return load(t, row(t, vsComputer(1)), "d4") },
		ev: Event{Kind: HandOver, Seat: 0, Where: ComputerServer}},
	{name: "the hand-over when the server's computer is off", game: func(t *testing.T) Game { return loadOff(t, row(t, vsComputer(1), inBrowser), "d4") },
		ev: Event{Kind: HandOver, Seat: 0, Where: ComputerServer}, code: "server_computer_off"},
	{name: "the hand-over by a spectator", game: func(t *testing.T) Game { return load(t, row(t, vsComputer(1), inBrowser), "d4") },
		ev: Event{Kind: HandOver, Seat: -1, Where: ComputerServer}, code: "computer_not_yours"},
	{name: "the hand-over to elsewhere", game: func(t *testing.T) Game { return load(t, row(t, vsComputer(1), inBrowser), "d4") },
		ev: Event{Kind: HandOver, Seat: 0, Where: "moon"}, code: "-"},
	{name: "the hand-over in a game between people", game: func(t *testing.T) Game { return load(t, row(t), "d4") },
		ev: Event{Kind: HandOver, Seat: 0, Where: ComputerServer}, code: "no_computer"},
	{name: "the hand-over after the end", game: func(t *testing.T) Game {
		return apply(t, load(t, row(t, vsComputer(1), inBrowser), "d4", "e5"), Event{Kind: Resign, Seat: 0}, t0)
	}, ev: Event{Kind: HandOver, Seat: 0, Where: ComputerServer}, code: "game_over"},
	{name: "the rematch of a browser's game is the browser's", game: func(t *testing.T) Game {
		return apply(t, loadOff(t, row(t, vsComputer(1), inBrowser), "d4", "e5"), Event{Kind: Resign, Seat: 0}, t0)
	}, ev: Event{Kind: Rematch, Seat: 0, Action: "offer", NewID: "BBBBBBBBBBBBBBBB"}, save: SaveRematch, send: SendUpdate,
		check: func(t *testing.T, g Game, fx Effects) {
			if fx.Rematch == nil || fx.Rematch.ComputerPlace != ComputerBrowser {
				t.Errorf("the rematch: %+v", fx.Rematch)
			}
		}},
	{name: "no rematch of a server's game when its computer is off", game: func(t *testing.T) Game {
		return apply(t, loadOff(t, row(t, vsComputer(1)), "d4", "e5"), Event{Kind: Resign, Seat: 0}, t0)
	}, ev: Event{Kind: Rematch, Seat: 0, Action: "offer", NewID: "BBBBBBBBBBBBBBBB"}, code: "server_computer_off"},
}

// positionAfter is Magneton's position after the moves from the start
// ("no position" if they cannot be played, which no case expects).
func positionAfter(moves ...string) string {
	rules, err := games.Rules("magneton")
	if err != nil {
		return "no position"
	}
	st := rules.Start()
	for _, m := range moves {
		if st, err = st.Play(m); err != nil {
			return "no position"
		}
	}
	return st.String()
}

// TestBrowserComputer checks the events of a game whose computer thinks
// in its player's browser (browserCases).
func TestBrowserComputer(t *testing.T) {
	runApply(t, browserCases)
}

// TestComputerView: the states say where the computer thinks, its level
// and, without a clock, its time a move as the server's computer takes
// it; and whether the server may take it over.
func TestComputerView(t *testing.T) {
	withTime := set
	withTime.ComputerMoveTime = func(level int) time.Duration { return time.Duration(level) * 100 * time.Millisecond }
	for _, tc := range []struct {
		name  string
		set   Settings
		row   *store.Game
		want  string // where, or "" for no computer
		ms    int64
		falls bool // fallback
	}{
		{"a browser's computer", withTime, row(t, vsComputer(1), inBrowser), ComputerBrowser, 300, true},
		{"the server's computer", withTime, row(t, vsComputer(0)), ComputerServer, 300, true},
		{"with a clock", withTime, row(t, vsComputer(1), inBrowser, clock(time.Minute, 0)), ComputerBrowser, 0, true},
		{"the server's computer off", offSet, row(t, vsComputer(1), inBrowser), ComputerBrowser, 0, false},
		{"a game between people", withTime, row(t), "", 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := New(tc.row, tc.set, t0)
			if err != nil {
				t.Fatal(err)
			}
			c := g.View(0, t0, [2]bool{true, true}, "players").Computer
			switch {
			case tc.want == "" && c != nil:
				t.Errorf("a computer %+v in a game between people", c)
			case tc.want == "":
			case c == nil:
				t.Errorf("no computer, want %s", tc.want)
			case c.Where != tc.want || c.Level != 3 || c.Seat != g.Computer() || c.MoveTimeMS != tc.ms || c.Fallback != tc.falls:
				t.Errorf("computer %+v, want %s at level 3, seat %d, %d ms, fallback %v", c, tc.want, g.Computer(), tc.ms, tc.falls)
			}
		})
	}
}

// TestBrowserComputerNeeds: a game whose browser's computer is to move,
// without a clock, needs no owner with nobody watching (nobody moves it
// then); with a clock it does, its clock running.
func TestBrowserComputerNeeds(t *testing.T) {
	if g := load(t, row(t, vsComputer(1), inBrowser), "d4"); g.Needed() || g.ServerToMove() || !g.ComputerToMove() {
		t.Errorf("unclocked: needed %v, server to move %v", g.Needed(), g.ServerToMove())
	}
	if g := load(t, row(t, vsComputer(1)), "d4"); !g.Needed() || !g.ServerToMove() {
		t.Errorf("the server's: needed %v, server to move %v", g.Needed(), g.ServerToMove())
	}
	g := load(t, row(t, vsComputer(1), inBrowser, clock(time.Minute, 0)), "d4", "e5", "a1")
	if !g.Needed() || g.Running() != 1 {
		t.Errorf("clocked: needed %v, running %d", g.Needed(), g.Running())
	}
	if at, ok := g.Timer(t0.Add(3 * time.Second)); !ok || !at.Equal(t0.Add(63*time.Second)) {
		t.Errorf("the computer's flag at %v %v, want a minute after a1", at, ok)
	}
}
