package prove

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
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

// table is the transposition table: a power-of-two number of buckets.
type table struct {
	entries []entry
	mask    uint64 // bucket index mask
	stored  int64  // entries written, for the progress display
}

// newTable makes a table of about mib MiB (at least one bucket).
func newTable(mib int) *table {
	n := uint64(1)
	for n*2*bucket*entrySize <= uint64(mib)<<20 {
		n *= 2
	}
	return &table{entries: make([]entry, n*bucket), mask: n - 1}
}

// slot returns the bucket of key.
func (t *table) slot(key uint64) []entry {
	i := (key & t.mask) * bucket
	return t.entries[i : i+bucket]
}

// get returns key's entry, if stored.
func (t *table) get(key uint64) (entry, bool) {
	key |= 1 // 0 marks an empty entry
	for _, e := range t.slot(key) {
		if e.key == key {
			return e, true
		}
	}
	return entry{}, false
}

// put stores e, over the entry of the same key or else the one with the
// least work: df-pn's usual "small tree" replacement, which keeps the
// results that cost most to find again.
func (t *table) put(e entry) {
	e.key |= 1
	b := t.slot(e.key)
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
const tableMagic = "magneton-prove-table v1\n"

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
	return nil
}

// errNoTable reports that a table file does not exist yet: a run that
// resumes starts afresh.
var errNoTable = errors.New("no table file")

// loadTable reads a table saved by save. The label must be the one it was
// saved with: a table of other rules would give wrong answers.
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
	if magic, err = r.ReadString('\n'); err != nil || magic != tableMagic {
		return nil, fmt.Errorf("loading the table %s: not a table file of this program", path)
	}
	if got, err = r.ReadString('\n'); err != nil || got != label+"\n" {
		return nil, fmt.Errorf("loading the table %s: it holds results of %q, not %q", path, trimNL(got), label)
	}
	if _, err := fmt.Fscanf(r, "%d\n", &n); err != nil || n < bucket || n&(n-1) != 0 || n > 1<<36/entrySize {
		return nil, fmt.Errorf("loading the table %s: a bad entry count", path)
	}
	t := &table{entries: make([]entry, n), mask: uint64(n/bucket - 1)}
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
		if e.key != 0 {
			t.stored++
		}
	}
	return t, nil
}

func trimNL(s string) string {
	if n := len(s); n > 0 && s[n-1] == '\n' {
		return s[:n-1]
	}
	return s
}

// MiB returns the table's size in MiB.
func (t *table) MiB() float64 { return float64(len(t.entries)*entrySize) / (1 << 20) }
