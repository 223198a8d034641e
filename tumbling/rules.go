package tumbling

import (
	"slices"

	"github.com/magneton-games/magneton/game"
)

// Rules are the rule options of a game of Tumbling Down. The zero value is
// the project's default rules: the original layout with Black first, steps
// and tumbles, any landing on a King captures it, covering your own King
// loses, a side without a King loses, no legal move loses, and the third
// occurrence of a position draws. Each field is an option the sources leave
// open or settle differently; docs/rules/tumbling-down.md explains them.
type Rules struct {
	// OwnKingIgnored: an enemy disk landing on one of the mover's own Kings
	// (which only a tumble of a mixed stack can do) is no loss (option
	// own-king=ignored).
	OwnKingIgnored bool
	// NoKingIgnored: a side left with no stack made only of its own disks
	// plays on (option no-king=ignored).
	NoKingIgnored bool
	// NoMovesDraw: a side to move with no legal move draws instead of
	// losing (option no-moves=draw).
	NoMovesDraw bool
	// NoRepetition: the third occurrence of a position does not draw
	// (option repetition=off).
	NoRepetition bool
	// BoardspaceLayout: start from Boardspace's layout, Black in the a1
	// corner and Red in the h8 corner, Red to move (option
	// layout=boardspace).
	BoardspaceLayout bool
	// TumbleOnly: a stack of two or more disks can only tumble; a lone
	// disk steps (option moves=tumble-only, as on Boardspace).
	TumbleOnly bool
	// Capture says which landings on a King capture it (option capture).
	Capture Capture
}

// Capture is a rule for which landings on a King capture it. The three
// differ only for tumbles: a single disk stepped onto a King captures
// under each of them.
type Capture uint8

const (
	// CaptureAny: any disk of the capturer landing on a King captures it
	// (capture=any, the default).
	CaptureAny Capture = iota
	// CapturePBEM: a King is captured only when its square ends as one run
	// of the victim's colour under one run of the capturer's
	// (capture=pbem, the rule of Richard's PBeM server).
	CapturePBEM
	// CaptureBoardspace: a King is captured when a disk landed on it and it
	// is no King any more (it is mixed now), unless the move made its
	// owner's tallest single-colour stack taller (capture=boardspace, the
	// rule of Boardspace.net's program: "without creating a taller king in
	// the process").
	CaptureBoardspace
)

// captureValues are the capture option's values, in the order of the
// Capture constants.
var captureValues = []string{"any", "pbem", "boardspace"}

// The start layouts as position texts.
const (
	// OriginalStart is the designer's layout (Figure 1): Black's stacks in
	// the a8 corner, Red's in the h1 corner, Black to move.
	OriginalStart = "bbbb,bbb,bb,bb,b,3/bbb,bb,bb,b,4/bb,bb,b,5/bb,b,5,r/b,5,r,rr/5,r,rr,rr/4,r,rr,rr,rrr/3,r,rr,rr,rrr,rrrr b"
	// BoardspaceStart is Boardspace's layout: Red (Boardspace's White) in
	// the h8 corner and to move, Black in the a1 corner.
	BoardspaceStart = "2,r,rr,rrr,rrrr,rrr,rr/3,r,rr,rrr,rr,r/4,r,rr,r,1/5,r,2/2,b,5/1,b,bb,b,4/b,bb,bbb,bb,b,3/bb,bbb,bbbb,bbb,bb,b,2 r"
)

// Tumbling Down's own endings. The capture of a King wins; the two others
// lose for the side they name, and each can be switched off by a rule
// option (own-king, no-king).
var (
	// KingCaptured: a disk of the mover landed on an enemy King.
	KingCaptured = &game.Ending{Word: "king captured", Text: "capturing the King"}
	// OwnKing: the mover's tumble dropped an enemy disk on its own King.
	OwnKing = &game.Ending{Word: "own king captured", Text: "an own King covered"}
	// NoKing: a side was left with no stack made only of its own disks.
	NoKing = &game.Ending{Word: "no king", Text: "no King left"}
)

// endings are the values a Position's ending field indexes; 0 is unused
// (the game goes on).
var endings = [...]*game.Ending{endKingCaptured: KingCaptured, endOwnKing: OwnKing, endNoKing: NoKing}

const (
	endNone uint8 = iota
	endKingCaptured
	endOwnKing
	endNoKing
)

