package puzzle

import (
	"bytes"
	_ "embed"
	"fmt"
	"sync"
	"time"
)

// shippedText is the project's puzzles, made by `magneton puzzles
// generate` and checked by the tests.
//
//go:embed data/puzzles.jsonl
var shippedText []byte

var shipped = sync.OnceValues(func() ([]*Puzzle, error) {
	ps, err := Read(bytes.NewReader(shippedText))
	if err != nil {
		return nil, fmt.Errorf("the shipped puzzles: %w", err)
	}
	return ps, nil
})

// Shipped returns the project's puzzles, in file order (easier first
// within each game). Callers must not change them.
func Shipped() ([]*Puzzle, error) { return shipped() }

// Daily returns the puzzle of the day t falls on (UTC) among puzzles:
// the same for everyone that day, a different one the next.
func Daily(puzzles []*Puzzle, t time.Time) *Puzzle {
	if len(puzzles) == 0 {
		return nil
	}
	day := t.UTC().Unix() / 86400
	// A multiplicative step spreads the days over the puzzles, so that
	// consecutive days do not show neighbours of the file.
	return puzzles[int((day*7919)%int64(len(puzzles)))]
}
