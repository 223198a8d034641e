// Package games is the catalogue of the games the project plays. Each game
// is one registration, a Game: its rules (game.Spec: names, sides, rule
// options and variants, endings, bench suite, record formats, symmetries),
// its computer players (ai.Profile) and its solver (prove.Game), the
// last two made by the game's own AI package (magneton/magnetonai,
// tumbling/tumblingai), which does not import this one. Everything
// outside a game's own packages finds a game here by name: the command
// line, the match runner, the engine protocol, the tuner, records, the
// play server and the conformance tests (package gametest). Adding a game
// is adding it to builtin below (or calling Register), not editing lists
// across the tree (docs/adding-a-game.md).
package games

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/book"
	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/magneton"
	"github.com/magneton-games/magneton/magneton/magnetonai"
	"github.com/magneton-games/magneton/prove"
	"github.com/magneton-games/magneton/tumbling"
	"github.com/magneton-games/magneton/tumbling/tumblingai"
	"github.com/magneton-games/magneton/ugi"
)

// Game is one game's registration.
type Game struct {
	Spec *game.Spec
	AI   ai.Profile
	// Solver is the game's proof-number solver (magneton solve), nil
	// for a game without one.
	Solver prove.Game
}

// builtin are the project's games, Magneton first (the default): each
// its rules' Spec and its own AI package's profile and solver.
var builtin = []*Game{
	{Spec: magneton.Spec, AI: magnetonai.Profile, Solver: magnetonai.Solver},
	{Spec: tumbling.Spec, AI: tumblingai.Profile, Solver: tumblingai.Solver},
}

var (
	mu         sync.RWMutex
	registered []*Game
)

func init() {
	for _, g := range builtin {
		if err := Register(g); err != nil {
			panic(err) // a mistake in the list above; the tests catch it
		}
	}
}

// Register adds a game. It is an error for the game to lack a Spec that
// builds its rules, to lack an AI profile of the same Spec that passes its
// check, or to share a name or alias with a game already registered.
// Registering the same game again (the same Spec, profile and solver)
// does nothing.
func Register(g *Game) error {
	if err := check(g); err != nil {
		return err
	}
	mu.Lock()
	defer mu.Unlock()
	for _, r := range registered {
		if sameGame(r, g) {
			return nil
		}
		for _, n := range names(g.Spec) {
			if slices.Contains(names(r.Spec), n) {
				return fmt.Errorf("game %s: the name %q is %s's already", g.Spec.Name, n, r.Spec.Name)
			}
		}
	}
	registered = append(registered, g)
	return nil
}

// sameGame reports whether two registrations are one game's, made of the
// same Spec, profile and solver: a test that registers the game again
// (go test -count=2) registers a new Game of the same values. A profile
// made by ai.NewProfile and a solver made by prove.For compare by
// identity.
func sameGame(a, b *Game) bool {
	return a == b || a.Spec == b.Spec && a.AI == b.AI && a.Solver == b.Solver
}

// check reports what a registration lacks.
func check(g *Game) error {
	switch {
	case g == nil || g.Spec == nil:
		return errors.New("a game registered without a Spec")
	case g.Spec.Name == "" || g.Spec.Title == "" || g.Spec.New == nil:
		return fmt.Errorf("game %q: its Spec needs a Name, a Title and New", g.Spec.Name)
	case g.Spec.Board.Files < 1 || g.Spec.Board.Files > 26 || g.Spec.Board.Ranks < 1 || g.Spec.Board.Ranks > 9:
		return fmt.Errorf("game %s: its Spec's Board is %dx%d: want 1 to 26 files (a to z) and 1 to 9 ranks", g.Spec.Name, g.Spec.Board.Files, g.Spec.Board.Ranks)
	case g.AI == nil:
		return fmt.Errorf("game %s has no AI profile (ai.Profile): every game needs its computer players", g.Spec.Name)
	case g.AI.Spec() != g.Spec:
		return fmt.Errorf("game %s: its AI profile is %s's", g.Spec.Name, g.AI.Spec().Name)
	}
	for _, o := range g.Spec.Options {
		if len(o.Values) == 0 {
			return fmt.Errorf("game %s: rule option %s has no values", g.Spec.Name, o.Name)
		}
	}
	for _, v := range g.Spec.Variants {
		if _, err := g.Spec.ParseSettings(v.Settings.String()); err != nil {
			return fmt.Errorf("game %s: variant %s: %w", g.Spec.Name, v.Name, err)
		}
	}
	words := map[string]bool{}
	for _, e := range g.Spec.AllEndings() {
		if e == nil || e.Word == "" || words[e.Word] {
			return fmt.Errorf("game %s: an ending is empty or its word %q is not unique", g.Spec.Name, e.String())
		}
		words[e.Word] = true
	}
	if err := g.AI.Check(); err != nil {
		return fmt.Errorf("game %s: %w", g.Spec.Name, err)
	}
	return nil
}

