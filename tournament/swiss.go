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

// MaxSwissRounds is the most rounds a Swiss of players players can have
// without a rematch, the rounds of a round robin: players-1 when even,
// players when odd. A Swiss of more rounds always stops there (PairSwiss
// returns CodeNoPairing); one of as many may, when the rounds paired so
// far leave no way on, though [PairSwissRounds] looks ahead to avoid it.
func MaxSwissRounds(players int) int { return RoundRobinRounds(players) }

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
// It is [PairSwissRounds] looking one round ahead: a server that knows the
// tournament's number of rounds should call that.
func PairSwiss(entries []Entry, played []Pairing, round int) ([]Pairing, error) {
	return PairSwissRounds(entries, played, round, round+1)
}

// PairSwissRounds pairs round round of a Swiss of rounds rounds, from the
// entries and every pairing so far (all earlier rounds complete).
//
// round must follow the latest round of played (1 when nothing is played)
// and be at most rounds. The players paired are the entries not withdrawn
// whose JoinedRound has come, in order of score, then rating, then id. With
// an odd count, the lowest of them who has had no bye gets it (if every
// one has had one, the lowest of those with the fewest), provided the
// others can be paired without a rematch. Then, from the top, each player
// still unpaired meets the first of the players they have not met in order
// of preference (no clash of absolute colour preferences, then the closest
// score, then no clash of strong colour preferences, then, within the score
// group, the top half against the bottom half), taken only if every player left can still be
// paired without a rematch (a perfect matching, found by Edmonds' blossom
// algorithm, says so), so the pairing never dead-ends. Pairs who are both
// due the same colour absolutely are avoided altogether when the round can
// be paired without them. Of those pairings, it takes the first after
// which the remaining rounds (up to rounds) can still be paired, as far as
// a bounded search finds (for more than 16 players it looks one round
// ahead only), else the first.
//
// When no pairing of the round avoids a rematch, it returns a CodeNoPairing
// error (the tournament cannot go on: with few players and many rounds,
// everyone may have met everyone), and CodeTooFewPlayers when fewer than
// two players are left. Each pairing's first is the one due to move first
// (docs/tournaments.md says how). The pairings come in board order (the bye last), with Result Pending, and FirstWins for the bye.
func PairSwissRounds(entries []Entry, played []Pairing, round, rounds int) ([]Pairing, error) {
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
	if round > rounds {
		return nil, errorf(CodeBadRound, "round %d of a Swiss of %d rounds", round, rounds)
	}
	players := swissOrder(entries, histories(played), round)
	if len(players) < 2 {
		return nil, errorf(CodeTooFewPlayers, "round %d has %d players to pair, fewer than two", round, len(players))
	}
	pl := newPlanner(players, rounds-round).best()
	if pl == nil {
		if len(players)%2 == 1 {
			return nil, errorf(CodeNoPairing, "round %d: no player can have the bye with the %d others paired without a rematch", round, len(players)-1)
		}
		return nil, errorf(CodeNoPairing, "round %d: every pairing of the %d players has a rematch", round, len(players))
	}
	out := make([]Pairing, 0, len(players)/2+1)
	for _, p := range pl.pairs {
		first, second := colours(players[p[0]], players[p[1]], len(out))
		out = append(out, Pairing{Round: round, First: first.id, Second: second.id})
	}
	if pl.bye != -1 {
		out = append(out, Pairing{Round: round, First: players[pl.bye].id, Result: FirstWins})
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

// candidates orders the opponents top may meet (those not met), best
// first: no clash of absolute colour preferences (both due the same colour
// by a colour difference of two or the same colour twice running, an
// absolute criterion of the Dutch system); then the closest score; then no
// clash of strong colour preferences; then, within top's score group, the
// player half the group below them (the top half against the bottom half,
// as the Dutch system does), then the next ones down, then the ones above
// from the bottom up; outside the group, the highest ranked.
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
