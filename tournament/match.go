package tournament

// matcher finds perfect matchings in the graph of the players who may
// meet (those who have not met), with Edmonds' blossom algorithm. PairSwiss
// uses it as an oracle: it keeps a perfect matching of the players not yet
// paired, so that every pairing it makes leaves the rest pairable, and it
// never has to backtrack.
type matcher struct {
	n       int
	canMeet func(i, j int) bool
	adj     [][]int
	removed []bool // paired already (or given the bye): out of the graph
	match   []int  // mate, or -1
	// findPath's scratch
	parent, base []int
	used, inPath []bool
	blossom      []bool
	queue        []int
}

func newMatcher(n int, canMeet func(i, j int) bool) *matcher {
	m := &matcher{
		n: n, canMeet: canMeet, adj: make([][]int, n), removed: make([]bool, n), match: make([]int, n),
		parent: make([]int, n), base: make([]int, n), used: make([]bool, n),
		inPath: make([]bool, n), blossom: make([]bool, n),
	}
	for i := range n {
		m.match[i] = -1
		for j := range n {
			if i != j && canMeet(i, j) {
				m.adj[i] = append(m.adj[i], j)
			}
		}
	}
	return m
}

// perfect matches every vertex not removed, and reports whether it could.
func (m *matcher) perfect() bool {
	for v := range m.n { // a greedy start saves most of the searches
		if m.removed[v] || m.match[v] != -1 {
			continue
		}
		for _, w := range m.adj[v] {
			if !m.removed[w] && m.match[w] == -1 {
				m.match[v], m.match[w] = w, v
				break
			}
		}
	}
	for v := range m.n {
		if m.removed[v] || m.match[v] != -1 {
			continue
		}
		end := m.findPath(v)
		if end == -1 {
			return false
		}
		m.augment(end)
	}
	return true
}

// take pairs i with j, if they may meet and the others can still all be
// paired, and reports whether it did. The matching must be perfect on the
// vertices not removed.
func (m *matcher) take(i, j int) bool {
	if !m.canMeet(i, j) {
		return false
	}
	if m.match[i] == j {
		m.removed[i], m.removed[j] = true, true
		return true
	}
	mi, mj := m.match[i], m.match[j]
	m.removed[i], m.removed[j] = true, true
	m.match[mi], m.match[mj] = -1, -1
	if end := m.findPath(mi); end != -1 {
		m.augment(end)
		m.match[i], m.match[j] = j, i
		return true
	}
	m.removed[i], m.removed[j] = false, false
	m.match[mi], m.match[mj] = i, j
	return false
}

func (m *matcher) augment(v int) {
	for v != -1 {
		pv := m.parent[v]
		next := m.match[pv]
		m.match[v], m.match[pv] = pv, v
		v = next
	}
}

func (m *matcher) lca(a, b int) int {
	clear(m.inPath)
	for {
		a = m.base[a]
		m.inPath[a] = true
		if m.match[a] == -1 {
			break
		}
		a = m.parent[m.match[a]]
	}
	for {
		b = m.base[b]
		if m.inPath[b] {
			return b
		}
		b = m.parent[m.match[b]]
	}
}

func (m *matcher) markPath(v, b, child int) {
	for m.base[v] != b {
		m.blossom[m.base[v]], m.blossom[m.base[m.match[v]]] = true, true
		m.parent[v] = child
		child = m.match[v]
		v = m.parent[m.match[v]]
	}
}

// findPath searches an augmenting path from the free vertex root and
// returns its other end, or -1; parent then holds the path.
func (m *matcher) findPath(root int) int {
	for i := range m.n {
		m.used[i], m.parent[i], m.base[i] = false, -1, i
	}
	m.used[root] = true
	m.queue = append(m.queue[:0], root)
	for qh := 0; qh < len(m.queue); qh++ {
		v := m.queue[qh]
		for _, to := range m.adj[v] {
			if m.removed[to] || m.base[v] == m.base[to] || m.match[v] == to {
				continue
			}
			if to == root || m.match[to] != -1 && m.parent[m.match[to]] != -1 {
				m.contract(v, to)
				continue
			}
			if m.parent[to] == -1 {
				m.parent[to] = v
				if m.match[to] == -1 {
					return to
				}
				m.used[m.match[to]] = true
				m.queue = append(m.queue, m.match[to])
			}
		}
	}
	return -1
}

// contract shrinks the blossom closed by the edge v-to.
func (m *matcher) contract(v, to int) {
	b := m.lca(v, to)
	clear(m.blossom)
	m.markPath(v, b, to)
	m.markPath(to, b, v)
	for i := range m.n {
		if m.blossom[m.base[i]] {
			m.base[i] = b
			if !m.used[i] {
				m.used[i] = true
				m.queue = append(m.queue, i)
			}
		}
	}
}
