package archive

import (
	"archive/zip"
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"iter"
	"path"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/record"
	"github.com/magneton-games/magneton/server/ids"
	"github.com/magneton-games/magneton/store"
	"github.com/magneton-games/magneton/tumbling"
)

// The import of game records into the archive. A file holds one or many
// records: SGF game trees one after the other (Tumbling Down's, the site's
// or Boardspace.net's dialect), the site's PGN-like records one after the
// other, or a zip archive of such files (Boardspace serves its games as a
// zip a month). Each record becomes a finished game marked with its source
// (store.SourceBoardspace for Boardspace's records, else
// store.SourceImport), never rated, and indexed in the archive.
//
// A file is the unit: all of its games are imported, in one transaction,
// or none. A record that cannot be read or replayed, or that has no
// result, refuses the whole file, saying where (the file, the member of a
// zip, the record's number and line) and why; other files go on. A record
// imported before (the same game, rules, start, moves, players and day:
// its record key) is passed over and reported with the id of the earlier
// game; the rest of the file is imported.
//
// A file is read twice, a record at a time: once to check every record,
// without touching the database, and then again inside the transaction
// that stores them. Memory stays that of one record, whatever the number
// of records or files; a bad file never holds the database's writer.

// MaxRecordBytes bounds one record's text.
const MaxRecordBytes = 1 << 20

// Place is where a record is: its file, the member of a zip archive that
// holds it, its number in the file or member (from 1), and its line.
type Place struct {
	File   string `json:"file"`
	Member string `json:"member,omitempty"`
	Record int    `json:"record,omitempty"`
	Line   int    `json:"line,omitempty"`
}

func (p Place) String() string {
	s := p.File
	if p.Member != "" {
		s += ", member " + p.Member
	}
	if p.Record > 0 {
		s += fmt.Sprintf(", record %d", p.Record)
	}
	if p.Line > 0 {
		s += fmt.Sprintf(", line %d", p.Line)
	}
	return s
}

// RecordError is why a file was refused: the place of the record (or of
// what is not a record) and the reason.
type RecordError struct {
	Place
	Reason string
}

func (e *RecordError) Error() string { return e.Place.String() + ": " + e.Reason }

// Duplicate is a record imported before: its place, and the id of the
// game it was imported as.
type Duplicate struct {
	Place
	Earlier string `json:"earlier"`
}

// FileResult is what the import of one file did.
type FileResult struct {
	File string
	// Games is the number of games imported.
	Games      int
	Duplicates []Duplicate
	// Refused says why nothing of the file was imported; nil when it was.
	Refused *RecordError
}

// Importer imports files of game records into the archive.
type Importer struct {
	Store store.Store
	// ImportedBy is the account that imports, "" for the command line.
	ImportedBy string
	// Now is the import's clock, time.Now when nil: the date of the games
	// whose records have none.
	Now func() time.Time
	// MaxBytes bounds what one file may unpack to (its zip members'
	// contents); 0 for no bound.
	MaxBytes int64
	// MaxRecords bounds the records of one file (0 for no bound): its
	// transaction holds the database's writer while it is stored.
	MaxRecords int
	// Progress, when set, is called for each record stored or passed
	// over as a duplicate.
	Progress func()
}

