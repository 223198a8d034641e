package server

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/magneton-games/magneton/store/storetest"
	"github.com/magneton-games/magneton/tournament"
)

// TestTournamentArenaCluster: the 16-player arena on PostgreSQL with three
// instances, the one directing it killed halfway (its database cut off,
// its clients' connections dropped); another takes the tournament and the
// dead one's games over, and the arena ends with no pairing or result
// lost or duplicated.
func TestTournamentArenaCluster(t *testing.T) {
	url := storetest.URL(t, "postgres")
	var servers [3]*testServer
	for i := range servers {
		servers[i] = startServerOn(t, t.TempDir(), url, func(c *Config) {
			c.Limits, c.TournamentPoll, c.ArenaMinute = NoLimits, 50*time.Millisecond, time.Second
			c.Instance = []string{"one", "two", "three"}[i]
		})
	}
	var dead atomic.Int32
	dead.Store(-1)
	rs := robots(t, servers[0].url, "Node", 16)
	for i, b := range rs {
		home := i % 3
		b.urls = func() string {
			if int(dead.Load()) == home {
				return servers[(home+1)%3].url
			}
			return servers[home].url
		}
	}
	id := makeTourney(t, rs, map[string]any{"name": "Cluster arena", "game": "magneton", "format": "arena", "clock": "1+0", "minutes": 10})
	go func() {
		time.Sleep(4 * time.Second)
		tr, err := servers[0].st.Tournament(context.Background(), id)
		if err != nil {
			t.Error(err)
			return
		}
		for i, s := range servers {
			if s.srv.cfg.Instance == tr.Director {
				killServer(s)
				dead.Store(int32(i))
				return
			}
		}
		t.Errorf("nobody directs the arena: %q", tr.Director)
	}()
	runRobots(t, rs, id, 45*time.Second)
	k := int(dead.Load())
	if k < 0 {
		t.Fatal("no instance was killed")
	}
	alive := servers[(k+1)%3]
	v := checkTourney(t, alive.st, rs[(k+1)%3], id, tournament.Arena)
	t.Logf("%d games, instance %s killed", len(v.Pairings), servers[k].srv.cfg.Instance)
	if tr, _ := alive.st.Tournament(context.Background(), id); tr.Director == servers[k].srv.cfg.Instance {
		t.Errorf("the dead instance %s still directs the arena", tr.Director)
	}
}

// killServer has an instance die as a crashed process does, as far as the
// others see: its database is cut off (no heartbeat, no write), and its
// clients' connections drop.
func killServer(s *testServer) {
	s.st.Close()
	s.ts.Listener.Close()
	s.ts.CloseClientConnections()
	ts, srv := s.ts, s.srv
	s.ts = nil // stop does nothing more
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		srv.Close(ctx)
		ts.Close()
	}()
}
