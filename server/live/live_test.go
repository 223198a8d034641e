package live

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/rating"
	"github.com/magneton-games/magneton/server/wire"
	"github.com/magneton-games/magneton/store"
)

var (
	t0  = time.UnixMilli(1_700_000_000_000)
	set = Settings{MaxPlies: 1000, FirstMoveTimeout: 30 * time.Second, ClaimAfter: 60 * time.Second, Expire: 24 * time.Hour}
)

// row is a Magneton game between two people being played, White (seat 0)
// and Black (seat 1), changed by opts.
func row(t *testing.T, opts ...func(*store.Game)) *store.Game {
	t.Helper()
	rules, err := games.Rules("magneton")
	if err != nil {
		t.Fatal(err)
	}
	start := rules.Start().String()
	r := &store.Game{
		ID: "AAAAAAAAAAAAAAAA", Game: "magneton", Rules: rules.Settings().String(), Start: start, Position: start,
		Opponent: OpponentHuman, Players: [2]string{"ann", "bob"}, Seats: [2]string{"seat0", "seat1"},
		Users: [2]string{"u-ann", "u-bob"}, Public: true, Status: store.Playing, Result: "*",
		DrawOffer: -1, RematchBy: -1, TakebackBy: -1, ClockAt: t0.UnixMilli(), Created: t0.UnixMilli(), Updated: t0.UnixMilli(),
	}
	for _, o := range opts {
		o(r)
	}
	return r
}

func clock(initial, inc time.Duration) func(*store.Game) {
	return func(r *store.Game) {
		r.ClockInitial, r.ClockIncrement, r.Remaining = initial, inc, [2]time.Duration{initial, initial}
	}
}

func vsComputer(seat int) func(*store.Game) {
	return func(r *store.Game) {
		r.Opponent, r.Level = OpponentComputer, 3
		r.Seats[seat], r.Users[seat], r.Players[seat] = "", "", ComputerLabel(3)
	}
}

func waiting(r *store.Game) {
	r.Status, r.Seats[1], r.Users[1], r.Players[1], r.Invite = store.Waiting, "", "", "", "invite-hash"
}

// load is the game of a row after moves, or the test fails.
func load(t *testing.T, r *store.Game, moves ...string) Game {
	t.Helper()
	g, err := New(r, set, t0)
	if err != nil {
		t.Fatal(err)
	}
	at := t0
	for _, m := range moves {
		at = at.Add(time.Second)
		g = apply(t, g, Event{Kind: Move, Seat: int(g.hist.Position().Side()), Move: m}, at)
	}
	return g
}

// apply applies an event that must succeed.
func apply(t *testing.T, g Game, ev Event, now time.Time) Game {
	t.Helper()
	next, _, err := g.Apply(ev, now)
	if err != nil {
		t.Fatalf("%s %+v: %v", ev.Kind, ev, err)
	}
	return next
}

func code(err error) string {
	var rf wire.Refusal
	if errors.As(err, &rf) {
		return rf.Code
	}
	if err != nil {
		return "error: " + err.Error()
	}
	return ""
}

// applyCase is an event applied to a game, and its expected outcome.
type applyCase struct {
	name  string
	game  func(t *testing.T) Game // the game the event is applied to
	ev    Event
	at    time.Duration // after t0
	code  string        // the refusal's code ("" for none; "-" for a refusal without a code)
	save  Save
	send  Send
	ended bool
	// check, if not nil, checks the game after the event and the effects.
	check func(t *testing.T, g Game, fx Effects)
}

