package server

import (
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/magneton-games/magneton/server/identity"
	"github.com/magneton-games/magneton/server/ids"
)

// guestPattern is a guest's generated name.
var guestPattern = regexp.MustCompile(`^Guest-[0-9]{4}$`)

type accountAnswer struct {
	Name  string `json:"name"`
	Guest bool   `json:"guest"`
	Error string `json:"error"`
}

func (u *user) account(method, path string, body any) (accountAnswer, int) {
	u.t.Helper()
	var a accountAnswer
	code := u.do(method, path, body, &a)
	return a, code
}

// TestAccounts: a guest plays under a generated name, signs up and takes
// its finished game along; logging in elsewhere, out, out everywhere and
// changing the password; and every refusal says what is wrong.
func TestAccounts(t *testing.T) {
	s := startServer(t, t.TempDir())
	defer s.stop()
	guest := s.user()
	c := guestGame(t, guest)
	other := signUp(t, s, guest, c)
	phone := logIn(t, s, other)
	changePassword(t, guest, phone, other)
	logOut(t, guest, phone)
	forgedSession(t, s)
}

// guestGame: a guest on a first visit has a generated name, which stays;
// it plays a game against the computer and resigns it. It returns the
// game.
func guestGame(t *testing.T, guest *user) created {
	me, code := guest.account("GET", "/api/account", nil)
	if code != http.StatusOK || !me.Guest || !guestPattern.MatchString(me.Name) {
		t.Fatalf("a first visit: %d %+v", code, me)
	}
	if again, _ := guest.account("GET", "/api/account", nil); again != me {
		t.Errorf("the guest's name changed: %+v, then %+v", me, again)
	}
	// A game against the computer, resigned: finished, with the guest's name.
	c := guest.create(map[string]any{"opponent": "computer", "level": 1, "color": "first"})
	sock := guest.connect(c.ID)
	sock.openAgainstComputer()
	sock.send(map[string]string{"type": "resign"})
	st := sock.until("the end", func(st state) bool { return st.Status == "finished" })
	if st.Sides[0].Player != "you" && st.Sides[0].Player != me.Name {
		t.Errorf("the guest's side shows %q", st.Sides[0].Player)
	}
	sock.conn.CloseNow()
	return c
}

// signUp: the guest signs up as Ann, after the refusals of bad names and
// passwords, and its finished game c shows Ann for its player, to
// another browser too, which then finds the name taken. It returns that
// other browser.
func signUp(t *testing.T, s *testServer, guest *user, c created) *user {
	for _, tc := range []struct {
		body map[string]string
		code int
		want string
	}{
		{map[string]string{"name": "x", "password": "long enough"}, http.StatusBadRequest, "2 to 20 characters"},
		{map[string]string{"name": "Guest-1", "password": "long enough"}, http.StatusBadRequest, "kept for guests"},
		{map[string]string{"name": "ann", "password": "short"}, http.StatusBadRequest, "too short"},
		{map[string]string{"name": "ann", "password": strings.Repeat("p", 201)}, http.StatusBadRequest, "too long"},
	} {
		if a, code := guest.account("POST", "/api/account/signup", tc.body); code != tc.code || !strings.Contains(a.Error, tc.want) {
			t.Errorf("sign-up %v: %d %q, want %d %q", tc.body, code, a.Error, tc.code, tc.want)
		}
	}
	if a, code := guest.account("POST", "/api/account/signup", map[string]string{"name": "Ann", "password": "long enough"}); code != http.StatusOK || a.Name != "Ann" || a.Guest {
		t.Fatalf("sign-up: %d %+v", code, a)
	}
	if got := guest.state(c.ID); got.Sides[0].Player != "Ann" && got.Sides[0].Player != "you" {
		t.Errorf("the guest's finished game shows %q for its player, want Ann", got.Sides[0].Player)
	}
	other := s.user()
	if got := other.state(c.ID); got.Sides[0].Player != "Ann" {
		t.Errorf("a spectator sees %q for the player who signed up, want Ann", got.Sides[0].Player)
	}
	if a, code := other.account("POST", "/api/account/signup", map[string]string{"name": "aNN", "password": "long enough"}); code != http.StatusConflict || !strings.Contains(a.Error, "taken") {
		t.Errorf("a taken name in other case: %d %q", code, a.Error)
	}
	return other
}

