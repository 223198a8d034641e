package server

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/magneton-games/magneton/store"
	"github.com/magneton-games/magneton/tournament"
)

// tourneyServer is a server whose tournaments are quick: the director
// looks every 50 ms, an arena's minute lasts arenaMinute.
func tourneyServer(t *testing.T, arenaMinute time.Duration) *testServer {
	return startServer(t, t.TempDir(), func(c *Config) {
		c.Limits = NoLimits
		c.TournamentPoll = 50 * time.Millisecond
		c.ArenaMinute = arenaMinute
	})
}

// robots signs up n players named prefix01, prefix02...
func robots(t *testing.T, url, prefix string, n int) []*robot {
	t.Helper()
	out := make([]*robot, n)
	for i := range out {
		out[i] = newRobot(t, url, fmt.Sprintf("%s%02d", prefix, i+1), uint64(i+1))
	}
	return out
}

// makeTourney has the first robot make a tournament and every robot join
// it; it returns its id.
func makeTourney(t *testing.T, rs []*robot, req map[string]any) string {
	t.Helper()
	code, body := rs[0].post("/api/tournaments", req)
	if code != http.StatusCreated {
		t.Fatalf("create %v: %d %s", req, code, body)
	}
	var c struct{ ID string }
	json.Unmarshal([]byte(body), &c)
	for _, b := range rs {
		if code, body := b.post("/api/tournaments/"+c.ID+"/join", nil); code != http.StatusOK {
			t.Fatalf("%s joins: %d %s", b.name, code, body)
		}
	}
	return c.ID
}

// TestTournamentArena: 16 scripted players play an arena of 10 minutes of
// 250 ms through the server; the games running at its end count, and the
// standings are those of the games' stored results.
func TestTournamentArena(t *testing.T) {
	s := tourneyServer(t, 250*time.Millisecond)
	rs := robots(t, s.url, "Arena", 16)
	id := makeTourney(t, rs, map[string]any{"name": "Quick arena", "game": "magneton", "format": "arena", "clock": "1+0", "minutes": 10})
	runRobots(t, rs, id, 30*time.Second)
	v := checkTourney(t, s.st, rs[0], id, tournament.Arena)
	if len(v.Pairings) <= 8 {
		t.Errorf("%d games in the arena, want more than one round's", len(v.Pairings))
	}
	t.Logf("%d games in the arena, won by %s", len(v.Pairings), v.Winner)
}

// TestTournamentRoundRobin: 8 players, 7 rounds, every pair once.
func TestTournamentRoundRobin(t *testing.T) {
	s := tourneyServer(t, 0)
	rs := robots(t, s.url, "Robin", 8)
	id := makeTourney(t, rs, map[string]any{"name": "Robin eight", "game": "magneton", "format": "roundrobin", "clock": "1+0",
		"starts": time.Now().Add(time.Hour).UnixMilli()})
	if code, body := rs[0].post("/api/tournaments/"+id+"/start", nil); code != http.StatusOK {
		t.Fatalf("start: %d %s", code, body)
	}
	runRobots(t, rs, id, 30*time.Second)
	v := checkTourney(t, s.st, rs[0], id, tournament.RoundRobin)
	if v.Rounds != 7 || len(v.Pairings) != 28 {
		t.Errorf("%d rounds, %d games; want 7 and 28", v.Rounds, len(v.Pairings))
	}
	met := map[[2]string]int{}
	for _, p := range v.Pairings {
		met[pairKey(p.First, p.Second)]++
	}
	for i, a := range rs {
		for _, b := range rs[i+1:] {
			if n := met[pairKey(a.name, b.name)]; n != 1 {
				t.Errorf("%s and %s met %d times", a.name, b.name, n)
			}
		}
	}
}

