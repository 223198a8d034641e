package tumbling

import (
	"slices"
	"strings"
	"testing"

	"github.com/magneton-games/magneton/game"
)

// board builds a position text from a map of squares to stacks, so crafted
// positions read as what they are.
func board(stacks map[string]string, side string) string {
	var grid [8][8]string
	for name, st := range stacks {
		sq, ok := ParseSquare(name)
		if !ok {
			panic("bad square " + name)
		}
		grid[sq.Rank()][sq.File()] = st
	}
	var ranks []string
	for r := 7; r >= 0; r-- {
		var items []string
		empty := 0
		for f := range 8 {
			if grid[r][f] == "" {
				empty++
				continue
			}
			if empty > 0 {
				items = append(items, string(rune('0'+empty)))
				empty = 0
			}
			items = append(items, grid[r][f])
		}
		if empty > 0 {
			items = append(items, string(rune('0'+empty)))
		}
		ranks = append(ranks, strings.Join(items, ","))
	}
	return strings.Join(ranks, "/") + " " + side
}

func mustParse(t *testing.T, r Rules, text string) Position {
	t.Helper()
	p, err := r.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func mustPlay(t *testing.T, p Position, move string) Position {
	t.Helper()
	m, err := p.ParseMove(move)
	if err != nil {
		t.Fatal(err)
	}
	q := p.Play(m)
	checkInvariants(t, q)
	return q
}

// playCase is one move on a crafted position under some rules: the
// stacks before (with side to move) and after, and the result.
type playCase struct {
	name   string
	rules  Rules
	before map[string]string
	side   string
	move   string
	after  map[string]string
	result game.Result
	reason *game.Ending
}

// playCases are the moves, the captures and the own-king and no-king
// rules under the default capture rule (capture=any).
var playCases = []playCase{
	{
		name:   "edge-of-board pile: a 4-stack two squares from a corner leaves 1 then 3",
		before: map[string]string{"c3": "rbrb", "h8": "rr", "h1": "b"},
		side:   "b", move: "c3>b2",
		after: map[string]string{"b2": "r", "a1": "brb", "h8": "rr", "h1": "b"},
	},
	{
		name:   "a tumble with room drops one disk a square, bottom first",
		before: map[string]string{"a1": "rbrb", "h8": "rr", "h1": "b"},
		side:   "b", move: "a1>b2",
		after: map[string]string{"b2": "r", "c3": "b", "d4": "r", "e5": "b", "h8": "rr", "h1": "b"},
	},
	{
		name:   "a step moves only the top disk",
		before: map[string]string{"d4": "rbb", "e5": "r", "h8": "rr", "a1": "b"},
		side:   "b", move: "d4-d5",
		after: map[string]string{"d4": "rb", "d5": "b", "e5": "r", "h8": "rr", "a1": "b"},
	},
	{
		name:   "a step on the enemy King wins, even leaving the mover no King",
		before: map[string]string{"d4": "b", "e5": "rr", "h8": "r"},
		side:   "b", move: "d4-e5",
		after:  map[string]string{"e5": "rrb", "h8": "r"},
		result: game.FirstWins, reason: KingCaptured,
	},
	{
		name:   "a step on an enemy stack that is not a King does not win",
		before: map[string]string{"d4": "b", "e5": "r", "h8": "rr", "a1": "b"},
		side:   "b", move: "d4-e5",
		after: map[string]string{"e5": "rb", "h8": "rr", "a1": "b"},
	},
	{
		name:   "capture by the last disk of a tumble",
		before: map[string]string{"a1": "bbb", "a4": "rr", "h8": "r", "h1": "b"},
		side:   "b", move: "a1>a2",
		after:  map[string]string{"a2": "b", "a3": "b", "a4": "rrb", "h8": "r", "h1": "b"},
		result: game.FirstWins, reason: KingCaptured,
	},
	{
		name:   "capture by the pile at the edge",
		before: map[string]string{"f1": "bbr", "h1": "bbb", "a8": "b", "a1": "r"},
		side:   "r", move: "f1>g1",
		after:  map[string]string{"g1": "b", "h1": "bbbbr", "a8": "b", "a1": "r"},
		result: game.SecondWins, reason: KingCaptured,
	},
	{
		name:   "several equally tall Kings: covering any one wins",
		before: map[string]string{"d4": "b", "e5": "rr", "a8": "rr", "h1": "b"},
		side:   "b", move: "d4-e5",
		after:  map[string]string{"e5": "rrb", "a8": "rr", "h1": "b"},
		result: game.FirstWins, reason: KingCaptured,
	},
	{
		name:   "own-king capture: an enemy disk from a tumble lands on the mover's King",
		before: map[string]string{"c3": "rb", "d3": "bb", "h8": "r", "a8": "r"},
		side:   "b", move: "c3>d3",
		after:  map[string]string{"d3": "bbr", "e3": "b", "h8": "r", "a8": "r"},
		result: game.SecondWins, reason: OwnKing,
	},
	{
		name:   "own-king=ignored: covering your own King is no loss",
		rules:  Rules{OwnKingIgnored: true},
		before: map[string]string{"c3": "rb", "d3": "bb", "h8": "r", "a8": "r"},
		side:   "b", move: "c3>d3",
		after: map[string]string{"d3": "bbr", "e3": "b", "h8": "r", "a8": "r"},
	},
	{
		name:   "capturing an enemy King in the same move beats covering your own",
		before: map[string]string{"c3": "rb", "d3": "bb", "e3": "r", "a8": "r"},
		side:   "b", move: "c3>d3",
		after:  map[string]string{"d3": "bbr", "e3": "rb", "a8": "r"},
		result: game.FirstWins, reason: KingCaptured,
	},
	{
		name:   "a capture wins even when it leaves the mover without a King",
		before: map[string]string{"a1": "bb", "a2": "r", "a3": "rr", "h8": "rr"},
		side:   "b", move: "a1>a2",
		after:  map[string]string{"a2": "rb", "a3": "rrb", "h8": "rr"},
		result: game.FirstWins, reason: KingCaptured,
	},
	{
		name:   "no-king: the mover left without a King loses",
		before: map[string]string{"a1": "bb", "a2": "r", "a3": "r", "h8": "rr"},
		side:   "b", move: "a1>a2",
		after:  map[string]string{"a2": "rb", "a3": "rb", "h8": "rr"},
		result: game.SecondWins, reason: NoKing,
	},
	{
		name:   "no-king=ignored: a side without a King plays on",
		rules:  Rules{NoKingIgnored: true},
		before: map[string]string{"a1": "bb", "a2": "r", "a3": "r", "h8": "rr"},
		side:   "b", move: "a1>a2",
		after: map[string]string{"a2": "rb", "a3": "rb", "h8": "rr"},
	},
}

// pbemCases are the capture rule capture=pbem (one run of the victim's
// colour under one run of the capturer's), beside capture=any where the
// two differ.
var pbemCases = []playCase{
	{
		name:   "capture=pbem: one run of the victim's colour under one run of the capturer's captures",
		rules:  Rules{Capture: CapturePBEM},
		before: map[string]string{"e1": "brb", "h1": "rr", "a8": "r", "a1": "b"},
		side:   "b", move: "e1>f1",
		after:  map[string]string{"f1": "b", "g1": "r", "h1": "rrb", "a8": "r", "a1": "b"},
		result: game.FirstWins, reason: KingCaptured,
	},
	{
		name:   "capture=pbem: victim-colour disks dropped first still make one run",
		rules:  Rules{Capture: CapturePBEM},
		before: map[string]string{"f1": "brb", "h1": "rr", "a8": "r", "a1": "b"},
		side:   "b", move: "f1>g1",
		after:  map[string]string{"g1": "b", "h1": "rrrb", "a8": "r", "a1": "b"},
		result: game.FirstWins, reason: KingCaptured,
	},
	{
		name:   "capture=pbem: a mixed pile on a King does not capture",
		rules:  Rules{Capture: CapturePBEM},
		before: map[string]string{"f1": "bbrb", "h1": "rr", "a8": "r", "a1": "b"},
		side:   "b", move: "f1>g1",
		after: map[string]string{"g1": "b", "h1": "rrbrb", "a8": "r", "a1": "b"},
	},
	{
		name:   "capture=any: the same mixed pile captures",
		before: map[string]string{"f1": "bbrb", "h1": "rr", "a8": "r", "a1": "b"},
		side:   "b", move: "f1>g1",
		after:  map[string]string{"g1": "b", "h1": "rrbrb", "a8": "r", "a1": "b"},
		result: game.FirstWins, reason: KingCaptured,
	},
	{
		name:   "capture=pbem with no-king: a spoilt King that was the last single-colour stack loses by no-king",
		rules:  Rules{Capture: CapturePBEM},
		before: map[string]string{"f1": "bbrb", "h1": "rr", "a1": "b"},
		side:   "b", move: "f1>g1",
		after:  map[string]string{"g1": "b", "h1": "rrbrb", "a1": "b"},
		result: game.FirstWins, reason: NoKing,
	},
	{
		name:   "capture=pbem: an own King under a mixed pile is not lost",
		rules:  Rules{Capture: CapturePBEM},
		before: map[string]string{"f1": "rrbb", "h1": "bb", "a8": "r", "a1": "b"},
		side:   "b", move: "f1>g1",
		after: map[string]string{"g1": "r", "h1": "bbrbb", "a8": "r", "a1": "b"},
	},
	{
		name:   "capture=pbem: an own King under one run of enemy disks is lost",
		rules:  Rules{Capture: CapturePBEM},
		before: map[string]string{"c3": "rb", "d3": "bb", "h8": "r", "a8": "r"},
		side:   "b", move: "c3>d3",
		after:  map[string]string{"d3": "bbr", "e3": "b", "h8": "r", "a8": "r"},
		result: game.SecondWins, reason: OwnKing,
	},
}

// boardspaceCases are the capture rule capture=boardspace (no capture
// that makes the victim a taller King), beside capture=any where the two
// differ.
var boardspaceCases = []playCase{
	// Boardspace's rule, from its rules page ("without creating a taller
	// king in the process"; "not all moves that add checkers to a king
	// capture it") and the issue's example.
	{
		name:   "capture=boardspace: no capture when the move makes the victim a taller King",
		rules:  Rules{Capture: CaptureBoardspace, TumbleOnly: true},
		before: map[string]string{"h8": "bb", "a4": "rr", "a2": "rr", "a1": "rrb"},
		side:   "b", move: "a1>a2",
		after: map[string]string{"h8": "bb", "a4": "rrb", "a3": "r", "a2": "rrr"},
	},
	{
		name:   "capture=any: the same move captures",
		rules:  Rules{TumbleOnly: true},
		before: map[string]string{"h8": "bb", "a4": "rr", "a2": "rr", "a1": "rrb"},
		side:   "b", move: "a1>a2",
		after:  map[string]string{"h8": "bb", "a4": "rrb", "a3": "r", "a2": "rrr"},
		result: game.FirstWins, reason: KingCaptured,
	},
	{
		name:   "capture=boardspace: a new King only as tall as the old one does not save it",
		rules:  Rules{Capture: CaptureBoardspace},
		before: map[string]string{"h8": "bb", "a4": "rr", "a2": "r", "a1": "rrb"},
		side:   "b", move: "a1>a2",
		after:  map[string]string{"h8": "bb", "a4": "rrb", "a3": "r", "a2": "rr"},
		result: game.FirstWins, reason: KingCaptured,
	},
	{
		name:   "capture=boardspace: a tumble's disk on a King captures when nothing grew",
		rules:  Rules{Capture: CaptureBoardspace},
		before: map[string]string{"a1": "bb", "a3": "rr", "h8": "r"},
		side:   "b", move: "a1>a2",
		after:  map[string]string{"a2": "b", "a3": "rrb", "h8": "r"},
		result: game.FirstWins, reason: KingCaptured,
	},
	{
		name:   "capture=boardspace: a step onto a King captures",
		rules:  Rules{Capture: CaptureBoardspace},
		before: map[string]string{"d4": "b", "e5": "rr", "h8": "r", "a1": "b"},
		side:   "b", move: "d4-e5",
		after:  map[string]string{"e5": "rrb", "h8": "r", "a1": "b"},
		result: game.FirstWins, reason: KingCaptured,
	},
	{
		name:   "capture=boardspace: a mixed pile on a King captures, unlike capture=pbem",
		rules:  Rules{Capture: CaptureBoardspace},
		before: map[string]string{"f1": "bbrb", "h1": "rr", "a8": "r", "a1": "b"},
		side:   "b", move: "f1>g1",
		after:  map[string]string{"g1": "b", "h1": "rrbrb", "a8": "r", "a1": "b"},
		result: game.FirstWins, reason: KingCaptured,
	},
	{
		name:   "capture=boardspace: an own King covered while nothing grew is lost",
		rules:  Rules{Capture: CaptureBoardspace},
		before: map[string]string{"c3": "rb", "d3": "bb", "h8": "r", "a8": "r"},
		side:   "b", move: "c3>d3",
		after:  map[string]string{"d3": "bbr", "e3": "b", "h8": "r", "a8": "r"},
		result: game.SecondWins, reason: OwnKing,
	},
	{
		name:   "capture=boardspace: an own King covered while the mover grew a taller one is not lost",
		rules:  Rules{Capture: CaptureBoardspace},
		before: map[string]string{"c3": "rbb", "d3": "bb", "f3": "bb", "h8": "r", "a8": "r"},
		side:   "b", move: "c3>d3",
		after: map[string]string{"d3": "bbr", "e3": "b", "f3": "bbb", "h8": "r", "a8": "r"},
	},
	{
		name:   "capture=any: the same own King covered loses",
		before: map[string]string{"c3": "rbb", "d3": "bb", "f3": "bb", "h8": "r", "a8": "r"},
		side:   "b", move: "c3>d3",
		after:  map[string]string{"d3": "bbr", "e3": "b", "f3": "bbb", "h8": "r", "a8": "r"},
		result: game.SecondWins, reason: OwnKing,
	},
	{
		name:   "capture=boardspace with own-king=ignored: an own King covered is no loss",
		rules:  Rules{Capture: CaptureBoardspace, OwnKingIgnored: true},
		before: map[string]string{"c3": "rb", "d3": "bb", "h8": "r", "a8": "r"},
		side:   "b", move: "c3>d3",
		after: map[string]string{"d3": "bbr", "e3": "b", "h8": "r", "a8": "r"},
	},
	{
		name:   "capture=boardspace: capturing wins even when the mover's own King falls too",
		rules:  Rules{Capture: CaptureBoardspace},
		before: map[string]string{"c3": "rb", "d3": "bb", "e3": "r", "h8": "b"},
		side:   "b", move: "c3>d3",
		after:  map[string]string{"d3": "bbr", "e3": "rb", "h8": "b"},
		result: game.FirstWins, reason: KingCaptured,
	},
	{
		name:   "capture=boardspace: stepping the top disk off a King is no loss",
		rules:  Rules{Capture: CaptureBoardspace},
		before: map[string]string{"a1": "bb", "c1": "bb", "h8": "r"},
		side:   "b", move: "a1-a2",
		after: map[string]string{"a1": "b", "a2": "b", "c1": "bb", "h8": "r"},
	},
}

// TestPlay covers the named cases of the rules on crafted positions: each
// row plays one move under some rules and checks the stacks and result.
func TestPlay(t *testing.T) {
	for _, tt := range slices.Concat(playCases, pbemCases, boardspaceCases) {
		t.Run(tt.name, func(t *testing.T) {
			p := mustParse(t, tt.rules, board(tt.before, tt.side))
			q := mustPlay(t, p, tt.move)
			other := map[string]string{"b": "r", "r": "b"}[tt.side]
			if got, want := q.String(), board(tt.after, other); got != want {
				t.Errorf("after %s:\n got %s\nwant %s", tt.move, got, want)
			}
			res, why := q.Outcome()
			if res != tt.result || (tt.result.Over() && why != tt.reason) {
				t.Errorf("after %s: outcome %v (%v), want %v (%v)", tt.move, res, why, tt.result, tt.reason)
			}
		})
	}
}

func TestStartPerft(t *testing.T) {
	p := Rules{}.StartPosition()
	if p.String() != OriginalStart {
		t.Fatalf("start %s", p)
	}
	want := []uint64{1, 148, 21904, 3154640}
	for depth, n := range want {
		if depth == 3 && testing.Short() {
			break
		}
		if got := game.Perft(p, depth); got != n {
			t.Errorf("perft(start, %d) = %d, want %d", depth, got, n)
		}
	}
}

func TestStartLayouts(t *testing.T) {
	for _, r := range []Rules{{}, {BoardspaceLayout: true}, {BoardspaceLayout: true, TumbleOnly: true}} {
		p := r.StartPosition()
		for c := range 2 {
			if n := p.Disks(game.Side(c)); n != DisksPerSide {
				t.Errorf("%v: %s has %d disks", r, sideNames[c], n)
			}
		}
		wantSide := Black
		if r.BoardspaceLayout {
			wantSide = Red
		}
		if p.Side() != wantSide {
			t.Errorf("%v: %s moves first", r, sideNames[p.Side()])
		}
		if res, _ := p.Outcome(); res != game.Ongoing {
			t.Errorf("%v: start is over: %v", r, res)
		}
		if s := r.Start().String(); s != r.StartText() {
			t.Errorf("%v: Start() is %s", r, s)
		}
	}
	// Counted by hand from the diagrams: each stack's directions that
	// stay on the board, twice for a stack that may step and tumble.
	for _, tc := range []struct {
		r    Rules
		want int
	}{
		{Rules{}, 148},
		{Rules{TumbleOnly: true}, 91},
		{Rules{BoardspaceLayout: true}, 152},
		{Rules{BoardspaceLayout: true, TumbleOnly: true}, 97},
	} {
		if n := len(tc.r.StartPosition().AppendMoves(nil)); n != tc.want {
			t.Errorf("%+v: %d moves at the start, want %d", tc.r, n, tc.want)
		}
	}
}

func TestTumbleOnly(t *testing.T) {
	r := Rules{TumbleOnly: true}
	p := r.StartPosition()
	for _, m := range p.AppendMoves(nil) {
		h := p.Height(m.From())
		if h == 1 && m.IsTumble() || h > 1 && !m.IsTumble() {
			t.Errorf("tumble-only lists %s from a stack of %d", m, h)
		}
	}
	for _, tc := range []struct{ move, err string }{
		{"a8-a7", "cannot step"},
		{"e8>f8", "one disk"},
	} {
		if _, err := p.ParseMove(tc.move); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("tumble-only %s: error %v, want one saying %q", tc.move, err, tc.err)
		}
	}
	if _, err := p.ParseMove("a8>a7"); err != nil {
		t.Error(err)
	}
	// Under the default rules a lone disk's tumble is its step.
	d := Rules{}.StartPosition()
	m1, err1 := d.ParseMove("e8>f8")
	m2, err2 := d.ParseMove("e8-f8")
	if err1 != nil || err2 != nil || m1 != m2 || m1.String() != "e8-f8" {
		t.Errorf("lone disk: e8>f8 = %v %v, e8-f8 = %v %v", m1, err1, m2, err2)
	}
}

