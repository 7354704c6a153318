#!/usr/bin/env bash
# make bench-random: steps and cuBLAS (default and best cuBLASLt algorithm,
# interleaved in each run) over random shapes drawn from a seed
# (build/tools/shapes: M, N log-uniform in 64..16384, K in 256..16384), rows
# appended to the CSV given (plots/random.csv): the driver's columns, then
# the seed and the set (aligned: M, N, K multiples of 8; any). Timing only
# (--check none): make test-gpu verifies v7 on random shapes of its own.
set -eu
cd "$(dirname "$0")/.."
csv=${1:?usage: random.sh OUT.csv}
STEPS=${STEPS:?}
SEED=${SEED:?}
COUNT=${COUNT:-40}
SET=${SET:-aligned}
tmp=$(mktemp)
trap 'rm -f "$tmp" "$tmp.row"' EXIT
build/tools/shapes "$SEED" "$COUNT" "$SET" >"$tmp"
while read -r M N K; do
    for step in $STEPS; do
        rm -f "$tmp.row"
        timeout 300 "./${step%%_*}" "$M" "$N" "$K" --check none --reps "${REPS:-30}" --warmup 10 \
            --energy off --csv "$tmp.row" | grep -E '^ratio' | sed "s/^/$step $M $N $K: /"
        [ -s "$csv" ] || echo "$(head -n 1 "$tmp.row"),shape_seed,shape_set" >"$csv"
        echo "$(tail -n 1 "$tmp.row"),$SEED,$SET" >>"$csv"
    done
done <"$tmp"
