package server

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestTournamentRefusals: every mistake in making, joining, leaving,
// pausing and starting a tournament gets its status and code.
func TestTournamentRefusals(t *testing.T) {
	s := tourneyServer(t, 0)
	ann, bob := newRobot(t, s.url, "ann", 1), newRobot(t, s.url, "bob", 2)
	guest := &robot{name: "guest", http: s.user().http, urls: func() string { return s.url }}
	ok := map[string]any{"name": "Fine name", "game": "magneton", "format": "swiss", "clock": "3+2", "starts": time.Now().Add(time.Hour).UnixMilli()}
	with := func(k string, v any) map[string]any {
		m := map[string]any{}
		for a, b := range ok {
			m[a] = b
		}
		m[k] = v
		return m
	}
	for _, tc := range []struct {
		who  *robot
		body map[string]any
		code int
		want string
	}{
		{guest, ok, http.StatusForbidden, "tournament_login"},
		{ann, with("name", "ab"), http.StatusBadRequest, "tournament_name"},
		{ann, with("name", strings.Repeat("x", 41)), http.StatusBadRequest, "tournament_name"},
		{ann, with("format", "knockout"), http.StatusBadRequest, "tournament_format"},
		{ann, with("clock", ""), http.StatusBadRequest, "tournament_clock"},
		{ann, with("clock", "9x"), http.StatusBadRequest, ""},
		{ann, with("rounds", 2), http.StatusBadRequest, "tournament_rounds"},
		{ann, with("rounds", 12), http.StatusBadRequest, "tournament_rounds"},
		{ann, with("starts", time.Now().Add(31*24*time.Hour).UnixMilli()), http.StatusBadRequest, "tournament_start"},
		{ann, with("starts", time.Now().Add(-time.Hour).UnixMilli()), http.StatusBadRequest, "tournament_start"},
		{ann, map[string]any{"name": "Arena", "game": "magneton", "format": "arena", "clock": "1+0", "minutes": 9}, http.StatusBadRequest, "tournament_minutes"},
		{ann, map[string]any{"name": "Arena", "game": "magneton", "format": "arena", "clock": "1+0", "minutes": 181}, http.StatusBadRequest, "tournament_minutes"},
		{ann, with("rules", "win=owner-wins"), http.StatusCreated, ""},
		{ann, map[string]any{"name": "Rated odd", "game": "magneton", "rules": "win=owner-wins", "format": "swiss", "clock": "3+2", "rated": true}, http.StatusBadRequest, "rated_variant"},
		{ann, with("format", "roundrobin"), http.StatusCreated, ""},
		{ann, ok, http.StatusConflict, "tournament_limit"},
	} {
		code, body := tc.who.post("/api/tournaments", tc.body)
		var ans struct{ Code string }
		json.Unmarshal([]byte(body), &ans)
		if code != tc.code || ans.Code != tc.want {
			t.Errorf("%s makes %v: %d %s, want %d %s", tc.who.name, tc.body, code, body, tc.code, tc.want)
		}
	}
	entryRefusals(t, ann, bob, guest)
}

