package tumbling

import (
	"strings"
	"testing"
)

func TestDiagram(t *testing.T) {
	p := mustParse(t, Rules{}, midgame)
	d := p.Diagram(false)
	for _, want := range []string{
		" 1  r5   R1   r3   ·    R1   R2   ·    R5*  1\n",
		"a1 rbbbr",
		"Red's Kings: height 5.",
		"Black to move.",
	} {
		if !strings.Contains(d, want) {
			t.Errorf("diagram lacks %q:\n%s", want, d)
		}
	}
	if c := p.Diagram(true); !strings.Contains(c, "\x1b[") {
		t.Error("no colours")
	}
	won := mustPlay(t, mustParse(t, Rules{}, board(map[string]string{"d4": "b", "e5": "rr", "h8": "r"}, "b")), "d4-e5")
	if d := won.Diagram(false); !strings.Contains(d, "Black has won (king captured).") {
		t.Error(d)
	}
}