// ImportFile imports the records of one file, name its name, read from r
// (size bytes): all of them or, when the file is refused, none (the
// result's Refused says why). The error is the store's failing, or ctx's.
func (im *Importer) ImportFile(ctx context.Context, name string, r io.ReaderAt, size int64) (FileResult, error) {
	res := FileResult{File: name}
	now := time.Now()
	if im.Now != nil {
		now = im.Now()
	}
	// First the whole file is checked, without the database.
	n := 0
	for raw, err := range im.records(name, r, size) {
		if err == nil {
			_, err = im.convert(raw, now)
		}
		if err != nil {
			return res, refusal(err, &res)
		}
		if n++; n%256 == 0 && ctx.Err() != nil {
			return res, ctx.Err()
		}
		if im.MaxRecords > 0 && n > im.MaxRecords {
			res.Refused = &RecordError{raw.Place, fmt.Sprintf("more than %d records in one file, the most this import takes", im.MaxRecords)}
			return res, nil
		}
	}
	if n == 0 {
		res.Refused = &RecordError{Place{File: name}, "no game record in it"}
		return res, nil
	}
	// Then the records are read again and stored, in one transaction.
	next, stop := iter.Pull2(im.records(name, r, size))
	defer stop()
	var last Place
	stored, err := im.Store.ImportRecords(ctx, func() (*store.ArchiveImport, error) {
		raw, err, ok := next()
		if !ok {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		last = raw.Place
		if im.Progress != nil {
			im.Progress()
		}
		return im.convert(raw, now)
	}, func(_ *store.ArchiveImport, earlier string) error {
		res.Duplicates = append(res.Duplicates, Duplicate{last, earlier})
		return nil
	})
	if err != nil {
		res.Duplicates = nil
		var re *RecordError
		if errors.As(err, &re) {
			// The file changed between the two readings.
			res.Refused = re
			return res, nil
		}
		return res, fmt.Errorf("import %s: %w", name, err)
	}
	res.Games = stored
	return res, nil
}

// refusal puts a record's error in the result as its refusal; any other
// error is returned.
func refusal(err error, res *FileResult) error {
	var re *RecordError
	if errors.As(err, &re) {
		res.Refused = re
		return nil
	}
	return err
}

// rawRecord is one record's text, as it is in its file.
type rawRecord struct {
	Place
	Kind string // "sgf" or "pgn"
	Text string
}

// Kinds of file content.
const (
	kindSGF = "sgf"
	kindPGN = "pgn"
	kindZip = "zip"
)

// records reads the records of a file one at a time: those of its zip
// members in turn when it is a zip archive. An error (a *RecordError for
// what is wrong with the file) ends it.
func (im *Importer) records(name string, r io.ReaderAt, size int64) iter.Seq2[rawRecord, error] {
	return func(yield func(rawRecord, error) bool) {
		br := bufio.NewReaderSize(newBudget(im.MaxBytes).reader(io.NewSectionReader(r, 0, size)), 64<<10)
		kind, err := sniff(br)
		if err != nil {
			yield(rawRecord{}, &RecordError{Place{File: name}, err.Error()})
			return
		}
		if kind != kindZip {
			readStream(Place{File: name}, kind, br, yield)
			return
		}
		zr, err := zip.NewReader(io.NewSectionReader(r, 0, size), size)
		if err != nil {
			yield(rawRecord{}, &RecordError{Place{File: name}, "not a zip archive that can be read: " + err.Error()})
			return
		}
		members, budget := 0, newBudget(im.MaxBytes)
		for _, f := range zr.File {
			if f.FileInfo().IsDir() || strings.HasPrefix(f.Name, "__MACOSX/") || strings.HasPrefix(path.Base(f.Name), ".") {
				continue // folders, and the hidden files of the archiver
			}
			members++
			at := Place{File: name, Member: f.Name}
			rc, err := f.Open()
			if err != nil {
				yield(rawRecord{}, &RecordError{at, "cannot be unpacked: " + err.Error()})
				return
			}
			mr := bufio.NewReaderSize(budget.reader(rc), 64<<10)
			kind, err := sniff(mr)
			switch {
			case err != nil:
			case kind == kindZip:
				err = errors.New("a zip archive inside the zip archive, which is not read: unpack it first")
			}
			ok := true
			if err != nil {
				yield(rawRecord{}, &RecordError{at, err.Error()})
				ok = false
			} else {
				ok = readStream(at, kind, mr, yield)
			}
			rc.Close()
			if !ok {
				return
			}
		}
		if members == 0 {
			yield(rawRecord{}, &RecordError{Place{File: name}, "the zip archive holds no file"})
		}
	}
}

// budget counts the bytes read from a file, unpacked, against a bound.
type budget struct {
	bound, left int64
}

// newBudget is a budget of bound bytes, none when bound is 0.
func newBudget(bound int64) *budget { return &budget{bound, bound} }

func (b *budget) reader(r io.Reader) io.Reader {
	if b.bound == 0 {
		return r
	}
	return &budgetReader{r, b}
}

type budgetReader struct {
	r io.Reader
	b *budget
}

// errTooBig is the error of a read past a file's budget.
type errTooBig int64

func (e errTooBig) Error() string {
	return fmt.Sprintf("the file unpacks to more than %d bytes, the most one import takes", int64(e))
}

func (r *budgetReader) Read(p []byte) (int, error) {
	if r.b.left <= 0 {
		return 0, errTooBig(r.b.bound)
	}
	if int64(len(p)) > r.b.left {
		p = p[:r.b.left]
	}
	n, err := r.r.Read(p)
	r.b.left -= int64(n)
	return n, err
}

// sniff tells what a file (or zip member) holds from its first bytes.
func sniff(br *bufio.Reader) (string, error) {
	head, err := br.Peek(4096)
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return "", readError(err)
	}
	if bytes.HasPrefix(head, []byte("PK\x03\x04")) || bytes.HasPrefix(head, []byte("PK\x05\x06")) {
		// A zip archive's first member, or the end of an empty one.
		return kindZip, nil
	}
	text := bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	if bytes.IndexByte(text, 0) >= 0 || !utf8.Valid(trimPartialRune(text)) {
		return "", errors.New("binary data, not a game record (an SGF file, the site's PGN-like records, or a zip archive of them)")
	}
	text = bytes.TrimLeft(text, " \t\r\n")
	switch {
	case len(text) == 0:
		if len(head) < 4096 {
			return "", errors.New("no game record in it (it is empty)")
		}
		return "", errors.New("no game record in its first 4 KiB, only blanks")
	case text[0] == '(':
		return kindSGF, nil
	case text[0] == '[':
		return kindPGN, nil
	}
	first, _, _ := bytes.Cut(text, []byte("\n"))
	return "", fmt.Errorf("not a game record: it begins %q, where an SGF file begins with '(' and the site's record with a tag such as [Game \"tumbling\"]",
		fmt.Sprintf("%.40s", strings.TrimSpace(string(first))))
}

