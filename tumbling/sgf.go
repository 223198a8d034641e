package tumbling

import (
	"fmt"
	"strings"
	"time"

	"github.com/magneton-games/magneton/game"
)

// SGF (Smart Game Format, FF[4]) records of Tumbling Down, game number
// GM[33]. The mapping this package writes and reads:
//
//	FF[4] GM[33] CA[UTF-8] AP[magneton]   in the root node
//	RU[capture=any,layout=original,...]   the rule settings, as game.Settings writes them
//	PB[...] PW[...]                       the Black player and the Red player:
//	                                      Red takes SGF's second colour, White
//	DT[...] RE[...]                       the date, and the result: B+ (Black won),
//	                                      W+ (Red won), 0 (draw), ? (unfinished)
//	TP[position text]                     the set-up position when the game did not
//	                                      start from the start of its rules (AB/AW
//	                                      cannot describe stacks)
//	;B[a8-a7] ;W[h1>h2]                   one node per move, in the project's notation:
//	                                      B for a Black move, W for a Red move
//
// Reading takes the main line (the first variation at each branch) and
// ignores properties it does not know, as SGF readers should. RE may say
// how a game the moves do not end came about, as SGF's results do: B+R
// (Red resigned), W+T (Black lost on time).
//
// ParseSGF also reads the records of Boardspace.net, which plays the
// game with its own SGF dialect (boardspace.go).

// SGFGame is one game as an SGF record holds it.
type SGFGame struct {
	Rules  Rules
	Start  string   // position text of a set-up start, or "" for the rules' start
	Moves  []string // in the project's notation, from the start
	Black  string   // the Black player's name (PB)
	Red    string   // the Red player's name (PW)
	Date   string   // DT, free text such as "2026-11-30"
	Result string   // as game.Result writes it: "1-0" Black won, "0-1" Red won, "1/2-1/2", "*"; "" when not recorded
	// Ending is how a win that the moves do not reach came about, as
	// game.Ending names it: "resignation" or "time forfeit" (RE's B+R,
	// B+T); "" when the moves end the game or the record does not say.
	Ending string
}

// SGFError says what is wrong with an SGF record and on which line of
// the text read (from 1).
type SGFError struct {
	Line int
	Err  error
}

func (e *SGFError) Error() string { return fmt.Sprintf("sgf: line %d: %v", e.Line, e.Err) }
func (e *SGFError) Unwrap() error { return e.Err }

// sgfErrorf makes an SGFError at byte offset pos of text.
func sgfErrorf(text string, pos int, format string, args ...any) error {
	return &SGFError{Line: lineAt(text, pos), Err: fmt.Errorf(format, args...)}
}

// lineAt is the line (from 1) of byte offset pos of text.
func lineAt(text string, pos int) int {
	return 1 + strings.Count(text[:min(max(pos, 0), len(text))], "\n")
}

// sgfEndingWords are RE's reasons (after B+ or W+) that say how a game
// ended, and the words of those endings.
var sgfEndingWords = map[string]string{"R": "resignation", "Resign": "resignation", "T": "time forfeit", "Time": "time forfeit"}

// sgfEndingCode is the reason FormatSGF writes after B+ or W+ for an
// ending.
var sgfEndingCode = map[string]string{"resignation": "R", "time forfeit": "T"}

// sgfGame is the SGF number registered for Tumbling Down.
const sgfGame = "33"

