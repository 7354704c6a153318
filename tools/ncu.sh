#!/usr/bin/env bash
# make ncu VERSION=vN [SIZE="M N K"]: Nsight Compute on one launch of the
# step's kernel and one of cuBLAS's, in one run of the step binary
# (--check none --reps 1 --warmup 0 --baseline default: the step, then
# cuBLAS's default algorithm, each once; no cuBLASLt candidates), with a
# short fixed set of metrics, printed side by side.
#
# Which launch is ours: the kernels defined in the step's kernel files (the
# .entry names of their PTX, matched against ncu's mangled names), so nothing
# depends on what a step calls its kernel. cuBLAS's kernel has no fixed name
# (nvjet_*, sm90_xmma_gemm_*, ... by version and shape): it is the first
# kernel launched after ours that is not ours.
#
# Usage: tools/ncu.sh STEP BINARY "M N K" PTX...   (CUDA_BIN: nvcc's dir;
# NCU=/path/to/ncu overrides the search; NCU_OUT: where the raw CSV goes)
set -u
here=$(dirname "$0")
# shellcheck source=tools/find_tool.sh
. "$here/find_tool.sh"
die() { echo "make ncu: $*" >&2; exit 1; }

[ $# -ge 4 ] || { echo "usage: tools/ncu.sh STEP BINARY \"M N K\" PTX..." >&2; exit 2; }
step=$1 bin=$2 size=$3
shift 3
read -r M N K extra <<<"$size"
[[ ${M:-} =~ ^[0-9]+$ && ${N:-} =~ ^[0-9]+$ && ${K:-} =~ ^[0-9]+$ && -z ${extra:-} ]] ||
    die "SIZE=\"$size\" is not three sizes \"M N K\""

ncu=$(find_tool ncu) ||
    die "ncu (Nsight Compute) not found on PATH or in ${CUDA_BIN:-the directory of nvcc}; install Nsight Compute (it comes with the CUDA toolkit) or set NCU=/path/to/ncu"
[ -x "$bin" ] || die "$bin not built (make $(basename "$bin"))"
# No GPU, or one the step cannot run on: the binary says why in one line.
if ! err=$("$bin" 1 1 1 --check none --reps 0 2>&1 >/dev/null); then
    die "$(printf '%s\n' "$err" | grep -m1 . || echo "$bin 1 1 1 failed")"
fi

ours=$(sed -n 's/^\(\.visible \)\{0,1\}\.entry \([A-Za-z0-9_$]*\).*/\2/p' "$@" | sort -u | tr '\n' ' ')
[ -n "$ours" ] || die "no kernel (.entry) found in $*"

# Metrics, each slot with alternatives in order of preference; the first one
# this GPU's ncu knows is used (ncu --query-metrics lists the base names).
#   tensor pipe: the wgmma pipe on sm_90 (gmma); the pipe of every MMA kind,
#   wgmma and tcgen05 included (tensor); the mma.sync pipe (hmma), which on
#   Hopper does not see wgmma, as the last resort.
slots=(
    "duration (ms)|gpu__time_duration.sum"
    "SM clock (MHz)|sm__cycles_elapsed.avg.per_second"
    "tensor pipe active (%)|sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active"
    "DRAM read (GB)|dram__bytes_read.sum"
    "L2 hit rate (%)|lts__t_sector_hit_rate.pct"
    "achieved occupancy (%)|sm__warps_active.avg.pct_of_peak_sustained_active"
)
out_dir=${NCU_OUT:-build/$step}
mkdir -p "$out_dir"
known=$out_dir/ncu-metrics.txt
"$ncu" --query-metrics >"$known" 2>&1 || : >"$known" # unknown: take the first of each slot
labels=() metrics=()
for s in "${slots[@]}"; do
    label=${s%%|*} pick=
    for m in ${s#*|}; do
        [ -z "$pick" ] && pick=$m # fallback when the query said nothing
        if grep -q "^${m%%.*}[[:space:]]" "$known"; then pick=$m; break; fi
    done
    labels+=("$label")
    metrics+=("$pick")
done

csv=$out_dir/ncu.csv log=$out_dir/ncu.log
echo "ncu: $step and cuBLAS, M=$M N=$N K=$K, one launch each ($ncu)"
# The CSV lines are the quoted ones; the binary's own output is not quoted.
"$ncu" --csv --page details --print-units base --print-kernel-base mangled \
    --launch-count 8 --metrics "$(IFS=,; echo "${metrics[*]}")" \
    "$bin" "$M" "$N" "$K" --check none --reps 1 --warmup 0 --baseline default >"$log" 2>&1
rc=$?
grep '^"' "$log" >"$csv"
if [ $rc -ne 0 ] || [ ! -s "$csv" ]; then
    die "ncu exit $rc, no results: $(grep -m1 -E '==ERROR==|error' "$log" || tail -n 1 "$log") (log: $log)"
fi

awk -v ours="$ours" -v step="$step" -v metrics="${metrics[*]}" -v labels="$(printf '%s|' "${labels[@]}")" '
    function short(n,   len) { # _Z13matmul_kernel... -> matmul_kernel; long names cut
        if (match(n, /^_Z[0-9]+/)) { len = substr(n, 3, RLENGTH - 2) + 0; return substr(n, RLENGTH + 1, len) }
        return length(n) > 24 ? substr(n, 1, 21) "..." : n
    }
    # value in the unit of the slot: ms, MHz, GB or %; "?" plus the unit if unknown
    function conv(m, v, u,   f) {
        f = -1
        if (m ~ /^gpu__time_duration/) {
            if (u == "nsecond" || u == "ns") f = 1e-6; else if (u == "usecond" || u == "us") f = 1e-3
            else if (u == "msecond" || u == "ms") f = 1; else if (u == "second" || u == "s") f = 1e3
        } else if (m ~ /per_second$/) {
            if (u ~ /\/nsecond$/) f = 1e3; else if (u ~ /\/usecond$/) f = 1; else if (u ~ /\/msecond$/) f = 1e-3
            else if (u ~ /\/second$/ || tolower(u) == "hz") f = 1e-6
            else if (tolower(u) == "khz") f = 1e-3; else if (tolower(u) == "mhz") f = 1; else if (tolower(u) == "ghz") f = 1e3
        } else if (m ~ /bytes/) {
            if (u == "byte") f = 1e-9; else if (u == "Kbyte") f = 1e-6; else if (u == "Mbyte") f = 1e-3
            else if (u == "Gbyte") f = 1; else if (u == "Tbyte") f = 1e3
        } else if (u == "%") f = 1
        if (f < 0) return v " " u "(?)"
        return sprintf(m ~ /duration/ ? "%.3f" : m ~ /bytes/ ? "%.2f" : m ~ /per_second/ ? "%.0f" : "%.1f", v * f)
    }
    BEGIN {
        n = split(ours, o, " "); for (i = 1; i <= n; i++) mine[o[i]] = 1
        nm = split(metrics, mname, " "); split(labels, mlabel, "|")
    }
    {
        sub(/\r$/, ""); line = substr($0, 2, length($0) - 2)   # drop the outer quotes
        nf = split(line, f, "\",\"")
        if (!hdr) { for (i = 1; i <= nf; i++) col[f[i]] = i; hdr = 1; next }
        id = f[col["ID"]] + 0
        if (!(id in kname)) { kname[id] = f[col["Kernel Name"]]; ids[++nid] = id }
        v = f[col["Metric Value"]]; gsub(/,/, "", v)
        val[id, f[col["Metric Name"]]] = v; unit[id, f[col["Metric Name"]]] = f[col["Metric Unit"]]
    }
    END {
        if (!hdr || !("Kernel Name" in col) || !("Metric Name" in col)) { print "make ncu: unexpected CSV from ncu (no Kernel Name / Metric Name columns)" > "/dev/stderr"; exit 1 }
        for (i = 1; i <= nid; i++) if (a == "" && (kname[ids[i]] in mine)) { a = ids[i]; ai = i }
        if (a == "") { print "make ncu: none of the profiled kernels is the step'"'"'s (" ours ")" > "/dev/stderr"; exit 1 }
        for (i = ai + 1; i <= nid; i++) if (b == "" && !(kname[ids[i]] in mine)) b = ids[i]
        fmt = "%-24s %-24s %s\n"
        printf fmt, "metric", step, "cuBLAS"
        printf fmt, "kernel", short(kname[a]), (b == "" ? "(not captured)" : short(kname[b]))
        for (j = 1; j <= nm; j++) {
            m = mname[j]
            x = ((a, m) in val) ? conv(m, val[a, m], unit[a, m]) : "n/a"
            y = (b != "" && (b, m) in val) ? conv(m, val[b, m], unit[b, m]) : "n/a"
            printf fmt, mlabel[j], x, y
        }
        if (b == "") { print "make ncu: no cuBLAS launch after the step'"'"'s among the profiled kernels" > "/dev/stderr"; exit 1 }
    }' "$csv" || exit 1
echo "metrics: ${metrics[*]}"
echo "raw: $csv"
