package server

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/magneton-games/magneton/engine"
	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/puzzle"
	"github.com/magneton-games/magneton/server/wire"
)

func TestPuzzles(t *testing.T) {
	s := startServer(t, t.TempDir())
	guest := s.user()
	var list struct{ Puzzles []wire.PuzzleSummary }
	if code := guest.do("GET", "/api/puzzles?game=tumbling", nil, &list); code != http.StatusOK || len(list.Puzzles) < 20 {
		t.Fatalf("list: %d, %d puzzles", code, len(list.Puzzles))
	}
	for i, p := range list.Puzzles {
		if p.Game != "tumbling-down" && p.Game != "tumbling" {
			t.Errorf("a puzzle of %s in the list of tumbling", p.Game)
		}
		if i > 0 && p.Rating < list.Puzzles[i-1].Rating {
			t.Errorf("list not sorted by rating at %d", i)
		}
	}
	var bad struct{ Error string }
	if code := guest.do("GET", "/api/puzzles?game=chess", nil, &bad); code != http.StatusBadRequest {
		t.Errorf("puzzles of an unknown game: %d %q", code, bad.Error)
	}
	if code := guest.do("GET", "/api/puzzles/nope", nil, &bad); code != http.StatusNotFound {
		t.Errorf("an unknown puzzle: %d", code)
	}
	var d1, d2 wire.Puzzle
	guest.do("GET", "/api/puzzles/daily", nil, &d1)
	s.user().do("GET", "/api/puzzles/daily", nil, &d2)
	if d1.ID == "" || d1.ID != d2.ID {
		t.Errorf("daily puzzles %q and %q", d1.ID, d2.ID)
	}
	var pz wire.Puzzle
	if code := guest.do("GET", "/api/puzzles/"+list.Puzzles[0].ID, nil, &pz); code != http.StatusOK {
		t.Fatalf("get: %d", code)
	}
	if len(pz.Positions) != len(pz.Line) || len(pz.Legal) != pz.WinIn || !slices.Contains(pz.Legal[0], pz.Line[0]) || pz.Position == "" {
		t.Errorf("puzzle for the board: %+v", pz)
	}
	var res map[string]any
	guest.do("POST", "/api/puzzles/"+pz.ID+"/result", map[string]any{"solved": true}, &res)
	if res["rated"] != false {
		t.Errorf("a guest's attempt: %v", res)
	}
	ann := s.signedUp("puzzler")
	var next wire.Puzzle
	ann.do("GET", "/api/puzzles/next?game=tumbling", nil, &next)
	if next.ID == "" || next.Game == "magneton" {
		t.Fatalf("next puzzle: %+v", next)
	}
	ann.do("POST", "/api/puzzles/"+next.ID+"/result", map[string]any{"solved": true}, &res)
	if res["rated"] != true || res["diff"].(float64) <= 0 || int(res["puzzle_rating"].(float64)) >= next.Rating {
		t.Errorf("a solve: %v (the puzzle was %d)", res, next.Rating)
	}
	ann.do("POST", "/api/puzzles/"+next.ID+"/result", map[string]any{"solved": false}, &res)
	if res["rated"] != false {
		t.Errorf("a second attempt: %v", res)
	}
	var after wire.Puzzle
	ann.do("GET", "/api/puzzles/next?game=tumbling", nil, &after)
	if after.ID == next.ID {
		t.Error("next offers the puzzle just solved")
	}
	ann.do("GET", "/api/puzzles?game=tumbling", nil, &list)
	for _, p := range list.Puzzles {
		if p.ID == next.ID && (!p.Tried || p.Plays != 1 || p.Solved != 1) {
			t.Errorf("the solved puzzle in the list: %+v", p)
		}
	}
}

