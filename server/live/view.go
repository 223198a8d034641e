package live

import (
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/server/wire"
	"github.com/magneton-games/magneton/store"
)

// View is the game as seat (-1: a spectator) sees it at now, as an update:
// connected says which players are connected (anywhere), and chatRoom is
// where the seat's chat lines go. Claims are judged by the away times Seen
// was last told.
func (g Game) View(seat int, now time.Time, connected [2]bool, chatRoom string) wire.Update {
	r := g.row
	pos := g.hist.Position()
	m := wire.Update{
		Type: "update", ID: r.ID, Game: g.Spec().Name, Title: g.Spec().Title, Rules: r.Rules,
		Status: r.Status, Ply: g.Ply(), Position: pos.String(),
		Turn: int(pos.Side()), Legal: g.Legal(), Result: r.Result, Reason: r.Reason, Rated: r.Rated,
		Public: r.Public, At: now.UnixMilli(), Abortable: g.Abortable(seat), TakebackAllowed: g.TakebackAllowed(seat),
		ClaimAfterMS: g.set.ClaimAfter.Milliseconds(), ChatRoom: chatRoom, Computer: g.computerView(), Tournament: r.Tournament,
	}
	if at, ok := g.FirstMoveDeadline(); ok {
		ms := at.UnixMilli()
		m.FirstMoveBy = &ms
	}
	if r.TakebackBy >= 0 {
		m.Takeback = &wire.Offer{OfferedBy: r.TakebackBy}
	}
	if moves := g.hist.Moves(); len(moves) > 0 {
		m.Last = moves[len(moves)-1]
	}
	if seat >= 0 {
		m.Seat = intp(seat)
		m.Premoves = g.premoves(seat)
	}
	for i := range m.Sides {
		m.Sides[i] = g.side(i, seat, now, connected[i])
	}
	if g.Clocked() {
		m.Clock = g.clock(now)
	}
	if r.DrawOffer >= 0 {
		m.DrawOffer = intp(r.DrawOffer)
	}
	if r.RematchBy >= 0 || r.RematchGame != "" {
		m.Rematch = &wire.Rematch{OfferedBy: r.RematchBy, Game: r.RematchGame}
	}
	return m
}

// premoves are the moves seat may make once the opponent has moved, in a
// live game where the opponent is to move: those legal after any of the
// opponent's moves, sorted. Nil when seat is to move, or the game is not
// being played live.
func (g Game) premoves(seat int) []string {
	pos := g.hist.Position()
	if g.row.Status != store.Playing || g.row.PerMove || int(pos.Side()) == seat {
		return nil
	}
	seen := map[string]bool{}
	for _, m := range g.Legal() {
		next, err := pos.Play(m)
		if err != nil {
			continue
		}
		if res, _ := next.Outcome(); res.Over() {
			continue
		}
		for _, r := range next.Moves() {
			seen[r] = true
		}
	}
	out := make([]string, 0, len(seen))
	for m := range seen {
		out = append(out, m)
	}
	slices.Sort(out)
	return out
}

// side is side i's bar as seat sees it.
func (g Game) side(i, seat int, now time.Time, connected bool) wire.Side {
	r, sp := g.row, g.Spec()
	sd := wire.Side{Name: sp.SideNames[i], Letter: sp.SideLetters[i], Player: r.Players[i], Connected: connected, Rating: r.Ratings[i], Bot: r.Bots[i]}
	if r.Users[i] != "" {
		sd.User = r.Players[i]
	}
	if r.Rated && r.Status == store.Finished {
		sd.RatingDiff = intp(r.Diffs[i])
	}
	if i == g.computer {
		sd.Connected = true
	} else if away := g.away[i]; !away.IsZero() && r.Status == store.Playing {
		ms := away.UnixMilli()
		sd.AwaySince = &ms
		sd.Claimable = seat == 1-i && g.Claimable(i, now)
	}
	if i == seat {
		sd.Player = "you"
	}
	return sd
}

// clock is the game's clock as of now.
func (g Game) clock(now time.Time) *wire.Clock {
	r := g.row
	rem := g.Remaining(now)
	c := &wire.Clock{InitialMS: r.ClockInitial.Milliseconds(), IncrementMS: r.ClockIncrement.Milliseconds(), At: now.UnixMilli(), PerMove: r.PerMove}
	for i := range rem {
		c.RemainingMS[i] = max(rem[i].Milliseconds(), 0)
	}
	if run := g.Running(); run >= 0 {
		c.Running = intp(run)
	}
	return c
}

// State is the whole game as seat sees it, with the history; chat is the
// lines the seat may see.
func (g Game) State(seat int, now time.Time, connected [2]bool, chatRoom string, chat []wire.ChatLine) wire.State {
	m := wire.State{Update: g.View(seat, now, connected, chatRoom), Start: g.row.Start, Moves: g.hist.Moves(), Positions: g.positions, Chat: chat}
	m.Type = "state"
	if m.Moves == nil {
		m.Moves = []string{}
	}
	if m.Positions == nil {
		m.Positions = []string{}
	}
	return m
}

func intp(i int) *int { return &i }

// Summarize is a stored game's line in a list.
func Summarize(g *store.Game) wire.Summary {
	title := g.Game
	if gm, err := games.Lookup(g.Game); err == nil {
		title = gm.Spec.Title
	}
	free := -1
	if g.Status == store.Waiting {
		for i, seat := range g.Seats {
			if seat == "" {
				free = i
			}
		}
	}
	var users [2]string
	for i, u := range g.Users {
		if u != "" {
			users[i] = g.Players[i]
		}
	}
	return wire.Summary{ID: g.ID, Game: g.Game, Title: title, Rules: g.Rules, Players: g.Players, Users: users, Bots: g.Bots, Status: g.Status,
		Result: g.Result, Reason: g.Reason, Moves: g.Moves, Created: g.Created, Updated: g.Updated,
		Rated: g.Rated, Family: g.Family, Ratings: g.Ratings, Clock: ClockText(g.ClockInitial, g.ClockIncrement, g.PerMove),
		Free: free, MinRating: g.MinRating, MaxRating: g.MaxRating}
}

// Summaries are stored games' lines in a list.
func Summaries(gs []*store.Game) []wire.Summary {
	out := make([]wire.Summary, 0, len(gs))
	for _, g := range gs {
		out = append(out, Summarize(g))
	}
	return out
}

// ClockText writes a clock as the API reads it: "5+3", "3d" for three
// days a move, "" for none.
func ClockText(initial, inc time.Duration, perMove bool) string {
	switch {
	case initial == 0:
		return ""
	case perMove:
		return strconv.Itoa(int(initial/(24*time.Hour))) + "d"
	}
	return strconv.FormatFloat(initial.Minutes(), 'f', -1, 64) + "+" + strconv.FormatFloat(inc.Seconds(), 'f', -1, 64)
}

// ComputerLabel is the display name of a computer player.
func ComputerLabel(level int) string { return fmt.Sprintf("computer (level %d)", level) }
