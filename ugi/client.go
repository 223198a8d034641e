package ugi

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/game"
)

// Client is an engine speaking UGI, seen as a computer player (ai.Player):
// the match runner's ugi:PATH players. The game and its rule options are
// set with setoption, each position is sent as "position startpos|fen ...
// moves ...", and the engine's move is checked by the caller with the
// rules (game.Game.Play). Close ends the session.
type Client struct {
	name   string
	rules  game.Rules
	in     io.WriteCloser
	lines  chan string
	mu     sync.Mutex
	finish func() error // waits for the engine to end after quit
	proven int          // the last search's proven result (Proven), 0 for none
}

// Start runs the program at path with the argument "ugi" (as `magneton
// ugi`) and sets it up for rules.
func Start(path string, rules game.Rules) (*Client, error) {
	cmd := exec.Command(path, "ugi")
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("ugi engine %s: %w", path, err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("ugi engine %s: %w", path, err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("ugi engine %s: %w", path, err)
	}
	finish := func() error {
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			return err
		case <-time.After(3 * time.Second):
			cmd.Process.Kill()
			return <-done
		}
	}
	return connect("ugi:"+path, out, in, rules, finish)
}

// Connect speaks UGI to an engine that reads in and writes to out (pipes
// to a process, a network connection, an Engine in the same process) and
// sets it up for rules. name is the player's name. Close sends quit and
// closes in.
func Connect(name string, out io.Reader, in io.WriteCloser, rules game.Rules) (*Client, error) {
	return connect(name, out, in, rules, func() error { return nil })
}

func connect(name string, out io.Reader, in io.WriteCloser, rules game.Rules, finish func() error) (*Client, error) {
	c := &Client{name: name, rules: rules, in: in, lines: make(chan string, 256), finish: finish}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<16), 1<<20)
		for sc.Scan() {
			c.lines <- sc.Text()
		}
		close(c.lines)
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := c.setup(ctx); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// setup sends the handshake, the game and its rule options.
func (c *Client) setup(ctx context.Context) error {
	if err := c.send("ugi"); err != nil {
		return err
	}
	if _, err := c.wait(ctx, "ugiok"); err != nil {
		return err
	}
	lines := []string{"setoption name game value " + c.rules.Spec().Name}
	s := c.rules.Settings()
	keys := make([]string, 0, len(s))
	for k := range s {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		lines = append(lines, fmt.Sprintf("setoption name %s value %s", k, s[k]))
	}
	if err := c.send(append(lines, "isready")...); err != nil {
		return err
	}
	_, err := c.wait(ctx, "readyok")
	return err
}

// Name returns the player's name: "ugi:" and the engine's path for Start.
func (c *Client) Name() string { return c.name }

func (c *Client) send(lines ...string) error {
	for _, l := range lines {
		if _, err := io.WriteString(c.in, l+"\n"); err != nil {
			return fmt.Errorf("ugi engine %s: %w", c.name, err)
		}
	}
	return nil
}

// wait reads lines until one starts with prefix, noting the proven
// results of the info lines on the way.
func (c *Client) wait(ctx context.Context, prefix string) (string, error) {
	for {
		select {
		case l, ok := <-c.lines:
			if !ok {
				return "", fmt.Errorf("ugi engine %s stopped before %q", c.name, prefix)
			}
			if strings.HasPrefix(l, prefix) {
				return l, nil
			}
			if n, ok := ParseProven(l); ok {
				c.proven = n
			}
		case <-ctx.Done():
			return "", fmt.Errorf("ugi engine %s: no %q: %w", c.name, prefix, ctx.Err())
		}
	}
}

// Move sends the game and asks for a move within lim.
func (c *Client) Move(ctx context.Context, g *game.Game, lim ai.Limits) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if r, why := g.Result(); r.Over() {
		return "", fmt.Errorf("no legal move: the game is over (%s, %s)", r, why)
	}
	c.proven = 0
	if err := c.send(positionCommand(g), goCommand(lim)); err != nil {
		return "", err
	}
	// Wait for the move; on cancellation ask the engine to stop and still
	// wait a little for its answer.
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-ctx.Done():
			c.send("stop")
		case <-done:
		}
	}()
	wctx, cancel := context.WithTimeout(context.Background(), waitLimit(lim))
	defer cancel()
	l, err := c.wait(wctx, "bestmove")
	if err != nil {
		return "", err
	}
	move := strings.TrimSpace(strings.TrimPrefix(l, "bestmove"))
	if move == "" || move == "(none)" {
		return "", errors.New("ugi engine " + c.name + " gave no move")
	}
	return strings.Fields(move)[0], nil
}

// Proven returns what the engine's info lines said the proof-number
// solver proved in the last Move's search ("score ... proven win N" or
// "proven loss N"): the moves of the winner, positive when the side to
// move wins, negative when it loses; ok is false when they claimed no
// proof.
func (c *Client) Proven() (moves int, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.proven, c.proven != 0
}

// ParseProven reads the proven result of an info line: the winner's
// moves, positive for "proven win N", negative for "proven loss N"; ok is
// false for a line that claims no proof.
func ParseProven(line string) (moves int, ok bool) {
	f := strings.Fields(line)
	if len(f) < 2 || f[0] != "info" || f[1] == "string" {
		return 0, false
	}
	for i := 1; i+2 < len(f); i++ {
		if f[i] != "proven" {
			continue
		}
		n, err := strconv.Atoi(f[i+2])
		if err != nil || n <= 0 {
			return 0, false
		}
		switch f[i+1] {
		case "win":
			return n, true
		case "loss":
			return -n, true
		}
		return 0, false
	}
	return 0, false
}

// positionCommand is the position command of g's current position.
func positionCommand(g *game.Game) string {
	pos := "position startpos"
	if start := g.Start().String(); start != g.Rules().Start().String() {
		pos = "position fen " + start
	}
	if moves := g.Moves(); len(moves) > 0 {
		pos += " moves " + strings.Join(moves, " ")
	}
	return pos
}

// goCommand is the go command of lim; no limit at all asks for
// ai.DefaultMoveTime.
func goCommand(lim ai.Limits) string {
	cmd := "go"
	if lim.MoveTime > 0 {
		cmd += fmt.Sprintf(" movetime %d", lim.MoveTime.Milliseconds())
	}
	if lim.Time[0] > 0 || lim.Time[1] > 0 {
		cmd += fmt.Sprintf(" p1time %d p2time %d p1inc %d p2inc %d", lim.Time[0].Milliseconds(), lim.Time[1].Milliseconds(), lim.Increment[0].Milliseconds(), lim.Increment[1].Milliseconds())
	}
	if lim.Depth > 0 {
		cmd += fmt.Sprintf(" depth %d", lim.Depth)
	}
	if lim.Nodes > 0 {
		cmd += fmt.Sprintf(" nodes %d", lim.Nodes)
	}
	if cmd == "go" {
		cmd += fmt.Sprintf(" movetime %d", ai.DefaultMoveTime.Milliseconds())
	}
	return cmd
}

// waitLimit is how long to wait for an engine's move before giving up.
func waitLimit(lim ai.Limits) time.Duration {
	d := lim.MoveTime + lim.Time[0] + lim.Time[1]
	if d == 0 {
		d = ai.DefaultMoveTime
	}
	return 2*d + 10*time.Second
}

// Close tells the engine to quit and waits for it to end (a process is
// killed if it does not quit within a few seconds).
func (c *Client) Close() error {
	c.send("quit")
	c.in.Close()
	return c.finish()
}
