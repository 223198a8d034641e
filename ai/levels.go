package ai

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/magneton-games/magneton/game"
)

// mctsLevel caps an MCTS player below full strength.
type mctsLevel struct {
	iterations int64
}

// abPlayer plays with the alpha-beta Engine.
type abPlayer[P game.Position[P, M], M comparable] struct {
	name string
	eng  *Engine[P, M]
	lv   Level
	kit  *Kit[P, M]
	rng  *rand.Rand // draws the mistakes
	// fixed: the player searches to its depth whatever the time (the
	// fixed-depth baseline); only a cancelled context stops it.
	fixed bool
	// threats, when its Plies are set, is the threat-space search tried
	// before the main search (GameProfile.Threats).
	threats ThreatSearch
	// prover, if not nil, settles the endgame by proof (Config.Prover):
	// once a search has seen a forced result (endgame), each move asks
	// it first.
	prover  Prover
	endgame bool
	// book, if not nil, is asked before anything else (Config.Book).
	book Book
}

func newABPlayer[P game.Position[P, M], M comparable](name string, kit *Kit[P, M], cfg Config, lv Level) *abPlayer[P, M] {
	return &abPlayer[P, M]{name: name, eng: NewEngine(kit, cfg.HashMB, cfg.Threads), lv: lv, kit: kit,
		rng: rand.New(rand.NewPCG(uint64(cfg.Seed), 0xab1e))}
}

// FixedDepth returns a player that searches every move with eng to depth
// plies, whatever the move's limits say of time, depth or nodes: only a
// cancelled context stops it early. It is for a baseline defined by its
// depth and its engine's settings (such as Tumbling Down's boardspace-d5,
// an engine without quiescence, reductions or contempt), which plays the
// same at any move time. It never plays a beginner's move nor searches
// for threats first; the player is eng's only user.
func FixedDepth[P game.Position[P, M], M comparable](name string, eng *Engine[P, M], depth int) Thinker {
	return &abPlayer[P, M]{name: name, eng: eng, kit: eng.kit, lv: Level{Depth: depth}, fixed: true}
}

func (a *abPlayer[P, M]) Name() string { return a.name }

func (a *abPlayer[P, M]) NewGame() { a.eng.Clear(); a.endgame = false }

func (a *abPlayer[P, M]) Think(ctx context.Context, g *game.Game, lim Limits, info func(Info)) (Info, error) {
	p, hist, err := unwrapGame[P, M](g)
	if err != nil {
		return Info{}, err
	}
	if a.lv.Mistakes > 0 && a.rng.Float64() < a.lv.Mistakes {
		mv := p.FormatMove(beginnerMove(a.kit, p, a.rng, MistakeTemp))
		return Info{BestMove: mv, PV: []string{mv}}, nil
	}
	t0 := time.Now()
	if a.book != nil && len(lim.Exclude) == 0 {
		if pf, ok := a.book.Lookup(g.Position(), hist); ok && pf.Move != "" {
			return provenInfo(pf, p.Side(), t0, info), nil
		}
	}
	if a.endgame && len(lim.Exclude) == 0 {
		if in, ok := a.proven(ctx, g, p, hist, lim, t0, info); ok {
			return in, nil
		}
	}
	if a.threats.Plies > 0 {
		if m, n, nodes, ok := threatWin(ctx, a.kit, p, hist, a.threats.Plies, a.threats.Nodes); ok {
			// Reported as a search to the plies of the win would be.
			mv := p.FormatMove(m)
			in := Info{Depth: 2*n - 1, Score: Mate - (2*n - 1), Mate: n, Nodes: nodes, Time: time.Since(t0), BestMove: mv, PV: []string{mv}}
			if info != nil {
				info(in)
			}
			return in, nil
		}
	}
	b := lim.Budget(p.Side(), DefaultMoveTime)
	if a.fixed {
		b = Budget{}
	}
	if a.lv.Nodes > 0 && (b.Nodes == 0 || b.Nodes > a.lv.Nodes) {
		b.Nodes = a.lv.Nodes
	}
	if a.lv.Depth > 0 && (b.Depth == 0 || b.Depth > a.lv.Depth) {
		b.Depth = a.lv.Depth
	}
	if len(lim.Exclude) > 0 {
		// A line besides the best (multi-PV): no threat search or defence,
		// which would answer the best move again.
		return a.excluding(ctx, p, hist, b, lim.Exclude, info)
	}
	main := b
	if a.threats.Plies > 0 {
		// A tenth of the time is kept for searching again when the
		// defence refutes the move, which is rare; the table the first
		// search filled makes a short search again worth having. (With
		// a quarter kept, level 8 thought 79 ms of a 100 ms move, and
		// more time is what it converts into wins: docs/strength.md.)
		main = b.share(9, 10)
	}
	res, err := a.eng.Search(ctx, p, hist, main.after(time.Since(t0)), info)
	if err != nil {
		return Info{}, err
	}
	if a.threats.Plies > 0 {
		res = a.defend(ctx, p, hist, b, t0, res, info)
	}
	if a.prover != nil {
		// The search sees a forced result: from now on the proof search
		// is asked first; and at once, when this is the first time.
		first := !a.endgame
		a.endgame = res.Info.Mate != 0
		if a.endgame && first {
			if in, ok := a.proven(ctx, g, p, hist, lim, t0, info); ok {
				return in, nil
			}
		}
	}
	return res.Info, nil
}

