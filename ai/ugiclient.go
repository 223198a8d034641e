package ai

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/magneton-games/magneton/game"
)

// UGIPlayer is an external engine speaking UGI, run as a child process.
// The game and its rule options are given with setoption, each position as
// "position startpos|fen ... moves ...", and the engine's move is checked
// by our rules (game.Game.Play) by the caller. Close ends the process.
type UGIPlayer struct {
	path  string
	rules game.Rules
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines chan string
	mu    sync.Mutex
}

// NewUGIPlayer starts the engine at path and sets it up for rules.
func NewUGIPlayer(path string, rules game.Rules) (*UGIPlayer, error) {
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
	u := &UGIPlayer{path: path, rules: rules, cmd: cmd, in: in, lines: make(chan string, 256)}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<16), 1<<20)
		for sc.Scan() {
			u.lines <- sc.Text()
		}
		close(u.lines)
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := u.send("ugi"); err != nil {
		u.Close()
		return nil, err
	}
	if _, err := u.wait(ctx, "ugiok"); err != nil {
		u.Close()
		return nil, err
	}
	lines := []string{"setoption name game value " + rules.Spec().Name}
	s := rules.Settings()
	keys := make([]string, 0, len(s))
	for k := range s {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		lines = append(lines, fmt.Sprintf("setoption name %s value %s", k, s[k]))
	}
	if err := u.send(append(lines, "isready")...); err != nil {
		u.Close()
		return nil, err
	}
	if _, err := u.wait(ctx, "readyok"); err != nil {
		u.Close()
		return nil, err
	}
	return u, nil
}

// Name returns "ugi:" and the engine's path.
func (u *UGIPlayer) Name() string { return "ugi:" + u.path }

func (u *UGIPlayer) send(lines ...string) error {
	for _, l := range lines {
		if _, err := io.WriteString(u.in, l+"\n"); err != nil {
			return fmt.Errorf("ugi engine %s: %w", u.path, err)
		}
	}
	return nil
}

// wait reads lines until one starts with prefix.
func (u *UGIPlayer) wait(ctx context.Context, prefix string) (string, error) {
	for {
		select {
		case l, ok := <-u.lines:
			if !ok {
				return "", fmt.Errorf("ugi engine %s stopped before %q", u.path, prefix)
			}
			if strings.HasPrefix(l, prefix) {
				return l, nil
			}
		case <-ctx.Done():
			return "", fmt.Errorf("ugi engine %s: no %q: %w", u.path, prefix, ctx.Err())
		}
	}
}

// Move sends the game and asks for a move.
func (u *UGIPlayer) Move(ctx context.Context, g *game.Game, lim Limits) (string, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if r, _ := g.Result(); r.Over() {
		return "", errNoMove
	}
	pos := "position startpos"
	if start := g.Start().String(); start != g.Rules().Start().String() {
		pos = "position fen " + start
	}
	if moves := g.Moves(); len(moves) > 0 {
		pos += " moves " + strings.Join(moves, " ")
	}
	goCmd := "go"
	if lim.MoveTime > 0 {
		goCmd += fmt.Sprintf(" movetime %d", lim.MoveTime.Milliseconds())
	}
	if lim.Time[0] > 0 || lim.Time[1] > 0 {
		goCmd += fmt.Sprintf(" p1time %d p2time %d p1inc %d p2inc %d", lim.Time[0].Milliseconds(), lim.Time[1].Milliseconds(), lim.Increment[0].Milliseconds(), lim.Increment[1].Milliseconds())
	}
	if lim.Depth > 0 {
		goCmd += fmt.Sprintf(" depth %d", lim.Depth)
	}
	if lim.Nodes > 0 {
		goCmd += fmt.Sprintf(" nodes %d", lim.Nodes)
	}
	if goCmd == "go" {
		goCmd += fmt.Sprintf(" movetime %d", DefaultMoveTime.Milliseconds())
	}
	if err := u.send(pos, goCmd); err != nil {
		return "", err
	}
	// Wait for the move; on cancellation ask the engine to stop and still
	// wait a little for its answer.
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-ctx.Done():
			u.send("stop")
		case <-done:
		}
	}()
	wctx, cancel := context.WithTimeout(context.Background(), waitLimit(lim))
	defer cancel()
	l, err := u.wait(wctx, "bestmove")
	if err != nil {
		return "", err
	}
	move := strings.TrimSpace(strings.TrimPrefix(l, "bestmove"))
	if move == "" || move == "(none)" {
		return "", errors.New("ugi engine " + u.path + " gave no move")
	}
	return strings.Fields(move)[0], nil
}

// waitLimit is how long to wait for an engine's move before giving up.
func waitLimit(lim Limits) time.Duration {
	d := lim.MoveTime + lim.Time[0] + lim.Time[1]
	if d == 0 {
		d = DefaultMoveTime
	}
	return 2*d + 10*time.Second
}

// Close tells the engine to quit and waits for it, killing it if it does
// not quit within a few seconds.
func (u *UGIPlayer) Close() error {
	u.send("quit")
	u.in.Close()
	done := make(chan error, 1)
	go func() { done <- u.cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(3 * time.Second):
		u.cmd.Process.Kill()
		return <-done
	}
}
