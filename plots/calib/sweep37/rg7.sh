#!/bin/bash
# aligned sweep of SEED + bench (c145.sh), then the any-size sweep of SEED2 (20 shapes) and the awkward set (c90.sh AWK=1).
set -u
T0=$(date +%s)
REV=${REV:?} SEED=${SEED:?} DEADLINE=330 bash scratch/run/c145.sh
echo "aligned $(( $(date +%s) - T0 )) s"
REV=$REV SEED=${SEED2:?} SET=any FROM=1 TO=20 AWK=1 DEADLINE=$(( 480 - ($(date +%s) - T0) )) bash scratch/run/c90.sh > $OUT/any.log 2>&1; tail -4 $OUT/any.log
echo "all $(( $(date +%s) - T0 )) s"
