package prove

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
)

// entry is one position's numbers in the table. The proof and disproof
// numbers are the side to move's phi and delta (see mid), so an entry
// means the same whoever proves; the attacker is folded into the key.
type entry struct {
	key   uint64
	phi   uint32
	delta uint32
	work  uint32 // nodes the last search below the position took, saturated: the replacement's measure
	plies uint32 // the length of the proof or disproof, when phi or delta is 0
}

// entrySize is the bytes of an entry in memory and on disk.
const entrySize = 24

// bucket is how many entries a key may occupy: it is stored in the one
// that holds the least work.
const bucket = 4

// table is the transposition table: a power-of-two number of buckets of
// entries that replace one another, and beside them the settled results,
// which nothing replaces.
//
// Settled results are kept apart because a proof is made of them: the
// certificate of a win walks the proven positions the search found, and a
// proven entry replaced by later work had to be proved a second time to
// write it (on Tumbling Down's first ply that second search cost more
// than the first). They are also what is dearest to find again.
type table struct {
	entries []entry
	mask    uint64 // bucket index mask
	stored  int64  // entries written, for the progress display
	// settled holds the results with phi or delta 0, by key: the plies
	// shifted left once, and 1 when the side to move succeeded (phi 0).
	settled map[uint64]uint32
	// settledCap is how many settled results the map may hold; past it
	// they go into the buckets like the others.
	settledCap int
}

// settledBytes is about what one settled result costs in the map, Go's
// overhead included: the cap gives the map as much memory as the buckets.
const settledBytes = 32

// newTable makes a table of about mib MiB (at least one bucket), with
// room beside it for settled results in about as much memory again.
func newTable(mib int) *table {
	n := uint64(1)
	for n*2*bucket*entrySize <= uint64(mib)<<20 {
		n *= 2
	}
	return newTableOf(n * bucket)
}

// newTableOf makes a table of n entries, a power of two and at least a
// bucket.
func newTableOf(n uint64) *table {
	return &table{
		entries:    make([]entry, n),
		mask:       n/bucket - 1,
		settled:    map[uint64]uint32{},
		settledCap: int(n * entrySize / settledBytes),
	}
}

// settledEntry is the entry of a settled result of the map.
func settledEntry(key uint64, v uint32) entry {
	e := entry{key: key, phi: inf, delta: 0, plies: v >> 1}
	if v&1 == 1 {
		e.phi, e.delta = 0, inf
	}
	return e
}

// isSettled reports whether e is a settled result.
func (e entry) isSettled() bool { return e.phi == 0 || e.delta == 0 }

// settledValue is e's value in the map.
func (e entry) settledValue() uint32 {
	v := e.plies << 1
	if e.phi == 0 {
		v |= 1
	}
	return v
}

// slot returns the bucket of key.
func (t *table) slot(key uint64) []entry {
	i := (key & t.mask) * bucket
	return t.entries[i : i+bucket]
}

// get returns key's entry, if stored.
func (t *table) get(key uint64) (entry, bool) {
	key |= 1 // 0 marks an empty entry
	// The bucket first: most lookups end there, and a key is never in
	// both (put clears the bucket's entry of a key it settles, and a
	// settled position is not searched again, so no unsettled put follows).
	for _, e := range t.slot(key) {
		if e.key == key {
			return e, true
		}
	}
	if v, ok := t.settled[key]; ok {
		return settledEntry(key, v), true
	}
	return entry{}, false
}

// put stores e: a settled result in the map while it has room, and
// otherwise over the bucket's entry of the same key or else the one with
// the least work: df-pn's usual "small tree" replacement, which keeps
// the results that cost most to find again.
func (t *table) put(e entry) {
	e.key |= 1
	b := t.slot(e.key)
	if e.isSettled() {
		if _, ok := t.settled[e.key]; ok || len(t.settled) < t.settledCap {
			if !ok {
				t.stored++
			}
			t.settled[e.key] = e.settledValue()
			// The bucket's unsettled numbers of the key are out of date.
			for i := range b {
				if b[i].key == e.key {
					b[i] = entry{}
					t.stored--
				}
			}
			return
		}
	}
	victim := 0
	for i := range b {
		if b[i].key == e.key {
			victim = i
			break
		}
		if b[victim].key != 0 && (b[i].key == 0 || b[i].work < b[victim].work) {
			victim = i
		}
	}
	if b[victim].key != e.key {
		t.stored++
	}
	b[victim] = e
}

// tableMagic begins a saved table file: a name and a format version.
// Version 2 adds the settled results after the entries; a file of
// version 1 is still read.
const (
	tableMagic   = "magneton-prove-table v2\n"
	tableMagicV1 = "magneton-prove-table v1\n"
)

// settledSize is the bytes of a settled result on disk: its key and value.
const settledSize = 12

