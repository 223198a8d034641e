package tumbling_test

import (
	"fmt"

	"github.com/magneton-games/magneton/tumbling"
)

// A tumble spreads a stack one disk a square, bottom disk first, and piles
// what is left on the last square before the edge.
func ExamplePosition_Play() {
	p, err := tumbling.Rules{}.Parse("8/8/8/8/8/2,rbrb,4,b/8/7,rr b")
	if err != nil {
		panic(err)
	}
	m, err := p.ParseMove("c3>b2")
	if err != nil {
		panic(err)
	}
	fmt.Println(p.Play(m))
	// Output: 8/8/8/8/8/7,b/1,r,6/brb,6,rr r
}

// Dropping a disk on the opponent's King, their tallest stack of their own
// colour only, wins at once.
func ExamplePosition_Outcome() {
	p, _ := tumbling.Rules{}.Parse("7,r/8/8/4,rr,3/3,b,4/8/8/8 b")
	m, _ := p.ParseMove("d4-e5")
	res, why := p.Play(m).Outcome()
	fmt.Println(res, why)
	// Output: 1-0 king captured
}

func ExampleRules_StartPosition() {
	p := tumbling.Rules{}.StartPosition()
	moves := p.AppendMoves(nil)
	fmt.Println(len(moves), moves[0], moves[len(moves)-1])
	// Output: 148 a4-a3 e8-f8
}
