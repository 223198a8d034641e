package ai

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/magneton-games/magneton/game"
)

// Profile is what the computer players know of one game: how to make its
// players by name, the proof search of its forced results, and its
// evaluation for the tuner. Each game's own AI package beside its rules
// declares its profile (NewProfile makes one from a GameProfile), and
// the game's registration (package games) holds it.
type Profile interface {
	// Spec returns the game the profile plays.
	Spec() *game.Spec
	// NewPlayer makes the named player (see CommonPlayers and Baselines)
	// for rules of the game. A Player must be used by one goroutine at a
	// time; make one per game (an alpha-beta player holds a Config.HashMB
	// transposition table, an MCTS player its tree, until it is dropped).
	// Players of different games share nothing and may run at once.
	NewPlayer(name string, rules game.Rules, cfg Config) (Player, error)
	// Baselines lists the game's own players besides the common ones.
	Baselines() []Baseline
	// ForcedResult looks for a forced win of either side in s within
	// plies plies, and returns the number of moves of the side to move to
	// it: positive when the side to move wins by force, negative when it
	// loses by force, 0 when it found neither (none exists within the
	// horizon, or none of the kind it looks for, or maxNodes ran out; 0
	// for no limit).
	//
	// It is a proof search, not a player: no evaluation enters it, so no
	// player's judgement does, and a result it reports is certain. To
	// reach a useful depth in games with a hundred moves a position it
	// looks only for wins made of threats: every move of the winner but
	// the last leaves it a win at once if the loser did nothing, while
	// every reply of the loser is tried. Quiet winning moves are beyond
	// it. The match runner uses it to leave out openings already decided,
	// which measure the opening and not the players.
	ForcedResult(ctx context.Context, s game.State, plies int, maxNodes int64) (int, error)
	// Evaluation describes the evaluation of the searches, for the tuner.
	Evaluation() Evaluation
	// LevelRatings returns the approximate rating of each level, 1 to 8,
	// for people to see what a level means (GameProfile.LevelRatings).
	LevelRatings() [8]int
	// Check reports what the profile lacks or gets wrong; a game is
	// registered only with a profile that passes.
	Check() error
}

// CommonPlayers describes the players every game has, for help texts.
const CommonPlayers = "level:1 to level:8, alphabeta, mcts, random, greedy"

// The players every game has:
//
//	level:N    the levels people choose, 1 (beginner) to 8 (max)
//	alphabeta  the alpha-beta search at full strength
//	mcts       the MCTS search at full strength
//	random     uniformly random legal moves
//	greedy     wins at once if it can, never leaves a win in one to the
//	           opponent when it can help it, else random
var commonNames = []string{"alphabeta", "mcts", "random", "greedy"}

// Baseline is a player of one game only, kept to measure the others
// against, such as Tumbling Down's boardspace-d5.
type Baseline struct {
	Name    string // as NewPlayer takes it: "boardspace-d5"
	Summary string // one line for help texts
	// New makes the player; cfg has its defaults filled in.
	New func(rules game.Rules, cfg Config) (Player, error)
}

// Evaluation is a game's evaluation as the tuner sees it: a weighted sum
// of features.
type Evaluation struct {
	Names   []string // the features
	Weights []int    // the default weights, one a feature
	// Features returns the features of a position (the side to move's
	// count minus the opponent's), in the order of Names.
	Features func(s game.State) ([]int, error)
}

// Level is a handicap of one of the levels 2 to 7: a cap on the
// alpha-beta search, and the chance of a beginner's move instead.
type Level struct {
	// Nodes caps the nodes searched a move (1: depth 1 only, as a
	// budget never cuts depth 1); 0 is no cap but the move time.
	Nodes int64
	// Depth caps the depth; 0 is no cap.
	Depth int
	// Mistakes is the chance, each move, that the player does not search
	// but picks as the beginner does (level 1): never missing a win in
	// one nor allowing one, otherwise a plausible move by a one-ply look.
	Mistakes float64
}

// ThreatSearch bounds a player's threat-space search (see threatWin):
// wins by threats of at most Plies plies, at most Nodes nodes a move.
type ThreatSearch struct {
	Plies int
	Nodes int64
}

// weaker reports whether the level caps anything.
func (lv Level) weaker() bool { return lv.Nodes > 0 || lv.Depth > 0 || lv.Mistakes > 0 }

