package tournament

// RoundRobinRounds is the number of rounds of a round robin of players
// players: players-1 when even, players when odd (each round someone has
// the bye); 0 for fewer than two players.
func RoundRobinRounds(players int) int {
	if players < 2 {
		return 0
	}
	if players%2 == 1 {
		return players
	}
	return players - 1
}

// PairRoundRobin returns round r's pairings (1-based) for players in seed order, byes included for odd counts.
//
// The pairings are the FIDE Berger tables (the circle method): seed n (the
// last of an even count) stays in place while the others turn around the
// circle, so every pair meets exactly once in the n-1 rounds. With an odd
// count a phantom last seed is added, and whoever meets it has the bye
// (Second "", Result FirstWins). The boards come in the table's order, the
// bye last, and the first player of each pairing moves first as the table
// says: each player's firsts and seconds then never differ by more than
// two, and by at most one at the end.
func PairRoundRobin(players []string, round int) ([]Pairing, error) {
	if err := checkIDs(players); err != nil {
		return nil, err
	}
	n := len(players)
	if n < 2 {
		return nil, errorf(CodeTooFewPlayers, "a round robin needs two players or more, not %d", n)
	}
	rounds := RoundRobinRounds(n)
	if round < 1 || round > rounds {
		return nil, errorf(CodeBadRound, "round %d of a round robin of %d players: the rounds are 1 to %d", round, n, rounds)
	}
	var out []Pairing
	var bye *Pairing
	for _, b := range bergerRound(n, round) {
		p := Pairing{Round: round}
		switch {
		case b[0] >= n:
			p.First, p.Result = players[b[1]], FirstWins
			bye = &p
			continue
		case b[1] >= n:
			p.First, p.Result = players[b[0]], FirstWins
			bye = &p
			continue
		}
		p.First, p.Second = players[b[0]], players[b[1]]
		out = append(out, p)
	}
	if bye != nil {
		out = append(out, *bye)
	}
	return out, nil
}

// bergerRound returns round r's boards of the Berger table of n seeds
// (0-based; an odd n gets the phantom seed n), first mover first.
//
// With m = n-1 (n even), round r's board 1 sets seed n against seed
// a = (r-1)·n/2 mod m + 1 (seed n moves first in even rounds), and board
// k > 1 sets seed a+(k-1) against seed a-(k-1), both counted around
// 1..m, the first moving first: the published tables, round by round.
func bergerRound(n, r int) [][2]int {
	if n%2 == 1 {
		n++
	}
	m := n - 1
	a := (r-1)*(n/2)%m + 1
	around := func(s int) int { return ((s-1)%m+m)%m + 1 }
	boards := make([][2]int, 0, n/2)
	if r%2 == 0 {
		boards = append(boards, [2]int{n - 1, a - 1})
	} else {
		boards = append(boards, [2]int{a - 1, n - 1})
	}
	for k := 2; k <= n/2; k++ {
		boards = append(boards, [2]int{around(a+k-1) - 1, around(a-k+1) - 1})
	}
	return boards
}

// PairRoundRobinEntries is [PairRoundRobin] for a tournament in progress:
// entries in seed order (the table stays the one of every entry, withdrawn
// or not), less the pairings of withdrawn players: their games are not
// played, and their opponents simply have no game that round (no point, no
// bye). A withdrawn player's bye is dropped too.
func PairRoundRobinEntries(entries []Entry, round int) ([]Pairing, error) {
	ids := make([]string, len(entries))
	gone := make(map[string]bool)
	for i, e := range entries {
		ids[i] = e.Player
		if e.Withdrawn {
			gone[e.Player] = true
		}
	}
	all, err := PairRoundRobin(ids, round)
	if err != nil {
		return nil, err
	}
	out := all[:0]
	for _, p := range all {
		if !gone[p.First] && !gone[p.Second] {
			out = append(out, p)
		}
	}
	return out, nil
}

// checkIDs reports an empty or repeated player id.
func checkIDs(ids []string) error {
	seen := make(map[string]bool, len(ids))
	for i, id := range ids {
		if id == "" {
			return errorf(CodeBadEntry, "player %d has an empty id", i+1)
		}
		if seen[id] {
			return errorf(CodeBadEntry, "player %q is entered twice", id)
		}
		seen[id] = true
	}
	return nil
}