func TestNoMoves(t *testing.T) {
	text := board(map[string]string{"a1": "rb", "h8": "bb"}, "r")
	for _, tc := range []struct {
		rules  Rules
		result game.Result
		reason *game.Ending
	}{
		{Rules{}, game.FirstWins, NoKing}, // Red has no King at all
		{Rules{NoKingIgnored: true}, game.FirstWins, game.NoMoves},
		{Rules{NoKingIgnored: true, NoMovesDraw: true}, game.Draw, game.NoMoves},
	} {
		p := mustParse(t, tc.rules, text)
		res, why := p.Outcome()
		if res != tc.result || why != tc.reason {
			t.Errorf("%+v: outcome %v (%v), want %v (%v)", tc.rules, res, why, tc.result, tc.reason)
		}
		if n := len(p.AppendMoves(nil)); n != 0 {
			t.Errorf("%+v: %d moves in a finished game", tc.rules, n)
		}
	}
}

func TestRepetition(t *testing.T) {
	cycle := []string{"a8-a7", "h1-h2", "a7-a8", "h2-h1"}
	for _, tc := range []struct {
		rules Rules
		limit int
		plies int // plies until the game ends, 0 for never
	}{
		{Rules{}, 3, 8},
		{Rules{NoRepetition: true}, 0, 0},
	} {
		if got := tc.rules.RepetitionLimit(); got != tc.limit {
			t.Errorf("%+v: limit %d, want %d", tc.rules, got, tc.limit)
		}
		g := game.NewGame(tc.rules.Start())
		for i := range 12 {
			if err := g.Play(cycle[i%4]); err != nil {
				if tc.plies == 0 || i != tc.plies {
					t.Fatalf("%+v: ply %d: %v", tc.rules, i+1, err)
				}
				break
			}
		}
		res, why := g.Result()
		if tc.plies == 0 && res.Over() {
			t.Errorf("%+v: game over: %v %v", tc.rules, res, why)
		}
		if tc.plies > 0 && (res != game.Draw || why != game.Repetition || len(g.Moves()) != tc.plies) {
			t.Errorf("%+v: %v %v after %d plies, want a draw by repetition after %d", tc.rules, res, why, len(g.Moves()), tc.plies)
		}
	}
}

