#!/usr/bin/env bash
# make bench: every built step and cuBLAS, interleaved in each run, over a size
# sweep, appended to the CSV given (plots/results.csv). Correctness is the job
# of make test-gpu; these runs time only (--check none), random data.
set -eu
cd "$(dirname "$0")/.."
csv=${1:?usage: bench.sh OUT.csv}
STEPS=${STEPS:?}
SHAPES=${SHAPES:-"2048 2048 2048;4096 4096 4096;8192 8192 8192;16384 16384 16384;4096 14336 4096;16384 4096 14336"}
IFS=';' read -r -a shapes <<<"$SHAPES"
for shape in "${shapes[@]}"; do
    for step in $STEPS; do
        # shellcheck disable=SC2086
        timeout 300 ./${step%%_*} $shape --check none --reps ${REPS:-50} --warmup 20 --csv "$csv" | grep -E '^(baseline|time|ratio|energy|clock)'
    done
done
