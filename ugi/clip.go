package ugi

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The most of an input that a message quotes, in characters, and the
// longest message, in bytes.
const (
	MaxQuoted  = 60
	MaxMessage = 1000
)

// Clip quotes an input for a message, as %q does, cut to MaxQuoted
// characters with an ellipsis and the input's length when it is longer:
// "e5-f6xxxx…" (3145728 characters).
func Clip(s string) string {
	n := utf8.RuneCountInString(s)
	if n <= MaxQuoted {
		return strconv.Quote(s)
	}
	cut, k := s, 0
	for i := range s {
		if k == MaxQuoted {
			cut = s[:i]
			break
		}
		k++
	}
	return fmt.Sprintf("%s… (%d characters)", strconv.Quote(cut), n)
}

// ClipMessage shortens the quoted inputs of a message (those the rules'
// errors quote with %q, such as a whole position text) as Clip does, and
// the message to MaxMessage bytes, so that a megabyte of bad input is not
// echoed back. The engine's info strings and the command line's errors
// pass through it.
func ClipMessage(msg string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(msg, '"')
		if i < 0 {
			b.WriteString(msg)
			break
		}
		j := closingQuote(msg, i)
		if j < 0 {
			b.WriteString(msg)
			break
		}
		b.WriteString(msg[:i])
		seg := msg[i : j+1]
		inner, err := strconv.Unquote(seg)
		if err != nil {
			inner = seg[1 : len(seg)-1]
		}
		if utf8.RuneCountInString(inner) > MaxQuoted {
			b.WriteString(Clip(inner))
		} else {
			b.WriteString(seg)
		}
		msg = msg[j+1:]
	}
	out := b.String()
	if len(out) <= MaxMessage {
		return out
	}
	cut := MaxMessage
	for cut > 0 && !utf8.RuneStart(out[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d bytes)", out[:cut], len(out))
}

// closingQuote returns the index of the quote that closes the one at i,
// skipping escaped characters, or -1.
func closingQuote(s string, i int) int {
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '"':
			return j
		}
	}
	return -1
}
