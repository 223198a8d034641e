package magneton

import (
	"github.com/magneton-games/magneton/game"
)

// Rules are the rule options of a game of Magneton. The zero value is the
// project's default rules. Each field is an option the sources leave open;
// docs/rules/magneton.md explains them.
type Rules struct {
	// OwnerWins: a line of the opponent's colour made by the mover's
	// magnetic effect wins for its owner when the mover has made none
	// (option win=owner-wins). By default only the mover's lines count.
	OwnerWins bool
	// OneSided: a stone moves along a line only when one side of the line
	// holds a stone and the other side is empty to the edge (option
	// movement=one-sided, the designer's text as Neto gives it). By default
	// any nearest stone acts as a magnet on it.
	OneSided bool
	// Weak: stones pushed, pulled or moved go one square only (option
	// force=weak, the variant "weak-force").
	Weak bool
	// NoMovesDraw: a side to move with no legal move draws instead of
	// losing (option no-moves=draw).
	NoMovesDraw bool
	// NoRepetition: the third occurrence of a position does not draw
	// (option repetition=off).
	NoRepetition bool
}

// Line is Magneton's own ending: a line of four made by the magnetic effect.
var Line = &game.Ending{Word: "line", Text: "a line of four made by the magnetic effect"}

// Spec describes Magneton to game-neutral code.
var Spec = &game.Spec{
	Name:  "magneton",
	Title: "Magneton",
	// The Esperanto name of the game's Esperanto description.
	Titles:      map[string]string{"eo": "Magneto"},
	SideNames:   [2]string{"White", "Black"},
	SideLetters: [2]string{"w", "b"},
	Board:       game.Board{Files: 8, Ranks: 8},
	Options: []game.Option{
		{Name: "win", Values: []string{"mover-only", "owner-wins"}, Summary: "whose lines made by the magnetic effect win: only the mover's, or also the opponent's when the mover has none"},
		{Name: "movement", Values: []string{"any-magnet", "one-sided"}, Summary: "which stones move a stone in the move phase: the nearest stone on any line, or only on a line whose other side is empty"},
		{Name: "force", Values: []string{"strong", "weak"}, Summary: "how far the magnetic effect and moves go: as far as possible, or one square"},
		{Name: "no-moves", Values: []string{"loses", "draw"}, Summary: "what happens to a side to move with no legal move"},
		{Name: "repetition", Values: []string{"3", "off"}, Summary: "whether the third occurrence of a position draws"},
	},
	Variants: []game.Variant{
		{Name: "standard", Settings: game.Settings{"win": "mover-only", "movement": "any-magnet", "force": "strong", "no-moves": "loses", "repetition": "3"}, Summary: "the project's default rules"},
		{Name: "weak-force", Settings: game.Settings{"force": "weak"}, Summary: "Super Duper Games' variant: everything moves one square"},
	},
	New: func(s game.Settings) game.Rules {
		return Rules{
			OwnerWins:    s["win"] == "owner-wins",
			OneSided:     s["movement"] == "one-sided",
			Weak:         s["force"] == "weak",
			NoMovesDraw:  s["no-moves"] == "draw",
			NoRepetition: s["repetition"] == "off",
		}
	},
	Endings:    []*game.Ending{Line},
	Bench:      benchSuite,
	Symmetries: symmetries,
	Motifs:     motifs,
}

// Spec returns the game these are rules of.
func (r Rules) Spec() *game.Spec { return Spec }

// Settings returns every option's value, for records and messages.
func (r Rules) Settings() game.Settings {
	return Spec.TwoWaySettings(r.OwnerWins, r.OneSided, r.Weak, r.NoMovesDraw, r.NoRepetition)
}

// RepetitionLimit returns 3, or 0 under repetition=off.
func (r Rules) RepetitionLimit() int {
	if r.NoRepetition {
		return 0
	}
	return 3
}

func (r Rules) flags() flags {
	return flagIf(r.OwnerWins, flagOwnerWins) | flagIf(r.OneSided, flagOneSided) |
		flagIf(r.Weak, flagWeak) | flagIf(r.NoMovesDraw, flagNoMovesDraws)
}

// flagIf returns f when set, else no flag.
func flagIf(set bool, f flags) flags {
	if set {
		return f
	}
	return 0
}

// StartPosition returns the empty board with White to move and twelve
// stones in each hand.
func (r Rules) StartPosition() Position {
	return newPosition([2]uint64{}, [2]int{StonesPerSide, StonesPerSide}, White, r.flags())
}

// Start returns the starting position as a game.State.
func (r Rules) Start() game.State { return game.Adapt[Position, Move](r.StartPosition(), r) }

// ParsePosition reads a position text as a game.State.
func (r Rules) ParsePosition(text string) (game.State, error) {
	p, err := r.Parse(text)
	return game.AdaptParsed[Position, Move](p, err, r)
}
