package record

import (
	"fmt"
	"strings"
)

// Parse reads exactly one record. Errors give the line and say what is
// wrong.
func Parse(text string) (*Record, error) {
	recs, err := ParseAll(text)
	if err != nil {
		return nil, err
	}
	switch len(recs) {
	case 0:
		return nil, fmt.Errorf("no game record found")
	case 1:
		return recs[0], nil
	}
	return nil, fmt.Errorf("found %d game records, want one", len(recs))
}

// ParseAll reads every record of a file, one after the other.
func ParseAll(text string) ([]*Record, error) {
	p := &parser{text: text, line: 1}
	var recs []*Record
	for {
		p.skipSpace()
		if p.pos >= len(p.text) {
			return recs, nil
		}
		r, err := p.record()
		if err != nil {
			if len(recs) > 0 {
				return nil, fmt.Errorf("game %d: %w", len(recs)+1, err)
			}
			return nil, err
		}
		recs = append(recs, r)
	}
}

// Entry is one record of a file as ParseEach reads it: its number in the
// file from 1, the line it starts on, and the record or what is wrong with
// it.
type Entry struct {
	N      int
	Line   int
	Record *Record // nil when Err is set
	Err    error   // says the line and what is wrong, as Parse's errors do
}

// ParseEach reads every record of a file, as ParseAll does, but a record
// it cannot read does not end the file: it is reported with its error,
// and reading goes on at the next record, the next line that starts with
// "[" after a line that is not a tag (a blank line or movetext). A file
// that ParseAll reads gives the same records, none in error.
func ParseEach(text string) []Entry {
	p := &parser{text: text, line: 1}
	var entries []Entry
	for {
		p.skipSpace()
		if p.pos >= len(p.text) {
			return entries
		}
		start, line := p.pos, p.line
		r, err := p.record()
		entries = append(entries, Entry{N: len(entries) + 1, Line: line, Record: r, Err: err})
		if err != nil {
			p.resync(start)
		}
	}
}

// resync moves the parser, after an error in the record that began at
// start, to the beginning of the next record after start, or to the end:
// the first line after start that starts with "[" (after blanks) and
// follows a blank line or one that is not a tag. The line count follows.
func (p *parser) resync(start int) {
	// Back to the beginning of the line the parser stopped in, which may
	// itself begin the next record (a tag where a result was expected).
	pos := min(p.pos, len(p.text))
	for pos > start && p.text[pos-1] != '\n' {
		pos--
	}
	line := 1 + strings.Count(p.text[:pos], "\n")
	afterTag := true // whether the line before pos is a tag line
	if pos > start {
		prev := p.text[start : pos-1]
		afterTag = isTagLine(prev[strings.LastIndexByte(prev, '\n')+1:])
	}
	for pos < len(p.text) {
		next := len(p.text)
		if end := strings.IndexByte(p.text[pos:], '\n'); end >= 0 {
			next = pos + end + 1
		}
		l := p.text[pos:next]
		if pos > start && !afterTag && isTagLine(l) {
			p.pos, p.line = pos, line
			return
		}
		afterTag = isTagLine(l)
		pos = next
		line++
	}
	p.pos, p.line = len(p.text), line
}

// isTagLine reports whether a line starts with "[" after blanks.
func isTagLine(l string) bool {
	return strings.HasPrefix(strings.TrimLeft(l, " \t\r"), "[")
}

type parser struct {
	text string
	pos  int
	line int
}

func (p *parser) errorf(format string, args ...any) error {
	return fmt.Errorf("line %d: %s", p.line, fmt.Sprintf(format, args...))
}

func (p *parser) skipSpace() {
	for p.pos < len(p.text) {
		switch p.text[p.pos] {
		case '\n':
			p.line++
		case ' ', '\t', '\r':
		default:
			return
		}
		p.pos++
	}
}

