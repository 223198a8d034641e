package record_test

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/gametest"
	"github.com/magneton-games/magneton/record"
)

func TestRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for _, gm := range games.All() {
		sp := gm.Spec
		for i := range 20 {
			g := gametest.RandomGame(t, sp.New(sp.Defaults()).Start(), rng, rng.IntN(300))
			rec := record.FromGame(g, [2]string{"Ann \"the Bold\"", `C:\bots\x`}, time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC))
			if i%3 == 0 && len(rec.Moves) > 2 {
				rec.Moves[1].Comment = "a comment"
				rec.Comment = "before the first move"
			}
			text := rec.Format()
			back, err := record.Parse(text)
			if err != nil {
				t.Fatalf("%s game %d: %v\n%s", sp.Name, i, err, text)
			}
			if again := back.Format(); again != text {
				t.Fatalf("%s game %d: Format(Parse(text)) differs:\n%s\n---\n%s", sp.Name, i, text, again)
			}
			replayed, err := back.Replay()
			if err != nil {
				t.Fatalf("%s game %d: replay: %v\n%s", sp.Name, i, err, text)
			}
			r1, why1 := g.Result()
			r2, why2 := replayed.Result()
			if r1 != r2 || why1 != why2 || replayed.Position().String() != g.Position().String() {
				t.Fatalf("%s game %d: replay ends %s %s at %s, game ended %s %s at %s", sp.Name, i, r2, why2, replayed.Position(), r1, why1, g.Position())
			}
			if back.Tag(sp.SideNames[0]) != "Ann \"the Bold\"" {
				t.Fatalf("player name did not survive: %q", back.Tag(sp.SideNames[0]))
			}
		}
	}
}

func TestSetUpPositionAndNumbering(t *testing.T) {
	text := `[Game "magneton"]
[Rules "force=weak"]
[Position "8/8/8/8/3B4/8/8/8 b 12 11"]
[Result "*"]

1... e5 2. a1 {hm} 2... h8 *
`
	rec, g := replay(t, text)
	if got := strings.Join(g.Moves(), " "); got != "e5 a1 h8" {
		t.Errorf("moves %q", got)
	}
	if rec.Moves[1].Comment != "hm" {
		t.Errorf("comment %q", rec.Moves[1].Comment)
	}
	if got := g.Rules().Settings()["force"]; got != "weak" {
		t.Errorf("rules: force=%s", got)
	}
	if got := rec.Format(); got != text {
		t.Errorf("format:\n%s\nwant\n%s", got, text)
	}
}

func TestResignationAndErrors(t *testing.T) {
	resigned := "[Game \"magneton\"]\n[Result \"0-1\"]\n[Termination \"resignation\"]\n\n1. d4 0-1\n"
	_, g := replay(t, resigned)
	if res, why := g.Result(); res != game.SecondWins || why != game.Resignation {
		t.Errorf("result %s %s", res, why)
	}

	for _, tc := range []struct{ text, want string }{
		{"", "no game record"},
		{"1. d4 *", "line 1: expected a tag"},
		{"[Result \"*\"]\n\n*", "no Game tag"},
		{"[Game \"chess\"]\n\n*", "unknown game \"chess\""},
		{"[Game \"magneton\"]\n[Rules \"win=sometimes\"]\n\n*", "tag Rules: Magneton: rule option win cannot be \"sometimes\""},
		{"[Game \"magneton\"]\n\n1. d4 d4 *", "move 2 (1..., Black): d4: d4 is not empty"},
		{"[Game \"magneton\"]\n\n1. d4 e5", "line 3: the moves end without a result"},
		{"[Game \"magneton\"]\n\n1. d4 {oops", "line 3: comment opened with { is never closed"},
		{"[Game \"magneton\"]\n[Result \"1-0\"]\n\n1. d4 0-1", "the moves end with 0-1 but the Result tag says 1-0"},
		{"[Game \"magneton\"]\n[Result \"1-0\"]\n\n1. d4 1-0", "the game is not over"},
		{"[Game \"magneton\"]\n[Game \"magneton\"]\n\n*", "line 2: tag Game appears twice"},
		{"[Game \"magneton]\n\n*", "line 1: tag Game: value has no closing quote"},
		{"[Game \"magneton\"]\n\n1.. d4 *", "\"1..\" is not a move number"},
		{"[Game \"magneton\"]\n[Position \"8/8 w 1 1\"]\n\n*", "tag Position: position"},
	} {
		rec, err := record.Parse(tc.text)
		if err == nil {
			_, err = rec.Replay()
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want one containing %q", tc.text, err, tc.want)
		}
	}
}

