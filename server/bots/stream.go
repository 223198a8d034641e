package bots

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/magneton-games/magneton/server/identity"
	"github.com/magneton-games/magneton/server/ids"
	"github.com/magneton-games/magneton/server/jsonapi"
	"github.com/magneton-games/magneton/store"
)

// Event is one line of a bot's event stream. Type is "challenge" (a
// challenge to the bot: ID, From, Game, Rules, Clock, Rated, Seat the
// bot's side if it accepts), "challengeCanceled" (ID: withdrawn, declined
// or expired), "gameStart" (ID, Seat, Game, Rules, Clock, Rated: a game of
// the bot's being played, each in progress again after a reconnection),
// "gameFinish" (ID, Status, Result, Reason) or "error" (Code, Error: the
// stream ends).
type Event struct {
	Type   string `json:"type"`
	ID     string `json:"id,omitempty"`
	From   string `json:"from,omitempty"`
	Game   string `json:"game,omitempty"`
	Rules  string `json:"rules,omitempty"`
	Clock  string `json:"clock,omitempty"`
	Rated  bool   `json:"rated,omitempty"`
	Seat   *int   `json:"seat,omitempty"`
	Status string `json:"status,omitempty"`
	Result string `json:"result,omitempty"`
	Reason string `json:"reason,omitempty"`
	Code   string `json:"code,omitempty"`
	Error  string `json:"error,omitempty"`
}

// ClockText writes a game's clock as a challenge reads it: "5+3"
// (minutes and seconds of increment), "3d" (days a move), "" for none.
func ClockText(g *store.Game) string {
	switch {
	case g.ClockInitial == 0:
		return ""
	case g.PerMove:
		return fmt.Sprintf("%dd", int(g.ClockInitial/(24*time.Hour)))
	}
	return fmt.Sprintf("%g+%g", g.ClockInitial.Minutes(), g.ClockIncrement.Seconds())
}

// seatOf is the seat of an account in a game, else its free seat.
func seatOf(g *store.Game, userID string) *int {
	for i, u := range g.Users {
		if u == userID {
			return &i
		}
	}
	for i, s := range g.Seats {
		if s == "" {
			return &i
		}
	}
	return nil
}

// openStream marks the request r of token id as an event stream; false
// when the token has as many open as it may.
func (b *Bots) openStream(r *http.Request, id string) bool {
	q, _ := r.Context().Value(requestKey{}).(*request)
	b.mu.Lock()
	defer b.mu.Unlock()
	n := 0
	for o := range b.open[id] {
		if o.stream {
			n++
		}
	}
	if q == nil || n >= b.cfg.Limits.Streams {
		return false
	}
	q.stream = true
	return true
}

// tokenHashOf is the hash of a request's API token.
func tokenHashOf(r *http.Request) string {
	t, _ := identity.Bearer(r)
	return ids.Hash(t)
}

// handleStream is the bot's event stream: newline-delimited JSON, one
// Event a line, a blank line every KeepAlive while there is no news. It
// ends when the client goes, when the token is revoked (an "error" line
// with the code token_revoked first) or when the server shuts down.
func (b *Bots) handleStream(w http.ResponseWriter, r *http.Request) {
	u, tokenID := identity.Token(r)
	switch {
	case u == nil:
		jsonapi.WriteCoded(w, http.StatusUnauthorized, "stream_token", "the event stream takes an API token: Authorization: Bearer TOKEN")
		return
	case !u.Bot:
		jsonapi.WriteCoded(w, http.StatusForbidden, "stream_bot", "the event stream is for bot accounts: make this account a bot first (POST /api/account/bot)")
		return
	}
	if !b.openStream(r, tokenID) {
		max := fmt.Sprint(b.cfg.Limits.Streams)
		jsonapi.WriteCoded(w, http.StatusTooManyRequests, "stream_open", "this API token has an event stream open already: at most "+max, "max", max)
		return
	}
	rc := http.NewResponseController(w)
	// The stream outlives the server's read and write timeouts (magneton
	// serve's 20 s and 30 s), meant for ordinary requests.
	rc.SetReadDeadline(time.Time{})
	rc.SetWriteDeadline(time.Time{})
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	if rc.Flush() != nil { // the headers now: the client knows it is connected
		return
	}
	st := streamState{bot: u.ID, challenges: map[string]bool{}, games: map[string]bool{}}
	poll := time.NewTicker(b.cfg.Poll)
	defer poll.Stop()
	lastWrite := time.Now()
	for {
		events, err := b.news(r.Context(), &st)
		if err != nil && r.Context().Err() == nil {
			b.cfg.Logger.Warn("bot stream: news not read", "user", u.ID, "err", err)
		}
		for _, ev := range events {
			line, _ := json.Marshal(ev)
			w.Write(append(line, '\n'))
		}
		if len(events) > 0 || time.Since(lastWrite) >= b.cfg.KeepAlive {
			if len(events) == 0 {
				w.Write([]byte("\n"))
			}
			if rc.Flush() != nil {
				return
			}
			lastWrite = time.Now()
		}
		select {
		case <-r.Context().Done():
			b.endStream(w, r, rc, tokenID)
			return
		case <-b.ctx.Done():
			return
		case <-poll.C:
		}
	}
}

