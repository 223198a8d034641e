package round

import "testing"

// TestPresenceOrder: a mirror's report taken before one already recorded
// (the two ways reports travel can swap them) is not recorded over it.
func TestPresenceOrder(t *testing.T) {
	s := &Session{remote: map[string]presence{}}
	steps := []struct {
		conns   [2]int
		sent    int64
		changed bool
		seat1   bool
	}{
		{[2]int{0, 1}, 20, true, true},  // the player arrived
		{[2]int{0, 0}, 10, false, true}, // an older report, late: ignored
		{[2]int{0, 0}, 30, true, false}, // the player left
		{[2]int{0, 1}, 30, true, true},  // taken at the same moment: recorded
	}
	for i, st := range steps {
		if got := s.notePresence("i2", presence{conns: st.conns, sent: st.sent}); got != st.changed || s.connected(1) != st.seat1 {
			t.Errorf("report %d: changed %v, seat 1 connected %v; want %v, %v", i, got, s.connected(1), st.changed, st.seat1)
		}
	}
}
