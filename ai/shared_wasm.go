//go:build wasm

package ai

// On WebAssembly a Go program runs on one thread, so the search's shared
// words need no atomic instructions; and there sync/atomic's loads and
// stores are calls, which the inliner prices above its budget: the
// table's probe (two loads) was not inlined, and every node paid for the
// stop flag's load with a call. Plain words with the same methods cost a
// load. shared_atomic.go is the form for every other port.

// sharedWord is a word that the search's threads share.
type sharedWord struct{ v uint64 }

// Load returns the word.
func (w *sharedWord) Load() uint64 { return w.v }

// Store sets the word.
func (w *sharedWord) Store(x uint64) { w.v = x }

// sharedFlag is a flag that the search's threads share.
type sharedFlag struct{ v bool }

// Load returns the flag.
func (f *sharedFlag) Load() bool { return f.v }

// Store sets the flag.
func (f *sharedFlag) Store(x bool) { f.v = x }
