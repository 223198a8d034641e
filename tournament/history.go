package tournament

// record is what the pairings so far say of one player.
type record struct {
	points  float64         // Swiss and round robin points: finished games and byes
	byes    int             // byes received
	colours []bool          // true for first, in order; every game, finished or not
	met     map[string]bool // opponents, finished or not
	last    string          // the latest opponent
	playing bool            // in a pending game
	latest  int             // 1 + the index in played of their latest pairing; 0 for none
}

// diff is the player's firsts less their seconds.
func (r *record) diff() int {
	d := 0
	for _, c := range r.colours {
		if c {
			d++
		} else {
			d--
		}
	}
	return d
}

// histories reads the pairings into a record per player, for every id
// they name (entered or not).
func histories(played []Pairing) map[string]*record {
	recs := make(map[string]*record)
	get := func(id string) *record {
		r := recs[id]
		if r == nil {
			r = &record{met: make(map[string]bool)}
			recs[id] = r
		}
		return r
	}
	for i, p := range played {
		a := get(p.First)
		a.latest = i + 1
		if p.Bye() {
			a.byes++
			a.points++
			continue
		}
		b := get(p.Second)
		b.latest = i + 1
		b.latest = i + 1
		a.colours = append(a.colours, true)
		b.colours = append(b.colours, false)
		a.met[p.Second], b.met[p.First] = true, true
		a.last, b.last = p.Second, p.First
		fa, fb := Points(Swiss, p.Result)
		a.points += fa
		b.points += fb
		if p.Result == Pending {
			a.playing, b.playing = true, true
		}
	}
	return recs
}

// Points is what a result is worth to first and second under the format:
// in a Swiss and a round robin 1 for a win, ½ for a draw, 0 for a loss; in
// an arena 2, 1 and 0 before streaks (a player on fire scores double, which
// depends on the games before, so [Standings] computes it in order). A
// pending game is worth nothing yet.
func Points(format Format, r Result) (first, second float64) {
	win, draw := 1.0, 0.5
	if format == Arena {
		win, draw = 2, 1
	}
	switch r {
	case FirstWins:
		return win, 0
	case SecondWins:
		return 0, win
	case Draw:
		return draw, draw
	}
	return 0, 0
}

// joined is the first round an entry can be paired in.
func (e Entry) joined() int { return max(e.JoinedRound, 1) }
