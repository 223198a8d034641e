package tournament

import (
	"fmt"
	"testing"
)

// A Swiss of five over two rounds, by hand:
//
//	round 1: A 1-0 B, C ½-½ D, E bye
//	round 2: E ½-½ A, D 0-1 B, C bye
//
// Points: A 1½, B 1, C 1½, D ½, E 1½. Buchholz (a bye counts the player's
// own points): A = B 1 + E 1½ = 2½; B = A 1½ + D ½ = 2; C = D ½ + own 1½ =
// 2; D = C 1½ + B 1 = 2½; E = own 1½ + A 1½ = 3. Sonneborn-Berger: A = B 1 +
// ½·E 1½ = 1.75; B = D ½; C = ½·D ½ + own 1½ = 1.75; D = ½·C 1½ = 0.75;
// E = own 1½ + ½·A 1½ = 2.25.
func TestStandingsSwiss(t *testing.T) {
	entries := []Entry{{Player: "A"}, {Player: "B"}, {Player: "C"}, {Player: "D", Withdrawn: true}, {Player: "E"}}
	played := []Pairing{
		{Round: 1, First: "A", Second: "B", Result: FirstWins},
		{Round: 1, First: "C", Second: "D", Result: Draw},
		{Round: 1, First: "E", Result: FirstWins},
		{Round: 2, First: "E", Second: "A", Result: Draw},
		{Round: 2, First: "D", Second: "B", Result: SecondWins},
		{Round: 2, First: "C", Result: FirstWins},
		{Round: 3, First: "A", Second: "C"}, // pending: ignored
	}
	want := []string{
		"1 E 1.5 games 1 0/1/0 byes 1 bh 3 sb 2.25",
		"2 A 1.5 games 2 1/1/0 byes 0 bh 2.5 sb 1.75",
		"3 C 1.5 games 1 0/1/0 byes 1 bh 2 sb 1.75",
		"4 B 1 games 2 1/0/1 byes 0 bh 2 sb 0.5",
		"5 D 0.5 games 2 0/1/1 byes 0 bh 2.5 sb 0.75 withdrawn",
	}
	got := Standings(Swiss, entries, played)
	for i, s := range got {
		line := fmt.Sprintf("%d %s %v games %d %d/%d/%d byes %d bh %v sb %v", s.Rank, s.Player, s.Points, s.Games, s.Wins, s.Draws, s.Losses, s.Byes, s.Buchholz, s.SonnebornBerger)
		if s.Withdrawn {
			line += " withdrawn"
		}
		if i >= len(want) || line != want[i] {
			t.Errorf("standing %d: got %q, want %q", i+1, line, want[min(i, len(want)-1)])
		}
	}
	e := got[0].Results
	if len(e) != 2 || e[0] != (PlayerResult{Round: 1, First: true, Result: FirstWins, Points: 1}) ||
		e[1] != (PlayerResult{Round: 2, Opponent: "A", First: true, Result: Draw, Points: 0.5}) {
		t.Errorf("E's results: %+v", e)
	}
	b := got[3].Results
	if len(b) != 2 || b[1] != (PlayerResult{Round: 2, Opponent: "D", Result: SecondWins, Points: 1}) {
		t.Errorf("B's results: %+v", b)
	}
}

// Players equal on points and every tie-break share a rank.
func TestStandingsSharedRank(t *testing.T) {
	entries := []Entry{{Player: "d"}, {Player: "c"}, {Player: "b"}, {Player: "a"}}
	var played []Pairing
	results := map[int][]Result{1: {FirstWins, Draw}, 2: {SecondWins, Draw}, 3: {FirstWins, Draw}}
	for r := 1; r <= 3; r++ {
		ps, _ := PairRoundRobin([]string{"a", "b", "c", "d"}, r)
		for i := range ps {
			ps[i].Result = results[r][i]
		}
		played = append(played, ps...)
	}
	// a-d 1-0, b-c ½; d-c 0-1, a-b ½; b-d 1-0, c-a ½: a, b, c on 2 with
	// Buchholz 4, SB 2 and one win each; d on 0.
	got := Standings(RoundRobin, entries, played)
	var line string
	for _, s := range got {
		line += fmt.Sprintf("%d%s ", s.Rank, s.Player)
	}
	if line != "1a 1b 1c 4d " {
		t.Errorf("got %s, want 1a 1b 1c 4d", line)
	}
}

func TestArenaScoring(t *testing.T) {
	const W, D, L = "W", "D", "L"
	for _, tc := range []struct {
		games  []string
		points []float64 // gained by each game
		fire   bool
	}{
		{[]string{W}, []float64{2}, false},
		{[]string{W, W}, []float64{2, 2}, true},
		{[]string{W, W, W, W}, []float64{2, 2, 4, 4}, true},
		{[]string{W, W, D, W}, []float64{2, 2, 2, 2}, false},
		{[]string{W, W, L, W, W, W}, []float64{2, 2, 0, 2, 2, 4}, true},
		{[]string{D, D, W, D}, []float64{1, 1, 2, 1}, false},
		{[]string{W, W, W, L}, []float64{2, 2, 4, 0}, false},
	} {
		var played []Pairing
		for i, g := range tc.games {
			opp := fmt.Sprint("o", i)
			p := Pairing{First: "me", Second: opp, Result: map[string]Result{W: FirstWins, D: Draw, L: SecondWins}[g]}
			if i%2 == 1 { // the colours do not matter
				p.First, p.Second = opp, "me"
				p.Result = map[string]Result{W: SecondWins, D: Draw, L: FirstWins}[g]
			}
			played = append(played, p)
		}
		played = append(played, Pairing{First: "x", Second: "me"}) // pending: ignored
		entries := []Entry{{Player: "me"}}
		got := Standings(Arena, entries, played)[0]
		total := 0.0
		for i, r := range got.Results {
			total += tc.points[i]
			if r.Points != tc.points[i] {
				t.Errorf("%v: game %d gained %v, want %v", tc.games, i+1, r.Points, tc.points[i])
			}
		}
		if got.Points != total || got.Fire != tc.fire || got.Games != len(tc.games) {
			t.Errorf("%v: %v points, fire %v, %d games; want %v, %v, %d", tc.games, got.Points, got.Fire, got.Games, total, tc.fire, len(tc.games))
		}
	}
}

// An arena ranks by points, then wins, then id.
func TestStandingsArena(t *testing.T) {
	entries := []Entry{{Player: "a"}, {Player: "b"}, {Player: "c"}, {Player: "d"}}
	played := []Pairing{
		{First: "a", Second: "b", Result: Draw},       // a 1, b 1
		{First: "c", Second: "d", Result: FirstWins},  // c 2
		{First: "b", Second: "a", Result: Draw},       // a 2, b 2
		{First: "d", Second: "c", Result: SecondWins}, // c 4, on fire
		{First: "c", Second: "a"},                     // pending
	}
	got := Standings(Arena, entries, played)
	var line string
	for _, s := range got {
		line += fmt.Sprintf("%d%s:%v:%v ", s.Rank, s.Player, s.Points, s.Fire)
	}
	// a and b: 2 points, no win each; c before: 4.
	if line != "1c:4:true 2a:2:false 2b:2:false 4d:0:false " {
		t.Errorf("got %s", line)
	}
}
