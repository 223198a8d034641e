//go:build abuse

// The abuse suite's check of the engine's time (the others are in
// server/ and cmd/magneton/). Run with
//
//	go test -tags abuse -run Abuse -v ./ugi
package ugi_test

import (
	"fmt"
	"os/exec"
	"runtime"
	"testing"
	"time"
)

// burnCPUs keeps every core busy with a process of its own (a shell's
// endless loop) until the test ends.
func burnCPUs(t *testing.T) {
	t.Helper()
	for range runtime.NumCPU() {
		cmd := exec.Command("sh", "-c", "while :; do :; done")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			cmd.Process.Kill()
			cmd.Wait()
		})
	}
	time.Sleep(200 * time.Millisecond)
}

// TestAbuseMoveTime: with every core busy with another process, go
// movetime 100 answers within 100 ms, every time, at levels 6 and 8 of
// both games, with one search thread and with two. Run it on a machine
// otherwise idle: the burners are the load it is meant to hold under (the
// latest answers then come 15 to 20 ms before movetime); other work on
// top of them can starve any process past its deadline.
func TestAbuseMoveTime(t *testing.T) {
	// As magneton ugi runs the engine: a processor more than the cores.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(runtime.NumCPU() + 1))
	burnCPUs(t)
	for _, name := range []string{"magneton", "tumbling"} {
		for _, level := range []int{6, 8} {
			for _, threads := range []int{1, 2} {
				t.Run(fmt.Sprintf("%s/level%d/threads%d", name, level, threads), func(t *testing.T) {
					s := startEngine(t, defaultRules(t, name))
					s.send(fmt.Sprintf("setoption name player value level:%d", level), fmt.Sprintf("setoption name threads value %d", threads), "isready")
					s.expect("readyok", 10*time.Second)
					late := moveTimes(t, s, 100*time.Millisecond, 40)
					t.Logf("the latest answer came %v after movetime", late)
					if late > 0 {
						t.Errorf("go movetime 100 answered %v late", late)
					}
				})
			}
		}
	}
}