// proven asks the prover about p within the endgame budgets and, when it
// proves a win or a loss, reports it as a search would, with its move.
func (a *abPlayer[P, M]) proven(ctx context.Context, g *game.Game, p P, hist []uint64, lim Limits, t0 time.Time, info func(Info)) (Info, bool) {
	limit := EndgameTime
	if b := lim.Budget(p.Side(), DefaultMoveTime); b.Hard > 0 {
		limit = min(limit, b.Hard/EndgameShare)
	}
	pctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	pf, err := a.prover.Settle(pctx, g.Position(), hist, EndgameNodes)
	if err != nil || !pf.Proven() || pf.Move == "" {
		return Info{}, false
	}
	return provenInfo(pf, p.Side(), t0, info), true
}

// provenInfo reports a proof of a win or loss for side as a search would,
// with its move and, when the proof has it, its line.
func provenInfo(pf Proof, side game.Side, t0 time.Time, info func(Info)) Info {
	n := pf.Signed(side)
	plies := 2*n - 1
	score := Mate - plies
	if n < 0 {
		plies = -2 * n
		score = -(Mate - plies)
	}
	pv := pf.Line
	if len(pv) == 0 {
		pv = []string{pf.Move}
	}
	in := Info{Depth: plies, Score: score, Mate: n, Nodes: pf.Nodes, Time: time.Since(t0), BestMove: pf.Move, PV: pv, Proven: &pf}
	if info != nil {
		info(in)
	}
	return in
}

// excluding searches p without the root moves exclude names; an error
// when one is not a legal move or none is left.
func (a *abPlayer[P, M]) excluding(ctx context.Context, p P, hist []uint64, b Budget, exclude []string, info func(Info)) (Info, error) {
	defer func() { a.eng.Exclude = a.eng.Exclude[:0] }()
	for _, text := range exclude {
		m, err := p.ParseMove(text)
		if err != nil {
			return Info{}, fmt.Errorf("exclude %s: %w", text, err)
		}
		a.eng.Exclude = append(a.eng.Exclude, m)
	}
	res, err := a.eng.Search(ctx, p, hist, b, info)
	if err != nil {
		return Info{}, err
	}
	if slices.Contains(a.eng.Exclude, res.Move) {
		return Info{}, errNoMove // every move was excluded
	}
	return res.Info, nil
}

// maxRefuted is how many moves of the main search the defence sets aside
// on one move before it stops searching again in the move's time, and
// maxQuick how many it sets aside in all, the later ones found by a
// one-ply search.
const (
	maxRefuted = 4
	maxQuick   = 12
)

