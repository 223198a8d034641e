package e2e

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/magneton-games/magneton/engine"
	"github.com/magneton-games/magneton/games"
)

// engineCall is run in a page: one call of the browser's engine
// (js/engine.js), its answer or its refusal as JSON.
func engineCall(op string, req any) string {
	b, _ := json.Marshal(req)
	return fmt.Sprintf(`import('/js/engine.js').then(m => m.call(%q, %s)).then(v => JSON.stringify(v), e => JSON.stringify({error: e.message, code: e.code}))`, op, b)
}

// TestBrowserEngineRules checks that the browser's engine is the server's
// rules: the same positions, legal moves and results as package engine
// natively, for every game, from positions of its reference data, and the
// same refusals for a wrong move.
func TestBrowserEngineRules(t *testing.T) {
	base := startServer(t)
	p := tab(t, browser(t), "engine")
	p.goTo(base + "/analysis")
	p.waitFor("the engine", `import('/js/engine.js').then(m => m.load())`, 60*time.Second)
	for _, g := range games.All() {
		rules, err := games.Rules(g.Spec.Name, "")
		if err != nil {
			t.Fatal(err)
		}
		st := rules.Start()
		var moves []string
		for i := 0; i < 12; i++ {
			legal := st.Moves()
			if len(legal) == 0 {
				break
			}
			mv := legal[(i*7)%len(legal)]
			moves = append(moves, mv)
			if st, err = st.Play(mv); err != nil {
				t.Fatal(err)
			}
			if res, _ := st.Outcome(); res.Over() {
				break
			}
		}
		for _, req := range []engine.PlayRequest{
			{Game: g.Spec.Name, Moves: moves},
			{Game: g.Spec.Name, Moves: append(append([]string{}, moves[:2]...), "zz9")},
			{Game: g.Spec.Name, Position: "not a position"},
		} {
			want, werr := engine.Play(req)
			out := eval[string](p, engineCall("play", req))
			if werr != nil {
				var got struct{ Error, Code string }
				json.Unmarshal([]byte(out), &got)
				if got.Code == "" || got.Error == "" {
					t.Errorf("%s %v: the browser answered %s, want the refusal %v", g.Spec.Name, req, out, werr)
				}
				continue
			}
			var got any
			var wantJSON any
			json.Unmarshal([]byte(out), &got)
			b, _ := json.Marshal(want)
			json.Unmarshal(b, &wantJSON)
			if d := cmp.Diff(wantJSON, got); d != "" {
				t.Errorf("%s %v: the browser's engine differs from the native (-native +browser):\n%s", g.Spec.Name, req, d)
			}
		}
	}
	p.checkConsole()
}
