// Package chat is a game's chat as its owner keeps it: the lines once
// read from the database, who may see which room, the tidying of a new
// line and each writer's pace. The players have their room and the
// spectators theirs, which the players see only once the game is over, so
// that nobody can pass them advice during it. Nothing here does I/O.
package chat

import (
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/magneton-games/magneton/server/limits"
	"github.com/magneton-games/magneton/server/wire"
	"github.com/magneton-games/magneton/store"
)

// Limits: a line's length, the lines each room of a game keeps, and each
// writer's pace (a burst, then one line every Every).
const (
	MaxRunes = 300
	MaxLines = 1000
	Burst    = 4
	Every    = 2 * time.Second
)

// Room returns where seat's lines go: the players' room, or (seat -1) the
// spectators'.
func Room(seat int) string {
	if seat >= 0 {
		return store.ChatPlayers
	}
	return store.ChatSpectators
}

// Sees reports whether seat sees the lines of room in a game that is over
// or not: the players do not see the spectators' while the game goes on.
func Sees(seat int, room string, over bool) bool {
	return room == store.ChatPlayers || seat < 0 || over
}

// Line is a stored line as clients see it.
func Line(l store.ChatLine) wire.ChatLine {
	return wire.ChatLine{Seq: l.Seq, Room: l.Room, Name: l.Name, Side: l.Side, Text: l.Text, At: l.At}
}

// Clean checks and tidies a chat line: trimmed, control characters made
// spaces, the characters that turn the direction of text (U+202A to
// U+202E, U+2066 to U+2069, the marks U+200E and U+200F) dropped, so that
// no line can show itself backwards or spill over the next; a line with
// nothing visible (spaces and invisible formatting only) is empty; at most
// MaxRunes long.
func Clean(text string) (string, error) {
	text = strings.TrimSpace(strings.Map(func(r rune) rune {
		switch {
		case unicode.IsControl(r):
			return ' '
		case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f:
			return -1
		}
		return r
	}, text))
	if !utf8.ValidString(text) {
		return "", wire.Refuse("chat_utf8", "chat: the message is not valid UTF-8")
	}
	if !visible(text) {
		return "", wire.Refuse("chat_empty", "chat: the message is empty")
	}
	if n := utf8.RuneCountInString(text); n > MaxRunes {
		return "", wire.Refuse("chat_long", fmt.Sprintf("chat: a message is at most %d characters (this one has %d)", MaxRunes, n), "max", fmt.Sprint(MaxRunes), "n", fmt.Sprint(n))
	}
	return text, nil
}

// visible reports whether text shows anything: a rune that is neither
// space nor invisible formatting (zero-width spaces and joiners, the byte
// order mark, soft hyphens).
func visible(text string) bool {
	for _, r := range text {
		if !unicode.IsSpace(r) && !unicode.Is(unicode.Cf, r) {
			return true
		}
	}
	return false
}

// Log is one game's chat: its lines once Loaded, and its writers' paces.
// Its owner guards it with the game's lock.
type Log struct {
	lines   []store.ChatLine
	loaded  bool
	buckets map[string]*limits.Bucket
}

// Loaded reports whether the lines have been read (Load).
func (c *Log) Loaded() bool { return c.loaded }

// Load replaces the lines by those read from the database.
func (c *Log) Load(lines []store.ChatLine) { c.lines, c.loaded = lines, true }

// Forget marks the lines as to be read again (some may have been missed).
func (c *Log) Forget() { c.loaded = false }

// Lines returns the lines, oldest first; the slice must not be changed.
func (c *Log) Lines() []store.ChatLine { return c.lines }

// Visible returns the lines seat may see in a game over or not.
func (c *Log) Visible(seat int, over bool) []wire.ChatLine {
	out := []wire.ChatLine{}
	for _, l := range c.lines {
		if Sees(seat, l.Room, over) {
			out = append(out, Line(l))
		}
	}
	return out
}

// HasSpectatorLines reports whether the spectators have chatted.
func (c *Log) HasSpectatorLines() bool {
	for _, l := range c.lines {
		if l.Room == store.ChatSpectators {
			return true
		}
	}
	return false
}

// Writer returns the key of a line's writer for its pace: the seat, or a
// spectator's address (its name when the address is not known), so that
// the sockets of one address, each a new guest, share one pace.
func Writer(seat int, name, addr string) string {
	switch {
	case seat >= 0:
		return fmt.Sprintf("seat:%d", seat)
	case addr != "":
		return "addr:" + addr
	}
	return "name:" + name
}

// Allow takes a line of writer from its bucket at now; false when it
// writes too fast.
func (c *Log) Allow(writer string, now time.Time) bool {
	b := c.buckets[writer]
	if b == nil {
		if c.buckets == nil {
			c.buckets = map[string]*limits.Bucket{}
		}
		b = limits.NewBucket(1/Every.Seconds(), Burst, now)
		c.buckets[writer] = b
	}
	return b.Allow(now)
}

// Full refuses a new line in room when the room holds MaxLines; nil when
// there is room. Each room has its own, so that the spectators cannot fill
// the players'.
func (c *Log) Full(room string) error {
	n := 0
	for _, l := range c.lines {
		if l.Room == room {
			n++
		}
	}
	if n >= MaxLines {
		return wire.Refuse("chat_full", fmt.Sprintf("chat: this game's chat is full (%d messages)", MaxLines), "max", fmt.Sprint(MaxLines))
	}
	return nil
}

// Next is the line a writer adds next, numbered after the others.
func (c *Log) Next(game string, seat int, name, text string, now time.Time) store.ChatLine {
	return store.ChatLine{Game: game, Seq: len(c.lines), Room: Room(seat), Side: seat, Name: name, Text: text, At: now.UnixMilli()}
}

// Add appends a line once it is saved.
func (c *Log) Add(l store.ChatLine) { c.lines = append(c.lines, l) }

// Take is a follower's part of an owner's new line: true when the line is
// the next one, to be shown; false when it has it already (nothing to
// do) or missed one before (then the lines must be read again, and the
// line shown after).
func (c *Log) Take(l store.ChatLine) (next, have bool) {
	switch {
	case c.loaded && l.Seq == len(c.lines):
		c.lines = append(c.lines, l)
		return true, true
	case c.loaded && l.Seq < len(c.lines):
		return false, true
	}
	c.loaded = false
	return false, false
}