// FormatSGF writes a game as an SGF record, one node per move. The colour
// of each move node follows from the side to move at the start, since the
// players alternate and never pass.
func FormatSGF(h SGFGame) string {
	var b strings.Builder
	b.WriteString("(;FF[4]GM[" + sgfGame + "]CA[UTF-8]AP[magneton]")
	prop := func(id, value string) {
		b.WriteString(id + "[" + sgfEscape(value) + "]")
	}
	prop("RU", h.Rules.Settings().String())
	if h.Black != "" {
		prop("PB", h.Black)
	}
	if h.Red != "" {
		prop("PW", h.Red)
	}
	if h.Date != "" {
		prop("DT", h.Date)
	}
	if re, ok := sgfResult[h.Result]; ok {
		if code, ok := sgfEndingCode[h.Ending]; ok && (h.Result == "1-0" || h.Result == "0-1") {
			re += code
		}
		prop("RE", re)
	} else if h.Result != "" {
		prop("RE", h.Result)
	}
	side := Black
	if h.Rules.BoardspaceLayout {
		side = Red
	}
	if h.Start != "" && h.Start != h.Rules.StartText() {
		prop("TP", h.Start)
		if f := strings.Fields(h.Start); len(f) == 2 && f[1] == "r" {
			side = Red
		} else {
			side = Black
		}
	}
	for i, m := range h.Moves {
		if i%8 == 0 {
			b.WriteByte('\n')
		}
		b.WriteString(";" + [2]string{"B", "W"}[side])
		prop("", m)
		side ^= 1
	}
	b.WriteString(")\n")
	return b.String()
}

// sgfResult maps game results to SGF's RE values.
var sgfResult = map[string]string{"1-0": "B+", "0-1": "W+", "1/2-1/2": "0", "*": "?"}

// ParseSGF reads an SGF record of Tumbling Down as FormatSGF writes it,
// or as Boardspace.net writes it (boardspace.go), checking every move
// under the recorded rules. The start and moves come back in canonical
// form (a lone disk's tumble as its step, and Start "" when it is the
// rules' start). The error, an *SGFError, says what is wrong and on which
// line.
func ParseSGF(text string) (SGFGame, error) {
	h, _, err := ReadSGF(text)
	return h, err
}

// ReadSGF is ParseSGF, and tells whether the record is Boardspace.net's.
func ReadSGF(text string) (h SGFGame, boardspace bool, err error) {
	nodes, err := parseSGFMainLine(text)
	if err != nil {
		return SGFGame{}, false, err
	}
	if isBoardspace(nodes[0]) {
		h, err := parseBoardspace(text, nodes)
		return h, true, err
	}
	h, err = parseSGFNodes(text, nodes)
	return h, false, err
}

// parseSGFNodes reads the main line of a record in the project's SGF.
func parseSGFNodes(text string, nodes []sgfNode) (SGFGame, error) {
	var h SGFGame
	root := nodes[0]
	errorf := func(format string, args ...any) error { return sgfErrorf(text, root.pos, format, args...) }
	if gm, ok := root.get("GM"); ok && gm != sgfGame {
		return SGFGame{}, errorf("GM[%s] is not Tumbling Down (GM[%s])", gm, sgfGame)
	}
	if ru, ok := root.get("RU"); ok {
		r, err := Spec.Rules(ru)
		if err != nil {
			return SGFGame{}, errorf("RU[%s]: %w", ru, err)
		}
		h.Rules = r.(Rules)
	}
	h.Black, _ = root.get("PB")
	h.Red, _ = root.get("PW")
	h.Date, _ = root.get("DT")
	if re, ok := root.get("RE"); ok {
		switch {
		case strings.HasPrefix(re, "B+"):
			h.Result, h.Ending = "1-0", sgfEndingWords[re[2:]]
		case strings.HasPrefix(re, "W+"):
			h.Result, h.Ending = "0-1", sgfEndingWords[re[2:]]
		case re == "0" || strings.EqualFold(re, "draw"):
			h.Result = "1/2-1/2"
		case re == "?" || strings.EqualFold(re, "void"):
			h.Result = "*"
		default:
			return SGFGame{}, errorf("RE[%s] is not B+, W+, 0 or ?", re)
		}
	}
	p := h.Rules.StartPosition()
	if tp, ok := root.get("TP"); ok {
		var err error
		if p, err = h.Rules.Parse(tp); err != nil {
			return SGFGame{}, errorf("TP: %w", err)
		}
		if s := p.String(); s != h.Rules.StartText() {
			h.Start = s
		}
	}
	for i, n := range nodes {
		for _, pr := range n.props {
			if pr.id != "B" && pr.id != "W" {
				continue
			}
			side := Black
			if pr.id == "W" {
				side = Red
			}
			where := fmt.Sprintf("node %d, %s[%s]", i, pr.id, pr.value)
			if side != p.Side() {
				return SGFGame{}, sgfErrorf(text, n.pos, "%s: it is %s's turn", where, sideNames[p.Side()])
			}
			m, err := p.ParseMove(pr.value)
			if err != nil {
				return SGFGame{}, sgfErrorf(text, n.pos, "%s: %w", where, err)
			}
			h.Moves = append(h.Moves, m.String())
			p = p.Play(m)
		}
	}
	return h, nil
}

