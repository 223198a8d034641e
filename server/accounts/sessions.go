package accounts

import (
	"context"
	"net/http"
	"time"

	"github.com/magneton-games/magneton/server/identity"
	"github.com/magneton-games/magneton/server/jsonapi"
	"github.com/magneton-games/magneton/store"
)

// sessionJSON is one logged-in browser as its account's list shows it.
type sessionJSON struct {
	ID      string `json:"id"`
	Created int64  `json:"created"`
	Seen    int64  `json:"seen"`
	Agent   string `json:"agent"`
	Current bool   `json:"current"`
}

// sessionsJSON is the list of an account's browsers, current marking the
// one with that token hash.
func sessionsJSON(list []store.Session, current string) map[string]any {
	out := []sessionJSON{}
	for _, se := range list {
		out = append(out, sessionJSON{ID: se.ID, Created: se.Created, Seen: se.Seen, Agent: se.Agent, Current: se.TokenHash == current})
	}
	return map[string]any{"sessions": out}
}

// answerSessions answers with the account's browsers logged in now.
func (a *Accounts) answerSessions(w http.ResponseWriter, r *http.Request, u *store.User, current string) {
	ctx, cancel := context.WithTimeout(r.Context(), a.cfg.WriteTimeout)
	defer cancel()
	list, err := a.cfg.Store.Sessions(ctx, u.ID, time.Now().Add(-identity.SessionLife).UnixMilli())
	if err != nil {
		a.fail(w, r, err)
		return
	}
	jsonapi.Write(w, http.StatusOK, sessionsJSON(list, current))
}

func (a *Accounts) handleSessions(w http.ResponseWriter, r *http.Request) {
	u, current := a.loggedIn(w, r)
	if u == nil {
		return
	}
	a.answerSessions(w, r, u, current)
}

// handleEndSessions logs out one of the account's other browsers (id),
// or all of them (others), and answers with those left.
func (a *Accounts) handleEndSessions(w http.ResponseWriter, r *http.Request) {
	var req struct {
		ID     string `json:"id"`
		Others bool   `json:"others"`
	}
	if !jsonapi.Read(w, r, &req) {
		return
	}
	u, current := a.loggedIn(w, r)
	if u == nil {
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), a.cfg.WriteTimeout)
	defer cancel()
	switch {
	case req.Others:
		if _, err := a.cfg.Store.EndOtherSessions(ctx, u.ID, current); err != nil {
			a.fail(w, r, err)
			return
		}
	case req.ID == store.SessionID(current):
		jsonapi.WriteError(w, http.StatusBadRequest, "this browser's session: log out with POST /api/account/logout")
		return
	case req.ID != "":
		ok, err := a.cfg.Store.EndSession(ctx, u.ID, req.ID)
		if err != nil {
			a.fail(w, r, err)
			return
		}
		if !ok {
			jsonapi.WriteCoded(w, http.StatusNotFound, "session_gone", "that browser is not logged in (any more)")
			return
		}
	default:
		jsonapi.WriteError(w, http.StatusBadRequest, `give the "id" of a session, or "others": true`)
		return
	}
	a.cfg.Logger.Info("browsers logged out", "user", u.Name, "all_others", req.Others)
	a.answerSessions(w, r, u, current)
}
