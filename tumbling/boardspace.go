//go:build !js

package tumbling

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/magneton-games/magneton/game"
)

// Boardspace.net's records of Tumbling Down. Boardspace writes every game
// as SGF in a dialect of its own (its Java client's printGameRecord, the
// game's TumbleMovespec and TumbleBoard): the root names the game and its
// players, and each node holds one action of a player as the text of a
// property named after the player, P0 or P1, numbered in the game:
//
//	(;
//	GM[Tumblingdown]VV[1]
//	CM[0,1]
//	SU[tumblingdown]
//	DT[...]
//	GN[...]
//	RE[Game won by ann]
//	P0[id "ann"]
//	P1[id "bob"]
//	; P0[0 Start P0]TM[0]
//	; P0[1 Pickb F 8 4]TM[2215]
//	; P0[2 Dropb F 7 4]TM[3100]
//	; P0[3 Done ]TM[3120]
//	; P1[4 Move C 1 D 2]TM[5012]
//	; P1[5 Done ]TM[5020]
//	...
//	;
//	P0[time 0:03:12 ]
//	P1[time 0:04:40 ]
//	)
//
// A move picks up a stack (Pickb column row height) and drops it on a
// square in the direction it tumbles (Dropb column row height), or does
// both at once (Move from-column from-row to-column to-row, as the robots
// write); Done commits it. Picking the dropped stack up again, or dropping
// a stack where it was picked up, takes the action back. Resign then Done
// resigns; GameOverOnTime ends the game on time. Boardspace's columns A-H
// and rows 1-8 are this package's squares a1-h8, with the first player,
// P0, Red, on the top edge, as layout=boardspace has it; a colour map
// CM[1,0] gives P0 the bottom edge, which reads as the same game turned
// half round. Boardspace plays the rules this package calls boardspace.
//
// The browser's engine (GOOS=js) reads no records, and leaves this reader
// out (boardspace_js.go): it weighed 14 KB of the engine's gzipped 1.5 MB.

// boardspaceRules are the rules Boardspace plays.
var boardspaceRules = func() Rules {
	r, err := Spec.Rules("boardspace")
	if err != nil {
		panic(err)
	}
	return r.(Rules)
}()

// isBoardspace reports whether a record's root is Boardspace's: its game
// named Tumblingdown, or its set-up or players written as Boardspace
// writes them.
func isBoardspace(root sgfNode) bool {
	if gm, ok := root.get("GM"); ok && strings.EqualFold(gm, "Tumblingdown") {
		return true
	}
	for _, id := range []string{"SU", "P0", "P1"} {
		if _, ok := root.get(id); ok {
			return true
		}
	}
	return false
}

// parseBoardspace reads the main line of a Boardspace record.
func parseBoardspace(text string, nodes []sgfNode) (SGFGame, error) {
	root := nodes[0]
	rootErr := func(format string, args ...any) error { return sgfErrorf(text, root.pos, format, args...) }
	if gm, ok := root.get("GM"); ok && !strings.EqualFold(gm, "Tumblingdown") && gm != sgfGame {
		return SGFGame{}, rootErr("GM[%s] is not Tumbling Down (Boardspace's GM[Tumblingdown])", gm)
	}
	if su, ok := root.get("SU"); ok && !strings.EqualFold(strings.TrimSpace(su), "tumblingdown") {
		return SGFGame{}, rootErr("SU[%s] is not Tumbling Down (Boardspace's SU[tumblingdown])", su)
	}
	if vv, ok := root.get("VV"); ok {
		if v, err := strconv.Atoi(strings.TrimSpace(vv)); err != nil || v < 1 || v > 2 {
			return SGFGame{}, rootErr("VV[%s]: Boardspace's records of Tumbling Down are versions 1 and 2", vv)
		}
	}
	turned := false
	if cm, ok := root.get("CM"); ok {
		switch strings.ReplaceAll(cm, " ", "") {
		case "0,1", "":
		case "1,0":
			turned = true
		default:
			return SGFGame{}, rootErr("CM[%s]: the colour map of two players is 0,1 or 1,0", cm)
		}
	}
	b := bsReader{text: text, turned: turned, h: SGFGame{Rules: boardspaceRules}, p: boardspaceRules.StartPosition()}
	for i, n := range nodes {
		for _, pr := range n.props {
			if err := b.prop(i, n, pr); err != nil {
				return SGFGame{}, err
			}
		}
	}
	if b.dropped {
		// A move dropped but never committed is not played, as on
		// Boardspace.
		b.picked, b.dropped = false, false
	}
	b.h.Date = recordDate(root)
	if re, ok := root.get("RE"); ok {
		if err := b.result(re); err != nil {
			return SGFGame{}, rootErr("%w", err)
		}
	}
	if b.h.Result == "" {
		b.h.Result = "*"
	}
	return b.h, nil
}

