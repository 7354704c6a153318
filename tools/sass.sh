#!/usr/bin/env bash
# make sass VERSION=vN: disassembles each cubin given (one per track of the
# step) into <same name>.sass and prints, per file, what a learner checks
# first: the tensor-core MMA instructions (Hopper's wgmma is HGMMA in SASS,
# Blackwell's tcgen05.mma is UTCHMMA) and any local-memory access (LDL/STL:
# spills or arrays the compiler could not keep in registers).
# Usage: tools/sass.sh build/<step>/<track>.cubin...   (CUDA_BIN: nvcc's dir)
set -u
here=$(dirname "$0")
# shellcheck source=tools/find_tool.sh
. "$here/find_tool.sh"

[ $# -ge 1 ] || { echo "usage: tools/sass.sh CUBIN..." >&2; exit 2; }
if tool=$(find_tool cuobjdump); then
    disasm() { "$tool" -sass "$1"; }
elif tool=$(find_tool nvdisasm); then
    disasm() { "$tool" -c "$1"; }
else
    echo "make sass: neither cuobjdump nor nvdisasm found on PATH or in ${CUDA_BIN:-the directory of nvcc}; install the CUDA toolkit's, e.g. pip install nvidia-cuda-cuobjdump, then put its bin/ on PATH or set CUOBJDUMP=/path/to/cuobjdump" >&2
    exit 1
fi

st=0
for cubin in "$@"; do
    out=${cubin%.cubin}.sass
    if ! disasm "$cubin" >"$out" 2>"$out.err"; then
        echo "make sass: $tool failed on $cubin: $(head -n 1 "$out.err")" >&2
        st=1
        continue
    fi
    rm -f "$out.err"
    # Counted on instruction lines only ("/*0a40*/  HGMMA.64x256x16.F32 ..."),
    # so names in comments or symbol tables do not count.
    awk -v f="$out" '
        /\/\*[0-9a-f]+\*\// {
            for (i = 1; i <= NF; i++) if ($i !~ /^(\/\*|@)/) break   # skip address and predicate
            op = $i; sub(/\..*/, "", op); sub(/;$/, "", op)
            if (op ~ /^[A-Z]GMMA$/) gmma++
            else if (op ~ /^UTC[A-Z]MMA$/) utc++
            else if (op == "LDL" || op == "STL") local++
            n++
        }
        END {
            mma = (gmma + utc == 0) ? "no tensor-core MMA" : \
                  (gmma ? gmma " wgmma (HGMMA)" : "") (gmma && utc ? ", " : "") (utc ? utc " tcgen05.mma (UTC*MMA)" : "")
            printf "%s: %d instructions, %s, %s\n", f, n, mma, \
                   local ? local " local-memory accesses (LDL/STL): look for spills" : "no local memory (LDL/STL)"
        }' "$out"
done
exit $st
