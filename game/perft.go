package game

import (
	"context"
	"runtime"
	"sync"
)

// Perft counts the leaves of the game tree of the given depth below p: every
// sequence of depth legal moves, each one generated and played (no bulk
// counting at the last ply). A finished game has no children. It is the
// standard check of a move generator against known counts. A position
// that is a FastPerfter counts itself; the others, and those it declines,
// are counted by PerftByPlay.
func Perft[P Position[P, M], M comparable](p P, depth int) uint64 {
	if f, ok := any(p).(FastPerfter); ok {
		if n, ok := f.FastPerft(depth); ok {
			return n
		}
	}
	return PerftByPlay(p, depth)
}

// FastPerfter is implemented by a position type that counts perft with a
// loop of its own, specialised for its game (moves visited without a move
// list, made and unmade in place, no hash), which generic code over
// Position cannot be. FastPerft returns false when it does not handle the
// position (some rule options, say), and the count is left to
// PerftByPlay. Its counts must equal PerftByPlay's; each game's tests
// check that.
type FastPerfter interface {
	FastPerft(depth int) (leaves uint64, ok bool)
}

// PerftByPlay is Perft through the Position interface alone: AppendMoves
// and Play at every node, never the position's own FastPerft. It is the
// reference a FastPerft is tested against.
func PerftByPlay[P Position[P, M], M comparable](p P, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	bufs := make([][]M, depth)
	for i := range bufs {
		bufs[i] = make([]M, 0, 256)
	}
	return perft(p, depth, bufs)
}

func perft[P Position[P, M], M comparable](p P, depth int, bufs [][]M) uint64 {
	moves := p.AppendMoves(bufs[depth-1][:0])
	if depth == 1 {
		for _, m := range moves {
			_ = p.Play(m)
		}
		return uint64(len(moves))
	}
	var n uint64
	for _, m := range moves {
		n += perft(p.Play(m), depth-1, bufs)
	}
	return n
}

// DivideEntry is one root move of a perft with its leaf count.
type DivideEntry[M comparable] struct {
	Move  M
	Nodes uint64
}

// Divide runs perft below each root move on up to threads goroutines
// (threads < 1 means one per CPU) and returns the counts in move order.
// It stops early, returning ctx.Err(), when ctx is cancelled.
func Divide[P Position[P, M], M comparable](ctx context.Context, p P, depth, threads int) ([]DivideEntry[M], error) {
	if depth < 1 {
		return nil, nil
	}
	if threads < 1 {
		threads = runtime.NumCPU()
	}
	moves := p.AppendMoves(nil)
	out := make([]DivideEntry[M], len(moves))
	work := make(chan int)
	var wg sync.WaitGroup
	for range min(threads, max(len(moves), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				out[i] = DivideEntry[M]{moves[i], Perft(p.Play(moves[i]), depth-1)}
			}
		}()
	}
	var err error
feed:
	for i := range moves {
		select {
		case work <- i:
		case <-ctx.Done():
			err = ctx.Err()
			break feed
		}
	}
	close(work)
	wg.Wait()
	return out, err
}