func TestSettings(t *testing.T) {
	for bitsSet := range 3 << 6 {
		r := Rules{
			OwnKingIgnored:   bitsSet&1 != 0,
			NoKingIgnored:    bitsSet&2 != 0,
			NoMovesDraw:      bitsSet&4 != 0,
			NoRepetition:     bitsSet&8 != 0,
			BoardspaceLayout: bitsSet&16 != 0,
			TumbleOnly:       bitsSet&32 != 0,
			Capture:          Capture(bitsSet >> 6),
		}
		s := r.Settings()
		if len(s) != len(Spec.Options) {
			t.Fatalf("settings %v do not name every option", s)
		}
		back, err := Spec.Rules(s.String())
		if err != nil {
			t.Fatal(err)
		}
		if back != r {
			t.Errorf("settings %s read back as %+v, want %+v", s, back, r)
		}
	}
	for _, tc := range []struct {
		items string
		want  Rules
	}{
		{"", Rules{}},
		{"standard", Rules{}},
		{"boardspace", Rules{BoardspaceLayout: true, TumbleOnly: true, Capture: CaptureBoardspace}},
		{"capture=boardspace", Rules{Capture: CaptureBoardspace}},
		{"pbem", Rules{Capture: CapturePBEM}},
		{"boardspace,pbem,no-moves=draw", Rules{BoardspaceLayout: true, TumbleOnly: true, Capture: CapturePBEM, NoMovesDraw: true}},
		{"boardspace,standard", Rules{}},
	} {
		got, err := Spec.Rules(tc.items)
		if err != nil {
			t.Fatal(err)
		}
		if got != tc.want {
			t.Errorf("%q: %+v, want %+v", tc.items, got, tc.want)
		}
	}
	for _, o := range Spec.Options {
		if Spec.Defaults()[o.Name] != (Rules{}).Settings()[o.Name] {
			t.Errorf("option %s: the zero Rules are not the default %s", o.Name, o.Default())
		}
	}
	if _, err := Spec.Rules("capture=nice"); err == nil {
		t.Error("capture=nice accepted")
	}
}

