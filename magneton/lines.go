package magneton

// The magnetic effect and the move generator work line by line. Every
// square lies on four lines (its file, its rank and two diagonals), and
// what happens along a line depends only on that line's contents: the
// nearest stone in each direction, and for a slide the next stone beyond
// it or the edge. So each line's contents is reduced to a small number
// (each square empty, ours or theirs: a base-3 number) and the outcome is
// looked up in tables computed once at start-up. This replaces eight
// direction scans full of unpredictable branches with four table loads.
//
// A line is handled in a normalised form: up to 8 bits, bit i for the
// line's i-th square counted from its low end. For a file (squares a1..a8)
// the index is the rank, for a rank the file, for a diagonal the rank,
// shifted down so that the diagonal's lowest square is bit 0.

// The four lines through a square, numbered.
const (
	lineFile = iota // same file: north-south
	lineRank        // same rank: east-west
	lineDiag        // north-east diagonal
	lineAnti        // south-east diagonal
)

// squareLines describes the four lines through one square. A file line is
// the square's byte of the board and a rank line every eighth bit from the
// rank's square on file a, so both are found from the square by shifts; a
// diagonal needs its mask and its lowest rank. base[kind] is where the
// square's entries start in the outcome tables. The four lines share one
// record so that Play reads them together (its fields are the first 34
// bytes of the 80).
type squareLines struct {
	diagMask, antiMask   uint64
	base                 [4]uint32
	diagShift, antiShift uint8
	// The rest serves the drops of perft's last ply (dropLeaves), which
	// add up each line's base-3 value once a node, by its stones.
	// digit[kind] is the square's digit on that line for a stone of ours
	// (3^i on the line's i-th square; twice that for theirs), and
	// dropBase[kind] is base[kind] plus that digit: where a drop on the
	// square finds its entry once the rest of the line is added.
	// line[kind] numbers the square's line of that kind among the
	// board's 46: 8 files, 8 ranks, then 15 diagonals each way.
	// diagMul and antiMul spread a diagonal's bits with one multiply:
	// allFiles shifted by the diagonal's lowest rank (see diagSpread).
	line             [4]uint8
	digit            [4]uint16
	_                [2]uint8
	dropBase         [4]uint32
	diagMul, antiMul uint64
}

var (
	geometry [64]squareLines
	// ternary[b] is b's bits read as base-3 digits: sum of 3^i for bit i.
	ternary [256]uint16
	// rankSpread[b] places bit i of b on square i*8 (file i, rank 1).
	rankSpread [256]uint64
	// effectTable[weak][base+index] packs the squares of the line whose
	// occupancy the magnetic effect changes: our stones in the low byte,
	// theirs in the high byte (normalised bits; XOR them in).
	effectTable [2][tableSpan]uint16
	// destTable[variant][base+index] is the set of squares (normalised
	// bits) the stone at the line's square can move to along the line.
	// variant: bit 0 one-sided movement, bit 1 weak force (the position flags shifted right once).
	destTable [4][tableSpan]uint8
)

// tableSpan is tableSize rounded up to a power of two. Indexes masked with
// tableSpan-1 need no bounds check; the entries past tableSize are never
// read and take no memory until touched.
const tableSpan = 1 << 17

func init() {
	if tableSize > tableSpan {
		panic("magneton: tableSpan is smaller than tableSize")
	}
}

// lineIndex returns the table index of a line's contents (our stones a,
// theirs b, normalised) for the square whose entries start at base.
func lineIndex(base uint32, a, b uint8) uint32 {
	return (base + uint32(ternary[a]) + 2*uint32(ternary[b])) & (tableSpan - 1)
}

// tableSize is the number of entries in the outcome tables: for each line
// length L from 1 to 8 and each square on it, 3^L line contents.
const tableSize = 1*3 + 2*9 + 3*27 + 4*81 + 5*243 + 6*729 + 7*2187 + 8*6561

