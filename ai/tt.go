package ai

// Bounds stored with a transposition table score.
const (
	boundNone  = 0
	boundUpper = 1 // the score is at most this (fail low)
	boundLower = 2 // the score is at least this (fail high)
	boundExact = 3
)

// table is a lockless transposition table shared by the threads of a
// search: each slot keeps the data and the key XOR the data, so a slot torn
// by two threads writing at once fails the key check instead of returning
// another position's data.
type table struct {
	slots []ttSlot
	mask  uint64
	gen   uint8
}

type ttSlot struct {
	check sharedWord // key ^ data
	data  sharedWord
}

// ttEntry is an unpacked slot.
type ttEntry struct {
	move  uint16 // move key + 1, 0 for none
	score int16
	depth int8
	bound uint8
	gen   uint8
}

func (e ttEntry) pack() uint64 {
	return uint64(e.move) | uint64(uint16(e.score))<<16 | uint64(uint8(e.depth))<<32 | uint64(e.bound)<<40 | uint64(e.gen)<<48
}

func unpack(d uint64) ttEntry {
	return ttEntry{move: uint16(d), score: int16(uint16(d >> 16)), depth: int8(uint8(d >> 32)), bound: uint8(d>>40) & 3, gen: uint8(d >> 48)}
}

// newTable makes a table of about mb megabytes (at least 1024 slots).
func newTable(mb int) *table {
	n := uint64(1024)
	for n*2*16 <= uint64(mb)<<20 {
		n *= 2
	}
	return &table{slots: make([]ttSlot, n), mask: n - 1}
}

func (t *table) probe(key uint64) (ttEntry, bool) {
	s := &t.slots[key&t.mask]
	d := s.data.Load()
	if s.check.Load()^d != key || d == 0 {
		return ttEntry{}, false
	}
	return unpack(d), true
}

func (t *table) store(key uint64, e ttEntry) {
	s := &t.slots[key&t.mask]
	old := s.data.Load()
	if old != 0 {
		o := unpack(old)
		same := s.check.Load()^old == key
		// Keep a deeper entry of this search for another position.
		if !same && o.gen == t.gen && o.depth > e.depth+2 {
			return
		}
		if same && e.move == 0 {
			e.move = o.move
		}
	}
	e.gen = t.gen
	d := e.pack()
	s.data.Store(d)
	s.check.Store(key ^ d)
}

// clear empties the table.
func (t *table) clear() {
	for i := range t.slots {
		t.slots[i].data.Store(0)
		t.slots[i].check.Store(0)
	}
}

// scoreToTT makes a win or loss score relative to the node, so it stays
// right when the same position is met at another ply.
func scoreToTT(score, ply int) int {
	switch {
	case score > mateBound:
		return score + ply
	case score < -mateBound:
		return score - ply
	}
	return score
}

func scoreFromTT(score, ply int) int {
	switch {
	case score > mateBound:
		return score - ply
	case score < -mateBound:
		return score + ply
	}
	return score
}
