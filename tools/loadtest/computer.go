package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"github.com/magneton-games/magneton/engine"
	"github.com/magneton-games/magneton/server"
	"github.com/magneton-games/magneton/server/wire"
)

// computerConfig is the load of -computer: games against the computer,
// each played to its end by a client that plays random legal moves, once
// with the computer on the server and once in the "browser" (the client
// plays the computer's moves itself with package engine, as the
// browser's worker does), each on a server of its own in a child
// process, whose CPU time is measured.
type computerConfig struct {
	Games    int    // games each way
	Level    int    // the computer's level
	Game     string // magneton or tumbling
	Parallel int    // games played at once
}

// childEnv names the environment variable that makes the load test a
// server child (runChild): its value is "on" or "off", the server's
// computer.
const childEnv = "MAGNETON_LOADTEST_SERVER"

// child is a server in a child process: its URL, and its stdin, on which
// "cpu" asks for its CPU time so far and the end of input stops it.
type child struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Scanner
	url string
}

// startChild starts this program again as a server, its computer on or
// off, on a temporary database.
func startChild(ctx context.Context, computer bool) (*child, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("the server child: %w", err)
	}
	cmd := exec.CommandContext(ctx, exe)
	cmd.Env = append(os.Environ(), childEnv+"="+map[bool]string{true: "on", false: "off"}[computer])
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("the server child: %w", err)
	}
	c := &child{cmd: cmd, in: in, out: bufio.NewScanner(stdout)}
	if !c.out.Scan() {
		c.stop()
		return nil, errors.New("the server child printed no address")
	}
	c.url = strings.TrimSpace(c.out.Text())
	return c, nil
}

// cpu is the child's CPU time so far (user and system).
func (c *child) cpu() (time.Duration, error) {
	if _, err := io.WriteString(c.in, "cpu\n"); err != nil {
		return 0, fmt.Errorf("ask the server child its CPU: %w", err)
	}
	if !c.out.Scan() {
		return 0, errors.New("the server child did not say its CPU")
	}
	ns, err := strconv.ParseInt(strings.TrimSpace(c.out.Text()), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("the server child's CPU %q: %w", c.out.Text(), err)
	}
	return time.Duration(ns), nil
}

// stop ends the child and waits for it.
func (c *child) stop() {
	c.in.Close()
	done := make(chan struct{})
	go func() {
		c.cmd.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		c.cmd.Process.Kill()
		<-done
	}
}

// runChild is the load test as a server child: it serves on a temporary
// database, its computer on or off, prints its URL, answers "cpu" on its
// standard input with its CPU time in nanoseconds, and stops at the end
// of its input.
func runChild(computer string) error {
	base, stop, err := startLocal(context.Background(), func(cfg *server.Config) { cfg.NoServerComputer = computer == "off" })
	if err != nil {
		return err
	}
	defer stop()
	fmt.Println(base)
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		if in.Text() == "cpu" {
			fmt.Println(int64(cpuTime()))
		}
	}
	return nil
}

// placeResult is what the games of one place of the computer measured.
type placeResult struct {
	Place         string
	Games, Moves  int
	ComputerMoves int
	Wall          time.Duration
	ServerCPU     time.Duration
	ClientCPU     time.Duration // of this process: the clients, and the "browsers'" engine
	Errors        int64
}

// perGame is the server's CPU time a game.
func (r placeResult) perGame() time.Duration {
	if r.Games == 0 {
		return 0
	}
	return r.ServerCPU / time.Duration(r.Games)
}

