package tournament

import "slices"

// lookaheadBudget bounds the search for a round after which the next
// rounds can still be paired, before it settles for the round's best
// pairing as it is: a tentative pairing costs the number of players, a
// matching tried from scratch its square. 20000 tentative pairings of 16
// players take about 30 ms.
const lookaheadBudget = 20000 * 16

// lookaheadPlayers is the count above which the search looks one round
// ahead at most: a dead end further on is then rare, and each step dearer.
const lookaheadPlayers = 16

// planner chooses a Swiss round's pairing.
type planner struct {
	players []swissPlayer
	met     [][]bool // i and j have met (this round's tentative pairs included)
	byes    []int    // byes had (this round's tentative one included)
	ahead   int      // rounds after this one that should stay pairable
	budget  int
}

// plan is a round's pairing: pairs of player indices, top board first, and
// the bye (-1 for none).
type plan struct {
	pairs [][2]int
	bye   int
}

func newPlanner(players []swissPlayer, ahead int) *planner {
	n := len(players)
	met := make([][]bool, n)
	for i := range met {
		met[i] = make([]bool, n)
		for j := range n {
			met[i][j] = players[i].rec.met[players[j].id]
		}
	}
	byes := make([]int, n)
	for i, p := range players {
		byes[i] = p.rec.byes
	}
	if n > lookaheadPlayers {
		ahead = min(ahead, 1)
	}
	for i := range n { // no looking further than a player can go on meeting new opponents
		unmet := n - 1
		for j := range n {
			if met[i][j] {
				unmet--
			}
		}
		if n%2 == 1 && byes[i] == 0 {
			unmet++ // one round off with the bye
		}
		ahead = min(ahead, unmet-1)
	}
	return &planner{players: players, met: met, byes: byes, ahead: max(ahead, 0), budget: lookaheadBudget}
}

// graph is who may meet this round: not met, and, when strict, not both
// due the same colour absolutely.
func (pl *planner) graph(strict bool) func(i, j int) bool {
	return func(i, j int) bool {
		return !pl.met[i][j] && (!strict || pl.players[i].pref.clash(pl.players[j].pref, absolute) == 0)
	}
}

// byeTiers is who may have the bye, in tiers by the byes they have had
// (fewest first), lowest ranked first within a tier; {{-1}} for an even
// count.
func (pl *planner) byeTiers() [][]int {
	n := len(pl.players)
	if n%2 == 0 {
		return [][]int{{-1}}
	}
	order := make([]int, n)
	for i := range order {
		order[i] = n - 1 - i
	}
	byes := func(i int) int { return pl.byes[i] }
	slices.SortStableFunc(order, func(a, b int) int { return byes(a) - byes(b) })
	var tiers [][]int
	for start := 0; start < n; {
		end := start
		for end < n && byes(order[end]) == byes(order[start]) {
			end++
		}
		tiers = append(tiers, order[start:end])
		start = end
	}
	return tiers
}

// best returns the round's pairing, or nil when every pairing has a
// rematch. The bye goes to the first player of the first tier who can have
// it. Within that tier, the first pairing in order of preference (absolute
// colour clashes avoided if possible, then the order of [candidates]) after
// which the next rounds can still be paired; if none is found within the
// budget, the first pairing in that order.
func (pl *planner) best() *plan {
	n := len(pl.players)
	for _, tier := range pl.byeTiers() {
		var fallback *plan
		for _, strict := range []bool{true, false} {
			for _, bye := range tier {
				m := newMatcher(n, pl.graph(strict))
				if bye != -1 {
					m.removed[bye] = true
				}
				if !m.perfect() {
					continue
				}
				pairs, ok := pl.enumerate(m, true, func(pairs [][2]int) bool {
					if fallback == nil {
						fallback = &plan{pairs: slices.Clone(pairs), bye: bye}
					}
					return pl.ahead == 0 || pl.budget > 0 && pl.future(pairs, bye)
				})
				if ok {
					return &plan{pairs: pairs, bye: bye}
				}
			}
		}
		if fallback != nil {
			return fallback
		}
	}
	return nil
}

// future reports whether the pl.ahead rounds after these pairs and bye
// can be paired too, with the same players, the bye going as [planner.best]
// gives it.
func (pl *planner) future(pairs [][2]int, bye int) bool {
	pl.mark(pairs, bye, true)
	defer pl.mark(pairs, bye, false)
	return pl.pairable(pl.ahead)
}

// mark adds (or takes back) a round's pairs and bye to what the players
// have met and had.
func (pl *planner) mark(pairs [][2]int, bye int, add bool) {
	for _, p := range pairs {
		pl.met[p[0]][p[1]], pl.met[p[1]][p[0]] = add, add
	}
	if bye != -1 && add {
		pl.byes[bye]++
	} else if bye != -1 {
		pl.byes[bye]--
	}
}

// pairable reports whether k more rounds can be paired without a rematch;
// true when the budget runs out before it knows.
func (pl *planner) pairable(k int) bool {
	if k == 0 {
		return true
	}
	n := len(pl.players)
	for _, tier := range pl.byeTiers() {
		some := false // a pairing with a bye of this tier: best takes one
		for _, bye := range tier {
			pl.budget -= n * n
			m := newMatcher(n, pl.graph(false))
			if bye != -1 {
				m.removed[bye] = true
			}
			if m.perfect() {
				if k == 1 {
					return true
				}
				some = true
				_, ok := pl.enumerate(m, false, func(pairs [][2]int) bool {
					pl.mark(pairs, bye, true)
					defer pl.mark(pairs, bye, false)
					return pl.pairable(k - 1)
				})
				if ok {
					return true
				}
			}
			if pl.budget <= 0 {
				return true
			}
		}
		if some {
			return false
		}
	}
	return false
}

// enumerate walks the perfect matchings of m's graph, from the top player
// down, each meeting their candidates in order (preferred: [candidates];
// else by index), until leaf accepts one, which it returns. The matcher's
// matching keeps the walk from dead ends; the budget stops it, though
// never before the first matching.
func (pl *planner) enumerate(m *matcher, preferred bool, leaf func([][2]int) bool) ([][2]int, bool) {
	var pairs [][2]int
	var walk func() bool
	walk = func() bool {
		top := slices.Index(m.removed, false)
		if top == -1 {
			return leaf(pairs)
		}
		var cs []int
		if preferred {
			cs = candidates(pl.players, m.removed, top)
		} else {
			for c := top + 1; c < m.n; c++ {
				if !m.removed[c] {
					cs = append(cs, c)
				}
			}
		}
		for _, c := range cs {
			saved := slices.Clone(m.match)
			if !m.take(top, c) {
				continue
			}
			pl.budget -= m.n
			pairs = append(pairs, [2]int{top, c})
			if walk() {
				return true
			}
			pairs = pairs[:len(pairs)-1]
			copy(m.match, saved)
			m.removed[top], m.removed[c] = false, false
			if pl.budget <= 0 {
				return false
			}
		}
		return false
	}
	if walk() {
		return slices.Clone(pairs), true
	}
	return nil, false
}
