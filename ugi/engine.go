// Package ugi speaks UGI, the Universal Game Interface: the text protocol,
// modelled on chess's UCI, by which a program (a GUI, a match runner)
// drives a game engine over standard input and output. Both sides are
// here: Engine is what `magneton ugi` runs, and Client is an engine seen as
// a computer player, as the match runner's ugi:PATH players use it.
//
// The commands an Engine answers:
//
//	ugi                       id lines, one option line each, then ugiok
//	isready                   readyok: at once while searching, else
//	                          after making the player of the options
//	                          (its table, level 8's book), so that a
//	                          client that waits for it before starting a
//	                          clock does not pay for them in its first go
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
// nps N time MS pv M..., one a completed depth (with several threads the
// depths may skip some, a helper thread having completed a deeper one
// before the main thread finished its own); "score mate N" is the
// alpha-beta search's forced result, which its pruning can get wrong.
// When the proof-number solver (package prove) proved the result instead,
// the score says so after it: "score mate 3 proven win 3" (the side to
// move wins by force, in at most 3 of its moves) or "score mate -2 proven
// loss 2" (it loses against best play, the winner needing at most 2
// moves), and the pv is the proof's move (for a loss, the one that
// resists longest by the proofs). The bound is the proof's longest line,
// not always the shortest win; it is the shortest when it is 1 or 2. The
// default player, level 8, asks the solver in the endgame: from the first
// move its search sees a forced result on, within 20,000 positions and a
// quarter of the move's time, at most a second (ai.EndgameNodes).
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
	"fmt"
	"io"
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
		// A client waits for readyok before it starts the clock, so the
		// player (and its table) is made here rather than at the first go.
		if !e.busy() {
			if err := e.ensurePlayer(); err != nil {
				e.note("isready: %v", err)
			}
		}
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

// short is a token for a message: as it is, or clipped (Clip) when long.
func short(s string) string {
	if len(s) <= MaxQuoted {
		return s
	}
	return Clip(s)
}
