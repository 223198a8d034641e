// Package record reads and writes whole games in the project's PGN-like
// text: a block of tags such as [Game "magneton"] and [Result "1-0"], then
// the moves numbered by turn, with comments in braces, ending with the
// result. Records name the rules they were played under, so a game can be
// replayed and checked exactly.
//
//	[Game "magneton"]
//	[Rules "force=strong,movement=any-magnet,no-moves=loses,repetition=3,win=mover-only"]
//	[White "Ann"]
//	[Black "level:6"]
//	[Date "2026.11.30"]
//	[Result "1-0"]
//	[Termination "line"]
//
//	1. d4 e5 2. c3 {the pull starts here} f6 ... 1-0
//
// Format writes a record so that Parse reads it back to the same record, and
// Parse then Format gives back the text Format wrote.
package record

import (
	"fmt"
	"strings"
	"time"

	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
)

// Tag is one [Name "Value"] pair of a record's header.
type Tag struct {
	Name, Value string
}

// Move is one move of a record with the comment that follows it, if any.
type Move struct {
	Text    string // in the game's notation
	Comment string // without the braces
}

// Record is one game as written in a file.
type Record struct {
	Tags []Tag // in the order written; Game and Result are required
	// Comment is text in braces before the first move.
	Comment string
	Moves   []Move
}

// Tag returns the value of the named tag, or "".
func (r *Record) Tag(name string) string {
	for _, t := range r.Tags {
		if t.Name == name {
			return t.Value
		}
	}
	return ""
}

// SetTag sets a tag, replacing its value if present, else adding it last.
func (r *Record) SetTag(name, value string) {
	for i, t := range r.Tags {
		if t.Name == name {
			r.Tags[i].Value = value
			return
		}
	}
	r.Tags = append(r.Tags, Tag{name, value})
}

// FromGame makes a record of a game. Players are keyed by side: players[0]
// plays the first side. The tags are Game, Rules, the two side names, Date,
// Result, Termination (for a finished game) and Position when the game did
// not start from the usual start.
func FromGame(g *game.Game, players [2]string, date time.Time) *Record {
	rules := g.Rules()
	sp := rules.Spec()
	r := &Record{}
	r.SetTag("Game", sp.Name)
	r.SetTag("Rules", rules.Settings().String())
	r.SetTag(sp.SideNames[0], players[0])
	r.SetTag(sp.SideNames[1], players[1])
	if !date.IsZero() {
		r.SetTag("Date", date.Format("2006.01.02"))
	}
	res, ending := g.Result()
	r.SetTag("Result", res.String())
	if res.Over() {
		r.SetTag("Termination", ending.Word)
	}
	if start := g.Start().String(); start != rules.Start().String() {
		r.SetTag("Position", start)
	}
	for _, m := range g.Moves() {
		r.Moves = append(r.Moves, Move{Text: m})
	}
	return r
}

// Rules returns the game and rules a record names in its Game and Rules
// tags.
func (r *Record) Rules() (game.Rules, error) {
	name := r.Tag("Game")
	if name == "" {
		return nil, fmt.Errorf("record has no Game tag")
	}
	g, err := games.Lookup(name)
	if err != nil {
		return nil, fmt.Errorf("tag Game: %w", err)
	}
	rules, err := g.Spec.Rules(r.Tag("Rules"))
	if err != nil {
		return nil, fmt.Errorf("tag Rules: %w", err)
	}
	return rules, nil
}

// Replay plays the record's moves under its rules and returns the game. The
// error names the first move that is not legal, by number and side. A
// Result tag that contradicts the rules (a win claimed for the wrong side,
// or a finished game marked as going on) is an error too; a result the
// rules cannot see (resignation, agreement, time) is taken from the tags.
func (r *Record) Replay() (*game.Game, error) {
	rules, err := r.Rules()
	if err != nil {
		return nil, err
	}
	sp := rules.Spec()
	start := rules.Start()
	if pos := r.Tag("Position"); pos != "" {
		start, err = rules.ParsePosition(pos)
		if err != nil {
			return nil, fmt.Errorf("tag Position: %w", err)
		}
	}
	g := game.NewGame(start)
	for i, m := range r.Moves {
		side := g.Position().Side()
		if err := g.Play(m.Text); err != nil {
			return nil, fmt.Errorf("move %d (%s, %s): %w", i+1, turnLabel(start.Side(), i), sp.SideNames[side], err)
		}
	}
	claimed, err := game.ParseResult(r.Tag("Result"))
	if err != nil {
		return nil, fmt.Errorf("tag Result: %w", err)
	}
	var ending *game.Ending
	if word := r.Tag("Termination"); word != "" {
		if ending, err = sp.Ending(word); err != nil {
			return nil, fmt.Errorf("tag Termination: %w", err)
		}
	}
	if err := g.Claim(claimed, ending); err != nil {
		return nil, fmt.Errorf("tag Result: %w", err)
	}
	return g, nil
}