// defend checks the main search's move against the opponent's threats: a
// move after which the opponent wins by threats within the threat
// search's horizon (threatLoss) is set aside and the main search run again
// without it in the time left, at most maxRefuted times. A win by threats
// is often longer than the main search sees at a short move time, and it
// is certain, so a move it refutes is a loss the evaluation did not see.
// When the time or those searches run out first, a one-ply search picks
// the next move to check, up to maxQuick in all, and after the first
// within four times the move's time: at 25 ms a move, level 8 had played a refuted drop (a loss
// in two) because the time was gone after the first check. When every
// move tried is refuted, the first move stands: every move may lose, and
// the search judged it best.
func (a *abPlayer[P, M]) defend(ctx context.Context, p P, hist []uint64, b Budget, t0 time.Time, first SearchResult[M], info func(Info)) SearchResult[M] {
	defer func() { a.eng.Exclude = a.eng.Exclude[:0] }()
	res := first
	for tries := 0; ; tries++ {
		if res.Info.Mate < 0 || !threatLoss(ctx, a.kit, p, res.Move, hist, a.threats.Plies, a.threats.Nodes) {
			return res
		}
		a.eng.Exclude = append(a.eng.Exclude, res.Move)
		if tries+1 >= maxQuick || len(a.eng.Exclude) >= res.Moves || ctx.Err() != nil {
			return first
		}
		// Each search again gets what is left of the move's time (the
		// table the first search filled makes a short one worth having);
		// with none left, or after maxRefuted, a one-ply search names the
		// next candidate: once in any case, then as long as four times the
		// move's time is not spent.
		again := b.after(time.Since(t0))
		if elapsed := time.Since(t0); tries+1 >= maxRefuted || b.Hard > 0 && elapsed >= b.Hard {
			if b.Hard > 0 && elapsed >= 4*b.Hard && tries > 0 {
				return first
			}
			again = Budget{Depth: 1}
		}
		r, err := a.eng.Search(ctx, p, hist, again, info)
		if err != nil {
			return first
		}
		res = r
	}
}

func (a *abPlayer[P, M]) Move(ctx context.Context, g *game.Game, lim Limits) (string, error) {
	in, err := a.Think(ctx, g, lim, nil)
	return in.BestMove, err
}

// mctsPlayer plays with MCTS.
type mctsPlayer[P game.Position[P, M], M comparable] struct {
	name string
	s    *MCTS[P, M]
	lv   mctsLevel
}

func newMCTSPlayer[P game.Position[P, M], M comparable](name string, kit *Kit[P, M], cfg Config, lv mctsLevel) *mctsPlayer[P, M] {
	return &mctsPlayer[P, M]{name: name, s: NewMCTS(kit, cfg.Threads, uint64(cfg.Seed)), lv: lv}
}

func (m *mctsPlayer[P, M]) Name() string { return m.name }

func (m *mctsPlayer[P, M]) NewGame() { m.s.NewGame() }

func (m *mctsPlayer[P, M]) Think(ctx context.Context, g *game.Game, lim Limits, info func(Info)) (Info, error) {
	p, _, err := unwrapGame[P, M](g)
	if err != nil {
		return Info{}, err
	}
	b := lim.Budget(p.Side(), DefaultMoveTime)
	if m.lv.iterations > 0 && (b.Nodes == 0 || b.Nodes > m.lv.iterations) {
		b.Nodes = m.lv.iterations
	}
	res, err := m.s.Search(ctx, p, b, info)
	if err != nil {
		return Info{}, err
	}
	return res.Info, nil
}

func (m *mctsPlayer[P, M]) Move(ctx context.Context, g *game.Game, lim Limits) (string, error) {
	in, err := m.Think(ctx, g, lim, nil)
	return in.BestMove, err
}

// Algorithm names the search of a game's strongest player.
type Algorithm string

// The searches.
const (
	AlphaBeta Algorithm = "alphabeta"
	MCTSAlgo  Algorithm = "mcts"
)

// MistakeTemp is the softmax temperature, in evaluation units, of the
// beginner's moves that levels 2 to 7 play as mistakes; a game whose
// level 1 plays as their mistakes gives it as GameProfile.LevelOneTemp.
const MistakeTemp = 60

// LevelNames names the levels 1 to 8 (index 0 is level 1), for menus.
var LevelNames = [8]string{"beginner", "novice", "casual", "intermediate", "club", "strong", "expert", "max"}

// levelPlayer makes the player of a level.
func (pr *profile[P, M]) levelPlayer(lv int, kit *Kit[P, M], cfg Config, rng *rand.Rand) Player {
	name := fmt.Sprintf("level %d", lv)
	switch {
	case lv <= 1:
		temp := pr.gp.LevelOneTemp
		return &movePlayer[P, M]{name: name, choose: func(p P, _ []uint64) M {
			return beginnerMove(kit, p, rng, temp)
		}}
	case lv < 8:
		return newABPlayer(name, kit, cfg, pr.gp.Levels[lv-2])
	}
	if pr.gp.Strongest == MCTSAlgo {
		return newMCTSPlayer(name, kit, cfg, mctsLevel{})
	}
	ab := newABPlayer(name, kit, cfg, Level{})
	ab.threats = pr.gp.Threats
	ab.prover = cfg.Prover
	ab.book = cfg.Book
	return ab
}
