package ai

import (
	"math/bits"
	"reflect"
	"unsafe"

	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/tumbling"
)

// The Tumbling Down evaluations need every stack's height and which stacks
// are single-colour, at every leaf. tumbling.Position offers them through
// value-receiver accessors (Height, Stack), and each call copies the whole
// Position (over 400 bytes, about 9 ns): an evaluation making 60 such calls
// spent more time copying than Play takes. The position already keeps
// both as arrays (height, pure), so the evaluation reads them in place.
// The offsets are found by reflection at start-up, checked by name and
// type; if the rules package ever changes them, the accessors are used
// instead (TestTumblingView checks both ways agree).
var (
	tumHeightOff, tumPureOff uintptr
	tumViewOK                bool
)

func init() {
	t := reflect.TypeFor[tumbling.Position]()
	h, okH := t.FieldByName("height")
	pu, okP := t.FieldByName("pure")
	tumViewOK = okH && okP &&
		h.Type == reflect.TypeFor[[64]uint8]() && pu.Type == reflect.TypeFor[[2]uint64]()
	if tumViewOK {
		tumHeightOff, tumPureOff = h.Offset, pu.Offset
	}
}

// tumHeights returns the height of every square's stack.
func tumHeights(p *tumbling.Position) *[64]uint8 {
	if tumViewOK {
		return (*[64]uint8)(unsafe.Add(unsafe.Pointer(p), tumHeightOff))
	}
	var h [64]uint8
	for b := p.Tops(tumbling.Black) | p.Tops(tumbling.Red); b != 0; b &= b - 1 {
		s := tumbling.Square(bits.TrailingZeros64(b))
		h[s] = uint8(p.Height(s))
	}
	return &h
}

// tumPure returns the single-colour stacks of Black and of Red.
func tumPure(p *tumbling.Position) [2]uint64 {
	if tumViewOK {
		return *(*[2]uint64)(unsafe.Add(unsafe.Pointer(p), tumPureOff))
	}
	return tumPureSlow(p)
}

// tumPureSlow is tumPure through the accessors.
func tumPureSlow(p *tumbling.Position) [2]uint64 {
	var pure [2]uint64
	for _, side := range [2]game.Side{tumbling.Black, tumbling.Red} {
		for b := p.Tops(side); b != 0; b &= b - 1 {
			sq := tumbling.Square(bits.TrailingZeros64(b))
			h, mask := p.Stack(sq)
			// Black disks are 0 bits, red 1 bits.
			if mask == 0 || mask == 1<<h-1 {
				pure[side] |= 1 << sq
			}
		}
	}
	return pure
}