// trimPartialRune drops an incomplete UTF-8 sequence at the end of b,
// where a peek may cut one.
func trimPartialRune(b []byte) []byte {
	for i := 1; i <= utf8.UTFMax && i <= len(b); i++ {
		if utf8.RuneStart(b[len(b)-i]) {
			if !utf8.FullRune(b[len(b)-i:]) {
				return b[:len(b)-i]
			}
			break
		}
	}
	return b
}

// readError says what went wrong reading a file.
func readError(err error) error {
	var big errTooBig
	if errors.As(err, &big) {
		return big
	}
	return fmt.Errorf("cannot be read: %v", err)
}

// readStream yields the records of a stream of kind, at its place, until
// the end; it reports whether to go on.
func readStream(at Place, kind string, br *bufio.Reader, yield func(rawRecord, error) bool) bool {
	split := splitSGF
	if kind == kindPGN {
		split = splitPGN
	}
	n := 0
	err := split(br, func(text string, line int) bool {
		n++
		p := at
		p.Record, p.Line = n, line
		return yield(rawRecord{Place: p, Kind: kind, Text: text}, nil)
	})
	if err != nil {
		var re *RecordError
		if !errors.As(err, &re) {
			re = &RecordError{at, readError(err).Error()}
		} else {
			re.File, re.Member = at.File, at.Member
			if re.Record == 0 {
				re.Record = n + 1
			}
		}
		yield(rawRecord{}, re)
		return false
	}
	return true
}

