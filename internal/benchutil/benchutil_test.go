package benchutil

import (
	"strings"
	"testing"
)

func TestRedactURL(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"postgres://magneton:secret@127.0.0.1:5432/archive?sslmode=disable", "postgres://magneton:xxxxx@127.0.0.1:5432/archive?sslmode=disable"},
		{"postgres://magneton@127.0.0.1/archive", "postgres://magneton@127.0.0.1/archive"},
		{"sqlite:/tmp/archive.db", "sqlite:/tmp/archive.db"},
	} {
		if got := RedactURL(c.in); got != c.want {
			t.Errorf("RedactURL(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestLoadAverage(t *testing.T) {
	if got := LoadAverage(); got != "?" && len(strings.Fields(got)) != 3 {
		t.Errorf("LoadAverage() = %q: want three figures or ?", got)
	}
}
