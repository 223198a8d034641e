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
//	                          player, threads, hash (MB)
//	uginewgame                forget the game and the search tables
//	position startpos|fen TEXT [moves M...]
//	go [movetime MS] [p1time MS p2time MS p1inc MS p2inc MS] [depth N]
//	   [nodes N] [infinite]   search, with info lines, then bestmove M
//	stop                      end the search: bestmove at once
//	query gameover|p1turn|result
//	                          response true|false, or p1win|p2win|draw|none
//	quit
//
// Malformed commands are ignored with an "info string" that says why.
package ugi

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/game"
)

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

	cancel    context.CancelFunc
	done      chan struct{} // closed when the running search has printed bestmove
	searching bool          // a search runs and has not printed bestmove (guarded by outMu)
	infinite  bool
}

// NewEngine makes an engine that starts with rules (a client may change
// the game and its options) and answers on out.
func NewEngine(cat Catalog, rules game.Rules, out io.Writer) *Engine {
	return &Engine{cat: cat, out: out, spec: rules.Spec(), settings: rules.Settings(), rules: rules, g: game.NewGame(rules.Start()), player: "level:8", threads: 1, hash: 64}
}

func (e *Engine) send(format string, args ...any) {
	e.outMu.Lock()
	defer e.outMu.Unlock()
	fmt.Fprintf(e.out, format+"\n", args...)
}

// Run reads commands from in and answers them until quit, the end of in
// (a bounded search still answers first) or the end of ctx.
func (e *Engine) Run(ctx context.Context, in io.Reader) error {
	lines := make(chan string)
	readErr := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(in)
		sc.Buffer(make([]byte, 1<<16), 1<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
		readErr <- sc.Err()
		close(lines)
	}()
	defer e.dropPlayer()
	defer e.stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case line, ok := <-lines:
			if !ok {
				// End of input: let a bounded search finish and answer.
				if e.done != nil && !e.infinite {
					<-e.done
				}
				e.stop()
				return <-readErr
			}
			if quit := e.handle(ctx, line); quit {
				return nil
			}
		}
	}
}

// stop ends a running search and waits for its bestmove.
func (e *Engine) stop() {
	if e.cancel != nil {
		e.cancel()
		<-e.done
		e.cancel = nil
	}
}

// busy reports whether a search is running and has not yet answered.
func (e *Engine) busy() bool {
	e.outMu.Lock()
	defer e.outMu.Unlock()
	return e.searching
}

func (e *Engine) handle(ctx context.Context, line string) (quit bool) {
	f := strings.Fields(line)
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
			e.send("option name %s type combo default %s var %s", o.Name, o.Default(), strings.Join(o.Values, " var "))
		}
		e.send("option name player type string default level:8")
		e.send("option name threads type spin default 1 min 1 max 64")
		e.send("option name hash type spin default 64 min 1 max 4096")
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
			e.send("info string setoption ignored: a search is running (send stop first)")
			return false
		}
		e.setOption(f[1:])
	case "position":
		if e.busy() {
			e.send("info string position ignored: a search is running (send stop first)")
			return false
		}
		e.position(f[1:])
	case "go":
		if e.busy() {
			e.send("info string go ignored: a search is already running")
			return false
		}
		e.goSearch(ctx, f[1:])
	case "query":
		e.query(f[1:])
	default:
		e.send("info string unknown command %q", f[0])
	}
	return false
}

func (e *Engine) setOption(args []string) {
	// setoption name NAME value VALUE (the value may hold spaces)
	if len(args) < 2 || args[0] != "name" {
		e.send("info string setoption: want \"setoption name NAME value VALUE\"")
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
		e.send("info string setoption: want \"setoption name NAME value VALUE\"")
		return
	}
	name := strings.ToLower(strings.Join(args[1:vi], " "))
	value := strings.Join(args[vi+1:], " ")
	switch name {
	case "game":
		sp, err := e.cat.Lookup(value)
		if err != nil {
			e.send("info string setoption: %v", err)
			return
		}
		e.spec = sp
		e.settings = sp.Defaults()
		e.newRules()
	case "player":
		if err := e.checkPlayer(value); err != nil {
			e.send("info string setoption: %v", err)
			return
		}
		e.player = value
		e.dropPlayer()
	case "threads", "hash":
		n, err := strconv.Atoi(value)
		if err != nil || n < 1 || n > 4096 {
			e.send("info string setoption: %s must be a positive number, not %q", name, value)
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
			e.send("info string setoption: %s has no option %q", e.spec.Title, name)
			return
		}
		s, err := e.spec.ParseSettings(e.settings.String(), name+"="+value)
		if err != nil {
			e.send("info string setoption: %v", err)
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
		e.send("info string position: want startpos or fen POSITION, then optionally moves")
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
			e.send("info string position: unexpected %q after startpos", args[1])
			return
		}
		start = e.rules.Start()
	case "fen":
		s, err := e.rules.ParsePosition(strings.Join(args[1:mi], " "))
		if err != nil {
			e.send("info string position: %v", err)
			return
		}
		start = s
	default:
		e.send("info string position: want startpos or fen, not %q", args[0])
		return
	}
	g := game.NewGame(start)
	if mi < len(args) {
		for _, m := range args[mi+1:] {
			if err := g.Play(m); err != nil {
				e.send("info string position: move %s: %v", m, err)
				return
			}
		}
	}
	e.g = g
}