func TestParseErrors(t *testing.T) {
	start := OriginalStart
	for _, tc := range []struct{ text, want string }{
		{"", "want 2 fields"},
		{strings.Replace(start, " b", " x", 1), `side to move "x"`},
		{strings.Replace(start, "bbbb,bbb", "bbxb,bbb", 1), `a8: 'x' in stack "bbxb" is not b (black) or r (red)`},
		{strings.Replace(start, "bbbb,bbb,bb,bb,b,3/", "bbbb,bbb,bb,bb,b,4/", 1), "rank 8 has 9 squares, want 8"},
		{strings.Replace(start, "bbbb,bbb,bb,bb,b,3/", "bbbb,bbb,bb,bb,b,2/", 1), "rank 8 has 7 squares, want 8"},
		{strings.Replace(start, "bbbb,bbb,bb,bb,b,3/", "bbbb,bbb,bb,bb,b,3,b/", 1), "rank 8 has more than 8 squares"},
		{strings.Replace(start, "bbbb,", "bbbb,,", 1), "rank 8: an empty square entry"},
		{strings.Replace(start, "/", "", 1), "7 ranks"},
		{strings.Replace(start, ",3/", ",9/", 1), `"9" is not a run of 1 to 8 empty squares`},
		{strings.Replace(start, "bbbb", "bbbbb", 1), "Black has 30 disks, more than 29"},
	} {
		_, err := Rules{}.Parse(tc.text)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%q): error %v, want one saying %q", tc.text, err, tc.want)
		}
	}
}

