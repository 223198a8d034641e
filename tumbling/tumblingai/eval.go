// Package tumblingai is Tumbling Down's computer players, beside its
// rules (package tumbling): the evaluation and search kit of package ai's
// generic searches, the profile of its levels and its baseline
// boardspace-d5 (Profile), and its proof-number solver (Solver). A
// registration of the game, games.Game{Spec: tumbling.Spec, AI: Profile,
// Solver: Solver}, holds them; this package does not know the registry.
package tumblingai

import (
	"math/bits"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/tumbling"
)

// Tumbling Down evaluation: a linear sum of features, each the side to
// move's count minus the opponent's. The game is won by landing a disk on
// an enemy King (a tallest single-colour stack), so besides material
// (stacks controlled, disks under them, single-colour stacks) it counts the
// height of the Kings, how many there are (each is a target), whether they
// lie within reach of an enemy step or tumble, and by how many enemy stacks
// (one attacker can often be parried, two rarely) or stacks one disk short
// of it. The weights are fitted by tools/tune (see docs/strength.md).

// Tumbling Down feature indices.
const (
	Tops       = iota // stacks controlled (own disk on top)
	Pure              // single-colour stacks
	Disks             // disks in the stacks controlled
	KingHeight        // height of the Kings
	Kings             // number of Kings (each one is a target)
	Attacked          // Kings within reach of an enemy step or tumble (counted against their owner)
	Reach             // squares within reach of own steps and tumbles
	Tempo             // 1 for the side to move
	Attackers         // enemy stacks within reach of a King (counted against the King's owner)
	Latent            // enemy stacks one disk short of reaching a King (counted against the King's owner)
	NumFeatures
)

// FeatureNames names the features for the tuning tool.
var FeatureNames = [NumFeatures]string{"tops", "pure", "disks", "king-height", "kings", "attacked", "reach", "tempo", "attackers", "latent"}

// Weights are the default weights, fitted by tools/tune: the first
// eight by
//
//	go run ./tools/tune --game tumbling --games 300 --player level:4 --verify 100
//
// (with the hand-made weights {30, 15, 3, 20, -10, -60, 2, 10} in place,
// which the fitted ones beat 69-0-31 at level 4), then "attacked" again
// with the two attacker counts, the others held, by
//
//	go run ./tools/tune --game tumbling --games 2000 --player level:5 --seed 13 --fit attacked,attackers,latent --verify 200
//
// (54.5% against the eight-feature weights at level 5; the matches at
// level 8 are in docs/strength.md).
var Weights = [NumFeatures]int{-17, 6, 4, -4, 24, 29, 9, 34, -85, -40}

// tumbleReach[s][d][h] holds the squares a stack of height h on s covers
// when it topples in direction d (h capped at 7, which reaches the edge).
var tumbleReach [64][8][8]uint64

// reachAll[s][h] is the union of tumbleReach[s][d][h] over the directions.
var reachAll [64][8]uint64

func init() {
	df := [8]int{-1, -1, -1, 0, 0, 1, 1, 1}
	dr := [8]int{-1, 0, 1, -1, 1, -1, 0, 1}
	for s := range 64 {
		for d := range 8 {
			var acc uint64
			f, r := s>>3+df[d], s&7+dr[d]
			for h := 1; h < 8; h++ {
				if f >= 0 && f < 8 && r >= 0 && r < 8 {
					acc |= 1 << (f*8 + r)
				}
				tumbleReach[s][d][h] = acc
				reachAll[s][h] |= acc
				f, r = f+df[d], r+dr[d]
			}
		}
	}
}

// reachWith returns the squares the stacks on tops can drop a disk on.
func reachWith(h *[64]uint8, tops uint64) uint64 {
	var acc uint64
	for b := tops; b != 0; b &= b - 1 {
		s := bits.TrailingZeros64(b)
		acc |= reachAll[s][min(h[s], 7)]
	}
	return acc
}

// winCandidates keeps the moves that drop a disk on an enemy King:
// only those can win at once (leaving the opponent without a
// single-colour stack also needs a disk on each of its Kings). Testing a
// move's reach against the Kings costs a table look-up, playing it a copy
// of the position.
func winCandidates(p *tumbling.Position, moves, buf []tumbling.Move) []tumbling.Move {
	k, _ := p.Kings(p.Side().Other())
	h := p.Heights()
	// The stacks that reach a King in some direction; only their moves
	// are looked at one by one.
	var from uint64
	for b := p.Tops(p.Side()); b != 0; b &= b - 1 {
		s := bits.TrailingZeros64(b)
		if reachAll[s][min(h[s], 7)]&k != 0 {
			from |= 1 << s
		}
	}
	if from == 0 {
		return buf
	}
	for _, m := range moves {
		s := m.From()
		if from&(1<<s) == 0 {
			continue
		}
		reach := uint64(1) << m.To()
		if m.IsTumble() {
			reach = tumbleReach[s][m.Direction()][min(h[s], 7)]
		}
		if reach&k != 0 {
			buf = append(buf, m)
		}
	}
	return buf
}

