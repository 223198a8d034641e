package engine

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/server/wire"
)

func TestHandleRefusals(t *testing.T) {
	s := NewSession(1)
	tests := []struct {
		op, req, code, says string
	}{
		{"nothing", `{}`, "", "unknown operation"},
		{"play", `{"game":`, "", "not valid JSON"},
		{"play", `{"game":"chess"}`, "", "chess"},
		{"play", `{"game":"magneton","moves":["zz9"]}`, "illegal_move", "move 1"},
		{"play", `{"game":"magneton","position":"nonsense"}`, "bad_position", "position"},
		{"analyze", `{"game":"magneton","movetime_ms":50}`, "", "movetime_ms 50"},
		{"analyze", `{"game":"magneton","multipv":4}`, "", "multipv 4"},
		{"move", `{"game":"magneton","level":9}`, "", "level 9"},
		{"move", `{"game":"magneton","level":3,"moves":["a1","a1"]}`, "illegal_move", "move 2"},
	}
	for _, tc := range tests {
		t.Run(tc.op+" "+tc.req, func(t *testing.T) {
			_, err := s.Handle(context.Background(), tc.op, []byte(tc.req), nil)
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), tc.says) {
				t.Errorf("error %q does not say %q", err, tc.says)
			}
			var rf wire.Refusal
			if tc.code != "" && (!errors.As(err, &rf) || rf.Code != tc.code) {
				t.Errorf("error %#v: want the code %s", err, tc.code)
			}
		})
	}
}

// TestPlayMatchesRules plays random games through the session and checks
// each answer against the rules played directly.
func TestPlayMatchesRules(t *testing.T) {
	s := NewSession(1)
	for _, g := range games.All() {
		rules, _ := games.Rules(g.Spec.Name, "")
		st := rules.Start()
		var moves []string
		for i := 0; i < 30; i++ {
			if res, _ := st.Outcome(); res.Over() {
				break
			}
			legal := st.Moves()
			mv := legal[(i*13)%len(legal)]
			moves = append(moves, mv)
			st, _ = st.Play(mv)
		}
		req, _ := json.Marshal(PlayRequest{Game: g.Spec.Name, Moves: moves})
		out, err := s.Handle(context.Background(), "play", req, nil)
		if err != nil {
			t.Fatalf("%s: %v", g.Spec.Name, err)
		}
		p := out.(wire.Played)
		res, _ := st.Outcome()
		if p.Position != st.String() || p.Result != res.String() || len(p.Positions) != len(moves) || !res.Over() && !slices.Equal(p.Legal, st.Moves()) {
			t.Errorf("%s: played %+v, the rules say %s %s", g.Spec.Name, p, st, res)
		}
	}
}

func TestAnalyzeAndMove(t *testing.T) {
	s := NewSession(1)
	var lines int
	out, err := s.Handle(context.Background(), "analyze", []byte(`{"game":"magneton","movetime_ms":200,"multipv":2}`), func(kind string, v any) {
		if _, ok := v.(wire.AnalysisLine); kind == "line" && ok {
			lines++
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	an := out.(wire.Analysis)
	if len(an.Lines) != 2 || an.Best == "" || an.Lines[0].PV[0] == an.Lines[1].PV[0] || lines == 0 {
		t.Errorf("analysis %+v with %d progress lines: want two different lines and progress", an, lines)
	}
	rules, _ := games.Rules("tumbling-down", "")
	for level := 1; level <= 8; level++ {
		req, _ := json.Marshal(MoveRequest{Game: "tumbling-down", Level: level, MoveTimeMS: 50, Moves: []string{rules.Start().Moves()[0]}})
		out, err := s.Handle(context.Background(), "move", req, nil)
		if err != nil {
			t.Fatalf("level %d: %v", level, err)
		}
		mv := out.(MoveAnswer).Move
		st, _ := rules.Start().Play(rules.Start().Moves()[0])
		if _, err := st.Play(mv); err != nil {
			t.Errorf("level %d played %q: %v", level, mv, err)
		}
	}
}

func TestBenchAndCatalogue(t *testing.T) {
	res, err := NewSession(1).Handle(context.Background(), "bench", []byte(`{"game":"magneton","playout_seconds":0.05,"search_seconds":0.05}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	b := res.(BenchResult)
	if b.Playouts.Games == 0 || b.SearchNodes == 0 || b.PlayoutsPerSecond <= 0 || b.SearchNPS <= 0 {
		t.Errorf("bench %+v", b)
	}
	cat := Catalogue()
	if len(cat) != len(games.All()) || cat[0].Start == "" {
		t.Errorf("catalogue %+v", cat)
	}
}