func TestParseMoveErrors(t *testing.T) {
	p := Rules{}.StartPosition()
	for _, tc := range []struct{ move, want string }{
		{"", "not a step like e5-f6"},
		{"a8", "not a step like e5-f6"},
		{"a8xa7", "not a step like e5-f6"},
		{"a8-a9", "a9 is off the board"},
		{"a8-`8", "not a square"},
		{"a8-a6", "a6 is not next to a8"},
		{"a8-a8", "not next to"},
		{"d4-d5", "d4 is empty"},
		{"h1-h2", "red disk on top, and Black moves only stacks topped by black"},
	} {
		_, err := p.ParseMove(tc.move)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseMove(%q): error %v, want one saying %q", tc.move, err, tc.want)
		}
	}
	// Game over.
	q := mustPlay(t, mustParse(t, Rules{}, board(map[string]string{"d4": "b", "e5": "rr", "h8": "r"}, "b")), "d4-e5")
	if _, err := q.ParseMove("h8-h7"); err == nil || !strings.Contains(err.Error(), "the game is over, Black won (king captured)") {
		t.Errorf("move after the end: %v", err)
	}
}

func TestMoveText(t *testing.T) {
	p := Rules{}.StartPosition()
	for _, m := range p.AppendMoves(nil) {
		back, err := p.ParseMove(m.String())
		if err != nil || back != m {
			t.Errorf("%s reads back as %v, %v", m, back, err)
		}
		if p.FormatMove(m) != m.String() {
			t.Errorf("FormatMove(%s) = %s", m, p.FormatMove(m))
		}
	}
	if NoMove.String() != "(none)" {
		t.Error(NoMove.String())
	}
	if got := Tumble(SquareAt(4, 4), NorthEast).String(); got != "e5>f6" {
		t.Error(got)
	}
	if got := Step(SquareAt(4, 4), SouthWest).String(); got != "e5-d4" {
		t.Error(got)
	}
}

