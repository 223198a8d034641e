package ugi

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/game"
)

// The go command: its parameters, the search it starts and the answer.

// goParams are the arguments of a go command.
type goParams struct {
	lim      ai.Limits
	infinite bool
	clock    [2]bool  // the side's remaining time was given (p1time, p2time)
	notes    []string // what was ignored or changed, for info strings
}

// goKeys are the parameters of go that take a value.
var goKeys = map[string]bool{"p1time": true, "p2time": true, "p1inc": true, "p2inc": true, "movetime": true, "depth": true, "nodes": true}

// parseGo reads the arguments of go. It never fails: as in UCI, what it
// cannot use is ignored, and a value beyond its range is brought into it;
// the notes say which.
func parseGo(args []string) goParams {
	var p goParams
	for i := 0; i < len(args); i++ {
		key := args[i]
		if key == "infinite" {
			p.infinite = true
			continue
		}
		if !goKeys[key] {
			i = p.skipUnknown(args, i)
			continue
		}
		if i+1 >= len(args) || goKeys[args[i+1]] || args[i+1] == "infinite" {
			p.notef("go: %s needs a value; ignored", key)
			continue
		}
		i++
		n, ok := goNumber(args[i])
		if !ok {
			p.notef("go: %s %q is not a number; ignored", key, args[i])
			continue
		}
		p.set(key, n, args[i])
	}
	return p
}

// notef adds a note of what go ignored or changed.
func (p *goParams) notef(format string, a ...any) {
	p.notes = append(p.notes, fmt.Sprintf(format, a...))
}

// skipUnknown notes the unknown parameter args[i] (a UCI one such as
// ponder, wtime or searchmoves, or a mistake), which is skipped with the
// number after it if there is one, and returns the index of the last
// argument skipped.
func (p *goParams) skipUnknown(args []string, i int) int {
	skipped := args[i]
	if i+1 < len(args) && !goKeys[args[i+1]] && args[i+1] != "infinite" {
		if _, err := strconv.ParseFloat(args[i+1], 64); err == nil {
			skipped += " " + args[i+1]
			i++
		}
	}
	p.notef("go: unknown parameter %q ignored", skipped)
	return i
}

// set takes the value n (written text) of the parameter key, one of
// goKeys, brought into its range or ignored, with a note.
func (p *goParams) set(key string, n int64, text string) {
	switch key {
	case "movetime":
		switch {
		case n < 1:
			p.notef("go: movetime %d is below 1 ms; ignored", n)
			return
		case n > ai.MaxMoveTime.Milliseconds():
			p.notef("go: movetime %s is more than %v; searching %v", text, ai.MaxMoveTime, ai.MaxMoveTime)
			n = ai.MaxMoveTime.Milliseconds()
		}
		p.lim.MoveTime = time.Duration(n) * time.Millisecond
	case "p1time", "p2time", "p1inc", "p2inc":
		p.setClock(key, n, text)
	case "depth":
		switch {
		case n < 1:
			p.notef("go: depth %d is below 1; ignored", n)
			return
		case n > ai.MaxDepth:
			p.notef("go: depth %s is more than %d; searching to depth %d", text, ai.MaxDepth, ai.MaxDepth)
			n = ai.MaxDepth
		}
		p.lim.Depth = int(n)
	case "nodes":
		if n < 0 {
			p.notef("go: nodes %d is below 0; ignored", n)
			return
		}
		p.lim.Nodes = n
	}
}

// setClock takes the value n (written text) of a clock parameter: a
// side's time left (p1time, p2time; below 0 is none left) or increment
// (p1inc, p2inc).
func (p *goParams) setClock(key string, n int64, text string) {
	switch {
	case n < 0 && (key == "p1time" || key == "p2time"):
		p.notef("go: %s %d is below 0; taken as 0 (no time left)", key, n)
		n = 0
	case n < 0:
		p.notef("go: %s %d is below 0; ignored", key, n)
		return
	case n > ai.MaxMoveTime.Milliseconds():
		p.notef("go: %s %s is more than %v; taken as %v", key, text, ai.MaxMoveTime, ai.MaxMoveTime)
		n = ai.MaxMoveTime.Milliseconds()
	}
	d := time.Duration(n) * time.Millisecond
	side := int(key[1] - '1')
	if strings.HasSuffix(key, "time") {
		p.lim.Time[side] = d
		p.clock[side] = true
	} else {
		p.lim.Increment[side] = d
	}
}