// applyCases are the cases of TestApply.
var applyCases = []applyCase{
	{name: "a move", game: func(t *testing.T) Game { return load(t, row(t)) }, ev: Event{Kind: Move, Seat: 0, Move: "d4"},
		save: SaveMove, send: SendUpdate, check: func(t *testing.T, g Game, fx Effects) {
			if g.Ply() != 1 || g.Row().Moves != 1 || fx.Move.Move != "d4" || fx.Move.Ply != 0 || len(g.Positions()) != 1 || g.Row().Position != g.Positions()[0] {
				t.Errorf("after d4: ply %d, row moves %d, saved move %+v, positions %v", g.Ply(), g.Row().Moves, fx.Move, g.Positions())
			}
		}},
	{name: "not your turn", game: func(t *testing.T) Game { return load(t, row(t)) }, ev: Event{Kind: Move, Seat: 1, Move: "d4"}, code: "not_your_turn"},
	{name: "an illegal move", game: func(t *testing.T) Game { return load(t, row(t), "d4") }, ev: Event{Kind: Move, Seat: 1, Move: "d4"}, code: "illegal_move"},
	{name: "no move", game: func(t *testing.T) Game { return load(t, row(t)) }, ev: Event{Kind: Move, Seat: 0}, code: "-"},
	{name: "a move on a waiting game", game: func(t *testing.T) Game { return load(t, row(t, waiting)) }, ev: Event{Kind: Move, Seat: 0, Move: "d4"}, code: "not_started"},
	{name: "a move when the time is up ends the game and is refused",
		game: func(t *testing.T) Game { return load(t, row(t, clock(time.Minute, 0)), "d4", "e5") },
		ev:   Event{Kind: Move, Seat: 0, Move: "a1"}, at: 2*time.Second + time.Minute + time.Millisecond,
		code: "time_up", save: SaveRow, send: SendUpdate, ended: true, check: func(t *testing.T, g Game, _ Effects) {
			if r := g.Row(); r.Result != "0-1" || r.Reason != game.Timeout.String() || r.Remaining[0] != 0 {
				t.Errorf("after the flag: %s %s %v", r.Result, r.Reason, r.Remaining)
			}
		}},
	{name: "the increment comes after the first moves",
		game: func(t *testing.T) Game { return load(t, row(t, clock(time.Minute, 2*time.Second)), "d4", "e5") },
		ev:   Event{Kind: Move, Seat: 0, Move: "a1"}, at: 12 * time.Second,
		save: SaveMove, send: SendUpdate, check: func(t *testing.T, g Game, fx Effects) {
			// White's clock ran from e5 (t0+2s) to a1 (t0+12s): 60-10+2.
			if got := g.Row().Remaining[0]; got != 52*time.Second || fx.Move.Clock != got {
				t.Errorf("White's clock after a1: %v (move saved with %v), want 52s", got, fx.Move.Clock)
			}
			if g.Running() != 1 || !fx.HasTimer || !fx.Timer.Equal(t0.Add(12*time.Second+time.Minute)) {
				t.Errorf("running %d, timer %v %v", g.Running(), fx.HasTimer, fx.Timer)
			}
		}},
	{name: "resign", game: func(t *testing.T) Game { return load(t, row(t), "d4", "e5") }, ev: Event{Kind: Resign, Seat: 1},
		save: SaveRow, send: SendUpdate, ended: true, check: func(t *testing.T, g Game, _ Effects) {
			if r := g.Row(); r.Status != store.Finished || r.Result != "1-0" || r.Reason != "resignation" {
				t.Errorf("after resigning: %s %s %s", r.Status, r.Result, r.Reason)
			}
		}},
	{name: "resigning before one's first move aborts", game: func(t *testing.T) Game { return load(t, row(t), "d4") }, ev: Event{Kind: Resign, Seat: 1},
		save: SaveRow, send: SendUpdate, ended: true, check: func(t *testing.T, g Game, _ Effects) {
			if r := g.Row(); r.Status != store.Aborted || r.Reason != ReasonAborted || r.Result != "*" {
				t.Errorf("after resigning at once: %s %s %s", r.Status, r.Result, r.Reason)
			}
		}},
	{name: "abort too late", game: func(t *testing.T) Game { return load(t, row(t), "d4") }, ev: Event{Kind: Abort, Seat: 0}, code: "abort_late"},
	{name: "a draw offer", game: func(t *testing.T) Game { return load(t, row(t), "d4") }, ev: Event{Kind: Draw, Seat: 0, Action: "offer"},
		save: SaveRow, send: SendUpdate, check: func(t *testing.T, g Game, fx Effects) {
			if g.Row().DrawOffer != 0 || fx.Then != nil {
				t.Errorf("draw offer %d, then %+v", g.Row().DrawOffer, fx.Then)
			}
		}},
	{name: "the computer declines a draw", game: func(t *testing.T) Game { return load(t, row(t, vsComputer(1)), "d4") }, ev: Event{Kind: Draw, Seat: 0, Action: "offer"},
		save: SaveRow, send: SendUpdate, check: func(t *testing.T, g Game, fx Effects) {
			if fx.Then == nil || *fx.Then != (Event{Kind: Draw, Seat: 1, Action: "decline"}) {
				t.Fatalf("then: %+v", fx.Then)
			}
			if after := apply(t, g, *fx.Then, t0); after.Row().DrawOffer != -1 {
				t.Errorf("after the computer declined: offer %d", after.Row().DrawOffer)
			}
		}},
	{name: "accepting a draw that was not offered", game: func(t *testing.T) Game { return load(t, row(t), "d4") }, ev: Event{Kind: Draw, Seat: 1, Action: "accept"}, code: "no_draw_offer"},
	{name: "offering back accepts",
		game: func(t *testing.T) Game {
			return apply(t, load(t, row(t), "d4"), Event{Kind: Draw, Seat: 0, Action: "offer"}, t0)
		},
		ev: Event{Kind: Draw, Seat: 1, Action: "offer"}, save: SaveRow, send: SendUpdate, ended: true,
		check: func(t *testing.T, g Game, _ Effects) {
			if r := g.Row(); r.Result != "1/2-1/2" || r.Reason != "agreement" || r.DrawOffer != -1 {
				t.Errorf("after both offered: %s %s offer %d", r.Result, r.Reason, r.DrawOffer)
			}
		}},
	{name: "a move declines the opponent's draw offer",
		game: func(t *testing.T) Game {
			return apply(t, load(t, row(t), "d4"), Event{Kind: Draw, Seat: 0, Action: "offer"}, t0)
		},
		ev: Event{Kind: Move, Seat: 1, Move: "e5"}, save: SaveMove, send: SendUpdate,
		check: func(t *testing.T, g Game, _ Effects) {
			if g.Row().DrawOffer != -1 {
				t.Errorf("offer after the reply: %d", g.Row().DrawOffer)
			}
		}},
	{name: "the computer grants a takeback at once", game: func(t *testing.T) Game { return load(t, row(t, vsComputer(1)), "d4", "e5", "a1") },
		ev: Event{Kind: Takeback, Seat: 0, Action: "offer"}, save: SaveTakeBack, send: SendState,
		check: func(t *testing.T, g Game, fx Effects) {
			if g.Ply() != 2 || fx.FromPly != 2 || !fx.StopComputer || len(g.Positions()) != 2 || fx.Computer {
				t.Errorf("after the takeback: ply %d from %d stop %v positions %d computer %v", g.Ply(), fx.FromPly, fx.StopComputer, len(g.Positions()), fx.Computer)
			}
		}},
	{name: "no takeback in a rated game", game: func(t *testing.T) Game { return load(t, row(t, func(r *store.Game) { r.Rated = true }), "d4") },
		ev: Event{Kind: Takeback, Seat: 0, Action: "offer"}, code: "takeback_rated"},
	{name: "a takeback request", game: func(t *testing.T) Game { return load(t, row(t), "d4") },
		ev: Event{Kind: Takeback, Seat: 0, Action: "offer"}, save: SaveRow, send: SendUpdate,
		check: func(t *testing.T, g Game, _ Effects) {
			if g.Row().TakebackBy != 0 || g.Ply() != 1 {
				t.Errorf("after asking: by %d, ply %d", g.Row().TakebackBy, g.Ply())
			}
		}},
	{name: "a takeback accepted takes back the reply too",
		game: func(t *testing.T) Game {
			g := load(t, row(t), "d4", "e5", "a1")
			return apply(t, g, Event{Kind: Takeback, Seat: 1, Action: "offer"}, t0)
		},
		ev: Event{Kind: Takeback, Seat: 0, Action: "accept"}, save: SaveTakeBack, send: SendState,
		check: func(t *testing.T, g Game, _ Effects) {
			if g.Ply() != 1 || g.Row().TakebackBy != -1 {
				t.Errorf("after accepting Black's takeback: ply %d by %d", g.Ply(), g.Row().TakebackBy)
			}
		}},
	{name: "a claim against a connected player", game: func(t *testing.T) Game { return load(t, row(t), "d4", "e5").Seen([2]bool{true, true}, t0) },
		ev: Event{Kind: Claim, Seat: 0, Action: "win"}, code: "claim_connected"},
	{name: "a claim too early", game: func(t *testing.T) Game { return load(t, row(t), "d4", "e5").Seen([2]bool{true, false}, t0) },
		ev: Event{Kind: Claim, Seat: 0, Action: "win"}, at: 10 * time.Second, code: "claim_wait"},
	{name: "a claim in time", game: func(t *testing.T) Game { return load(t, row(t), "d4", "e5").Seen([2]bool{true, false}, t0) },
		ev: Event{Kind: Claim, Seat: 0, Action: "win"}, at: time.Minute, save: SaveRow, send: SendUpdate, ended: true,
		check: func(t *testing.T, g Game, _ Effects) {
			if r := g.Row(); r.Result != "1-0" || r.Reason != game.Abandonment.String() {
				t.Errorf("after the claim: %s %s", r.Result, r.Reason)
			}
		}},
	{name: "the first move's deadline", game: func(t *testing.T) Game { return load(t, row(t, clock(5*time.Minute, 0))) },
		ev: Event{Kind: Flag}, at: 30 * time.Second, save: SaveRow, send: SendUpdate, ended: true,
		check: func(t *testing.T, g Game, _ Effects) {
			if r := g.Row(); r.Status != store.Aborted || r.Reason != ReasonNoFirstMove {
				t.Errorf("after the first move's time: %s %s", r.Status, r.Reason)
			}
		}},
	{name: "a timer that fired early", game: func(t *testing.T) Game { return load(t, row(t, clock(5*time.Minute, 0))) },
		ev: Event{Kind: Flag}, at: 29 * time.Second,
		check: func(t *testing.T, g Game, fx Effects) {
			if !fx.HasTimer || !fx.Timer.Equal(t0.Add(30*time.Second)) {
				t.Errorf("the timer again: %v %v", fx.HasTimer, fx.Timer)
			}
		}},
	{name: "the flag falls", game: func(t *testing.T) Game { return load(t, row(t, clock(time.Minute, 0)), "d4", "e5") },
		ev: Event{Kind: Flag}, at: 2*time.Second + time.Minute, save: SaveRow, send: SendUpdate, ended: true,
		check: func(t *testing.T, g Game, _ Effects) {
			if r := g.Row(); r.Result != "0-1" || r.Reason != game.Timeout.String() {
				t.Errorf("after the flag: %s %s", r.Result, r.Reason)
			}
		}},
	{name: "an idle computer game expires", game: func(t *testing.T) Game { return load(t, row(t, vsComputer(1))) },
		ev: Event{Kind: Expire}, at: 25 * time.Hour, save: SaveRow, send: SendUpdate, ended: true,
		check: func(t *testing.T, g Game, _ Effects) {
			if r := g.Row(); r.Status != store.Aborted || r.Reason != ReasonAbandoned {
				t.Errorf("after a day: %s %s", r.Status, r.Reason)
			}
		}},
	{name: "a game between people does not expire", game: func(t *testing.T) Game { return load(t, row(t)) }, ev: Event{Kind: Expire}, at: 25 * time.Hour},
	{name: "a rebase charges up to the last beat", game: func(t *testing.T) Game { return load(t, row(t, clock(time.Minute, 0)), "d4", "e5") },
		ev: Event{Kind: Rebase, ChargeUntil: t0.Add(7 * time.Second).UnixMilli()}, at: time.Minute, save: SaveRow, send: SendUpdate,
		check: func(t *testing.T, g Game, _ Effects) {
			if r := g.Row(); r.Remaining[0] != 55*time.Second || r.ClockAt != t0.Add(time.Minute).UnixMilli() {
				t.Errorf("after the rebase: %v at %d", r.Remaining, r.ClockAt)
			}
		}},
	{name: "a pause saves the running clock", game: func(t *testing.T) Game { return load(t, row(t, clock(time.Minute, 0)), "d4", "e5") },
		ev: Event{Kind: Pause}, at: 12 * time.Second, save: SaveRow,
		check: func(t *testing.T, g Game, _ Effects) {
			if r := g.Row(); r.Remaining[0] != 50*time.Second {
				t.Errorf("after the pause: %v", r.Remaining)
			}
		}},
	{name: "a cancelled seek", game: func(t *testing.T) Game { return load(t, row(t, waiting)) }, ev: Event{Kind: Cancel}, save: SaveRow, send: SendUpdate, ended: true},
	{name: "cancelling a game being played", game: func(t *testing.T) Game { return load(t, row(t)) }, ev: Event{Kind: Cancel}, code: "-"},
	{name: "joining with a wrong invitation", game: func(t *testing.T) Game { return load(t, row(t, waiting)) },
		ev: Event{Kind: Join, Token: "t", Invite: "other"}, code: "invite_wrong"},
	{name: "joining a private game without its invitation", game: func(t *testing.T) Game { return load(t, row(t, waiting, func(r *store.Game) { r.Public = false })) },
		ev: Event{Kind: Join, Token: "t"}, code: "private_game"},
	{name: "joining", game: func(t *testing.T) Game { return load(t, row(t, waiting)) },
		ev: Event{Kind: Join, Token: "t", Player: Player{Name: "cy", Guest: "g"}}, at: 5 * time.Second, save: SaveRow, send: SendUpdate,
		check: func(t *testing.T, g Game, fx Effects) {
			if r := g.Row(); fx.Seat != 1 || r.Status != store.Playing || r.Players[1] != "cy" || r.Seats[1] != "t" || r.ClockAt != t0.Add(5*time.Second).UnixMilli() {
				t.Errorf("after joining: seat %d, %s %v %v %d", fx.Seat, r.Status, r.Players, r.Seats, r.ClockAt)
			}
		}},
	{name: "joining a rated game out of its range", game: func(t *testing.T) Game {
		return load(t, row(t, waiting, func(r *store.Game) { r.Rated, r.MinRating = true, 1600 }))
	}, ev: Event{Kind: Join, Token: "t", Player: Player{Name: "cy", User: "u-cy"}, Rating: rating.New()}, code: "rating_above"},
	{name: "a rematch against the computer starts at once", game: func(t *testing.T) Game {
		g := load(t, row(t, vsComputer(1)), "d4")
		return apply(t, g, Event{Kind: Resign, Seat: 0}, t0)
	}, ev: Event{Kind: Rematch, Seat: 0, Action: "offer", NewID: "BBBBBBBBBBBBBBBB"}, save: SaveRematch, send: SendUpdate,
		check: func(t *testing.T, g Game, fx Effects) {
			if fx.Rematch == nil || fx.Rematch.ID != "BBBBBBBBBBBBBBBB" || fx.Rematch.RematchOf != g.ID() || g.Row().RematchGame != fx.Rematch.ID ||
				fx.Rematch.Players[0] != ComputerLabel(3) || fx.Rematch.Seats[1] != "seat0" {
				t.Errorf("the rematch: %+v, old row's rematch %q", fx.Rematch, g.Row().RematchGame)
			}
		}},
	{name: "a rematch before the end", game: func(t *testing.T) Game { return load(t, row(t)) }, ev: Event{Kind: Rematch, Seat: 0, Action: "offer"}, code: "rematch_not_over"},
}