// recordDate is the day a Boardspace game was played, as 2006-01-02:
// from DT when it reads as a date, else from the date in the game's name
// (GN); else DT as written (or "").
func recordDate(root sgfNode) string {
	dt, _ := root.get("DT")
	if d, ok := LooseDate(dt); ok {
		return d.Format("2006-01-02")
	}
	gn, _ := root.get("GN")
	// The last 2006-01-02 in a game name such as
	// TD-ann-bob-2012-05-17-1941. (No regexp: this package is in the
	// browser's engine, which weighs what it imports.)
	for i := len(gn) - len("2006-01-02"); i >= 0; i-- {
		if d, err := time.Parse("2006-01-02", gn[i:i+len("2006-01-02")]); err == nil {
			return d.Format("2006-01-02")
		}
	}
	return strings.TrimSpace(dt)
}

// looseDateLayouts are the ways records write a day: ISO's, PGN's, and
// those of Java's Date.toString and Boardspace's date strings.
var looseDateLayouts = []string{
	"2006-01-02", "2006/01/02", "2006.01.02", "2006-1-2", "2006/1/2",
	"Jan 2 2006", "Jan 2, 2006", "January 2 2006", "January 2, 2006", "2 Jan 2006", "02 Jan 2006",
	"Mon Jan 2 15:04:05 MST 2006", "Mon Jan 2 15:04:05 2006", "Mon Jan 2 2006",
	"2006-01-02 15:04", "2006-01-02 15:04:05", "2006/01/02 15:04", "2006/01/02 15:04:05", time.RFC3339,
}

// LooseDate reads a day as records write them (2006-01-02, 2006.01.02,
// Jan 2 2006, Java's Mon Jan 02 15:04:05 PST 2006, ...), runs of spaces
// taken as one. ok is false for anything else.
func LooseDate(s string) (time.Time, bool) {
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		return time.Time{}, false
	}
	for _, layout := range looseDateLayouts {
		if d, err := time.Parse(layout, s); err == nil {
			y, m, day := d.Date()
			return time.Date(y, m, day, 0, 0, 0, 0, time.UTC), true
		}
	}
	return time.Time{}, false
}

// bsReader replays a Boardspace record's actions.
type bsReader struct {
	text   string
	turned bool // CM[1,0]: squares turned half round
	h      SGFGame
	p      Position
	// A move in the making: the square of the stack picked up, and the
	// square it was dropped on.
	picked, dropped bool
	from, to        Square
	resigning       bool
	over            bool   // the game ended
	overBy          string // how: "" (the rules), "resignation", "time forfeit"
	started         bool   // a move has been made
}

