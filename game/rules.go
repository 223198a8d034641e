package game

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
)

// Option is one named rule option of a game: a point where the sources leave
// the rules open and the project lets players choose.
type Option struct {
	Name    string   // as written on the command line: "win"
	Values  []string // the allowed values, the default first
	Summary string   // one line for help texts
}

// Default returns the option's default value.
func (o Option) Default() string { return o.Values[0] }

// Variant is a named set of option values ("weak-force").
type Variant struct {
	Name     string
	Settings Settings
	Summary  string
}

// Settings maps option names to chosen values. A missing option takes its
// default. Settings are written "name=value,name=value" in records and
// accepted in the same form on the command line.
type Settings map[string]string

// String writes the settings sorted by name, so equal settings print alike.
func (s Settings) String() string {
	keys := make([]string, 0, len(s))
	for k := range s {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(k)
		b.WriteByte('=')
		b.WriteString(s[k])
	}
	return b.String()
}

// Spec describes one game to code that handles any game: its names, its
// sides, its rule options and how to start or read a position.
type Spec struct {
	Name    string   // name in records' Game tag and in commands: "magneton", "tumbling-down"
	Aliases []string // other names accepted on the command line: "tumbling"
	Title   string   // display name: "Magneton"
	// Titles are the game's display name in other languages, by language
	// code, where it has a name of its own there ("es": "Demolición").
	Titles      map[string]string
	SideNames   [2]string // "White", "Black"
	SideLetters [2]string // letters used in position texts and results: "w", "b"
	// Board is the size of the board and how its squares are named and
	// numbered, for code that draws any game (the front end).
	Board    Board
	Options  []Option
	Variants []Variant
	// New builds the rules for complete, checked settings (every option set
	// to an allowed value); use Spec.Rules to build from user input.
	New func(Settings) Rules
	// Endings are the ways a game ends that are the game's own, beyond
	// NeutralEndings: the endings its positions' Outcome returns.
	Endings []*Ending
	// Bench is the fixed perft suite of `magneton bench`, under the
	// default rules.
	Bench []BenchCase
	// Formats are the record formats of the game besides the project's
	// own PGN-like record (package record), such as SGF; nil for none.
	Formats []RecordFormat
	// Symmetries are transformations of the board under which the rules
	// are the same: a position's legal moves, mapped, are the mapped
	// position's, and so are the positions after them. The conformance
	// tests check every one. Nil when the game declares none.
	Symmetries []Symmetry
	// Motifs name what moves of the game do in its own terms (a push, a
	// tumble), for the themes of puzzles; nil when the game names none.
	Motifs *Motifs
}

// Board is a rectangular board of Files x Ranks squares. Squares are
// named by a file letter from a and a rank number from 1 ("a1", "c3"), and
// numbered file-major, as game.Square numbers the 8x8 board: a1 = 0, a2 =
// 1, ..., the last rank of file a = Ranks-1, b1 = Ranks, and so on.
type Board struct {
	Files, Ranks int
}

// Squares returns the number of squares.
func (b Board) Squares() int { return b.Files * b.Ranks }

// Square returns the number of the square of a file (0 = a) and a rank (0
// = rank 1).
func (b Board) Square(file, rank int) int { return file*b.Ranks + rank }

// Canonical returns the text that stands for a position and all its
// images under the game's symmetries: the least of them. Two positions
// that a symmetry maps onto each other have the same canonical text, which
// is how puzzles and suites find positions they hold already.
func (sp *Spec) Canonical(position string) string {
	best := position
	for _, y := range sp.Symmetries {
		if t := y.Position(position); t < best {
			best = t
		}
	}
	return best
}

// Motifs are a game's names for what a move does, as lichess tags a
// puzzle "fork" or "promotion": the front end translates each id (key
// "pz.theme.<id>").
type Motifs struct {
	// IDs lists every motif a move can have, in the order a menu shows
	// them.
	IDs []string
	// Of says which motifs the move (in the game's notation) of s has, in
	// the order of IDs. The error says what of the move does not read.
	Of func(s State, move string) ([]string, error)
	// Threat names the threat a winning move makes, so that two winning
	// moves of one threat (in Tumbling Down a step and a tumble of one
	// stack onto the same King) count once; nil when every move is a
	// threat of its own.
	Threat func(move string) string
}