// runComputer plays the computer games both ways and prints the figures.
func runComputer(ctx context.Context, cfg computerConfig, out io.Writer) ([2]placeResult, error) {
	var res [2]placeResult
	if cfg.Games < 1 || cfg.Level < 1 || cfg.Level > 8 {
		return res, errors.New("want -computer >= 1 and -level 1 to 8")
	}
	cfg.Parallel = max(1, min(cfg.Parallel, cfg.Games))
	fmt.Fprintf(out, "loadtest: %d casual %s games against level %d, each way, %d at a time; the player plays random legal moves; each way on a server of its own (a child process)\n",
		cfg.Games, cfg.Game, cfg.Level, cfg.Parallel)
	for i, place := range []string{"server", "browser"} {
		r, err := playPlace(ctx, cfg, place)
		if err != nil {
			return res, fmt.Errorf("the computer on the %s: %w", place, err)
		}
		res[i] = r
		label := map[string]string{"server": "computer on the server:", "browser": `computer in the "browser":`}[place]
		fmt.Fprintf(out, "%-27s %d games, %d moves (%d the computer's) in %s; server CPU %.2fs = %.1f ms a game (%.2f ms a move); this process %.2fs; errors %d\n",
			label, r.Games, r.Moves, r.ComputerMoves, r.Wall.Round(time.Millisecond), r.ServerCPU.Seconds(),
			ms(r.perGame()), ms(r.ServerCPU)/float64(max(r.Moves, 1)), r.ClientCPU.Seconds(), r.Errors)
	}
	if a, b := res[0].perGame(), res[1].perGame(); a > 0 && b > 0 {
		fmt.Fprintf(out, "server CPU a game, browser / server: %.3f (the server's own computer costs it %.1f times the browser's)\n", float64(b)/float64(a), float64(a)/float64(b))
	}
	return res, nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// playPlace plays cfg.Games games with the computer at place on a new
// server child, and measures the child's CPU from before the first game
// is made to after the last one ended.
func playPlace(ctx context.Context, cfg computerConfig, place string) (placeResult, error) {
	r := placeResult{Place: place}
	c, err := startChild(ctx, place == "server")
	if err != nil {
		return r, err
	}
	defer c.stop()
	cpu0, err := c.cpu()
	if err != nil {
		return r, err
	}
	own0, t0 := cpuTime(), time.Now()
	var (
		moves, computerMoves, errs atomic.Int64
		firstErr                   atomic.Value
		wg                         sync.WaitGroup
	)
	sem := make(chan struct{}, cfg.Parallel)
	for i := range cfg.Games {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			cg := &computerGame{cfg: cfg, browser: place == "browser", rng: rand.New(rand.NewPCG(uint64(i), 11)), session: engine.NewSession(2)}
			if err := cg.play(ctx, c.url); err != nil {
				firstErr.CompareAndSwap(nil, fmt.Errorf("game %d: %w", i, err))
			}
			moves.Add(int64(cg.moves))
			computerMoves.Add(int64(cg.computerMoves))
			errs.Add(cg.errors)
		})
	}
	wg.Wait()
	if err, _ := firstErr.Load().(error); err != nil {
		return r, err
	}
	cpu1, err := c.cpu()
	if err != nil {
		return r, err
	}
	r.Games, r.Moves, r.ComputerMoves, r.Errors = cfg.Games, int(moves.Load()), int(computerMoves.Load()), errs.Load()
	r.Wall, r.ServerCPU, r.ClientCPU = time.Since(t0), cpu1-cpu0, cpuTime()-own0
	return r, nil
}

// computerGame is one game against the computer and its player's client.
type computerGame struct {
	cfg     computerConfig
	browser bool // the client plays the computer's moves
	rng     *rand.Rand
	session *engine.Session // the "browser's" engine

	conn   *websocket.Conn
	st     wire.State // the state as the client holds it, with its moves
	asked  int        // the ply the client last moved at, so as to move once a ply
	sentAt time.Time  // the last message's time: one every minGap at most, as a person's page

	moves, computerMoves int // at the end: the player plays first, and the sides take turns
	errors               int64
}

