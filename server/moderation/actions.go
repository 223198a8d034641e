package moderation

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/magneton-games/magneton/server/ids"
	"github.com/magneton-games/magneton/server/jsonapi"
	"github.com/magneton-games/magneton/server/wire"
	"github.com/magneton-games/magneton/store"
)

// The longest mute a moderator gives, and the reason's length.
const (
	maxMute   = 30 * 24 * time.Hour
	maxReason = 300
)

// moderator returns the request's account when it is a moderator's, or
// answers the client itself.
func (m *Moderation) moderator(w http.ResponseWriter, r *http.Request) (*store.User, bool) {
	u, err := m.cfg.Identities.User(r)
	if err != nil {
		m.fail(w, r, err)
		return nil, false
	}
	if u != nil {
		st, err := m.Standing(r.Context(), u.ID)
		if err != nil {
			m.fail(w, r, err)
			return nil, false
		}
		if st.Role == store.RoleModerator && refusalOf(st) == nil {
			return u, true
		}
	}
	jsonapi.WriteCoded(w, http.StatusForbidden, "moderators_only", "only the site's moderators may do that")
	return nil, false
}

func (m *Moderation) handleReports(w http.ResponseWriter, r *http.Request) {
	if _, ok := m.moderator(w, r); !ok {
		return
	}
	list, err := m.cfg.Store.Reports(r.Context(), r.URL.Query().Get("closed") == "", 200)
	if err != nil {
		m.fail(w, r, err)
		return
	}
	out := []wire.Report{}
	for _, rp := range list {
		out = append(out, wire.Report{ID: rp.ID, Reporter: rp.ReporterName, Target: rp.TargetName, Game: rp.Game, ChatSeq: rp.ChatSeq,
			Reason: rp.Reason, Text: rp.Text, Created: rp.Created, Closed: rp.Closed, Outcome: rp.Outcome})
	}
	jsonapi.Write(w, http.StatusOK, map[string]any{"reports": out})
}

func (m *Moderation) handleLog(w http.ResponseWriter, r *http.Request) {
	if _, ok := m.moderator(w, r); !ok {
		return
	}
	list, err := m.cfg.Store.ModLog(r.Context(), 200)
	if err != nil {
		m.fail(w, r, err)
		return
	}
	out := []wire.ModAction{}
	for _, a := range list {
		out = append(out, wire.ModAction{Moderator: a.ModeratorName, Action: a.Action, Target: a.TargetName, Game: a.Game, Reason: a.Reason, At: a.At})
	}
	jsonapi.Write(w, http.StatusOK, map[string]any{"actions": out})
}

// actionRequest is the body of a moderator's action: the action (on a
// player: mute, unmute, ban, unban, close), a mute's minutes, the reason
// the player is told, and the report it answers ("" for none), which it
// closes.
type actionRequest struct {
	Action  string `json:"action"`
	Minutes int    `json:"minutes"`
	Reason  string `json:"reason"`
	Report  string `json:"report"`
}

// checkReason tidies an action's reason.
func checkReason(reason string) (string, error) {
	reason = strings.TrimSpace(reason)
	if len([]rune(reason)) > maxReason {
		return "", wire.Refuse("reason_long", fmt.Sprintf("a reason is at most %d characters", maxReason), "max", fmt.Sprint(maxReason))
	}
	return reason, nil
}

// target is the account named name that moderator mod acts on: refused
// when it is mod's own.
func (m *Moderation) target(ctx context.Context, mod *store.User, name string) (*store.User, error) {
	u, err := m.user(ctx, name)
	if err == nil && u.ID == mod.ID {
		err = wire.Refuse("mod_self", "a moderator does not act on their own account")
	}
	return u, err
}

func (m *Moderation) handleUserAction(w http.ResponseWriter, r *http.Request) {
	mod, ok := m.moderator(w, r)
	if !ok {
		return
	}
	var req actionRequest
	if !jsonapi.Read(w, r, &req) {
		return
	}
	u, err := m.target(r.Context(), mod, r.PathValue("name"))
	if err == nil {
		req.Reason, err = checkReason(req.Reason)
	}
	if err == nil {
		err = m.actOn(r.Context(), u, req, time.Now())
	}
	if err != nil {
		m.refuse(w, r, err)
		return
	}
	m.logged(r.Context(), mod, req.Action, u, "", req.Reason, req.Report)
	st, _ := m.Standing(r.Context(), u.ID)
	jsonapi.Write(w, http.StatusOK, map[string]any{"name": u.Name, "standing": Wire(st)})
}

// actOn carries out a moderator's action on account u at now.
func (m *Moderation) actOn(ctx context.Context, u *store.User, req actionRequest, now time.Time) error {
	ctx, cancel := context.WithTimeout(ctx, m.cfg.WriteTimeout)
	defer cancel()
	st, err := m.cfg.Store.Standing(ctx, u.ID)
	if err != nil {
		return err
	}
	logout := false
	switch req.Action {
	case "mute":
		d := time.Duration(req.Minutes) * time.Minute
		if d <= 0 || d > maxMute {
			return wire.Refuse("mute_minutes", fmt.Sprintf("a mute is 1 minute to %d days, not %d minutes", int(maxMute.Hours()/24), req.Minutes), "max", strconv.Itoa(int(maxMute/time.Minute)))
		}
		st.MutedUntil, st.Reason = now.Add(d).UnixMilli(), req.Reason
	case "unmute":
		st.MutedUntil = 0
	case "ban":
		st.Banned, st.Reason, logout = now.UnixMilli(), req.Reason, true
	case "unban":
		st.Banned = 0
	case "close":
		st.Closed, st.Reason, logout = now.UnixMilli(), req.Reason, true
	default:
		return wire.Refusef("action %q: want mute, unmute, ban, unban or close", req.Action)
	}
	if err := m.cfg.Store.SetStanding(ctx, u.ID, st); err != nil {
		return err
	}
	m.forget(u.ID)
	if logout {
		if err := m.cfg.Store.DeleteSessions(ctx, u.ID, ""); err != nil {
			return err
		}
	}
	if req.Action == "close" {
		return m.restoreOpponents(ctx, u.ID, now)
	}
	return nil
}

