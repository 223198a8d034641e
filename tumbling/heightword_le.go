//go:build 386 || amd64 || arm || arm64 || loong64 || mips64le || mipsle || ppc64le || riscv64 || wasm

package tumbling

import "unsafe"

// heightWord returns the heights of file f's eight stacks as one word,
// rank 1 in the low byte. On a little-endian machine that is the eight
// bytes in memory read at once: binary.LittleEndian.Uint64 says the same,
// and Go merges its eight byte loads into one on amd64 but not on
// WebAssembly, where the loads and a call cost tall (below) a sixth of
// the browser's playouts (docs/benchmarks.md). heightword_be.go is the
// portable form for the other machines.
func (p *Position) heightWord(f int) uint64 {
	return *(*uint64)(unsafe.Pointer(&p.height[8*(f&7)]))
}
