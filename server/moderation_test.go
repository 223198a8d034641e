package server

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/magneton-games/magneton/server/wire"
)

// moderator is an account with the moderators' role.
func (s *testServer) moderator(name string) *user {
	s.t.Helper()
	u := s.signedUp(name)
	if err := s.srv.Moderation().Grant(context.Background(), name, true); err != nil {
		s.t.Fatal(err)
	}
	return u
}

// nextError reads messages up to the next error and returns it.
func (s *sock) nextError() state {
	s.t.Helper()
	for {
		if st := s.next(); st.Type == "error" {
			return st
		}
	}
}

// reportList is the moderators' list of reports.
type reportList struct {
	Reports []wire.Report `json:"reports"`
	Error   string        `json:"error"`
}

// TestReportMuteAndBan: a player reports a chat line; a moderator sees it
// and mutes its writer, who is told so when chatting; a ban logs the
// player out, refuses its log-in and its moves, saying why; each action
// is logged; and only moderators may see or do any of it.
func TestReportMuteAndBan(t *testing.T) {
	s := startServer(t, t.TempDir())
	ann, bob := s.signedUp("ann"), s.signedUp("bob")
	mod := s.moderator("mia")
	c := ann.create(map[string]any{"opponent": "human", "color": "first"})
	bob.join(c.ID, map[string]string{"invite": c.Invite[strings.Index(c.Invite, "invite=")+7:]})
	sa, sb := ann.connect(c.ID), bob.connect(c.ID)
	sa.send(wire.ClientMsg{Type: "chat", Text: "you are terrible"})
	line := sb.nextChat()
	if code := bob.do("POST", "/api/reports", map[string]any{"game": c.ID, "chat_seq": line.Seq, "reason": "abuse", "text": "insults"}, nil); code != http.StatusCreated {
		t.Fatalf("bob's report: %d", code)
	}
	var list reportList
	if code := bob.do("GET", "/api/mod/reports", nil, &list); code != http.StatusForbidden {
		t.Errorf("a player reading the reports: %d", code)
	}
	if mod.do("GET", "/api/mod/reports", nil, &list); len(list.Reports) != 1 || list.Reports[0].Target != "ann" || !strings.Contains(list.Reports[0].Text, "you are terrible") {
		t.Fatalf("the reports: %+v", list)
	}
	rep := list.Reports[0]
	if code := mod.do("POST", "/api/mod/users/ann", map[string]any{"action": "mute", "minutes": 60, "reason": "insults", "report": rep.ID}, nil); code != http.StatusOK {
		t.Fatalf("the mute: %d", code)
	}
	sa.send(wire.ClientMsg{Type: "chat", Text: "sorry?"})
	if st := sa.nextError(); st.Code != "muted" || st.Vars["reason"] != "insults" {
		t.Errorf("a muted player's line: %+v", st)
	}
	var acct struct{ Standing wire.Standing }
	if ann.do("GET", "/api/account", nil, &acct); acct.Standing.MutedUntil == 0 || acct.Standing.Reason != "insults" {
		t.Errorf("ann's standing: %+v", acct.Standing)
	}
	if mod.do("GET", "/api/mod/reports", nil, &list); len(list.Reports) != 0 {
		t.Errorf("the report answered by the mute is still open: %+v", list.Reports)
	}
	mod.do("POST", "/api/mod/users/ann", map[string]any{"action": "ban", "reason": "cheating"}, nil)
	sa.send(wire.ClientMsg{Type: "move", Move: sa.last.Legal[0]})
	if st := sa.nextError(); st.Code != "banned" {
		t.Errorf("a banned player's move: %+v", st)
	}
	if a, code := ann.account("GET", "/api/account", nil); !a.Guest || code != http.StatusOK {
		t.Errorf("the banned player is still logged in: %+v", a)
	}
	var e struct{ Error, Code string }
	if code := ann.do("POST", "/api/account/login", map[string]string{"name": "ann", "password": "long enough"}, &e); code != http.StatusForbidden || e.Code != "banned" || !strings.Contains(e.Error, "cheating") {
		t.Errorf("a banned player's log-in: %d %s %q", code, e.Code, e.Error)
	}
	var log struct{ Actions []wire.ModAction }
	if mod.do("GET", "/api/mod/log", nil, &log); len(log.Actions) < 3 || log.Actions[0].Action != "ban" || log.Actions[0].Moderator != "mia" {
		t.Errorf("the log: %+v", log.Actions)
	}
}