// Symmetry is one transformation of positions and moves under which a
// game's rules do not change, such as a reflection of the board.
type Symmetry struct {
	Name string // "mirror files"
	// Position maps a position text; Move maps a move text (of the
	// position before the mapping) to the same move after it.
	Position func(text string) string
	Move     func(move string) string
	// State maps a position as Position maps its text, without writing
	// and reading the text: for code that maps many positions (the
	// archive indexes every position of every game). Nil when the game
	// gives none; ImageOf then goes through the text.
	State func(s State) State
	// SwapsSides: the symmetry swaps the sides (their pieces and the side
	// to move), so a win of one is a win of the other after it.
	SwapsSides bool
}

// ImageOf returns the image of s under y: through y.State when the game
// gives it, else through the position's text (nil when the image does
// not read, which a game's conformance tests rule out).
func (y *Symmetry) ImageOf(s State) State {
	if y.State != nil {
		return y.State(s)
	}
	t, err := s.Rules().ParsePosition(y.Position(s.String()))
	if err != nil {
		return nil
	}
	return t
}

// Swapped returns the result with the sides swapped: a first player's win
// becomes the second player's.
func (r Result) Swapped() Result {
	switch r {
	case FirstWins:
		return SecondWins
	case SecondWins:
		return FirstWins
	}
	return r
}

// Option returns the option with the given name.
func (sp *Spec) Option(name string) (Option, bool) {
	for _, o := range sp.Options {
		if o.Name == name {
			return o, true
		}
	}
	return Option{}, false
}

// Defaults returns the settings with every option at its default.
func (sp *Spec) Defaults() Settings {
	return sp.Choose(Option.Default)
}

// Choose returns the settings with each option at the value pick gives it
// (one of its Values, for settings that New accepts): for example a random
// one, in tests that range over all the rules.
func (sp *Spec) Choose(pick func(Option) string) Settings {
	s := Settings{}
	for _, o := range sp.Options {
		s[o.Name] = pick(o)
	}
	return s
}

// ParseSettings reads rule settings given by a user: a list of items, each
// "name=value", a variant name, or several of those joined by commas.
// Later items override earlier ones; variants apply their values in order.
// The result holds every option.
func (sp *Spec) ParseSettings(items ...string) (Settings, error) {
	s := sp.Defaults()
	for _, item := range items {
		for _, part := range strings.Split(item, ",") {
			part = strings.TrimSpace(part)
			if part == "" || part == "default" {
				continue
			}
			name, value, hasValue := strings.Cut(part, "=")
			if !hasValue {
				i := slices.IndexFunc(sp.Variants, func(v Variant) bool { return v.Name == part })
				if i < 0 {
					return nil, fmt.Errorf("%s: unknown rule variant %q (variants: %s; options are written name=value)", sp.Title, part, sp.variantNames())
				}
				for k, v := range sp.Variants[i].Settings {
					s[k] = v
				}
				continue
			}
			o, ok := sp.Option(name)
			if !ok {
				return nil, fmt.Errorf("%s: unknown rule option %q (options: %s)", sp.Title, name, sp.optionNames())
			}
			if !slices.Contains(o.Values, value) {
				return nil, fmt.Errorf("%s: rule option %s cannot be %q (allowed: %s)", sp.Title, name, value, strings.Join(o.Values, ", "))
			}
			s[name] = value
		}
	}
	return s, nil
}

// Rules builds the game's rules from user settings, as ParseSettings reads them.
func (sp *Spec) Rules(items ...string) (Rules, error) {
	s, err := sp.ParseSettings(items...)
	if err != nil {
		return nil, err
	}
	return sp.New(s), nil
}

