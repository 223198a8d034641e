package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// loadtestProgram returns the loadtest program: path, or one built from
// ./tools/loadtest (the working directory must be the module's) into a
// temporary folder.
func loadtestProgram(ctx context.Context, path string) (string, error) {
	if path != "" {
		return path, nil
	}
	dir, err := os.MkdirTemp("", "archivebench")
	if err != nil {
		return "", err
	}
	out := filepath.Join(dir, "loadtest")
	cmd := exec.CommandContext(ctx, "go", "build", "-o", out, "./tools/loadtest")
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("build tools/loadtest (run archivebench from the module's root, or give --loadtest): %w", err)
	}
	return out, nil
}

// load is the live games being played: one loadtest child a game.
type load struct {
	cmds []*exec.Cmd
	outs []*bytes.Buffer
	done chan error // each child's end
}

// startLoad starts the live games on the server at base: o.live games,
// half Magneton and half Tumbling Down (whose games end sooner, so that
// games are archived all along), o.rate moves a second together, each
// child playing a little longer than the measurement; it returns once
// both have set up their games and begun.
func startLoad(ctx context.Context, program, base string, o options) (*load, error) {
	l := &load{done: make(chan error, 2)}
	ready := make(chan error, 2)
	for i, name := range []string{"magneton", "tumbling"} {
		n := o.live / 2
		if i == 0 {
			n = o.live - o.live/2
		}
		cmd := exec.CommandContext(ctx, program, "-url", base, "-game", name, "-games", fmt.Sprint(n),
			"-rate", fmt.Sprintf("%g", o.rate*float64(n)/float64(o.live)), "-spectators", fmt.Sprint(o.spectators),
			"-duration", (o.duration + 3*time.Second).String())
		cmd.Stderr = os.Stderr
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			return nil, err
		}
		if err := cmd.Start(); err != nil {
			l.stop()
			return nil, fmt.Errorf("start %s: %w", program, err)
		}
		buf := &bytes.Buffer{}
		l.cmds, l.outs = append(l.cmds, cmd), append(l.outs, buf)
		go func() {
			sc := bufio.NewScanner(stdout)
			signalled := false
			for sc.Scan() {
				fmt.Fprintln(buf, sc.Text())
				if !signalled && strings.HasPrefix(sc.Text(), "set-up:") {
					signalled = true
					ready <- nil
				}
			}
			err := cmd.Wait()
			if !signalled {
				ready <- fmt.Errorf("loadtest -game %s ended before its games were set up: %v\n%s", name, err, buf)
			}
			l.done <- err
		}()
	}
	for range l.cmds {
		select {
		case err := <-ready:
			if err != nil {
				l.stop()
				return nil, err
			}
		case <-time.After(2 * time.Minute):
			l.stop()
			return nil, errors.New("the live games were not set up within 2 minutes")
		}
	}
	return l, nil
}

// stop ends the children.
func (l *load) stop() {
	for _, c := range l.cmds {
		if c.Process != nil {
			c.Process.Kill()
		}
	}
}

// wait waits for the children to end and returns what they printed.
func (l *load) wait() (string, error) {
	var errs []error
	for range l.cmds {
		errs = append(errs, <-l.done)
	}
	// Each child's output is complete once it has ended (done).
	var b strings.Builder
	for _, o := range l.outs {
		b.WriteString(o.String())
	}
	return b.String(), errors.Join(errs...)
}
