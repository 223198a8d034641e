// Package engine is what the site's pages ask of the rules and the
// computer: moves played from a position (the analysis board and the
// lessons have no rules of their own), the engine's lines with the proof
// searches' verdict, and a computer player's move. It is one piece of
// code for two hosts: the play server's API (package server/analysis,
// POST /api/play and /api/analyze) and the browser's engine, this package
// compiled to WebAssembly and run in a Web Worker (package engine/wasm,
// web/static/engine), so that what the browser says is legal, won or best
// is what the server says.
//
// Requests and answers are the protocol's JSON (docs/protocol.md, the
// types of package server/wire); a request the rules refuse is a
// wire.Refusal with a code that the front end words.
package engine

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/server/wire"
)

// MaxPlayMoves bounds the moves of one play request.
const MaxPlayMoves = 1000

// PlayRequest asks the rules engine to play moves from a position.
type PlayRequest struct {
	Game     string   `json:"game"`
	Rules    string   `json:"rules"`
	Position string   `json:"position"` // "" or "start" for the start
	Moves    []string `json:"moves"`
}

// Position reads a request's game, rules and position ("" or "start" for
// the start); the error says what is wrong (a wire.Refusal for a bad
// position).
func Position(name, settings, position string) (game.Rules, game.State, error) {
	rules, err := games.Rules(name, settings)
	if err != nil {
		return nil, nil, err
	}
	st := rules.Start()
	if p := strings.TrimSpace(position); p != "" && p != "start" {
		if st, err = rules.ParsePosition(p); err != nil {
			return nil, nil, wire.Refuse("bad_position", "position: "+err.Error(), wire.Because(err, "invalid", "position "+strconv.Quote(p))...)
		}
	}
	return rules, st, nil
}

// Play plays a request's moves: the positions after each move, and the
// last one's legal moves and result. A wrong position or move is a
// refusal that says which and why.
func Play(req PlayRequest) (wire.Played, error) {
	if len(req.Moves) > MaxPlayMoves {
		return wire.Played{}, wire.Refusef("moves: at most %d, not %d", MaxPlayMoves, len(req.Moves))
	}
	_, st, err := Position(req.Game, req.Rules, req.Position)
	if err != nil {
		return wire.Played{}, err
	}
	out := wire.Played{Start: st.String(), Positions: []string{}}
	// A game from the position, so that the third occurrence of a position
	// draws as it does in a game played (the rules' repetition option).
	g := game.NewGame(st)
	for i, mv := range req.Moves {
		if res, why := g.Result(); res.Over() {
			return wire.Played{}, wire.Refuse("play_over", fmt.Sprintf("move %d %s: the game is over (%s, %s)", i+1, mv, res, why), "move", mv, "result", res.String(), "reason", fmt.Sprint(why))
		}
		if err := g.Play(mv); err != nil {
			return wire.Played{}, wire.Refuse("illegal_move", fmt.Sprintf("move %d: %v", i+1, err), append([]string{"move", mv}, wire.Because(err, "illegal", mv)...)...)
		}
		out.Positions = append(out.Positions, g.Position().String())
	}
	st = g.Position()
	res, why := g.Result()
	out.Position, out.Turn, out.Result, out.Reason = st.String(), int(st.Side()), res.String(), why.String()
	out.Legal = []string{}
	if !res.Over() {
		out.Legal = st.Moves()
	}
	return out, nil
}

// AnalyzeRequest asks for the engine's lines in a position.
type AnalyzeRequest struct {
	Game       string `json:"game"`
	Rules      string `json:"rules"`
	Position   string `json:"position"`
	MoveTimeMS int    `json:"movetime_ms"`
	// MultiPV asks for this many lines, 1 to MaxLines (0: 1).
	MultiPV int `json:"multipv"`
}

// MaxMoveTime is the longest analysis the server grants; MaxLines the
// most lines.
const (
	MaxMoveTime = 5 * time.Second
	MaxLines    = 3
)

// CheckAnalyze reads an analysis request's limits, filling the defaults,
// with longest the longest time allowed; "" when they are fine, else what
// is wrong.
func CheckAnalyze(req *AnalyzeRequest, longest time.Duration) string {
	if req.MoveTimeMS == 0 {
		req.MoveTimeMS = 1000
	}
	if req.MoveTimeMS < 100 || req.MoveTimeMS > int(longest/time.Millisecond) {
		return fmt.Sprintf("movetime_ms %d: want 100 to %d", req.MoveTimeMS, longest/time.Millisecond)
	}
	if req.MultiPV == 0 {
		req.MultiPV = 1
	}
	if req.MultiPV < 1 || req.MultiPV > MaxLines {
		return fmt.Sprintf("multipv %d: want 1 to %d", req.MultiPV, MaxLines)
	}
	return ""
}

// Analyst answers analyses of one game's rules with a level 8 player
// whose table persists between them: an analysis that deepens by asking
// again with more time finds the work of the last one there.
type Analyst struct {
	rules  game.Rules
	think  ai.Thinker
	prover ai.Prover
}

