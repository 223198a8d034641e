package tournament

import (
	"cmp"
	"slices"
)

// Validate checks that a history is consistent: known players, no player
// twice in a round, no rematch in a Swiss or round robin, at most one bye
// per player in a Swiss.
//
// The error, an *[Error], is the first of these it finds:
//   - CodeBadFormat: an unknown format;
//   - CodeBadEntry: an empty or repeated entry;
//   - CodeUnknownPlayer: a pairing naming a player not entered;
//   - CodeBadPairing: a player against themselves, a result out of range,
//     a bye whose result is not FirstWins, a bye in an arena, two byes in
//     one Swiss round, a round below 1 in a Swiss or round robin or other
//     than 0 in an arena, a Swiss player paired before their JoinedRound;
//   - CodeTwiceInRound: a player in two pairings of one round, or in two
//     pending games of an arena;
//   - CodeRematch: two players meeting twice in a Swiss or round robin;
//   - CodeSecondBye: a Swiss player's second bye (or third...) when a
//     player of that round with fewer byes could have had it, the others of
//     the round still paired without a rematch;
//   - CodeNotInTable (or CodeBadRound): a round robin pairing that is not
//     the Berger table's for the entries in their order.
func Validate(format Format, entries []Entry, played []Pairing) error {
	switch format {
	case Arena, RoundRobin, Swiss:
	default:
		return errorf(CodeBadFormat, "unknown format %q (arena, roundrobin or swiss)", format)
	}
	ids := make([]string, len(entries))
	known := make(map[string]Entry, len(entries))
	for i, e := range entries {
		ids[i] = e.Player
		known[e.Player] = e
	}
	if err := checkIDs(ids); err != nil {
		return err
	}
	for i, p := range played {
		if err := checkPairing(format, known, i, p); err != nil {
			return err
		}
	}
	if format == Arena {
		return checkArena(played)
	}
	if err := checkRounds(format, played); err != nil {
		return err
	}
	if format == RoundRobin {
		return checkTable(ids, played)
	}
	return nil
}

// checkPairing checks pairing i on its own.
func checkPairing(format Format, known map[string]Entry, i int, p Pairing) error {
	at := func(code, format string, args ...any) error {
		return errorf(code, "pairing %d (round %d, %q against %q): "+format, append([]any{i + 1, p.Round, p.First, p.Second}, args...)...)
	}
	e, ok := known[p.First]
	if !ok {
		return at(CodeUnknownPlayer, "%q is not entered", p.First)
	}
	if _, ok := known[p.Second]; !ok && !p.Bye() {
		return at(CodeUnknownPlayer, "%q is not entered", p.Second)
	}
	switch {
	case p.First == p.Second:
		return at(CodeBadPairing, "a player against themselves")
	case p.Result < Pending || p.Result > Draw:
		return at(CodeBadPairing, "result %d is none of Pending, FirstWins, SecondWins and Draw", p.Result)
	case format == Arena && p.Bye():
		return at(CodeBadPairing, "an arena has no byes")
	case format == Arena && p.Round != 0:
		return at(CodeBadPairing, "an arena's pairings have round 0")
	case format != Arena && p.Round < 1:
		return at(CodeBadPairing, "rounds count from 1")
	case p.Bye() && p.Result != FirstWins:
		return at(CodeBadPairing, "a bye's result is FirstWins")
	case format == Swiss && p.Round < e.joined():
		return at(CodeBadPairing, "%q joined in round %d", p.First, e.joined())
	case format == Swiss && !p.Bye() && p.Round < known[p.Second].joined():
		return at(CodeBadPairing, "%q joined in round %d", p.Second, known[p.Second].joined())
	}
	return nil
}

// checkArena checks that no one is in two pending games.
func checkArena(played []Pairing) error {
	busy := make(map[string]bool)
	for _, p := range played {
		if p.Result != Pending {
			continue
		}
		for _, id := range []string{p.First, p.Second} {
			if busy[id] {
				return errorf(CodeTwiceInRound, "%q is in two games being played at once", id)
			}
			busy[id] = true
		}
	}
	return nil
}

