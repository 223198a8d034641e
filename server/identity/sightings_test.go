package identity

import (
	"testing"
	"time"
)

// TestSightings: a key's sighting is due once every Every, each key on
// its own, and the keys are forgotten, not kept without end, past
// maxSightings.
func TestSightings(t *testing.T) {
	s := Sightings{Every: time.Minute}
	t0 := time.Unix(1000, 0)
	for _, c := range []struct {
		key  string
		at   time.Duration
		want bool
	}{
		{"a", 0, true},
		{"a", 30 * time.Second, false},
		{"b", 30 * time.Second, true},
		{"a", time.Minute, true},
		{"a", 90 * time.Second, false},
		{"b", 89 * time.Second, false},
		{"b", 90 * time.Second, true},
	} {
		if got := s.Due(c.key, t0.Add(c.at)); got != c.want {
			t.Errorf("%s at %v: due %v, want %v", c.key, c.at, got, c.want)
		}
	}
	for i := range maxSightings + 1 {
		s.Due(string(rune('A'+i%26))+time.Duration(i).String(), t0)
	}
	if n := len(s.last); n > maxSightings {
		t.Errorf("%d keys kept, want at most %d", n, maxSightings)
	}
}
