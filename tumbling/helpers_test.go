package tumbling

// fataler is what the checks need of a *testing.T or a *rapid.T.
type fataler interface {
	Helper()
	Fatalf(format string, args ...any)
}

// fresh rebuilds p's derived state (tops, pure stacks, Kings, hash) from
// its stacks alone, as Parse does.
func fresh(p Position) Position {
	q := Position{side: p.side, flags: p.flags}
	for s := range 64 {
		q.put(Square(s), p.height[s], p.stack(Square(s)))
	}
	q.scanKings(Black)
	q.scanKings(Red)
	q.hash = q.computeHash()
	return q
}

// checkInvariants fails the test when the state Play keeps up to date
// differs from the same state computed from scratch.
func checkInvariants(t fataler, p Position) {
	t.Helper()
	q := fresh(p)
	if p.tops != q.tops || p.pure != q.pure || p.kings != q.kings || p.kingH != q.kingH || p.hash != q.hash {
		t.Fatalf("%s: incremental state differs from a fresh one:\n tops %x/%x pure %x/%x kings %x/%x heights %v/%v hash %x/%x",
			p, p.tops, q.tops, p.pure, q.pure, p.kings, q.kings, p.kingH, q.kingH, p.hash, q.hash)
	}
	for s := range 64 {
		if p.stack(Square(s))>>p.height[s] != 0 || p.height[s] <= lowDisks && p.low[s]>>p.height[s] != 0 {
			t.Fatalf("%s: %s has colour bits above its height", p, Square(s))
		}
	}
}
