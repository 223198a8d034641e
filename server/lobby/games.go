package lobby

import (
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/magneton-games/magneton/record"
	"github.com/magneton-games/magneton/server/identity"
	"github.com/magneton-games/magneton/server/ids"
	"github.com/magneton-games/magneton/server/jsonapi"
	"github.com/magneton-games/magneton/server/live"
	"github.com/magneton-games/magneton/server/round"
	"github.com/magneton-games/magneton/server/wire"
	"github.com/magneton-games/magneton/store"
)

func (l *Lobby) handleState(w http.ResponseWriter, r *http.Request) {
	id, ok := jsonapi.PathID(w, r)
	if !ok {
		return
	}
	s, _, seat, ok := l.seatOf(w, r, id)
	if !ok {
		return
	}
	jsonapi.Write(w, http.StatusOK, s.State(seat))
}

// joinRequest is the body of POST /api/games/<id>/join.
type joinRequest struct {
	Invite    string `json:"invite"`
	RematchOf string `json:"rematch_of"`
}

func (l *Lobby) handleJoin(w http.ResponseWriter, r *http.Request) {
	id, ok := jsonapi.PathID(w, r)
	if !ok {
		return
	}
	var req joinRequest
	if !jsonapi.Read(w, r, &req) {
		return
	}
	s, err := l.cfg.Rooms.Session(r.Context(), id, false)
	if err != nil {
		l.fail(w, r, err)
		return
	}
	if req.RematchOf != "" {
		l.joinRematch(w, r, s.Row(), req.RematchOf)
		return
	}
	who, err := l.cfg.Identities.Who(w, r)
	if err != nil {
		l.fail(w, r, err)
		return
	}
	if row := s.Row(); identity.SeatOf(r, &row, who.User) >= 0 {
		jsonapi.Write(w, http.StatusOK, wire.Joined{ID: id, Seat: identity.SeatOf(r, &row, who.User)}) // already seated
		return
	}
	err = l.mayJoin(r, s.Row(), who.User)
	if err == nil && l.isBot(r) {
		err = errBotOnly
	}
	if err != nil {
		l.refuse(w, r, err)
		return
	}
	inviteHash := ""
	if req.Invite != "" {
		inviteHash = ids.Hash(req.Invite)
	}
	l.seatJoiner(w, r, s, inviteHash, who)
}

// seatJoiner gives who the free seat of the game s (with the hash of its
// invitation, if any) and answers the seat, its cookie set.
func (l *Lobby) seatJoiner(w http.ResponseWriter, r *http.Request, s *round.Session, inviteHash string, who live.Player) {
	token := ids.Token()
	seat, err := l.cfg.Rooms.JoinAnywhere(s, ids.Hash(token), inviteHash, who)
	if err != nil {
		var rf wire.Refusal
		if errors.As(err, &rf) && rf.Forbidden {
			jsonapi.WriteRefusal(w, http.StatusForbidden, rf)
			return
		}
		l.fail(w, r, err)
		return
	}
	id := s.Row().ID
	l.cfg.Logger.Info("player joined", "game", id, "seat", seat)
	l.cfg.Identities.SetSeatCookie(w, r, id, token)
	jsonapi.Write(w, http.StatusOK, wire.Joined{ID: id, Seat: seat})
}

// mayJoin refuses the joiner of row, the account userID ("" for a guest),
// when it is banned or closed, or when it and the game's creator block
// one another.
func (l *Lobby) mayJoin(r *http.Request, row store.Game, userID string) error {
	if err := l.mayPlay(r, userID); err != nil {
		return err
	}
	if l.cfg.Moderation == nil {
		return nil
	}
	for _, creator := range row.Users {
		if err := l.cfg.Moderation.CheckPair(r.Context(), creator, userID); err != nil {
			return badRequest{http.StatusForbidden, err}
		}
	}
	return nil
}

// joinRematch gives the caller its seat in a rematch: the seat cookie of
// the old game proves it, and the token carries over.
func (l *Lobby) joinRematch(w http.ResponseWriter, r *http.Request, row store.Game, oldID string) {
	c, err := r.Cookie(identity.SeatCookie(oldID))
	if err != nil || c.Value == "" || !ids.Valid(oldID) {
		jsonapi.WriteError(w, http.StatusForbidden, "no seat in game "+oldID)
		return
	}
	if row.RematchOf != oldID {
		jsonapi.WriteError(w, http.StatusBadRequest, fmt.Sprintf("game %s is not the rematch of %s", row.ID, oldID))
		return
	}
	h := ids.Hash(c.Value)
	for i, seat := range row.Seats {
		if seat != "" && seat == h {
			l.cfg.Identities.SetSeatCookie(w, r, row.ID, c.Value)
			jsonapi.Write(w, http.StatusOK, wire.Joined{ID: row.ID, Seat: i})
			return
		}
	}
	jsonapi.WriteError(w, http.StatusForbidden, "no seat in game "+oldID)
}

// handleCancel takes back the caller's seek.
func (l *Lobby) handleCancel(w http.ResponseWriter, r *http.Request) {
	id, ok := jsonapi.PathIDAndEmptyBody(w, r)
	if !ok {
		return
	}
	s, _, seat, ok := l.seatOf(w, r, id)
	if !ok {
		return
	}
	if seat < 0 {
		jsonapi.WriteError(w, http.StatusForbidden, "only the player waiting in this game can cancel it")
		return
	}
	if err := l.cfg.Rooms.ActAnywhere(s, seat, wire.ClientMsg{Type: "cancel"}); err != nil {
		l.fail(w, r, err)
		return
	}
	jsonapi.Write(w, http.StatusOK, map[string]any{"id": id, "status": store.Aborted})
}

func (l *Lobby) handleRecord(w http.ResponseWriter, r *http.Request) {
	id, ok := jsonapi.PathID(w, r)
	if !ok {
		return
	}
	name := r.URL.Query().Get("format")
	if name == "" {
		name = record.PGN.Name
	}
	s, err := l.cfg.Rooms.Session(r.Context(), id, false)
	if err != nil {
		l.fail(w, r, err)
		return
	}
	l.writeRecord(w, r, s, name)
}

// writeRecord answers a game's record in the format of that name.
func (l *Lobby) writeRecord(w http.ResponseWriter, r *http.Request, s *round.Session, name string) {
	g := s.Game()
	format, err := record.FormatOf(g.Spec(), name)
	if err != nil {
		jsonapi.WriteError(w, http.StatusBadRequest, fmt.Sprintf("format: %v", err))
		return
	}
	row := g.Row()
	text, err := format.Write(live.Transcript(&row, g.History(), l.cfg.Proxies.Site(r, l.cfg.SiteURL)))
	if err != nil {
		l.fail(w, r, fmt.Errorf("record: %w", err))
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s-%s.%s"`, row.Game, row.ID, format.Name))
	io.WriteString(w, text)
}