// prop handles one property of node i.
func (b *bsReader) prop(i int, n sgfNode, pr sgfProp) error {
	player := -1
	switch pr.id {
	case "P0":
		player = 0
	case "P1":
		player = 1
	default:
		if len(pr.id) > 1 && pr.id[0] == 'P' && strings.Trim(pr.id[1:], "0123456789") == "" {
			return sgfErrorf(b.text, n.pos, "node %d, %s[%s]: Tumbling Down has two players, P0 and P1", i, pr.id, pr.value)
		}
		return nil
	}
	errorf := func(format string, args ...any) error {
		return sgfErrorf(b.text, n.pos, "node %d, %s[%s]: %s", i, pr.id, pr.value, fmt.Sprintf(format, args...))
	}
	words := strings.Fields(pr.value)
	if len(words) > 0 && strings.Trim(words[0], "0123456789") == "" {
		words = words[1:] // the action's number in the game
	}
	if len(words) == 0 {
		return nil
	}
	// P0 is Boardspace's first player, Red here.
	side := Red
	if player == 1 {
		side = Black
	}
	op, args := strings.ToLower(words[0]), words[1:]
	switch op {
	case "id":
		name := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(pr.value), words[0]))
		if len(name) >= 2 && name[0] == '"' && name[len(name)-1] == '"' {
			name = name[1 : len(name)-1]
		}
		if side == Red {
			b.h.Red = name
		} else {
			b.h.Black = name
		}
		return nil
	case "time", "ranking", "country":
		return nil
	case "start":
		if b.started {
			return errorf("Start after the game began")
		}
		if len(args) > 0 && !strings.EqualFold(args[0], "P0") {
			return errorf("the game starts with %s to move, but Boardspace's Tumbling Down starts with P0", args[0])
		}
		return nil
	case "done":
		return b.done(errorf)
	}
	if b.over {
		return errorf("the game was over (%s)", b.endText())
	}
	if op == "gameoverontime" {
		// The player whose opponent's time ran out claims the game.
		b.over, b.overBy = true, "time forfeit"
		b.picked, b.dropped = false, false
		b.h.Result, b.h.Ending = winFor(side), "time forfeit"
		return nil
	}
	if side != b.p.Side() {
		return errorf("it is %s's turn (%s)", sideNames[b.p.Side()], [2]string{"P1", "P0"}[b.p.Side()])
	}
	b.started = true
	switch op {
	case "pickb":
		sq, err := b.square(args)
		if err != nil {
			return errorf("%v", err)
		}
		switch {
		case b.dropped && sq == b.to:
			b.dropped = false // the dropped stack picked up again
		case b.picked:
			return errorf("a stack is picked up already (on %s)", b.from)
		default:
			b.picked, b.from = true, sq
		}
	case "dropb":
		sq, err := b.square(args)
		if err != nil {
			return errorf("%v", err)
		}
		switch {
		case !b.picked:
			return errorf("no stack is picked up")
		case sq == b.from:
			b.picked, b.dropped = false, false // put back
		default:
			b.dropped, b.to = true, sq
		}
	case "move":
		if b.picked {
			return errorf("a stack is picked up already (on %s)", b.from)
		}
		if len(args) < 4 {
			return errorf("Move takes two squares, as Move C 1 D 2")
		}
		from, err := b.square(args[:2])
		if err != nil {
			return errorf("%v", err)
		}
		to, err := b.square(args[2:4])
		if err != nil {
			return errorf("%v", err)
		}
		b.picked, b.from, b.dropped, b.to = true, from, true, to
	case "resign":
		b.resigning = !b.resigning // a second Resign takes it back
	case "edit", "pick", "drop":
		return errorf("the record edits the board, which this reader does not replay")
	case "undo", "reset", "pleaseundo", "dontundo", "allowundo":
		return errorf("the record takes moves back, which this reader does not replay")
	case "offerdraw", "acceptdraw", "declinedraw":
		return errorf("Boardspace's Tumbling Down has no draw offers")
	default:
		return errorf("%q is not an action of Boardspace's Tumbling Down", words[0])
	}
	return nil
}