// entryRefusals: joining twice, a stranger withdrawing, pausing a Swiss,
// starting another's or with too few players.
func entryRefusals(t *testing.T, ann, bob, guest *robot) {
	var list struct{ Upcoming []struct{ ID, Format string } }
	resp, err := ann.http.Get(ann.urls() + "/api/tournaments")
	if err != nil {
		t.Fatal(err)
	}
	json.NewDecoder(resp.Body).Decode(&list)
	resp.Body.Close()
	if len(list.Upcoming) != 2 {
		t.Fatalf("upcoming: %+v", list)
	}
	id := list.Upcoming[0].ID
	for _, tc := range []struct {
		who        *robot
		path, want string
		code       int
	}{
		{guest, "join", "tournament_login", http.StatusForbidden},
		{bob, "withdraw", "tournament_not_entered", http.StatusConflict},
		{bob, "join", "", http.StatusOK},
		{bob, "join", "tournament_entered", http.StatusConflict},
		{bob, "pause", "tournament_not_arena", http.StatusConflict},
		{bob, "start", "tournament_not_creator", http.StatusForbidden},
		{ann, "start", "tournament_too_few", http.StatusConflict},
		{bob, "withdraw", "", http.StatusOK},
	} {
		var body any
		if tc.path == "pause" {
			body = map[string]bool{"paused": true}
		}
		code, text := tc.who.post("/api/tournaments/"+id+"/"+tc.path, body)
		var ans struct{ Code string }
		json.Unmarshal([]byte(text), &ans)
		if code != tc.code || ans.Code != tc.want {
			t.Errorf("%s %s: %d %s, want %d %s", tc.who.name, tc.path, code, text, tc.code, tc.want)
		}
	}
	if code, text := bob.post("/api/tournaments/nosuchtournament1/join", nil); code != http.StatusNotFound || !strings.Contains(text, "no_tournament") {
		t.Errorf("joining no tournament: %d %s", code, text)
	}
	tourneyChat(t, id, ann, guest)
	arenaPause(t, bob)
}

// arenaPause: an arena's player pauses and comes back; an arena is not
// started by hand.
func arenaPause(t *testing.T, bob *robot) {
	code, body := bob.post("/api/tournaments", map[string]any{"name": "Later arena", "game": "magneton", "format": "arena", "clock": "1+0",
		"minutes": 10, "starts": time.Now().Add(time.Hour).UnixMilli()})
	if code != http.StatusCreated {
		t.Fatalf("an arena: %d %s", code, body)
	}
	var c struct{ ID string }
	json.Unmarshal([]byte(body), &c)
	for _, tc := range []struct {
		path string
		body any
		code int
		want string
	}{
		{"start", nil, http.StatusConflict, `"code":"tournament_arena_start"`},
		{"pause", map[string]bool{"paused": true}, http.StatusConflict, `"code":"tournament_not_entered"`},
		{"join", nil, http.StatusOK, `"me":"entered"`},
		{"pause", map[string]bool{"paused": true}, http.StatusOK, `"me":"paused"`},
		{"pause", map[string]bool{"paused": false}, http.StatusOK, `"me":"entered"`},
		{"withdraw", nil, http.StatusOK, `"me":"withdrawn"`},
		{"join", nil, http.StatusOK, `"me":"entered"`},
	} {
		if code, body := bob.post("/api/tournaments/"+c.ID+"/"+tc.path, tc.body); code != tc.code || !strings.Contains(body, tc.want) {
			t.Errorf("%s %v: %d %s, want %d %s", tc.path, tc.body, code, body, tc.code, tc.want)
		}
	}
}

// tourneyChat: a line said in a tournament's chat is read back; a guest's
// and an empty one are refused.
func tourneyChat(t *testing.T, id string, ann, guest *robot) {
	for _, tc := range []struct {
		who  *robot
		text string
		code int
	}{{guest, "hello", http.StatusForbidden}, {ann, "  ", http.StatusBadRequest}, {ann, "good luck all", http.StatusOK}} {
		if code, body := tc.who.post("/api/tournaments/"+id+"/chat", map[string]string{"text": tc.text}); code != tc.code {
			t.Errorf("%s says %q: %d %s", tc.who.name, tc.text, code, body)
		}
	}
	resp, err := ann.http.Get(ann.urls() + "/api/tournaments/" + id + "/chat?from=0")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var got struct {
		Lines []struct {
			Seq        int
			Name, Text string
		}
	}
	json.NewDecoder(resp.Body).Decode(&got)
	if len(got.Lines) != 1 || got.Lines[0].Name != "ann" || got.Lines[0].Text != "good luck all" || got.Lines[0].Seq != 0 {
		t.Errorf("the chat: %+v", got)
	}
}