// TestBlocks: a player blocks another: no game, no chat between them.
func TestBlocks(t *testing.T) {
	s := startServer(t, t.TempDir())
	ann, bob := s.signedUp("ann"), s.signedUp("bob")
	if code := ann.do("POST", "/api/blocks/bob", map[string]bool{"block": true}, nil); code != http.StatusOK {
		t.Fatalf("block: %d", code)
	}
	var blocks struct{ Blocked []string }
	if ann.do("GET", "/api/blocks", nil, &blocks); len(blocks.Blocked) != 1 || blocks.Blocked[0] != "bob" {
		t.Errorf("ann's blocks: %v", blocks.Blocked)
	}
	c := ann.create(map[string]any{"opponent": "human", "public": true})
	if j, code := bob.join(c.ID, map[string]string{}); code != http.StatusForbidden || !strings.Contains(j.Error, "blocks") {
		t.Errorf("bob joining ann's seek: %d %q", code, j.Error)
	}
	ann.do("POST", "/api/blocks/bob", map[string]bool{"block": false}, nil)
	if j, code := bob.join(c.ID, map[string]string{}); code != http.StatusOK {
		t.Errorf("after the unblock: %d %q", code, j.Error)
	}
	sa := ann.connect(c.ID)
	bob.do("POST", "/api/blocks/ann", map[string]bool{"block": true}, nil)
	sa.send(wire.ClientMsg{Type: "chat", Text: "hello"})
	sa.expectError("blocks")
}

// TestCloseRestoresOpponents: a closed account's rated games leave the
// ratings: its opponents get back what they lost to it.
func TestCloseRestoresOpponents(t *testing.T) {
	s := startServer(t, t.TempDir())
	ann, cheat := s.signedUp("ann"), s.signedUp("cheat")
	mod := s.moderator("mia")
	c := cheat.create(map[string]any{"opponent": "human", "rated": true, "public": true, "color": "first"})
	ann.join(c.ID, map[string]string{})
	sc, sa := cheat.connect(c.ID), ann.connect(c.ID)
	openHuman(sc, sa)
	sa.send(wire.ClientMsg{Type: "resign"})
	sa.until("rated", func(st state) bool {
		return st.Status == "finished" && st.Sides[1].RatingDiff != nil && *st.Sides[1].RatingDiff < 0
	})
	var p profile
	if ann.do("GET", "/api/users/ann", nil, &p); p.Ratings[0].Rating >= 1500 {
		t.Fatalf("ann's rating after her loss: %d", p.Ratings[0].Rating)
	}
	if code := mod.do("POST", "/api/mod/users/cheat", map[string]any{"action": "close", "reason": "engine use"}, nil); code != http.StatusOK {
		t.Fatalf("close: %d", code)
	}
	if ann.do("GET", "/api/users/ann", nil, &p); p.Ratings[0].Rating != 1500 || p.Ratings[0].Games != 0 {
		t.Errorf("ann's rating after her opponent was closed: %+v", p.Ratings[0])
	}
	var e struct{ Code string }
	if code := cheat.do("POST", "/api/account/login", map[string]string{"name": "cheat", "password": "long enough"}, &e); code != http.StatusForbidden || e.Code != "account_closed" {
		t.Errorf("a closed account's log-in: %d %s", code, e.Code)
	}
}