// TestApply checks each event's outcome (applyCases): the refusal, what
// is saved and sent, and the game's state after it.
func TestApply(t *testing.T) {
	runApply(t, applyCases)
}

// runApply runs the cases of TestApply and of the like.
func runApply(t *testing.T, cases []applyCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := tc.game(t)
			before := g.Row()
			next, fx, err := g.Apply(tc.ev, t0.Add(tc.at))
			got := code(err)
			if err != nil && got == "" {
				got = "-"
			}
			if got != tc.code {
				t.Fatalf("refusal %q (%v), want %q", got, err, tc.code)
			}
			if fx.Save != tc.save || fx.Send != tc.send || fx.Ended != tc.ended {
				t.Errorf("effects save %d send %d ended %v, want %d %d %v", fx.Save, fx.Send, fx.Ended, tc.save, tc.send, tc.ended)
			}
			if after := g.Row(); after != before {
				t.Errorf("the game the event was applied to changed:\n%+v\n%+v", before, after)
			}
			if tc.save == SaveNone && next.Row() != before {
				t.Errorf("an event with nothing to save changed the game")
			}
			if tc.check != nil {
				tc.check(t, next, fx)
			}
		})
	}
}

// TestValue: an event leaves the game it was applied to as it was, its
// history included, so that a failed save needs nothing undone and a
// search may read the history while the game moves on.
func TestValue(t *testing.T) {
	g := load(t, row(t), "d4", "e5")
	hist, moves := g.History(), append([]string(nil), g.History().Moves()...)
	next := apply(t, g, Event{Kind: Move, Seat: 0, Move: "a1"}, t0)
	if g.Ply() != 2 || len(hist.Moves()) != 2 || strings.Join(hist.Moves(), " ") != strings.Join(moves, " ") || next.Ply() != 3 {
		t.Fatalf("after a move on a copy: the original has %d moves (history %v), the copy %d", g.Ply(), hist.Moves(), next.Ply())
	}
	// The original goes on another way: the copy keeps its own line.
	other := apply(t, g, Event{Kind: Move, Seat: 0, Move: "a2"}, t0)
	if next.Positions()[2] == other.Positions()[2] || next.History().Moves()[2] != "a1" {
		t.Errorf("two lines from one game share their last position: %q %q", next.Positions()[2], other.Positions()[2])
	}
	back := apply(t, next, Event{Kind: Takeback, Seat: 0, Action: "offer"}, t0)
	again := apply(t, back, Event{Kind: Takeback, Seat: 1, Action: "accept"}, t0)
	if again.Ply() != 2 || next.Ply() != 3 || next.Positions()[2] == "" {
		t.Errorf("a takeback changed the game it was taken from: %d %d", again.Ply(), next.Ply())
	}
}

