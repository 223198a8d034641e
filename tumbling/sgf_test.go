package tumbling

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// randomGame plays n random moves from the start of r (or fewer when the
// game ends) and returns them.
func randomGame(r Rules, start Position, n int, seed uint64) []string {
	rng := rand.New(rand.NewPCG(seed, 5))
	p := start
	var moves []string
	for range n {
		ms := p.AppendMoves(nil)
		if len(ms) == 0 {
			break
		}
		m := ms[rng.IntN(len(ms))]
		moves = append(moves, m.String())
		p = p.Play(m)
	}
	return moves
}

func TestSGFRoundTrip(t *testing.T) {
	mid := mustParse(t, Rules{}, midgame)
	for i, h := range []SGFGame{
		{Rules: Rules{}},
		{Rules: Rules{}, Moves: randomGame(Rules{}, Rules{}.StartPosition(), 300, 1), Black: "Ann [the first]", Red: `Bob \ Co`, Date: "2026-11-30", Result: "1-0"},
		{Rules: Rules{BoardspaceLayout: true, TumbleOnly: true}, Moves: randomGame(Rules{}, Rules{BoardspaceLayout: true, TumbleOnly: true}.StartPosition(), 40, 2), Result: "*"},
		{Rules: Rules{Capture: CapturePBEM, NoRepetition: true}, Start: midgame, Moves: randomGame(Rules{Capture: CapturePBEM}, mid, 25, 3), Result: "1/2-1/2", Red: "Red"},
		{Rules: Rules{}, Start: midgame, Moves: nil, Result: "0-1"},
		{Rules: Rules{}, Moves: randomGame(Rules{}, Rules{}.StartPosition(), 10, 7), Result: "0-1", Ending: "time forfeit"},
		{Rules: Rules{}, Moves: randomGame(Rules{}, Rules{}.StartPosition(), 11, 8), Result: "1-0", Ending: "resignation"},
	} {
		text := FormatSGF(h)
		back, err := ParseSGF(text)
		if err != nil {
			t.Fatalf("game %d: %v\n%s", i, err, text)
		}
		if !reflect.DeepEqual(back, h) {
			t.Errorf("game %d: %s\nreads back as %+v\nwant %+v", i, text, back, h)
		}
	}
}

func TestSGFFormat(t *testing.T) {
	h := SGFGame{Moves: []string{"a8-a7", "h1>h2"}, Black: "Ann", Red: "Bob", Date: "2026-11-30", Result: "0-1"}
	want := "(;FF[4]GM[33]CA[UTF-8]AP[magneton]RU[capture=any,layout=original,moves=step-or-tumble,no-king=loses,no-moves=loses,own-king=loses,repetition=3]PB[Ann]PW[Bob]DT[2026-11-30]RE[W+]\n;B[a8-a7];W[h1>h2])\n"
	if got := FormatSGF(h); got != want {
		t.Errorf("FormatSGF:\n got %s\nwant %s", got, want)
	}
}

func TestSGFRead(t *testing.T) {
	// Variations (the main line is the first), a property with two values,
	// FF[3]-style lower-case letters, a soft line break, unknown
	// properties, a lone disk's tumble, and a result with a reason.
	text := `(;FF[4]GM[33]RU[pbem]PB[An\
n]C[comment with \] bracket]RE[B+R]
	;B[a8-a7]
	(;W[h1-h2];B[e8>f8](;W[h2-h3])(;W[h2-g3]))
	(;W[g1-g2]))`
	h, err := ParseSGF(text)
	if err != nil {
		t.Fatal(err)
	}
	want := SGFGame{Rules: Rules{Capture: CapturePBEM}, Moves: []string{"a8-a7", "h1-h2", "e8-f8", "h2-h3"}, Black: "Ann", Result: "1-0", Ending: "resignation"}
	if !reflect.DeepEqual(h, want) {
		t.Errorf("got %+v\nwant %+v", h, want)
	}
	if h, err := ParseSGF("(;GM[33]RE[W+T])"); err != nil || h.Result != "0-1" || h.Ending != "time forfeit" {
		t.Errorf("RE[W+T]: %+v, %v", h, err)
	}
	if h, err := ParseSGF("(;GaMe[33]TP[" + BoardspaceStart + "]RU[layout=boardspace];W[f5-f4])"); err != nil || h.Start != "" || len(h.Moves) != 1 {
		t.Errorf("set-up equal to the start: %+v, %v", h, err)
	}
}

func TestSGFErrors(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"", "does not start with '('"},
		{"(", "missing ')'"},
		{"(;GM[1])", "GM[1] is not Tumbling Down"},
		{"(;GM[33]RU[layout=square])", "RU[layout=square]"},
		{"(;GM[33]TP[8/8 b])", "TP: position"},
		{"(;GM[33];W[h1-h2])", "node 1, W[h1-h2]: it is Black's turn"},
		{"(;GM[33];B[h1-h2])", "node 1, B[h1-h2]: h1-h2: the stack on h1 has a red disk on top"},
		{"(;GM[33];B[a8-a7", "missing ']'"},
		{"(;GM[33]RE[maybe])", "RE[maybe]"},
		{"(;GM[33]PB)", "property PB has no value"},
		{"(;GM[33]%", "unexpected"},
		{"()", "no node"},
		{strings.Repeat("(", 2000), "nested deeper"},
		{"(;GM[33]\n;B[a8-a7]\n\n;B[a7-a6])", "line 4: node 2, B[a7-a6]: it is Red's turn"},
		{"(;GM[33]\nPB[a]\nRE[B+]\n;B[a8-a7]\n;W[h1-h2]\n;B[a7-a6]\n;W[zz])", "line 7: node 4"},
		{"(;GM[33]\n\nPB[x]\n%", "line 4: unexpected"},
	} {
		_, err := ParseSGF(tc.text)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseSGF(%q): error %v, want one saying %q", tc.text, err, tc.want)
		}
	}
}

// FuzzParseSGF feeds arbitrary text to the SGF reader: it must never
// panic, and a record it accepts must write and read back the same.
func FuzzParseSGF(f *testing.F) {
	f.Add(FormatSGF(SGFGame{Moves: randomGame(Rules{}, Rules{}.StartPosition(), 30, 4), Black: "A]", Result: "1-0"}))
	f.Add(FormatSGF(SGFGame{Rules: Rules{BoardspaceLayout: true}, Start: midgame, Moves: []string{"a1-b1"}}))
	f.Add("(;FF[4]GM[33](;B[a8-a7])(;B[a8>a7]))")
	f.Add("(;GM[33]PB[x\\\n y]RE[0])")
	f.Add("(;C[\\]]")
	addBoardspaceSeeds(f)
	f.Fuzz(func(t *testing.T, text string) {
		h, err := ParseSGF(text)
		if err != nil {
			return
		}
		back, err := ParseSGF(FormatSGF(h))
		if err != nil {
			t.Fatalf("%q reads as %+v, whose record does not read: %v", text, h, err)
		}
		if !reflect.DeepEqual(back, h) {
			t.Fatalf("%q reads as %+v, which reads back as %+v", text, h, back)
		}
	})
}