// TestSharedOriginFlag: a rated game between two accounts seen in one
// browser is flagged for the moderators.
func TestSharedOriginFlag(t *testing.T) {
	s := startServer(t, t.TempDir())
	s.signedUp("ann")
	s.signedUp("bob")
	mod := s.moderator("mia")
	browser := s.user() // one browser, two accounts in turn
	browser.account("POST", "/api/account/login", map[string]string{"name": "ann", "password": "long enough"})
	c := browser.create(map[string]any{"opponent": "human", "rated": true, "public": true})
	browser.account("POST", "/api/account/logout", map[string]any{})
	browser.account("POST", "/api/account/login", map[string]string{"name": "bob", "password": "long enough"})
	if j, code := browser.join(c.ID, map[string]string{}); code != http.StatusOK {
		t.Fatalf("bob's join: %d %q", code, j.Error)
	}
	var list reportList
	mod.do("GET", "/api/mod/reports", nil, &list)
	if len(list.Reports) != 1 || list.Reports[0].Reporter != "" || !strings.HasPrefix(list.Reports[0].Reason, "shared") || list.Reports[0].Game != c.ID {
		t.Errorf("the flags: %+v", list.Reports)
	}
}

// TestModeratorResetLink: a moderator makes a one-time link that sets a
// player's password, on a site without mail; the link works once and logs
// the player's browsers out; it is in the moderators' log. A player, a
// moderator's own account and another moderator's are refused.
func TestModeratorResetLink(t *testing.T) {
	s := startServer(t, t.TempDir())
	ann := s.signedUp("ann")
	mod := s.moderator("mia")
	s.moderator("max")
	var link struct {
		Name, Path, Error, Code string
		Expires                 int64
	}
	for _, tc := range []struct {
		who  *user
		name string
		code int
		want string
	}{
		{ann, "bob", http.StatusForbidden, "moderators_only"},
		{mod, "nobody", http.StatusNotFound, "no_user"},
		{mod, "mia", http.StatusBadRequest, "mod_self"},
		{mod, "max", http.StatusForbidden, "reset_moderator"},
	} {
		link.Code = ""
		if code := tc.who.do("POST", "/api/mod/users/"+tc.name+"/reset-link", map[string]any{}, &link); code != tc.code || link.Code != tc.want {
			t.Errorf("a link for %s: %d %s %q, want %d %s", tc.name, code, link.Code, link.Error, tc.code, tc.want)
		}
	}
	if code := mod.do("POST", "/api/mod/users/ANN/reset-link", map[string]any{}, &link); code != http.StatusOK || link.Name != "ann" ||
		!strings.HasPrefix(link.Path, "/reset#") || link.Expires < time.Now().Add(23*time.Hour).UnixMilli() {
		t.Fatalf("the moderator's link for ann: %d %+v", code, link)
	}
	token := strings.TrimPrefix(link.Path, "/reset#")
	owner := s.userFrom("127.0.3.7")
	if code := owner.do("POST", "/api/account/reset", map[string]string{"token": token, "password": "a new one here"}, nil); code != http.StatusOK {
		t.Fatalf("the link used: %d", code)
	}
	if code := owner.do("POST", "/api/account/reset", map[string]string{"token": token, "password": "and again here"}, nil); code != http.StatusBadRequest {
		t.Errorf("the link used twice: %d", code)
	}
	var acc struct{ Guest bool }
	if ann.do("GET", "/api/account", nil, &acc); !acc.Guest {
		t.Error("ann's browser is still logged in after the password was set")
	}
	if _, code := owner.account("POST", "/api/account/login", map[string]string{"name": "ann", "password": "a new one here"}); code != http.StatusOK {
		t.Errorf("ann's log-in with the new password: %d", code)
	}
	var log struct{ Actions []wire.ModAction }
	mod.do("GET", "/api/mod/log", nil, &log)
	if len(log.Actions) == 0 || log.Actions[0].Action != "reset_link" || log.Actions[0].Target != "ann" || log.Actions[0].Moderator != "mia" {
		t.Errorf("the log: %+v", log.Actions)
	}
}