// TestTournamentSwiss: 10 players, 4 rounds, no pair twice; one withdraws
// after its first game, another joins once round 2 is paired and plays
// from round 3.
func TestTournamentSwiss(t *testing.T) {
	s := tourneyServer(t, 0)
	rs := robots(t, s.url, "Swiss", 10)
	id := makeTourney(t, rs, map[string]any{"name": "Swiss ten", "game": "magneton", "format": "swiss", "clock": "1+0", "rounds": 4,
		"starts": time.Now().Add(time.Hour).UnixMilli()})
	if code, body := rs[1].post("/api/tournaments/"+id+"/start", nil); code != http.StatusForbidden {
		t.Errorf("a player not the creator starts it: %d %s", code, body)
	}
	if code, body := rs[0].post("/api/tournaments/"+id+"/start", nil); code != http.StatusOK {
		t.Fatalf("start: %d %s", code, body)
	}
	quitter := rs[9]
	quitter.played = func(string) {
		if code, body := quitter.post("/api/tournaments/"+id+"/withdraw", nil); code != http.StatusOK {
			t.Errorf("withdraw: %d %s", code, body)
		}
		quitter.played = nil
	}
	late := newRobot(t, s.url, "Late", 11)
	go func() {
		for v, _ := late.view(id); v.Status != "finished"; v, _ = late.view(id) {
			if v.Round >= 2 {
				late.post("/api/tournaments/"+id+"/join", nil)
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	runRobots(t, append(rs, late), id, 30*time.Second)
	v := checkTourney(t, s.st, rs[0], id, tournament.Swiss)
	if v.Rounds != 4 {
		t.Errorf("%d rounds, want 4", v.Rounds)
	}
	met := map[[2]string]int{}
	rounds := map[string][]int{}
	for _, p := range v.Pairings {
		rounds[p.First] = append(rounds[p.First], p.Round)
		if p.Second == "" {
			continue
		}
		rounds[p.Second] = append(rounds[p.Second], p.Round)
		if met[pairKey(p.First, p.Second)]++; met[pairKey(p.First, p.Second)] > 1 {
			t.Errorf("%s and %s met twice", p.First, p.Second)
		}
	}
	if r := rounds[quitter.name]; len(r) == 0 || r[len(r)-1] > 2 {
		t.Errorf("%s withdrew after its first game and played rounds %v", quitter.name, r)
	}
	if r := rounds["Late"]; len(r) == 0 || r[0] < 3 {
		t.Errorf("Late joined during round 2 and played rounds %v", r)
	}
	for _, name := range []string{"Swiss01", "Swiss05"} {
		if r := rounds[name]; !slices.Equal(r, []int{1, 2, 3, 4}) {
			t.Errorf("%s played rounds %v", name, r)
		}
	}
}

func pairKey(a, b string) [2]string {
	if a > b {
		a, b = b, a
	}
	return [2]string{a, b}
}

// checkTourney checks a finished tournament against its games' stored
// rows: each pairing's game is the tournament's, between its players,
// with its result; no player is in two games at once; the standings
// shown are tournament.Standings of the games' results.
func checkTourney(t *testing.T, st store.Store, b *robot, id string, format tournament.Format) tourneyView {
	t.Helper()
	v, err := b.view(id)
	if err != nil || v.Status != "finished" {
		t.Fatalf("the tournament at the end: %v %+v", err, v.Status)
	}
	ctx := context.Background()
	entries, _ := st.TournamentEntries(ctx, id)
	ps, _ := st.TournamentPairings(ctx, id)
	es := make([]tournament.Entry, len(entries))
	names := map[string]string{}
	for i, e := range entries {
		es[i] = tournament.Entry{Player: e.User, Rating: e.Rating, Withdrawn: e.Withdrawn, Paused: e.Paused, JoinedRound: e.JoinedRound}
		names[e.User] = e.Name
	}
	played := checkGames(t, st, id, ps)
	if err := tournament.Validate(format, es, played); err != nil {
		t.Errorf("the history: %v", err)
	}
	want := tournament.Standings(format, es, played)
	if len(want) != len(v.Standings) {
		t.Fatalf("%d standings, want %d", len(v.Standings), len(want))
	}
	for i, w := range want {
		got := v.Standings[i]
		if got.Name != names[w.Player] || got.Rank != w.Rank || got.Points != w.Points || got.Games != w.Games ||
			math.Abs(got.Buchholz-w.Buchholz) > 1e-9 || math.Abs(got.SonnebornBerger-w.SonnebornBerger) > 1e-9 {
			t.Errorf("standing %d: %+v, want %s %+v", i+1, got, names[w.Player], w)
		}
	}
	if len(want) > 0 && want[0].Points > 0 && v.Winner != names[want[0].Player] {
		t.Errorf("winner %q, want %q", v.Winner, names[want[0].Player])
	}
	return v
}

// checkGames checks each pairing against its game's row and returns the
// pairings with the games' results.
func checkGames(t *testing.T, st store.Store, id string, ps []store.TournamentPairing) []tournament.Pairing {
	t.Helper()
	var out []tournament.Pairing
	busy := map[string][][2]int64{}
	seen := map[string]bool{}
	for _, p := range ps {
		tp := tournament.Pairing{Round: p.Round, First: p.First, Second: p.Second, Result: tournament.Result(p.Result), GameID: p.GameID}
		if p.Second == "" {
			out = append(out, tp)
			continue
		}
		g, err := st.Game(context.Background(), p.GameID)
		if err != nil {
			t.Fatalf("pairing %d's game: %v", p.Seq, err)
		}
		if seen[g.ID] || g.Tournament != id || g.Users != [2]string{p.First, p.Second} || g.Status != store.Finished {
			t.Errorf("pairing %d %+v: game %s of %q, players %v, %s", p.Seq, p, g.ID, g.Tournament, g.Users, g.Status)
		}
		seen[g.ID] = true
		want := map[string]tournament.Result{"1-0": tournament.FirstWins, "0-1": tournament.SecondWins, "1/2-1/2": tournament.Draw}[g.Result]
		if tp.Result != want {
			t.Errorf("pairing %d: result %d, its game's %s", p.Seq, tp.Result, g.Result)
		}
		tp.Result = want
		out = append(out, tp)
		// A game's row is written again after its end (its updated time
		// is that write's), so its last move bounds when it was still on.
		moves, err := st.Moves(context.Background(), g.ID)
		if err != nil {
			t.Fatal(err)
		}
		last := g.Created
		if len(moves) > 0 {
			last = moves[len(moves)-1].PlayedAt
		}
		for _, u := range g.Users {
			busy[u] = append(busy[u], [2]int64{g.Created, last})
		}
	}
	for u, spans := range busy {
		slices.SortFunc(spans, func(a, b [2]int64) int { return int(a[0] - b[0]) })
		for i := 1; i < len(spans); i++ {
			if spans[i][0] < spans[i-1][1] {
				t.Errorf("player %s in two games at once: %v", u, spans)
			}
		}
	}
	return out
}
