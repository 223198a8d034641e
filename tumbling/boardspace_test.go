//go:build !js

package tumbling

import (
	"reflect"
	"strings"
	"testing"
)

// boardspaceGame is a game of Boardspace's rules played at random, ended
// as ending says when the moves do not end it: "resignation" by the side
// to move, "time forfeit" (the side not to move wins), "" (unfinished).
func boardspaceGame(n int, seed uint64, ending string) SGFGame {
	h := SGFGame{Rules: boardspaceRules, Moves: randomGame(boardspaceRules, boardspaceRules.StartPosition(), n, seed),
		Red: "ann", Black: "Bob the second", Date: "2012-05-17", Result: "*"}
	p := boardspaceRules.StartPosition()
	for _, m := range h.Moves {
		mv, _ := p.ParseMove(m)
		p = p.Play(mv)
	}
	if w, ok := p.Winner(); ok {
		h.Result = winFor(w)
		return h
	}
	switch ending {
	case "resignation":
		h.Result, h.Ending = winFor(p.Side()^1), ending
	case "time forfeit":
		h.Result, h.Ending = winFor(p.Side()^1), ending
	}
	return h
}

func TestBoardspaceRoundTrip(t *testing.T) {
	for i, h := range []SGFGame{
		boardspaceGame(400, 1, ""),
		boardspaceGame(30, 2, "resignation"),
		boardspaceGame(31, 3, "resignation"),
		boardspaceGame(18, 4, "time forfeit"),
		boardspaceGame(0, 5, ""),
		boardspaceGame(7, 6, ""),
	} {
		text, err := FormatBoardspace(h, "TD-ann-bob-2012-05-17-1941")
		if err != nil {
			t.Fatalf("game %d: %v", i, err)
		}
		back, bs, err := ReadSGF(text)
		if err != nil {
			t.Fatalf("game %d: %v\n%s", i, err, text)
		}
		if !bs {
			t.Errorf("game %d: not read as Boardspace's", i)
		}
		if !reflect.DeepEqual(back, h) {
			t.Errorf("game %d reads back as %+v\nwant %+v\n%s", i, back, h, text)
		}
		// The project's SGF keeps all of it.
		if again, err := ParseSGF(FormatSGF(back)); err != nil || !reflect.DeepEqual(again, h) {
			t.Errorf("game %d in the project's SGF: %+v, %v", i, again, err)
		}
		if h.Result != "*" {
			if tr, err := back.Transcript(); err != nil {
				t.Errorf("game %d: transcript: %v", i, err)
			} else if res, why := tr.Game.Result(); res.String() != h.Result || (h.Ending != "" && why.Word != h.Ending) {
				t.Errorf("game %d: transcript ends %s by %v, want %s by %q", i, res, why, h.Result, h.Ending)
			}
		}
	}
	if _, err := FormatBoardspace(SGFGame{Rules: Rules{}}, "x"); err == nil {
		t.Error("FormatBoardspace took the original rules")
	}
}

// boardspaceRecord is a record in Boardspace's dialect: a stack picked up
// and put back, a drop taken back and dropped elsewhere, a robot's Move,
// a lone disk moved, a resignation taken back, then a resignation.
const boardspaceRecord = `(;
GM[Tumblingdown]VV[2]
CM[0,1]
TC[TimeControl none,0,0]
SU[tumblingdown]
DT[Thu May 17 19:41:07 PDT 2012]
GN[TD-ann-bob-2012-05-18-0241]
RE[Game won by bob]
P0[id "ann"]
P0[ranking 1561]
P1[id "bob"]
P1[country France]
; P0[0 Start P0]TM[0]
; P0[1 Pickb F 8 0]TM[1200]
; P0[2 Dropb F 8 4]TM[1400]
; P0[3 Pickb E 7 0]TM[2000]
; P0[4 Dropb E 5 2]TM[2600]
; P0[5 Pickb E 5 0]TM[2700]
; P0[6 Dropb D 6 2]TM[2900]
; P0[7 Done ]TM[3000]
; P1[8 Move C 1 D 2]TM[1500]
; P1[9 Done ]TM[1510]
; P0[10 Pickb C 8 0]TM[4000]
; P0[11 Dropb B 7 1]TM[4100]
; P0[12 Done ]TM[4200]
; P1[13 Resign ]TM[3000]
; P1[14 Resign ]TM[3100]
; P1[15 Pickb A 1 1]AN[x]TM[3200]
; P1[16 Dropb A 3 2]TM[3300]
; P1[17 Done ]TM[3400]
; P0[18 Resign ]TM[5000]
; P0[19 Done ]TM[5100]
;
P0[time 0:00:05 ]
P1[time 0:00:03 ]
)
`

