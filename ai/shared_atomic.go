//go:build !wasm

package ai

import "sync/atomic"

// sharedWord is a word that the search's threads share: atomic, since
// they run in parallel (shared_wasm.go says why WebAssembly's differs).
type sharedWord = atomic.Uint64

// sharedFlag is a flag that the search's threads share.
type sharedFlag = atomic.Bool
