package server

import (
	"net/http"
	"strings"
	"testing"
)

// TestDeleteAccount: an account with a game waiting is not deleted, nor
// without its password; once deleted, its finished game shows the
// deleted player in its seat and its lines, in memory and from the
// database, on the opponent's profile and in the PGN; its own profile and
// login are gone, and its name is free, but no name passes for the
// deleted player.
func TestDeleteAccount(t *testing.T) {
	s := startServer(t, t.TempDir())
	ann, bob, stranger := s.signedUp("ann"), s.signedUp("bob"), s.user()
	watched := annWatches(t, s, ann)
	id := deletedAnnsGame(t, s, ann, bob)
	if chat := stranger.state(watched).Chat; len(chat) != 1 || chat[0].Name != deletedName {
		t.Errorf("ann's line as a spectator of a game in memory: %+v", chat)
	}
	st := stranger.state(id)
	if st.Sides[0].Player != deletedName || st.Sides[0].User != "" || st.Sides[1].Player != "bob" {
		t.Errorf("the game after the deletion: %+v", st.Sides)
	}
	var lines []string
	for _, l := range st.Chat {
		lines = append(lines, l.Name+": "+l.Text)
	}
	if strings.Join(lines, "|") != deletedName+": good luck|bob: thanks" {
		t.Errorf("the game's chat: %q", lines)
	}
	if st := ann.state(id); st.Seat != nil {
		t.Errorf("ann's old browser still holds seat %d", *st.Seat)
	}
	var profile struct {
		Games []struct {
			Players, Users []string
		}
	}
	if bob.do("GET", "/api/users/bob", nil, &profile); len(profile.Games) != 1 || profile.Games[0].Players[0] != deletedName || profile.Games[0].Users[0] != "" {
		t.Errorf("bob's profile: %+v", profile)
	}
	if _, pgn := bob.raw("GET", "/api/users/bob/games.pgn", nil); !strings.Contains(pgn, deletedName) || strings.Contains(pgn, `"ann"`) {
		t.Errorf("bob's PGN:\n%s", pgn)
	}
	stranger.refused("ann's profile", "GET", "/api/users/ann", nil, http.StatusNotFound, "no_user")
	stranger.refused("ann's login", "POST", "/api/account/login", map[string]string{"name": "ann", "password": "long enough"}, http.StatusUnauthorized, "login_wrong")
	newAnn := s.signedUp("Ann")
	if newAnn.do("GET", "/api/users/ann", nil, &profile); len(profile.Games) != 0 {
		t.Errorf("the new ann's profile: %+v", profile)
	}
	for _, name := range []string{"deleted", "Deleted_player", "de1eted-x", "DELETEDplayer"} {
		stranger.refused("the name "+name, "POST", "/api/account/signup", map[string]string{"name": name, "password": "long enough"}, http.StatusBadRequest, "name_reserved")
	}
}

// deletedAnnsGame: ann plays bob, who resigns, with a line each; ann
// cannot delete her account while a seek of hers waits, nor with a wrong
// password, nor as a guest; with the seek cancelled she deletes it, and
// her browser is a guest. It returns the game.
func deletedAnnsGame(t *testing.T, s *testServer, ann, bob *user) string {
	t.Helper()
	c := ann.create(map[string]any{"game": "magneton", "opponent": "human", "color": "first"})
	tok := c.Invite[strings.Index(c.Invite, "invite=")+len("invite="):]
	if _, code := bob.join(c.ID, map[string]string{"invite": tok}); code != http.StatusOK {
		t.Fatalf("join: %d", code)
	}
	sa, sb := ann.connect(c.ID), bob.connect(c.ID)
	openHuman(sa, sb)
	sa.send(map[string]string{"type": "chat", "text": "good luck"})
	for st := sb.next(); st.Type != "chat"; st = sb.next() {
	}
	sb.send(map[string]string{"type": "chat", "text": "thanks"})
	sb.send(map[string]string{"type": "resign"})
	sa.until("the end", func(st state) bool { return st.Status == "finished" })
	seek := ann.create(map[string]any{"game": "magneton", "opponent": "human", "color": "first", "public": true})
	var r refusal
	if code := ann.do("POST", "/api/account/delete", map[string]string{"password": "long enough"}, &r); code != http.StatusConflict || r.Code != "delete_playing" || r.Vars["n"] != "1" {
		t.Errorf("deleting ann while her seek waits: %d %+v", code, r)
	}
	if code := ann.do("POST", "/api/games/"+seek.ID+"/cancel", map[string]any{}, nil); code != http.StatusOK {
		t.Fatalf("cancel the seek: %d", code)
	}
	ann.refused("a wrong password", "POST", "/api/account/delete", map[string]string{"password": "wrong"}, http.StatusUnauthorized, "password_wrong")
	s.user().refused("a guest", "POST", "/api/account/delete", map[string]string{"password": "long enough"}, http.StatusUnauthorized, "account_login")
	if a, code := ann.account("POST", "/api/account/delete", map[string]string{"password": "long enough"}); code != http.StatusOK || !a.Guest {
		t.Fatalf("the deletion: %d %+v", code, a)
	}
	return c.ID
}

// annWatches: ann writes a line as a spectator of a game being played,
// which stays in memory; it returns the game.
func annWatches(t *testing.T, s *testServer, ann *user) string {
	t.Helper()
	c := s.user().create(map[string]any{"opponent": "computer", "level": 1, "color": "first"})
	sock := ann.connect(c.ID)
	sock.send(map[string]string{"type": "chat", "text": "nice"})
	for st := sock.next(); st.Type != "chat"; st = sock.next() {
	}
	if chat := s.user().state(c.ID).Chat; len(chat) != 1 || chat[0].Name != "ann" {
		t.Fatalf("ann's line: %+v", chat)
	}
	return c.ID
}
