package puzzle

import (
	"fmt"

	"github.com/magneton-games/magneton/games"
)

// Key is a puzzle's position up to the symmetries of its game's board
// (game.Spec.Symmetries): the same for two puzzles whose positions one
// symmetry maps onto each other, under the same rules. It is the
// smallest text among the position's images.
func Key(pz *Puzzle) (string, error) {
	g, err := games.Lookup(pz.Game)
	if err != nil {
		return "", fmt.Errorf("puzzle %s: %w", pz.ID, err)
	}
	if _, err := gameRules(pz); err != nil {
		return "", err
	}
	return pz.Game + "|" + pz.Rules + "|" + g.Spec.Canonical(pz.Position), nil
}

// Alike reports whether two puzzles should not follow each other: they
// come from the same game record, or are the same position up to
// symmetry. Puzzles whose key does not compute are alike only by record.
func Alike(a, b *Puzzle) bool {
	if a == nil || b == nil {
		return false
	}
	if a.Record != "" && a.Record == b.Record {
		return true
	}
	ka, err := Key(a)
	if err != nil {
		return false
	}
	kb, err := Key(b)
	return err == nil && ka == kb
}

// CheckSet checks what no single puzzle shows: no two puzzles are the
// same position up to symmetry. The error names both.
func CheckSet(ps []*Puzzle) error {
	first := map[string]string{}
	for _, pz := range ps {
		k, err := Key(pz)
		if err != nil {
			return err
		}
		if id, ok := first[k]; ok {
			return fmt.Errorf("puzzle %s is puzzle %s again, up to symmetry", pz.ID, id)
		}
		first[k] = pz.ID
	}
	return nil
}