// goNumber reads a whole number; one beyond int64's range is taken as the
// nearest end of the range, which every parameter then brings into its
// own.
func goNumber(s string) (int64, bool) {
	n, err := strconv.ParseInt(s, 10, 64)
	if err == nil {
		return n, true
	}
	if errors.Is(err, strconv.ErrRange) {
		if strings.HasPrefix(s, "-") {
			return math.MinInt64, true
		}
		return math.MaxInt64, true
	}
	return 0, false
}

// The margins of a search's time (see the package comment): the search is
// stopped stopMargin before the time is up, and the engine answers on its
// own answerMargin before it.
func stopMargin(budget time.Duration) time.Duration {
	return min(max(budget/4, time.Millisecond), 50*time.Millisecond)
}

func answerMargin(budget time.Duration) time.Duration {
	return min(budget/5, 25*time.Millisecond)
}

// goSearch starts the search of a go command read at the time at.
func (e *Engine) goSearch(ctx context.Context, args []string, at time.Time) {
	p := parseGo(args)
	for _, n := range p.notes {
		e.note("%s", n)
	}
	if r, _ := e.g.Result(); r.Over() {
		e.note("go: the game is over (%s)", r)
		e.send("bestmove (none)")
		return
	}
	lim, budget := e.goLimits(p)
	var sctx context.Context
	var cancel context.CancelFunc
	var stopAt time.Time
	if budget > 0 {
		stopAt = at.Add(budget - stopMargin(budget))
		sctx, cancel = context.WithDeadline(ctx, stopAt)
	} else {
		sctx, cancel = context.WithCancel(ctx)
	}
	s := &search{cancel: cancel, done: make(chan struct{}), answered: make(chan struct{}), infinite: p.infinite}
	g, prev := e.g, e.cur
	e.cur = s
	e.outMu.Lock()
	e.searching = true
	e.outMu.Unlock()
	answer := e.answerOnce(s)
	if budget > 0 {
		// Armed before the player is made, so that the time making it
		// (its table, on a busy machine) counts against the move's.
		go e.watchdog(s, g, at.Add(budget-answerMargin(budget)), answer)
	}
	if err := e.ensurePlayer(); err != nil {
		e.note("go: %v", err)
		cancel()
		close(s.done)
		answer("bestmove " + fallbackMove(g))
		return
	}
	if lim.MoveTime > 0 && budget > 0 {
		lim.MoveTime = max(time.Until(stopAt), time.Millisecond)
	}
	pl := e.p
	go func() {
		defer close(s.done)
		if prev != nil {
			<-prev.done // the player is the previous search's until it returns
		}
		lines, move := e.play(sctx, s, g, pl, lim)
		if s.infinite {
			<-sctx.Done() // UGI: wait for stop before answering
		}
		if move == "" {
			move = fallbackMove(g)
		}
		answer(append(lines, "bestmove "+move)...)
	}()
}

// goLimits turns go's parameters into the player's limits, and the time
// the engine may take from the go command on (0 for none: a depth or a
// node count, or infinite). A clock with no time left and no increment
// for the side to move is answered at once.
func (e *Engine) goLimits(p goParams) (ai.Limits, time.Duration) {
	side := e.g.Position().Side()
	lim := p.lim
	if p.infinite {
		lim = ai.Limits{Depth: ai.MaxDepth}
	} else if p.clock[side] && lim.MoveTime == 0 && lim.Time[side] == 0 && lim.Increment[side] == 0 {
		e.note("go: no time left on the clock; answering at once")
		lim.MoveTime = time.Millisecond
	}
	var budget time.Duration
	if !p.infinite {
		budget = lim.Budget(side, ai.DefaultMoveTime).Hard
	}
	return lim, budget
}

// ensurePlayer makes the player of the engine's options if there is none
// yet, or says why it cannot.
func (e *Engine) ensurePlayer() error {
	if e.p != nil {
		return nil
	}
	pl, err := e.cat.NewPlayer(e.player, e.rules, ai.Config{Threads: e.threads, HashMB: e.hash})
	if err != nil {
		return err
	}
	e.p = pl
	return nil
}

