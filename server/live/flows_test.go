package live

import (
	"testing"
	"time"

	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/rating"
	"github.com/magneton-games/magneton/store"
)

// step is one event of a flow and what must come of it.
type step struct {
	ev   Event
	at   time.Duration // after t0
	code string        // the refusal's code, "" for none, "-" for one without a code
	want func(t *testing.T, g Game, fx Effects)
}

// flows are games followed through several events, each applied to the
// game the step before left.
var flows = []struct {
	name  string
	row   []func(*store.Game)
	moves []string
	steps []step
}{
	{name: "a correspondence clock gives the time for each move again", row: []func(*store.Game){clock(3*24*time.Hour, 0), perMove},
		steps: []step{
			{ev: Event{Kind: Move, Seat: 0, Move: "d4"}, at: time.Hour},
			{ev: Event{Kind: Move, Seat: 1, Move: "e5"}, at: 2 * time.Hour},
			{ev: Event{Kind: Move, Seat: 0, Move: "a1"}, at: 30 * time.Hour, want: func(t *testing.T, g Game, fx Effects) {
				if r := g.Row(); r.Remaining[0] != 3*24*time.Hour || fx.Move.Clock != r.Remaining[0] {
					t.Errorf("White's clock after a move: %v", r.Remaining)
				}
			}},
		}},
	{name: "aborting before one's first move, then acting on the aborted game", moves: []string{"d4"},
		steps: []step{
			{ev: Event{Kind: Abort, Seat: 1}, want: func(t *testing.T, g Game, fx Effects) {
				if r := g.Row(); r.Status != store.Aborted || r.Reason != ReasonAborted || !fx.Ended {
					t.Errorf("after the abort: %s %s", r.Status, r.Reason)
				}
			}},
			{ev: Event{Kind: Move, Seat: 1, Move: "e5"}, code: "aborted"},
			// Both seats were taken: the players may play again.
			{ev: Event{Kind: Rematch, Seat: 1, Action: "offer"}, want: func(t *testing.T, g Game, _ Effects) {
				if g.Row().RematchBy != 1 {
					t.Errorf("a rematch of the aborted game: asked by %d", g.Row().RematchBy)
				}
			}},
		}},
	{name: "a seek called off has no rematch", row: []func(*store.Game){waiting},
		steps: []step{
			{ev: Event{Kind: Cancel, Seat: 0}, want: func(t *testing.T, g Game, _ Effects) {
				if g.Status() != store.Aborted {
					t.Errorf("after the cancel: %s", g.Status())
				}
			}},
			{ev: Event{Kind: Rematch, Seat: 0, Action: "offer"}, code: "rematch_not_over"},
		}},
	{name: "a rematch declined", moves: []string{"d4"},
		steps: []step{
			{ev: Event{Kind: Resign, Seat: 1}},
			{ev: Event{Kind: Rematch, Seat: 0, Action: "offer"}},
			{ev: Event{Kind: Rematch, Seat: 0, Action: "decline"}, code: "no_rematch_offer"},
			{ev: Event{Kind: Rematch, Seat: 1, Action: "decline"}, want: func(t *testing.T, g Game, fx Effects) {
				if g.Row().RematchBy != -1 || g.Row().RematchGame != "" || fx.Rematch != nil {
					t.Errorf("after declining: asked by %d, game %q", g.Row().RematchBy, g.Row().RematchGame)
				}
			}},
			{ev: Event{Kind: Rematch, Seat: 1, Action: "accept"}, code: "no_rematch_offer"},
		}},
	{name: "a takeback declined", moves: []string{"d4", "e5"},
		steps: []step{
			{ev: Event{Kind: Takeback, Seat: 1, Action: "offer"}},
			{ev: Event{Kind: Takeback, Seat: 1, Action: "offer"}, code: "takeback_asked"},
			{ev: Event{Kind: Takeback, Seat: 1, Action: "decline"}, code: "no_takeback"},
			{ev: Event{Kind: Takeback, Seat: 0, Action: "decline"}, want: func(t *testing.T, g Game, _ Effects) {
				if g.Row().TakebackBy != -1 || g.Ply() != 2 {
					t.Errorf("after declining: by %d ply %d", g.Row().TakebackBy, g.Ply())
				}
			}},
			{ev: Event{Kind: Takeback, Seat: 0, Action: "maybe"}, code: "-"},
		}},
	{name: "a draw offered and declined", moves: []string{"d4"},
		steps: []step{
			{ev: Event{Kind: Draw, Seat: 1, Action: "offer"}},
			{ev: Event{Kind: Draw, Seat: 1, Action: "offer"}, code: "draw_offered"},
			{ev: Event{Kind: Draw, Seat: 0, Action: "decline"}, want: func(t *testing.T, g Game, _ Effects) {
				if g.Row().DrawOffer != -1 {
					t.Errorf("offer after declining: %d", g.Row().DrawOffer)
				}
			}},
			{ev: Event{Kind: Draw, Seat: 0, Action: "decline"}, code: "no_draw_offer"},
		}},
	{name: "a claimed draw, then refusals on a game over", moves: []string{"d4", "e5"},
		steps: []step{
			{ev: Event{Kind: Claim, Seat: 1, Action: "draw"}, at: 2 * time.Minute, want: func(t *testing.T, g Game, _ Effects) {
				if r := g.Row(); r.Status != store.Finished || r.Result != "1/2-1/2" || r.Reason != game.AbandonmentDraw.String() {
					t.Errorf("after the claim: %s %s %s", r.Status, r.Result, r.Reason)
				}
			}},
			{ev: Event{Kind: Resign, Seat: 1}, code: "game_over"},
			{ev: Event{Kind: Claim, Seat: 1, Action: "win"}, code: "game_over"},
		}},
	{name: "a rematch offered, asked again, then accepted", moves: []string{"d4"},
		steps: []step{
			{ev: Event{Kind: Resign, Seat: 0}},
			{ev: Event{Kind: Rematch, Seat: 1, Action: "accept"}, code: "no_rematch_offer"},
			{ev: Event{Kind: Rematch, Seat: 1, Action: "offer"}},
			{ev: Event{Kind: Rematch, Seat: 1, Action: "offer"}, code: "rematch_asked"},
			{ev: Event{Kind: Rematch, Seat: 0, Action: "accept", NewID: "CCCCCCCCCCCCCCCC"}, want: func(t *testing.T, g Game, fx Effects) {
				if fx.Save != SaveRematch || fx.Rematch.ID != "CCCCCCCCCCCCCCCC" || g.Row().RematchBy != 1 || fx.Rematch.Users[0] != "u-bob" {
					t.Errorf("the rematch: %+v by %d", fx.Rematch, g.Row().RematchBy)
				}
			}},
			{ev: Event{Kind: Rematch, Seat: 0, Action: "offer"}, code: "rematch_started"},
		}},
	{name: "a rated seek refuses a guest and its own creator, and takes a player in range", row: []func(*store.Game){waiting, rated(1400, 1600)},
		steps: []step{
			{ev: Event{Kind: Join, Token: "t", Player: Player{Name: "Guest-1", Guest: "g"}}, code: "rated_login"},
			{ev: Event{Kind: Join, Token: "t", Player: Player{Name: "ann", User: "u-ann"}, Rating: rating.New()}, code: "rated_self"},
			{ev: Event{Kind: Join, Token: "t", Player: Player{Name: "cy", User: "u-cy"}, Rating: rating.Rating{R: 1700, RD: 60, Vol: 0.06}}, code: "rating_between"},
			{ev: Event{Kind: Join, Token: "t", Player: Player{Name: "cy", User: "u-cy"}, Rating: rating.New()}, want: func(t *testing.T, g Game, fx Effects) {
				if r := g.Row(); r.Ratings[1] != rating.New().String() || r.Users[1] != "u-cy" || fx.Seat != 1 {
					t.Errorf("after the join: %v %v", r.Ratings, r.Users)
				}
			}},
			{ev: Event{Kind: Join, Token: "u", Player: Player{Name: "di", User: "u-di"}}, code: "two_players"},
		}},
	{name: "an invitation nobody took expires", row: []func(*store.Game){waiting},
		steps: []step{
			{ev: Event{Kind: Expire}, at: 23 * time.Hour, want: func(t *testing.T, g Game, fx Effects) {
				if fx.Save != SaveNone || g.Status() != store.Waiting {
					t.Errorf("expired early: %s", g.Status())
				}
			}},
			{ev: Event{Kind: Expire}, at: 25 * time.Hour, want: func(t *testing.T, g Game, _ Effects) {
				if r := g.Row(); r.Status != store.Aborted || r.Reason != ReasonAbandoned {
					t.Errorf("after a day: %s %s", r.Status, r.Reason)
				}
			}},
			{ev: Event{Kind: Join, Token: "t"}, code: "two_players"},
			{ev: Event{Kind: Cancel}, code: "-"},
		}},
	{name: "a takeover before the first moves keeps the time to make one", row: []func(*store.Game){clock(5*time.Minute, 0)},
		steps: []step{
			{ev: Event{Kind: Rebase, ChargeUntil: t0.Add(10 * time.Second).UnixMilli()}, at: time.Minute, want: func(t *testing.T, g Game, fx Effects) {
				// 10 s of the 30 were charged: 20 s are left from now.
				if at, ok := g.FirstMoveDeadline(); !ok || !at.Equal(t0.Add(80*time.Second)) || !fx.HasTimer {
					t.Errorf("the first move's deadline after the takeover: %v %v", at, ok)
				}
			}},
			{ev: Event{Kind: Pause}, at: 70 * time.Second, want: func(t *testing.T, g Game, fx Effects) {
				// The stop is noted: a new owner charges the first move's
				// time up to it (10 s more, of the 20 left).
				if fx.Save != SaveRow || g.StoppedAt() != t0.Add(70*time.Second).UnixMilli() {
					t.Errorf("a pause before the first moves: save %d, stopped at %d", fx.Save, g.StoppedAt())
				}
			}},
			{ev: Event{Kind: Rebase, ChargeUntil: t0.Add(70 * time.Second).UnixMilli()}, at: time.Hour, want: func(t *testing.T, g Game, _ Effects) {
				if at, _ := g.FirstMoveDeadline(); !at.Equal(t0.Add(time.Hour + 10*time.Second)) {
					t.Errorf("the deadline after a restart an hour later: %v, want 10 s after it", at.Sub(t0))
				}
			}},
		}},
}

