package tournament

// strength is how much a player wants a colour.
type strength int8

const (
	none     strength = iota // no game yet
	mild                     // as many firsts as seconds: the other colour than last game
	strong                   // one more of one colour: the other
	absolute                 // two more of one colour, or the same colour twice in a row: the other
)

// colourPref is the colour a player should have next (First true for
// moving first), with the FIDE rules' strengths: absolute when their firsts
// and seconds differ by two or more or their last two games had the same
// colour, strong when they differ by one, mild (the other colour than last
// time) when they are equal.
type colourPref struct {
	first    bool
	strength strength
	diff     int // firsts less seconds
}

func preference(colours []bool) colourPref {
	n := len(colours)
	if n == 0 {
		return colourPref{}
	}
	d := 0
	for _, c := range colours {
		if c {
			d++
		} else {
			d--
		}
	}
	last := colours[n-1]
	switch {
	case d <= -2 || d >= 2:
		return colourPref{first: d < 0, strength: absolute, diff: d}
	case n >= 2 && colours[n-2] == last:
		return colourPref{first: !last, strength: absolute, diff: d}
	case d != 0:
		return colourPref{first: d < 0, strength: strong, diff: d}
	}
	return colourPref{first: !last, strength: mild, diff: d}
}

// clash is 1 when both players want the same colour with at least strength
// s, else 0.
func (p colourPref) clash(q colourPref, s strength) int {
	if p.strength >= s && q.strength >= s && p.first == q.first {
		return 1
	}
	return 0
}

// colours returns a pairing's first and second: a (ranked above b) and b
// both get their preference when they differ; when they are the same, the
// stronger preference wins, then the larger colour difference, then the
// higher ranked. When neither has played, the higher ranked moves first on
// boards 1, 3, 5... and second on boards 2, 4, 6... (board counts from 0).
func colours(a, b swissPlayer, board int) (first, second swissPlayer) {
	pa, pb := a.pref, b.pref
	aFirst := true
	switch {
	case pa.strength == none && pb.strength == none:
		aFirst = board%2 == 0
	case pb.strength == none:
		aFirst = pa.first
	case pa.strength == none:
		aFirst = !pb.first
	case pa.first != pb.first:
		aFirst = pa.first
	case pa.strength != pb.strength:
		aFirst = pa.first == (pa.strength > pb.strength)
	case abs(pa.diff) != abs(pb.diff):
		aFirst = pa.first == (abs(pa.diff) > abs(pb.diff))
	default:
		aFirst = pa.first
	}
	if aFirst {
		return a, b
	}
	return b, a
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
