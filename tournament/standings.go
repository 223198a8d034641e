package tournament

import (
	"cmp"
	"slices"
)

// Standings ranks the entries from the pairings so far (pending ones ignored).
//
// Every entry has a Standing, withdrawn or not, best first; pairings naming
// players who are not entered count for their entered opponents only. In a
// Swiss and a round robin a win is 1 point, a draw ½ and a bye 1, and ties
// are broken by Buchholz (the sum of the opponents' points), then
// Sonneborn-Berger (the points of the opponents beaten, and half those of
// the opponents drawn), then the number of wins, then the id; for both
// tie-breaks a bye counts as a win against an opponent with the player's
// own points. In an arena a win is 2, a draw 1, both doubled for a player
// on fire (after two wins in a row, until a game that is not a win), and
// ties are broken by the number of wins, then the id. Players equal on everything but the id share
// a rank (1, 2, 2, 4...). An unknown format is scored as a Swiss.
func Standings(format Format, entries []Entry, played []Pairing) []Standing {
	out := make([]Standing, len(entries))
	at := make(map[string]*Standing, len(entries))
	for i, e := range entries {
		out[i] = Standing{Player: e.Player, Withdrawn: e.Withdrawn}
		at[e.Player] = &out[i]
	}
	if format == Arena {
		arenaStandings(at, played)
	} else {
		swissStandings(at, played)
	}
	key := func(s *Standing) []float64 {
		if format == Arena {
			return []float64{s.Points, float64(s.Wins)}
		}
		return []float64{s.Points, s.Buchholz, s.SonnebornBerger, float64(s.Wins)}
	}
	slices.SortFunc(out, func(a, b Standing) int {
		return cmp.Or(slices.Compare(key(&b), key(&a)), cmp.Compare(a.Player, b.Player))
	})
	for i := range out {
		out[i].Rank = i + 1
		if i > 0 && slices.Equal(key(&out[i]), key(&out[i-1])) {
			out[i].Rank = out[i-1].Rank
		}
	}
	return out
}

// tally adds a finished game or bye to s.
func (s *Standing) tally(r PlayerResult) {
	s.Results = append(s.Results, r)
	s.Points += r.Points
	if r.Opponent == "" {
		s.Byes++
		return
	}
	s.Games++
	switch {
	case r.Result == Draw:
		s.Draws++
	case (r.Result == FirstWins) == r.First:
		s.Wins++
	default:
		s.Losses++
	}
}

// swissStandings scores a Swiss or round robin and its tie-breaks.
func swissStandings(at map[string]*Standing, played []Pairing) {
	for _, p := range played {
		if p.Result == Pending {
			continue
		}
		if p.Bye() {
			if s := at[p.First]; s != nil {
				s.tally(PlayerResult{Round: p.Round, First: true, Result: FirstWins, Points: 1})
			}
			continue
		}
		fa, fb := Points(Swiss, p.Result)
		if s := at[p.First]; s != nil {
			s.tally(PlayerResult{Round: p.Round, Opponent: p.Second, First: true, Result: p.Result, Points: fa})
		}
		if s := at[p.Second]; s != nil {
			s.tally(PlayerResult{Round: p.Round, Opponent: p.First, Result: p.Result, Points: fb})
		}
	}
	for _, s := range at {
		for _, r := range s.Results {
			opp := s.Points // a bye: a virtual opponent with the player's own points
			if r.Opponent != "" {
				opp = 0
				if o := at[r.Opponent]; o != nil {
					opp = o.Points
				}
			}
			s.Buchholz += opp
			s.SonnebornBerger += r.Points * opp
		}
	}
}

// arenaStandings scores an arena, streaks included.
func arenaStandings(at map[string]*Standing, played []Pairing) {
	scores := arenaPoints(played, func(p Pairing, ga, gb float64) {
		if s := at[p.First]; s != nil {
			s.tally(PlayerResult{Opponent: p.Second, First: true, Result: p.Result, Points: ga})
		}
		if s := at[p.Second]; s != nil {
			s.tally(PlayerResult{Opponent: p.First, Result: p.Result, Points: gb})
		}
	})
	for id, s := range at {
		if sc := scores[id]; sc != nil {
			s.Fire = sc.onFire()
		}
	}
}
