#!/bin/bash
# H100 (or whatever card) at HEAD: the random sweep of SEED (c145: 40 aligned shapes, v5 v6 v7, then the three
# bench shapes), then the awkward set (c152). usage (device): REV=.. SEED=.. bash scratch/run/c153.sh
set -u
T0=$(date +%s)
DEADLINE=${DEADLINE:-360} bash scratch/run/c145.sh
bash scratch/run/c152.sh
echo "c153 all $(( $(date +%s) - T0 )) s"