// play makes the game and plays it to its end.
func (cg *computerGame) play(ctx context.Context, base string) error {
	hc := newJar()
	place := map[bool]string{true: "browser", false: "server"}[cg.browser]
	req := fmt.Sprintf(`{"game":%q,"opponent":"computer","level":%d,"color":"first","computer":%q}`, cg.cfg.Game, cg.cfg.Level, place)
	var c wire.Created
	lt := &loadTest{}
	if err := lt.post(hc, base, "/api/games", req, &c); err != nil {
		return err
	}
	dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	conn, _, err := websocket.Dial(dctx, "ws"+strings.TrimPrefix(base, "http")+"/api/games/"+c.ID+"/ws", &websocket.DialOptions{HTTPClient: hc})
	cancel()
	if err != nil {
		return fmt.Errorf("game %s: %w", c.ID, err)
	}
	conn.SetReadLimit(1 << 20)
	defer conn.CloseNow()
	cg.conn, cg.asked = conn, -1
	for {
		rctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
		_, data, err := conn.Read(rctx)
		cancel()
		if err != nil {
			return fmt.Errorf("game %s: %w", c.ID, err)
		}
		over, err := cg.handle(ctx, data)
		if err != nil || over {
			if err == nil {
				cg.moves, cg.computerMoves = len(cg.st.Moves), len(cg.st.Moves)/2
			}
			return err
		}
	}
}

// handle takes one message of the server; it reports whether the game is
// over.
func (cg *computerGame) handle(ctx context.Context, data []byte) (bool, error) {
	var m lstate
	if err := json.Unmarshal(data, &m); err != nil {
		return false, err
	}
	switch m.Type {
	case "error":
		cg.errors++
		return false, fmt.Errorf("refused: %s", m.Message)
	case "state":
		cg.st = m.State
	case "update":
		switch m.Ply {
		case len(cg.st.Moves):
		case len(cg.st.Moves) + 1:
			moves := append(cg.st.Moves, m.Last)
			start := cg.st.Start
			cg.st = m.State
			cg.st.Moves, cg.st.Start = moves, start
		default:
			return false, cg.send(ctx, wire.ClientMsg{Type: "sync"})
		}
	default:
		return false, nil
	}
	st := cg.st
	if st.Status != "playing" {
		return st.Status == "finished" || st.Status == "aborted", nil
	}
	if st.Computer == nil || st.Seat == nil || cg.asked == st.Ply || len(st.Legal) == 0 {
		return false, nil
	}
	switch st.Turn {
	case *st.Seat:
		cg.asked = st.Ply
		return false, cg.send(ctx, wire.ClientMsg{Type: "move", Move: st.Legal[cg.rng.IntN(len(st.Legal))]})
	case st.Computer.Seat:
		if !cg.browser {
			return false, nil
		}
		cg.asked = st.Ply
		return false, cg.playComputer(ctx)
	}
	return false, nil
}

// playComputer finds the computer's move with the client's engine, as the
// browser's worker does, and sends it as the computer's.
func (cg *computerGame) playComputer(ctx context.Context) error {
	st := cg.st
	req, _ := json.Marshal(engine.MoveRequest{Game: st.Game, Rules: st.Rules, Start: st.Start, Moves: st.Moves, Level: st.Computer.Level,
		MoveTimeMS: int(st.Computer.MoveTimeMS), NewGame: st.Ply < 2})
	ans, err := cg.session.Handle(ctx, "move", req, nil)
	if err != nil {
		return fmt.Errorf("the engine: %w", err)
	}
	a, ok := ans.(engine.MoveAnswer)
	if !ok {
		return fmt.Errorf("the engine answered %T", ans)
	}
	ply := a.Ply
	return cg.send(ctx, wire.ClientMsg{Type: "move", Move: a.Move, Computer: true, Ply: &ply, Position: st.Position})
}

func (cg *computerGame) send(ctx context.Context, m wire.ClientMsg) error {
	if wait := minGap - time.Since(cg.sentAt); wait > 0 {
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	cg.sentAt = time.Now()
	b, _ := json.Marshal(m)
	wctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	return cg.conn.Write(wctx, websocket.MessageText, b)
}

// childMode runs the program as a server child when its environment says
// so; false when it is not one.
func childMode() bool {
	v := os.Getenv(childEnv)
	if v == "" {
		return false
	}
	if err := runChild(v); err != nil {
		fmt.Fprintln(os.Stderr, "loadtest server:", err)
		os.Exit(1)
	}
	return true
}
