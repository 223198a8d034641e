package ai

import "time"

// The ranges of a search's settings that the programs accept from people
// and from other programs: the command line (analyze, match, play, perft)
// and the UGI engine's options and go command check them against these
// constants, so that every place takes the same values.
//
// Threads are capped at a fixed number rather than at runtime.NumCPU, so
// that the same command line and the same engine options are valid on
// every machine; threads beyond the cores only share them (each Lazy SMP
// thread holds well under a megabyte of its own). The table cap keeps one
// search within a few gigabytes; the depth cap is the deepest iteration
// the alpha-beta search runs; a day is longer than any game's move.
const (
	MinThreads = 1
	MaxThreads = 64

	MinHashMB = 1
	MaxHashMB = 4096

	// MaxDepth is the deepest a search may be asked to go; 0 means no
	// depth limit where a command says so.
	MaxDepth = 120

	// MaxMoveTime is the longest thinking time a move may be given; a
	// thinking time must be positive.
	MaxMoveTime = 24 * time.Hour
)
