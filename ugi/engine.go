// Package ugi speaks UGI, the Universal Game Interface: the text protocol,
// modelled on chess's UCI, by which a program (a GUI, a match runner)
// drives a game engine over standard input and output. Both sides are
// here: Engine is what `magneton ugi` runs, and Client is an engine seen as
// a computer player, as the match runner's ugi:PATH players use it.
//
// The commands an Engine answers:
//
//	ugi                       id lines, one option line each, then ugiok
//	isready                   readyok (at once, even while searching)
//	setoption name N value V  the game (any name or alias of the
//	                          Catalog's), a rule option of the game, or
//	                          player, threads (1 to 64), hash (MB, 1 to 4096)
//	uginewgame                forget the game and the search tables
//	position startpos|fen TEXT [moves M...]
//	go [movetime MS] [p1time MS p2time MS p1inc MS p2inc MS] [depth N]
//	   [nodes N] [infinite]   search, with info lines, then bestmove M
//	stop                      end the search: bestmove at once
//	query gameover|p1turn|result
//	                          response true|false, or p1win|p2win|draw|none
//	quit
//
// An info line reports a search: info depth D score cp S|mate N nodes N
// nps N time MS pv M...; "score mate N" is the alpha-beta search's
// forced result, which its pruning can get wrong. When the proof-number
// solver (package prove) proved the result instead, the score says so
// after it: "score mate 3 proven win 3" (the side to move wins by force,
// in at most 3 of its moves) or "score mate -2 proven loss 2" (it loses
// against best play, the winner needing at most 2 moves), and the pv is
// the proof's move (for a loss, the one that resists longest by the
// proofs). The bound is the proof's longest line, not always the shortest
// win; it is the shortest when it is 1 or 2. The default player, level 8,
// asks the solver in the endgame: from the first move its search sees a
// forced result on, within 20,000 positions and a quarter of the move's
// time, at most a second (ai.EndgameNodes).
//
// Malformed commands are ignored with an "info string" that says why. As
// in UCI, go always answers bestmove: an unknown token of go, or a value
// that is not a number, is ignored with an info string; a value beyond
// its range is brought into it (a thinking time to a day, a depth to
// 120), with an info string too. A line longer than MaxLine is skipped,
// also with an info string.
//
// An engine answers within its time: within movetime, or within the share
// of its clock it takes (at most a quarter of what is left), counted from
// when the go command was read. It stops the search a margin before the
// time is up (a quarter of it, at most 50 ms), and if the search has still
// not returned when the time is nearly up (a fifth of it, at most 25 ms,
// before) it answers anyway, with the move of the last completed depth
// (or, if none completed, a legal move), and drops the search's late
// result. On a loaded machine (two cores, each busy with another process)
// go movetime 100 answers after 70 to 85 ms.
package ugi

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/game"
)

// MaxLine is the longest command line an Engine reads; a longer one is
// skipped.
const MaxLine = 1 << 20

// Catalog is what an Engine plays: the games it knows and the players it
// makes. Package games provides the project's.
type Catalog interface {
	// Games lists the games, the first the default.
	Games() []*game.Spec
	// Lookup finds a game by any of its names; the error lists them.
	Lookup(name string) (*game.Spec, error)
	// NewPlayer makes a named player for rules.
	NewPlayer(name string, rules game.Rules, cfg ai.Config) (ai.Player, error)
}

// Engine is the server side of UGI: one session of an engine answering a
// client (a GUI, a match runner) on a reader and a writer, as `magneton
// ugi` does on its standard input and output. It plays the games of its
// Catalog with the Catalog's players.
type Engine struct {
	cat      Catalog
	outMu    sync.Mutex
	out      io.Writer
	spec     *game.Spec
	settings game.Settings
	rules    game.Rules
	g        *game.Game
	player   string
	threads  int
	hash     int
	p        ai.Player // made lazily, reset when an option changes

	cur       *search // the last search started; nil before the first
	searching bool    // a search runs and has not printed bestmove (guarded by outMu)
}