func TestTallStacks(t *testing.T) {
	// Three stacks taller than the low mask, with both colours high up,
	// moved around: the incremental state must keep up.
	tall := "b" + strings.Repeat("r", 9) + strings.Repeat("b", 9) + "r"
	text := board(map[string]string{
		"d4": tall,                             // 20, top red
		"e4": strings.Repeat("rb", 9),          // 18, top black
		"a1": strings.Repeat("b", 9) + "rrrrr", // 14
		"h8": "rrrr", "h1": "b",
	}, "r")
	p := mustParse(t, Rules{}, text)
	checkInvariants(t, p)
	if p.String() != text {
		t.Fatalf("round trip %s", p)
	}
	for _, seq := range [][]string{
		{"d4-e4", "d4-d5", "e4>f4"},
		{"d4>d5", "e4>d3"},
		{"a1-a2", "e4-e3", "a1-b2", "h1-g1"},
		{"d4-e4", "d4-e4", "a1-a2", "e4>e5"},
	} {
		q := p
		for _, mv := range seq {
			q = mustPlay(t, q, mv)
			if res, _ := q.Outcome(); res.Over() {
				break
			}
		}
	}
}

func TestKings(t *testing.T) {
	p := mustParse(t, Rules{}, board(map[string]string{"d4": "rrrb", "a1": "rr", "h8": "bb", "h1": "bb"}, "b"))
	sq := func(name string) uint64 { s, _ := ParseSquare(name); return 1 << s }
	if k, h := p.Kings(Black); k != sq("h8")|sq("h1") || h != 2 {
		t.Errorf("Black's Kings %x height %d, want h1 and h8 at 2", k, h)
	}
	if k, h := p.Kings(Red); k != sq("a1") || h != 2 {
		t.Errorf("Red's Kings %x height %d", k, h)
	}
	// Stepping the black disk off d4 uncovers a taller red stack, which is
	// Red's King from then on; Black's King that grew is its only one.
	q := mustPlay(t, p, "d4-e5")
	q = mustPlay(t, q, "a1-b1")
	q = mustPlay(t, q, "h8-h7")
	if k, h := q.Kings(Red); k != sq("d4") || h != 3 {
		t.Errorf("Red's Kings %x height %d, want d4 at 3", k, h)
	}
	if k, h := q.Kings(Black); k != sq("h1") || h != 2 {
		t.Errorf("Black's Kings %x height %d, want h1 at 2", k, h)
	}
}