// done commits the move in the making, or a resignation.
func (b *bsReader) done(errorf func(string, ...any) error) error {
	switch {
	case b.over:
		return nil
	case b.dropped:
		return b.commit(errorf)
	case b.resigning:
		b.resigning = false
		b.over, b.overBy = true, "resignation"
		b.h.Result, b.h.Ending = winFor(b.p.Side()^1), "resignation"
	}
	return nil
}

// commit plays the move in the making: the stack on from tumbles toward
// to (a lone disk steps).
func (b *bsReader) commit(errorf func(string, ...any) error) error {
	from, to := b.from, b.to
	b.picked, b.dropped, b.resigning = false, false, false
	df, dr := sign(to.File()-from.File()), sign(to.Rank()-from.Rank())
	if abs(to.File()-from.File()) != abs(to.Rank()-from.Rank()) && df != 0 && dr != 0 {
		return errorf("%s is not in line with %s: a stack tumbles in one of the 8 directions", to, from)
	}
	next := SquareAt(from.File()+df, from.Rank()+dr)
	sep := ">"
	if b.p.Height(from) < 2 {
		sep = "-"
	}
	m, err := b.p.ParseMove(from.String() + sep + next.String())
	if err != nil {
		return errorf("%v", err)
	}
	b.h.Moves = append(b.h.Moves, m.String())
	b.p = b.p.Play(m)
	if w, ok := b.p.Winner(); ok {
		b.over, b.overBy = true, ""
		b.h.Result, b.h.Ending = winFor(w), ""
	}
	return nil
}

// result checks the game's end against RE, Boardspace's "Game won by
// NAME", or takes it from RE when the moves do not end the game. An RE
// this reader does not know is left aside.
func (b *bsReader) result(re string) error {
	claimed := ""
	lower := strings.ToLower(strings.TrimSpace(re))
	switch {
	case strings.HasPrefix(lower, "game won by "):
		name := strings.TrimSpace(strings.TrimSpace(re)[len("game won by "):])
		red, black := strings.EqualFold(name, b.h.Red), strings.EqualFold(name, b.h.Black)
		switch {
		case red && black:
			// Two players of one name (guests): RE cannot tell which.
			return nil
		case red:
			claimed = winFor(Red)
		case black:
			claimed = winFor(Black)
		default:
			return fmt.Errorf("RE[%s] names neither player (P0 %q, P1 %q)", re, b.h.Red, b.h.Black)
		}
	case strings.Contains(lower, "draw"):
		claimed = "1/2-1/2"
	default:
		return nil
	}
	switch {
	case !b.over:
		b.h.Result, b.h.Ending = claimed, ""
	case b.overBy == "time forfeit" && claimed != "1/2-1/2":
		// Who claimed the win on time is RE's to say.
		b.h.Result = claimed
	case claimed != b.h.Result:
		return fmt.Errorf("RE[%s] says %s but the game ended %s (%s)", re, claimed, b.h.Result, b.endText())
	}
	return nil
}

// endText says how the game ended.
func (b *bsReader) endText() string {
	if b.overBy != "" {
		return b.overBy
	}
	return "by the moves"
}

// square reads Boardspace's column and row ("C 3") as a square.
func (b *bsReader) square(args []string) (Square, error) {
	if len(args) < 2 {
		return 0, fmt.Errorf("want a column A-H and a row 1-8")
	}
	col, row := strings.ToLower(args[0]), args[1]
	r, err := strconv.Atoi(row)
	if len(col) != 1 || col[0] < 'a' || col[0] > 'h' || err != nil || r < 1 || r > 8 {
		return 0, fmt.Errorf("%s %s is not a square: want a column A-H and a row 1-8", args[0], args[1])
	}
	f, rk := int(col[0]-'a'), r-1
	if b.turned {
		f, rk = 7-f, 7-rk
	}
	return SquareAt(f, rk), nil
}

// winFor is the result of a win for side.
func winFor(side game.Side) string {
	if side == Black {
		return "1-0"
	}
	return "0-1"
}