// lengthBase[L] is where the entries for lines of length L start.
var lengthBase [9]uint32

const allFiles uint64 = 0x0101010101010101 // rank 1 of every file... after a shift, bit 8i

// init fills the package's line tables, in this order: each later table
// is built from the earlier ones.
func init() {
	initTernary()
	initLengthBase()
	initOutcomeTables()
	for s := range 64 {
		initGeometry(Square(s))
	}
}

// initTernary fills ternary (a rank's bits as base-3 digits) and
// rankSpread (a rank's bits spread one a file).
func initTernary() {
	for b := range 256 {
		t, p := 0, 1
		for i := range 8 {
			if b>>i&1 != 0 {
				t += p
				rankSpread[b] |= 1 << (8 * i)
			}
			p *= 3
		}
		ternary[b] = uint16(t)
	}
}

// initLengthBase fills lengthBase, where each line length's entries
// start, and checks that they fill tableSize.
func initLengthBase() {
	size := uint32(0)
	pow := uint32(1)
	for l := 1; l <= 8; l++ {
		pow *= 3
		lengthBase[l] = size
		size += uint32(l) * pow
	}
	if size != tableSize {
		panic("magneton: line table size miscounted")
	}
}

// initOutcomeTables fills effectTable and destTable: for each line length,
// each square on the line and each contents of the line with our stone on
// that square, the squares the magnetic effect of a stone there changes
// (under strong and weak force) and the stone's destinations along the
// line (under each movement variant).
func initOutcomeTables() {
	pow := uint32(1)
	for l := 1; l <= 8; l++ {
		pow *= 3
		for pos := range l {
			for idx := uint32(0); idx < pow; idx++ {
				cells := make([]int8, l)
				n := idx
				for i := range l {
					cells[i] = int8(n % 3)
					n /= 3
				}
				if cells[pos] != ours {
					continue
				}
				at := lengthBase[l] + uint32(pos)*pow + idx
				for w := range 2 {
					effectTable[w][at] = lineEffect(cells, pos, w == 1)
				}
				for v := range 4 {
					destTable[v][at] = lineDestinations(cells, pos, v&2 != 0, v&1 != 0)
				}
			}
		}
	}
}

// initGeometry fills geometry[sq], the record of the four lines through
// sq (squareLines): where their entries start in the outcome tables, the
// diagonals' masks and shifts, and what the drops of perft's last ply
// need (sq's digit on each line, the lines' numbers, the drop bases).
func initGeometry(sq Square) {
	s := int(sq)
	f, r := sq.File(), sq.Rank()
	g := &geometry[s]
	g.base[lineFile] = lengthBase[8] + uint32(r)*pow3(8)
	g.base[lineRank] = lengthBase[8] + uint32(f)*pow3(8)
	for kind, d := range [2]int{northEast, southEast} {
		mask := uint64(1) << s
		lo, hi := r, r
		for _, dir := range [2]int{d, d ^ 4} {
			mask |= rays[dir][s]
			if e := rayEnd[dir][s]; e != NoSquare {
				lo, hi = min(lo, e.Rank()), max(hi, e.Rank())
			}
		}
		g.base[lineDiag+kind] = lengthBase[hi-lo+1] + uint32(r-lo)*pow3(hi-lo+1)
		if kind == 0 {
			g.diagMask, g.diagShift = mask, uint8(lo)
		} else {
			g.antiMask, g.antiShift = mask, uint8(lo)
		}
		g.digit[lineDiag+kind] = uint16(pow3(r - lo))
		id := 16 + f - r + 7 // north-east diagonals by file minus rank
		if kind == 1 {
			id = 31 + f + r // south-east ones by file plus rank
		}
		g.line[lineDiag+kind] = uint8(id)
	}
	g.diagMul, g.antiMul = allFiles<<g.diagShift, allFiles<<g.antiShift
	g.digit[lineFile], g.digit[lineRank] = uint16(pow3(r)), uint16(pow3(f))
	g.line[lineFile], g.line[lineRank] = uint8(f), uint8(8+r)
	for k := range 4 {
		g.dropBase[k] = g.base[k] + uint32(g.digit[k])
	}
}

