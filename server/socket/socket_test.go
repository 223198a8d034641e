package socket

import (
	"testing"
	"time"
)

// TestFloodWindow: only recent floods count towards closing a socket.
func TestFloodWindow(t *testing.T) {
	var f floods
	now := time.Now()
	for i := range maxFloods {
		if f.add(now.Add(time.Duration(i) * time.Millisecond)) {
			t.Fatalf("closed after %d floods", i+1)
		}
	}
	if !f.add(now.Add(50 * time.Millisecond)) {
		t.Error("not closed after more than maxFloods floods at once")
	}
	var g floods
	for i := range 10 * maxFloods {
		// One flood every half window, forever: never more than two at once.
		if g.add(now.Add(time.Duration(i) * floodWindow / 2)) {
			t.Fatalf("a client flooding rarely was closed after %d floods", i+1)
		}
	}
}
