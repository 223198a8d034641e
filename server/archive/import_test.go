package archive

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/gametest"
	"github.com/magneton-games/magneton/record"
	"github.com/magneton-games/magneton/store"
	"github.com/magneton-games/magneton/store/storetest"
	"github.com/magneton-games/magneton/tumbling"
)

// realBoardspace is the Boardspace record of the test data (a faithful
// reconstruction from Boardspace's sources: testdata/import/README.md).
const realBoardspace = "testdata/import/TD-kraken-Dumbot-2010-03-15-0142.sgf"

// boardspaceRules are Boardspace's rules of Tumbling Down.
func boardspaceRules(t testing.TB) tumbling.Rules {
	r, err := tumbling.Spec.Rules("boardspace")
	if err != nil {
		t.Fatal(err)
	}
	return r.(tumbling.Rules)
}

// randomFinished plays a random game of rules to its end (or resigns it
// after 200 plies) and returns it.
func randomFinished(t testing.TB, rng *rand.Rand, rules game.Rules) *game.Game {
	t.Helper()
	g := gametest.RandomGame(t, rules.Start(), rng, 200)
	if res, _ := g.Result(); !res.Over() {
		if err := g.End(g.Position().Side(), game.Resignation); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

// pgnRecordList writes n random finished games of every game as the
// site's records; day is each game's date.
func pgnRecordList(t testing.TB, seed uint64, n int, day time.Time) []string {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	var out []string
	for i := range n {
		gm := games.All()[i%len(games.All())]
		g := randomFinished(t, rng, gm.Spec.New(gm.Spec.Defaults()))
		tr := game.Transcript{Game: g, Players: [2]string{fmt.Sprintf("p%d", rng.IntN(50)), fmt.Sprintf("q%d", rng.IntN(50))}, Date: day}
		out = append(out, record.FromTranscript(tr).Format()+"\n")
	}
	return out
}

// pgnRecords is pgnRecordList's records one after the other, as a file.
func pgnRecords(t testing.TB, seed uint64, n int, day time.Time) string {
	return strings.Join(pgnRecordList(t, seed, n, day), "")
}

// boardspaceRecord writes a random finished game of Boardspace's rules as
// Boardspace does.
func boardspaceRecord(t testing.TB, rng *rand.Rand, day string) string {
	t.Helper()
	g := randomFinished(t, rng, boardspaceRules(t))
	res, why := g.Result()
	h := tumbling.SGFGame{Rules: boardspaceRules(t), Moves: g.Moves(), Red: fmt.Sprintf("r%d", rng.IntN(1000)), Black: "Dumbot", Date: day, Result: res.String()}
	if why == game.Resignation {
		h.Ending = "resignation"
	}
	text, err := tumbling.FormatBoardspace(h, "TD-"+h.Red+"-Dumbot-"+day+"-1200")
	if err != nil {
		t.Fatal(err)
	}
	return text
}

// zipOf packs files (name, content, in order) into a zip archive.
func zipOf(t testing.TB, files ...string) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for i := 0; i+1 < len(files); i += 2 {
		f, err := w.Create(files[i])
		if err != nil {
			t.Fatal(err)
		}
		f.Write([]byte(files[i+1]))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// importBytes imports one file's content.
func importBytes(t *testing.T, im *Importer, name string, data []byte) FileResult {
	t.Helper()
	res, err := im.ImportFile(context.Background(), name, bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatalf("import %s: %v", name, err)
	}
	return res
}

// archiveState is what an import may change: the archive's tables, as
// DumpArchive writes them, and the number of games.
func archiveState(t *testing.T, st store.Store) string {
	t.Helper()
	ctx := context.Background()
	c, err := st.ArchiveCounts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%+v\n", c)
	err = st.DumpArchive(ctx, func(table, row string) error {
		fmt.Fprintln(&b, table, row)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	found, _, err := st.SearchGames(ctx, store.GameSearch{Limit: 200})
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintln(&b, len(found), "games")
	return b.String()
}

// TestImportBoardspace imports the Boardspace record of the test data on
// both databases: one finished game from Boardspace, counted by the
// explorer under its source and no other, the archive matching a recount;
// the same file again is a duplicate naming the first game.
func TestImportBoardspace(t *testing.T) {
	data, err := os.ReadFile(realBoardspace)
	if err != nil {
		t.Fatal(err)
	}
	storetest.Each(t, func(t *testing.T, backend string) {
		ctx := context.Background()
		st := openArchive(t, backend)
		im := &Importer{Store: st}
		res := importBytes(t, im, "TD.sgf", data)
		if res.Refused != nil || res.Games != 1 || len(res.Duplicates) != 0 {
			t.Fatalf("import: %+v (refused: %v)", res, res.Refused)
		}
		found, _, err := st.SearchGames(ctx, store.GameSearch{Source: store.SourceBoardspace})
		if err != nil || len(found) != 1 {
			t.Fatalf("search: %+v, %v", found, err)
		}
		a := found[0]
		day := time.Date(2010, 3, 14, 0, 0, 0, 0, time.UTC).UnixMilli()
		if a.Result != "0-1" || a.Rated || a.Players != [2]string{"Dumbot", "kraken"} || a.Ended != day || a.Rules != boardspaceRules(t).Settings().String() {
			t.Errorf("the imported game: %+v", a)
		}
		row, err := st.Game(ctx, a.ID)
		if err != nil || row.Reason != "king captured" || row.Source != store.SourceBoardspace || row.Rated || !row.Public || row.Status != store.Finished {
			t.Errorf("its row: %+v, %v", row, err)
		}
		moves, err := st.Moves(ctx, a.ID)
		if err != nil || len(moves) != row.Moves || moves[0].Move != "g6-g5" {
			t.Errorf("its moves: %v, %v", moves, err)
		}

		// The explorer counts it at the start under its source only.
		start := boardspaceRules(t).Start()
		key := FrameOf(start).Key
		first := FrameOf(start).Move("g6-g5")
		for _, tc := range []struct {
			sources []string
			want    int
		}{{nil, 1}, {[]string{store.SourceBoardspace}, 1}, {[]string{store.SourceImport, store.SourceSite}, 0}} {
			got, err := st.ExplorerMoves(ctx, key, store.ExplorerFilter{Sources: tc.sources})
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, m := range got {
				if m.Move == first {
					n = m.Games
					if m.Wins != 1 {
						t.Errorf("Red's first move, whose side won: %+v", m)
					}
				}
			}
			if n != tc.want {
				t.Errorf("sources %v: %d games of %s at the start (%+v), want %d", tc.sources, n, first, got, tc.want)
			}
		}
		report, err := Verify(ctx, st, t.TempDir(), nil)
		if err != nil || !report.OK() || report.Games != 1 || len(report.Failed) != 0 {
			t.Errorf("verify after the import: %+v, %v", report, err)
		}

		// Again: a duplicate, naming the game imported first.
		before := archiveState(t, st)
		res = importBytes(t, im, "again.sgf", data)
		if res.Refused != nil || res.Games != 0 || len(res.Duplicates) != 1 || res.Duplicates[0].Earlier != a.ID ||
			res.Duplicates[0].Place != (Place{File: "again.sgf", Record: 1, Line: 1}) {
			t.Errorf("again: %+v (refused %v)", res, res.Refused)
		}
		if after := archiveState(t, st); after != before {
			t.Errorf("a duplicate changed the archive:\n%s\nto\n%s", before, after)
		}
	})
}

// TestImportFiles imports files of many records: the site's records of
// every game, an SGF collection, a month's zip of Boardspace records, a
// file holding one record twice.
func TestImportFiles(t *testing.T) {
	storetest.Each(t, func(t *testing.T, backend string) {
		ctx := context.Background()
		st := openArchive(t, backend)
		imports := 0
		im := &Importer{Store: st, ImportedBy: "u1", Now: func() time.Time { return time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC) },
			Progress: func() { imports++ }}
		day := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
		list := pgnRecordList(t, 1, 12, day)
		pgn := strings.Join(list, "")
		if res := importBytes(t, im, "site.pgn", []byte(pgn)); res.Refused != nil || res.Games != 12 || len(res.Duplicates) != 0 {
			t.Fatalf("site.pgn: %+v, refused %v", res, res.Refused)
		}
		rng := rand.New(rand.NewPCG(2, 3))
		var sgf strings.Builder
		for range 5 {
			g := randomFinished(t, rng, tumbling.Rules{})
			res, why := g.Result()
			h := tumbling.SGFGame{Moves: g.Moves(), Black: "ann", Red: "bob", Result: res.String()}
			if why == game.Resignation {
				h.Ending = "resignation"
			}
			sgf.WriteString(tumbling.FormatSGF(h))
		}
		if res := importBytes(t, im, "five.sgf", []byte(sgf.String())); res.Refused != nil || res.Games != 5 {
			t.Fatalf("five.sgf: %+v, refused %v", res, res.Refused)
		}
		month := zipOf(t, "archive-2012/", "",
			"TD-1.sgf", boardspaceRecord(t, rng, "2012-05-01"),
			"TD-2.sgf", boardspaceRecord(t, rng, "2012-05-02"),
			"__MACOSX/._TD-1.sgf", "\x00\x05junk",
			"TD-3.sgf", boardspaceRecord(t, rng, "2012-05-03"))
		if res := importBytes(t, im, "games-May-2012.zip", month); res.Refused != nil || res.Games != 3 {
			t.Fatalf("the zip: %+v, refused %v", res, res.Refused)
		}
		// The first record of site.pgn twice, then a new one.
		twice := list[0] + list[0] + pgnRecords(t, 9, 1, day)
		res := importBytes(t, im, "twice.pgn", []byte(twice))
		if res.Refused != nil || res.Games != 1 || len(res.Duplicates) != 2 || res.Duplicates[1].Record != 2 || res.Duplicates[0].Record != 1 {
			t.Fatalf("twice.pgn: %+v, refused %v", res, res.Refused)
		}
		if res.Duplicates[0].Earlier != res.Duplicates[1].Earlier {
			t.Errorf("the same record twice: earlier games %v", res.Duplicates)
		}
		if imports != 12+5+3+3 {
			t.Errorf("progress told of %d records, want %d", imports, 12+5+3+3)
		}
		for src, want := range map[string]int{store.SourceImport: 18, store.SourceBoardspace: 3, store.SourceSite: 0} {
			found, _, err := st.SearchGames(ctx, store.GameSearch{Source: src, Limit: 200})
			if err != nil || len(found) != want {
				t.Errorf("source %s: %d games, %v; want %d", src, len(found), err, want)
			}
		}
		found, _, _ := st.SearchGames(ctx, store.GameSearch{Source: store.SourceImport, Game: "tumbling-down", Player: "ann"})
		for _, a := range found {
			if a.Ended != time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC).UnixMilli() {
				t.Errorf("a record without a date dated %d, want the import's time", a.Ended)
			}
		}
		report, err := Verify(ctx, st, t.TempDir(), nil)
		if err != nil || !report.OK() || report.Games != 21 {
			t.Errorf("verify: %+v, %v", report, err)
		}
	})
}

// TestImportRefused: mangled files are each refused with the place and
// the reason, and leave the database as it was, on both databases.
func TestImportRefused(t *testing.T) {
	real, err := os.ReadFile(realBoardspace)
	if err != nil {
		t.Fatal(err)
	}
	bs := string(real)
	day := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	list := pgnRecordList(t, 4, 3, day)
	pgn := strings.Join(list, "")
	rng := rand.New(rand.NewPCG(5, 6))
	good := boardspaceRecord(t, rng, "2012-05-01")
	// lineOf is the line of the first line of text holding s.
	lineOf := func(text, s string) int { return 1 + strings.Count(text[:strings.Index(text, s)], "\n") }
	truncated := bs[:strings.Index(bs, "; P0[21 ")]
	lines := func(text string) int { return 1 + strings.Count(text, "\n") }
	illegal := strings.Replace(bs, "; P1[4 Move B 1 C 1]", "; P1[4 Move G 6 G 5]", 1)
	wrongGame := strings.NewReplacer("GM[Tumblingdown]", "GM[Hive]", "SU[tumblingdown]", "SU[hive]").Replace(bs)
	noResult := strings.Replace(bs[:strings.Index(bs, "; P0[11 ")]+")", "RE[Game won by kraken]\n", "", 1)
	badDT := strings.NewReplacer("DT[Sun Mar 14 18:42:07 PDT 2010]", "DT[the ides of March]", "GN[TD-kraken-Dumbot-2010-03-15-0142]", "GN[a game]").Replace(bs)
	badPGNDate := strings.Replace(pgn, "2026.11.30", "2026.13.45", 1)
	junk := good + "\nthis is not SGF\n" + good
	unfinished := game.NewGame(tumbling.Rules{}.Start())
	unfinished.Play("a8-a7")
	unfinishedPGN := record.FromTranscript(game.Transcript{Game: unfinished, Players: [2]string{"a", "b"}}).Format()
	type refusedCase struct {
		name   string
		data   []byte
		place  Place
		reason string
	}
	cases := []refusedCase{
		{"truncated", []byte(truncated), Place{Record: 1, Line: lines(truncated)}, "the record ends inside a game tree (missing ')')"},
		{"truncated in a value", []byte(bs[:strings.Index(bs, "Pickb G 8 0")]), Place{Record: 1, Line: lineOf(bs, "Pickb G 8 0")}, "the record ends inside a property value (missing ']')"},
		{"wrong game", []byte(wrongGame), Place{Record: 1, Line: 1}, "GM[Hive] is not Tumbling Down"},
		{"wrong game (Go)", []byte("(;FF[4]GM[1]SZ[19];B[pd];W[dp])"), Place{Record: 1, Line: 1}, "GM[1] is not Tumbling Down"},
		{"illegal move", []byte(illegal), Place{Record: 1, Line: lineOf(illegal, "; P1[5 Done")}, "g6-g5: g6 is empty"},
		{"illegal move (site's record)", []byte(strings.Replace(pgn, "\n\n1. ", "\n\n1. z9 ", 1)), Place{Record: 1, Line: 1}, "move 1"},
		{"bad date", []byte(badDT), Place{Record: 1, Line: 1}, "DT[the ides of March] is not a date"},
		{"bad date (site's record)", []byte(badPGNDate), Place{Record: 1, Line: 1}, `tag Date "2026.13.45" is not a date`},
		{"no result", []byte(noResult), Place{Record: 1, Line: 1}, "the game has no result"},
		{"no result (site's record)", []byte(unfinishedPGN), Place{Record: 1, Line: 1}, "the game has no result"},
		{"binary garbage", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), Place{}, "binary data"},
		{"text that is no record", []byte("Dear all,\nhere are my games.\n"), Place{}, `not a game record: it begins "Dear all,"`},
		{"empty", nil, Place{}, "no game record in it (it is empty)"},
		{"a bad third record", []byte(list[0] + list[1] + strings.Replace(list[2], "[Game \"", "[Game \"chess-", 1)),
			Place{Record: 3, Line: 1 + strings.Count(list[0]+list[1], "\n")}, "tag Game"},
		{"junk between game trees", []byte(junk), Place{Record: 2, Line: lineOf(junk, "this is not")}, "unexpected 't' after a game tree"},
		{"a zip with a bad member", zipOf(t, "TD-1.sgf", good, "TD-2.sgf", truncated), Place{Member: "TD-2.sgf", Record: 1, Line: lines(truncated)}, "missing ')'"},
		{"a zip with a binary member", zipOf(t, "TD-1.sgf", good, "notes.doc", "\xd0\xcf\x11\xe0\x00"), Place{Member: "notes.doc"}, "binary data"},
		{"a zip in a zip", zipOf(t, "TD-1.sgf", good, "more.zip", string(zipOf(t, "x.sgf", good))), Place{Member: "more.zip"}, "a zip archive inside the zip archive"},
		{"an empty zip", zipOf(t), Place{}, "the zip archive holds no file"},
		{"a broken zip", zipOf(t, "TD-1.sgf", good)[:40], Place{}, "not a zip archive that can be read"},
	}
	storetest.Each(t, func(t *testing.T, backend string) {
		st := openArchive(t, backend)
		im := &Importer{Store: st}
		// Something in the database already, which must stay.
		if res := importBytes(t, im, "before.pgn", []byte(pgnRecords(t, 8, 2, day))); res.Games != 2 {
			t.Fatalf("the first import: %+v", res)
		}
		before := archiveState(t, st)
		for _, tc := range cases {
			res := importBytes(t, im, tc.name, tc.data)
			tc.place.File = tc.name
			if res.Refused == nil || res.Games != 0 {
				t.Errorf("%s: imported %+v, want it refused at %s: ...%s", tc.name, res, tc.place, tc.reason)
				continue
			}
			if res.Refused.Place != tc.place || !strings.Contains(res.Refused.Reason, tc.reason) {
				t.Errorf("%s: refused: %v\nwant at %s: ...%s", tc.name, res.Refused, tc.place, tc.reason)
			}
			if after := archiveState(t, st); after != before {
				t.Fatalf("%s: a refused file changed the database:\n%s\nto\n%s", tc.name, before, after)
			}
		}
	})
}

// TestImportBounds: a file that unpacks to more than the bound, or holds
// more records, is refused.
func TestImportBounds(t *testing.T) {
	st := openArchive(t, "sqlite")
	big := zipOf(t, "a.pgn", pgnRecords(t, 3, 40, time.Time{}))
	im := &Importer{Store: st, MaxBytes: 4096}
	res := importBytes(t, im, "big.zip", big)
	if res.Refused == nil || !strings.Contains(res.Refused.Reason, "unpacks to more than 4096 bytes") {
		t.Errorf("got %+v, refused %v", res, res.Refused)
	}
	im.MaxBytes, im.MaxRecords = 0, 39
	res = importBytes(t, im, "big.zip", big)
	if res.Refused == nil || res.Refused.Record != 40 || res.Refused.Member != "a.pgn" || !strings.Contains(res.Refused.Reason, "more than 39 records in one file") {
		t.Errorf("40 records, 39 at most: %+v, refused %v", res, res.Refused)
	}
	im.MaxRecords = 40
	if res := importBytes(t, im, "big.zip", big); res.Games != 40 {
		t.Errorf("within the bounds: %+v, refused %v", res, res.Refused)
	}
}

// TestRecordKey: the key changes with each thing that tells records
// apart, and with nothing else.
func TestRecordKey(t *testing.T) {
	base := []string{"g", "r", "s", "a b", "p", "q", "2026-01-02"}
	key := func(f []string) string {
		return RecordKey(f[0], f[1], f[2], strings.Fields(f[3]), [2]string{f[4], f[5]}, f[6])
	}
	seen := map[string]int{key(base): -1}
	for i := range base {
		f := slices.Clone(base)
		f[i] += "x"
		k := key(f)
		if j, ok := seen[k]; ok {
			t.Errorf("changing field %d gives the key of %d", i, j)
		}
		seen[k] = i
	}
	if key(base) != key(slices.Clone(base)) {
		t.Error("the key is not a function of the record")
	}
}

// FuzzReadRecords feeds arbitrary files to the import's reader, without a
// database: it must never panic, every record it reads must be a part of
// the file (zip archives aside) at the line it names, and each record must
// convert or be refused with a place in the file.
func FuzzReadRecords(f *testing.F) {
	real, err := os.ReadFile(realBoardspace)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(real)
	f.Add([]byte(pgnRecords(f, 1, 3, time.Time{})))
	f.Add([]byte("(;GM[33];B[a8-a7])\n(;GM[33]RE[B+R])(;"))
	f.Add([]byte("[Game \"tumbling-down\"]\n\n1. a8-a7 *\n[Game \"x\"]\n"))
	f.Add(zipOf(f, "a.sgf", "(;GM[33])", "b.pgn", "[Game \"magneton\"]\n1-0"))
	f.Add([]byte("\xef\xbb\xbf  \n(;C[a\\]b]P0[id \"x\"])"))
	f.Fuzz(func(t *testing.T, data []byte) {
		im := &Importer{MaxBytes: 1 << 20}
		now := time.Unix(1e9, 0)
		text := string(data)
		lines := 1 + strings.Count(text, "\n")
		zipped := bytes.HasPrefix(data, []byte("PK"))
		for raw, err := range im.records("f", bytes.NewReader(data), int64(len(data))) {
			if err != nil {
				if _, ok := err.(*RecordError); !ok {
					t.Fatalf("not a RecordError: %v", err)
				}
				break
			}
			if !zipped {
				if !strings.Contains(text, raw.Text) || raw.Line < 1 || raw.Line > lines {
					t.Fatalf("record %+v is not in the file at its line", raw.Place)
				}
			}
			if _, err := im.convert(raw, now); err != nil {
				re, ok := err.(*RecordError)
				if !ok || re.File != "f" || re.Record != raw.Record {
					t.Fatalf("record %+v: %v", raw.Place, err)
				}
			}
		}
	})
}

// TestImportGames: the store's ImportGames stores all or nothing, and a
// record imported before fails it with ErrDuplicateRecord naming it.
func TestImportGames(t *testing.T) {
	storetest.Each(t, func(t *testing.T, backend string) {
		ctx := context.Background()
		st := openArchive(t, backend)
		im := &Importer{Store: st}
		var imports []store.ArchiveImport
		for i, text := range pgnRecordList(t, 11, 3, time.Time{}) {
			a, err := im.convert(rawRecord{Place: Place{File: "f", Record: i + 1, Line: 1}, Kind: kindPGN, Text: text}, time.Unix(1e9, 0))
			if err != nil {
				t.Fatal(err)
			}
			imports = append(imports, *a)
		}
		if err := st.ImportGames(ctx, imports[:2]); err != nil {
			t.Fatal(err)
		}
		again := *imports[0].Game
		again.ID = "another-id-0001"
		err := st.ImportGames(ctx, []store.ArchiveImport{imports[2], {Game: &again, Moves: imports[0].Moves, RecordKey: imports[0].RecordKey}})
		var ie *store.ImportError
		if !errors.Is(err, store.ErrDuplicateRecord) || !errors.As(err, &ie) || ie.Index != 1 {
			t.Errorf("a record imported before: %v", err)
		}
		if c, err := st.ArchiveCounts(ctx); err != nil || c.Games != 2 {
			t.Errorf("after a refused import: %+v, %v; want the 2 games of the first", c, err)
		}
	})
}