// logIn: Ann logs in from a second browser, after the refusals of a wrong
// password and an unknown name, and a new game's seat there carries her
// name, as other sees it. It returns the second browser.
func logIn(t *testing.T, s *testServer, other *user) *user {
	phone := s.user()
	if a, code := phone.account("POST", "/api/account/login", map[string]string{"name": "ann", "password": "wrong one"}); code != http.StatusUnauthorized || a.Error != "wrong user name or password" {
		t.Errorf("a wrong password: %d %q", code, a.Error)
	}
	if a, code := phone.account("POST", "/api/account/login", map[string]string{"name": "nobody", "password": "long enough"}); code != http.StatusUnauthorized || a.Error != "wrong user name or password" {
		t.Errorf("an unknown name: %d %q", code, a.Error)
	}
	if a, code := phone.account("POST", "/api/account/login", map[string]string{"name": "ann", "password": "long enough"}); code != http.StatusOK || a.Name != "Ann" {
		t.Fatalf("login (the name in other case): %d %+v", code, a)
	}
	// A new game's seat carries the account's name.
	c2 := phone.create(map[string]any{"opponent": "computer", "level": 1, "color": "second"})
	if got := other.state(c2.ID); got.Sides[1].Player != "Ann" {
		t.Errorf("a new game shows %q, want Ann", got.Sides[1].Player)
	}
	return phone
}

// changePassword: the current password is asked for, and a change logs
// out the other browsers (guest), not the one that changed it (phone); a
// guest (other) has none to change.
func changePassword(t *testing.T, guest, phone, other *user) {
	if a, code := phone.account("POST", "/api/account/password", map[string]string{"password": "wrong", "new_password": "newer password"}); code != http.StatusUnauthorized || !strings.Contains(a.Error, "current password is wrong") {
		t.Errorf("a change with a wrong password: %d %q", code, a.Error)
	}
	if a, code := phone.account("POST", "/api/account/password", map[string]string{"password": "long enough", "new_password": "tiny"}); code != http.StatusBadRequest || !strings.Contains(a.Error, "too short") {
		t.Errorf("a short new password: %d %q", code, a.Error)
	}
	if a, code := phone.account("POST", "/api/account/password", map[string]string{"password": "long enough", "new_password": "newer password"}); code != http.StatusOK || a.Name != "Ann" {
		t.Fatalf("a password change: %d %+v", code, a)
	}
	if a, _ := guest.account("GET", "/api/account", nil); !a.Guest {
		t.Errorf("the first browser is still logged in after the password change: %+v", a)
	}
	if a, _ := phone.account("GET", "/api/account", nil); a.Name != "Ann" {
		t.Errorf("the browser that changed it was logged out: %+v", a)
	}
	if a, _ := other.account("POST", "/api/account/password", map[string]string{"password": "x", "new_password": "newer password"}); !strings.Contains(a.Error, "log in") {
		t.Errorf("a guest changing a password: %q", a.Error)
	}
}

// logOut: logging out everywhere logs out every browser of the account;
// logging out of one browser only logs out that one.
func logOut(t *testing.T, guest, phone *user) {
	if _, code := guest.account("POST", "/api/account/login", map[string]string{"name": "Ann", "password": "newer password"}); code != http.StatusOK {
		t.Fatalf("login with the new password: %d", code)
	}
	if a, code := phone.account("POST", "/api/account/logout", map[string]bool{"everywhere": true}); code != http.StatusOK || !a.Guest {
		t.Errorf("logout everywhere: %d %+v", code, a)
	}
	if a, _ := guest.account("GET", "/api/account", nil); !a.Guest {
		t.Errorf("still logged in after logging out everywhere: %+v", a)
	}
	// Log out of one browser only.
	guest.account("POST", "/api/account/login", map[string]string{"name": "Ann", "password": "newer password"})
	phone.account("POST", "/api/account/login", map[string]string{"name": "Ann", "password": "newer password"})
	if a, code := phone.account("POST", "/api/account/logout", map[string]bool{}); code != http.StatusOK || !a.Guest {
		t.Errorf("logout: %d %+v", code, a)
	}
	if a, _ := guest.account("GET", "/api/account", nil); a.Name != "Ann" {
		t.Errorf("logging out one browser logged out another: %+v", a)
	}
}

