package record_test

import (
	"strings"
	"testing"

	"github.com/magneton-games/magneton/record"
)

func TestParseFrom(t *testing.T) {
	text := "[Game \"magneton\"]\n[Result \"*\"]\n\n1. d4 *\n"
	r, err := record.ParseFrom(text, 40)
	if err != nil || r.Tag("Game") != "magneton" || len(r.Moves) != 1 {
		t.Fatalf("ParseFrom: %+v, %v", r, err)
	}
	for _, tc := range []struct {
		text string
		want string
	}{
		{"", "line 40: no game record found"},
		{"\n\n[Game \"magneton\"]\n[Result \"1-0\"]\n1. d4 0-1", "line 44: the moves end with 0-1 but the Result tag says 1-0"},
		{"[Game \"magneton\"]\n1. d4\n", "line 42: the moves end without a result"},
		{text + "\n[Game", `line 45: "[Game" after the record's result`},
	} {
		_, err := record.ParseFrom(tc.text, 40)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseFrom(%q, 40): %v, want %q", tc.text, err, tc.want)
		}
	}
}

// FuzzParseFrom: never a panic, and a record it reads is the one Parse
// reads.
func FuzzParseFrom(f *testing.F) {
	f.Add("[Game \"magneton\"]\n[Result \"*\"]\n\n1. d4 *\n", 3)
	f.Add("[Game \"tumbling\"]\n1. a8-a7 {x} 1-0 [Game", 1)
	f.Fuzz(func(t *testing.T, text string, first int) {
		r, err := record.ParseFrom(text, first)
		if err != nil {
			return
		}
		back, err := record.Parse(text)
		if err != nil || back.Format() != r.Format() {
			t.Fatalf("%q reads as %+v from line %d, but Parse gives %+v, %v", text, r, first, back, err)
		}
	})
}
