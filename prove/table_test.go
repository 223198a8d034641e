package prove

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestSettledNeverReplaced: a settled result survives any amount of later
// work in its bucket, while unsettled entries are replaced by the least
// work; an unsettled entry of a key that becomes settled is gone from the
// bucket; past the map's room, settled results share the buckets again.
func TestSettledNeverReplaced(t *testing.T) {
	tt := newTableOf(bucket) // one bucket: every key collides
	tt.put(entry{key: 10, phi: 3, delta: 5, work: 1})
	tt.put(entry{key: 10, phi: 0, delta: inf, plies: 7, work: 1})
	tt.put(entry{key: 20, phi: inf, delta: 0, plies: 4, work: 1})
	for k := uint64(100); k < 200; k += 2 {
		tt.put(entry{key: k, phi: 2, delta: 2, work: uint32(k)})
	}
	for _, c := range []struct {
		key        uint64
		phi, delta uint32
		plies      uint32
	}{{10, 0, inf, 7}, {20, inf, 0, 4}} {
		e, ok := tt.get(c.key)
		if !ok || e.phi != c.phi || e.delta != c.delta || e.plies != c.plies {
			t.Errorf("key %d after 50 later entries: got %+v (found %v), want phi %d delta %d plies %d", c.key, e, ok, c.phi, c.delta, c.plies)
		}
	}
	for _, e := range tt.slot(11) {
		if e.key == 11 {
			t.Errorf("the bucket still holds key 10's unsettled numbers: %+v", e)
		}
	}
	if e, ok := tt.get(198 | 1); !ok || e.work != 198 {
		t.Errorf("the most recent, most worked entry was replaced: %+v %v", e, ok)
	}
	if _, ok := tt.get(100 | 1); ok {
		t.Errorf("the least worked unsettled entry was kept over later ones")
	}

	full := newTableOf(bucket)
	full.settledCap = 1
	full.put(entry{key: 2, phi: 0, delta: inf, plies: 1})
	full.put(entry{key: 4, phi: 0, delta: inf, plies: 3})
	if full.Settled() != 1 {
		t.Fatalf("the map holds %d settled results past its room of 1", full.Settled())
	}
	if e, ok := full.get(4); !ok || e.phi != 0 || e.plies != 3 {
		t.Errorf("a settled result past the map's room was not kept in the buckets: %+v %v", e, ok)
	}
}

// TestTableFile: a table saved and loaded again holds the same entries
// and settled results, saving is deterministic, a version 1 file (settled
// results in the buckets) loads with them moved to the map, and a cut or
// damaged file is refused with a message saying what is wrong.
func TestTableFile(t *testing.T) {
	dir := t.TempDir()
	tt := sampleTable()
	path := filepath.Join(dir, "a.table")
	if err := tt.save(path, "game x"); err != nil {
		t.Fatal(err)
	}
	saved, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("round trip", func(t *testing.T) { checkTableRoundTrip(t, tt, path) })
	t.Run("version 1", func(t *testing.T) { checkTableVersion1(t, filepath.Join(dir, "v1.table")) })
	t.Run("damaged", func(t *testing.T) { checkTableDamaged(t, saved, filepath.Join(dir, "cut.table")) })
}

// sampleTable is a table of 64 buckets holding entries of every kind: won
// and lost (settled, kept apart) and open ones.
func sampleTable() *table {
	tt := newTableOf(64)
	for k := uint64(1); k < 200; k += 2 {
		switch k % 6 {
		case 1:
			tt.put(entry{key: k, phi: 0, delta: inf, plies: uint32(k % 13)})
		case 3:
			tt.put(entry{key: k, phi: inf, delta: 0, plies: uint32(k % 11)})
		default:
			tt.put(entry{key: k, phi: uint32(k % 7), delta: uint32(k%5 + 1), work: uint32(k)})
		}
	}
	return tt
}