// GameProfile describes one game, with position type P and move type M, to
// the computer players. Every field must be set (Baselines may be empty);
// NewProfile checks them.
type GameProfile[P game.Position[P, M], M comparable] struct {
	Spec *game.Spec
	// Kit builds the search kit of the game under rules, with the given
	// evaluation weights (nil for Weights; otherwise one a feature).
	Kit func(rules game.Rules, weights []int) *Kit[P, M]
	// FeatureNames and Weights are the evaluation's features and their
	// default weights; Features computes a position's features in that
	// order, under the default rules.
	FeatureNames []string
	Weights      []int
	Features     func(p P) []int
	// Levels are the handicaps of levels 2 to 7 (Levels[0] is level 2),
	// each weaker than level 8, which plays at full strength.
	Levels [6]Level
	// LevelOneTemp is level 1's softmax temperature over its safe moves,
	// in evaluation units: the higher, the more random it plays.
	LevelOneTemp float64
	// Strongest is the search of level 8, chosen by head-to-head matches.
	Strongest Algorithm
	// StrongestWeights, if not nil, are level 8's evaluation weights in
	// place of Weights (one a feature): weights fitted for the strongest
	// player can then change it without moving the levels below, whose
	// steps were measured with Weights.
	StrongestWeights []int
	// Baselines are the game's own players besides the common ones.
	Baselines []Baseline
	// Threats is level 8's threat-space search, tried before its main
	// search on every move; zero for none.
	Threats ThreatSearch
	// LevelRatings are the levels' approximate ratings (level 1 first), on
	// the scale of the players' ratings: level 1 is set at 800, and each
	// level above adds the Elo its match against the level below measured
	// (docs/strength.md). No game against rated people anchors them yet.
	LevelRatings [8]int
}

// NewProfile makes a Profile of gp, or says what gp lacks.
func NewProfile[P game.Position[P, M], M comparable](gp GameProfile[P, M]) (Profile, error) {
	pr := &profile[P, M]{gp: gp}
	if err := pr.Check(); err != nil {
		return nil, err
	}
	return pr, nil
}

// MustProfile is NewProfile for the profiles a package declares: it panics
// on an incomplete one, which is a mistake in the program.
func MustProfile[P game.Position[P, M], M comparable](gp GameProfile[P, M]) Profile {
	pr, err := NewProfile(gp)
	if err != nil {
		panic(err)
	}
	return pr
}

// profile implements Profile for one game's types.
type profile[P game.Position[P, M], M comparable] struct {
	gp GameProfile[P, M]
}

func (pr *profile[P, M]) Spec() *game.Spec { return pr.gp.Spec }

func (pr *profile[P, M]) Baselines() []Baseline { return pr.gp.Baselines }

func (pr *profile[P, M]) LevelRatings() [8]int { return pr.gp.LevelRatings }

func (pr *profile[P, M]) Check() error {
	gp := pr.gp
	if gp.Spec == nil {
		return errors.New("ai profile: no Spec")
	}
	name := gp.Spec.Name
	var errs []error
	add := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("ai profile of %s: "+format, append([]any{name}, args...)...))
	}
	if gp.Kit == nil {
		add("no Kit")
	} else if k := gp.Kit(gp.Spec.New(gp.Spec.Defaults()), nil); k == nil || k.Eval == nil || k.MoveKey == nil || k.MoveKeys <= 0 || k.Decided == nil {
		add("its Kit lacks Eval, MoveKey, MoveKeys or Decided")
	}
	if len(gp.FeatureNames) == 0 || len(gp.FeatureNames) != len(gp.Weights) || gp.Features == nil {
		add("%d feature names, %d weights and Features %v: want as many names as weights, and Features", len(gp.FeatureNames), len(gp.Weights), gp.Features != nil)
	}
	if gp.StrongestWeights != nil && len(gp.StrongestWeights) != len(gp.Weights) {
		add("%d StrongestWeights for %d features", len(gp.StrongestWeights), len(gp.Weights))
	}
	for i, r := range gp.LevelRatings {
		if r <= 0 || i > 0 && r <= gp.LevelRatings[i-1] {
			add("level %d's rating %d: want ratings that rise with the level", i+1, r)
		}
	}
	for i, lv := range gp.Levels {
		if !lv.weaker() {
			add("level %d caps nothing (no Nodes, Depth or Mistakes), so it plays as level 8", i+2)
		}
	}
	if !(gp.LevelOneTemp > 0) {
		add("LevelOneTemp %v: want a positive temperature", gp.LevelOneTemp)
	}
	if gp.Strongest != AlphaBeta && gp.Strongest != MCTSAlgo {
		add("Strongest %q: want %q or %q", gp.Strongest, AlphaBeta, MCTSAlgo)
	}
	seen := map[string]bool{}
	for _, b := range gp.Baselines {
		_, isLevel := ParseLevel(b.Name)
		switch {
		case b.Name == "" || b.New == nil:
			add("a baseline without a name or a New")
		case isLevel || slices.Contains(commonNames, b.Name) || strings.Contains(b.Name, ":") || seen[b.Name]:
			add("baseline %q clashes with another player's name", b.Name)
		}
		seen[b.Name] = true
	}
	return errors.Join(errs...)
}

