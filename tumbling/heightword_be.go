//go:build !(386 || amd64 || arm || arm64 || loong64 || mips64le || mipsle || ppc64le || riscv64 || wasm)

package tumbling

import "encoding/binary"

// heightWord returns the heights of file f's eight stacks as one word,
// rank 1 in the low byte (heightword_le.go says why there are two forms).
func (p *Position) heightWord(f int) uint64 {
	return binary.LittleEndian.Uint64(p.height[8*(f&7):])
}