// Features returns the features of a position, side to move minus
// opponent.
func Features(p tumbling.Position) [NumFeatures]int {
	return features(&p)
}

// features is Features on a pointer: a Position is a few
// hundred bytes, and the evaluation runs at every leaf.
func features(p *tumbling.Position) [NumFeatures]int {
	us, them := p.Side(), p.Side().Other()
	var f [NumFeatures]int
	pure, disks := pureAndDisks(p)
	ku, hu := p.Kings(us)
	kt, ht := p.Kings(them)
	h := p.Heights()
	ru, rt := reachWith(&h, p.Tops(us)), reachWith(&h, p.Tops(them))
	f[Tops] = bits.OnesCount64(p.Tops(us)) - bits.OnesCount64(p.Tops(them))
	f[Pure] = bits.OnesCount64(pure[us]) - bits.OnesCount64(pure[them])
	f[Disks] = disks[us] - disks[them]
	f[KingHeight] = hu - ht
	f[Kings] = bits.OnesCount64(ku) - bits.OnesCount64(kt)
	f[Attacked] = boolInt(ku&rt != 0) - boolInt(kt&ru != 0)
	f[Reach] = bits.OnesCount64(ru) - bits.OnesCount64(rt)
	f[Tempo] = 1
	au, lu := attackers(&h, p.Tops(them), ku)
	at, lt := attackers(&h, p.Tops(us), kt)
	f[Attackers] = au - at
	f[Latent] = lu - lt
	return f
}

// attackers counts the stacks of tops that can drop a disk on a square of
// kings, and apart from those the latent ones, which could if they were one
// disk taller. One attacker can often be parried (by taking its stack or
// moving the King); several rarely can.
func attackers(h *[64]uint8, tops, kings uint64) (n, latent int) {
	for b := tops; b != 0; b &= b - 1 {
		s := bits.TrailingZeros64(b)
		hs := min(h[s], 7)
		switch {
		case reachAll[s][hs]&kings != 0:
			n++
		case hs < 7 && reachAll[s][hs+1]&kings != 0:
			latent++
		}
	}
	return n, latent
}

// pureAndDisks returns each side's single-colour stacks as bitboards and
// the disks in the stacks each side controls.
func pureAndDisks(p *tumbling.Position) (pure [2]uint64, disks [2]int) {
	h := p.Heights()
	for s := range 2 {
		for b := p.Tops(game.Side(s)); b != 0; b &= b - 1 {
			disks[s] += int(h[bits.TrailingZeros64(b)])
		}
	}
	return [2]uint64{p.Pure(tumbling.Black), p.Pure(tumbling.Red)}, disks
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// decided is Kit.Decided: a King taken (or the last single-colour stack
// lost) decides the game at once.
func decided(p tumbling.Position) (game.Result, bool) {
	if w, ok := p.Winner(); ok {
		return game.WinFor(w), true
	}
	return game.Ongoing, false
}

// Kit returns the search kit of Tumbling Down with the given weights.
func Kit(w [NumFeatures]int) *ai.Kit[tumbling.Position, tumbling.Move] {
	return &ai.Kit[tumbling.Position, tumbling.Move]{
		Game: tumbling.Spec.Name,
		Eval: func(p tumbling.Position) int {
			f := features(&p)
			return ai.Weigh(f[:], w[:])
		},
		MoveKey:  func(m tumbling.Move) uint16 { return uint16(m) & 0x3ff },
		MoveKeys: 1 << 10,
		Decided:  decided,
		// Both measured for Tumbling Down in docs/strength.md.
		Pass:           func(p tumbling.Position) tumbling.Position { return p.Pass() },
		DeepReductions: true,
		WinCandidates: func(p tumbling.Position, moves, buf []tumbling.Move) []tumbling.Move {
			return winCandidates(&p, moves, buf)
		},
	}
}

// defaultKit is the kit of the default weights, made once: the players
// of every level but a tuner's share it.
var defaultKit = Kit(Weights)
