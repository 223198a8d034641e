package server

import (
	"net/http"
	"testing"
	"time"

	"github.com/magneton-games/magneton/server/wire"
)

func TestReview(t *testing.T) {
	s := startServer(t, t.TempDir(), func(c *Config) { c.ReviewMoveTime = 20 * time.Millisecond })
	u := s.user()
	c := u.create(map[string]any{"opponent": "computer", "level": 1, "color": "first"})
	ws := u.connect(c.ID)
	var rv wire.Review
	if code := u.do("POST", "/api/games/"+c.ID+"/review", map[string]any{}, nil); code != http.StatusConflict {
		t.Errorf("review of a game going on: %d", code)
	}
	for ply := 0; ply < 6; ply += 2 {
		st := ws.moves(ply)
		ws.move(st.Legal[0])
	}
	ws.moves(6)
	ws.send(map[string]string{"type": "resign"})
	ws.until("the end", func(st state) bool { return st.Status == "finished" })
	if u.do("GET", "/api/games/"+c.ID+"/review", nil, &rv); rv.Status != "none" || rv.Total != 7 {
		t.Errorf("before a review: %+v", rv)
	}
	if code := u.do("POST", "/api/games/"+c.ID+"/review", map[string]any{}, &rv); code != http.StatusAccepted && code != http.StatusOK {
		t.Fatalf("start the review: %d", code)
	}
	deadline := time.Now().Add(20 * time.Second)
	for rv.Status != "done" && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
		// A second request does not start a second review.
		u.do("POST", "/api/games/"+c.ID+"/review", map[string]any{}, &rv)
	}
	if rv.Status != "done" || rv.Done != 7 || len(rv.Evals) != 7 || len(rv.Moves) != 6 || len(rv.Sides) != 2 {
		t.Fatalf("review: %+v", rv)
	}
	if last := rv.Evals[6]; last.Result != "0-1" {
		t.Errorf("the last position's evaluation %+v, want the resignation's result", last)
	}
	for i, m := range rv.Moves {
		if m.Side != i%2 || m.Ply != i || m.Move == "" {
			t.Errorf("move %d: %+v", i, m)
		}
		if rv.Evals[i].Best == "" || rv.Evals[i].Depth == 0 {
			t.Errorf("position %d not searched: %+v", i, rv.Evals[i])
		}
	}
	// Anyone replaying sees it.
	var seen wire.Review
	s.user().do("GET", "/api/games/"+c.ID+"/review", nil, &seen)
	if seen.Status != "done" || len(seen.Moves) != 6 {
		t.Errorf("a spectator's view of the review: %+v", seen)
	}
}