// checkRounds checks a Swiss's or round robin's rounds: no one twice in a
// round, no rematch, no needless second bye.
func checkRounds(format Format, played []Pairing) error {
	byRound := slices.Clone(played)
	slices.SortStableFunc(byRound, func(a, b Pairing) int { return cmp.Compare(a.Round, b.Round) })
	met := make(map[[2]string]int) // the round they met
	byes := make(map[string]int)
	for start := 0; start < len(byRound); {
		end := start
		for end < len(byRound) && byRound[end].Round == byRound[start].Round {
			end++
		}
		round := byRound[start:end]
		start = end
		if err := checkRound(round, met); err != nil {
			return err
		}
		if format == Swiss {
			if err := checkByes(round, met, byes); err != nil {
				return err
			}
		}
		for _, p := range round {
			if p.Bye() {
				byes[p.First]++
			} else {
				met[meeting(p.First, p.Second)] = p.Round
			}
		}
	}
	return nil
}

// meeting is the key of a pair of players, in either order.
func meeting(a, b string) [2]string { return [2]string{min(a, b), max(a, b)} }

// checkRound checks one round against the rounds before, whose meetings
// are met: no one twice, no rematch.
func checkRound(round []Pairing, met map[[2]string]int) error {
	seen := make(map[string]bool)
	for _, p := range round {
		for _, id := range []string{p.First, p.Second} {
			if id == "" {
				continue
			}
			if seen[id] {
				return errorf(CodeTwiceInRound, "%q is paired twice in round %d", id, p.Round)
			}
			seen[id] = true
		}
		if p.Bye() {
			continue
		}
		if was, ok := met[meeting(p.First, p.Second)]; ok {
			return errorf(CodeRematch, "%q and %q meet in round %d and again in round %d", p.First, p.Second, was, p.Round)
		}
	}
	return nil
}

// checkByes checks a Swiss round's bye: a player's second one only when no
// player of the round with fewer byes could have had it with all the others
// paired without a rematch.
func checkByes(round []Pairing, met map[[2]string]int, byes map[string]int) error {
	var ids []string
	bye := -1
	for _, p := range round {
		if p.Bye() {
			if bye != -1 {
				return errorf(CodeBadPairing, "round %d of a Swiss has two byes, %q and %q", p.Round, ids[bye], p.First)
			}
			bye = len(ids)
		}
		ids = append(ids, p.First)
		if !p.Bye() {
			ids = append(ids, p.Second)
		}
	}
	if bye == -1 || byes[ids[bye]] == 0 {
		return nil
	}
	canMeet := func(i, j int) bool { _, ok := met[meeting(ids[i], ids[j])]; return !ok }
	for i, id := range ids {
		if byes[id] >= byes[ids[bye]] {
			continue
		}
		m := newMatcher(len(ids), canMeet)
		m.removed[i] = true
		if m.perfect() {
			return errorf(CodeSecondBye, "%q has bye number %d in round %d while %q, with %d, could have had it",
				ids[bye], byes[ids[bye]]+1, round[0].Round, id, byes[id])
		}
	}
	return nil
}

// checkTable checks that a round robin's pairings are its Berger table's.
func checkTable(ids []string, played []Pairing) error {
	tables := make(map[int]map[Pairing]bool)
	for _, p := range played {
		t := tables[p.Round]
		if t == nil {
			all, err := PairRoundRobin(ids, p.Round)
			if err != nil {
				return err // a round the table has not
			}
			t = make(map[Pairing]bool, len(all))
			for _, q := range all {
				t[Pairing{Round: q.Round, First: q.First, Second: q.Second}] = true
			}
			tables[p.Round] = t
		}
		if !t[Pairing{Round: p.Round, First: p.First, Second: p.Second}] {
			if p.Bye() {
				return errorf(CodeNotInTable, "round %d: the table gives %q no bye", p.Round, p.First)
			}
			return errorf(CodeNotInTable, "round %d: the table has no game with %q first against %q", p.Round, p.First, p.Second)
		}
	}
	return nil
}
