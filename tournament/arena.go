package tournament

import (
	"cmp"
	"slices"
)

// arenaPlayer is a waiting player with what arena pairing needs.
type arenaPlayer struct {
	id     string
	rating int
	points float64 // arena points, streaks included
	rec    *record
}

// PairArena pairs the waiting players (ids not in a game, not paused, not withdrawn), given all pairings so far.
//
// With an odd count, the player who sits this pairing out is the one whose
// latest game was paired last (so the one who has likely waited least);
// among players equal on that (such as those who have not played yet), the
// last in waiting (which should list the longest waiting first). Ids that are not entries, or are paused, withdrawn, in a pending game
// of played or listed twice are skipped. The rest are ordered by arena
// points (streaks included), then rating, then id; from the top, each
// meets the unpaired player closest in points, then in rating, who was not
// the last opponent of either (the last opponent only when no one else is
// left). A last pass swaps opponents between two pairings to undo such a
// repeat where it can. Each pairing's first is the player who has moved
// first less often (firsts less seconds), then the one who moved second in
// their last game, then the higher placed. The pairings have Round 0 and
// Result Pending; there is never a bye.
func PairArena(waiting []string, entries []Entry, played []Pairing) []Pairing {
	players := arenaWaiting(waiting, entries, played)
	if len(players)%2 == 1 {
		players = slices.Delete(players, sitOut(players), sitOut(players)+1)
	}
	slices.SortFunc(players, func(a, b arenaPlayer) int {
		return cmp.Or(cmp.Compare(b.points, a.points), cmp.Compare(b.rating, a.rating), cmp.Compare(a.id, b.id))
	})
	var pairs [][2]int
	taken := make([]bool, len(players))
	for top := range players {
		if taken[top] {
			continue
		}
		best := -1
		for c := top + 1; c < len(players); c++ {
			if taken[c] {
				continue
			}
			if best == -1 || arenaCloser(players, top, c, best) {
				best = c
			}
		}
		taken[top], taken[best] = true, true
		pairs = append(pairs, [2]int{top, best})
	}
	undoRepeats(players, pairs)
	out := make([]Pairing, len(pairs))
	for i, pr := range pairs {
		a, b := players[min(pr[0], pr[1])], players[max(pr[0], pr[1])]
		if !arenaFirst(a, b) {
			a, b = b, a
		}
		out[i] = Pairing{First: a.id, Second: b.id}
	}
	return out
}

// sitOut is the one of an odd count of waiting players who is not paired:
// the one whose latest game was paired last (they have waited least), the
// last in waiting order among equals (those who have not played at all
// sit out only when no one else has).
func sitOut(players []arenaPlayer) int {
	out := 0
	for i, p := range players {
		if p.rec.latest >= players[out].rec.latest {
			out = i
		}
	}
	return out
}

// arenaWaiting is the waiting players who can be paired, in waiting order.
func arenaWaiting(waiting []string, entries []Entry, played []Pairing) []arenaPlayer {
	byID := make(map[string]Entry, len(entries))
	for _, e := range entries {
		byID[e.Player] = e
	}
	recs := histories(played)
	standings := arenaPoints(played, nil)
	seen := make(map[string]bool)
	var players []arenaPlayer
	for _, id := range waiting {
		e, ok := byID[id]
		rec := recs[id]
		if rec == nil {
			rec = &record{met: map[string]bool{}}
		}
		if !ok || e.Withdrawn || e.Paused || seen[id] || rec.playing {
			continue
		}
		seen[id] = true
		var points float64
		if s := standings[id]; s != nil {
			points = s.points
		}
		players = append(players, arenaPlayer{id: id, rating: e.Rating, points: points, rec: rec})
	}
	return players
}

// repeat reports whether a and b met in the last game of either.
func repeat(a, b arenaPlayer) bool { return a.rec.last == b.id || b.rec.last == a.id }

// arenaCloser reports whether c is a better opponent for top than best.
func arenaCloser(players []arenaPlayer, top, c, best int) bool {
	p, q, r := players[top], players[c], players[best]
	if repeat(p, q) != repeat(p, r) {
		return !repeat(p, q)
	}
	abs := func(x float64) float64 { return max(x, -x) }
	if d, e := abs(p.points-q.points), abs(p.points-r.points); d != e {
		return d < e
	}
	if d, e := abs(float64(p.rating-q.rating)), abs(float64(p.rating-r.rating)); d != e {
		return d < e
	}
	return c < best
}

// undoRepeats swaps opponents between a repeated pairing and another where
// that makes neither a repeat.
func undoRepeats(players []arenaPlayer, pairs [][2]int) {
	for i := range pairs {
		a, b := pairs[i][0], pairs[i][1]
		if !repeat(players[a], players[b]) {
			continue
		}
		for j := range pairs {
			c, d := pairs[j][0], pairs[j][1]
			if j == i {
				continue
			}
			if !repeat(players[a], players[c]) && !repeat(players[b], players[d]) {
				pairs[i], pairs[j] = [2]int{a, c}, [2]int{b, d}
				break
			}
			if !repeat(players[a], players[d]) && !repeat(players[b], players[c]) {
				pairs[i], pairs[j] = [2]int{a, d}, [2]int{b, c}
				break
			}
		}
	}
}

// arenaFirst reports whether a (placed above b) should move first.
func arenaFirst(a, b arenaPlayer) bool {
	if da, db := a.rec.diff(), b.rec.diff(); da != db {
		return da < db
	}
	la, lb := len(a.rec.colours), len(b.rec.colours)
	aSecond := la > 0 && !a.rec.colours[la-1]
	bSecond := lb > 0 && !b.rec.colours[lb-1]
	if aSecond != bSecond {
		return aSecond
	}
	return true
}

// arenaScore is a player's arena points and streak.
type arenaScore struct {
	points float64
	streak int // wins in a row, up to the latest finished game
}

// onFire reports whether the next win is worth double.
func (s arenaScore) onFire() bool { return s.streak >= 2 }

// arenaPoints scores the finished games in order: 2 a win, 1 a draw, 0 a
// loss, doubled for a player on fire (two wins in a row or more before the
// game); a game that is not a win ends the streak. Each finished game is
// passed to visit, if not nil, with the points it gained each player.
func arenaPoints(played []Pairing, visit func(p Pairing, first, second float64)) map[string]*arenaScore {
	scores := make(map[string]*arenaScore)
	get := func(id string) *arenaScore {
		s := scores[id]
		if s == nil {
			s = &arenaScore{}
			scores[id] = s
		}
		return s
	}
	for _, p := range played {
		if p.Result == Pending || p.Bye() {
			continue
		}
		a, b := get(p.First), get(p.Second)
		fa, fb := Points(Arena, p.Result)
		ga, gb := a.gain(fa), b.gain(fb)
		a.score(fa)
		b.score(fb)
		if visit != nil {
			visit(p, ga, gb)
		}
	}
	return scores
}

// gain is what base points (2, 1, 0) are worth to the player now.
func (s *arenaScore) gain(base float64) float64 {
	if s.onFire() {
		return 2 * base
	}
	return base
}

// score adds a game worth base points before the streak.
func (s *arenaScore) score(base float64) {
	s.points += s.gain(base)
	if base == 2 {
		s.streak++
	} else {
		s.streak = 0
	}
}
