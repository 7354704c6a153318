#!/bin/bash
set -u
T0=$(date +%s)
g=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100)
BS=c bash scratch/run/sass2.sh
c=$OUT/${g}_checks.txt
while read -r M N K P; do
  x=$(V7_PLAN=1 V7_TILE=$P timeout 60 scratch/run/v7c $M $N $K --check both --reps 0 --energy off --baseline none 2>&1)
  echo "$M $N $K $P rc=$? | $(echo "$x" | grep -E '^v7 plan|^check|FAIL|error' | cut -c1-110 | tr '\n' ' ')" >> $c
done < scratch/run/pp_checks.txt
echo "checks $(( $(date +%s) - T0 )) s"
sed -i 's@^B=./v7$@B=${BIN:-./v7}@' scratch/run/pp4.sh
BIN=scratch/run/v7c ROUNDS=1 TAG=pp5 bash scratch/run/pp4.sh
echo "all $(( $(date +%s) - T0 )) s"
