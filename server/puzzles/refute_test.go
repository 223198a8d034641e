package puzzles

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/puzzle"
)

// wrongMove finds a shipped puzzle of at least two moves and a first move
// of it that is legal, does not win and does not end the game, so that its
// refutation needs a search.
func wrongMove(t *testing.T) (*puzzle.Puzzle, string) {
	t.Helper()
	all, err := puzzle.Shipped()
	if err != nil {
		t.Fatal(err)
	}
	for _, pz := range all {
		if pz.WinIn < 2 {
			continue
		}
		rules, err := games.Rules(pz.Game, pz.Rules)
		if err != nil {
			t.Fatal(err)
		}
		s, err := rules.ParsePosition(pz.Position)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range s.Moves() {
			if slices.Contains(pz.Accept[0], m) {
				continue
			}
			c, err := s.Play(m)
			if err != nil {
				t.Fatal(err)
			}
			if res, _ := c.Outcome(); !res.Over() {
				return pz, m
			}
		}
	}
	t.Fatal("no shipped puzzle of two moves or more with a wrong move that leaves the game going on")
	return nil, ""
}

// TestRefuteOutOfTime: a refutation whose search runs out of time answers
// 503 too_slow, the code the page words, not an internal error; with its
// time it answers the reply.
func TestRefuteOutOfTime(t *testing.T) {
	pz, wrong := wrongMove(t)
	var logs bytes.Buffer
	for _, tc := range []struct {
		time   time.Duration
		status int
		code   string
	}{
		{time.Nanosecond, http.StatusServiceUnavailable, "too_slow"},
		{refuteTime, http.StatusOK, ""},
	} {
		h := New(nil, nil, slog.New(slog.NewTextHandler(&logs, nil)))
		h.refuteTime = tc.time
		mux := http.NewServeMux()
		h.Routes(mux)
		body := fmt.Sprintf(`{"ply": 0, "move": %q}`, wrong)
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("POST", "/api/puzzles/"+pz.ID+"/refute", bytes.NewBufferString(body))
		req.Header.Set("Content-Type", "application/json")
		mux.ServeHTTP(rec, req)
		var got struct{ Code, Reply string }
		if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
			t.Fatalf("%v: %s: %v", tc.time, rec.Body, err)
		}
		if rec.Code != tc.status || got.Code != tc.code {
			t.Errorf("refute %s of %s in %v: %d %q, want %d %q (%s)", wrong, pz.ID, tc.time, rec.Code, got.Code, tc.status, tc.code, rec.Body)
		}
		if tc.status == http.StatusOK && got.Reply == "" {
			t.Errorf("refute %s of %s: no reply: %s", wrong, pz.ID, rec.Body)
		}
	}
	if logs.Len() > 0 {
		t.Errorf("logged: %s", logs.String())
	}
}
