package ai

import (
	"context"

	"github.com/magneton-games/magneton/game"
)

// The internals that the external tests (package ai_test) check. Those
// tests run the generic searches on the real games, whose kits are in the
// games' own AI packages; these import package ai, so that only an
// external test package can import them.

// ThreatWin is the threat-space search of the strongest level (threatWin).
func ThreatWin[P game.Position[P, M], M comparable](ctx context.Context, kit *Kit[P, M], p P, history []uint64, plies int, maxNodes int64) (move M, n int, nodes int64, ok bool) {
	return threatWin(ctx, kit, p, history, plies, maxNodes)
}

// ThreatLoss is the threat defence's check of a move (threatLoss).
func ThreatLoss[P game.Position[P, M], M comparable](ctx context.Context, kit *Kit[P, M], p P, m M, history []uint64, plies int, maxNodes int64) bool {
	return threatLoss(ctx, kit, p, m, history, plies, maxNodes)
}

// PlayerKit is the kit an alpha-beta player of a profile evaluates with.
func PlayerKit[P game.Position[P, M], M comparable](pl Player) *Kit[P, M] {
	return pl.(*abPlayer[P, M]).kit
}

// GameProfileOf is the GameProfile a profile was made of.
func GameProfileOf[P game.Position[P, M], M comparable](pr Profile) GameProfile[P, M] {
	return pr.(*profile[P, M]).gp
}

// TookOver is how many iterations e's main thread has taken over from its
// helper threads, in all its searches.
func TookOver[P game.Position[P, M], M comparable](e *Engine[P, M]) int {
	return e.tookOver
}