// search is one go command's search.
type search struct {
	cancel   context.CancelFunc
	done     chan struct{} // closed when the search has returned: the player is free
	answered chan struct{} // closed when bestmove was sent
	infinite bool

	// guarded by the Engine's outMu:
	last ai.Info // the last completed depth's report
	sent bool    // bestmove was sent: no more info lines
}

// The defaults of the engine's options.
const (
	defaultPlayer  = "level:8"
	defaultThreads = 1
	defaultHash    = 64
)

// NewEngine makes an engine that starts with rules (a client may change
// the game and its options) and answers on out.
func NewEngine(cat Catalog, rules game.Rules, out io.Writer) *Engine {
	return &Engine{cat: cat, out: out, spec: rules.Spec(), settings: rules.Settings(), rules: rules, g: game.NewGame(rules.Start()),
		player: defaultPlayer, threads: defaultThreads, hash: defaultHash}
}

func (e *Engine) send(format string, args ...any) {
	e.outMu.Lock()
	defer e.outMu.Unlock()
	fmt.Fprintf(e.out, format+"\n", args...)
}

// note sends an info string, its quoted inputs clipped (ClipMessage).
func (e *Engine) note(format string, args ...any) {
	e.send("info string %s", ClipMessage(fmt.Sprintf(format, args...)))
}

// line is a command line and when it was read: the time of a go command
// runs from then.
type line struct {
	text    string
	at      time.Time
	tooLong int // the length of a line longer than MaxLine, whose text is dropped
}

// Run reads commands from in and answers them until quit, the end of in
// (a bounded search still answers first) or the end of ctx.
func (e *Engine) Run(ctx context.Context, in io.Reader) error {
	lines := make(chan line)
	readErr := make(chan error, 1)
	go func() {
		defer close(lines)
		br := bufio.NewReaderSize(in, 1<<16)
		for {
			l, err := readLine(br)
			if l.text != "" || l.tooLong > 0 {
				select {
				case lines <- l:
				case <-ctx.Done():
					readErr <- nil
					return
				}
			}
			if err != nil {
				if err == io.EOF {
					err = nil
				}
				readErr <- err
				return
			}
		}
	}()
	defer e.dropPlayer()
	defer e.stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case l, ok := <-lines:
			if !ok {
				// End of input: let a bounded search finish and answer.
				if s := e.cur; s != nil && !s.infinite {
					<-s.answered
				}
				e.stop()
				return <-readErr
			}
			if l.tooLong > 0 {
				e.note("a line of %d bytes ignored: longer than %d", l.tooLong, MaxLine)
				continue
			}
			if quit := e.handle(ctx, l); quit {
				return nil
			}
		}
	}
}