func TestBoardspaceRead(t *testing.T) {
	h, bs, err := ReadSGF(boardspaceRecord)
	if err != nil {
		t.Fatal(err)
	}
	want := SGFGame{Rules: boardspaceRules, Moves: []string{"e7>d6", "c1>d2", "c8-b7", "a1>a2"},
		Red: "ann", Black: "bob", Date: "2012-05-17", Result: "1-0", Ending: "resignation"}
	if !bs || !reflect.DeepEqual(h, want) {
		t.Errorf("got %+v (Boardspace's: %v)\nwant %+v", h, bs, want)
	}
	// The colour map 1,0 gives P0 the bottom edge: the same game turned
	// half round.
	turned := strings.NewReplacer("CM[0,1]", "CM[1,0]", "F 8", "C 1", "E 7", "D 2", "E 5", "D 4", "D 6", "E 3",
		"C 1 D 2", "F 8 E 7", "C 8", "F 1", "B 7", "G 2", "A 1", "H 8", "A 3", "H 6").Replace(boardspaceRecord)
	if h, _, err := ReadSGF(turned); err != nil || !reflect.DeepEqual(h, want) {
		t.Errorf("turned: got %+v, %v\nwant %+v", h, err, want)
	}
	// The date from the game's name when DT is not a date.
	noDT := strings.Replace(boardspaceRecord, "DT[Thu May 17 19:41:07 PDT 2012]", "DT[sometime]", 1)
	if h, _, err := ReadSGF(noDT); err != nil || h.Date != "2012-05-18" {
		t.Errorf("date from GN: %q, %v", h.Date, err)
	}
	// Without RE, a game that the moves do not end and nobody resigned is
	// unfinished.
	cut := boardspaceRecord[:strings.Index(boardspaceRecord, "; P1[13")] + ")"
	if h, _, err := ReadSGF(strings.Replace(cut, "RE[Game won by bob]\n", "", 1)); err != nil || h.Result != "*" || len(h.Moves) != 3 {
		t.Errorf("unfinished: %+v, %v", h, err)
	}
	// With RE and no ending, the result is RE's.
	if h, _, err := ReadSGF(cut); err != nil || h.Result != "1-0" || h.Ending != "" {
		t.Errorf("result from RE: %+v, %v", h, err)
	}
	// Two players of one name: RE says nothing, the moves decide.
	guests := strings.NewReplacer(`P0[id "ann"]`, `P0[id "guest"]`, `P1[id "bob"]`, `P1[id "guest"]`, "won by bob", "won by guest").Replace(boardspaceRecord)
	if h, _, err := ReadSGF(guests); err != nil || h.Result != "1-0" {
		t.Errorf("two guests: %+v, %v", h, err)
	}
	if h, _, err := ReadSGF(strings.NewReplacer(`P0[id "ann"]`, `P0[id "guest"]`, `P1[id "bob"]`, `P1[id "guest"]`, "won by bob", "won by guest").Replace(cut)); err != nil || h.Result != "*" {
		t.Errorf("two guests, a game the moves do not end: %+v, %v", h, err)
	}
	for _, tc := range []struct{ dt, want string }{
		{"2012-05-17", "2012-05-17"}, {"2012.05.17", "2012-05-17"}, {"May 17 2012", "2012-05-17"},
		{"Thu May  3 19:41:07 2012", "2012-05-03"}, {"2012/05/17 19:41", "2012-05-17"},
	} {
		if d, ok := LooseDate(tc.dt); !ok || d.Format("2006-01-02") != tc.want {
			t.Errorf("LooseDate(%q) = %v, %v; want %s", tc.dt, d, ok, tc.want)
		}
	}
	if _, ok := LooseDate("2012-13-45"); ok {
		t.Error("LooseDate read 2012-13-45")
	}
}

