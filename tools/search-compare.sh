#!/usr/bin/env bash
# search-compare.sh [--time T] [--threads "N..."] ROUNDS REV... — builds
# `magneton` at each git revision (a commit, a branch, or "." for the
# working tree) and has level 8 analyse the search positions below for T
# (default 2s) on N threads (default 1; with several counts, each build
# runs with each in turn, named REV/tN) with the builds taking turns,
# ROUNDS times, printing a line a build, round and position: the depth
# reached, the nodes, the nodes a second, and the time the last depth all
# builds reached was completed (its time-to-depth). On a shared machine
# compare the builds within one round, not across runs.
set -euo pipefail
time=2s
threads=1
while [ $# -gt 0 ]; do
	case "$1" in
	--time) time=$2; shift 2 ;;
	--threads) threads=$2; shift 2 ;;
	*) break ;;
	esac
done
rounds=${1:?usage: search-compare.sh [--time T] [--threads "N..."] ROUNDS REV...}
shift
[ $# -ge 1 ] || { echo "usage: search-compare.sh [--time T] [--threads \"N...\"] ROUNDS REV..." >&2; exit 2; }
root=$(git rev-parse --show-toplevel)
tmp=$(mktemp -d)
trap 'for w in "$tmp"/wt-*; do [ -d "$w" ] && git -C "$root" worktree remove --force "$w"; done; rm -rf "$tmp"' EXIT
i=0
for rev in "$@"; do
	i=$((i + 1))
	if [ "$rev" = . ]; then
		(cd "$root" && go build -o "$tmp/bin-$i" ./cmd/magneton)
	else
		git -C "$root" worktree add --quiet --detach "$tmp/wt-$i" "$rev"
		(cd "$tmp/wt-$i" && go build -o "$tmp/bin-$i" ./cmd/magneton)
	fi
done
# name|game|position|moves: the issue's drop-phase position (the start and
# four drops), the bench suite's drop and move positions, and two of
# Tumbling Down's middle games of its bench suite (its start is in the
# proof book, which answers it without a search, and its second middle
# game is a win in one).
positions=(
	"magneton-opening|magneton|start|--moves d4 --moves e5 --moves c3 --moves f6"
	"magneton-drop|magneton|8/3B2W1/1W3B2/3W4/8/6B1/2W2B2/6B1 w 8 7|"
	"magneton-move|magneton|2W1B2B/W6W/BB1W4/W3B3/B6B/WW5W/1BWBB3/BWW1BW2 b 0 0|"
	"tumbling-middle|tumbling|1,bbb,b,bbbbbb,bb,3/bbbb,bb,b,b,4/bb,b,b,2,r,2/bb,b,3,r,1,r/bb,2,r,1,r,rr,rr/4,r,rr,r,rr/4,rrr,r,rrr,1/3,r,rr,2,rrrr r|"
	"tumbling-middle-3|tumbling|1,bb,bb,b,4/1,b,b,bbb,brb,b,1,r/8/b,bbb,b,b,4/b,b,2,b,2,r/2,b,1,r,2,rrrrr/b,b,2,rr,r,r,rrr/rbbbr,r,rbr,1,r,rr,1,rrrrr b|"
)
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores, threads: $threads, $time a search" >&2
# runs: the builds and thread counts, as "index threads name".
runs=()
i=0
for rev in "$@"; do
	i=$((i + 1))
	for t in $threads; do
		name=$rev
		[ "$(echo $threads | wc -w)" -gt 1 ] && name="$rev/t$t"
		runs+=("$i $t $name")
	done
done
printf '%-6s %-16s %-12s %6s %11s %10s\n' round position build depth nodes nodes/s
for r in $(seq "$rounds"); do
	for entry in "${positions[@]}"; do
		IFS='|' read -r name game pos moves <<<"$entry"
		k=0
		for run in "${runs[@]}"; do
			read -r i t b <<<"$run"
			k=$((k + 1))
			# shellcheck disable=SC2086 # the moves are flags
			out=$("$tmp/bin-$i" --game "$game" analyze --time "$time" --threads "$t" $moves "$pos" 2>&1)
			echo "$out" >"$tmp/out-$r-$name-$k"
			echo "$out" | awk -v r="$r" -v n="$name" -v b="$b" '/^best move/ {
				# "(depth 9, ...)", or "(the unfinished depth 10; depth 9s
				# line ...)" with an apostrophe: the depth completed.
				gsub(/[(),;]/, " ")
				d = ""
				for (k = 1; k < NF; k++) {
					if ($k == "depth" && $(k + 1) ~ /'"'"'s$/) d = substr($(k + 1), 1, length($(k + 1)) - 2)
					else if ($k == "depth" && d == "") d = $(k + 1)
					if ($(k + 1) == "nodes") c = $k
					if ($(k + 1) == "nodes/s") v = $k
				}
				printf "%-6s %-16s %-12s %6s %11s %10s\n", r, n, b, d, c, v }'
		done
	done
done
# Time to depth: for each position and round, the deepest depth every
# build completed, and when each completed it.
echo
printf '%-6s %-16s %-12s %6s %10s\n' round position build depth ms
for r in $(seq "$rounds"); do
	for entry in "${positions[@]}"; do
		IFS='|' read -r name _ <<<"$entry"
		common=999
		for k in $(seq ${#runs[@]}); do
			d=$(awk '/^depth/ {d=$2} END {print d+0}' "$tmp/out-$r-$name-$k")
			[ "$d" -lt "$common" ] && common=$d
		done
		k=0
		for run in "${runs[@]}"; do
			read -r i t b <<<"$run"
			k=$((k + 1))
			awk -v r="$r" -v n="$name" -v b="$b" -v d="$common" '$1 == "depth" && $2 == d {
				for (k = 1; k <= NF; k++) if ($k == "time") t = $(k + 1)
				printf "%-6s %-16s %-12s %6s %10s\n", r, n, b, d, t }' "$tmp/out-$r-$name-$k"
		done
	done
done