// Spec describes Tumbling Down to game-neutral code.
var Spec = &game.Spec{
	Name:    "tumbling-down",
	Aliases: []string{"tumbling"},
	Title:   "Tumbling Down",
	// The Spanish name of the game's Spanish description (the rules' source).
	Titles:      map[string]string{"es": "Demolición"},
	SideNames:   [2]string{"Black", "Red"},
	SideLetters: [2]string{"b", "r"},
	Board:       game.Board{Files: 8, Ranks: 8},
	Options: []game.Option{
		{Name: "own-king", Values: []string{"loses", "ignored"}, Summary: "what happens when the mover drops an enemy disk on their own King (tumbling a mixed stack): the mover loses, or nothing"},
		{Name: "no-king", Values: []string{"loses", "ignored"}, Summary: "what happens to a side left with no stack made only of its own disks: it loses, or plays on"},
		{Name: "no-moves", Values: []string{"loses", "draw"}, Summary: "what happens to a side to move with no legal move"},
		{Name: "repetition", Values: []string{"3", "off"}, Summary: "whether the third occurrence of a position draws"},
		{Name: "layout", Values: []string{"original", "boardspace"}, Summary: "the start: the designer's (Black in the a8 corner, Black first) or Boardspace's (Black in the a1 corner, Red first)"},
		{Name: "moves", Values: []string{"step-or-tumble", "tumble-only"}, Summary: "whether a stack of two or more may step its top disk as well as tumble, or only tumble (a lone disk always steps)"},
		{Name: "capture", Values: captureValues, Summary: "which landings on a King capture it: any disk of the capturer; only when the square ends as one run of the victim's colour under one run of the capturer's; or any that leaves it mixed, unless the move made its owner's tallest single-colour stack taller"},
	},
	Variants: []game.Variant{
		{Name: "standard", Settings: game.Settings{"own-king": "loses", "no-king": "loses", "no-moves": "loses", "repetition": "3", "layout": "original", "moves": "step-or-tumble", "capture": "any"}, Summary: "the project's default rules"},
		{Name: "boardspace", Settings: game.Settings{"layout": "boardspace", "moves": "tumble-only", "capture": "boardspace"}, Summary: "Boardspace's rules: its layout with Red first, stacks only tumble, and no capture by a move that makes the victim a taller King"},
		{Name: "pbem", Settings: game.Settings{"capture": "pbem"}, Summary: "Richard's PBeM server's capture rule: a King falls only to one run of the capturer's disks on top"},
	},
	New: func(s game.Settings) game.Rules {
		return Rules{
			OwnKingIgnored:   s["own-king"] == "ignored",
			NoKingIgnored:    s["no-king"] == "ignored",
			NoMovesDraw:      s["no-moves"] == "draw",
			NoRepetition:     s["repetition"] == "off",
			BoardspaceLayout: s["layout"] == "boardspace",
			TumbleOnly:       s["moves"] == "tumble-only",
			Capture:          Capture(slices.Index(captureValues, s["capture"])),
		}
	},
	Endings:    []*game.Ending{KingCaptured, OwnKing, NoKing},
	Bench:      benchSuite,
	Symmetries: symmetries,
	Motifs:     motifs,
}

// Spec returns the game these are rules of.
func (r Rules) Spec() *game.Spec { return Spec }

// Settings returns every option's value, for records and messages.
func (r Rules) Settings() game.Settings {
	s := Spec.TwoWaySettings(r.OwnKingIgnored, r.NoKingIgnored, r.NoMovesDraw, r.NoRepetition, r.BoardspaceLayout, r.TumbleOnly)
	s["capture"] = captureValues[r.Capture]
	return s
}

// RepetitionLimit returns 3, or 0 under repetition=off.
func (r Rules) RepetitionLimit() int {
	if r.NoRepetition {
		return 0
	}
	return 3
}

func (r Rules) flags() flags {
	return flagIf(r.OwnKingIgnored, flagOwnKingIgnored) | flagIf(r.NoKingIgnored, flagNoKingIgnored) |
		flagIf(r.NoMovesDraw, flagNoMovesDraw) | flagIf(r.TumbleOnly, flagTumbleOnly) |
		flagIf(r.Capture == CapturePBEM, flagPBEM) | flagIf(r.Capture == CaptureBoardspace, flagBoardspace)
}

// flagIf returns f when set, else no flag.
func flagIf(set bool, f flags) flags {
	if set {
		return f
	}
	return 0
}

// StartText returns the position text of the start under these rules.
func (r Rules) StartText() string {
	if r.BoardspaceLayout {
		return BoardspaceStart
	}
	return OriginalStart
}

// StartPosition returns the starting position of the chosen layout.
func (r Rules) StartPosition() Position {
	p, err := r.Parse(r.StartText())
	if err != nil {
		panic("tumbling: bad start layout: " + err.Error()) // a bug in the constants above
	}
	return p
}

// Start returns the starting position as a game.State.
func (r Rules) Start() game.State { return game.Adapt[Position, Move](r.StartPosition(), r) }

// ParsePosition reads a position text as a game.State.
func (r Rules) ParsePosition(text string) (game.State, error) {
	p, err := r.Parse(text)
	return game.AdaptParsed[Position, Move](p, err, r)
}