// splitSGF calls f with each game tree of an SGF stream, "(...)", and the
// line it begins on, until f returns false. What is between the trees
// must be blank.
func splitSGF(br *bufio.Reader, f func(text string, line int) bool) error {
	var (
		buf             []byte
		line, start     = 1, 0
		depth           int
		inValue, escape bool
	)
	for {
		c, err := br.ReadByte()
		if err == io.EOF {
			if depth > 0 {
				// The parser says what is missing, and where.
				f(string(buf), start)
			}
			return nil
		}
		if err != nil {
			return err
		}
		if depth == 0 {
			switch c {
			case '(':
				buf, start, depth = append(buf[:0], c), line, 1
			case ' ', '\t', '\r', '\n', 0xef, 0xbb, 0xbf: // blanks, a byte-order mark
			default:
				return &RecordError{Place{Line: line}, fmt.Sprintf("unexpected %q after a game tree: an SGF file holds game trees one after the other, each in parentheses", c)}
			}
			if c == '\n' {
				line++
			}
			continue
		}
		buf = append(buf, c)
		if len(buf) > MaxRecordBytes {
			return &RecordError{Place{Line: start}, fmt.Sprintf("the game tree is longer than %d bytes", MaxRecordBytes)}
		}
		switch {
		case c == '\n':
			line++
		case inValue:
			switch {
			case escape:
				escape = false
			case c == '\\':
				escape = true
			case c == ']':
				inValue = false
			}
		case c == '[':
			inValue = true
		case c == '(':
			depth++
		case c == ')':
			depth--
			if depth == 0 && !f(string(buf), start) {
				return nil
			}
		}
	}
}

// splitPGN calls f with each record of a stream of the site's PGN-like
// records and the line it begins on, until f returns false. A record
// begins with a tag line ("[" first) that follows a line that is not one
// (the blank line or the moves that end the record before), as
// record.ParseEach reads them.
func splitPGN(br *bufio.Reader, f func(text string, line int) bool) error {
	var (
		buf      []byte
		line     = 0
		start    int
		afterTag bool // the line before was a tag line
	)
	for {
		l, err := readLine(br)
		if err == io.EOF && len(l) == 0 {
			break
		}
		if err != nil && err != io.EOF {
			return err
		}
		line++
		trimmed := bytes.TrimLeft(l, " \t\r\ufeff")
		isTag := len(trimmed) > 0 && trimmed[0] == '['
		blank := len(bytes.TrimSpace(trimmed)) == 0
		if isTag && !afterTag && len(bytes.TrimSpace(buf)) > 0 {
			if !f(string(buf), start) {
				return nil
			}
			buf = buf[:0]
		}
		if len(bytes.TrimSpace(buf)) == 0 && !blank {
			buf, start = buf[:0], line
		}
		buf = append(buf, l...)
		if len(buf) > MaxRecordBytes {
			return &RecordError{Place{Line: start}, fmt.Sprintf("the record is longer than %d bytes", MaxRecordBytes)}
		}
		afterTag = isTag
		if err == io.EOF {
			break
		}
	}
	if len(bytes.TrimSpace(buf)) > 0 {
		f(string(buf), start)
	}
	return nil
}

// readLine reads one line with its line break, of at most MaxRecordBytes.
func readLine(br *bufio.Reader) ([]byte, error) {
	var l []byte
	for {
		chunk, err := br.ReadSlice('\n')
		l = append(l, chunk...)
		if err != bufio.ErrBufferFull {
			return l, err
		}
		if len(l) > MaxRecordBytes {
			return l, nil
		}
	}
}

