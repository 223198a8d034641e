package moderation

import (
	"context"
	"net/http"
	"time"

	"github.com/magneton-games/magneton/server/accounts"
	"github.com/magneton-games/magneton/server/jsonapi"
	"github.com/magneton-games/magneton/server/wire"
	"github.com/magneton-games/magneton/store"
)

// resetLinkLife is how long a moderator's link that sets a password
// works: long enough to reach its owner by another channel, short
// enough that a link left in a chat log is soon of no use.
const resetLinkLife = accounts.AdminLinkLife

// handleResetLink makes a one-time link that sets the password of the
// account named in the path, for a player who cannot log in on a site
// that sends no mail (or whose account has no address). It answers the
// link's path, the token in the fragment, which the moderators' page
// puts after the site's address as the moderator sees it: the server
// never builds a link from a request's Host. Moderators' accounts are
// the operator's to reset (magneton admin reset-link), so that no
// moderator can take another's.
func (m *Moderation) handleResetLink(w http.ResponseWriter, r *http.Request) {
	mod, ok := m.moderator(w, r)
	if !ok {
		return
	}
	u, err := m.target(r.Context(), mod, r.PathValue("name"))
	if err == nil {
		var st store.Standing
		if st, err = m.Standing(r.Context(), u.ID); err == nil && st.Role != "" {
			err = wire.Forbid("reset_moderator", "a moderator's password is reset by the site's operator (magneton admin reset-link)")
		}
	}
	var token string
	if err == nil {
		ctx, cancel := context.WithTimeout(r.Context(), m.cfg.WriteTimeout)
		token, err = accounts.IssueReset(ctx, m.cfg.Store, u.ID, resetLinkLife, store.ResetByModerator)
		cancel()
	}
	if err != nil {
		m.refuse(w, r, err)
		return
	}
	m.logged(r.Context(), mod, "reset_link", u, "", "", "")
	jsonapi.Write(w, http.StatusOK, map[string]any{"name": u.Name, "path": accounts.ResetLink("", token), "expires": time.Now().Add(resetLinkLife).UnixMilli()})
}