func pow3(n int) uint32 {
	p := uint32(1)
	for range n {
		p *= 3
	}
	return p
}

// Cell contents of a normalised line while the tables are built.
const (
	empty  = 0
	ours   = 1 // the magnet's colour, or the moving stone's
	theirs = 2
)

// lineEffect computes the magnetic effect of the stone on pos along a
// line, by the rules, and returns the changed squares (ours low byte,
// theirs high byte).
func lineEffect(cells []int8, pos int, weak bool) uint16 {
	after := append([]int8(nil), cells...)
	for _, dir := range [2]int{1, -1} {
		q := pos + dir
		for q >= 0 && q < len(cells) && cells[q] == empty {
			q += dir
		}
		if q < 0 || q >= len(cells) {
			continue
		}
		dest := q
		if cells[q] == ours { // repelled further along dir
			for next := dest + dir; next >= 0 && next < len(cells) && cells[next] == empty; next += dir {
				dest = next
				if weak {
					break
				}
			}
		} else if q != pos+dir { // attracted toward pos
			dest = pos + dir
			if weak {
				dest = q - dir
			}
		}
		after[q], after[dest] = empty, cells[q]
	}
	var changed uint16
	for i := range cells {
		if cells[i] == after[i] {
			continue
		}
		if cells[i] == ours || after[i] == ours {
			changed |= 1 << i
		} else {
			changed |= 1 << (8 + i)
		}
	}
	return changed
}

// lineDestinations returns the squares the stone on pos may move to along
// the line, by the rules of the move phase.
func lineDestinations(cells []int8, pos int, weak, oneSided bool) uint8 {
	var dests uint8
	nearestIn := func(dir int) int {
		q := pos + dir
		for q >= 0 && q < len(cells) && cells[q] == empty {
			q += dir
		}
		if q < 0 || q >= len(cells) {
			return -1
		}
		return q
	}
	for _, dir := range [2]int{1, -1} {
		q := nearestIn(dir)
		if q < 0 || (oneSided && nearestIn(-dir) >= 0) {
			continue
		}
		to := pos
		if cells[q] == theirs {
			to = q - dir
			if weak {
				to = pos + dir
			}
		} else {
			for next := pos - dir; next >= 0 && next < len(cells) && cells[next] == empty; next -= dir {
				to = next
				if weak {
					break
				}
			}
		}
		if to != pos && to != q {
			dests |= 1 << to
		}
	}
	return dests
}

// Extraction of a line's normalised bits from a bitboard, and the reverse.
// Shift counts are masked to below 64: that spares the code Go otherwise
// adds for larger counts.

// fileBits returns the file of square sq: bit i is rank i.
func fileBits(b uint64, sq uint) uint8 { return uint8(b >> (sq & 56)) }
func fileSpread(x uint8, sq uint) uint64 {
	return uint64(x) << (sq & 56)
}

// rankBits returns the rank of square sq: bit i is file i.
func rankBits(b uint64, sq uint) uint8 {
	return uint8((b >> (sq & 7) & allFiles) * 0x0102040810204080 >> 56)
}
func rankSpreadAt(x uint8, sq uint) uint64 { return rankSpread[x] << (sq & 7) }

// On a diagonal every file holds at most one of the line's squares, so
// adding up the bytes of the masked board collects the line's stones by
// rank without carries; shift is the diagonal's lowest rank.
func diagBits(b, mask uint64, shift uint8) uint8 {
	return uint8((b & mask) * allFiles >> 56 >> (shift & 7))
}
func diagSpread(x uint8, mask uint64, shift uint8) uint64 {
	return (uint64(x) << (shift & 7)) * allFiles & mask
}
