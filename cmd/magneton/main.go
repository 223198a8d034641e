// Command magneton is the project's one binary: rules engine, perft and
// benchmarks for Magneton and Tumbling Down, and more subcommands as they
// come (computer players, the engine protocol, the play server).
//
// Exit status: 0 on success, 1 for bad input (a position, a move, a file),
// 2 for bad usage (an unknown flag or subcommand, a missing argument).
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/spf13/cobra"
)

// usageError marks a mistake in how the command was called, as opposed to
// bad input data; it exits with status 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

// options shared by every subcommand.
type globalOptions struct {
	game  string
	rules []string
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run executes the command line and returns the exit status; the tests call
// it directly as well as through the built binary.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRoot(stdin, stdout, stderr)
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return 0
	}
	fmt.Fprintln(stderr, "magneton:", err)
	var ue usageError
	if errors.As(err, &ue) || isCobraUsage(err) {
		return 2
	}
	return 1
}

func newRoot(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	g := &globalOptions{}
	root := &cobra.Command{
		Use:   "magneton",
		Short: "Rules engine, perft and tools for the board games Magneton and Tumbling Down",
		Long: `magneton plays and checks two games from the 2001 8x8 Game Design Competition:
Magneton (Luca Cerrato) and Tumbling Down (Michael Shuck).

Positions are given as one argument in the game's position text, quoted
because it holds spaces, or "start" for the starting position.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usageError{fmt.Errorf("%s: %w (see %s --help)", c.CommandPath(), err, c.CommandPath())}
	})
	pf := root.PersistentFlags()
	pf.StringVar(&g.game, "game", "magneton", "the game: magneton or tumbling")
	pf.StringArrayVar(&g.rules, "rule", nil, "a rule option name=value or a variant name (repeatable; see `magneton rules`)")
	for _, add := range commands {
		root.AddCommand(add(g))
	}
	return root
}

// commands holds the constructors of the subcommands; each file adds its own.
var commands []func(*globalOptions) *cobra.Command

// isCobraUsage recognises cobra's own errors for unknown subcommands and
// wrong argument counts, which it does not type.
func isCobraUsage(err error) bool {
	msg := err.Error()
	for _, prefix := range []string{"unknown command", "unknown flag", "unknown shorthand", "accepts ", "requires at least", "accepts at most", "accepts between"} {
		if len(msg) >= len(prefix) && msg[:len(prefix)] == prefix {
			return true
		}
	}
	return false
}
