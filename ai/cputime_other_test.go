//go:build !linux

package ai_test

import "time"

// threadCPU is 0 where the thread's CPU time is not read: the
// benchmarks then report no CPU time.
func threadCPU() time.Duration { return 0 }
