package main

import (
	"fmt"
	"os"
	"runtime/pprof"

	"github.com/spf13/cobra"
)

// profiled adds --cpuprofile to c: its run then writes a CPU profile.
func profiled(c *cobra.Command) *cobra.Command {
	var path string
	c.Flags().StringVar(&path, "cpuprofile", "", "write a CPU profile of the run to this file (for go tool pprof; tools/pgo.sh makes cmd/magneton/default.pgo from them)")
	run := c.RunE
	c.RunE = func(c *cobra.Command, args []string) error {
		return withCPUProfile(path, func() error { return run(c, args) })
	}
	return c
}

// withCPUProfile runs fn, writing a CPU profile of it to path when path
// is not empty. A profile that cannot be written is an error of the run,
// after fn's own.
func withCPUProfile(path string, fn func() error) (err error) {
	if path == "" {
		return fn()
	}
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("--cpuprofile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return fmt.Errorf("--cpuprofile: %w", err)
	}
	defer func() {
		pprof.StopCPUProfile()
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("--cpuprofile: %w", cerr)
		}
	}()
	return fn()
}