// TestSeenAndClaims: a player's absence counts from the first time Seen
// is told of it, and a return wipes it.
func TestSeenAndClaims(t *testing.T) {
	g := load(t, row(t), "d4", "e5").Seen([2]bool{true, true}, t0)
	if !g.AwaySince(1).IsZero() {
		t.Fatal("a connected player is away")
	}
	g = g.Seen([2]bool{true, false}, t0.Add(time.Second))
	g = g.Seen([2]bool{true, false}, t0.Add(30*time.Second))
	if !g.AwaySince(1).Equal(t0.Add(time.Second)) {
		t.Errorf("away since %v, want the first time", g.AwaySince(1))
	}
	if g.Claimable(1, t0.Add(60*time.Second)) || !g.Claimable(1, t0.Add(61*time.Second)) {
		t.Error("claimable after ClaimAfter and not before")
	}
	if v := g.View(0, t0.Add(61*time.Second), [2]bool{true, false}, store.ChatPlayers); !v.Sides[1].Claimable || v.Sides[1].AwaySince == nil || v.Sides[0].Claimable {
		t.Errorf("the view: %+v", v.Sides)
	}
	if g = g.Seen([2]bool{true, true}, t0.Add(62*time.Second)); !g.AwaySince(1).IsZero() || g.Claimable(1, t0.Add(90*time.Second)) {
		t.Error("a player back is still away")
	}
}

// TestFollow: a mirror follows an owner's row one move at a time, and
// reads the database for more.
func TestFollow(t *testing.T) {
	owner := load(t, row(t), "d4", "e5")
	mirror := load(t, row(t), "d4")
	r := owner.Row()
	got, ok := mirror.Follow(&r, 2, "e5")
	if !ok || got.Ply() != 2 || got.Row().Position != r.Position || len(got.Positions()) != 2 {
		t.Fatalf("following one move: %v, ply %d", ok, got.Ply())
	}
	if _, ok := load(t, row(t)).Follow(&r, 2, "e5"); ok {
		t.Error("followed two moves at once")
	}
	ended := apply(t, owner, Event{Kind: Resign, Seat: 0}, t0)
	r = ended.Row()
	got, ok = owner.Follow(&r, 2, "")
	if res, why := got.History().Result(); !ok || res != game.SecondWins || why != game.Resignation {
		t.Errorf("following a resignation: %v %s %s", ok, res, why)
	}
}
