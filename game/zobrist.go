package game

// ZobristKeys returns the SplitMix64 stream from seed: pseudo-random 64-bit
// keys for Zobrist hashing that are the same in every run and build, so
// that a position's hash is too (the search's tables, the repetition rule
// and tests may rely on it).
func ZobristKeys(seed uint64) func() uint64 {
	state := seed
	return func() uint64 {
		state += 0x9e3779b97f4a7c15
		z := state
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
		z = (z ^ (z >> 27)) * 0x94d049bb133111eb
		return z ^ (z >> 31)
	}
}
