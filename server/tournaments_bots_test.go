package server

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/magneton-games/magneton/store"
	"github.com/magneton-games/magneton/tournament"
)

// TestTournamentBots: bots may enter a tournament that allows them and
// no other; in a rated round robin of two bot clients and a person the
// bots' game between them is rated in the bots' pool and marks both seats
// as bots, the person's games with them are rated in the people's pool.
func TestTournamentBots(t *testing.T) {
	s := startServer(t, t.TempDir(), func(c *Config) {
		c.Limits = NoLimits
		c.TournamentPoll = 50 * time.Millisecond
	}, fastBots, shortGames)
	_, tokA := s.makeBot("robo1")
	_, tokB := s.makeBot("robo2")
	person := newRobot(t, s.url, "Person01", 1)
	person.keepMoving = true
	later := time.Now().Add(time.Hour).UnixMilli()
	people := makeTourney(t, []*robot{person}, map[string]any{"name": "People only", "game": "magneton", "format": "roundrobin", "clock": "1+0", "starts": later})
	var refusal struct {
		Code string `json:"code"`
	}
	if code := s.withToken(tokA, "POST", "/api/tournaments/"+people+"/join", nil, &refusal); code != http.StatusForbidden || refusal.Code != "tournament_no_bots" {
		t.Errorf("a bot joins a tournament for people: %d %+v", code, refusal)
	}
	id := makeTourney(t, []*robot{person}, map[string]any{"name": "Bots welcome", "game": "magneton", "rules": "standard", "format": "roundrobin",
		"clock": "1+0", "rated": true, "bots": true, "starts": later})
	for _, tok := range []string{tokA, tokB} {
		if code := s.withToken(tok, "POST", "/api/tournaments/"+id+"/join", nil, nil); code != http.StatusOK {
			t.Fatalf("a bot joins a tournament for bots: %d", code)
		}
	}
	waitA := runBot(t, s, tokA, 2, nil)
	waitB := runBot(t, s, tokB, 2, nil)
	if code, body := person.post("/api/tournaments/"+id+"/start", nil); code != http.StatusOK {
		t.Fatalf("start: %d %s", code, body)
	}
	runRobots(t, []*robot{person}, id, 90*time.Second)
	waitA()
	waitB()
	v := checkTourney(t, s.st, person, id, tournament.RoundRobin)
	games := 0
	for _, p := range v.Pairings {
		if p.Second == "" {
			continue // a bye
		}
		games++
		g, err := s.st.Game(context.Background(), p.Game)
		if err != nil {
			t.Fatal(err)
		}
		bots := [2]bool{p.First != "Person01", p.Second != "Person01"}
		family := "standard"
		if bots[0] && bots[1] {
			family = store.BotFamilyPrefix + "standard"
		}
		if g.Bots != bots || g.Family != family || !g.Rated {
			t.Errorf("%s against %s: bots %v, family %q, rated %v; want %v, %q, rated", p.First, p.Second, g.Bots, g.Family, g.Rated, bots, family)
		}
	}
	if games != 3 {
		t.Errorf("%d games, want 3: %+v", games, v.Pairings)
	}
}
