package server

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/store"
)

// What a player can do at the board besides moving: abort a game that has
// not begun, take a move back, claim a game the opponent left, and chat.
// Each goes through the game's owner and the database like a move.

// Reasons of a game aborted at the board (status store.Aborted, no
// result): a player aborted it before their first move, or the side to
// move let the time for its first move pass.
const (
	reasonAborted     = "aborted"
	reasonNoFirstMove = "no first move"
)

// Chat limits: a line's length, the lines one game keeps, and each
// writer's pace (a burst, then one line every chatEvery).
const (
	chatMaxRunes = 300
	chatMaxLines = 1000
	chatBurst    = 4
	chatEvery    = 2 * time.Second
)

// Defaults of the Config fields of the board.
const (
	defaultClaimAfter       = 60 * time.Second
	defaultFirstMoveTimeout = 30 * time.Second
)

// correspondenceDays are the correspondence clocks offered: days a move.
var correspondenceDays = []int{1, 2, 3, 5, 7, 14}

// moved reports whether seat has made a move in the game.
func (s *session) moved(seat int) bool { return s.lastMoveBy(seat) >= 0 }

// lastMoveBy returns the ply of seat's last move, or -1 when it has made
// none.
func (s *session) lastMoveBy(seat int) int {
	states := s.g.States()
	for p := len(s.g.Moves()) - 1; p >= 0; p-- {
		if int(states[p].Side()) == seat {
			return p
		}
	}
	return -1
}

// started reports whether both sides have made their first move: the
// clocks run from then on, and the game can no longer be aborted.
func (s *session) started() bool { return len(s.g.Moves()) >= 2 }

// abortable reports whether seat may abort the game now: it is being
// played and seat has not moved yet.
func (s *session) abortable(seat int) bool {
	return seat >= 0 && s.row.Status == store.Playing && !s.moved(seat)
}

// firstMoveDeadline returns when the side to move must make its first
// move, in a game with a clock against a person, or see the game
// aborted; false when there is no such deadline (the game has begun, or
// is against the computer, or has no clock).
func (s *session) firstMoveDeadline() (time.Time, bool) {
	if !s.clocked() || s.computer >= 0 || s.row.Status != store.Playing || s.started() {
		return time.Time{}, false
	}
	wait := s.srv.cfg.FirstMoveTimeout
	if s.row.PerMove {
		wait = s.row.ClockInitial
	}
	return time.UnixMilli(s.row.ClockAt).Add(wait), true
}

// abort ends the game without a result at seat's request.
func (s *session) abort(seat int) error {
	if err := s.checkPlaying(); err != nil {
		return err
	}
	if !s.abortable(seat) {
		return coded("abort_late", "a game can be aborted only before your first move; resign instead")
	}
	return s.abortAs(reasonAborted, time.Now())
}

// abortAs ends the game without a result, for reason.
func (s *session) abortAs(reason string, now time.Time) error {
	nr := *s.row
	nr.Status, nr.Reason, nr.DrawOffer, nr.TakebackBy, nr.Updated = store.Aborted, reason, -1, -1, millis(now)
	if s.clocked() {
		nr.Remaining = s.remaining(now)
		nr.ClockAt = millis(now)
	}
	return s.endAs(&nr)
}

// abortedRefusal says why an aborted game was aborted, refusing an action
// on it.
func (s *session) abortedRefusal() error {
	switch s.row.Reason {
	case reasonAborted:
		return coded("aborted", "the game was aborted")
	case reasonNoFirstMove:
		return coded("aborted_no_first_move", "the game was aborted: a player did not make their first move in time")
	case cancelled:
		return coded("cancelled", "the game was cancelled before anyone took it up")
	}
	return coded("abandoned", fmt.Sprintf("the game was aborted: nobody played it for %v", s.srv.cfg.Expire), "hours", fmt.Sprint(int(s.srv.cfg.Expire.Hours())))
}

// takebackAllowed reports whether seat may ask to take a move back: in
// the computer's games always, in casual games against a person by the
// opponent's leave, and only when seat has a move to take back.
func (s *session) takebackAllowed(seat int) bool {
	return seat >= 0 && s.row.Status == store.Playing && (s.computer >= 0 || !s.row.Rated) && s.moved(seat)
}

