#!/bin/bash
# SASS of three kernels in two builds: HGMMA and R2UR counts, and the first main loop.
for b in ${BS:-a b}; do
  for k in "128ELi176ELi0ELi2ELi2" "128ELi256ELi0ELi0ELi2" "128ELi256ELi0ELi1ELi2" "128ELi128ELi0ELi1ELi2"; do
    fn=_Z13matmul_kernelIL${k}EEv14CUtensorMap_stS0_S0_S0_Ptiii8tile_map7sk_planPiPjPfj
    fn=_Z13matmul_kernelILi${k#128ELi}
    fn=_Z13matmul_kernelILi128ELi${k#128ELi}EEv14CUtensorMap_stS0_S0_S0_Ptiii8tile_map7sk_planPiPjPfj
    cuobjdump -sass -fun $fn scratch/run/v7$b 2>/dev/null | sed 's@/\* 0x[0-9a-f]* \*/@@; /^ *$/d' > $OUT/sass_${b}_$k.txt
    echo "$b $k lines $(wc -l < $OUT/sass_${b}_$k.txt) HGMMA $(grep -c HGMMA $OUT/sass_${b}_$k.txt) R2UR $(grep -c R2UR $OUT/sass_${b}_$k.txt)"
  done
done