func sign(x int) int {
	switch {
	case x < 0:
		return -1
	case x > 0:
		return 1
	}
	return 0
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// FormatBoardspace writes a game of Boardspace's rules from its start as
// Boardspace.net's client writes its records (printGameRecord), for tests
// and tools that need Boardspace's files: name is the game's name (GN,
// such as TD-ann-bob-2012-05-17-1941). Moves alternate between the two
// ways Boardspace records them: a person's Pickb and Dropb (dropped where
// the stack's top disk lands), and a robot's Move to the next square;
// each ends with Done. A resignation is Resign then Done, a loss on time
// the winner's GameOverOnTime.
func FormatBoardspace(h SGFGame, name string) (string, error) {
	if h.Rules != boardspaceRules || h.Start != "" {
		return "", fmt.Errorf("boardspace: Boardspace plays its own rules from its start, not %s", h.Rules.Settings())
	}
	var b strings.Builder
	b.WriteString("(;\nGM[Tumblingdown]VV[1]\nCM[0,1]\nSU[tumblingdown]\n")
	if h.Date != "" {
		fmt.Fprintf(&b, "DT[%s]\n", sgfEscape(h.Date))
	}
	fmt.Fprintf(&b, "GN[%s]\n", sgfEscape(name))
	switch h.Result {
	case "1-0":
		fmt.Fprintf(&b, "RE[Game won by %s]\n", sgfEscape(h.Black))
	case "0-1":
		fmt.Fprintf(&b, "RE[Game won by %s]\n", sgfEscape(h.Red))
	case "1/2-1/2":
		b.WriteString("RE[The game is a draw]\n")
	}
	fmt.Fprintf(&b, "P0[id \"%s\"]\nP1[id \"%s\"]\n", sgfEscape(h.Red), sgfEscape(h.Black))
	n, tm := 0, [2]int{}
	node := func(player int, action string) {
		tm[player] += 1000 + 137*n%4000
		fmt.Fprintf(&b, "; P%d[%d %s]TM[%d]\n", player, n, sgfEscape(action), tm[player])
		n++
	}
	node(0, "Start P0")
	p := boardspaceRules.StartPosition()
	col := func(sq Square) string { return fmt.Sprintf("%c %d", 'A'+sq.File(), sq.Rank()+1) }
	for i, text := range h.Moves {
		m, err := p.ParseMove(text)
		if err != nil {
			return "", fmt.Errorf("boardspace: move %d %s: %w", i+1, text, err)
		}
		player := 1 - int(p.Side()) // P0 is Red
		from, d := m.From(), m.Direction()
		if i%2 == 0 {
			// A person drops the stack where its top disk lands.
			to := from
			for range min(p.Height(from), int(reach[from][d])) {
				to += offset[d]
			}
			node(player, fmt.Sprintf("Pickb %s %d", col(from), player))
			node(player, fmt.Sprintf("Dropb %s %d", col(to), p.Height(from)))
		} else {
			node(player, fmt.Sprintf("Move %s %s", col(from), col(m.To())))
		}
		node(player, "Done ")
		p = p.Play(m)
	}
	if _, over := p.Winner(); !over {
		winner := 0 // P0, Red
		if h.Result == "1-0" {
			winner = 1
		}
		switch {
		case h.Result != "1-0" && h.Result != "0-1":
		case h.Ending == "resignation":
			if winner == 1-int(p.Side()) {
				return "", fmt.Errorf("boardspace: %s resigns, but only the player to move resigns on Boardspace", sideNames[p.Side()^1])
			}
			node(1-winner, "Resign ")
			node(1-winner, "Done ")
		case h.Ending == "time forfeit":
			node(winner, "GameOverOnTime ")
		}
	}
	fmt.Fprintf(&b, ";\nP0[time %s ]\nP1[time %s ]\n)\n", clockText(tm[0]), clockText(tm[1]))
	return b.String(), nil
}

// clockText writes ms as Boardspace writes a player's time, 0:03:12.
func clockText(ms int) string {
	s := ms / 1000
	return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
}