func TestBoardspaceErrors(t *testing.T) {
	head := "(;GM[Tumblingdown]SU[tumblingdown]P0[id \"a\"]P1[id \"b\"]\n; P0[0 Start P0]\n"
	for _, tc := range []struct{ text, want string }{
		{"(;GM[Hive]SU[hive])", "line 1: GM[Hive] is not Tumbling Down"},
		{"(;GM[Tumblingdown]SU[hive])", "SU[hive] is not Tumbling Down"},
		{"(;GM[Tumblingdown]VV[3])", "VV[3]"},
		{"(;GM[Tumblingdown]CM[2,0])", "CM[2,0]"},
		{head + "; P1[1 Pickb C 1 1])", "line 3: node 2, P1[1 Pickb C 1 1]: it is Red's turn (P0)"},
		{head + "; P0[1 Pickb F 8 0]\n; P0[2 Dropb F 9 4])", "line 4: node 3, P0[2 Dropb F 9 4]: F 9 is not a square"},
		{head + "; P0[1 Dropb F 7 4])", "no stack is picked up"},
		{head + "; P0[1 Pickb F 8 0]; P0[2 Pickb E 8 0])", "a stack is picked up already (on f8)"},
		{head + "; P0[1 Pickb F 8 0]; P0[2 Dropb E 6 4]; P0[3 Done])", "e6 is not in line with f8"},
		{head + "; P0[1 Pickb C 1 0]; P0[2 Dropb C 2 4]; P0[3 Done])", "c1>c2: the stack on c1 has a black disk on top"},
		{head + "; P0[1 Move F 8]; P0[2 Done])", "Move takes two squares"},
		{head + "; P0[1 Edit])", "edits the board"},
		{head + "; P0[1 Undo])", "takes moves back"},
		{head + "; P0[1 OfferDraw])", "no draw offers"},
		{head + "; P0[1 Fly F 8])", `"Fly" is not an action`},
		{head + "; P2[1 Done])", "two players"},
		{head + "; P0[1 Move F 8 F 7]; P0[2 Done]; P1[3 Start P0])", "Start after the game began"},
		{"(;GM[Tumblingdown]\n; P0[0 Start P1])", "starts with P1 to move"},
		{head + "; P0[1 Resign]; P0[2 Done]; P1[3 Move C 1 D 2])", "the game was over (resignation)"},
		{strings.Replace(head, "P1[id", "RE[Game won by zed]P1[id", 1) + ")", "RE[Game won by zed] names neither player"},
		{strings.Replace(head, "P1[id", "RE[Game won by a]P1[id", 1) + "; P0[1 Resign]; P0[2 Done])", "RE[Game won by a] says 0-1 but the game ended 1-0 (resignation)"},
	} {
		_, err := ParseSGF(tc.text)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseSGF(%q): error %v, want one saying %q", tc.text, err, tc.want)
		}
	}
}

// addBoardspaceSeeds gives FuzzParseSGF Boardspace's records.
func addBoardspaceSeeds(f *testing.F) {
	f.Add(boardspaceRecord)
	bs, _ := FormatBoardspace(boardspaceGame(40, 9, "time forfeit"), "TD-a-b-2020-01-02-0304")
	f.Add(bs)
}
