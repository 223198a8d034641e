package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCPUProfile: --cpuprofile writes a profile (pprof's gzipped format)
// of the command's run, and a path it cannot write is an error naming
// the flag, with the command's output unchanged.
func TestCPUProfile(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"perft", "start", "3"},
		{"analyze", "--depth", "2", "start"},
	} {
		path := filepath.Join(dir, args[0]+".prof")
		plain, _, code := runCmd(t, "", args...)
		if code != 0 {
			t.Fatalf("%v: exit %d", args, code)
		}
		out, errs, code := runCmd(t, "", append([]string{args[0], "--cpuprofile", path}, args[1:]...)...)
		if code != 0 {
			t.Fatalf("%v --cpuprofile: exit %d: %s", args, code, errs)
		}
		if args[0] == "perft" && out != plain {
			t.Errorf("%v: the output changed with --cpuprofile:\n%s\nwant\n%s", args, out, plain)
		}
		b, err := os.ReadFile(path)
		if err != nil || len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
			t.Errorf("%v: %s is not a gzipped profile (%d bytes, %v)", args, path, len(b), err)
		}
	}
	_, errs, code := runCmd(t, "", "perft", "--cpuprofile", filepath.Join(dir, "no", "such", "dir", "p.prof"), "start", "1")
	if code != 1 || !strings.Contains(errs, "--cpuprofile") {
		t.Errorf("an unwritable profile path: exit %d, %q; want 1 and a message naming --cpuprofile", code, errs)
	}
}