// restoreOpponents takes every rated game of a closed account off the
// ratings: its opponents get back what they lost to it, and give back what
// they won.
func (m *Moderation) restoreOpponents(ctx context.Context, userID string, now time.Time) error {
	games, err := m.cfg.Store.RatedGames(ctx, userID)
	if err != nil {
		return err
	}
	for _, id := range games {
		if err := m.cfg.Store.VoidGame(ctx, id, now.UnixMilli()); err != nil && !errors.Is(err, store.ErrNotVoidable) {
			return err
		}
	}
	return nil
}

func (m *Moderation) handleVoid(w http.ResponseWriter, r *http.Request) {
	mod, ok := m.moderator(w, r)
	if !ok {
		return
	}
	id, ok := jsonapi.PathID(w, r)
	if !ok {
		return
	}
	var req actionRequest
	if !jsonapi.Read(w, r, &req) {
		return
	}
	reason, err := checkReason(req.Reason)
	if err == nil {
		err = m.cfg.Store.VoidGame(r.Context(), id, time.Now().UnixMilli())
	}
	if errors.Is(err, store.ErrNotVoidable) {
		err = wire.Refuse("not_voidable", "this game's result is in no rating")
	}
	if err != nil {
		m.refuse(w, r, err)
		return
	}
	m.logged(r.Context(), mod, "void", nil, id, reason, req.Report)
	jsonapi.Write(w, http.StatusOK, map[string]any{"game": id, "voided": true})
}

func (m *Moderation) handleCloseReport(w http.ResponseWriter, r *http.Request) {
	mod, ok := m.moderator(w, r)
	if !ok {
		return
	}
	var req actionRequest
	if !jsonapi.Read(w, r, &req) {
		return
	}
	err := m.cfg.Store.CloseReport(r.Context(), r.PathValue("id"), mod.ID, "dismissed", time.Now().UnixMilli())
	if errors.Is(err, store.ErrNoReport) {
		jsonapi.WriteCoded(w, http.StatusNotFound, "no_report", "no such open report")
		return
	}
	if err != nil {
		m.fail(w, r, err)
		return
	}
	m.logged(r.Context(), mod, "dismiss", nil, "", req.Reason, "")
	jsonapi.Write(w, http.StatusOK, map[string]any{"id": r.PathValue("id"), "closed": true})
}

// logged logs a moderator's action (on account u, or game, or neither),
// and closes the report it answers.
func (m *Moderation) logged(ctx context.Context, mod *store.User, action string, u *store.User, game, reason, report string) {
	ctx, cancel := context.WithTimeout(ctx, m.cfg.WriteTimeout)
	defer cancel()
	a := &store.ModAction{ID: ids.New(), Moderator: mod.ID, ModeratorName: mod.Name, Action: action, Game: game, Reason: reason, At: time.Now().UnixMilli()}
	if u != nil {
		a.Target, a.TargetName = u.ID, u.Name
	}
	if err := m.cfg.Store.LogAction(ctx, a); err != nil {
		m.cfg.Logger.Error("moderator's action not logged", "action", action, "err", err)
	}
	m.cfg.Logger.Info("moderation", "moderator", mod.Name, "action", action, "target", a.TargetName, "game", game)
	if report != "" {
		if err := m.cfg.Store.CloseReport(ctx, report, mod.ID, action, a.At); err != nil && !errors.Is(err, store.ErrNoReport) {
			m.cfg.Logger.Warn("report not closed", "report", report, "err", err)
		}
	}
}

// Told is an account's standing as its owner is told it ("" for a guest:
// the zero standing).
func (m *Moderation) Told(ctx context.Context, userID string) (wire.Standing, error) {
	st, err := m.Standing(ctx, userID)
	return Wire(st), err
}

// Wire is a standing as its owner is told it.
func Wire(st store.Standing) wire.Standing {
	return wire.Standing{Moderator: st.Role == store.RoleModerator, MutedUntil: st.MutedUntil, Banned: st.Banned != 0, Closed: st.Closed != 0, Reason: st.Reason}
}

// Grant gives or takes back the moderator role of the account called
// name, as Grant does, and takes effect here at once.
func (m *Moderation) Grant(ctx context.Context, name string, moderator bool) error {
	if err := Grant(ctx, m.cfg.Store, name, moderator); err != nil {
		return err
	}
	m.mu.Lock()
	clear(m.standings)
	m.mu.Unlock()
	return nil
}

// Grant gives or takes back the moderator role of the account called
// name (for `magneton admin moderator`), logged as the command line's.
// Other instances see it within standingTTL.
func Grant(ctx context.Context, st Store, name string, moderator bool) error {
	u, err := st.UserByName(ctx, name)
	if err != nil {
		return fmt.Errorf("moderator %s: %w", name, err)
	}
	s, err := st.Standing(ctx, u.ID)
	if err != nil {
		return err
	}
	action := "revoke"
	s.Role = ""
	if moderator {
		action, s.Role = "grant", store.RoleModerator
	}
	if err := st.SetStanding(ctx, u.ID, s); err != nil {
		return err
	}
	return st.LogAction(ctx, &store.ModAction{ID: ids.New(), Moderator: "command line", Action: action, Target: u.ID, TargetName: u.Name, At: time.Now().UnixMilli()})
}
