package tournament_test

import (
	"fmt"

	"github.com/magneton-games/magneton/tournament"
)

// A Swiss of five over two rounds: pair a round, record its results, pair
// the next, and read the standings. In round 2 cat, the lowest without a
// bye, has it; ann meets dan rather than eve, since eve against ann would
// leave bob and dan, who have met; of ann and dan, both due to move
// second, ann, ranked higher, does. Players equal on points and every tie-break share a
// rank.
func ExamplePairSwissRounds() {
	entries := []tournament.Entry{
		{Player: "ann", Rating: 1900}, {Player: "bob", Rating: 1800}, {Player: "cat", Rating: 1700},
		{Player: "dan", Rating: 1600}, {Player: "eve", Rating: 1500},
	}
	var played []tournament.Pairing
	for round := 1; round <= 2; round++ {
		pairs, err := tournament.PairSwissRounds(entries, played, round, 2)
		if err != nil {
			fmt.Println(err)
			return
		}
		for _, p := range pairs {
			if p.Bye() {
				fmt.Printf("round %d: %s has the bye\n", round, p.First)
				continue
			}
			p.Result = tournament.FirstWins // the games' results, as they end
			fmt.Printf("round %d: %s-%s\n", round, p.First, p.Second)
			played = append(played, p)
		}
		for _, p := range pairs {
			if p.Bye() {
				played = append(played, p)
			}
		}
	}
	for _, s := range tournament.Standings(tournament.Swiss, entries, played) {
		fmt.Printf("%d. %s %v (Buchholz %v)\n", s.Rank, s.Player, s.Points, s.Buchholz)
	}
	// Output:
	// round 1: ann-cat
	// round 1: dan-bob
	// round 1: eve has the bye
	// round 2: dan-ann
	// round 2: bob-eve
	// round 2: cat has the bye
	// 1. dan 2 (Buchholz 2)
	// 2. ann 1 (Buchholz 3)
	// 2. bob 1 (Buchholz 3)
	// 4. cat 1 (Buchholz 2)
	// 4. eve 1 (Buchholz 2)
}

// A round robin of three: each round one game, and a bye for the one who
// would meet the table's phantom fourth player.
func ExamplePairRoundRobin() {
	for round := 1; round <= tournament.RoundRobinRounds(3); round++ {
		pairs, _ := tournament.PairRoundRobin([]string{"ann", "bob", "cat"}, round)
		game, bye := pairs[0], pairs[1]
		fmt.Printf("round %d: %s-%s, %s has the bye\n", round, game.First, game.Second, bye.First)
	}
	// Output:
	// round 1: bob-cat, ann has the bye
	// round 2: ann-bob, cat has the bye
	// round 3: cat-ann, bob has the bye
}