// save writes the table to path, headed by label (the game and rules it
// holds results of), through a temporary file so that an interrupted save
// leaves the previous file whole.
func (t *table) save(path, label string) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return fmt.Errorf("saving the table: %w", err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	err = writeTable(w, t, label)
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("saving the table to %s: %w", path, err)
	}
	return nil
}

// writeTable writes the header, the entries, and the settled results in
// the order of their keys (so that a table saved twice is the same file).
func writeTable(w io.Writer, t *table, label string) error {
	if _, err := fmt.Fprintf(w, "%s%s\n%d\n", tableMagic, label, len(t.entries)); err != nil {
		return err
	}
	var buf [entrySize]byte
	for _, e := range t.entries {
		binary.LittleEndian.PutUint64(buf[0:], e.key)
		binary.LittleEndian.PutUint32(buf[8:], e.phi)
		binary.LittleEndian.PutUint32(buf[12:], e.delta)
		binary.LittleEndian.PutUint32(buf[16:], e.work)
		binary.LittleEndian.PutUint32(buf[20:], e.plies)
		if _, err := w.Write(buf[:]); err != nil {
			return err
		}
	}
	if _, err := fmt.Fprintf(w, "%d\n", len(t.settled)); err != nil {
		return err
	}
	keys := slices.Sorted(maps.Keys(t.settled))
	for _, k := range keys {
		binary.LittleEndian.PutUint64(buf[0:], k)
		binary.LittleEndian.PutUint32(buf[8:], t.settled[k])
		if _, err := w.Write(buf[:settledSize]); err != nil {
			return err
		}
	}
	return nil
}

// errNoTable reports that a table file does not exist yet: a run that
// resumes starts afresh.
var errNoTable = errors.New("no table file")

// loadTable reads a table saved by save. The label must be the one it was
// saved with: a table of other rules would give wrong answers. The
// settled results of a version 1 file, which kept them in the buckets,
// move to the map.
func loadTable(path, label string) (*table, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, errNoTable
	}
	if err != nil {
		return nil, fmt.Errorf("loading the table: %w", err)
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<20)
	var magic, got string
	var n int
	if magic, err = r.ReadString('\n'); err != nil || magic != tableMagic && magic != tableMagicV1 {
		return nil, fmt.Errorf("loading the table %s: not a table file of this program", path)
	}
	if got, err = r.ReadString('\n'); err != nil || got != label+"\n" {
		return nil, fmt.Errorf("loading the table %s: it holds results of %q, not %q", path, trimNL(got), label)
	}
	if _, err := fmt.Fscanf(r, "%d\n", &n); err != nil || n < bucket || n&(n-1) != 0 || n > 1<<36/entrySize {
		return nil, fmt.Errorf("loading the table %s: a bad entry count", path)
	}
	t := newTableOf(uint64(n))
	var buf [entrySize]byte
	for i := range t.entries {
		if _, err := io.ReadFull(r, buf[:]); err != nil {
			return nil, fmt.Errorf("loading the table %s: entry %d of %d: %w", path, i, n, err)
		}
		e := &t.entries[i]
		e.key = binary.LittleEndian.Uint64(buf[0:])
		e.phi = binary.LittleEndian.Uint32(buf[8:])
		e.delta = binary.LittleEndian.Uint32(buf[12:])
		e.work = binary.LittleEndian.Uint32(buf[16:])
		e.plies = binary.LittleEndian.Uint32(buf[20:])
		if e.key == 0 {
			continue
		}
		t.stored++
		if magic == tableMagicV1 && e.isSettled() && len(t.settled) < t.settledCap {
			t.settled[e.key] = e.settledValue()
			*e = entry{}
		}
	}
	if magic == tableMagicV1 {
		return t, nil
	}
	var m int
	if _, err := fmt.Fscanf(r, "%d\n", &m); err != nil || m < 0 || m > 1<<36/settledSize {
		return nil, fmt.Errorf("loading the table %s: a bad count of settled results", path)
	}
	t.settledCap = max(t.settledCap, m)
	for i := range m {
		if _, err := io.ReadFull(r, buf[:settledSize]); err != nil {
			return nil, fmt.Errorf("loading the table %s: settled result %d of %d: %w", path, i, m, err)
		}
		k := binary.LittleEndian.Uint64(buf[0:])
		if k&1 == 0 {
			return nil, fmt.Errorf("loading the table %s: settled result %d of %d has a bad key", path, i, m)
		}
		t.settled[k] = binary.LittleEndian.Uint32(buf[8:])
	}
	t.stored += int64(m)
	return t, nil
}

func trimNL(s string) string {
	if n := len(s); n > 0 && s[n-1] == '\n' {
		return s[:n-1]
	}
	return s
}

// MiB returns the table's size in MiB: its buckets, the settled
// results' map aside (Settled counts those).
func (t *table) MiB() float64 { return float64(len(t.entries)*entrySize) / (1 << 20) }

// Settled returns how many settled results the map holds.
func (t *table) Settled() int { return len(t.settled) }