// takeback handles a takeback request, acceptance or refusal by seat.
func (s *session) takeback(seat int, action string) error {
	if err := s.checkPlaying(); err != nil {
		return err
	}
	by := s.row.TakebackBy
	switch action {
	case "offer":
		switch {
		case s.computer < 0 && s.row.Rated:
			return coded("takeback_rated", "takeback: not in a rated game")
		case !s.moved(seat):
			return coded("takeback_nothing", "takeback: you have no move to take back")
		case by == seat:
			return coded("takeback_asked", "takeback: you have already asked")
		case by == 1-seat:
			return s.takeback(seat, "accept")
		case s.computer == 1-seat:
			// The computer always agrees: back to seat's turn.
			return s.undoTo(s.lastMoveBy(seat))
		}
		nr := *s.row
		nr.TakebackBy = seat
		return s.update(&nr)
	case "accept":
		if by != 1-seat {
			return coded("no_takeback", "takeback: there is no request to accept")
		}
		// Back to before the asker's last move (and any reply since).
		return s.undoTo(s.lastMoveBy(by))
	case "decline":
		return s.decline(seat, func(g *store.Game) *int { return &g.TakebackBy }, "no_takeback", "takeback: there is no request to decline")
	}
	return refuse("takeback: unknown action %q (offer, accept or decline)", action)
}

// decline clears the opponent's pending offer (a draw offer, a takeback
// request: the side that made it, in the row's field that offer picks)
// at seat's refusal; code and msg refuse it when there is none.
func (s *session) decline(seat int, offer func(*store.Game) *int, code, msg string) error {
	nr := *s.row
	by := offer(&nr)
	if *by != 1-seat {
		return coded(code, msg)
	}
	*by = -1
	return s.update(&nr)
}

// undoTo takes the game back to ply moves, committed before anyone hears
// of it. The clocks keep the time they show now, and the side to move's
// runs from now on: nobody gains or loses time by a takeback.
func (s *session) undoTo(ply int) error {
	if ply < 0 || ply >= len(s.g.Moves()) {
		return refuse("takeback: no move to take back")
	}
	now := time.Now()
	g := game.NewGame(s.g.Start())
	for _, m := range s.g.Moves()[:ply] {
		if err := g.Play(m); err != nil {
			return fmt.Errorf("replay for a takeback: %w", err) // they were legal a moment ago
		}
	}
	nr := *s.row
	nr.Moves, nr.Position, nr.TakebackBy, nr.DrawOffer, nr.Updated = ply, g.Position().String(), -1, -1, millis(now)
	if s.clocked() {
		nr.Remaining, nr.ClockAt = s.remaining(now), millis(now)
	}
	nr.Owner = s.srv.cfg.Instance
	ctx, cancel := context.WithTimeout(context.Background(), s.srv.cfg.WriteTimeout)
	err := s.srv.st.TakeBack(ctx, &nr, ply)
	cancel()
	if err != nil {
		return s.writeError("takeback not saved", err)
	}
	s.stopAI()
	s.row, s.g, s.legal = &nr, g, nil
	s.positions = s.positions[:ply]
	s.srv.log.Info("takeback", "game", s.id, "to", ply)
	s.announce()
	s.armFlag()
	s.sendState()
	s.maybeAI()
	return nil
}

// sendState sends every client the whole state (after a change an update
// cannot say, such as a takeback).
func (s *session) sendState() {
	now := time.Now()
	for c := range s.clients {
		c.send(s.stateJSON(c.seat, now))
	}
}

// trackAway notes when each player was last seen connected: the opponent
// may claim the game once a player has been away for Config.ClaimAfter.
func (s *session) trackAway(now time.Time) {
	for i := range s.awaySince {
		switch {
		case s.connected(i):
			s.awaySince[i] = time.Time{}
		case s.awaySince[i].IsZero():
			s.awaySince[i] = now
		}
	}
}

// claimable reports whether the opponent of side may claim the game
// because side's player has left: a live game against a person (a
// correspondence game has its clock for that) whose player has been away
// for Config.ClaimAfter.
func (s *session) claimable(side int, now time.Time) bool {
	return s.claimWait(side, now) == 0
}

// claimWait returns how long the opponent of side must still wait to
// claim, or -1 when a claim is not possible at all.
func (s *session) claimWait(side int, now time.Time) time.Duration {
	s.trackAway(now)
	if s.row.Status != store.Playing || s.computer >= 0 || s.row.PerMove || s.awaySince[side].IsZero() {
		return -1
	}
	return max(s.srv.cfg.ClaimAfter-now.Sub(s.awaySince[side]), 0)
}