func TestSpec(t *testing.T) {
	if Spec.Name != "tumbling-down" || !slices.Equal(Spec.Aliases, []string{"tumbling"}) || Spec.Title != "Tumbling Down" ||
		Spec.SideNames != [2]string{"Black", "Red"} || Spec.SideLetters != [2]string{"b", "r"} {
		t.Errorf("spec %+v", Spec)
	}
	for _, v := range Spec.Variants {
		if _, err := Spec.Rules(v.Name); err != nil {
			t.Errorf("variant %s: %v", v.Name, err)
		}
	}
	// Through the game-neutral interface, the boardspace variant starts
	// with Red and lists only tumbles for Red's stacks.
	r, err := Spec.Rules("boardspace")
	if err != nil {
		t.Fatal(err)
	}
	s := r.Start()
	if s.Side() != Red || s.String() != BoardspaceStart || r.Spec() != Spec {
		t.Fatalf("boardspace start %s, %s to move", s, sideNames[s.Side()])
	}
	moves := s.Moves()
	if len(moves) != 97 || !slices.Contains(moves, "f8>f7") || slices.Contains(moves, "f8-f7") || !slices.Contains(moves, "f5-f4") {
		t.Errorf("boardspace start moves: %v", moves)
	}
	next, err := s.Play("f8>f7")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := next.Play("c1-c2"); err == nil {
		t.Error("a step of a stack under boardspace rules was accepted")
	}
	if p, ok := game.Unwrap[Position, Move](next); !ok || p.Side() != Black {
		t.Errorf("unwrap: %v %v", p, ok)
	}
	if _, err := r.ParsePosition("nonsense b"); err == nil {
		t.Error("nonsense read as a position")
	}
	pb, err := Spec.Rules("pbem")
	if err != nil || pb.(Rules).Capture != CapturePBEM || pb.Settings()["capture"] != "pbem" {
		t.Errorf("pbem variant: %+v, %v", pb, err)
	}
}