// endStream says why a stream ends when its token was revoked.
func (b *Bots) endStream(w http.ResponseWriter, r *http.Request, rc *http.ResponseController, tokenID string) {
	ctx, cancel := context.WithTimeout(b.ctx, b.cfg.WriteTimeout)
	defer cancel()
	_, tk, err := b.cfg.Store.TokenUser(ctx, tokenHashOf(r))
	if err == nil || tk.ID != tokenID {
		return // the client left
	}
	line, _ := json.Marshal(Event{Type: "error", Code: "token_revoked", Error: "this API token was revoked: the stream ends"})
	w.Write(append(line, '\n'))
	rc.Flush()
}

// streamState is what a stream has told its bot.
type streamState struct {
	bot        string
	challenges map[string]bool // pending challenges told
	games      map[string]bool // games started told
}

// news returns the events since the last look: new and withdrawn
// challenges, games started and finished.
func (b *Bots) news(ctx context.Context, st *streamState) ([]Event, error) {
	var out []Event
	chs, err := b.cfg.Store.ChallengesTo(ctx, st.bot)
	if err != nil {
		return nil, err
	}
	pending := map[string]bool{}
	for _, c := range chs {
		pending[c.GameID] = true
		if st.challenges[c.GameID] {
			continue
		}
		g, err := b.cfg.Store.Game(ctx, c.GameID)
		if err != nil {
			return out, err
		}
		from := g.Players[0] + g.Players[1] // the challenger's is the only name yet
		out = append(out, Event{Type: "challenge", ID: g.ID, From: from, Game: g.Game, Rules: g.Rules, Clock: ClockText(g), Rated: g.Rated, Seat: seatOf(g, "")})
		st.challenges[c.GameID] = true
	}
	games, err := b.cfg.Store.PlayerGames(ctx, st.bot, "")
	if err != nil {
		return out, err
	}
	playing := map[string]bool{}
	for _, g := range games {
		if g.Status != store.Playing {
			continue
		}
		playing[g.ID] = true
		if !st.games[g.ID] {
			out = append(out, Event{Type: "gameStart", ID: g.ID, Seat: seatOf(g, st.bot), Game: g.Game, Rules: g.Rules, Clock: ClockText(g), Rated: g.Rated})
			st.games[g.ID] = true
		}
	}
	for id := range st.challenges {
		if !pending[id] {
			delete(st.challenges, id)
			if !playing[id] {
				out = append(out, Event{Type: "challengeCanceled", ID: id})
			}
		}
	}
	for id := range st.games {
		if playing[id] {
			continue
		}
		g, err := b.cfg.Store.Game(ctx, id)
		if err != nil {
			return out, err
		}
		if g.Status == store.Playing {
			continue // a moment's disagreement between two reads
		}
		delete(st.games, id)
		out = append(out, Event{Type: "gameFinish", ID: id, Status: g.Status, Result: g.Result, Reason: g.Reason})
	}
	return out, nil
}
