package main

import (
	"strings"
	"testing"
)

// TestLimits: a setting out of its range is a usage error (exit 2) that
// names the command, the flag, the value and the range, before any work;
// the same ranges hold in every command that has the setting.
func TestLimits(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"analyze", "--hash", "1000000", "start"}, "analyze: --hash 1000000: want 1 to 4096 (MB)"},
		{[]string{"analyze", "--hash", "-5", "start"}, "analyze: --hash -5: want 1 to 4096 (MB)"},
		{[]string{"analyze", "--hash", "0", "start"}, "analyze: --hash 0: want 1 to 4096 (MB)"},
		{[]string{"analyze", "--threads", "100000", "start"}, "analyze: --threads 100000: want 1 to 64"},
		{[]string{"analyze", "--threads", "0", "start"}, "analyze: --threads 0: want 1 to 64"},
		{[]string{"analyze", "--threads", "65", "start"}, "analyze: --threads 65: want 1 to 64"},
		{[]string{"analyze", "--depth", "-1", "start"}, "analyze: --depth -1: want 0 to 120 (0: no limit)"},
		{[]string{"analyze", "--depth", "121", "start"}, "analyze: --depth 121: want 0 to 120 (0: no limit)"},
		{[]string{"analyze", "--nodes", "-1", "start"}, "analyze: --nodes -1: want 0 to"},
		{[]string{"analyze", "--time", "0", "start"}, "analyze: --time 0s: want a time above 0 and at most 24h0m0s"},
		{[]string{"analyze", "--time", "-1s", "start"}, "analyze: --time -1s: want a time above 0"},
		{[]string{"analyze", "--time", "25h", "start"}, "analyze: --time 25h0m0s: want a time above 0 and at most 24h0m0s"},
		{[]string{"match", "--a", "greedy", "--b", "random", "--hash", "1000000"}, "match: --hash 1000000: want 1 to 4096 (MB)"},
		{[]string{"match", "--a", "greedy", "--b", "random", "--hash", "-5"}, "match: --hash -5: want 1 to 4096 (MB)"},
		{[]string{"match", "--a", "greedy", "--b", "random", "--threads", "100000"}, "match: --threads 100000: want 1 to 64"},
		{[]string{"match", "--a", "greedy", "--b", "random", "--threads", "0"}, "match: --threads 0: want 1 to 64"},
		{[]string{"match", "--a", "greedy", "--b", "random", "--max-plies", "0"}, "match: --max-plies 0: want 1 to 100000"},
		{[]string{"match", "--a", "greedy", "--b", "random", "--max-plies", "100001"}, "match: --max-plies 100001: want 1 to 100000"},
		{[]string{"match", "--a", "greedy", "--b", "random", "--movetime", "0"}, "match: --movetime 0s: want a time above 0"},
		{[]string{"match", "--a", "greedy", "--b", "random", "--movetime", "-1s"}, "match: --movetime -1s: want a time above 0"},
		{[]string{"match", "--a", "greedy", "--b", "random", "--movetime", "48h"}, "match: --movetime 48h0m0s: want a time above 0 and at most 24h0m0s"},
		{[]string{"match", "--a", "greedy", "--b", "random", "--games", "0"}, "match: --games 0: want 1 to 1000000"},
		{[]string{"match", "--a", "greedy", "--b", "random", "--games", "1000000000000"}, "match: --games 1000000000000: want 1 to 1000000"},
		{[]string{"match", "--a", "greedy", "--b", "random", "--concurrency", "0"}, "match: --concurrency 0: want 1 to 256"},
		{[]string{"match", "--a", "greedy", "--b", "random", "--concurrency", "100000"}, "match: --concurrency 100000: want 1 to 256"},
		// Each in range, but the tables of all the players at once are not.
		{[]string{"match", "--a", "greedy", "--b", "random", "--games", "64", "--concurrency", "64", "--hash", "64"}, "match: --hash 64 with --concurrency 64 gives the players 8192 MB of tables in all, more than 4096"},
		{[]string{"play", "--threads", "100000"}, "play: --threads 100000: want 1 to 64"},
		{[]string{"play", "--threads", "0"}, "play: --threads 0: want 1 to 64"},
		{[]string{"play", "--time", "0"}, "play: --time 0s: want a time above 0"},
		{[]string{"play", "--time", "-1s"}, "play: --time -1s: want a time above 0"},
		{[]string{"play", "--level", "9"}, "play: --level 9: want 1 to 8"},
		{[]string{"play", "--level", "0"}, "play: --level 0: want 1 to 8"},
		{[]string{"perft", "--threads", "0", "start", "1"}, "perft: --threads 0: want 1 to 64"},
		{[]string{"perft", "--threads", "100000", "start", "1"}, "perft: --threads 100000: want 1 to 64"},
	} {
		out, errs, code := runCmd(t, "", tc.args...)
		if code != 2 || !strings.HasPrefix(errs, "magneton: "+tc.want) {
			t.Errorf("%v: exit %d: %q; want 2 and %q", tc.args, code, errs, tc.want)
		}
		if out != "" {
			t.Errorf("%v: printed %q before failing", tc.args, out)
		}
	}
}

// TestLimitsInRange: the ends of the ranges are accepted.
func TestLimitsInRange(t *testing.T) {
	for _, args := range [][]string{
		{"analyze", "--threads", "64", "--hash", "1", "--depth", "1", "--nodes", "0", "start"},
		{"analyze", "--threads", "1", "--hash", "512", "--depth", "2", "start"},
		{"analyze", "--depth", "120", "--time", "1ms", "start"},
		{"match", "--a", "greedy", "--b", "random", "--games", "1", "--max-plies", "1", "--movetime", "1ms", "--quiet"},
		{"match", "--a", "greedy", "--b", "random", "--games", "2", "--concurrency", "256", "--hash", "1024", "--movetime", "1ms", "--quiet"},
		{"perft", "--threads", "64", "start", "2"},
	} {
		if _, errs, code := runCmd(t, "", args...); code != 0 {
			t.Errorf("%v: exit %d: %s", args, code, errs)
		}
	}
}
