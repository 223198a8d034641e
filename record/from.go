package record

import "fmt"

// ParseFrom reads exactly one record, as Parse does, from text that
// begins on line first of a file, so that its errors name the file's
// lines: what a reader of a long file of records, taking them one at a
// time, gives each record.
func ParseFrom(text string, first int) (*Record, error) {
	p := &parser{text: text, line: max(first, 1)}
	p.skipSpace()
	if p.pos >= len(p.text) {
		return nil, p.errorf("no game record found")
	}
	r, err := p.record()
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.pos < len(p.text) {
		return nil, p.errorf("%q after the record's result", fmt.Sprintf("%.20s", p.text[p.pos:]))
	}
	return r, nil
}