func (sp *Spec) optionNames() string {
	names := make([]string, len(sp.Options))
	for i, o := range sp.Options {
		names[i] = o.Name
	}
	return strings.Join(names, ", ")
}

func (sp *Spec) variantNames() string {
	names := make([]string, len(sp.Variants))
	for i, v := range sp.Variants {
		names[i] = v.Name
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// ResultWord returns the letter of a result's winner ("w"), "draw" for a
// draw and "-" for a game going on: the RESULT column of `magneton apply`.
func (sp *Spec) ResultWord(r Result) string {
	if w, ok := r.Winner(); ok {
		return sp.SideLetters[w]
	}
	if r == Draw {
		return "draw"
	}
	return "-"
}

// Rules is a game with its options chosen: what a game record names in its
// Game and Rules tags.
type Rules interface {
	// Spec returns the game these are rules of.
	Spec() *Spec
	// Settings returns every option's value.
	Settings() Settings
	// Start returns the starting position.
	Start() State
	// ParsePosition reads a position text; the error names what is wrong
	// and where.
	ParsePosition(text string) (State, error)
	// RepetitionLimit returns the number of occurrences of a position that
	// draws the game, or 0 when repetition never draws.
	RepetitionLimit() int
}

// State is a position seen through the game-neutral dynamic interface: moves
// are text in the game's notation. It is meant for code outside hot loops
// (the command line, records, the server); searches use Position. The hot
// loops that tools run on any game (perft, playouts) are methods here too,
// run on the game's concrete types inside. Adapt makes a State of a
// game's Position.
type State interface {
	Side() Side
	// Moves returns the legal moves in the game's notation, sorted as text.
	Moves() []string
	// Play checks and plays a move given as text.
	Play(move string) (State, error)
	// Notation checks a legal move given as text and writes it as the
	// game does, the spelling Moves lists: a notation may read one move
	// in several spellings (a Tumbling Down "tumble" of a single disk is
	// its step), and a record keeps one.
	Notation(move string) (string, error)
	Outcome() (Result, *Ending)
	Hash() uint64
	String() string
	Rules() Rules
	// Diagram draws the position for a terminal, in ANSI colours when
	// color is set.
	Diagram(color bool) string
	// Perft counts the leaves of the game tree of the given depth below
	// the position, as the function Perft does.
	Perft(depth int) uint64
	// Divide counts the leaves of depth below each legal move on up to
	// threads goroutines (threads < 1: one per CPU) and returns them
	// sorted by move text. It stops early, returning ctx.Err(), when ctx
	// is cancelled.
	Divide(ctx context.Context, depth, threads int) ([]MoveCount, error)
	// RandomMove draws a legal move uniformly at random, as the position's
	// own RandomMove does in playouts; false when there is none.
	RandomMove(rng *rand.Rand) (string, bool)
	// Playouts plays n games of uniformly random legal moves from the
	// position, each until it ends by the rules (the repetition rule
	// included) or maxPlies moves were played, as the function
	// PlayoutRepeating does with the rules' RepetitionLimit, and counts
	// their results.
	Playouts(rng *rand.Rand, n, maxPlies int) PlayoutStats
}

// MoveCount is one legal move with the number of leaves below it.
type MoveCount struct {
	Move  string
	Nodes uint64
}

// PlayoutStats counts random games: how many, their plies in all, and
// their results (Ongoing for a game cut off at its ply limit).
type PlayoutStats struct {
	Games, Plies int
	Results      [4]int // indexed by Result
}

// TwoWaySettings writes the settings of a game whose options each have two
// values, from one flag an option in the order of sp.Options: the
// option's default when its flag is false, its other value when true. A
// game's Rules with one bool field an option use it for Settings.
func (sp *Spec) TwoWaySettings(flags ...bool) Settings {
	s := Settings{}
	for i, o := range sp.Options {
		v := o.Values[0]
		if i < len(flags) && flags[i] && len(o.Values) > 1 {
			v = o.Values[1]
		}
		s[o.Name] = v
	}
	return s
}