func (p *parser) record() (*Record, error) {
	r := &Record{}
	for p.skipSpace(); p.pos < len(p.text) && p.text[p.pos] == '['; p.skipSpace() {
		t, err := p.tag()
		if err != nil {
			return nil, err
		}
		if hasTag(r, t.Name) {
			return nil, p.errorf("tag %s appears twice", t.Name)
		}
		r.Tags = append(r.Tags, t)
	}
	if len(r.Tags) == 0 {
		return nil, p.errorf("expected a tag such as [Game \"magneton\"], found %q", p.word())
	}
	if !hasTag(r, "Game") {
		return nil, p.errorf("the record has no Game tag")
	}
	for {
		p.skipSpace()
		if p.pos >= len(p.text) {
			return nil, p.errorf("the moves end without a result (1-0, 0-1, 1/2-1/2 or *)")
		}
		switch c := p.text[p.pos]; {
		case c == '{':
			comment, err := p.comment()
			if err != nil {
				return nil, err
			}
			target := &r.Comment
			if len(r.Moves) > 0 {
				target = &r.Moves[len(r.Moves)-1].Comment
			}
			if *target != "" {
				*target += " "
			}
			*target += comment
		case c == '[':
			return nil, p.errorf("a tag after the moves began; end the game with its result first")
		default:
			word := p.word()
			switch word {
			case "1-0", "0-1", "1/2-1/2", "*":
				if tagged := r.Tag("Result"); tagged != "" && tagged != word {
					return nil, p.errorf("the moves end with %s but the Result tag says %s", word, tagged)
				}
				if !hasTag(r, "Result") {
					r.Tags = append(r.Tags, Tag{"Result", word})
				}
				return r, nil
			}
			move, ok := stripNumber(word)
			if !ok {
				return nil, p.errorf("%q is not a move number like 12. or 12...", word)
			}
			if move != "" {
				r.Moves = append(r.Moves, Move{Text: move})
			}
		}
	}
}

func hasTag(r *Record, name string) bool {
	for _, t := range r.Tags {
		if t.Name == name {
			return true
		}
	}
	return false
}

// stripNumber removes a leading move number ("12." or "12...") from a
// token and returns what follows, which is empty or a move starting with a
// letter ("12.d4"); ok is false for a malformed number.
func stripNumber(word string) (string, bool) {
	i := 0
	for i < len(word) && word[i] >= '0' && word[i] <= '9' {
		i++
	}
	if i == 0 || i == len(word) || word[i] != '.' {
		return word, true // not a number: a move
	}
	j := i
	for j < len(word) && word[j] == '.' {
		j++
	}
	if rest := word[j:]; rest != "" && (rest[0] < 'a' || rest[0] > 'z') {
		return word, true // "0.0" and the like: not a number, let the rules judge it
	}
	if j-i != 1 && j-i != 3 {
		return "", false
	}
	return word[j:], true
}

// word reads a token up to white space, a brace or a bracket.
func (p *parser) word() string {
	start := p.pos
	for p.pos < len(p.text) && !strings.ContainsRune(" \t\r\n{}[]", rune(p.text[p.pos])) {
		p.pos++
	}
	if p.pos == start && p.pos < len(p.text) {
		p.pos++ // a stray '}' or ']': take it so the error names it
	}
	return p.text[start:p.pos]
}

func (p *parser) comment() (string, error) {
	startLine := p.line
	p.pos++ // '{'
	end := strings.IndexByte(p.text[p.pos:], '}')
	if end < 0 {
		p.line = startLine
		return "", p.errorf("comment opened with { is never closed")
	}
	c := p.text[p.pos : p.pos+end]
	p.line += strings.Count(c, "\n")
	p.pos += end + 1
	return c, nil
}

func (p *parser) tag() (Tag, error) {
	p.pos++ // '['
	p.skipInline()
	name := p.word()
	if name == "" || !isName(name) {
		return Tag{}, p.errorf("tag name %q must be letters, digits or _", name)
	}
	p.skipInline()
	if p.pos >= len(p.text) || p.text[p.pos] != '"' {
		return Tag{}, p.errorf("tag %s: value must be in double quotes", name)
	}
	p.pos++
	var b strings.Builder
	for {
		if p.pos >= len(p.text) || p.text[p.pos] == '\n' {
			return Tag{}, p.errorf("tag %s: value has no closing quote", name)
		}
		c := p.text[p.pos]
		p.pos++
		if c == '"' {
			break
		}
		if c == '\\' && p.pos < len(p.text) && (p.text[p.pos] == '"' || p.text[p.pos] == '\\') {
			c = p.text[p.pos]
			p.pos++
		}
		b.WriteByte(c)
	}
	p.skipInline()
	if p.pos >= len(p.text) || p.text[p.pos] != ']' {
		return Tag{}, p.errorf("tag %s: expected ] after the value", name)
	}
	p.pos++
	return Tag{name, b.String()}, nil
}

func (p *parser) skipInline() {
	for p.pos < len(p.text) && (p.text[p.pos] == ' ' || p.text[p.pos] == '\t') {
		p.pos++
	}
}

func isName(s string) bool {
	for _, c := range s {
		if !(c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}