func TestPlay(t *testing.T) {
	s := startServer(t, t.TempDir())
	u := s.user()
	var a wire.Played
	if code := u.do("POST", "/api/play", map[string]any{"game": "magneton", "moves": []string{"d4", "e5"}}, &a); code != http.StatusOK {
		t.Fatalf("play: %d", code)
	}
	if len(a.Positions) != 2 || a.Position != a.Positions[1] || a.Turn != 0 || len(a.Legal) == 0 || a.Result != "*" {
		t.Errorf("after d4 e5: %+v", a)
	}
	var bad struct{ Error string }
	for _, tc := range []struct {
		body map[string]any
		want string
	}{
		{map[string]any{"game": "magneton", "moves": []string{"d4", "d4"}}, "move 2"},
		{map[string]any{"game": "magneton", "position": "nonsense"}, "position"},
		{map[string]any{"game": "chess"}, "unknown game"},
	} {
		if code := u.do("POST", "/api/play", tc.body, &bad); code != http.StatusBadRequest || !strings.Contains(bad.Error, tc.want) {
			t.Errorf("%v: %d %q, want 400 with %q", tc.body, code, bad.Error, tc.want)
		}
	}
}

// TestAnalyzeProven: the analysis carries the proof search's verdict on a
// position with a forced win (a shipped puzzle's), and none at the start.
func TestAnalyzeProven(t *testing.T) {
	s := startServer(t, t.TempDir())
	u := s.user()
	all, err := puzzle.Shipped()
	if err != nil {
		t.Fatal(err)
	}
	var ps []*puzzle.Puzzle
	for _, pz := range all {
		if pz.Game == "magneton" {
			ps = append(ps, pz)
		}
	}
	pz := ps[len(ps)-1]
	var a struct {
		Turn   int
		Proven *struct{ Winner, Moves int }
		Error  string
	}
	if code := u.do("POST", "/api/analyze", map[string]any{"game": pz.Game, "rules": pz.Rules, "position": pz.Position, "movetime_ms": 100}, &a); code != http.StatusOK {
		t.Fatalf("analyze: %d %s", code, a.Error)
	}
	if a.Proven == nil || a.Proven.Winner != a.Turn || a.Proven.Moves != pz.WinIn {
		t.Errorf("puzzle %s (a win in %d): proven %+v, turn %d", pz.ID, pz.WinIn, a.Proven, a.Turn)
	}
	a.Proven = nil
	u.do("POST", "/api/analyze", map[string]any{"game": "magneton", "movetime_ms": 100}, &a)
	if a.Proven != nil {
		t.Errorf("the start is proven: %+v", a.Proven)
	}
}

func TestLearnProgress(t *testing.T) {
	s := startServer(t, t.TempDir())
	guest := s.user()
	var got map[string][]string
	if code := guest.do("GET", "/api/account/learn", nil, &got); code != http.StatusOK || len(got) != 0 {
		t.Errorf("a guest's progress: %d %v", code, got)
	}
	var bad struct{ Error string }
	if code := guest.do("POST", "/api/account/learn/magneton", map[string]any{"solved": []string{"drop"}}, &bad); code != http.StatusUnauthorized {
		t.Errorf("a guest saving progress: %d %q", code, bad.Error)
	}
	ann := s.signedUp("learner")
	ann.do("POST", "/api/account/learn/tumbling", map[string]any{"solved": []string{"tumble", "step"}}, &got)
	if !slices.Equal(got["tumbling-down"], []string{"step", "tumble"}) {
		t.Errorf("saved: %v", got)
	}
	if code := ann.do("POST", "/api/account/learn/magneton", map[string]any{"solved": []string{strings.Repeat("x", 41)}}, &bad); code != http.StatusBadRequest || !strings.Contains(bad.Error, "solved[0]") {
		t.Errorf("a long id: %d %q", code, bad.Error)
	}
	if code := ann.do("POST", "/api/account/learn/chess", map[string]any{"solved": []string{"a"}}, &bad); code != http.StatusNotFound {
		t.Errorf("an unknown game: %d", code)
	}
	// Another browser of the account sees it.
	other := s.user()
	other.account("POST", "/api/account/login", map[string]string{"name": "learner", "password": "long enough"})
	other.do("GET", "/api/account/learn", nil, &got)
	if !slices.Equal(got["tumbling-down"], []string{"step", "tumble"}) {
		t.Errorf("on another browser: %v", got)
	}
}

