#!/usr/bin/env bash
# bench-compare.sh [--game G] ROUNDS REV... — builds `magneton` at each git
# revision (a commit, a branch, or "." for the working tree), runs
# `magneton bench` with the binaries taking turns, ROUNDS times each, and
# prints each one's best figures. On a shared, noisy machine the best of
# several interleaved runs compares builds far better than one run of each.
# Without --game it benches Magneton; with it, `magneton --game G bench`,
# and it prints every perft-nps figure of that game's suite.
set -euo pipefail
game=
if [ "${1:-}" = --game ]; then
	game=${2:?usage: bench-compare.sh [--game G] ROUNDS REV...}
	shift 2
fi
rounds=${1:?usage: bench-compare.sh [--game G] ROUNDS REV...}
shift
[ $# -ge 1 ] || { echo "usage: bench-compare.sh [--game G] ROUNDS REV..." >&2; exit 2; }
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
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
if [ -n "$game" ]; then
	# Each game names its own perft phases: keep every perft-nps line, in
	# the order the bench prints them.
	for _ in $(seq "$rounds"); do
		i=0
		for rev in "$@"; do
			i=$((i + 1))
			"$tmp/bin-$i" --game "$game" bench | awk -v rev="$rev" '/^perft-nps|^playouts-per-second/ {print rev, $1, $2}'
		done
	done | awk '
		!($1 in seen) {seen[$1] = 1; order[++n] = $1}
		!($2 in known) {known[$2] = 1; keys[++k] = $2}
		{ if ($3 > best[$1, $2]) best[$1, $2] = $3 }
		END {
			for (i = 1; i <= n; i++) {
				r = order[i]; line = sprintf("%-12s", r)
				for (j = 1; j <= k; j++) {
					v = best[r, keys[j]]
					if (keys[j] ~ /^perft-nps/) line = line sprintf("  %s %5.1f M", keys[j], v / 1e6)
					else line = line sprintf("  %s %6d", keys[j], v)
				}
				print line
			}
		}'
	echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
	exit 0
fi
for _ in $(seq "$rounds"); do
	i=0
	for rev in "$@"; do
		i=$((i + 1))
		"$tmp/bin-$i" bench | awk -v rev="$rev" '
			/^perft-nps-drop/ {d = $2} /^perft-nps-move/ {m = $2} /^playouts-per-second/ {p = $2}
			END {print rev, d, m, p}'
	done
done | awk '
	!($1 in seen) {seen[$1] = 1; order[++n] = $1}
	{ if ($2 > d[$1]) d[$1] = $2; if ($3 > m[$1]) m[$1] = $3; if ($4 > p[$1]) p[$1] = $4 }
	END { for (i = 1; i <= n; i++) { r = order[i]; printf "%-12s perft-nps-drop %5.1f M  perft-nps-move %5.1f M  playouts-per-second %6d\n", r, d[r] / 1e6, m[r] / 1e6, p[r] } }'
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
