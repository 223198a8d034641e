#!/usr/bin/env bash
# pgo.sh — remakes cmd/magneton/default.pgo, the CPU profile that `go build`
# uses for a profile-guided build of the binary (Go's -pgo=auto, the
# default). The profile is of the work the engines spend their time on:
# the bench of both games (perft and random playouts) and the analysis of
# both games' start (the alpha-beta search). Run it from the repository
# after a change to the engines' hot code, then measure (docs/benchmarks.md,
# "Profile-guided build"); the binary profiled is built without a profile.
set -euo pipefail
root=$(git rev-parse --show-toplevel)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$root"
go build -pgo=off -o "$tmp/magneton" ./cmd/magneton
"$tmp/magneton" bench --cpuprofile "$tmp/mb.prof" >/dev/null
"$tmp/magneton" --game tumbling bench --cpuprofile "$tmp/tb.prof" >/dev/null
"$tmp/magneton" analyze --time 8s --cpuprofile "$tmp/ma.prof" start >/dev/null
"$tmp/magneton" --game tumbling analyze --time 8s --cpuprofile "$tmp/ta.prof" start >/dev/null
go tool pprof -proto "$tmp"/mb.prof "$tmp"/tb.prof "$tmp"/ma.prof "$tmp"/ta.prof >cmd/magneton/default.pgo
echo "wrote cmd/magneton/default.pgo ($(wc -c <cmd/magneton/default.pgo) bytes)"