func TestParseAll(t *testing.T) {
	one := "[Game \"magneton\"]\n[Result \"*\"]\n\n1. d4 *\n"
	two := "[Game \"tumbling-down\"]\n[Result \"*\"]\n\n1. e8-f7 *\n"
	recs, err := record.ParseAll(one + "\n" + two)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 || recs[1].Tag("Game") != "tumbling-down" {
		t.Fatalf("got %d records", len(recs))
	}
	if _, err := recs[1].Replay(); err != nil {
		t.Fatal(err)
	}
}

func FuzzParse(f *testing.F) {
	f.Add("[Game \"magneton\"]\n[Result \"*\"]\n\n1. d4 {c} e5 2. a1 *\n")
	f.Add("[Game \"tumbling-down\"]\n[Rules \"boardspace\"]\n[Result \"*\"]\n\n1. c4-c5 *\n")
	f.Add("[Game \"magneton\"]\n[Position \"8/8/8/8/3B4/8/8/8 b 12 11\"]\n\n1... e5 *")
	f.Add("[A \"\\\"\\\\\"]\n{x}\n*")
	f.Fuzz(func(t *testing.T, text string) {
		recs, err := record.ParseAll(text)
		if err != nil {
			return
		}
		for _, rec := range recs {
			// What parses formats to text that parses to the same text again.
			out := rec.Format()
			back, err := record.Parse(out)
			if err != nil {
				t.Fatalf("%q formats as %q, which does not parse: %v", text, out, err)
			}
			if again := back.Format(); again != out {
				t.Fatalf("format is not stable: %q then %q", out, again)
			}
			_, _ = rec.Replay()
		}
	})
}

// TestParseEach: a file with bad records reports each, with its number
// and line, and reads the good ones around them.
func TestParseEach(t *testing.T) {
	good := "[Game \"magneton\"]\n[Result \"*\"]\n\n1. d4 e5 *\n"
	text := good + "\n" +
		"[Game \"magneton\"]\n[Result \"*\"\n\n1. d4 *\n" + "\n" + // 2: a tag without its ]
		good + "\n" +
		"[Game \"magneton\"]\n[Result \"*\"]\n\n1. d4 e5 2. c3\n" + // 4: no result, the next game's tags follow
		"[Game \"tumbling-down\"]\n[Result \"*\"]\n\n1. a4-a3 *\n" + "\n" +
		"[Game \"magneton\"]\n\n1. d4 {never closed\n" // 6: a comment to the end
	entries := record.ParseEach(text)
	type want struct {
		line int
		bad  string // in the error; "" for a good record
	}
	wants := []want{{1, ""}, {6, "line 7: tag Result: expected ] after the value"}, {11, ""}, {16, "line 20: a tag after the moves began"}, {20, ""}, {25, "line 27: comment opened with { is never closed"}}
	if len(entries) != len(wants) {
		t.Fatalf("%d entries, want %d: %+v", len(entries), len(wants), entries)
	}
	for i, e := range entries {
		w := wants[i]
		if e.N != i+1 || e.Line != w.line {
			t.Errorf("entry %d: number %d line %d, want %d line %d", i, e.N, e.Line, i+1, w.line)
		}
		switch {
		case w.bad == "" && (e.Err != nil || e.Record == nil):
			t.Errorf("game %d: %v", e.N, e.Err)
		case w.bad != "" && (e.Err == nil || !strings.Contains(e.Err.Error(), w.bad)):
			t.Errorf("game %d: error %v, want %q", e.N, e.Err, w.bad)
		}
	}
	if g := entries[4].Record; g == nil || g.Tag("Game") != "tumbling-down" {
		t.Errorf("game 5 is not the Tumbling Down game: %+v", g)
	}
}