// claim ends the game for seat, whose opponent has left: won ("win") or
// drawn ("draw").
func (s *session) claim(seat int, action string) error {
	if err := s.checkPlaying(); err != nil {
		return err
	}
	opp := 1 - seat
	now := time.Now()
	switch wait := s.claimWait(opp, now); {
	case s.computer >= 0:
		return coded("claim_computer", "claim: the computer never leaves a game")
	case s.row.PerMove:
		return coded("claim_correspondence", "claim: in a correspondence game the clock decides")
	case wait < 0:
		return coded("claim_connected", "claim: your opponent is connected")
	case wait > 0:
		ago, in := fmt.Sprint(int(now.Sub(s.awaySince[opp]).Seconds())), fmt.Sprint(int((wait+time.Second-1)/time.Second))
		return coded("claim_wait", "claim: your opponent left "+ago+" s ago; you can claim in "+in+" s", "ago", ago, "wait", in)
	}
	var ending *game.Ending
	switch action {
	case "win":
		ending = game.Abandonment
	case "draw":
		ending = game.AbandonmentDraw
	default:
		return refuse("claim: unknown action %q (win or draw)", action)
	}
	if err := s.g.End(game.Side(opp), ending); err != nil {
		return userError{msg: err.Error()}
	}
	return s.finish(now)
}

// chatMsg is a chat line as clients see it.
type chatMsg struct {
	Room string `json:"room"`
	Name string `json:"name"`
	Side int    `json:"side"`
	Text string `json:"text"`
	At   int64  `json:"at"`
}

func chatOf(l store.ChatLine) chatMsg {
	return chatMsg{Room: l.Room, Name: l.Name, Side: l.Side, Text: l.Text, At: l.At}
}

// chatRoom is where seat's lines go.
func chatRoom(seat int) string {
	if seat >= 0 {
		return store.ChatPlayers
	}
	return store.ChatSpectators
}

// seesChat reports whether seat sees the lines of room: the players do
// not see the spectators' while the game goes on.
func (s *session) seesChat(seat int, room string) bool {
	return room == store.ChatPlayers || seat < 0 || (s.row.Status != store.Playing && s.row.Status != store.Waiting)
}

// ensureChat reads the game's chat from the database the first time it
// is needed.
func (s *session) ensureChat() error {
	if s.chatLoaded {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), s.srv.cfg.WriteTimeout)
	defer cancel()
	lines, err := s.srv.st.Chat(ctx, s.id, 0)
	if err != nil {
		return err
	}
	s.chat, s.chatLoaded = lines, true
	return nil
}

// visibleChat returns the lines seat may see.
func (s *session) visibleChat(seat int) []chatMsg {
	if err := s.ensureChat(); err != nil {
		s.srv.log.Warn("chat not read", "game", s.id, "err", err)
	}
	out := []chatMsg{}
	for _, l := range s.chat {
		if s.seesChat(seat, l.Room) {
			out = append(out, chatOf(l))
		}
	}
	return out
}

// cleanChat checks and tidies a chat line: trimmed, control characters
// made spaces, at most chatMaxRunes long.
func cleanChat(text string) (string, error) {
	text = strings.TrimSpace(strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, text))
	if !utf8.ValidString(text) {
		return "", coded("chat_utf8", "chat: the message is not valid UTF-8")
	}
	if text == "" {
		return "", coded("chat_empty", "chat: the message is empty")
	}
	if n := utf8.RuneCountInString(text); n > chatMaxRunes {
		return "", coded("chat_long", fmt.Sprintf("chat: a message is at most %d characters (this one has %d)", chatMaxRunes, n), "max", fmt.Sprint(chatMaxRunes), "n", fmt.Sprint(n))
	}
	return text, nil
}

