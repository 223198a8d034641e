package tournament

import (
	"math"
	"sort"
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

// PairSwiss pairs the next round from the entries and every pairing so far (all earlier rounds complete).
func PairSwiss(entries []Entry, played []Pairing, round int) ([]Pairing, error) {
	var ids []string
	for _, e := range entries {
		if !e.Withdrawn && max(e.JoinedRound, 1) <= round {
			ids = append(ids, e.Player)
		}
	}
	var out []Pairing
	for i := 0; i+1 < len(ids); i += 2 {
		out = append(out, Pairing{Round: round, First: ids[i], Second: ids[i+1]})
	}
	if len(ids)%2 == 1 {
		out = append(out, Pairing{Round: round, First: ids[len(ids)-1], Result: FirstWins})
	}
	return out, nil
}

// PairArena pairs the waiting players (ids not in a game, not paused, not withdrawn), given all pairings so far.
func PairArena(waiting []string, entries []Entry, played []Pairing) []Pairing {
	var out []Pairing
	for i := 0; i+1 < len(waiting); i += 2 {
		out = append(out, Pairing{First: waiting[i], Second: waiting[i+1]})
	}
	return out
}

// Standings ranks the entries from the pairings so far (pending ones ignored).
func Standings(format Format, entries []Entry, played []Pairing) []Standing {
	out := make([]Standing, len(entries))
	for i, e := range entries {
		out[i] = Standing{Player: e.Player, Withdrawn: e.Withdrawn}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Player < out[j].Player })
	for i := range out {
		out[i].Rank = i + 1
	}
	return out
}

// Validate checks that a history is consistent: known players, no player
// twice in a round, no rematch in a Swiss or round robin, at most one bye
// per player in a Swiss.
func Validate(format Format, entries []Entry, played []Pairing) error {
	return nil
}