// TestAnalyzeFairPlay: a player cannot have the engine analyse the
// position of their own game against a person while it is played; a
// spectator can, and so can the player once it is over.
func TestAnalyzeFairPlay(t *testing.T) {
	s := startServer(t, t.TempDir())
	a, _, sa, sb, _ := humanGame(t, s, nil)
	openHuman(sa, sb)
	pos := sa.last.Position
	req := map[string]any{"game": "magneton", "position": pos, "movetime_ms": 100}
	var e struct{ Error string }
	if code := a.do("POST", "/api/analyze", req, &e); code != http.StatusForbidden || !strings.Contains(e.Error, "a game you are playing") {
		t.Errorf("the player's own live position: %d %q", code, e.Error)
	}
	spec := s.user()
	spec.do("GET", "/api/account", nil, nil)
	if code := spec.do("POST", "/api/analyze", req, &e); code != http.StatusOK {
		t.Errorf("a spectator: %d %q", code, e.Error)
	}
	sa.send(map[string]string{"type": "resign"})
	sb.until("the end", func(st state) bool { return st.Status == "finished" })
	if code := a.do("POST", "/api/analyze", req, &e); code != http.StatusOK {
		t.Errorf("the player after the end: %d %q", code, e.Error)
	}
}

func TestAnalyzeMultiPV(t *testing.T) {
	s := startServer(t, t.TempDir())
	u := s.user()
	for _, name := range []string{"magneton", "tumbling"} {
		var a struct {
			Best  string
			Lines []wire.AnalysisLine
			Error string
		}
		if code := u.do("POST", "/api/analyze", map[string]any{"game": name, "movetime_ms": 300, "multipv": 3}, &a); code != http.StatusOK {
			t.Fatalf("%s: %d %s", name, code, a.Error)
		}
		seen := map[string]bool{}
		for _, l := range a.Lines {
			if len(l.PV) == 0 || seen[l.PV[0]] || l.Score == "" {
				t.Errorf("%s: line %+v (lines %+v)", name, l, a.Lines)
			}
			seen[l.PV[0]] = true
		}
		if len(a.Lines) == 0 || a.Lines[0].PV[0] != a.Best {
			t.Errorf("%s: best %s, lines %+v", name, a.Best, a.Lines)
		}
		t.Logf("%s: %d lines", name, len(a.Lines))
	}
	var e struct{ Error string }
	if code := u.do("POST", "/api/analyze", map[string]any{"multipv": 4}, &e); code != http.StatusBadRequest || !strings.Contains(e.Error, "multipv 4") {
		t.Errorf("multipv 4: %d %q", code, e.Error)
	}
}

// TestAnalyzeProvenBySolver: the analysis says "proven" of a win made of
// quiet moves, which the threat-only search does not see and the
// proof-number solver proves (Black's win in 6 of docs/proofs), with the
// proof's bound.
func TestAnalyzeProvenBySolver(t *testing.T) {
	const position = "8/6WB/B1B3B1/W6W/8/8/5W2/WB6 b 0 0"
	gm, err := games.Lookup("magneton")
	if err != nil {
		t.Fatal(err)
	}
	st, err := gm.Spec.New(gm.Spec.Defaults()).ParsePosition(position)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := gm.AI.ForcedResult(context.Background(), st, engine.ProofPlies, engine.ProofNodes); err != nil || n != 0 {
		t.Fatalf("the threat-only search finds %d (%v): the test wants a win it does not see", n, err)
	}
	s := startServer(t, t.TempDir())
	u := s.user()
	var a struct {
		Turn   int
		Proven *struct {
			Winner, Moves int
			Exact         bool
		}
		Error string
	}
	if code := u.do("POST", "/api/analyze", map[string]any{"game": "magneton", "position": position, "movetime_ms": 100}, &a); code != http.StatusOK {
		t.Fatalf("analyze: %d %s", code, a.Error)
	}
	if a.Proven == nil || a.Proven.Winner != a.Turn || a.Proven.Moves < 2 || a.Proven.Moves > 6 || a.Proven.Exact {
		t.Errorf("proven %+v, turn %d: want the side to move's win in at most 6 moves", a.Proven, a.Turn)
	}
}

