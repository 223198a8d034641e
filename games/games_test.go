package games

import (
	"strings"
	"testing"
)

func TestLookup(t *testing.T) {
	for _, tc := range []struct{ name, want, err string }{
		{"magneton", "magneton", ""},
		{"tumbling-down", "tumbling-down", ""},
		{"tumbling", "tumbling-down", ""},
		{"chess", "", `unknown game "chess" (games: magneton, tumbling-down, tumbling)`},
		{"", "", "unknown game"},
	} {
		sp, err := Lookup(tc.name)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("Lookup(%q): error %v, want %q", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil || sp.Name != tc.want {
			t.Errorf("Lookup(%q) = %v, %v; want %s", tc.name, sp, err, tc.want)
		}
	}
	// Every game starts, and its start reads back from its own text.
	for _, sp := range All {
		r, err := sp.Rules()
		if err != nil {
			t.Fatal(err)
		}
		start := r.Start()
		back, err := r.ParsePosition(start.String())
		if err != nil || back.String() != start.String() || len(start.Moves()) == 0 {
			t.Errorf("%s: start %s reads back as %v (%v)", sp.Name, start, back, err)
		}
	}
}