// forgedSession: a forged session cookie is a guest, not an error.
func forgedSession(t *testing.T, s *testServer) {
	forged := s.user()
	req, _ := http.NewRequest("GET", s.url+"/api/account", nil)
	req.AddCookie(&http.Cookie{Name: identity.SessionCookie, Value: "forged-token"})
	resp, err := forged.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("a forged session cookie: %d", resp.StatusCode)
	}
}

// TestLoginLimits: failed logins for one name from one address are slowed
// to a halt with a message that says when to try again, while the same
// address may still log in as another account.
func TestLoginLimits(t *testing.T) {
	s := startServer(t, t.TempDir())
	defer s.stop()
	s.signedUp("ann")
	s.signedUp("bob")
	attacker := s.user()
	limited := false
	for i := range 8 {
		a, code := attacker.account("POST", "/api/account/login", map[string]string{"name": "ann", "password": "guess"})
		if code == http.StatusTooManyRequests {
			if !strings.Contains(a.Error, `too many attempts from your address for "ann": try again in`) {
				t.Errorf("the refusal: %q", a.Error)
			}
			limited = i >= 5
			break
		}
		if code != http.StatusUnauthorized {
			t.Fatalf("guess %d: %d %q", i, code, a.Error)
		}
	}
	if !limited {
		t.Error("failed logins were not limited after the burst of 5")
	}
	if _, code := attacker.account("POST", "/api/account/login", map[string]string{"name": "bob", "password": "long enough"}); code != http.StatusOK {
		t.Errorf("another account from the same address: %d", code)
	}
}

// TestGuestSignsUpMidGame: a guest who signs up during a game plays on
// under the account's name, and an expired session is a guest again.
func TestGuestSignsUpMidGame(t *testing.T) {
	s := startServer(t, t.TempDir())
	defer s.stop()
	g := s.user()
	c := g.create(map[string]any{"opponent": "computer", "level": 1, "color": "first"})
	watcher := s.user()
	if st := watcher.state(c.ID); !guestPattern.MatchString(st.Sides[0].Player) {
		t.Fatalf("the guest's side: %q", st.Sides[0].Player)
	}
	if _, code := g.account("POST", "/api/account/signup", map[string]string{"name": "dora", "password": "long enough"}); code != http.StatusOK {
		t.Fatalf("sign-up: %d", code)
	}
	if st := watcher.state(c.ID); st.Sides[0].Player != "dora" || st.Sides[0].User != "dora" || st.Status != "playing" {
		t.Errorf("after the sign-up mid-game: %s, %+v", st.Status, st.Sides[0])
	}
	if st := g.state(c.ID); st.Seat == nil || *st.Seat != 0 {
		t.Errorf("dora's seat: %v", st.Seat)
	}
	// A session older than its life is no login.
	u, err := s.st.UserByName(context.Background(), "dora")
	if err != nil {
		t.Fatal(err)
	}
	old := "old-session-token"
	if err := s.st.CreateSession(context.Background(), ids.Hash(old), u.ID, "", time.Now().Add(-identity.SessionLife-time.Hour).UnixMilli()); err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("GET", s.url+"/api/account", nil)
	req.AddCookie(&http.Cookie{Name: identity.SessionCookie, Value: old})
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var a accountAnswer
	json.NewDecoder(resp.Body).Decode(&a)
	resp.Body.Close()
	if !a.Guest {
		t.Errorf("an expired session: %+v, want a guest", a)
	}
}
