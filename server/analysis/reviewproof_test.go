package analysis

import (
	"context"
	"testing"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/engine"
	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/server/wire"
)

// proofGame is a real game of Tumbling Down between two level 2 players
// (seed 4 of a search for such games): Red's 14th move h3>g3 turns Red's
// proven win into Black's proven win in 2, which Black then plays.
var proofGame = []string{"a6>b7", "h2-h1", "a7>a8", "h1>h2", "a8>b7", "f2>e1", "a4-b3", "g1>g2", "b8-c8", "g2>f3", "b7>c6", "h4>g4", "c7>d7", "h3>g3", "d5>e4", "d1-c1", "e4>e3"}

// TestJudgeByProofs judges moves of real positions with the proof
// searches' verdicts on them, as a review computes them (engine.Prove),
// the verdicts checked first: the blunder that lets the opponent a proven
// win, a slower move that keeps a proven win, a move of a side lost
// already, and a move played where the engine's move loses by proof too.
func TestJudgeByProofs(t *testing.T) {
	if testing.Short() {
		t.Skip("the proof searches take a minute")
	}
	for _, tc := range proofCases(t) {
		checkJudged(t, tc)
	}
}

// proofCase is a move of the real game judged with the proofs' verdicts
// on the positions before and after it.
type proofCase struct {
	name          string
	before, after wire.ReviewEval
	side          int
	move          string
	class         string
	lets          bool
}

// proofCases computes the verdicts of the positions of the cases.
func proofCases(t *testing.T) []proofCase {
	t.Helper()
	rules, err := games.Rules("tumbling-down", "")
	if err != nil {
		t.Fatal(err)
	}
	gm, _ := games.Lookup("tumbling-down")
	pv := engine.Prover(rules)
	ctx := context.Background()
	at := func(ply int) *game.Game { return proofGameAt(t, rules, ply) }
	if res, _ := at(len(proofGame)).Result(); res != game.FirstWins {
		t.Fatalf("the game ends %s, want a win of Black", res)
	}
	eval := func(h *game.Game) wire.ReviewEval { return proofEval(h, gm, pv) }
	after := func(h *game.Game, m string) *game.Game {
		c := game.NewGame(rules.Start())
		for _, x := range h.Moves() {
			c.Play(x)
		}
		if err := c.Play(m); err != nil {
			t.Fatal(err)
		}
		return c
	}
	// The blunder: after h3>g3, Black wins in 2 by proof.
	before := at(13)
	e0, e1 := eval(before), eval(at(14))
	if e1.Proven == nil || e1.Proven.Winner != 0 || e1.Proven.Moves != 2 {
		t.Fatalf("after h3>g3 the proofs say %+v, want Black wins in 2", e1.Proven)
	}
	if e0.Proven != nil && e0.Proven.Winner == 0 {
		t.Fatalf("before h3>g3 Black is proven to win already: %+v", e0.Proven)
	}
	// A slower win kept: at ply 14 Black wins in 2; a move that keeps a
	// proven win but not the proof's.
	won := at(14)
	w0 := eval(won)
	var slower string
	var w1 wire.ReviewEval
	for _, m := range won.Position().Moves() {
		if m == w0.Best {
			continue
		}
		c := after(won, m)
		if res, _ := c.Result(); res.Over() {
			continue
		}
		if pf, err := pv.Settle(ctx, c.Position(), engine.Hashes(c), 5_000); err == nil && pf.Proven() {
			if w, _ := pf.Result.Winner(); w == game.First {
				slower, w1 = m, wire.ReviewEval{Ply: 15, Proven: engine.ProvenOf(pf)}
				break
			}
		}
	}
	if slower == "" {
		t.Fatal("no other move of Black keeps the proven win")
	}
	lost := at(15) // Red to move, lost by proof
	l0, l1 := eval(lost), eval(at(16))
	if l0.Proven == nil || l0.Proven.Winner != 0 {
		t.Fatalf("at ply 15 the proofs say %+v, want Black wins", l0.Proven)
	}
	l0.Best = "" // any move but the engine's
	for _, m := range lost.Position().Moves() {
		if m != proofGame[15] {
			l0.Best = m
			break
		}
	}
	// The engine's move loses by proof too: the position was lost.
	anyway := e0
	anyway.BestAfter = &wire.Proven{Winner: 0, Moves: 3}
	return []proofCase{
		{"lets Black win in 2", e0, e1, 1, proofGame[13], "blunder", true},
		{"a slower proven win kept", w0, w1, 0, slower, "", false},
		{"a move of a side lost already", l0, l1, 1, proofGame[15], "", false},
		{"the engine's move loses too", anyway, e1, 1, proofGame[13], "", false},
	}
}

// checkJudged checks Judge's verdict on a case.
func checkJudged(t *testing.T, tc proofCase) {
	t.Helper()
	{
		moves, counts := Judge([]string{tc.move}, []int{tc.side}, []wire.ReviewEval{tc.before, tc.after})
		if len(moves) != 1 {
			t.Fatalf("%s: %+v", tc.name, moves)
		}
		m := moves[0]
		if tc.class == "blunder" && m.Class != "blunder" || tc.class == "" && m.Class == "blunder" {
			t.Errorf("%s: class %q (loss %.1f), want %q", tc.name, m.Class, m.Loss, tc.class)
		}
		if tc.name == "a slower proven win kept" && m.Class != "" {
			t.Errorf("%s: marked %q", tc.name, m.Class)
		}
		if (m.Lets != nil) != tc.lets {
			t.Errorf("%s: lets %+v", tc.name, m.Lets)
		}
		if tc.lets && m.Lets != nil && (m.Lets.Winner != 0 || m.Lets.Moves != 2 || counts[1].Blunders != 1) {
			t.Errorf("%s: lets %+v, counts %+v", tc.name, m.Lets, counts)
		}
	}
}

// proofEval is the review's evaluation of a position: the proofs, and the
// proof's move as the engine's best when there is one.
func proofEval(h *game.Game, gm *games.Game, pv ai.Prover) wire.ReviewEval {
	ctx := context.Background()
	e := wire.ReviewEval{Ply: len(h.Moves())}
	if res, _ := h.Result(); res.Over() {
		e.Result = res.String()
		return e
	}
	e.Proven = engine.Prove(ctx, gm, pv, h.Position(), engine.Hashes(h))
	if pf, err := pv.Settle(ctx, h.Position(), engine.Hashes(h), 20_000); err == nil && pf.Move != "" {
		e.Best = pf.Move
	} else {
		e.Best = h.Position().Moves()[0] // the engine's move, for Judge, which marks no move the engine chose
	}
	return e
}

// proofGameAt is the game of proofGame after ply moves.
func proofGameAt(t *testing.T, rules game.Rules, ply int) *game.Game {
	t.Helper()
	h := game.NewGame(rules.Start())
	for _, m := range proofGame[:ply] {
		if err := h.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	return h
}
