package tournament

import (
	"cmp"
	"math"
	"slices"
)

// DefaultSwissRounds is the number of rounds of a Swiss of players players
// when the organiser sets none: ceil(log2(players))+1, at most players-1
// (and 0 for fewer than two players).
func DefaultSwissRounds(players int) int {
	if players < 2 {
		return 0
	}
	r := int(math.Ceil(math.Log2(float64(players)))) + 1
	return min(r, players-1)
}

// swissPlayer is a player to pair in a Swiss round, with what the pairing
// needs of their history.
type swissPlayer struct {
	id     string
	rating int
	rank   int // 0 is the top of the round's order
	rec    *record
	pref   colourPref
}

// PairSwiss pairs the next round from the entries and every pairing so far (all earlier rounds complete).
//
// round must follow the latest round of played (1 when nothing is played).
// The players paired are the entries not withdrawn whose JoinedRound has
// come, in order of score, then rating, then id. With an odd count, the
// lowest of them who has had no bye gets it (and, if every one has had
// one, the lowest of those with the fewest), provided the others can still
// be paired without a rematch. Then, from the top, each player still
// unpaired meets, of the players they have not met, the best of: no clash
// of absolute colour preferences (both due the same colour by a colour
// difference of two or the same colour twice running, as in the Dutch
// system, where that is an absolute criterion); then the closest score;
// then no clash of strong colour preferences; then, within their score group, the player half the
// group below them (the top half against the bottom half, as the Dutch
// system does), then the next ones down, then the ones above; outside it,
// the highest ranked. A candidate is taken only if every player left can
// still be paired without a rematch (a perfect matching, found by Edmonds'
// blossom algorithm, says so), so the search never dead-ends; when no
// pairing of the round avoids a rematch, PairSwiss returns a CodeNoPairing
// error (the tournament cannot go on: with few players and many rounds,
// everyone may have met everyone), and CodeTooFewPlayers when fewer than
// two players are left. Colours are given by [colourPref]. The pairings come in board
// order (the bye last), with Result Pending, and FirstWins for the bye.
func PairSwiss(entries []Entry, played []Pairing, round int) ([]Pairing, error) {
	if err := Validate(Swiss, entries, played); err != nil {
		return nil, err
	}
	last := 0
	for _, p := range played {
		last = max(last, p.Round)
		if p.Result == Pending {
			return nil, errorf(CodeRoundIncomplete, "round %d: %s against %s is still being played", p.Round, p.First, p.Second)
		}
	}
	if round != last+1 {
		return nil, errorf(CodeBadRound, "the round to pair after round %d is %d, not %d", last, last+1, round)
	}
	players := swissOrder(entries, histories(played), round)
	if len(players) < 2 {
		return nil, errorf(CodeTooFewPlayers, "round %d has %d players to pair, fewer than two", round, len(players))
	}
	m, bye := swissMatching(players)
	if m == nil {
		if len(players)%2 == 1 {
			return nil, errorf(CodeNoPairing, "round %d: no player can have the bye with the %d others paired without a rematch", round, len(players)-1)
		}
		return nil, errorf(CodeNoPairing, "round %d: every pairing of the %d players has a rematch", round, len(players))
	}
	out := make([]Pairing, 0, len(players)/2+1)
	for top := range players {
		if m.removed[top] {
			continue
		}
		for _, c := range candidates(players, m.removed, top) {
			if m.take(top, c) {
				first, second := colours(players[top], players[c], len(out))
				out = append(out, Pairing{Round: round, First: first.id, Second: second.id})
				break
			}
		}
	}
	if bye != -1 {
		out = append(out, Pairing{Round: round, First: players[bye].id, Result: FirstWins})
	}
	return out, nil
}

// swissOrder is the round's players, best first.
func swissOrder(entries []Entry, recs map[string]*record, round int) []swissPlayer {
	var players []swissPlayer
	for _, e := range entries {
		if e.Withdrawn || e.joined() > round {
			continue
		}
		rec := recs[e.Player]
		if rec == nil {
			rec = &record{met: map[string]bool{}}
		}
		players = append(players, swissPlayer{id: e.Player, rating: e.Rating, rec: rec, pref: preference(rec.colours)})
	}
	slices.SortFunc(players, func(a, b swissPlayer) int {
		return cmp.Or(cmp.Compare(b.rec.points, a.rec.points), cmp.Compare(b.rating, a.rating), cmp.Compare(a.id, b.id))
	})
	for i := range players {
		players[i].rank = i
	}
	return players
}

// swissMatching returns a matcher holding a perfect matching of the
// players (less the one with the bye, -1 when none), and the bye; nil when
// there is none without a rematch. The graph is first the pairs who have
// not met and would not both be due the same colour absolutely, then, if
// that has no perfect matching, the pairs who have not met. With an odd
// count the bye goes to the lowest ranked who can have it among the players
// with the fewest byes; fewer byes come before the colours.
func swissMatching(players []swissPlayer) (*matcher, int) {
	graph := func(strict bool) func(i, j int) bool {
		return func(i, j int) bool {
			p, q := players[i], players[j]
			return !p.rec.met[q.id] && (!strict || p.pref.clash(q.pref, absolute) == 0)
		}
	}
	try := func(strict bool, bye int) *matcher {
		m := newMatcher(len(players), graph(strict))
		if bye != -1 {
			m.removed[bye] = true
		}
		if m.perfect() {
			return m
		}
		return nil
	}
	if len(players)%2 == 0 {
		for _, strict := range []bool{true, false} {
			if m := try(strict, -1); m != nil {
				return m, -1
			}
		}
		return nil, -1
	}
	order := make([]int, len(players)) // lowest ranked first, by byes
	for i := range order {
		order[i] = len(players) - 1 - i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(players[a].rec.byes, players[b].rec.byes) })
	for start := 0; start < len(order); {
		end := start
		for end < len(order) && players[order[end]].rec.byes == players[order[start]].rec.byes {
			end++
		}
		for _, strict := range []bool{true, false} {
			for _, bye := range order[start:end] {
				if m := try(strict, bye); m != nil {
					return m, bye
				}
			}
		}
		start = end
	}
	return nil, -1
}

// candidates orders the opponents top may meet, best first.
func candidates(players []swissPlayer, removed []bool, top int) []int {
	p := players[top]
	var group []int // top's score group still unpaired, top first
	var cs []int
	for i := top; i < len(players); i++ {
		if removed[i] {
			continue
		}
		if players[i].rec.points == p.rec.points {
			group = append(group, i)
		}
		if i != top && !p.rec.met[players[i].id] {
			cs = append(cs, i)
		}
	}
	ideal := len(group) / 2 // top half against bottom half
	place := make(map[int]int, len(group))
	for k, i := range group {
		switch {
		case k >= ideal:
			place[i] = k - ideal // the bottom half, down
		default:
			place[i] = len(group) + ideal - k // then the top half, up
		}
	}
	slices.SortStableFunc(cs, func(a, b int) int {
		qa, qb := players[a], players[b]
		return cmp.Or(
			cmp.Compare(p.pref.clash(qa.pref, absolute), p.pref.clash(qb.pref, absolute)),
			cmp.Compare(math.Abs(qa.rec.points-p.rec.points), math.Abs(qb.rec.points-p.rec.points)),
			cmp.Compare(p.pref.clash(qa.pref, strong), p.pref.clash(qb.pref, strong)),
			cmp.Compare(place[a], place[b]),
			cmp.Compare(a, b),
		)
	})
	return cs
}