func perMove(r *store.Game) { r.PerMove = true }

func rated(lo, hi int) func(*store.Game) {
	return func(r *store.Game) { r.Rated, r.Family, r.MinRating, r.MaxRating = true, "standard", lo, hi }
}

// TestFlows follows games through several events each.
func TestFlows(t *testing.T) {
	for _, f := range flows {
		t.Run(f.name, func(t *testing.T) {
			g := load(t, row(t, f.row...), f.moves...)
			for i, st := range f.steps {
				next, fx, err := g.Apply(st.ev, t0.Add(st.at))
				got := code(err)
				if err != nil && got == "" {
					got = "-"
				}
				if got != st.code {
					t.Fatalf("step %d (%s %s): refusal %q (%v), want %q", i+1, st.ev.Kind, st.ev.Action, got, err, st.code)
				}
				if st.want != nil {
					st.want(t, next, fx)
				}
				g = next
			}
		})
	}
}

// TestComputerWaiting: the computer's clock stands still while its search
// waits for a core, and no timer waits on it.
func TestComputerWaiting(t *testing.T) {
	g := load(t, row(t, clock(time.Minute, 0), vsComputer(1)), "d4", "e5", "a1")
	at := t0.Add(10 * time.Second)
	w := g.ComputerWaiting(true)
	if w.Running() != -1 || w.Remaining(at) != g.Row().Remaining || !w.Waiting() {
		t.Errorf("waiting: running %d, remaining %v", w.Running(), w.Remaining(at))
	}
	if _, ok := w.Timer(at); ok {
		t.Error("a timer waits on a clock that stands still")
	}
	if next, fx, _ := w.Apply(Event{Kind: Flag}, t0.Add(5*time.Minute)); fx.Save != SaveNone || next.Status() != store.Playing {
		t.Error("the flag fell on a computer waiting for a core")
	}
	if g.Running() != 1 || g.Remaining(at)[1] >= time.Minute {
		t.Errorf("searching: running %d, remaining %v", g.Running(), g.Remaining(at))
	}
}
