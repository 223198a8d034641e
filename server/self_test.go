package server

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/magneton-games/magneton/server/bots"
	"github.com/magneton-games/magneton/server/ids"
	"github.com/magneton-games/magneton/store"
)

// refusal is an answer's error as a front end reads it.
type refusal struct {
	Error string            `json:"error"`
	Code  string            `json:"code"`
	Vars  map[string]string `json:"vars"`
}

// refused checks that a request is refused with status and code.
func (u *user) refused(what, method, path string, body any, status int, code string) {
	u.t.Helper()
	var r refusal
	if got := u.do(method, path, body, &r); got != status || r.Code != code {
		u.t.Errorf("%s: %d %+v, want %d %s", what, got, r, status, code)
	}
}

// agentTransport sends a browser's User-Agent.
type agentTransport struct{ agent string }

func (a agentTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("User-Agent", a.agent)
	return http.DefaultTransport.RoundTrip(r)
}

// browserAs is a new browser whose User-Agent is agent.
func (s *testServer) browserAs(agent string) *user {
	u := s.user()
	u.http.Transport = agentTransport{agent}
	return u
}

// TestEmailAddress: an account's e-mail address, given at sign-up or
// later with the password, is shown to its owner only; a bad one is
// refused with what is wrong.
func TestEmailAddress(t *testing.T) {
	s := startServer(t, t.TempDir())
	guest := s.user()
	guest.refused("a bad address at sign-up", "POST", "/api/account/signup", map[string]string{"name": "ann", "password": "long enough", "email": "ann at example"}, http.StatusBadRequest, "email_bad")
	ann := s.signedUpWith("ann", "ann@example.org")
	var me struct {
		Name, Email string
		Mail        bool
	}
	if ann.do("GET", "/api/account", nil, &me); me.Email != "ann@example.org" || me.Mail {
		t.Errorf("ann's account: %+v", me)
	}
	for _, path := range []string{"/api/account", "/api/users/ann", "/api/users/ann/games"} {
		if code, body := guest.raw("GET", path, nil); code != http.StatusOK || strings.Contains(body, "example.org") {
			t.Errorf("%s to another: %d %s", path, code, body)
		}
	}
	ann.refused("a change with a wrong password", "POST", "/api/account/email", map[string]string{"password": "wrong", "email": "new@example.org"}, http.StatusUnauthorized, "password_wrong")
	ann.refused("a bad new address", "POST", "/api/account/email", map[string]string{"password": "long enough", "email": "Ann <ann@example.org>"}, http.StatusBadRequest, "email_bad")
	guest.refused("a guest's address", "POST", "/api/account/email", map[string]string{"password": "x", "email": "g@example.org"}, http.StatusUnauthorized, "account_login")
	if code := ann.do("POST", "/api/account/email", map[string]string{"password": "long enough", "email": " new@example.org "}, &me); code != http.StatusOK || me.Email != "new@example.org" {
		t.Errorf("a new address: %d %+v", code, me)
	}
	if code := ann.do("POST", "/api/account/email", map[string]string{"password": "long enough", "email": ""}, &me); code != http.StatusOK || me.Email != "" {
		t.Errorf("no address: %d %+v", code, me)
	}
}

type sessionsAnswer struct {
	Sessions []struct {
		ID, Agent     string
		Created, Seen int64
		Current       bool
	} `json:"sessions"`
}

// agents is what a browser's list of sessions says: each one's browser,
// "*" after the current one.
func (u *user) agents() string {
	u.t.Helper()
	var list sessionsAnswer
	if code := u.do("GET", "/api/account/sessions", nil, &list); code != http.StatusOK {
		u.t.Fatalf("sessions: %d", code)
	}
	var out []string
	for _, se := range list.Sessions {
		if se.Seen < se.Created || se.Created == 0 || len(se.ID) != 16 {
			u.t.Errorf("a session: %+v", se)
		}
		if se.Current {
			se.Agent += "*"
		}
		out = append(out, se.Agent)
	}
	return strings.Join(out, "; ")
}

// TestSessionsList: an account lists its logged-in browsers, this one
// marked, each by its browser in short; it logs out one of the others,
// then all others, and cannot log out another account's.
func TestSessionsList(t *testing.T) {
	s := startServer(t, t.TempDir())
	s.signedUp("ann")
	login := func(u *user) *user {
		if _, code := u.account("POST", "/api/account/login", map[string]string{"name": "ann", "password": "long enough"}); code != http.StatusOK {
			t.Fatalf("login: %d", code)
		}
		return u
	}
	laptop := login(s.browserAs("Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"))
	phone := login(s.browserAs("Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1"))
	tablet := login(s.browserAs("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36"))
	all := laptop.agents()
	for _, want := range []string{"Firefox 128, Linux*", "Safari 17, iPhone", "Chrome 126, Android", "Go-http-client/1.1"} {
		if !strings.Contains(all, want) {
			t.Errorf("ann's browsers %q lack %q", all, want)
		}
	}
	var list sessionsAnswer
	phone.do("GET", "/api/account/sessions", nil, &list)
	var phoneID, laptopID string
	for _, se := range list.Sessions {
		switch {
		case se.Current:
			phoneID = se.ID
		case strings.HasPrefix(se.Agent, "Firefox"):
			laptopID = se.ID
		}
	}
	bob := s.signedUp("bob")
	bob.refused("bob logs out ann's phone", "POST", "/api/account/sessions/logout", map[string]string{"id": phoneID}, http.StatusNotFound, "session_gone")
	if code := laptop.do("POST", "/api/account/sessions/logout", map[string]string{"id": phoneID}, &list); code != http.StatusOK || len(list.Sessions) != 3 {
		t.Errorf("log out the phone: %d %+v", code, list)
	}
	if a, _ := phone.account("GET", "/api/account", nil); !a.Guest {
		t.Errorf("the phone is still logged in: %+v", a)
	}
	laptop.refused("the phone again", "POST", "/api/account/sessions/logout", map[string]string{"id": phoneID}, http.StatusNotFound, "session_gone")
	if code := laptop.do("POST", "/api/account/sessions/logout", map[string]string{"id": laptopID}, nil); code != http.StatusBadRequest {
		t.Errorf("this browser by its id: %d, want 400 (log out instead)", code)
	}
	if code := laptop.do("POST", "/api/account/sessions/logout", map[string]bool{"others": true}, &list); code != http.StatusOK || len(list.Sessions) != 1 || !list.Sessions[0].Current {
		t.Errorf("log out the others: %d %+v", code, list)
	}
	if a, _ := tablet.account("GET", "/api/account", nil); !a.Guest {
		t.Errorf("the tablet is still logged in: %+v", a)
	}
	if got := laptop.agents(); got != "Firefox 128, Linux*" {
		t.Errorf("after the log-outs: %q", got)
	}
	phone.refused("a guest's sessions", "GET", "/api/account/sessions", nil, http.StatusUnauthorized, "account_login")
}

