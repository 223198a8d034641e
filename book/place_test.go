package book_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/magneton-games/magneton/book"
	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/prove"
)

// TestPlaceIsWalk: the unchecked placement of the committed certificates,
// which the book reads at run time, finds every node where the verifier
// does, with the same count of moves to the win.
func TestPlaceIsWalk(t *testing.T) {
	files, err := filepath.Glob("../docs/proofs/*.proof")
	if err != nil || len(files) == 0 {
		t.Fatalf("no certificates: %v", err)
	}
	for _, path := range files {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		certs, rules, err := prove.ReadAll(f, func(name, settings string) (game.Rules, error) { return games.Rules(name, settings) })
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for i, c := range certs {
			if c.Holds {
				continue
			}
			_, want, err := prove.Walk(c, rules[i])
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			got, err := book.Place(c, rules[i])
			if err != nil {
				t.Fatalf("%s: place: %v", path, err)
			}
			for j := range want {
				if got[j] != want[j] {
					t.Errorf("%s: node %d: place gives %+v, Walk %+v", filepath.Base(path), j, got[j], want[j])
					break
				}
			}
		}
	}
}
