package prove

import "testing"

// TestEstimateFollowsTheLine: the progress display's root numbers are
// the current line's numbers combined upwards, the child being searched
// at each ply replaced by the position below's numbers as they stand,
// and not the root's own numbers, which change only when the search of
// a root move returns (on Tumbling Down's start they once stood still
// for twenty minutes). The line here: the root (ply 0) searches its
// child 1, that position (ply 1) its child 0, and mid has just entered
// ply 2.
func TestEstimateFollowsTheLine(t *testing.T) {
	s := New(graphKit, 1)
	type kid = child[graphPos, int]
	s.rootPN, s.rootDN = 7, 9
	s.kids = [][]kid{
		{{phi: 5, delta: 4}, {phi: 3, delta: 2}, {phi: 6, delta: 8}}, // the root's moves
		{{phi: 1, delta: 10}, {phi: 4, delta: 6}},                    // ply 1's, below the root's move 1
		{{phi: 99, delta: 99}},                                       // stale: ply 2 has no children yet
	}
	s.searching = []int{1, 0, 0}
	s.depth = 2
	// Ply 1 from its children: phi = min delta = 6, delta = sum phi = 5.
	// The root with its move 1 at (6, 5): phi = min(4, 5, 8) = 4,
	// delta = 5 + 6 + 6 = 17.
	if phi, delta := s.estimate(); phi != 4 || delta != 17 {
		t.Errorf("estimate (%d, %d), want (4, 17)", phi, delta)
	}
	if s.kids[0][1].phi != 3 || s.kids[0][1].delta != 2 {
		t.Errorf("the estimate changed the root's child: %+v", s.kids[0][1])
	}
	// At the root itself, and when no search runs, the root's numbers.
	for _, d := range []int{0, -1} {
		s.depth = d
		if phi, delta := s.estimate(); phi != 7 || delta != 9 {
			t.Errorf("depth %d: estimate (%d, %d), want the root's (7, 9)", d, phi, delta)
		}
	}
	// Deeper: ply 2 has children (2, 3) and (1, 1), mid has entered ply 3,
	// and ply 1 searches its child 1.
	s.kids[2] = []kid{{phi: 2, delta: 3}, {phi: 1, delta: 1}}
	s.searching = []int{1, 1, 0}
	s.depth = 3
	// Ply 2: (min(3, 1), 2+1) = (1, 3). Ply 1 with child 1 at (1, 3):
	// (min(10, 3), 1+1) = (3, 2). Root with child 1 at (3, 2):
	// (min(4, 2, 8), 5+3+6) = (2, 14).
	if phi, delta := s.estimate(); phi != 2 || delta != 14 {
		t.Errorf("estimate (%d, %d), want (2, 14)", phi, delta)
	}
}