// NewAnalyst is an analyst of rules with a table of hashMB megabytes and
// the book of proven positions bk (nil: the program's own, games.NewPlayer).
func NewAnalyst(rules game.Rules, hashMB int, bk ai.Book) (*Analyst, error) {
	p, err := games.NewPlayer("level:8", rules, ai.Config{HashMB: hashMB, Book: bk})
	if err != nil {
		return nil, err
	}
	t, ok := p.(ai.Thinker)
	if !ok {
		return nil, fmt.Errorf("analyze: the level 8 player of %s does not search", rules.Spec().Title)
	}
	return &Analyst{rules: rules, think: t, prover: Prover(rules)}, nil
}

// Analyze searches g's position (not over) for lines lines within total,
// then, when the search did not settle it, asks the proof searches. info,
// if not nil, hears the best line after each completed depth of its
// search.
func (an *Analyst) Analyze(ctx context.Context, g *game.Game, total time.Duration, lines int, info func(wire.AnalysisLine)) (wire.Analysis, error) {
	found, proof, err := SearchLines(ctx, an.think, g, total, lines, info)
	if err != nil {
		return wire.Analysis{}, err
	}
	st := g.Position()
	best := found[0]
	out := wire.Analysis{Score: best.Score, Best: best.PV[0], PV: best.PV, Depth: best.Depth, Turn: int(st.Side()), Lines: found}
	// The proof searches' verdict, the only "proven" claim: no evaluation
	// enters them. The search's own, when its endgame proof settled the
	// position, or else the proof searches', within small budgets.
	if proof != nil {
		out.Proven = ProvenOf(*proof)
	} else if gm, err := games.Lookup(an.rules.Spec().Name); err == nil {
		out.Proven = Prove(ctx, gm, an.prover, st, Hashes(g))
	}
	// A win found by the threat search is reported as its first move
	// alone: the proof's line, where the solver follows it, says more.
	if out.Proven != nil && len(out.PV) < 2 && an.prover != nil {
		if line := ProofLine(ctx, an.prover, st, Hashes(g), 2*out.Proven.Moves-1); len(line) > len(out.PV) && line[0] == out.Best {
			out.PV, out.Lines[0].PV = line, line
		}
	}
	return out, nil
}

// ProofLine follows pv's proof from st (the positions before it hashed in
// hist): the winner's proof moves and the loser's longest resistance, as
// long as each position is proved within ProofLineNodes, at most plies
// moves (and MaxProofLine).
func ProofLine(ctx context.Context, pv ai.Prover, st game.State, hist []uint64, plies int) []string {
	var line []string
	hist = slices.Clone(hist)
	for len(line) < min(plies, MaxProofLine) && ctx.Err() == nil {
		if res, _ := st.Outcome(); res.Over() {
			break
		}
		pf, err := pv.Settle(ctx, st, hist, ProofLineNodes)
		if err != nil || !pf.Proven() || pf.Move == "" {
			break
		}
		next, err := st.Play(pf.Move)
		if err != nil {
			break
		}
		line = append(line, pf.Move)
		hist = append(hist, st.Hash())
		st = next
	}
	return line
}

// ProofLineNodes bounds the proof search of each position of a proof's
// line (ProofLine), MaxProofLine its moves.
const (
	ProofLineNodes = 5_000
	MaxProofLine   = 11
)

// LineOf is a search's report as an analysis line.
func LineOf(in ai.Info) wire.AnalysisLine {
	l := wire.AnalysisLine{Score: fmt.Sprintf("%+.2f", float64(in.Score)/100), PV: in.PV, Depth: in.Depth}
	if in.Mate != 0 {
		l.Score = fmt.Sprintf("mate %d", in.Mate)
	}
	if len(l.PV) == 0 {
		l.PV = []string{in.BestMove}
	}
	return l
}

// SearchLines searches up to n lines in the time: the best first, then
// each without the moves of the lines before (multi-PV), sharing the time.
// It returns the best line's proof, when the player's endgame proof
// settled it. info, if not nil, hears the first line's progress.
func SearchLines(ctx context.Context, t ai.Thinker, g *game.Game, total time.Duration, n int, info func(wire.AnalysisLine)) ([]wire.AnalysisLine, *ai.Proof, error) {
	each := total / time.Duration(n)
	var lines []wire.AnalysisLine
	var exclude []string
	var proof *ai.Proof
	for len(lines) < n {
		var progress func(ai.Info)
		if info != nil && len(lines) == 0 {
			progress = func(in ai.Info) { info(LineOf(in)) }
		}
		in, err := t.Think(ctx, g, ai.Limits{MoveTime: each, Exclude: exclude}, progress)
		if err != nil && len(lines) == 0 {
			return nil, nil, fmt.Errorf("analyze: %w", err)
		}
		if err != nil || in.BestMove == "" || slices.Contains(exclude, in.BestMove) {
			break // no other move, or a player that cannot exclude
		}
		if len(lines) == 0 {
			proof = in.Proven
		}
		lines = append(lines, LineOf(in))
		exclude = append(exclude, in.BestMove)
	}
	return lines, proof, nil
}

// Hashes are the hashes of the positions of g before its current one.
func Hashes(g *game.Game) []uint64 {
	states := g.States()
	out := make([]uint64, len(states)-1)
	for i, st := range states[:len(states)-1] {
		out[i] = st.Hash()
	}
	return out
}