// turnLabel numbers a move the way movetext does: "3." or "3...".
func turnLabel(first game.Side, i int) string {
	ply := i + int(first)
	n := ply/2 + 1
	if ply%2 == 0 {
		return fmt.Sprintf("%d.", n)
	}
	return fmt.Sprintf("%d...", n)
}

// Format writes the record: tags, a blank line, the movetext wrapped at 80
// columns, the result, and a newline.
func (r *Record) Format() string {
	var b strings.Builder
	for _, t := range r.Tags {
		fmt.Fprintf(&b, "[%s %s]\n", t.Name, quote(t.Value))
	}
	b.WriteByte('\n')
	first := game.First
	if pos := r.Tag("Position"); pos != "" {
		if rules, err := r.Rules(); err == nil {
			if s, err := rules.ParsePosition(pos); err == nil {
				first = s.Side()
			}
		}
	}
	var tokens []string
	if r.Comment != "" {
		tokens = append(tokens, "{"+r.Comment+"}")
	}
	for i, m := range r.Moves {
		ply := i + int(first)
		switch {
		case ply%2 == 0:
			tokens = append(tokens, fmt.Sprintf("%d.", ply/2+1))
		case i == 0 || r.Moves[i-1].Comment != "":
			tokens = append(tokens, fmt.Sprintf("%d...", ply/2+1))
		}
		tokens = append(tokens, m.Text)
		if m.Comment != "" {
			tokens = append(tokens, "{"+m.Comment+"}")
		}
	}
	result := r.Tag("Result")
	if result == "" {
		result = "*"
	}
	tokens = append(tokens, result)
	b.WriteString(Wrap(tokens, 80))
	b.WriteByte('\n')
	return b.String()
}

// Wrap joins tokens with spaces into lines of at most width characters
// (a longer token has a line of its own), without a final line break.
func Wrap(tokens []string, width int) string {
	var b strings.Builder
	col := 0
	for _, tok := range tokens {
		if col > 0 && col+1+len(tok) > width {
			b.WriteByte('\n')
			col = 0
		} else if col > 0 {
			b.WriteByte(' ')
			col++
		}
		b.WriteString(tok)
		col += len(tok)
	}
	return b.String()
}

// quote writes a tag value; a value cannot span lines, so line breaks
// become spaces.
func quote(s string) string {
	s = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s)
	s = strings.ReplaceAll(s, `\`, `\\`)
	return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"`
}

// FromTranscript makes a record of a game with what the transcript adds:
// the tags of FromGame, with Event, Site, each side's Elo and TimeControl,
// in the order PGN puts its tags (the seven it requires first). A rating
// not known is "?", as PGN writes it.
func FromTranscript(t game.Transcript) *Record {
	r := FromGame(t.Game, t.Players, t.Date)
	sp := t.Game.Rules().Spec()
	if t.Event != "" {
		r.SetTag("Event", t.Event)
	}
	if t.Site != "" {
		r.SetTag("Site", t.Site)
	}
	for i, side := range sp.SideNames {
		elo := t.Elo[i]
		if elo == "" {
			elo = "?"
		}
		r.SetTag(side+"Elo", elo)
	}
	if t.TimeControl != "" {
		r.SetTag("TimeControl", t.TimeControl)
	}
	order := []string{"Event", "Site", "Date", sp.SideNames[0], sp.SideNames[1], "Result",
		sp.SideNames[0] + "Elo", sp.SideNames[1] + "Elo", "TimeControl", "Termination", "Game", "Rules", "Position"}
	var tags []Tag
	for _, name := range order {
		if v := r.Tag(name); v != "" {
			tags = append(tags, Tag{name, v})
		}
	}
	r.Tags = tags
	return r
}
