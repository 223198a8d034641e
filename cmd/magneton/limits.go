package main

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/ugi"
)

// The ranges of the flags that are not a search's (those are package ai's:
// ai.MaxThreads and the others).
const (
	maxMatchGames       = 1_000_000
	maxConcurrency      = 256
	minMaxPlies         = 1
	maxMaxPlies         = 100_000
	maxPerftDepth       = 20
	maxLevel, minLevel  = 8, 1
	maxLineBytes        = 4 << 20 // the longest line read from standard input or a file
	maxMatchTableMemory = ai.MaxHashMB
)

// intIn checks that the value of an integer flag lies in [lo, hi]; the
// usage error names the command, the flag, the value and the range, with
// note (a unit, or what 0 means) after it.
func intIn[T int | int64](c *cobra.Command, flag string, v, lo, hi T, note string) error {
	if v >= lo && v <= hi {
		return nil
	}
	if note != "" {
		note = " " + note
	}
	return usageError{fmt.Errorf("%s", prefixed(c, fmt.Sprintf("--%s %d: want %d to %d%s", flag, v, lo, hi, note)))}
}

// durationIn checks that a thinking time is positive and at most
// ai.MaxMoveTime.
func durationIn(c *cobra.Command, flag string, d time.Duration) error {
	if d > 0 && d <= ai.MaxMoveTime {
		return nil
	}
	return usageError{fmt.Errorf("%s", prefixed(c, fmt.Sprintf("--%s %v: want a time above 0 and at most %v, like 500ms or 5s", flag, d, ai.MaxMoveTime)))}
}

// searchFlags checks the flags of a search that a command has; a flag the
// command does not define is left out.
type searchFlags struct {
	threads, hash, depth *int
	nodes                *int64
	times                map[string]*time.Duration // flag name: value
}

func (s searchFlags) check(c *cobra.Command) error {
	if s.threads != nil {
		if err := intIn(c, "threads", *s.threads, ai.MinThreads, ai.MaxThreads, ""); err != nil {
			return err
		}
	}
	if s.hash != nil {
		if err := intIn(c, "hash", *s.hash, ai.MinHashMB, ai.MaxHashMB, "(MB)"); err != nil {
			return err
		}
	}
	if s.depth != nil {
		if err := intIn(c, "depth", *s.depth, 0, ai.MaxDepth, "(0: no limit)"); err != nil {
			return err
		}
	}
	if s.nodes != nil {
		if err := intIn(c, "nodes", *s.nodes, 0, 1<<62, "(0: no limit)"); err != nil {
			return err
		}
	}
	for name, d := range s.times {
		if err := durationIn(c, name, *d); err != nil {
			return err
		}
	}
	return nil
}

// hashUsage is the help of a --hash flag, with note after the range.
func hashUsage(note string) string {
	return fmt.Sprintf("the table's size in MiB, %d to %d%s", ai.MinHashMB, ai.MaxHashMB, note)
}

// clip quotes an input for a message, cut to a few dozen characters with
// its length when it is longer (ugi.Clip).
func clip(s string) string { return ugi.Clip(s) }

// clipMessage shortens the quoted inputs of a message and the message
// itself (ugi.ClipMessage), so that a megabyte of bad input is not echoed
// back.
func clipMessage(msg string) string { return ugi.ClipMessage(msg) }