// postChat adds a line by seat (-1: a spectator named name), committed,
// then sent to those who may see it, here and on the other instances.
func (s *session) postChat(seat int, name, text string) error {
	text, err := cleanChat(text)
	if err != nil {
		return err
	}
	key := "name:" + name
	if seat >= 0 {
		name, key = s.row.Players[seat], fmt.Sprintf("seat:%d", seat)
	}
	if name == "" {
		return coded("chat_no_name", "chat: you need a name to chat: open the home page once to play as a guest, or log in")
	}
	now := time.Now()
	b := s.chatBuckets[key]
	if b == nil {
		if s.chatBuckets == nil {
			s.chatBuckets = map[string]*bucket{}
		}
		b = &bucket{rate: 1 / chatEvery.Seconds(), burst: chatBurst, tokens: chatBurst, last: now}
		s.chatBuckets[key] = b
	}
	if !b.allow(now) {
		return coded("chat_fast", "chat: too many messages; wait a moment")
	}
	if err := s.ensureChat(); err != nil {
		return s.writeError("chat not read", err)
	}
	if len(s.chat) >= chatMaxLines {
		return coded("chat_full", fmt.Sprintf("chat: this game's chat is full (%d messages)", chatMaxLines), "max", fmt.Sprint(chatMaxLines))
	}
	l := store.ChatLine{Game: s.id, Seq: len(s.chat), Room: chatRoom(seat), Side: seat, Name: name, Text: text, At: millis(now)}
	ctx, cancel := context.WithTimeout(context.Background(), s.srv.cfg.WriteTimeout)
	err = s.srv.st.AddChat(ctx, l)
	cancel()
	if err != nil {
		return s.writeError("chat not saved", err)
	}
	s.chat = append(s.chat, l)
	s.sendChat(l)
	s.announceChat(l)
	return nil
}

// showSpectatorChat sends the players the whole state when a game ends
// whose spectators chatted: they see the spectators' room from now on.
func (s *session) showSpectatorChat() {
	if s.ensureChat() != nil {
		return
	}
	for _, l := range s.chat {
		if l.Room == store.ChatSpectators {
			now := time.Now()
			for c := range s.clients {
				if c.seat >= 0 {
					c.send(s.stateJSON(c.seat, now))
				}
			}
			return
		}
	}
}

// sendChat sends a line to this instance's clients who may see it.
func (s *session) sendChat(l store.ChatLine) {
	msg := mustJSON(struct {
		Type string  `json:"type"`
		Line chatMsg `json:"line"`
	}{"chat", chatOf(l)})
	for c := range s.clients {
		if s.seesChat(c.seat, l.Room) {
			c.send(msg)
		}
	}
}

// takeChat is a mirror's part of an owner's new line: it shows the line,
// reading the chat again when it missed one before.
func (s *session) takeChat(l store.ChatLine) {
	switch {
	case s.chatLoaded && l.Seq == len(s.chat):
		s.chat = append(s.chat, l)
	case s.chatLoaded && l.Seq < len(s.chat):
		return // already here
	default:
		s.chatLoaded = false
		if err := s.ensureChat(); err != nil {
			s.srv.log.Warn("chat not read", "game", s.id, "err", err)
			return
		}
	}
	s.sendChat(l)
}

// myGame is a line of GET /api/my-games: a game the browser's player has
// a seat in.
type myGame struct {
	summary
	Seat     int  `json:"seat"`
	YourTurn bool `json:"your_turn"`
	// Deadline is when the side to move runs out of time (or of time for
	// its first move), ms since the epoch; null without a clock.
	Deadline *int64 `json:"deadline"`
}

// handleMyGames lists the unfinished games of the browser's account or
// guest, those where it is their turn first, then the most recently
// changed.
func (s *Server) handleMyGames(w http.ResponseWriter, r *http.Request) {
	userID, guest := s.requestPlayer(r)
	rows, err := s.st.PlayerGames(r.Context(), userID, guest)
	if err != nil {
		s.gameError(w, r, err)
		return
	}
	out := []myGame{}
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
		out = append(out, s.describeMine(row, seat))
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].YourTurn && !out[j].YourTurn })
	writeJSON(w, http.StatusOK, map[string]any{"games": out})
}

// requestPlayer returns who a request plays as: the account's id, or, for
// a browser not logged in, the hash of its guest token ("" for neither).
func (s *Server) requestPlayer(r *http.Request) (userID, guestHash string) {
	if userID, _ = s.requestIdentity(r); userID != "" {
		return userID, ""
	}
	if c, err := r.Cookie(guestCookie); err == nil && len(c.Value) >= 16 {
		return "", hashToken(c.Value)
	}
	return "", ""
}

// describeMine reads whose turn it is in a stored game and when its side
// to move runs out of time.
func (s *Server) describeMine(row *store.Game, seat int) myGame {
	m := myGame{summary: summarize(row), Seat: seat}
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
			if row.Opponent != opponentHuman {
				return m // the clocks have not started, and nobody waits
			}
			at = row.ClockAt + s.cfg.FirstMoveTimeout.Milliseconds()
			if row.PerMove {
				at = row.ClockAt + row.ClockInitial.Milliseconds()
			}
		}
		m.Deadline = &at
	}
	return m
}
