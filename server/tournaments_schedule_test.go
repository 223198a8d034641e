package server

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/magneton-games/magneton/server/tournaments"
	"github.com/magneton-games/magneton/store"
	"github.com/magneton-games/magneton/store/storetest"
)

// soonEntry is a daily arena whose next start is in an hour, announced
// two hours ahead: the scheduler makes it at once.
func soonEntry() tournaments.ScheduleEntry {
	day := 24 * time.Hour
	at := time.Duration(time.Now().Add(time.Hour).UnixMilli()%day.Milliseconds()) * time.Millisecond
	return tournaments.ScheduleEntry{Key: "test-daily", Name: "Test daily arena", Game: "magneton", Clock: "3+2", Rated: true,
		Minutes: 60, Every: day, At: at.Truncate(time.Minute), Ahead: 2 * time.Hour}
}

// scheduled lists the stored tournaments the site made, waiting up to 10 s
// for one.
func scheduled(t *testing.T, st store.Store) []*store.Tournament {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		list, err := st.TournamentList(context.Background(), store.TournamentQuery{Limit: 1000})
		if err != nil {
			t.Fatal(err)
		}
		var out []*store.Tournament
		for _, tr := range list {
			if tr.Creator == "" {
				out = append(out, tr)
			}
		}
		if len(out) > 0 || time.Now().After(deadline) {
			return out
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestTournamentSchedule: a schedule's entry makes one tournament for its
// next start, with no creator, shown as the site's; another pass of the
// scheduler makes none more; a player enters it but may not start it.
func TestTournamentSchedule(t *testing.T) {
	e := soonEntry()
	s := startServer(t, t.TempDir(), func(c *Config) {
		c.Limits, c.TournamentPoll, c.Schedule = NoLimits, 50*time.Millisecond, []tournaments.ScheduleEntry{e}
	})
	list := scheduled(t, s.st)
	if len(list) != 1 {
		t.Fatalf("%d scheduled tournaments, want 1", len(list))
	}
	tr := list[0]
	starts := time.Now().Truncate(24 * time.Hour).Add(e.At)
	if starts.Before(time.Now()) {
		starts = starts.Add(24 * time.Hour)
	}
	if tr.Name != e.Name || tr.Starts != starts.UnixMilli() || tr.Ends != starts.Add(time.Hour).UnixMilli() || !tr.Rated || tr.Status != store.TournamentCreated {
		t.Errorf("scheduled %+v, want %s starting %s", tr, e.Name, starts.UTC())
	}
	if n := s.srv.tourneys.Schedule(time.Now()); n != 0 {
		t.Errorf("another pass made %d tournaments", n)
	}
	if list := scheduled(t, s.st); len(list) != 1 {
		t.Errorf("%d scheduled tournaments after another pass, want 1", len(list))
	}
	resp, err := http.Get(s.url + "/api/tournaments")
	if err != nil {
		t.Fatal(err)
	}
	var l struct{ Upcoming []tournaments.Summary }
	json.NewDecoder(resp.Body).Decode(&l)
	resp.Body.Close()
	if len(l.Upcoming) != 1 || l.Upcoming[0].ID != tr.ID || !l.Upcoming[0].Scheduled || l.Upcoming[0].Creator != "" {
		t.Errorf("upcoming %+v, want the scheduled one", l.Upcoming)
	}
	ann := newRobot(t, s.url, "Annie", 1)
	if code, body := ann.post("/api/tournaments/"+tr.ID+"/join", nil); code != http.StatusOK {
		t.Errorf("join: %d %s", code, body)
	}
	if code, body := ann.post("/api/tournaments/"+tr.ID+"/start", nil); code != http.StatusForbidden || !strings.Contains(body, "tournament_not_creator") {
		t.Errorf("start by a player: %d %s", code, body)
	}
	if v, err := ann.view(tr.ID); err != nil || v.Me != "entered" {
		t.Errorf("view: %+v %v", v, err)
	}
	// The site's tournaments do not count in a player's limit.
	for i := range tournaments.MaxOpen {
		if code, body := ann.post("/api/tournaments", map[string]any{"name": "Annie's " + string(rune('a'+i)), "game": "magneton", "format": "arena",
			"clock": "3+2", "minutes": 30, "starts": time.Now().Add(time.Hour).UnixMilli()}); code != http.StatusCreated {
			t.Errorf("Annie's tournament %d: %d %s", i+1, code, body)
		}
	}
}

// TestTournamentScheduleCluster: two instances on one PostgreSQL database
// with the same schedule make its tournament once, however many passes
// they run at once.
func TestTournamentScheduleCluster(t *testing.T) {
	url := storetest.URL(t, "postgres")
	e := soonEntry()
	var servers [2]*testServer
	for i := range servers {
		servers[i] = startServerOn(t, t.TempDir(), url, func(c *Config) {
			c.Limits, c.TournamentPoll, c.Schedule = NoLimits, 50*time.Millisecond, []tournaments.ScheduleEntry{e}
			c.Instance = []string{"one", "two"}[i]
		})
	}
	var wg sync.WaitGroup
	made := make([]int, 2*len(servers))
	for i := range made {
		wg.Go(func() { made[i] = servers[i%2].srv.tourneys.Schedule(time.Now()) })
	}
	wg.Wait()
	if n := made[0] + made[1] + made[2] + made[3]; n > 1 {
		t.Errorf("the passes made %v tournaments, want 1 or none (the director's pass first)", made)
	}
	if list := scheduled(t, servers[1].st); len(list) != 1 {
		t.Errorf("%d scheduled tournaments, want 1 (passes made %v)", len(list), made)
	}
}
