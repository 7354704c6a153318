#!/bin/bash
# the aligned sweep of SEED + bench, then (if SEED2) the any-size sweep of SEED2 (20) and the awkward set.
set -u
T0=$(date +%s)
REV=${REV:?} SEED=${SEED:?} DEADLINE=${D1:-300} bash scratch/run/c145.sh
echo "aligned $(( $(date +%s) - T0 )) s"
if [ -n "${SEED2:-}" ]; then
REV=$REV SEED=${SEED2} SET=any FROM=1 TO=20 AWK=1 DEADLINE=$(( ${D2:-450} - ($(date +%s) - T0) )) bash scratch/run/c90.sh > $OUT/any.log 2>&1; tail -4 $OUT/any.log
cat $OUT/awkward.log >> $OUT/any.log; rm -f $OUT/awkward.log $OUT/gpu.txt
fi
echo "all $(( $(date +%s) - T0 )) s"