// puzzleView is a puzzle as GET /api/puzzles/<id> answers it.
type puzzleView struct {
	wire.Puzzle
	Themes []string
	Record string
}

// TestPuzzleNextChoice: "next" never follows a puzzle with one of the
// same game record or the same position up to symmetry, keeps to the
// theme asked for, and refuses a theme the game does not have.
func TestPuzzleNextChoice(t *testing.T) {
	s := startServer(t, t.TempDir())
	for _, u := range []*user{s.user(), s.signedUp("chooser")} {
		prev := puzzleView{}
		for i := 0; i < 15; i++ {
			var next puzzleView
			url := "/api/puzzles/next?game=magneton&theme=double-threat"
			if prev.ID != "" {
				url += "&after=" + prev.ID
			}
			if code := u.do("GET", url, nil, &next); code != http.StatusOK {
				t.Fatalf("next: %d", code)
			}
			if !slices.Contains(next.Themes, "double-threat") || next.Game != "magneton" {
				t.Errorf("next of the theme double-threat: %s %v", next.ID, next.Themes)
			}
			if prev.ID != "" {
				if a, b := puzzleByID(t, prev.ID), puzzleByID(t, next.ID); next.ID == prev.ID || puzzle.Alike(a, b) {
					t.Errorf("%s (record %s) after %s (record %s)", next.ID, next.Record, prev.ID, prev.Record)
				}
			}
			if next.Record == "" {
				t.Errorf("puzzle %s without its record", next.ID)
			}
			prev = next
		}
	}
	// A streak's next: rated at least min, the hardest when none is.
	for _, tc := range []struct{ min, least int }{{1400, 1400}, {1700, 1700}, {99999, 1700}} {
		for i := 0; i < 5; i++ {
			var next puzzleView
			if code := s.user().do("GET", fmt.Sprintf("/api/puzzles/next?game=magneton&min=%d", tc.min), nil, &next); code != http.StatusOK || next.Rating < tc.least {
				t.Errorf("next of min %d: %d, %s rated %d", tc.min, code, next.ID, next.Rating)
			}
		}
	}
	var bad struct{ Error string }
	if code := s.user().do("GET", "/api/puzzles/next?game=magneton&min=hard", nil, &bad); code != http.StatusBadRequest || !strings.Contains(bad.Error, "min") {
		t.Errorf("min=hard: %d %q", code, bad.Error)
	}
	if code := s.user().do("GET", "/api/puzzles/next?game=magneton&theme=tumble", nil, &bad); code != http.StatusBadRequest || !strings.Contains(bad.Error, `"tumble"`) {
		t.Errorf("a theme of the other game: %d %q", code, bad.Error)
	}
	var themes struct {
		Themes []struct {
			ID    string
			Count int
		}
	}
	s.user().do("GET", "/api/puzzles/themes?game=tumbling", nil, &themes)
	seen := map[string]int{}
	for _, th := range themes.Themes {
		seen[th.ID] = th.Count
	}
	if seen["tumble"] == 0 || seen["win-in-2"] == 0 || seen["drop"] != 0 {
		t.Errorf("the themes of Tumbling Down: %+v", themes.Themes)
	}
}