func (pr *profile[P, M]) kit(rules game.Rules, weights []int) (*Kit[P, M], error) {
	if rules.Spec() != pr.gp.Spec {
		return nil, fmt.Errorf("the computer players of %s cannot play %s", pr.gp.Spec.Title, rules.Spec().Title)
	}
	if weights != nil && len(weights) != len(pr.gp.Weights) {
		return nil, fmt.Errorf("%d weights given, %s has %d features", len(weights), pr.gp.Spec.Title, len(pr.gp.Weights))
	}
	return pr.gp.Kit(rules, weights), nil
}

func (pr *profile[P, M]) NewPlayer(name string, rules game.Rules, cfg Config) (Player, error) {
	if cfg.Threads < 1 {
		cfg.Threads = 1
	}
	if cfg.HashMB < 1 {
		cfg.HashMB = 16
	}
	if cfg.Seed == 0 {
		cfg.Seed = rand.Int64()
	}
	kit, err := pr.kit(rules, cfg.Weights)
	if err != nil {
		return nil, fmt.Errorf("player %q: %w", name, err)
	}
	for _, b := range pr.gp.Baselines {
		if b.Name == name {
			return b.New(rules, cfg)
		}
	}
	rng := rand.New(rand.NewPCG(uint64(cfg.Seed), 0x5eed))
	switch name {
	case "random":
		return &movePlayer[P, M]{name: name, choose: func(p P, _ []uint64) M {
			moves := p.AppendMoves(nil)
			return moves[rng.IntN(len(moves))]
		}}, nil
	case "greedy":
		return &movePlayer[P, M]{name: name, choose: func(p P, _ []uint64) M {
			return greedyMove(kit, p, rng)
		}}, nil
	case "alphabeta":
		return newABPlayer(name, kit, cfg, Level{}), nil
	case "mcts":
		return newMCTSPlayer(name, kit, cfg, mctsLevel{}), nil
	}
	if lv, ok := ParseLevel(name); ok {
		if lv == 8 && cfg.Weights == nil && pr.gp.StrongestWeights != nil {
			kit = pr.gp.Kit(rules, pr.gp.StrongestWeights)
		}
		return pr.levelPlayer(lv, kit, cfg, rng), nil
	}
	return nil, fmt.Errorf("unknown player %q for %s (players: %s)", name, pr.gp.Spec.Title, pr.names())
}

// names lists the players of the game, for messages.
func (pr *profile[P, M]) names() string {
	s := CommonPlayers
	for _, b := range pr.gp.Baselines {
		s += ", " + b.Name
	}
	return s
}

func (pr *profile[P, M]) ForcedResult(ctx context.Context, s game.State, plies int, maxNodes int64) (int, error) {
	kit, err := pr.kit(s.Rules(), nil)
	if err != nil {
		return 0, fmt.Errorf("forced result: %w", err)
	}
	return forcedResult(ctx, kit, s, plies, maxNodes)
}

func (pr *profile[P, M]) Evaluation() Evaluation {
	return Evaluation{
		Names:   pr.gp.FeatureNames,
		Weights: pr.gp.Weights,
		Features: func(s game.State) ([]int, error) {
			p, ok := game.Unwrap[P, M](s)
			if !ok {
				return nil, fmt.Errorf("features: the position is not one of %s", pr.gp.Spec.Title)
			}
			return pr.gp.Features(p), nil
		},
	}
}
