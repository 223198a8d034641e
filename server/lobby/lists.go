package lobby

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"time"

	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/server/ids"
	"github.com/magneton-games/magneton/server/jsonapi"
	"github.com/magneton-games/magneton/server/live"
	"github.com/magneton-games/magneton/server/wire"
	"github.com/magneton-games/magneton/store"
)

// listQuery reads a list's query: its status, page and size.
func listQuery(r *http.Request) (store.Query, error) {
	q := r.URL.Query()
	sq := store.Query{PublicOnly: true, Limit: 50}
	switch q.Get("status") {
	case "open":
		sq.Status = store.Waiting
	case "live", "":
		sq.Status = store.Playing
	case "finished":
		sq.Status = store.Finished
	default:
		return sq, fmt.Errorf("status %q: want open, live or finished", q.Get("status"))
	}
	if l := q.Get("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 1 || n > 200 {
			return sq, fmt.Errorf("limit %q: want 1 to 200", l)
		}
		sq.Limit = n
	}
	if b := q.Get("before"); b != "" {
		if !ids.Valid(b) {
			return sq, fmt.Errorf("before %q: not a game id", b)
		}
		sq.Before = b
	}
	return sq, nil
}

func (l *Lobby) handleList(w http.ResponseWriter, r *http.Request) {
	sq, err := listQuery(r)
	if err != nil {
		jsonapi.WriteError(w, http.StatusBadRequest, err.Error())
		return
	}
	// The first pages of the open and live lists are what every home page
	// reads every few seconds: one answer a second serves them all.
	cacheable := sq.Before == "" && sq.Limit == 50 && sq.Status != store.Finished
	if cacheable {
		if b, ok := l.lists.get(sq.Status, time.Now()); ok {
			jsonapi.WriteRaw(w, b)
			return
		}
	}
	rows, err := l.cfg.Store.List(r.Context(), sq)
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			jsonapi.WriteError(w, http.StatusBadRequest, "before: no such game")
			return
		}
		l.fail(w, r, err)
		return
	}
	out := []wire.Summary{}
	for _, g := range rows {
		sm := live.Summarize(g)
		if g.Status == store.Playing {
			sm.Spectators = l.cfg.Rooms.Spectators(g.ID)
		}
		out = append(out, sm)
	}
	b := jsonapi.Marshal(map[string]any{"games": out})
	if cacheable {
		l.lists.put(sq.Status, b, time.Now())
	}
	jsonapi.WriteRaw(w, b)
}

// handleMyGames lists the unfinished games of the browser's account or
// guest, those where it is their turn first, then the most recently
// changed.
func (l *Lobby) handleMyGames(w http.ResponseWriter, r *http.Request) {
	userID, guest := l.cfg.Identities.Player(r)
	rows, err := l.cfg.Store.PlayerGames(r.Context(), userID, guest)
	if err != nil {
		l.fail(w, r, err)
		return
	}
	out, err := l.challengesTo(r.Context(), userID)
	if err != nil {
		l.fail(w, r, err)
		return
	}
	for _, row := range rows {
		seat := -1
		for i := range row.Users {
			if (userID != "" && row.Users[i] == userID) || (guest != "" && row.Guests[i] == guest) {
				seat = i
			}
		}
		if seat < 0 {
			continue
		}
		out = append(out, l.describeMine(row, seat))
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].YourTurn && !out[j].YourTurn })
	jsonapi.Write(w, http.StatusOK, map[string]any{"games": out})
}

// challengesTo are the challenges waiting for an account's answer, as
// lines of its games.
func (l *Lobby) challengesTo(ctx context.Context, userID string) ([]wire.MyGame, error) {
	out := []wire.MyGame{}
	if userID == "" {
		return out, nil
	}
	chs, err := l.cfg.Store.ChallengesTo(ctx, userID)
	if err != nil {
		return nil, err
	}
	for _, c := range chs {
		row, err := l.cfg.Store.Game(ctx, c.GameID)
		if err != nil {
			return nil, err
		}
		seat := 0
		if row.Seats[0] != "" {
			seat = 1
		}
		out = append(out, wire.MyGame{Summary: live.Summarize(row), Seat: seat, Challenge: true})
	}
	return out, nil
}

// describeMine reads whose turn it is in a stored game and when its side
// to move runs out of time.
func (l *Lobby) describeMine(row *store.Game, seat int) wire.MyGame {
	m := wire.MyGame{Summary: live.Summarize(row), Seat: seat}
	if row.Status != store.Playing {
		return m
	}
	rules, err := games.Rules(row.Game, row.Rules)
	if err != nil {
		return m
	}
	pos, err := rules.ParsePosition(row.Position)
	if err != nil {
		return m
	}
	side := int(pos.Side())
	m.YourTurn = side == seat
	if row.ClockInitial > 0 {
		at := row.ClockAt + row.Remaining[side].Milliseconds()
		if row.Moves < 2 {
			if row.Opponent != live.OpponentHuman {
				return m // the clocks have not started, and nobody waits
			}
			at = row.ClockAt + l.cfg.Play.FirstMoveTimeout.Milliseconds()
			if row.PerMove {
				at = row.ClockAt + row.ClockInitial.Milliseconds()
			}
		}
		m.Deadline = &at
	}
	return m
}
