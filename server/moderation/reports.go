package moderation

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/magneton-games/magneton/server/identity"
	"github.com/magneton-games/magneton/server/ids"
	"github.com/magneton-games/magneton/server/jsonapi"
	"github.com/magneton-games/magneton/server/wire"
	"github.com/magneton-games/magneton/store"
)

// Reasons are the reasons a report may give.
var Reasons = []string{"cheating", "abuse", "spam", "other"}

// maxReportText bounds a report's words.
const maxReportText = 500

// reportRequest is the body of POST /api/reports: a player by name, or a
// chat line by its game and number, with a reason and the reporter's
// words.
type reportRequest struct {
	User    string `json:"user"`
	Game    string `json:"game"`
	ChatSeq *int   `json:"chat_seq"`
	Reason  string `json:"reason"`
	Text    string `json:"text"`
}

func (m *Moderation) fail(w http.ResponseWriter, r *http.Request, err error) {
	jsonapi.Fail(w, r, m.cfg.Logger, err)
}

func (m *Moderation) handleReport(w http.ResponseWriter, r *http.Request) {
	var req reportRequest
	if !jsonapi.Read(w, r, &req) {
		return
	}
	if !m.cfg.Clients.AllowReport(m.cfg.Proxies.ClientIP(r)) {
		max := fmt.Sprintf("%g", m.cfg.Clients.Limits().ReportsPerMinute)
		jsonapi.WriteCoded(w, http.StatusTooManyRequests, "reports_fast", "too many reports from your address: at most "+max+" a minute", "max", max)
		return
	}
	rep, err := m.newReport(r, req)
	if err != nil {
		m.refuse(w, r, err)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), m.cfg.WriteTimeout)
	defer cancel()
	if err := m.cfg.Store.AddReport(ctx, rep); err != nil {
		m.fail(w, r, err)
		return
	}
	m.cfg.Logger.Info("report", "target", rep.TargetName, "reason", rep.Reason, "game", rep.Game)
	jsonapi.Write(w, http.StatusCreated, map[string]string{"id": rep.ID})
}

// refuse answers a refusal 400 (403 for what may not be done at all, 404
// for a player or chat line that is not there), anything else as a
// failure.
func (m *Moderation) refuse(w http.ResponseWriter, r *http.Request, err error) {
	var rf wire.Refusal
	switch {
	case errors.As(err, &rf) && rf.Forbidden:
		jsonapi.WriteRefusal(w, http.StatusForbidden, rf)
	case errors.As(err, &rf) && (rf.Code == "no_user" || rf.Code == "no_chat_line" || rf.Code == "no_game"):
		jsonapi.WriteRefusal(w, http.StatusNotFound, rf)
	case errors.As(err, &rf):
		jsonapi.WriteRefusal(w, http.StatusBadRequest, rf)
	case errors.Is(err, store.ErrNotFound):
		jsonapi.WriteCoded(w, http.StatusNotFound, "no_game", "no such game")
	default:
		m.fail(w, r, err)
	}
}

// newReport checks a report and says whom it is of.
func (m *Moderation) newReport(r *http.Request, req reportRequest) (*store.Report, error) {
	if !slices.Contains(Reasons, req.Reason) {
		return nil, wire.Refuse("report_reason", fmt.Sprintf("reason %q: want %s", req.Reason, strings.Join(Reasons, ", ")), "reasons", strings.Join(Reasons, ", "))
	}
	text := strings.TrimSpace(req.Text)
	if n := utf8.RuneCountInString(text); n > maxReportText {
		return nil, wire.Refuse("report_long", fmt.Sprintf("a report's words are at most %d characters (these have %d)", maxReportText, n), "max", fmt.Sprint(maxReportText), "n", fmt.Sprint(n))
	}
	userID, name := m.cfg.Identities.Identity(r)
	reporter := userID
	if reporter == "" {
		_, reporter = m.cfg.Identities.Player(r)
	}
	if reporter == "" {
		return nil, wire.Refuse("report_name", "open the home page once to play as a guest, or log in, to report")
	}
	rep := &store.Report{ID: ids.New(), Reporter: reporter, ReporterName: name, ChatSeq: -1, Reason: req.Reason, Text: text, Created: time.Now().UnixMilli()}
	var err error
	switch {
	case req.ChatSeq != nil:
		err = m.reportedLine(r.Context(), rep, req.Game, *req.ChatSeq)
	case req.User != "":
		err = m.reportedUser(r.Context(), rep, req.User, req.Game)
	default:
		err = wire.Refusef("report: name a user, or a game's chat line")
	}
	if err == nil && (rep.Target != "" && rep.Target == userID || rep.TargetName == name) {
		err = wire.Refuse("report_self", "you cannot report yourself")
	}
	return rep, err
}

