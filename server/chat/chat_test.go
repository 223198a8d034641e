package chat

import (
	"testing"
	"time"

	"github.com/magneton-games/magneton/server/wire"
	"github.com/magneton-games/magneton/store"
)

// TestRoomsFillApart: the spectators' room full leaves the players' open.
func TestRoomsFillApart(t *testing.T) {
	var c Log
	c.Load(nil)
	now := time.Now()
	for i := range MaxLines {
		c.Add(c.Next("g", -1, "spectator", "hello", now))
		if i < MaxLines-1 && c.Full(store.ChatSpectators) != nil {
			t.Fatalf("the spectators' room full at %d lines", i+1)
		}
	}
	if c.Full(store.ChatSpectators) == nil {
		t.Error("the spectators' room takes more than MaxLines")
	}
	if err := c.Full(store.ChatPlayers); err != nil {
		t.Errorf("the players' room after the spectators filled theirs: %v", err)
	}
}

// TestWriters: a spectator's pace is its address's, whatever its name.
func TestWriters(t *testing.T) {
	if Writer(-1, "Guest-1", "1.2.3.4") != Writer(-1, "Guest-2", "1.2.3.4") {
		t.Error("two guests of one address have two paces")
	}
	if Writer(0, "ann", "1.2.3.4") == Writer(1, "bob", "1.2.3.4") {
		t.Error("the two players of one address share a pace")
	}
}

// TestClean: control and direction-changing characters go, and a line of
// nothing visible is empty.
func TestClean(t *testing.T) {
	for _, tc := range []struct{ in, out, code string }{
		{"  good luck  ", "good luck", ""},
		{"tab\there", "tab here", ""},
		{"evil \u202egnp.exe", "evil gnp.exe", ""},
		{"\u2067isolate\u2069", "isolate", ""},
		{"\u200b\u200c\u200d\ufeff", "", "chat_empty"},
		{" \u2060 \u00ad ", "", "chat_empty"},
		{"family 👨\u200d👩\u200d👧", "family 👨\u200d👩\u200d👧", ""},
	} {
		got, err := Clean(tc.in)
		code := ""
		if err != nil {
			code = err.(wire.Refusal).Code
		}
		if got != tc.out || code != tc.code {
			t.Errorf("Clean(%q) = %q, %q; want %q, %q", tc.in, got, code, tc.out, tc.code)
		}
	}
}