func (e *Engine) query(args []string) {
	if len(args) != 1 {
		e.send("info string query: want gameover, p1turn or result")
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
		e.send("info string query: unknown query %q (gameover, p1turn, result)", args[0])
	}
}

// parseGo reads the arguments of go.
func parseGo(args []string) (lim ai.Limits, infinite bool, err error) {
	for i := 0; i < len(args); i++ {
		key := args[i]
		if key == "infinite" {
			infinite = true
			continue
		}
		if i+1 >= len(args) {
			return lim, false, fmt.Errorf("go: %s needs a value", key)
		}
		n, err := strconv.ParseInt(args[i+1], 10, 64)
		if err != nil || n < 0 {
			return lim, false, fmt.Errorf("go: %s %q is not a number", key, args[i+1])
		}
		i++
		ms := time.Duration(n) * time.Millisecond
		switch key {
		case "p1time":
			lim.Time[0] = ms
		case "p2time":
			lim.Time[1] = ms
		case "p1inc":
			lim.Increment[0] = ms
		case "p2inc":
			lim.Increment[1] = ms
		case "movetime":
			lim.MoveTime = ms
		case "depth":
			lim.Depth = int(n)
		case "nodes":
			lim.Nodes = n
		default:
			return lim, false, fmt.Errorf("go: unknown parameter %q", key)
		}
	}
	return lim, infinite, nil
}

func (e *Engine) goSearch(ctx context.Context, args []string) {
	lim, infinite, err := parseGo(args)
	if err != nil {
		e.send("info string %v", err)
		return
	}
	if r, _ := e.g.Result(); r.Over() {
		e.send("info string go: the game is over (%s)", r)
		e.send("bestmove (none)")
		return
	}
	if e.p == nil {
		p, err := e.cat.NewPlayer(e.player, e.rules, ai.Config{Threads: e.threads, HashMB: e.hash})
		if err != nil {
			e.send("info string go: %v", err)
			return
		}
		e.p = p
	}
	if infinite {
		lim = ai.Limits{Depth: 120}
	}
	sctx, cancel := context.WithCancel(ctx)
	e.cancel = cancel
	e.infinite = infinite
	e.done = make(chan struct{})
	e.outMu.Lock()
	e.searching = true
	e.outMu.Unlock()
	g, p, done := e.g, e.p, e.done
	go func() {
		defer close(done)
		var move string
		if t, ok := p.(ai.Thinker); ok {
			in, err := t.Think(sctx, g, lim, func(in ai.Info) { e.send("%s", infoLine(in)) })
			if err != nil {
				e.send("info string search: %v", err)
			}
			move = in.BestMove
		} else {
			m, err := p.Move(sctx, g, lim)
			if err != nil {
				e.send("info string search: %v", err)
			}
			move = m
		}
		if infinite {
			<-sctx.Done() // UGI: wait for stop before answering
		}
		if move == "" {
			move = "(none)"
		}
		// The answer and the end of the search are one step, so that a
		// client that reacts to bestmove finds the engine idle.
		e.outMu.Lock()
		e.searching = false
		fmt.Fprintf(e.out, "bestmove %s\n", move)
		e.outMu.Unlock()
	}()
}

// infoLine formats a search report as an info line.
func infoLine(in ai.Info) string {
	score := fmt.Sprintf("cp %d", in.Score)
	if in.Mate != 0 {
		score = fmt.Sprintf("mate %d", in.Mate)
	}
	return fmt.Sprintf("info depth %d score %s nodes %d nps %d time %d pv %s", in.Depth, score, in.Nodes, in.NPS(), in.Time.Milliseconds(), strings.Join(in.PV, " "))
}