// TestDataDownload: an account downloads, as a JSON file, its profile
// and e-mail, its games with their moves, the lines it wrote, its
// lessons, sessions, tournaments and API tokens (not their secrets nor
// hashes); a guest has none; the downloads are limited.
func TestDataDownload(t *testing.T) {
	s := startServer(t, t.TempDir(), func(c *Config) { c.Limits = Limits{ExportsPerHour: 0.001, ExportsBurst: 2} })
	ann := s.signedUpWith("ann", "ann@example.org")
	c := ann.create(map[string]any{"opponent": "computer", "level": 1, "color": "first"})
	sock := ann.connect(c.ID)
	sock.openAgainstComputer()
	sock.send(map[string]string{"type": "chat", "text": "hello computer"})
	sock.send(map[string]string{"type": "resign"})
	sock.until("the end", func(st state) bool { return st.Status == "finished" })
	ann.do("POST", "/api/account/learn/magneton", map[string]any{"solved": []string{"drop"}}, nil)
	var tk bots.NewToken
	if code := ann.do("POST", "/api/account/tokens", map[string]string{"label": "my engine"}, &tk); code != http.StatusCreated {
		t.Fatalf("ann's token: %d %+v", code, tk)
	}
	var tr struct{ ID string }
	if code := ann.do("POST", "/api/tournaments", map[string]any{"name": "Ann's cup", "game": "magneton", "format": "arena", "clock": "3+0",
		"minutes": 10, "starts": time.Now().Add(time.Hour).UnixMilli()}, &tr); code != http.StatusCreated {
		t.Fatalf("ann's tournament: %d", code)
	}
	if code := ann.do("POST", "/api/tournaments/"+tr.ID+"/join", nil, nil); code != http.StatusOK {
		t.Fatalf("ann joins her tournament: %d", code)
	}
	resp, err := ann.http.Get(s.url + "/api/account/data")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if cd := resp.Header.Get("Content-Disposition"); resp.StatusCode != http.StatusOK || cd != `attachment; filename="magneton-ann.json"` {
		t.Fatalf("the download: %d %q %s", resp.StatusCode, cd, body)
	}
	var d struct {
		Account struct{ Name, Email string }
		Games   []struct {
			ID    string
			Seats []int
			Moves []struct{ Move string }
		}
		Chat        []struct{ Game, Text string }
		Lessons     map[string][]string
		Sessions    []struct{ Current bool }
		Tournaments []struct {
			ID, Name      string
			Made, Entered bool
		}
		Tokens []struct{ Label string } `json:"api_tokens"`
	}
	if err := json.Unmarshal(body, &d); err != nil {
		t.Fatal(err)
	}
	if d.Account.Name != "ann" || d.Account.Email != "ann@example.org" || len(d.Games) != 1 || d.Games[0].ID != c.ID || len(d.Games[0].Moves) < 2 ||
		len(d.Games[0].Seats) != 1 || d.Games[0].Seats[0] != 0 {
		t.Errorf("the account and games: %+v", d)
	}
	if len(d.Chat) != 1 || d.Chat[0].Text != "hello computer" || len(d.Lessons["magneton"]) != 1 || len(d.Sessions) != 1 || !d.Sessions[0].Current {
		t.Errorf("the chat, lessons and sessions: %s", body)
	}
	if strings.Contains(string(body), "long enough") || strings.Contains(string(body), "argon2") {
		t.Error("the download holds the password or its hash")
	}
	if len(d.Tournaments) != 1 || d.Tournaments[0].ID != tr.ID || d.Tournaments[0].Name != "Ann's cup" || !d.Tournaments[0].Made || !d.Tournaments[0].Entered {
		t.Errorf("the tournaments: %+v", d.Tournaments)
	}
	if len(d.Tokens) != 1 || d.Tokens[0].Label != "my engine" || strings.Contains(string(body), tk.Token) || strings.Contains(string(body), ids.Hash(tk.Token)) {
		t.Errorf("the API tokens (without their secret or hash): %+v", d.Tokens)
	}
	ann.do("GET", "/api/account/data", nil, nil)
	ann.refused("a third download", "GET", "/api/account/data", nil, http.StatusTooManyRequests, "data_fast")
	s.user().refused("a guest's data", "GET", "/api/account/data", nil, http.StatusUnauthorized, "account_login")
}

// deletedName is store.DeletedPlayer, as the wire carries it.
const deletedName = store.DeletedPlayer
