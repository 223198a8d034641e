package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// The CPU time of each side's bench: natively this process's (every
// thread: the bench and the collector's), in the browser Chromium's (every
// thread of every process of its tree: the worker's, and V8's compiler
// threads). On a shared machine a rate per CPU second moves far less than
// a rate per second, which counts the time other jobs held the cores.

// processCPU is this process's CPU time so far, user and system.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// threadTimes is the CPU time so far of each thread of the process root
// and its descendants, by thread id (the scheduler's run time,
// /proc/PID/task/TID/schedstat, in nanoseconds).
func threadTimes(root int) map[int]time.Duration {
	out := map[int]time.Duration{}
	for _, pid := range processTree(root) {
		tasks, _ := filepath.Glob("/proc/" + strconv.Itoa(pid) + "/task/*/schedstat")
		for _, f := range tasks {
			b, err := os.ReadFile(f)
			if err != nil {
				continue // the thread ended
			}
			tid, _ := strconv.Atoi(filepath.Base(filepath.Dir(f)))
			ns, _ := strconv.ParseInt(strings.Fields(string(b) + " 0")[0], 10, 64)
			out[tid] = time.Duration(ns)
		}
	}
	return out
}

// cpuBetween is the CPU time the threads spent between two threadTimes:
// each thread's growth, all of a new thread's time; what a thread that
// ended meanwhile spent since the first is lost (a sum of the two would
// lose all its time).
func cpuBetween(before, after map[int]time.Duration) time.Duration {
	var d time.Duration
	for tid, t := range after {
		d += t - before[tid]
	}
	return d
}

// processTree is root and its descendants, from /proc's parent ids.
func processTree(root int) []int {
	children := map[int][]int{}
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, f := range stats {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		pid, ppid, ok := parseStat(string(b))
		if ok {
			children[ppid] = append(children[ppid], pid)
		}
	}
	out := []int{root}
	for i := 0; i < len(out); i++ {
		out = append(out, children[out[i]]...)
	}
	return out
}

// parseStat reads a process's id and its parent's from /proc/PID/stat:
// "pid (comm) state ppid ...", where comm may hold spaces and parentheses.
func parseStat(s string) (pid, ppid int, ok bool) {
	open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if open < 1 || end < open {
		return 0, 0, false
	}
	f := strings.Fields(s[end+1:])
	if len(f) < 2 {
		return 0, 0, false
	}
	pid, err1 := strconv.Atoi(strings.TrimSpace(s[:open]))
	ppid, err2 := strconv.Atoi(f[1])
	return pid, ppid, err1 == nil && err2 == nil
}
