#!/bin/bash
# uniform main loop: SASS of the consumer loop (new), checks of forced plans (CHECKS=1), A/B old vs new own picks,
# ROUNDS rounds (3), stopping before a shape once LIM seconds (540) have passed.
set -u
T0=$(date +%s)
g=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100)
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version,power.limit --format=csv,noheader > $OUT/${g}_gpu.txt
rm -rf /tmp/old && mkdir /tmp/old && cp -r . /tmp/old/ 2>/dev/null; cp scratch/run/old8/hopper.cu /tmp/old/v7_stream_k/hopper.cu
( cd /tmp/old && make -j8 GIT_REV=old v7 > /tmp/bo.log 2>&1 ) &
make -j8 GIT_REV=${REV:?} v7 > /tmp/b.log 2>&1 || { tail -30 /tmp/b.log; exit 1; }
wait; [ -x /tmp/old/v7 ] || { tail -30 /tmp/bo.log; exit 1; }
echo "build $(( $(date +%s) - T0 )) s"
for fn in _Z13matmul_kernelILi128ELi64ELi0ELi1ELi4EEv14CUtensorMap_stS0_S0_S0_Ptiii8tile_map7sk_planPiPjPfj _Z13matmul_kernelILi64ELi64ELi0ELi1ELi2EEv14CUtensorMap_stS0_S0_S0_Ptiii8tile_map7sk_planPiPjPfj _Z13matmul_kernelILi128ELi288ELi0ELi0ELi2EEv14CUtensorMap_stS0_S0_S0_Ptiii8tile_map7sk_planPiPjPfj; do
  cuobjdump -sass -fun $fn ./v7 | sed 's@/\* 0x[0-9a-f]* \*/@@; /^ *$/d' > $OUT/sass_$(echo $fn | cut -c20-40).txt 2>&1
done
if [ "${CHECKS:-1}" = 1 ]; then
c=$OUT/${g}_checks.txt
while read -r M N K P; do
  x=$(V7_PLAN=1 V7_TILE=$P timeout 60 ./v7 $M $N $K --check both --reps 0 --energy off --baseline none 2>&1)
  echo "$M $N $K $P rc=$? | $(echo "$x" | grep -E '^v7 plan|^check|FAIL|error' | cut -c1-100 | tr '\n' ' ')" >> $c
done < scratch/run/ub_checks.txt
echo "checks $(( $(date +%s) - T0 )) s"
fi
f=$OUT/${g}_ab.txt
for r in $(seq ${ROUNDS:-3}); do
  while read -r M N K; do
    [ $(( $(date +%s) - T0 )) -gt ${LIM:-540} ] && break
    for b in new old; do
      bin=./v7; [ $b = old ] && bin=/tmp/old/v7
      x=$(V7_PLAN=1 timeout 30 $bin $M $N $K --check none --baseline none --reps 20 --energy off 2>&1)
      echo "$M $N $K | $b | $(echo "$x" | awk '/^time +v[67]/{t=$3} /^clock/{c=$3} END{print t, c}') | $(echo "$x" | grep '^v7 plan' | sed 's/.*: tiles //' | cut -c1-60)" >> $f
    done
  done < scratch/run/ub_shapes.txt
  echo "round $r $(( $(date +%s) - T0 )) s"
done
echo "all $(( $(date +%s) - T0 )) s"