// An sgfNode is one node's properties in order, and the byte offset of its
// ';' in the text; a property with several values keeps the first.
type sgfNode struct {
	props []sgfProp
	pos   int
}

type sgfProp struct{ id, value string }

func (n sgfNode) get(id string) (string, bool) {
	for _, p := range n.props {
		if p.id == id {
			return p.value, true
		}
	}
	return "", false
}

// parseSGFMainLine returns the nodes of the first game tree's main line.
func parseSGFMainLine(text string) ([]sgfNode, error) {
	r := sgfReader{s: text}
	r.space()
	if !r.eat('(') {
		return nil, sgfErrorf(text, r.i, "the record does not start with '(' at byte %d", r.i)
	}
	nodes, err := r.tree(true, 0)
	if err != nil {
		return nil, err
	}
	if len(nodes) == 0 {
		return nil, sgfErrorf(text, r.i, "the game tree has no node")
	}
	return nodes, nil
}

type sgfReader struct {
	s string
	i int
}

func (r *sgfReader) space() {
	for r.i < len(r.s) && strings.IndexByte(" \t\r\n", r.s[r.i]) >= 0 {
		r.i++
	}
}

func (r *sgfReader) eat(c byte) bool {
	if r.i < len(r.s) && r.s[r.i] == c {
		r.i++
		return true
	}
	return false
}

// maxSGFDepth bounds the nesting of variations, so that a hostile record
// cannot exhaust the stack.
const maxSGFDepth = 1000

// tree reads a game tree after its '(' up to and including its ')': a
// sequence of nodes, then its variations. When keep is set it returns the
// nodes of its main line; the other variations are read and dropped.
func (r *sgfReader) tree(keep bool, depth int) ([]sgfNode, error) {
	if depth > maxSGFDepth {
		return nil, sgfErrorf(r.s, r.i, "variations nested deeper than %d at byte %d", maxSGFDepth, r.i)
	}
	var nodes []sgfNode
	for r.space(); r.eat(';'); r.space() {
		n, err := r.node(r.i - 1)
		if err != nil {
			return nil, err
		}
		if keep {
			nodes = append(nodes, n)
		}
	}
	for first := true; r.eat('('); first = false {
		sub, err := r.tree(keep && first, depth+1)
		if err != nil {
			return nil, err
		}
		nodes = append(nodes, sub...)
		r.space()
	}
	switch {
	case r.eat(')'):
		return nodes, nil
	case r.i >= len(r.s):
		return nil, sgfErrorf(r.s, r.i, "the record ends inside a game tree (missing ')')")
	}
	return nil, sgfErrorf(r.s, r.i, "unexpected %q at byte %d", r.s[r.i], r.i)
}

// node reads a node's properties after its ';', which is at byte pos.
// An identifier is letters and then letters or digits: FF[4] has only
// capitals, but Boardspace's records name their players' properties P0
// and P1.
func (r *sgfReader) node(pos int) (sgfNode, error) {
	n := sgfNode{pos: pos}
	for {
		r.space()
		start := r.i
		for r.i < len(r.s) && (isLetter(r.s[r.i]) || r.i > start && r.s[r.i] >= '0' && r.s[r.i] <= '9') {
			r.i++
		}
		if r.i == start {
			return n, nil
		}
		// FF[3] allowed lower-case letters in identifiers; FF[4] readers
		// drop them.
		var id strings.Builder
		for _, c := range []byte(r.s[start:r.i]) {
			if c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
				id.WriteByte(c)
			}
		}
		values := 0
		for {
			r.space()
			if !r.eat('[') {
				break
			}
			v, err := r.value()
			if err != nil {
				return n, err
			}
			if values == 0 {
				n.props = append(n.props, sgfProp{id.String(), v})
			}
			values++
		}
		if values == 0 {
			return n, sgfErrorf(r.s, r.i, "property %s has no value at byte %d", r.s[start:r.i], r.i)
		}
	}
}

