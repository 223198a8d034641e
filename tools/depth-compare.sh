#!/usr/bin/env bash
# depth-compare.sh [--bench REGEXP] ROUNDS REV... — builds package ai's
# test binary at each git revision (a commit, a branch, or "." for the
# working tree), with the working tree's BenchmarkSearchDepth copied into
# revisions that lack it, and runs that benchmark with the builds taking
# turns, ROUNDS times. Each search goes to a fixed depth, so builds that
# differ only in the cost of a node search the same nodes (the line says
# how many: compare them); it prints a line a build, round and position
# with the nodes, the wall time a node and the CPU time a node of the
# search's thread, then each build's CPU time a node over the first
# build's, per round. On a shared machine compare within a round.
set -euo pipefail
bench=SearchDepth
if [ "${1:-}" = --bench ]; then
	bench=${2:?usage: depth-compare.sh [--bench REGEXP] ROUNDS REV...}
	shift 2
fi
rounds=${1:?usage: depth-compare.sh [--bench REGEXP] ROUNDS REV...}
shift
[ $# -ge 1 ] || { echo "usage: depth-compare.sh [--bench REGEXP] ROUNDS REV..." >&2; exit 2; }
root=$(git rev-parse --show-toplevel)
tmp=$(mktemp -d)
trap 'for w in "$tmp"/wt-*; do [ -d "$w" ] && git -C "$root" worktree remove --force "$w"; done; rm -rf "$tmp"' EXIT
files=(ai/depth_bench_test.go ai/cputime_linux_test.go ai/cputime_other_test.go)
i=0
for rev in "$@"; do
	i=$((i + 1))
	if [ "$rev" = . ]; then
		(cd "$root" && go test -c -o "$tmp/ai-$i.test" ./ai)
	else
		git -C "$root" worktree add --quiet --detach "$tmp/wt-$i" "$rev"
		for f in "${files[@]}"; do
			[ -e "$tmp/wt-$i/$f" ] || cp "$root/$f" "$tmp/wt-$i/$f"
		done
		(cd "$tmp/wt-$i" && go test -c -o "$tmp/ai-$i.test" ./ai)
	fi
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores" >&2
printf '%-6s %-18s %-10s %9s %12s %12s\n' round position build nodes ns/node cpu-ns/node
for r in $(seq "$rounds"); do
	i=0
	for rev in "$@"; do
		i=$((i + 1))
		(cd "$root/ai" && "$tmp/ai-$i.test" -test.run '^$' -test.bench "$bench" -test.benchtime 1x) |
			awk -v r="$r" -v b="$rev" '/^Benchmark/ {
				name = $1; sub(/^Benchmark[^\/]*\//, "", name); sub(/-[0-9]+$/, "", name)
				for (k = 2; k < NF; k++) {
					if ($(k + 1) == "nodes") n = $k
					if ($(k + 1) == "ns/node") w = $k
					if ($(k + 1) == "cpu-ns/node") c = $k
				}
				printf "%-6s %-18s %-10s %9s %12s %12s\n", r, name, b, n, w, c }'
	done
done | tee "$tmp/out"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
echo
echo "CPU time a node over the first build's ($1), per round:"
awk -v first="$1" '{ key = $1 " " $2; if ($3 == first) base[key] = $6; else if (base[key] > 0) printf "%-6s %-18s %-10s %6.3f\n", $1, $2, $3, $6 / base[key] }' "$tmp/out"