// answerOnce returns the function that sends the search s's answer, its
// lines ending with bestmove, once: from whichever comes first, the
// search's result or the watchdog at the deadline. The answer and the end
// of the search are one step, so that a client that reacts to bestmove
// finds the engine idle.
func (e *Engine) answerOnce(s *search) func(lines ...string) {
	var once sync.Once
	return func(lines ...string) {
		once.Do(func() {
			e.outMu.Lock()
			for _, l := range lines {
				fmt.Fprintln(e.out, l)
			}
			e.searching = false
			s.sent = true
			e.outMu.Unlock()
			close(s.answered)
		})
	}
}

// watchdog answers for the search s of the game g at the time due if it
// has not returned by then: with the move of the last completed depth
// (or any legal move before one), after cancelling the search, which then
// winds down on its own.
func (e *Engine) watchdog(s *search, g *game.Game, due time.Time, answer func(lines ...string)) {
	timer := time.NewTimer(time.Until(due))
	defer timer.Stop()
	select {
	case <-s.done:
	case <-timer.C:
		s.cancel()
		e.outMu.Lock()
		move := s.last.BestMove
		e.outMu.Unlock()
		why := "info string the search overran its time; answering with the last completed depth's move"
		if move == "" {
			move = fallbackMove(g)
			why = "info string the search overran its time before completing a depth; answering with a legal move"
		}
		answer(why, "bestmove "+move)
	}
}

// play runs the search s of the player pl on g within lim and ctx: its
// move ("" for none) and the lines to send before bestmove. A Thinker's
// info lines are sent as it deepens, until the answer is sent.
func (e *Engine) play(ctx context.Context, s *search, g *game.Game, pl ai.Player, lim ai.Limits) (lines []string, move string) {
	t, ok := pl.(ai.Thinker)
	if !ok {
		m, err := pl.Move(ctx, g, lim)
		if err != nil {
			lines = append(lines, "info string search: "+ClipMessage(err.Error()))
		}
		return lines, m
	}
	in, err := t.Think(ctx, g, lim, func(in ai.Info) {
		e.outMu.Lock()
		defer e.outMu.Unlock()
		if !s.sent {
			s.last = in
			fmt.Fprintln(e.out, infoLine(in))
		}
	})
	if err != nil {
		lines = append(lines, "info string search: "+ClipMessage(err.Error()))
	}
	move = in.BestMove
	e.outMu.Lock()
	last := s.last
	e.outMu.Unlock()
	if move != "" && last.BestMove != "" && move != last.BestMove {
		// The search stopped inside a deeper iteration that had found
		// a better move: say so, rather than let the last info line
		// (the last completed depth) contradict the bestmove.
		lines = append(lines,
			fmt.Sprintf("info depth %d nodes %d nps %d time %d pv %s", last.Depth+1, in.Nodes, in.NPS(), in.Time.Milliseconds(), move),
			fmt.Sprintf("info string depth %d unfinished: %s searched better than depth %d's %s before the search stopped", last.Depth+1, move, last.Depth, last.BestMove))
	}
	return lines, move
}

// fallbackMove is a legal move of g's position, for an answer that has no
// search behind it; "(none)" when the game is over.
func fallbackMove(g *game.Game) string {
	if moves := g.Position().Moves(); len(moves) > 0 {
		return moves[0]
	}
	return "(none)"
}

// infoLine formats a search report as an info line.
func infoLine(in ai.Info) string {
	score := fmt.Sprintf("cp %d", in.Score)
	if in.Mate != 0 {
		score = fmt.Sprintf("mate %d", in.Mate)
	}
	if in.Proven != nil {
		switch n := in.Mate; {
		case n > 0:
			score += fmt.Sprintf(" proven win %d", n)
		case n < 0:
			score += fmt.Sprintf(" proven loss %d", -n)
		}
	}
	return fmt.Sprintf("info depth %d score %s nodes %d nps %d time %d pv %s", in.Depth, score, in.Nodes, in.NPS(), in.Time.Milliseconds(), strings.Join(in.PV, " "))
}