func isLetter(c byte) bool { return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' }

// value reads a property value after its '[' up to and including its ']',
// undoing the escapes: a backslash keeps the next character, and an
// escaped line break is dropped (a soft line break).
func (r *sgfReader) value() (string, error) {
	var b strings.Builder
	for r.i < len(r.s) {
		c := r.s[r.i]
		r.i++
		switch c {
		case ']':
			return b.String(), nil
		case '\\':
			if r.i >= len(r.s) {
				break
			}
			c = r.s[r.i]
			r.i++
			if c == '\n' || c == '\r' {
				// A soft line break, with its partner of a CRLF pair.
				if r.i < len(r.s) && (r.s[r.i] == '\n' || r.s[r.i] == '\r') && r.s[r.i] != c {
					r.i++
				}
				continue
			}
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return "", sgfErrorf(r.s, r.i, "the record ends inside a property value (missing ']')")
}

// sgfEscape writes text as an SGF property value: ']' and '\' escaped.
func sgfEscape(s string) string {
	if !strings.ContainsAny(s, `]\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == ']' || s[i] == '\\' {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// Spec.Formats is set here, not in Spec's literal: reading SGF needs Spec.
func init() { Spec.Formats = []game.RecordFormat{sgfFormat} }

// sgfFormat is SGF as a record format of the Spec, for code that handles
// any game (the play server's record download, the conformance tests).
var sgfFormat = game.RecordFormat{
	Name:  "sgf",
	Title: "SGF (Smart Game Format)",
	Write: func(t game.Transcript) (string, error) {
		r, ok := t.Game.Rules().(Rules)
		if !ok {
			return "", fmt.Errorf("sgf: SGF records are for Tumbling Down, not %s", t.Game.Rules().Spec().Title)
		}
		h := SGFGame{Rules: r, Start: t.Game.Start().String(), Moves: t.Game.Moves(), Black: t.Players[0], Red: t.Players[1]}
		if h.Start == r.StartText() {
			h.Start = ""
		}
		if !t.Date.IsZero() {
			h.Date = t.Date.Format("2006-01-02")
		}
		res, _ := t.Game.Result()
		h.Result = res.String()
		return FormatSGF(h), nil
	},
	Read: func(text string) (game.Transcript, error) {
		h, err := ParseSGF(text)
		if err != nil {
			return game.Transcript{}, err
		}
		return h.Transcript()
	},
}

// Transcript replays a parsed record. A result that the moves do not
// reach is taken as the Ending says, else as a resignation (a win) or an
// agreement (a draw): SGF's RE says who won, rarely how. Its Date is the
// record's DT when it is a day written 2006-01-02.
func (h SGFGame) Transcript() (game.Transcript, error) {
	start := h.Rules.Start()
	if h.Start != "" {
		s, err := h.Rules.ParsePosition(h.Start)
		if err != nil {
			return game.Transcript{}, fmt.Errorf("sgf: TP: %w", err)
		}
		start = s
	}
	g := game.NewGame(start)
	for i, m := range h.Moves {
		if err := g.Play(m); err != nil {
			return game.Transcript{}, fmt.Errorf("sgf: move %d: %w", i+1, err)
		}
	}
	t := game.Transcript{Game: g, Players: [2]string{h.Black, h.Red}}
	if d, err := time.Parse("2006-01-02", h.Date); err == nil {
		t.Date = d
	}
	if h.Result == "" {
		return t, nil
	}
	claimed, err := game.ParseResult(h.Result)
	if err != nil {
		return game.Transcript{}, fmt.Errorf("sgf: RE: %w", err)
	}
	ending := game.Resignation
	switch {
	case claimed == game.Draw:
		ending = game.Agreement
	case h.Ending == game.Timeout.Word:
		ending = game.Timeout
	}
	if err := g.Claim(claimed, ending); err != nil {
		return game.Transcript{}, fmt.Errorf("sgf: RE: %w", err)
	}
	return t, nil
}
