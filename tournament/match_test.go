package tournament

import (
	"testing"

	"pgregory.net/rapid"
)

// The blossom matcher finds a perfect matching exactly when brute force
// does, on random graphs of up to 12 vertices (odd cycles included, which
// need the blossoms), and take keeps it perfect.
func TestPropertyMatcher(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := 2 * rapid.IntRange(1, 6).Draw(t, "half")
		edge := make([][]bool, n)
		for i := range edge {
			edge[i] = make([]bool, n)
		}
		density := rapid.IntRange(1, 9).Draw(t, "density")
		for i := range n {
			for j := i + 1; j < n; j++ {
				e := rapid.IntRange(0, 9).Draw(t, "edge") < density
				edge[i][j], edge[j][i] = e, e
			}
		}
		canMeet := func(i, j int) bool { return edge[i][j] }
		m := newMatcher(n, canMeet)
		got := m.perfect()
		if want := brutePerfect(edge, make([]bool, n)); got != want {
			t.Fatalf("perfect = %v, brute force %v", got, want)
		}
		if !got {
			return
		}
		for v := range n {
			if w := m.match[v]; w < 0 || !edge[v][w] || m.match[w] != v {
				t.Fatalf("match[%d] = %d", v, w)
			}
		}
		// Pair from the top, each with the first who keeps the rest pairable.
		used := make([]bool, n)
		for top := range n {
			if used[top] {
				continue
			}
			took := false
			for c := top + 1; c < n && !took; c++ {
				if used[c] {
					continue
				}
				used[top], used[c] = true, true
				can := edge[top][c] && brutePerfect(edge, used)
				used[top], used[c] = false, false
				if m.take(top, c) != can {
					t.Fatalf("take(%d, %d) = %v, brute force %v", top, c, !can, can)
				}
				if can {
					used[top], used[c], took = true, true, true
				}
			}
			if !took {
				t.Fatalf("no partner for %d", top)
			}
		}
	})
}

// brutePerfect reports whether the vertices not used have a perfect
// matching.
func brutePerfect(edge [][]bool, used []bool) bool {
	a := -1
	for i, u := range used {
		if !u {
			a = i
			break
		}
	}
	if a == -1 {
		return true
	}
	used[a] = true
	defer func() { used[a] = false }()
	for b := a + 1; b < len(used); b++ {
		if !used[b] && edge[a][b] {
			used[b] = true
			ok := brutePerfect(edge, used)
			used[b] = false
			if ok {
				return true
			}
		}
	}
	return false
}