// convert reads and replays a record as the game to import; the error is
// a *RecordError.
func (im *Importer) convert(raw rawRecord, now time.Time) (*store.ArchiveImport, error) {
	fail := func(line int, format string, args ...any) error {
		p := raw.Place
		if line > 0 {
			p.Line = line
		}
		return &RecordError{p, fmt.Sprintf(format, args...)}
	}
	var (
		tr     game.Transcript
		source = store.SourceImport
		date   time.Time
	)
	switch raw.Kind {
	case kindSGF:
		h, boardspace, err := tumbling.ReadSGF(raw.Text)
		if err != nil {
			var se *tumbling.SGFError
			if errors.As(err, &se) {
				return nil, fail(raw.Line+se.Line-1, "%v", se.Err)
			}
			return nil, fail(0, "%v", err)
		}
		if boardspace {
			source = store.SourceBoardspace
		}
		if h.Date != "" {
			d, ok := tumbling.LooseDate(h.Date)
			if !ok {
				return nil, fail(0, "DT[%s] is not a date", h.Date)
			}
			date = d
		}
		if tr, err = h.Transcript(); err != nil {
			return nil, fail(0, "%v", strings.TrimPrefix(err.Error(), "sgf: "))
		}
	case kindPGN:
		r, err := record.ParseFrom(raw.Text, raw.Line)
		if err != nil {
			line, msg := splitLine(err.Error())
			return nil, fail(line, "%s", msg)
		}
		if d := r.Tag("Date"); d != "" && !strings.Contains(d, "?") {
			t, err := time.Parse("2006.01.02", d)
			if err != nil {
				return nil, fail(0, "tag Date %q is not a date written 2006.01.02", d)
			}
			date = t
		}
		if tr, err = r.Transcript(); err != nil {
			return nil, fail(0, "%v", err)
		}
	default:
		return nil, fail(0, "not a game record")
	}
	return im.game(tr, source, date, now, fail)
}

// splitLine takes a leading "line N: " off a parser's error.
func splitLine(msg string) (int, string) {
	var n int
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if num, after, ok := strings.Cut(rest, ": "); ok {
			if _, err := fmt.Sscanf(num, "%d", &n); err == nil {
				return n, after
			}
		}
	}
	return 0, msg
}

// game makes the finished game to import from a replayed record.
func (im *Importer) game(tr game.Transcript, source string, date, now time.Time, fail func(int, string, ...any) error) (*store.ArchiveImport, error) {
	g := tr.Game
	res, ending := g.Result()
	if !res.Over() || ending == nil {
		return nil, fail(0, "the game has no result (unfinished, %s): only finished games go into the archive", res)
	}
	rules := g.Rules()
	states := g.States()
	moves := make([]string, len(g.Moves()))
	for i, m := range g.Moves() {
		canon, err := states[i].Notation(m)
		if err != nil {
			return nil, fail(0, "move %d %s: %v", i+1, m, err)
		}
		moves[i] = canon
	}
	players := tr.Players
	for i := range players {
		if players[i] = strings.TrimSpace(players[i]); players[i] == "" {
			players[i] = "?"
		}
	}
	day := ""
	when := now.UnixMilli()
	if !date.IsZero() {
		day = date.Format("2006-01-02")
		when = date.UnixMilli()
	}
	row := &store.Game{
		ID: ids.New(), Game: rules.Spec().Name, Rules: rules.Settings().String(), Start: g.Start().String(), Opponent: "human",
		Players: players, Public: true, Status: store.Finished, Result: res.String(), Reason: ending.Word,
		Moves: len(moves), Position: g.Position().String(), DrawOffer: -1, RematchBy: -1, TakebackBy: -1,
		Created: when, Updated: when, Ended: when, Source: source,
	}
	rows := make([]store.Move, len(moves))
	for i, m := range moves {
		rows[i] = store.Move{Ply: i, Move: m, PlayedAt: when}
	}
	return &store.ArchiveImport{Game: row, Moves: rows, RecordKey: RecordKey(row.Game, row.Rules, row.Start, moves, players, day),
		ImportedBy: im.ImportedBy, ImportedAt: now.UnixMilli()}, nil
}

// RecordKey is the key that tells a record imported before: a hash of the
// game, its rules and start, its moves, its players and the day it was
// played (2006-01-02, "" when not known).
func RecordKey(gameName, rules, start string, moves []string, players [2]string, day string) string {
	h := sha256.New()
	for _, s := range []string{gameName, rules, start, strings.Join(moves, " "), players[0], players[1], day} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}