// readLine reads a line without its line break, stamped with the time it
// arrived. A line longer than MaxLine is read to its end and dropped: its
// length is in tooLong. err is the error after the line, io.EOF at the
// end of the input.
func readLine(br *bufio.Reader) (line, error) {
	var buf []byte
	n := 0
	for {
		chunk, err := br.ReadSlice('\n')
		n += len(chunk)
		if n <= MaxLine+2 { // +2: the line break
			buf = append(buf, chunk...)
		} else {
			buf = nil
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		text := strings.TrimSuffix(strings.TrimSuffix(string(buf), "\n"), "\r")
		if n > MaxLine+2 || len(text) > MaxLine {
			return line{tooLong: n, at: time.Now()}, err
		}
		return line{text: text, at: time.Now()}, err
	}
}

// stop ends a running search and waits for it to return (and, when it
// had not yet answered, for its bestmove).
func (e *Engine) stop() {
	if s := e.cur; s != nil {
		s.cancel()
		<-s.done
		<-s.answered
	}
}

// busy reports whether a search is running and has not yet answered.
func (e *Engine) busy() bool {
	e.outMu.Lock()
	defer e.outMu.Unlock()
	return e.searching
}

func (e *Engine) handle(ctx context.Context, l line) (quit bool) {
	f := strings.Fields(l.text)
	if len(f) == 0 {
		return false
	}
	switch f[0] {
	case "ugi":
		e.send("id name magneton")
		e.send("id author the magneton project")
		var names []string
		for _, sp := range e.cat.Games() {
			names = append(names, "var "+sp.Name)
		}
		e.send("option name game type combo default %s %s", e.spec.Name, strings.Join(names, " "))
		for _, o := range e.spec.Options {
			def := e.settings[o.Name]
			if def == "" {
				def = o.Default()
			}
			e.send("option name %s type combo default %s var %s", o.Name, def, strings.Join(o.Values, " var "))
		}
		e.send("option name player type string default %s", defaultPlayer)
		e.send("option name threads type spin default %d min %d max %d", defaultThreads, ai.MinThreads, ai.MaxThreads)
		e.send("option name hash type spin default %d min %d max %d", defaultHash, ai.MinHashMB, ai.MaxHashMB)
		e.send("ugiok")
	case "isready":
		e.send("readyok")
	case "quit":
		return true
	case "stop":
		e.stop()
	case "uginewgame":
		e.stop()
		e.g = game.NewGame(e.rules.Start())
		if t, ok := e.p.(ai.Thinker); ok {
			t.NewGame()
		}
	case "setoption":
		if e.busy() {
			e.note("setoption ignored: a search is running (send stop first)")
			return false
		}
		e.stop() // a search that answered early may still be returning
		e.setOption(f[1:])
	case "position":
		if e.busy() {
			e.note("position ignored: a search is running (send stop first)")
			return false
		}
		e.position(f[1:])
	case "go":
		if e.busy() {
			e.note("go ignored: a search is already running")
			return false
		}
		// A search that answered at its deadline may still be returning:
		// it is stopped, and the new one waits for it (its time runs).
		if e.cur != nil {
			e.cur.cancel()
		}
		e.goSearch(ctx, f[1:], l.at)
	case "query":
		e.query(f[1:])
	default:
		e.note("unknown command %q", f[0])
	}
	return false
}

func (e *Engine) setOption(args []string) {
	// setoption name NAME value VALUE (the value may hold spaces)
	if len(args) < 2 || args[0] != "name" {
		e.note("setoption: want \"setoption name NAME value VALUE\"")
		return
	}
	vi := -1
	for i, a := range args {
		if a == "value" {
			vi = i
			break
		}
	}
	if vi < 2 || vi == len(args)-1 {
		e.note("setoption: want \"setoption name NAME value VALUE\"")
		return
	}
	name := strings.ToLower(strings.Join(args[1:vi], " "))
	value := strings.Join(args[vi+1:], " ")
	switch name {
	case "game":
		sp, err := e.cat.Lookup(value)
		if err != nil {
			e.note("setoption: %v", err)
			return
		}
		e.spec = sp
		e.settings = sp.Defaults()
		e.newRules()
	case "player":
		if err := e.checkPlayer(value); err != nil {
			e.note("setoption: %v", err)
			return
		}
		e.player = value
		e.dropPlayer()
	case "threads", "hash":
		lo, hi, unit := ai.MinThreads, ai.MaxThreads, ""
		if name == "hash" {
			lo, hi, unit = ai.MinHashMB, ai.MaxHashMB, " (MB)"
		}
		n, err := strconv.Atoi(value)
		if err != nil || n < lo || n > hi {
			e.note("setoption: %s must be a number from %d to %d%s, not %q; it stays %d", name, lo, hi, unit, value, map[bool]int{true: e.threads, false: e.hash}[name == "threads"])
			return
		}
		if name == "threads" {
			e.threads = n
		} else {
			e.hash = n
		}
		e.dropPlayer()
	default:
		if _, ok := e.spec.Option(name); !ok {
			e.note("setoption: %s has no option %q", e.spec.Title, name)
			return
		}
		s, err := e.spec.ParseSettings(e.settings.String(), name+"="+value)
		if err != nil {
			e.note("setoption: %v", err)
			return
		}
		e.settings = s
		e.newRules()
	}
}

// dropPlayer forgets the player after a change of its settings; an
// external engine is told to quit.
func (e *Engine) dropPlayer() {
	if c, ok := e.p.(io.Closer); ok {
		c.Close()
	}
	e.p = nil
}

// checkPlayer reports whether the catalog can make the named player for
// the current rules. An external engine (ugi:PATH) is not started to
// find out; it is when the search needs it.
func (e *Engine) checkPlayer(name string) error {
	if strings.HasPrefix(name, "ugi:") {
		return nil
	}
	p, err := e.cat.NewPlayer(name, e.rules, ai.Config{HashMB: 1})
	if c, ok := p.(io.Closer); ok {
		c.Close()
	}
	return err
}

func (e *Engine) newRules() {
	e.rules = e.spec.New(e.settings)
	e.g = game.NewGame(e.rules.Start())
	e.dropPlayer()
}

func (e *Engine) position(args []string) {
	if len(args) == 0 {
		e.note("position: want startpos or fen POSITION, then optionally moves")
		return
	}
	mi := len(args)
	for i, a := range args {
		if a == "moves" {
			mi = i
			break
		}
	}
	var start game.State
	switch args[0] {
	case "startpos":
		if mi != 1 {
			e.note("position: unexpected %q after startpos", args[1])
			return
		}
		start = e.rules.Start()
	case "fen":
		s, err := e.rules.ParsePosition(strings.Join(args[1:mi], " "))
		if err != nil {
			e.note("position: %v", err)
			return
		}
		start = s
	default:
		e.note("position: want startpos or fen, not %q", args[0])
		return
	}
	g := game.NewGame(start)
	if mi < len(args) {
		for _, m := range args[mi+1:] {
			if err := g.Play(m); err != nil {
				e.note("position: move %s: %v", short(m), err)
				return
			}
		}
	}
	e.g = g
}

func (e *Engine) query(args []string) {
	if len(args) != 1 {
		e.note("query: want gameover, p1turn or result")
		return
	}
	r, _ := e.g.Result()
	switch args[0] {
	case "gameover":
		e.send("response %t", r.Over())
	case "p1turn":
		e.send("response %t", e.g.Position().Side() == game.First)
	case "result":
		word := map[game.Result]string{game.Ongoing: "none", game.FirstWins: "p1win", game.SecondWins: "p2win", game.Draw: "draw"}[r]
		e.send("response %s", word)
	default:
		e.note("query: unknown query %q (gameover, p1turn, result)", args[0])
	}
}

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
	notef := func(format string, a ...any) { p.notes = append(p.notes, fmt.Sprintf(format, a...)) }
	for i := 0; i < len(args); i++ {
		key := args[i]
		if key == "infinite" {
			p.infinite = true
			continue
		}
		if !goKeys[key] {
			// An unknown parameter (a UCI one such as ponder, wtime or
			// searchmoves, or a mistake): skipped, with the number after
			// it if there is one.
			skipped := key
			if i+1 < len(args) && !goKeys[args[i+1]] && args[i+1] != "infinite" {
				if _, err := strconv.ParseFloat(args[i+1], 64); err == nil {
					skipped += " " + args[i+1]
					i++
				}
			}
			notef("go: unknown parameter %q ignored", skipped)
			continue
		}
		if i+1 >= len(args) || goKeys[args[i+1]] || args[i+1] == "infinite" {
			notef("go: %s needs a value; ignored", key)
			continue
		}
		i++
		n, ok := goNumber(args[i])
		if !ok {
			notef("go: %s %q is not a number; ignored", key, args[i])
			continue
		}
		switch key {
		case "movetime":
			switch {
			case n < 1:
				notef("go: movetime %d is below 1 ms; ignored", n)
				continue
			case n > ai.MaxMoveTime.Milliseconds():
				notef("go: movetime %s is more than %v; searching %v", args[i], ai.MaxMoveTime, ai.MaxMoveTime)
				n = ai.MaxMoveTime.Milliseconds()
			}
			p.lim.MoveTime = time.Duration(n) * time.Millisecond
		case "p1time", "p2time", "p1inc", "p2inc":
			switch {
			case n < 0 && (key == "p1time" || key == "p2time"):
				notef("go: %s %d is below 0; taken as 0 (no time left)", key, n)
				n = 0
			case n < 0:
				notef("go: %s %d is below 0; ignored", key, n)
				continue
			case n > ai.MaxMoveTime.Milliseconds():
				notef("go: %s %s is more than %v; taken as %v", key, args[i], ai.MaxMoveTime, ai.MaxMoveTime)
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
		case "depth":
			switch {
			case n < 1:
				notef("go: depth %d is below 1; ignored", n)
				continue
			case n > ai.MaxDepth:
				notef("go: depth %s is more than %d; searching to depth %d", args[i], ai.MaxDepth, ai.MaxDepth)
				n = ai.MaxDepth
			}
			p.lim.Depth = int(n)
		case "nodes":
			if n < 0 {
				notef("go: nodes %d is below 0; ignored", n)
				continue
			}
			p.lim.Nodes = n
		}
	}
	return p
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
	side := e.g.Position().Side()
	lim := p.lim
	if p.infinite {
		lim = ai.Limits{Depth: ai.MaxDepth}
	} else if p.clock[side] && lim.MoveTime == 0 && lim.Time[side] == 0 && lim.Increment[side] == 0 {
		e.note("go: no time left on the clock; answering at once")
		lim.MoveTime = time.Millisecond
	}
	// The time the engine may take, from the go command on; 0 for none
	// (a depth or a node count, or infinite).
	var budget time.Duration
	if !p.infinite {
		budget = lim.Budget(side, ai.DefaultMoveTime).Hard
	}
	if e.p == nil {
		pl, err := e.cat.NewPlayer(e.player, e.rules, ai.Config{Threads: e.threads, HashMB: e.hash})
		if err != nil {
			e.note("go: %v", err)
			e.send("bestmove %s", fallbackMove(e.g))
			return
		}
		e.p = pl
	}
	var sctx context.Context
	var cancel context.CancelFunc
	if budget > 0 {
		stopAt := at.Add(budget - stopMargin(budget))
		sctx, cancel = context.WithDeadline(ctx, stopAt)
		if lim.MoveTime > 0 {
			lim.MoveTime = max(time.Until(stopAt), time.Millisecond)
		}
	} else {
		sctx, cancel = context.WithCancel(ctx)
	}
	s := &search{cancel: cancel, done: make(chan struct{}), answered: make(chan struct{}), infinite: p.infinite}
	g, pl, prev := e.g, e.p, e.cur
	e.cur = s
	e.outMu.Lock()
	e.searching = true
	e.outMu.Unlock()

	// answer sends bestmove once, from whichever comes first: the search's
	// result or the watchdog at the deadline.
	var once sync.Once
	answer := func(lines ...string) {
		once.Do(func() {
			// The answer and the end of the search are one step, so that a
			// client that reacts to bestmove finds the engine idle.
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
	if budget > 0 {
		watchdog := time.NewTimer(time.Until(at.Add(budget - answerMargin(budget))))
		go func() {
			defer watchdog.Stop()
			select {
			case <-s.done:
			case <-watchdog.C:
				// The search has not returned in time: answer with the move of
				// the last completed depth, and let it wind down.
				cancel()
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
		}()
	}
	go func() {
		defer close(s.done)
		if prev != nil {
			<-prev.done // the player is the previous search's until it returns
		}
		var lines []string
		var move string
		if t, ok := pl.(ai.Thinker); ok {
			in, err := t.Think(sctx, g, lim, func(in ai.Info) {
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
		} else {
			m, err := pl.Move(sctx, g, lim)
			if err != nil {
				lines = append(lines, "info string search: "+ClipMessage(err.Error()))
			}
			move = m
		}
		if s.infinite {
			<-sctx.Done() // UGI: wait for stop before answering
		}
		if move == "" {
			move = fallbackMove(g)
		}
		answer(append(lines, "bestmove "+move)...)
	}()
}

// short is a token for a message: as it is, or clipped (Clip) when long.
func short(s string) string {
	if len(s) <= MaxQuoted {
		return s
	}
	return Clip(s)
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