// checkTableRoundTrip checks that tt, saved at path for the rules "game
// x", loads again the same, saves again to the same bytes, and is refused
// for other rules.
func checkTableRoundTrip(t *testing.T, tt *table, path string) {
	got, err := loadTable(path, "game x")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(tt.entries, got.entries) {
		t.Errorf("entries after loading differ:\nsaved  %v\nloaded %v", tt.entries, got.entries)
	}
	if !maps.Equal(tt.settled, got.settled) || len(got.settled) == 0 {
		t.Errorf("settled results after loading differ:\nsaved  %v\nloaded %v", tt.settled, got.settled)
	}
	held := int64(len(tt.settled))
	for _, e := range tt.entries {
		if e.key != 0 {
			held++
		}
	}
	if got.stored != held {
		t.Errorf("stored %d after loading, %d held when saved", got.stored, held)
	}
	again := filepath.Join(filepath.Dir(path), "b.table")
	if err := got.save(again, "game x"); err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(path)
	b, _ := os.ReadFile(again)
	if string(a) != string(b) {
		t.Errorf("the same table saved twice gave different files")
	}
	if _, err := loadTable(path, "game y"); err == nil || !strings.Contains(err.Error(), `"game x"`) {
		t.Errorf("a table of other rules: got %v, want a refusal naming its rules", err)
	}
}

// checkTableVersion1 writes a version 1 file at path (the same header, the
// entries with the settled ones among them, nothing after) and checks
// that it loads with the settled entries moved to the map.
func checkTableVersion1(t *testing.T, path string) {
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	fmt.Fprintf(w, "%sgame x\n%d\n", tableMagicV1, bucket)
	old := []entry{{key: 3, phi: 0, delta: inf, plies: 5}, {key: 5, phi: 4, delta: 2, work: 9}, {}, {key: 7, phi: inf, delta: 0, plies: 2}}
	var buf [entrySize]byte
	for _, e := range old {
		binary.LittleEndian.PutUint64(buf[0:], e.key)
		binary.LittleEndian.PutUint32(buf[8:], e.phi)
		binary.LittleEndian.PutUint32(buf[12:], e.delta)
		binary.LittleEndian.PutUint32(buf[16:], e.work)
		binary.LittleEndian.PutUint32(buf[20:], e.plies)
		w.Write(buf[:])
	}
	w.Flush()
	f.Close()
	got, err := loadTable(path, "game x")
	if err != nil {
		t.Fatalf("a version 1 table: %v", err)
	}
	for _, e := range old {
		if e.key == 0 {
			continue
		}
		g, ok := got.get(e.key)
		if !ok || g.phi != e.phi || g.delta != e.delta || g.plies != e.plies {
			t.Errorf("version 1 entry %+v: loaded %+v (found %v)", e, g, ok)
		}
	}
	if got.Settled() != 2 || got.stored != 3 {
		t.Errorf("version 1 table: %d settled (want 2), %d stored (want 3)", got.Settled(), got.stored)
	}
}

// checkTableDamaged writes at path the file a (a saved table of 64
// buckets for "game x") cut short, then with a settled count that is not a
// number, and checks that each is refused with what is wrong.
func checkTableDamaged(t *testing.T, a []byte, path string) {
	os.WriteFile(path, a[:len(a)-5], 0o644)
	if _, err := loadTable(path, "game x"); err == nil || !strings.Contains(err.Error(), "settled result") {
		t.Errorf("a table cut in its settled results: got %v", err)
	}
	entriesEnd := strings.Index(string(a), "game x\n64\n") + len("game x\n64\n") + 64*entrySize
	bad := append(append([]byte{}, a[:entriesEnd]...), "many\n"...)
	os.WriteFile(path, bad, 0o644)
	if _, err := loadTable(path, "game x"); err == nil || !strings.Contains(err.Error(), "count of settled results") {
		t.Errorf("a table with a bad settled count: got %v", err)
	}
}