func names(sp *game.Spec) []string { return append([]string{sp.Name}, sp.Aliases...) }

// All returns the registered games, Magneton first.
func All() []*Game {
	mu.RLock()
	defer mu.RUnlock()
	return slices.Clone(registered)
}

// Default returns the game a command uses when none is named.
func Default() *Game { return All()[0] }

// Lookup finds a game by its name or one of its aliases.
func Lookup(name string) (*Game, error) {
	all := All()
	var known []string
	for _, g := range all {
		if slices.Contains(names(g.Spec), name) {
			return g, nil
		}
		known = append(known, names(g.Spec)...)
	}
	return nil, fmt.Errorf("unknown game %q (games: %s)", name, strings.Join(known, ", "))
}

// Rules finds a game by name ("" for the default game) and builds its
// rules from settings, as game.Spec.Rules reads them.
func Rules(name string, settings ...string) (game.Rules, error) {
	g := Default()
	if name != "" {
		var err error
		if g, err = Lookup(name); err != nil {
			return nil, err
		}
	}
	return g.Spec.Rules(settings...)
}

// Of returns the registration of a game's Spec.
func Of(sp *game.Spec) (*Game, error) {
	for _, g := range All() {
		if g.Spec == sp {
			return g, nil
		}
	}
	return nil, fmt.Errorf("the game %s is not registered", sp.Name)
}

// NewPlayer makes a computer player for rules by name: a player of the
// game's AI profile (ai.CommonPlayers or one of the game's baselines), or
// ugi:PATH, an external engine speaking UGI. A player that holds an
// external process is an io.Closer; close it when done. A player gets
// the game's proof-number solver as its cfg.Prover unless cfg has one.
func NewPlayer(name string, rules game.Rules, cfg ai.Config) (ai.Player, error) {
	if path, ok := strings.CutPrefix(name, "ugi:"); ok {
		if path == "" {
			return nil, fmt.Errorf("player %q: want ugi:/path/to/engine", name)
		}
		return startExternal(path, rules)
	}
	g, err := Of(rules.Spec())
	if err != nil {
		return nil, fmt.Errorf("player %q: %w", name, err)
	}
	if cfg.Prover == nil && g.Solver != nil {
		cfg.Prover = g.Solver.Prover(ai.EndgameHashMiB)
	}
	if lv, ok := ai.ParseLevel(name); ok && lv == 8 && cfg.Book == nil {
		b, err := ProvenBook()
		if err != nil {
			return nil, fmt.Errorf("player %q: %w", name, err)
		}
		cfg.Book = b
	}
	return g.AI.NewPlayer(name, rules, cfg)
}

// provenBook is the book of the committed certificates, read once, at the
// first player that asks for it (level 8): about a second's work, which
// the commands that never play level 8 do not pay.
var provenBook = sync.OnceValues(func() (*book.Book, error) {
	return book.Embedded(func(name, settings string) (game.Rules, error) { return Rules(name, settings) })
})

// ProvenBook returns the book of proven positions that level 8 plays by
// and the analysis reports: the committed certificates of docs/proofs,
// built into the binary, and any certificates added to it (the --book
// option). It is shared: what is added is seen by every player.
func ProvenBook() (*book.Book, error) {
	b, err := provenBook()
	if err != nil {
		return nil, fmt.Errorf("the book of proven positions: %w", err)
	}
	return b, nil
}

// PlayerNames describes the player names of NewPlayer, for help texts.
func PlayerNames() string {
	s := ai.CommonPlayers
	for _, g := range All() {
		for _, b := range g.AI.Baselines() {
			s += fmt.Sprintf(", %s (%s)", b.Name, g.Spec.Title)
		}
	}
	return s + ", ugi:/path/to/engine"
}

// Catalog is the registered games as the engine protocol sees them.
var Catalog ugi.Catalog = catalog{}

type catalog struct{}

func (catalog) Games() []*game.Spec {
	var out []*game.Spec
	for _, g := range All() {
		out = append(out, g.Spec)
	}
	return out
}

func (catalog) Lookup(name string) (*game.Spec, error) {
	g, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	return g.Spec, nil
}

func (catalog) NewPlayer(name string, rules game.Rules, cfg ai.Config) (ai.Player, error) {
	return NewPlayer(name, rules, cfg)
}