// puzzleByID is a shipped puzzle.
func puzzleByID(t *testing.T, id string) *puzzle.Puzzle {
	t.Helper()
	all, err := puzzle.Shipped()
	if err != nil {
		t.Fatal(err)
	}
	for _, pz := range all {
		if pz.ID == id {
			return pz
		}
	}
	t.Fatalf("no shipped puzzle %s", id)
	return nil
}

// TestPuzzleRefuteAndHistory: a wrong move gets a legal reply; the
// account's first attempt is rated, the retry is not and says so, and
// the history holds both, newest first; a guest has no history.
func TestPuzzleRefuteAndHistory(t *testing.T) {
	s := startServer(t, t.TempDir())
	ann := s.signedUp("historian")
	var pz puzzleView
	ann.do("GET", "/api/puzzles/next?game=magneton", nil, &pz)
	wrong := ""
	for _, m := range pz.Legal[0] {
		if !slices.Contains(pz.Accept[0], m) {
			wrong = m
			break
		}
	}
	var ref struct {
		Move, Position, Reply, After, Error string
		Ends                                bool
	}
	if code := ann.do("POST", "/api/puzzles/"+pz.ID+"/refute", map[string]any{"ply": 0, "move": wrong}, &ref); code != http.StatusOK {
		t.Fatalf("refute %s: %d %s", wrong, code, ref.Error)
	}
	var played wire.Played
	if !ref.Ends {
		ann.do("POST", "/api/play", map[string]any{"game": pz.Game, "rules": pz.Rules, "position": pz.Position, "moves": []string{wrong, ref.Reply}}, &played)
		if played.Position != ref.After || ref.Move != wrong {
			t.Errorf("the reply %s to %s: after %q, the rules say %q", ref.Reply, wrong, ref.After, played.Position)
		}
	}
	var bad struct{ Error string }
	if code := ann.do("POST", "/api/puzzles/"+pz.ID+"/refute", map[string]any{"ply": 0, "move": pz.Line[0]}, &bad); code != http.StatusBadRequest || !strings.Contains(bad.Error, "no wrong move") {
		t.Errorf("refuting the solution: %d %q", code, bad.Error)
	}
	var res map[string]any
	ann.do("POST", "/api/puzzles/"+pz.ID+"/result", map[string]any{"solved": false}, &res)
	if res["rated"] != true {
		t.Fatalf("the first attempt: %v", res)
	}
	ann.do("POST", "/api/puzzles/"+pz.ID+"/result", map[string]any{"solved": true}, &res)
	if res["rated"] != false || res["retry"] != true {
		t.Errorf("the retry: %v", res)
	}
	var hist struct {
		Plays []struct {
			Puzzle        string
			Solved, Rated bool
			Rating, Diff  int
			WinIn         int `json:"win_in"`
			Themes        []string
		}
		Attempts, Solved int
	}
	if code := ann.do("GET", "/api/puzzles/history", nil, &hist); code != http.StatusOK || len(hist.Plays) != 2 || hist.Attempts != 2 || hist.Solved != 1 {
		t.Fatalf("history: %d %+v", code, hist)
	}
	retry, first := hist.Plays[0], hist.Plays[1]
	if !retry.Solved || retry.Rated || first.Solved || !first.Rated || first.Diff >= 0 || first.Rating == 0 || first.WinIn != pz.WinIn || len(first.Themes) == 0 {
		t.Errorf("history: %+v", hist.Plays)
	}
	if code := ann.do("GET", "/api/puzzles/history?game=tumbling", nil, &hist); code != http.StatusOK || len(hist.Plays) != 0 {
		t.Errorf("the history of Tumbling Down: %d %+v", code, hist)
	}
	if code := s.user().do("GET", "/api/puzzles/history", nil, &bad); code != http.StatusUnauthorized {
		t.Errorf("a guest's history: %d", code)
	}
}
