// Command magneton is the project's one binary: rules engine, perft and
// benchmarks for Magneton and Tumbling Down, and more subcommands as they
// come (computer players, the engine protocol, the play server).
//
// Exit status: 0 on success, 1 for bad input (a position, a move, a file),
// 2 for bad usage (an unknown flag or subcommand, a missing argument, a
// setting out of its range), 130 when interrupted (SIGINT, Ctrl-C).
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"strings"

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

// exitInterrupted is the exit status of a command stopped by SIGINT, as
// shells report a process killed by it (128 + 2).
const exitInterrupted = 130

// options shared by every subcommand.
type globalOptions struct {
	game  string
	rules []string
	books []string // certificate files added to the book of proven positions
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	// After the first Ctrl-C the command winds down on its own; a second
	// one kills the process at once.
	go func() { <-ctx.Done(); stop() }()
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run executes the command line and returns the exit status; the tests call
// it directly as well as through the built binary. The end of ctx is an
// interruption (main ends it on SIGINT): whatever the command returns, the
// status is then 130.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRoot(stdin, stdout, stderr)
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	if ctx.Err() != nil {
		if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
			fmt.Fprintln(stderr, "magneton:", clipMessage(err.Error()))
		}
		fmt.Fprintln(stderr, "magneton: interrupted")
		return exitInterrupted
	}
	if err == nil {
		return 0
	}
	fmt.Fprintln(stderr, "magneton:", clipMessage(err.Error()))
	var ue usageError
	if errors.As(err, &ue) || isCobraUsage(err) {
		return 2
	}
	return 1
}

// commandName is how messages name a subcommand: its path without the
// program's name ("perft", "record check"), which run prints before every
// message; "" for the program itself.
func commandName(c *cobra.Command) string {
	if !c.HasParent() {
		return ""
	}
	return strings.TrimPrefix(c.CommandPath(), c.Root().Name()+" ")
}

// prefixed puts a subcommand's name before a message, as "perft: ...".
func prefixed(c *cobra.Command, msg string) string {
	if name := commandName(c); name != "" {
		return name + ": " + msg
	}
	return msg
}

// version describes the build: the module's version and, when the build
// recorded them, the VCS revision, whether the tree held uncommitted
// changes and the commit's time; then the Go version and platform.
func version() string {
	v := "(unknown)"
	var details []string
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" {
			v = bi.Main.Version
		}
		settings := map[string]string{}
		for _, s := range bi.Settings {
			settings[s.Key] = s.Value
		}
		if rev := settings["vcs.revision"]; rev != "" {
			d := "revision " + rev
			if settings["vcs.modified"] == "true" {
				d += " (modified)"
			}
			details = append(details, d)
		}
		if t := settings["vcs.time"]; t != "" {
			details = append(details, "committed "+t)
		}
	}
	details = append(details, runtime.Version()+" "+runtime.GOOS+"/"+runtime.GOARCH)
	return v + ", " + strings.Join(details, ", ")
}

func newRoot(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	g := &globalOptions{}
	root := &cobra.Command{
		Use:   "magneton",
		Short: "Rules engine, perft and tools for the board games Magneton and Tumbling Down",
		Long: `magneton plays and checks two games from the 2001 8x8 Game Design Competition:
Magneton (Luca Cerrato) and Tumbling Down (Michael Shuck).

Positions are given as one argument in the game's position text, quoted
because it holds spaces, or "start" for the starting position. Both games
write the ranks from 8 down to 1, separated by "/", then the side to move:

  Magneton: W a white stone, B a black one, a digit a run of empty squares;
  then the side to move (w or b) and the stones White and Black still hold
  in hand. The start is "8/8/8/8/8/8/8/8 w 12 12"; a position of the
  reference data with every stone on the board:
    "8/W1BB2W1/3W4/8/1B1W4/4B1B1/2W5/6B1 w 0 0"

  Tumbling Down: the eight squares of a rank separated by ",", each a stack
  from the bottom up (b a black disk, r a red one) or a number for a run of
  empty squares; then the side to move (b or r). The start:
    "bbbb,bbb,bb,bb,b,3/bbb,bb,bb,b,4/bb,bb,b,5/bb,b,5,r/b,5,r,rr/5,r,rr,rr/4,r,rr,rr,rrr/3,r,rr,rr,rrr,rrrr b"`,
		Example: `  magneton perft start 4                      # 15249024
  magneton --game tumbling perft start 2      # 21904
  magneton moves "8/W1BB2W1/3W4/8/1B1W4/4B1B1/2W5/6B1 w 0 0"
  magneton rules --game tumbling
  magneton --version`,
		Version:       version(),
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetVersionTemplate("magneton {{.Version}}\n")
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usageError{fmt.Errorf("%s (see %s --help)", prefixed(c, err.Error()), c.CommandPath())}
	})
	pf := root.PersistentFlags()
	pf.StringVar(&g.game, "game", "magneton", "the game: magneton or tumbling")
	pf.StringArrayVar(&g.rules, "rule", nil, "a rule option name=value or a variant name (repeatable; the command rules lists them)")
	pf.StringArrayVar(&g.books, "book", nil, "a proof certificate file (solve --out) whose positions level 8 plays by the proof and the analysis reports as proven, besides the built-in docs/proofs (repeatable)")
	root.PersistentPreRunE = func(*cobra.Command, []string) error { return g.readBooks() }
	for _, add := range commands {
		root.AddCommand(add(g))
	}
	for _, c := range root.Commands() {
		groupOnly(c)
	}
	return root
}

// groupOnly makes a command that only groups subcommands (puzzles,
// record, admin) show its help when run alone, and refuse an unknown
// subcommand as bad usage (status 2) rather than print its help and
// succeed; likewise for the groups below it.
func groupOnly(c *cobra.Command) {
	if !c.HasSubCommands() {
		return
	}
	if c.Run == nil && c.RunE == nil {
		c.Args = func(c *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usagef("%s: unknown subcommand %q (see %s --help)", strings.TrimPrefix(c.CommandPath(), "magneton "), args[0], c.CommandPath())
			}
			return nil
		}
		c.RunE = func(c *cobra.Command, _ []string) error { return c.Help() }
	}
	for _, sub := range c.Commands() {
		groupOnly(sub)
	}
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
