package e2e

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/magneton-games/magneton/games"
)

// animCase is one move with the positions around it, as the front end gets
// them from the server.
type animCase struct {
	Game   string `json:"game"`
	Before string `json:"before"`
	After  string `json:"after"`
	Move   string `json:"move"`
}

// randomCases plays random games with the rules engine and returns their
// moves.
func randomCases(t *testing.T, name string, n int) []animCase {
	t.Helper()
	rules, err := games.Rules(name)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, uint64(len(name))))
	var cases []animCase
	for len(cases) < n {
		p := rules.Start()
		for ply := 0; ply < 80 && len(cases) < n; ply++ {
			if r, _ := p.Outcome(); r.Over() {
				break
			}
			moves := p.Moves()
			if len(moves) == 0 {
				break
			}
			m := moves[rng.IntN(len(moves))]
			next, err := p.Play(m)
			if err != nil {
				t.Fatal(err)
			}
			cases = append(cases, animCase{Game: rules.Spec().Name, Before: p.String(), After: next.String(), Move: m})
			p = next
		}
	}
	return cases
}

// checkPlans is run in the page: for each case it works out, with the
// game's own module (js/games/<name>.js, through the loader), the animation
// the board would show (which stones slide where; which disk lands where)
// and replays it on the position before; the result must be the position
// after, square for square.
const checkPlans = `(cases) => import('/js/games.js').then(async (games) => {
  const bad = [];
  for (const c of cases) {
    const m = await games.loadGame(c.game);
    const n = games.gridFor(m);
    if (m.name === 'tumbling-down') {
      const b = m.parse(c.before, n), a = m.parse(c.after, n);
      const flights = m.flights(b, a, c.move);
      if (!flights) { bad.push(c.move + ': no plan'); continue; }
      const board = b.board.slice();
      const mv = m.parseMove(c.move, n);
      board[mv.from] = board[mv.from].slice(0, board[mv.from].length - flights.length);
      for (const f of flights) {
        if (board[f.to].length !== f.toLevel) bad.push(c.move + ': disk lands at level ' + f.toLevel + ' on ' + board[f.to]);
        board[f.to] += f.color;
      }
      if (board.join('/') !== a.board.join('/')) bad.push(c.before + ' ' + c.move + ': replayed flights differ from ' + c.after);
    } else if (m.name === 'magneton') {
      const b = m.parse(c.before, n), a = m.parse(c.after, n);
      const plan = m.slides(b, a, c.move);
      if (!plan) { bad.push(c.move + ': no plan'); continue; }
      const board = b.board.slice();
      const color = b.side === 0 ? 'w' : 'b';
      if (plan.mover) board[plan.mover.from] = '';
      board[plan.magnet] = color;
      for (const s of plan.slides) board[s.from] = '';
      for (const s of plan.slides) {
        const df = n.fileOf(s.to) - n.fileOf(plan.magnet), dr = n.rankOf(s.to) - n.rankOf(plan.magnet);
        const sf = n.fileOf(s.from) - n.fileOf(plan.magnet), sr = n.rankOf(s.from) - n.rankOf(plan.magnet);
        if (df * sr !== dr * sf || Math.sign(df) !== Math.sign(sf) || Math.sign(dr) !== Math.sign(sr)) bad.push(c.move + ': ' + n.sqName(s.from) + '-' + n.sqName(s.to) + ' is not along a line from the magnet');
        board[s.to] = s.color;
      }
      if (board.join('') !== a.board.join('')) bad.push(c.before + ' ' + c.move + ': replayed slides differ from ' + c.after);
    } else {
      bad.push(c.game + ': no plan check for this game');
    }
  }
  return bad;
})`

// TestBrowserAnimationPlans checks the front end's reading of moves against
// the rules engine: for random moves of both games, the slides of the
// magnetic effect and the disks of a tumble that the board animates rebuild
// the next position exactly, and every slide runs along a line from the
// magnet.
func TestBrowserAnimationPlans(t *testing.T) {
	bctx := browser(t)
	base := startServer(t)
	p := tab(t, bctx, "board")
	p.goTo(base + "/#/archive")
	cases := append(randomCases(t, "magneton", 600), randomCases(t, "tumbling", 600)...)
	data, err := json.Marshal(cases)
	if err != nil {
		t.Fatal(err)
	}
	bad := eval[[]string](p, fmt.Sprintf("(%s)(%s)", checkPlans, data))
	for i, b := range bad {
		if i == 10 {
			t.Errorf("... and %d more", len(bad)-10)
			break
		}
		t.Error(b)
	}
	p.checkConsole()
}
