package game

// ZobristKeys returns the SplitMix64 stream from seed: pseudo-random 64-bit
// keys for Zobrist hashing that are the same in every run and build, so
// that a position's hash is too (the search's tables, the repetition rule
// and tests may rely on it).
func ZobristKeys(seed uint64) func() uint64 {
	s := SplitMix64(seed)
	return s.Uint64
}

// SplitMix64 is Steele, Lea and Flood's generator as a rand.Source: a
// Weyl sequence (the state plus a constant) through a mixing function,
// which gives every 64-bit value once a period of 2^64. Its value is the
// state; the stream starts after it. magneton bench draws its playouts'
// moves from it, as the C engines of ../shared/limit do: it is two
// multiplies a number, where math/rand/v2's PCG takes five and a 128-bit
// state (about 30 instructions against 10).
type SplitMix64 uint64

// Uint64 returns the next number of the stream.
func (s *SplitMix64) Uint64() uint64 {
	*s += 0x9e3779b97f4a7c15
	z := uint64(*s)
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}