// reportedUser fills in a report of the account called name, in game (""
// for none).
func (m *Moderation) reportedUser(ctx context.Context, rep *store.Report, name, game string) error {
	u, err := m.user(ctx, name)
	if err != nil {
		return err
	}
	if game != "" && !ids.Valid(game) {
		return wire.Refusef("game %q: not a game id", game)
	}
	rep.Target, rep.TargetName, rep.Game = u.ID, u.Name, game
	return nil
}

// user finds an account by name, refusing one there is none of.
func (m *Moderation) user(ctx context.Context, name string) (*store.User, error) {
	u := (*store.User)(nil)
	err := store.ErrNoUser
	if identity.CheckUserName(name) == nil {
		ctx, cancel := context.WithTimeout(ctx, m.cfg.WriteTimeout)
		u, err = m.cfg.Store.UserByName(ctx, name)
		cancel()
	}
	if errors.Is(err, store.ErrNoUser) {
		return nil, wire.Refuse("no_user", "no such user")
	}
	return u, err
}

// reportedLine fills in a report of game's chat line seq: its writer, and
// the line as it was written.
func (m *Moderation) reportedLine(ctx context.Context, rep *store.Report, game string, seq int) error {
	if !ids.Valid(game) {
		return wire.Refuse("no_game", "no such game")
	}
	ctx, cancel := context.WithTimeout(ctx, m.cfg.WriteTimeout)
	defer cancel()
	row, err := m.cfg.Store.Game(ctx, game)
	if err != nil {
		return err
	}
	lines, err := m.cfg.Store.Chat(ctx, game, seq)
	if err != nil {
		return err
	}
	if seq < 0 || len(lines) == 0 || lines[0].Seq != seq {
		return wire.Refuse("no_chat_line", "no such chat line")
	}
	l := lines[0]
	rep.Game, rep.ChatSeq, rep.TargetName = game, seq, l.Name
	if l.Side >= 0 {
		rep.Target = row.Users[l.Side]
	} else if u, err := m.cfg.Store.UserByName(ctx, l.Name); err == nil {
		rep.Target = u.ID // an account's spectator line; a guest's has no account
	}
	rep.Text = strings.TrimSpace(l.Text + "\n" + rep.Text)
	return nil
}

// FlagShared reports, for the moderators, a rated game between two
// accounts seen at one address or in one browser.
func (m *Moderation) FlagShared(ctx context.Context, row *store.Game) {
	a, b := row.Users[0], row.Users[1]
	if !row.Rated || a == "" || b == "" {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, m.cfg.WriteTimeout)
	defer cancel()
	kinds, err := m.cfg.Store.Shared(ctx, a, b)
	if err != nil || len(kinds) == 0 {
		return
	}
	rep := &store.Report{ID: ids.New(), Reporter: store.SystemReporter, Target: b, TargetName: row.Players[1], Game: row.ID, ChatSeq: -1,
		Reason: "shared_" + strings.Join(kinds, "_"), Text: fmt.Sprintf("a rated game between %s and %s, seen at one %s", row.Players[0], row.Players[1], strings.Join(kinds, " and ")),
		Created: time.Now().UnixMilli()}
	if err := m.cfg.Store.AddReport(ctx, rep); err != nil {
		m.cfg.Logger.Warn("shared-origin flag not saved", "game", row.ID, "err", err)
	}
}

// blockRequest is the body of POST /api/blocks/<name>.
type blockRequest struct {
	Block bool `json:"block"`
}

// handleBlocks lists whom the account blocks.
func (m *Moderation) handleBlocks(w http.ResponseWriter, r *http.Request) {
	userID := m.cfg.Identities.UserID(r)
	if userID == "" {
		jsonapi.Write(w, http.StatusOK, map[string][]string{"blocked": {}})
		return
	}
	list, err := m.cfg.Store.Blocks(r.Context(), userID)
	if err != nil {
		m.fail(w, r, err)
		return
	}
	if list == nil {
		list = []string{}
	}
	jsonapi.Write(w, http.StatusOK, map[string][]string{"blocked": list})
}

// handleBlock blocks or unblocks a player for the account.
func (m *Moderation) handleBlock(w http.ResponseWriter, r *http.Request) {
	var req blockRequest
	if !jsonapi.Read(w, r, &req) {
		return
	}
	userID := m.cfg.Identities.UserID(r)
	if userID == "" {
		jsonapi.WriteCoded(w, http.StatusUnauthorized, "block_login", "log in to block a player")
		return
	}
	u, err := m.user(r.Context(), r.PathValue("name"))
	if err == nil && u.ID == userID {
		err = wire.Refuse("block_self", "you cannot block yourself")
	}
	if err != nil {
		m.refuse(w, r, err)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), m.cfg.WriteTimeout)
	defer cancel()
	if req.Block {
		err = m.cfg.Store.Block(ctx, userID, u.ID, time.Now().UnixMilli())
	} else {
		err = m.cfg.Store.Unblock(ctx, userID, u.ID)
	}
	if err != nil {
		m.fail(w, r, err)
		return
	}
	jsonapi.Write(w, http.StatusOK, map[string]any{"name": u.Name, "blocked": req.Block})
}