// FuzzParseEach: ParseEach ends on any input, numbers its entries in
// order with lines that go forward, and agrees with ParseAll on the files
// ParseAll reads.
func FuzzParseEach(f *testing.F) {
	f.Add("[Game \"magneton\"]\n[Result \"*\"]\n\n1. d4 {c} e5 2. a1 *\n")
	f.Add("[Game \"magneton\"]\n[Result \"*\"\n\n1. d4 *\n\n[Game \"magneton\"]\n\n1. d4 *\n")
	f.Add("[Game \"magneton\"]\n1. d4\n[Game \"magneton\"]\n*\n[x\n[")
	f.Add("{\n[\n}\n[Game \"a\"] *")
	f.Fuzz(func(t *testing.T, text string) {
		entries := record.ParseEach(text)
		line := 0
		for i, e := range entries {
			if e.N != i+1 || e.Line < line || (e.Record == nil) == (e.Err == nil) {
				t.Fatalf("%q: entry %d: %+v", text, i, e)
			}
			line = e.Line
		}
		recs, err := record.ParseAll(text)
		if err != nil {
			return
		}
		if len(recs) != len(entries) {
			t.Fatalf("%q: ParseAll reads %d records, ParseEach %d", text, len(recs), len(entries))
		}
		for i, r := range recs {
			if entries[i].Err != nil || entries[i].Record.Format() != r.Format() {
				t.Fatalf("%q: record %d differs: %v", text, i+1, entries[i].Err)
			}
		}
	})
}

func TestWrap(t *testing.T) {
	for _, tc := range []struct {
		tokens []string
		width  int
		want   string
	}{
		{nil, 10, ""},
		{[]string{"1.", "d4"}, 10, "1. d4"},
		{[]string{"aaaa", "bbbb", "cc"}, 9, "aaaa bbbb\ncc"},   // exactly full
		{[]string{"aaaa", "bbbbb", "cc"}, 9, "aaaa\nbbbbb cc"}, // one over
		{[]string{"toolongtoken", "x"}, 5, "toolongtoken\nx"},  // a long token alone
		{[]string{"a", "toolongtoken", "b"}, 5, "a\ntoolongtoken\nb"},
	} {
		if got := record.Wrap(tc.tokens, tc.width); got != tc.want {
			t.Errorf("Wrap(%q, %d) = %q, want %q", tc.tokens, tc.width, got, tc.want)
		}
	}
}

// replay parses a record and replays its game, failing the test on an
// error.
func replay(t *testing.T, text string) (*record.Record, *game.Game) {
	t.Helper()
	rec, err := record.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	g, err := rec.Replay()
	if err != nil {
		t.Fatal(err)
	}
	return rec, g
}

// TestTranscriptTags: what a transcript adds (Event, Site, the ratings,
// TimeControl) is written in PGN's order and read back.
func TestTranscriptTags(t *testing.T) {
	sp := games.All()[0].Spec
	g := game.NewGame(sp.New(sp.Defaults()).Start())
	for _, tc := range []struct {
		name string
		elo  [2]string
		tags string
	}{
		{"rated", [2]string{"1510", "1490"}, `[WhiteElo "1510"]` + "\n" + `[BlackElo "1490"]`},
		{"casual", [2]string{}, `[WhiteElo "?"]` + "\n" + `[BlackElo "?"]`},
	} {
		in := game.Transcript{Game: g, Players: [2]string{"ann", "bob"}, Date: time.Date(2026, 12, 3, 0, 0, 0, 0, time.UTC),
			Event: "Rated Magneton game", Site: "https://play.example.org/g/x", TimeControl: "300+3", Elo: tc.elo}
		text, err := record.PGN.Write(in)
		if err != nil {
			t.Fatal(err)
		}
		head := `[Event "Rated Magneton game"]` + "\n" + `[Site "https://play.example.org/g/x"]` + "\n" + `[Date "2026.12.03"]` + "\n" +
			`[White "ann"]` + "\n" + `[Black "bob"]` + "\n" + `[Result "*"]` + "\n" + tc.tags + "\n" + `[TimeControl "300+3"]` + "\n" + `[Game "magneton"]`
		if !strings.HasPrefix(text, head) {
			t.Errorf("%s: the tags\n%s\nwant them to begin\n%s", tc.name, text, head)
		}
		back, err := record.PGN.Read(text)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if back.Event != in.Event || back.Site != in.Site || back.TimeControl != in.TimeControl || back.Elo != in.Elo {
			t.Errorf("%s: read back %+v, wrote %+v", tc.name, back, in)
		}
	}
}
