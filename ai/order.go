package ai

import (
	"cmp"
	"slices"
)

// The move ordering of the alpha-beta search: the hash move first, then
// the killers, then the history of cutoffs, which rememberCut keeps.

// rememberCut records the quiet move m, which made a cutoff at ply, for
// the ordering of the nodes searched next: as a killer of the ply (its
// sibling nodes often have the same refutation) and in the history of the
// side, by depth squared, so that cutoffs near the root count most. The
// history is halved when an entry grows large: that keeps it far below
// the killers' ordering score, and recent cutoffs ahead of old ones.
func (w *worker[P, M]) rememberCut(m M, side, depth, ply int) {
	if w.killers[ply][0] != m {
		w.killers[ply][1] = w.killers[ply][0]
		w.killers[ply][0] = m
	}
	kit := w.e.kit
	hi := side*kit.MoveKeys + int(kit.MoveKey(m))
	w.history[hi] += int32(depth * depth)
	if w.history[hi] > 1<<20 {
		for j := range w.history {
			w.history[j] /= 2
		}
	}
}

const (
	hashScore   = 1 << 30
	killerScore = 1 << 29
)

// order scores the moves for move ordering: the hash move, then the
// killers, then by history.
func (w *worker[P, M]) order(p P, moves []M, ply int, hashKey uint16) []int32 {
	kit := w.e.kit
	scores := w.scores[ply][:0]
	base := int(p.Side()) * kit.MoveKeys
	k0, k1 := w.killers[ply][0], w.killers[ply][1]
	for _, m := range moves {
		key := kit.MoveKey(m)
		var s int32
		switch {
		case hashKey != 0 && key+1 == hashKey:
			s = hashScore
		case m == k0:
			s = killerScore + 1
		case m == k1:
			s = killerScore
		default:
			s = w.history[base+int(key)]
		}
		scores = append(scores, s)
	}
	w.scores[ply] = scores
	return scores
}

// pickFirst is how many moves the search orders by selection before it
// sorts the rest.
const pickFirst = 6

// scoredMove is a move with its ordering score, for sortByScore.
type scoredMove[M any] struct {
	move  M
	score int32
}

// sortByScore sorts moves by their scores, highest first, through buf
// (the worker's scratch, grown as needed). It is slices.SortFunc on the
// pairs, which sorts as sort.Sort did on the two slices (the same
// pattern-defeating quicksort, so the same order, ties included) without
// the interface value that sort.Sort took: that value was the search's
// only allocation a node.
func sortByScore[M any](moves []M, scores []int32, buf *[]scoredMove[M]) {
	pairs := (*buf)[:0]
	for i, m := range moves {
		pairs = append(pairs, scoredMove[M]{m, scores[i]})
	}
	slices.SortFunc(pairs, func(a, b scoredMove[M]) int { return cmp.Compare(b.score, a.score) })
	for i, p := range pairs {
		moves[i], scores[i] = p.move, p.score
	}
	*buf = pairs
}

// pick moves the best scored move from i on to i (selection sort step).
func pick[M any](moves []M, scores []int32, i int) {
	b := i
	for j := i + 1; j < len(scores); j++ {
		if scores[j] > scores[b] {
			b = j
		}
	}
	if b != i {
		moves[i], moves[b] = moves[b], moves[i]
		scores[i], scores[b] = scores[b], scores[i]
	}
}
