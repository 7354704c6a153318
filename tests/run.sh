#!/usr/bin/env bash
# CPU tests (make test), no GPU needed: the step binaries exist, the host unit
# tests of common/ (build/tests/host_tests) pass, every step's command line
# rejects bad input before touching a GPU, the compiled code of every step
# has what its stage is about (wgmma, TMA, mbarriers, setmaxnreg) and no
# spills, stack frame or serialization warnings, the deliberately deadlocked
# v4 of make test-gpu really lacks its release, the plot script works, and
# README.md's tables are what tools/readme_tables.sh renders from plots/*.csv,
# and tests/gpu.sh (make test-gpu) runs right on stub binaries.
#
# Every check prints PASS <name>, FAIL <name>: <why> or SKIP <name> (<why>);
# the last line is "N passed, N failed, N skipped"; exit 1 if any failed.
#
# STEPS (required): step directories, e.g. "v0_single_warp v1_tma".
# BW_STEPS: the steps with a Blackwell kernel (blackwell.cu, sm_100a); each
# must have one, and its compiled code is checked like hopper.cu's.
# BUILD_DIR (default build) and BIN_DIR (default .) say where the compiled
# files are: pointing them at doctored copies is how these tests are tested.
set -u
cd "$(dirname "$0")/.." || exit 1
STEPS=${STEPS:?STEPS must list the step directories}
BW_STEPS=${BW_STEPS-}
BUILD_DIR=${BUILD_DIR:-build}
BIN_DIR=${BIN_DIR:-.}

pass=0 fail=0 skip=0
failed=()

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { pass=$((pass + 1)); echo "PASS $1"; }
bad() { # name why
    fail=$((fail + 1))
    failed+=("$1")
    echo "FAIL $1: $2"
}
skipped() { skip=$((skip + 1)); echo "SKIP $1 ($2)"; }
# check name why command...: PASS if the command succeeds, else FAIL with why.
check() {
    local name=$1 why=$2
    shift 2
    if "$@"; then ok "$name"; else bad "$name" "$why"; fi
}
# First line of a file, shortened, for failure reasons.
first() { head -n 1 "$1" 2>/dev/null | cut -c1-160; }
# "exit N", naming the signal when a process was killed by one.
status() {
    if [ "$1" -eq 124 ]; then echo "timed out"
    elif [ "$1" -gt 128 ]; then echo "exit $1 (SIG$(kill -l $(($1 - 128)) 2>/dev/null || echo '?'))"
    else echo "exit $1"; fi
}
nlines() { grep -c '' "$1" 2>/dev/null || true; } # counts a last line without newline too

short() { echo "${1%%_*}"; }         # v0_single_warp -> v0
stepnum() { local s=${1%%_*}; s=${s#v}; [[ $s =~ ^[0-9]+$ ]] && echo "$s" || echo -1; }

# ---- a. step binaries ------------------------------------------------------
for step in $STEPS; do
    bin=$BIN_DIR/$(short "$step")
    check "binary $bin" "missing or not executable" test -f "$bin" -a -x "$bin"
done

# ---- b. host unit tests ----------------------------------------------------
ht=$BUILD_DIR/tests/host_tests
if [ ! -x "$ht" ]; then
    bad "host_tests" "$ht missing or not executable"
else
    (timeout 300 "$ht" >"$tmp/ht.out" 2>"$tmp/ht.err"; exit $?) 2>/dev/null # no bash crash notice
    rc=$?
    nfail=0 ntests=0
    while IFS= read -r line; do
        case $line in
        "PASS "*) ntests=$((ntests + 1)); ok "host/${line#PASS }" ;;
        "FAIL "*)
            ntests=$((ntests + 1)) nfail=$((nfail + 1))
            name=${line#FAIL }
            if [[ $name == *": "* ]]; then bad "host/${name%%: *}" "${name#*: }"
            else bad "host/$name" "failed"; fi
            ;;
        esac
    done <"$tmp/ht.out"
    if [ $rc -ne 0 ] && [ $nfail -eq 0 ]; then
        if [ $rc -eq 124 ]; then bad "host_tests" "timed out after 300s"
        else bad "host_tests" "$(status $rc) without a FAIL line (crash?)"; fi
    elif [ $rc -eq 0 ] && [ $ntests -eq 0 ]; then
        bad "host_tests" "ran no tests"
    fi
    if [ $rc -ne 0 ] || [ $nfail -ne 0 ]; then # its stderr is noise unless something failed
        echo "    host_tests exit $rc; last lines of its stderr:"
        tail -n 12 "$tmp/ht.err" | sed 's/^/    /'
    fi
fi

# ---- c. command line of each step (parsed before any GPU call) -------------
# Runs bin with args; sets rc, and out/err files. The subshell keeps bash's
# own "Segmentation fault" notice of a crashing binary out of the report.
run_bin() {
    (timeout 60 "$@" >"$tmp/out" 2>"$tmp/err"; exit $?) 2>/dev/null
    rc=$?
}

for step in $STEPS; do
    bin=$BIN_DIR/$(short "$step")
    if [ ! -x "$bin" ]; then
        skipped "cli $bin" "no binary"
        continue
    fi

    run_bin "$bin" --help
    if [ $rc -ne 0 ]; then bad "cli $bin --help" "$(status $rc), want 0"
    elif ! grep -q usage "$tmp/out"; then bad "cli $bin --help" "no 'usage' on stdout"
    else ok "cli $bin --help"; fi

    # Bad input: exit 2, one line on stderr saying error, nothing on stdout.
    for args in "abc 1 1" "1 2" "0 1 1" "-5 1 1" "1 1 99999999999" "8 8 8 --bogus" \
        "8 8 8 --check maybe" "8 8 8 --baseline maybe" "8 8 8 --time-limit 0" "8 8 8 --energy maybe"; do
        name="cli $bin $args"
        # shellcheck disable=SC2086
        run_bin "$bin" $args
        n=$(nlines "$tmp/err")
        if [ $rc -ne 2 ]; then bad "$name" "$(status $rc), want 2 (stderr: $(first "$tmp/err"))"
        elif [ -s "$tmp/out" ]; then bad "$name" "wrote to stdout: $(first "$tmp/out")"
        elif [ "$n" -ne 1 ]; then bad "$name" "$n lines on stderr, want 1"
        elif ! grep -q error "$tmp/err"; then bad "$name" "stderr has no 'error': $(first "$tmp/err")"
        else ok "$name"; fi
    done

    # Valid input: runs (GPU present) or says plainly that there is no GPU.
    name="cli $bin 16 16 16 --reps 0"
    run_bin "$bin" 16 16 16 --reps 0
    if [ $rc -eq 0 ]; then ok "$name (ran on a GPU)"
    elif [ $rc -eq 1 ] && [ "$(nlines "$tmp/err")" -eq 1 ] && grep -q "no CUDA GPU" "$tmp/err"; then
        ok "$name (no GPU: clean exit 1)"
    else
        bad "$name" "$(status $rc), want 0, or 1 with one 'no CUDA GPU' line (stderr: $(first "$tmp/err"))"
    fi
done

# ---- d. compiled code --------------------------------------------------------
has() { grep -qF -- "$2" "$1"; } # file fixed-string

# check_ptxas_log name log: the -Xptxas -v log shows every kernel with no
# stack frame and no spills, and ptxas gave no warnings.
check_ptxas_log() {
    local step=$1 log=$2 st
    if [ ! -s "$log" ]; then
        bad "ptxas $step" "$log missing or empty"
        return
    fi
    # Every "Function properties for F" line is followed by F's stack/spill line.
    awk -v want="0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads" '
        /Function properties for/ { f = $NF; nf++; getline; if (index($0, want) == 0) { bad++; print f ": " $0 } }
        END { if (nf == 0) print "no function properties in the log (was it built with -Xptxas -v?)"; exit (nf == 0 || bad) }
    ' "$log" >"$tmp/props"
    st=$?
    if [ $st -ne 0 ]; then bad "ptxas $step: 0 bytes stack frame and spills" "$(first "$tmp/props" | sed 's/  */ /g')"
    elif grep -E '[1-9][0-9]* bytes (stack frame|spill)' "$log" >"$tmp/spill"; then
        bad "ptxas $step: 0 bytes stack frame and spills" "$(first "$tmp/spill" | sed 's/  */ /g')"
    else
        ok "ptxas $step: 0 bytes stack frame and spills ($(grep -c 'Function properties for' "$log") functions)"
    fi
    if grep -Ei 'ptxas.*warning|C7508|C7510|C7515|serialized' "$log" >"$tmp/warn"; then
        bad "ptxas $step: no warnings" "$(nlines "$tmp/warn") lines, first: $(first "$tmp/warn")"
    else
        ok "ptxas $step: no warnings"
    fi
}

# pdl_order ptx: per matmul_kernel entry, whether griddepcontrol.wait comes
# before the first instruction that accesses global memory (line order; the
# wait is in the kernel's straight-line start). Prints "K kernels, B with
# global memory before the wait" (a kernel with no wait counts in B).
pdl_order() {
    awk '/\.entry / { name = ""; if ($0 ~ /matmul_kernel/) { name = $0; k++; n = 0 } }
         name != "" { n++ }
         name != "" && /griddepcontrol\.wait/ && !w[k] { w[k] = n }
         name != "" && !/cvta/ && /(^|[ \t])(ld|st|red|atom|cp\.async|cp\.reduce\.async)[^ \t]*\.global/ && !g[k] { g[k] = n }
         END { for (i = 1; i <= k; i++) if (!w[i] || (g[i] && g[i] < w[i])) bad++
               print k " kernels, " bad + 0 " with global memory before the wait" }' "$1"
}

for step in $STEPS; do
    ptx=$BUILD_DIR/$step/hopper.ptx log=$BUILD_DIR/$step/hopper.ptxas.log
    n=$(stepnum "$step")
    if [ ! -s "$ptx" ]; then
        bad "ptx $step" "$ptx missing or empty"
    else
        want=("wgmma.mma_async")
        if [ "$n" -eq 0 ]; then
            want+=("cp.async.cg.shared.global")
        else
            want+=("cp.async.bulk.tensor.2d.shared::cluster.global"
                "cp.async.bulk.tensor.2d.global.shared::cta"
                "mbarrier.try_wait.parity")
        fi
        [ "$n" -ge 3 ] && want+=("setmaxnreg")
        # v6 on: the start's cluster barrier arrives relaxed after the init fence.
        [ "$n" -ge 6 ] && want+=("multicast::cluster" "mapa.shared::cluster" \
            "fence.mbarrier_init.release.cluster" "barrier.cluster.arrive.relaxed.aligned")
        # v7: its three tile widths, the tensor-map prefetch, the stream-K fixup's flags.
        [ "$n" -ge 7 ] && want+=("wgmma.mma_async.sync.aligned.m64n256k16" \
            "wgmma.mma_async.sync.aligned.m64n128k16" "wgmma.mma_async.sync.aligned.m64n64k16" \
            "prefetch.tensormap" "st.release.gpu.global" "ld.acquire.gpu.global")
        for w in "${want[@]}"; do
            check "ptx $step has $w" "not found in $ptx" has "$ptx" "$w"
        done
        # v7: each kernel issues one wgmma per k-step, of its tile's whole width
        # (BK / 16 per k-tile: 8 for 64 x 64 and 64 x 128, whose k-tiles are 128
        # deep, else 4; two, of 192 and 48 columns for 240, ran 1-6% slower),
        # but past 256 columns (wgmma's widest) two of half the width each:
        # per matmul_kernel<BM, BN, T, WHOLE> entry, the count and any other n.
        # The whole-pairs kernels of 128-row tiles up to 256 wide have the k-step
        # twice: the main loop, and the loop that stores the last tile's slices.
        if [ "$n" -eq 7 ]; then
            awk '/\.entry / { name = ""
                     if ($0 ~ /matmul_kernelILi[0-9]+ELi[0-9]+ELi[01]ELi[01]ELi[24]E/) {
                         s = $0; sub(/.*matmul_kernelILi/, "", s); split(s, f, "ELi")
                         bn = f[2]; name = f[1] "x" bn (substr(f[3], 1, 1) == "1" ? ":T" : "") \
                             (substr(f[4], 1, 1) == "1" ? ":whole" : "") (substr(f[5], 1, 1) == "4" ? ":q" : "")
                         order[++k] = name } }
                 name != "" && /wgmma\.mma_async/ { s = $0; sub(/.*\.m64n/, "", s); sub(/k16.*/, "", s)
                     cnt[name]++; if (s + 0 != (bn + 0 > 256 ? bn / 2 : bn + 0)) other[name] = s }
                 END { for (i = 1; i <= k; i++) { x = order[i]
                         split(x, d, "x"); want = (d[1] == 64 && d[2] + 0 <= 128) || d[2] + 0 > 256 ? 8 : 4
                         if (d[1] == 128 && d[2] + 0 <= 256 && x ~ /:whole/) want *= 2 # DEFER: the k-step twice
                         if (cnt[x] != want || (x in other)) print x ": " cnt[x] + 0 " wgmma" ((x in other) ? ", one of n" other[x] : "") }
                       print k " kernels" }' "$ptx" >"$tmp/wg"
            if [ "$(wc -l <"$tmp/wg")" -ne 1 ] || ! grep -qE '^[1-9][0-9]* kernels$' "$tmp/wg"; then
                bad "ptx $step: one wgmma of the tile's width per k-step in every kernel" "$(first "$tmp/wg")"
            else
                ok "ptx $step: one wgmma of the tile's width per k-step in every kernel ($(cat "$tmp/wg"))"
            fi
        fi
        # v7 starts while the kernel before it ends (PDL): in every kernel,
        # griddepcontrol.wait comes before the first access to global memory;
        # the check must catch a kernel whose wait is gone.
        if [ "$n" -eq 7 ]; then
            check "ptx $step has griddepcontrol.launch_dependents" "not found in $ptx" has "$ptx" \
                "griddepcontrol.launch_dependents"
            pdl_order "$ptx" >"$tmp/pdl"
            if grep -qE '^[1-9][0-9]* kernels, 0 with' "$tmp/pdl"; then
                ok "ptx $step: griddepcontrol.wait before global memory in every kernel ($(cat "$tmp/pdl"))"
            else
                bad "ptx $step: griddepcontrol.wait before global memory in every kernel" "$(cat "$tmp/pdl")"
            fi
            awk '/griddepcontrol\.wait/ && !d { d = 1; next } { print }' "$ptx" >"$tmp/nowait.ptx"
            pdl_order "$tmp/nowait.ptx" >"$tmp/pdl"
            check "ptx check catches a kernel without griddepcontrol.wait" "$(cat "$tmp/pdl")" \
                grep -qE ', 1 with' "$tmp/pdl"
        fi
        if grep -nE '(^|[^.[:alnum:]_])(ld|st)\.local' "$ptx" >"$tmp/local"; then
            bad "ptx $step has no ld.local/st.local" "$(nlines "$tmp/local") uses, first: $(first "$tmp/local")"
        else
            ok "ptx $step has no ld.local/st.local"
        fi
    fi

    check_ptxas_log "$step" "$log"
done

# ---- e. Blackwell kernels (blackwell.cu, sm_100a; compiled, never run here) --
# What each step is about, in its PTX: tcgen05 from v0 (one thread's MMA into
# tensor memory, its alloc/commit/ld), cp.async in v0, TMA and mbarrier
# waits from v1. v3 and v4 must commit to more than one barrier (the stage's
# empty barrier and the accumulator's); v5 uses cluster launch control, v6 the
# cta_group::2 forms; the PTX is built for sm_100a.
for step in $STEPS; do
    case " $BW_STEPS " in *" $step "*) ;; *)
        [ -e "$step/blackwell.cu" ] && skipped "blackwell.cu of $step" "not in BW_STEPS, so not built" ;;
    esac
done
for step in $BW_STEPS; do
    n=$(stepnum "$step")
    check "blackwell.cu of $step" "$step is in BW_STEPS but $step/blackwell.cu is missing" \
        test -s "$step/blackwell.cu"
    ptx=$BUILD_DIR/$step/blackwell.ptx log=$BUILD_DIR/$step/blackwell.ptxas.log
    if [ ! -s "$ptx" ]; then
        bad "ptx $step (sm_100a)" "$ptx missing or empty"
    else
        check "ptx $step (sm_100a) targets sm_100a" "no '.target sm_100a' in $ptx" \
            grep -qE '^[[:space:]]*\.target[[:space:]]+sm_100a' "$ptx"
        # v6 is the CTA pair: every tcgen05 op and its TMA loads in the
        # cta_group::2 form, its commits multicast to both CTAs.
        g=1 commit="tcgen05.commit.cta_group::1.mbarrier::arrive::one"
        tma="cp.async.bulk.tensor.2d.shared::cluster.global"
        if [ "$n" -ge 6 ]; then
            g=2 commit="tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster"
            tma="cp.async.bulk.tensor.2d.cta_group::2.shared::cluster.global"
        fi
        want=("tcgen05.mma.cta_group::$g.kind::f16"
            "tcgen05.alloc.cta_group::$g.sync.aligned.shared::cta.b32"
            "tcgen05.relinquish_alloc_permit.cta_group::$g"
            "tcgen05.dealloc.cta_group::$g"
            "$commit"
            "tcgen05.ld.sync.aligned.32x32b"
            "tcgen05.wait::ld.sync.aligned"
            "tcgen05.fence::before_thread_sync"
            "tcgen05.fence::after_thread_sync"
            "mbarrier.try_wait.parity")
        if [ "$n" -eq 0 ]; then
            want+=("cp.async.cg.shared.global")
        else
            want+=("$tma"
                "cp.async.bulk.tensor.2d.global.shared::cta"
                "mbarrier.arrive.expect_tx")
        fi
        # v5 on: cluster launch control hands out the tiles.
        [ "$n" -ge 5 ] && want+=("clusterlaunchcontrol.try_cancel.async"
            "clusterlaunchcontrol.query_cancel.is_canceled"
            "clusterlaunchcontrol.query_cancel.get_first_ctaid")
        for w in "${want[@]}"; do
            check "ptx $step (sm_100a) has $w" "not found in $ptx" has "$ptx" "$w"
        done
        # v0-v2 wait for each k-tile's MMAs (one commit); v3 and v4 commit each
        # k-tile to its stage's empty barrier and the last to acc_full (two).
        ncommit=$(grep -c 'tcgen05.commit' "$ptx")
        if [ "$n" -ge 3 ]; then
            check "ptx $step (sm_100a) commits to stage and accumulator barriers" \
                "$ncommit tcgen05.commit, want >= 2" test "$ncommit" -ge 2
        fi
        if [ "$n" -eq 0 ] && has "$ptx" "cp.async.bulk.tensor"; then
            bad "ptx $step (sm_100a) copies with cp.async only" "found cp.async.bulk.tensor"
        fi
        if grep -nE '(^|[^.[:alnum:]_])(ld|st)\.local' "$ptx" >"$tmp/local"; then
            bad "ptx $step (sm_100a) has no ld.local/st.local" "$(nlines "$tmp/local") uses, first: $(first "$tmp/local")"
        else
            ok "ptx $step (sm_100a) has no ld.local/st.local"
        fi
    fi
    check_ptxas_log "$step (sm_100a)" "$log"
done

# ---- f. the deliberately deadlocked v4 (make build-broken, for make test-gpu) ---
# Built with -DBROKEN_RELEASE, consumer_release() must issue no arrival: the
# GPU test of the driver's time limit relies on that kernel never finishing.
case " $STEPS " in
*" v4_raster "*)
    bptx=$BUILD_DIR/broken/v4_raster/hopper.ptx ptx=$BUILD_DIR/v4_raster/hopper.ptx
    arrive='mbarrier.arrive.shared::cta.b64'
    check "binary $BUILD_DIR/broken/v4" "missing or not executable" test -x "$BUILD_DIR/broken/v4"
    if [ ! -s "$bptx" ] || [ ! -s "$ptx" ]; then
        bad "broken v4 drops the release" "$bptx or $ptx missing or empty"
    elif ! has "$ptx" "$arrive"; then
        bad "broken v4 drops the release" "v4 itself has no $arrive (the check is stale)"
    elif has "$bptx" "$arrive"; then
        bad "broken v4 drops the release" "$bptx still has $arrive"
    else
        ok "broken v4 drops the release (v4 has $arrive, the broken build none)"
    fi
    ;;
esac

# ---- g. plot -------------------------------------------------------------------
# plots/sample.csv (SAMPLE, not measured) has two GPUs whose ratios differ
# (v2_pipeline at 4096^3: 0.75 on one, 0.82 on the other, 0.78 their mean)
# and the extra columns best_ms, best_tflops, ratio_best at the end.
png_ok() { [ "$(head -c 8 "$1" 2>/dev/null | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; }
has_all() { local f=$1 s; shift; for s in "$@"; do grep -qF -- "$s" "$f" || return 1; done; }
has_all_lines() { local f=$1 s; shift; for s in "$@"; do grep -qxF -- "$s" "$f" || return 1; done; }
plot_csv() { timeout 120 bash plots/plot.sh "$1" "$tmp/$2-tflops" "$tmp/$2-ratio" >"$tmp/plot.log" 2>&1; }
if ! command -v gnuplot >/dev/null 2>&1; then
    skipped "plot" "gnuplot not installed"
elif ! plot_csv plots/sample.csv s; then
    bad "plot sample.csv" "plot.sh failed: $(tail -n 1 "$tmp/plot.log")"
else
    for c in tflops ratio; do
        check "plot sample.csv -> $c.png" "missing, empty or not a PNG" png_ok "$tmp/s-$c.png"
        check "plot sample.csv -> $c.svg" "missing, empty or without <svg" grep -qs '<svg' "$tmp/s-$c.svg"
        check "plot $c: one panel per GPU" "both GPUs' titles not in the SVG" \
            has_all "$tmp/s-$c.svg" "SAMPLE H100" "SAMPLE H200"
    done
    check "plot ratio: each GPU's own ratio, not averaged" "labels >0.75< and >0.82< wanted, >0.78< not" \
        eval 'has_all "$tmp/s-ratio.svg" ">0.75<" ">0.82<" && ! grep -qF ">0.78<" "$tmp/s-ratio.svg"'
    check "plot ratio: ratio_best markers" "no 'vs best cuBLASLt' key in the SVG" \
        grep -qF "vs best cuBLASLt" "$tmp/s-ratio.svg"

    # Columns are found by name: the same data with the columns in reverse
    # order and without ratio_best (a CSV from before that column).
    awk -F, '{ o = ""; for (i = NF; i >= 1; i--) if (i != 18) o = o (o == "" ? "" : ",") $i; print o }' \
        plots/sample.csv >"$tmp/reversed.csv"
    if ! plot_csv "$tmp/reversed.csv" r; then
        bad "plot csv with reordered columns, no ratio_best" "plot.sh failed: $(tail -n 1 "$tmp/plot.log")"
    else
        check "plot csv with reordered columns, no ratio_best" "ratio labels or GPU titles missing, or best markers present" \
            eval 'has_all "$tmp/r-ratio.svg" ">0.75<" ">0.82<" "SAMPLE H200" && ! grep -qF "vs best cuBLASLt" "$tmp/r-ratio.svg"'
    fi

    head -n 1 plots/sample.csv >"$tmp/header.csv"
    if plot_csv "$tmp/header.csv" h; then bad "plot header-only csv fails" "plot.sh exited 0 on a CSV without data rows"
    else ok "plot header-only csv fails"; fi
    sed '1s/,ratio,/,speedup,/' plots/sample.csv >"$tmp/noratio.csv"
    if plot_csv "$tmp/noratio.csv" n; then bad "plot csv without a ratio column fails" "plot.sh exited 0"
    elif ! grep -q "column ratio missing" "$tmp/plot.log"; then
        bad "plot csv without a ratio column fails" "no 'column ratio missing': $(head -n 1 "$tmp/plot.log")"
    else ok "plot csv without a ratio column fails"; fi

    # The random-shape scatter (plots/plot_random.sh) on tests/random_sample.csv
    # (sample data): each GPU's newest aligned seed, the latest row per shape,
    # its geometric mean in the key (A, seed 2: 0.5, 2 and 1 -> 1.000; B, seed
    # 7: 0.81 and 0.9 -> 0.854).
    if ! timeout 120 bash plots/plot_random.sh tests/random_sample.csv "$tmp/rand" >"$tmp/rand.log" 2>&1; then
        bad "plot_random sample" "plot_random.sh failed: $(tail -n 1 "$tmp/rand.log")"
    else
        check "plot_random sample -> png" "missing, empty or not a PNG" png_ok "$tmp/rand.png"
        check "plot_random: geometric means of the newest seed" "$(tr '\n' '|' <"$tmp/rand.log")" \
            eval 'has_all "$tmp/rand.svg" "seed 2: geometric mean 1.000 over 3 shapes" "seed 7: geometric mean 0.854 over 2 shapes"'
    fi
    head -n 1 tests/random_sample.csv >"$tmp/rhead.csv"
    if timeout 60 bash plots/plot_random.sh "$tmp/rhead.csv" "$tmp/rh" >/dev/null 2>&1; then
        bad "plot_random header-only csv fails" "exited 0 without data rows"
    else ok "plot_random header-only csv fails"; fi
fi

# ---- h. learner tools: make help, ptx, sass, ncu, diff -------------------------
# Each either works or fails with one clear line of its own (make adds its
# "make: *** [...] Error N" trailer, not counted). Run as a fresh make, not
# as a child of the make running these tests (no jobserver to inherit).
mk_env=() # more for env(1) before make: see mk_hidden
mk() { # make args...; sets rc, out/err files
    (timeout 600 env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "${mk_env[@]}" make --no-print-directory "$@" \
        >"$tmp/out" 2>"$tmp/err"; exit $?) 2>/dev/null
    rc=$?
    grep -v '^make\(\[[0-9]*\]\)\{0,1\}: \*\*\*' "$tmp/err" >"$tmp/err1"
}
# name pattern: non-zero exit, exactly one line of its own on stderr, with pattern.
one_line_failure() {
    local n
    n=$(nlines "$tmp/err1")
    if [ $rc -eq 0 ]; then bad "$1" "exit 0, want a failure"
    elif [ "$n" -ne 1 ]; then bad "$1" "$n lines on stderr, want 1: $(first "$tmp/err1")"
    elif ! grep -qF -- "$2" "$tmp/err1"; then bad "$1" "no '$2' on stderr: $(first "$tmp/err1")"
    else ok "$1 ($(cut -c1-100 "$tmp/err1"))"; fi
}
# A PATH without the tools that make sass and make ncu look for.
hidden=$tmp/hidden-path
mkdir -p "$hidden"
IFS=: read -r -a path_dirs <<<"$PATH"
for d in "${path_dirs[@]}"; do
    for f in "$d"/*; do
        b=${f##*/}
        case $b in cuobjdump | nvdisasm | ncu) continue ;; esac
        [ -x "$f" ] && [ ! -e "$hidden/$b" ] && ln -s "$f" "$hidden/$b"
    done
done
# mk with none of the tools: not on PATH, not in CUDA_BIN, no override. nvcc
# by its own path: through a link it would not find its own directory.
nvcc_path=$(command -v "${NVCC:-nvcc}")
mk_hidden() {
    mk_env=(-u CUOBJDUMP -u NVDISASM -u NCU PATH="$hidden")
    mk "$@" CUDA_BIN="$tmp/nowhere" NVCC="$nvcc_path"
    mk_env=()
}
sample_step=$(echo "$STEPS" | awk '{ print $NF }') # the last step, e.g. v4_raster
v=$(short "$sample_step")
prev_step=$(echo "$STEPS" | awk '{ print (NF > 1 ? $(NF - 1) : $NF) }')
pv=$(short "$prev_step")

mk help
for t in all test test-gpu bench plot readme ptx sass ncu diff clean; do
    check "make help lists make $t" "not in make help's output" grep -q "^make $t\b" "$tmp/out"
done

mk ptx VERSION="$v"
if [ $rc -ne 0 ]; then bad "make ptx VERSION=$v" "$(status $rc): $(first "$tmp/err1")"
else
    check "make ptx VERSION=$v names and writes build/$sample_step/hopper.ptx" "not printed, missing or without wgmma" \
        eval 'grep -qx "build/$sample_step/hopper.ptx" "$tmp/out" && grep -q wgmma.mma_async "build/$sample_step/hopper.ptx"'
fi
for args in "VERSION=v99" "VERSION=" "VERSION=abc"; do
    mk ptx "$args"
    one_line_failure "make ptx $args" "is no step"
done
mk ncu VERSION=v99
one_line_failure "make ncu VERSION=v99" "is no step"

mk sass VERSION="$v"
if [ $rc -eq 0 ]; then
    check "make sass VERSION=$v: SASS with wgmma, no local memory" "summary: $(first "$tmp/out")" \
        eval 'grep -q "hopper.sass: .* [1-9][0-9]* wgmma (HGMMA), no local memory" "$tmp/out" && test -s "build/$sample_step/hopper.sass"'
else
    one_line_failure "make sass VERSION=$v (no disassembler here)" "nvidia-cuda-cuobjdump"
fi
mk_hidden sass VERSION="$v"
one_line_failure "make sass, no cuobjdump/nvdisasm on PATH" "nvidia-cuda-cuobjdump"
mk_hidden ncu VERSION="$v"
one_line_failure "make ncu, no ncu on PATH" "ncu (Nsight Compute) not found"

# As this machine is: no ncu, or no GPU (one line each), or a real profile.
mk ncu VERSION="$v" SIZE="256 256 256"
if [ $rc -eq 0 ]; then
    check "make ncu VERSION=$v SIZE=256^3 (ran on a GPU)" "no table: $(first "$tmp/out")" \
        eval 'grep -q "^tensor pipe active" "$tmp/out" && grep -q "^metric  *$sample_step  *cuBLAS" "$tmp/out"'
elif grep -q "not found" "$tmp/err1"; then one_line_failure "make ncu VERSION=$v (no ncu here)" "ncu (Nsight Compute) not found"
else one_line_failure "make ncu VERSION=$v (no GPU here)" "no CUDA GPU"; fi
mk ncu VERSION="$v" SIZE="1 2"
one_line_failure "make ncu SIZE=\"1 2\"" "is not three sizes"

mk diff FROM="$pv" TO="$v"
if [ $rc -ne 0 ]; then bad "make diff FROM=$pv TO=$v" "$(status $rc): $(first "$tmp/err1")"
else
    check "make diff FROM=$pv TO=$v: diff -u with $v's header" "no +++ $sample_step/hopper.cu or +/* $sample_step: line" \
        eval 'grep -q "^+++ $sample_step/hopper.cu" "$tmp/out" && grep -q "^+/\* $sample_step:" "$tmp/out"'
fi
mk diff FROM="$pv" TO=v99
one_line_failure "make diff TO=v99" "is no step"
mk diff TO="$v"
one_line_failure "make diff without FROM" "is no step"
mk diff FROM="$pv" TO="$v" TRACK=ampere
one_line_failure "make diff TRACK=ampere" "is not a track"
if [ -f "$prev_step/blackwell.cu" ] && [ -f "$sample_step/blackwell.cu" ]; then
    mk diff FROM="$pv" TO="$v" TRACK=blackwell
    check "make diff TRACK=blackwell" "$(status $rc) or no +++ line" \
        eval '[ $rc -eq 0 ] && grep -q "^+++ $sample_step/blackwell.cu" "$tmp/out"'
else
    mk diff FROM="$pv" TO="$v" TRACK=blackwell
    one_line_failure "make diff TRACK=blackwell (a step without blackwell.cu)" "does not exist"
fi

# ---- i. streams_graph: a test program per step, linked like the step -------------
for step in $STEPS; do
    sg=$BUILD_DIR/tests/streams_graph_$(short "$step")
    if [ ! -x "$sg" ]; then
        bad "$sg" "missing or not executable"
        continue
    fi
    run_bin "$sg"
    if [ $rc -eq 0 ] && grep -q "^[1-9][0-9]* passed, 0 failed$" "$tmp/out"; then ok "$sg (ran on a GPU)"
    elif [ $rc -eq 1 ] && [ "$(nlines "$tmp/err")" -eq 1 ] && grep -q "no CUDA GPU" "$tmp/err" &&
        [ ! -s "$tmp/out" ]; then
        ok "$sg (no GPU: clean exit 1)"
    else
        bad "$sg" "$(status $rc), want 0 with 'N passed, 0 failed', or 1 with one 'no CUDA GPU' line (stderr: $(first "$tmp/err"); stdout: $(grep FAIL "$tmp/out" | head -n 1))"
    fi
done

# ---- j. v7's plan on the CPU (tools/plan.c, make plan) ------------------------
# The line it prints is the one `V7_PLAN=1 ./v7` prints on a GPU (tests/gpu.sh
# checks those there), for 66 clusters (an H100 or H200).
plan=$BUILD_DIR/tools/plan
if [ ! -x "$plan" ]; then
    bad "$plan" "missing or not executable"
else
    # The plan chosen is the candidate of least modelled time, of those listed.
    for args in "8192 8192 8192" "512 512 8192" "352 3032 14064" "16 8192 8192 32" "3744 1080 968 66 52428800 4800"; do
        # shellcheck disable=SC2086
        run_bin "$plan" $args
        least=$(sed -n 's/^candidate  *[^ ]*  *\([0-9.]*\) us .*/\1/p' "$tmp/out" | sort -g | head -n 1)
        chosen=$(sed -n 's/^v7 plan: .*(modelled \([0-9.]*\) us)$/\1/p' "$tmp/out")
        n=$(grep -c '^candidate ' "$tmp/out")
        if [ $rc -ne 0 ]; then bad "plan $args" "$(status $rc) (stderr: $(first "$tmp/err"))"
        elif [ "$n" -lt 2 ] || [ -z "$chosen" ] || [ "$chosen" != "$least" ]; then
            bad "plan $args" "$n candidates, least $least us, chosen $chosen us"
        else ok "plan $args: the least of $n candidates ($chosen us)"; fi
    done
    run_bin "$plan" 8192 8192 8192
    check "plan 8192^3: v6's tile" "$(grep '^v7 plan' "$tmp/out")" grep -q '^v7 plan: .*tiles 128 x 256, pairs share B' "$tmp/out"
    # A forced candidate (V7_TILE), as v7 takes it: that plan, exactly.
    for c in "128x128:split8 512 512 8192|v7 plan: 512 x 512 x 8192: tiles 128 x 128, pairs share B, 8 pairs of 128 k-tiles (64 deep) on 64 clusters, 8 stream-K (16 iterations per cluster), 0 whole, split-K" \
        "64x64:split8 256 256 8192|v7 plan: 256 x 256 x 8192: tiles 64 x 64, pairs share B, 8 pairs of 64 k-tiles (128 deep) on 64 clusters, 8 stream-K (8 iterations per cluster), 0 whole, split-K" \
        "64x128:dp 16 8192 8192 32|v7 plan: 16 x 8192 x 8192: tiles 64 x 128, pairs share A, 32 pairs of 64 k-tiles (128 deep) on 32 clusters, 0 stream-K (0 iterations per cluster), 32 whole" \
        "128x256:sk 8192 8192 8192|v7 plan: 8192 x 8192 x 8192: tiles 128 x 256, pairs share B, 1024 pairs of 128 k-tiles (64 deep) on 66 clusters, 34 stream-K (65 iterations per cluster), 990 whole" \
        "128x256:dp:A 528 13184 2312|v7 plan: 528 x 13184 x 2312: tiles 128 x 256, pairs share A, 130 pairs of 37 k-tiles (64 deep) on 66 clusters, 0 stream-K (0 iterations per cluster), 130 whole"; do
        args=${c%%|*} want=${c#*|}
        # shellcheck disable=SC2086
        run_bin env "V7_TILE=${args%% *}" "$plan" ${args#* }
        got=$(grep '^v7 plan' "$tmp/out" | sed 's/ (modelled [0-9.]* us)$//')
        if [ $rc -ne 0 ]; then bad "plan V7_TILE=$args" "$(status $rc) (stderr: $(first "$tmp/err"))"
        elif [ "$got" != "$want" ]; then bad "plan V7_TILE=$args" "got: $got"
        else ok "plan V7_TILE=$args"; fi
    done
    # The loads line: the boxes v7's launch encodes (sk_box_rows_a/b) and the
    # tensor maps' L2 promotion: by row pitch (tmap_promotion) where the plan
    # streams from DRAM (sk_streams_dram: the skinny 16 and 64 x 8192 x 8192),
    # else 128B on every pitch (1512 x 1408 x 8400 in 128 x 240 tiles).
    for c in "64x64:dp 16 8192 8192|loads: A in [16 x 64] boxes (CTA 0's, multicast to both), B in [64 x 64] boxes (each CTA its own); rows 16384 bytes apart: L2 promotion 256B" \
        "128x240:sk 1512 1408 8400|loads: A in [128 x 64] boxes (each CTA its own), B in [120 x 64] boxes (half a tile per CTA, multicast to both); rows 16800 bytes apart: L2 promotion 128B" \
        "128x256 4096 4096 4104|loads: A in [128 x 64] boxes (each CTA its own), B in [128 x 64] boxes (half a tile per CTA, multicast to both); rows 8208 bytes apart: L2 promotion 128B" \
        "64x128 64 8192 8192 32|loads: A in [32 x 64] boxes (half a tile per CTA, multicast to both), B in [128 x 64] boxes (each CTA its own); rows 16384 bytes apart: L2 promotion 256B" \
        "128x256:dp:A 528 13184 2312|loads: A in [64 x 64] boxes (half a tile per CTA, multicast to both), B in [256 x 64] boxes (each CTA its own); rows 4624 bytes apart: L2 promotion 128B" \
        "64x64q:dp:AB 248 1328 1848|loads: A in [32 x 64] boxes (half a tile per CTA, multicast to the 2 CTAs that share it), B in [32 x 64] boxes (half a tile per CTA, multicast to the 2 CTAs that share it); rows 3696 bytes apart: L2 promotion 128B" \
        "128x288:dp 3856 1064 3624|loads: A in [128 x 64] boxes (each CTA its own), B in [144 x 64] boxes (half a tile per CTA, multicast to both); rows 7248 bytes apart: L2 promotion 128B"; do
        args=${c%%|*} want=${c#*|}
        # shellcheck disable=SC2086
        run_bin env "V7_TILE=${args%% *}" "$plan" ${args#* }
        if [ $rc -ne 0 ]; then bad "plan loads $args" "$(status $rc) (stderr: $(first "$tmp/err"))"
        elif ! grep -qxF "$want" "$tmp/out"; then bad "plan loads $args" "no line '$want' (got: $(grep '^loads' "$tmp/out" | head -n 1))"
        else ok "plan loads $args"; fi
    done
    # A quad of 2 x 2 64 x 64 tiles priced as sk_bytes_cost says (7/9 of a
    # pair's k-tile with 88 of 132 SMs busy): 6039 + 15 x 437.4 x 7/9 ns plus
    # the DRAM's share. An earlier form of sk_cta_bytes came out at 11.9 here,
    # built by gcc 12 at -O2 (the 1 x 4 quad's bytes); host_tests did not see it.
    run_bin env V7_TILE=64x64q:dp:AB "$plan" 248 1328 1848
    check "plan 64x64q:dp:AB 248 1328 1848: modelled 11.1 us" "$(grep '^v7 plan' "$tmp/out")" \
        grep -q "^v7 plan: 248 x 1328 x 1848: tiles 64 x 64, pairs share A and B (2 x 2), 22 pairs of 15 k-tiles (128 deep) on 22 clusters.*(modelled 11.1 us)$" "$tmp/out"
    # Each cluster's k-tiles, as listed: within one of each other (stream-K's point).
    run_bin "$plan" 8192 8192 8192
    spread=$(sed -n 's/.* \([0-9]*\) k-tiles in all$/\1/p' "$tmp/out" | sort -n | sed -n '1p;$p' | tr '\n' ' ')
    check "plan 8192^3: clusters' k-tiles within one ($spread)" "listed clusters: $spread" \
        eval '[ -n "$spread" ] && [ $(( ${spread#* } - ${spread%% *} )) -le 1 ]'
    # Refused: bad sizes and GPU figures, an unknown tile, candidates that do
    # not apply (64 x 64q where its 2 x 2 quads would be more than 24; ":AB"
    # on a pair; a tile wider than 256 in pairs sharing A: B's box would
    # have 288 rows).
    for args in "0 1 1" "abc 1 1" "1 2" "8 8 8 0" "8 8 8 66 -1" "8 8 8 66 52428800 0" \
        "V7_TILE=96x96 8 8 8" "V7_TILE=128x256:split2 8192 8192 8192" "V7_TILE=128x256:skw 256 8192 8192" \
        "V7_TILE=64x64q 640 1000 1000" "V7_TILE=64x64:dp:AB 640 1000 1000" "V7_TILE=128x288:dp:A 3856 1064 3624" \
        "V7_TILE=128x288 100 4000 1000"; do
        # shellcheck disable=SC2086
        if [[ $args == V7_TILE=* ]]; then run_bin env "${args%% *}" "$plan" ${args#* }; else run_bin "$plan" $args; fi
        if [ $rc -ne 2 ] || [ -s "$tmp/out" ] || [ "$(nlines "$tmp/err")" -ne 1 ] || ! grep -q error "$tmp/err"; then
            bad "plan $args" "$(status $rc), want 2 with one error line and no stdout (stderr: $(first "$tmp/err"))"
        else ok "plan $args (refused)"; fi
    done
fi

# ---- j2. the cost model's fit (tools/fit.c) ----------------------------------
# --no-fit prints sk_model_sm90's constants as they are; --held-out keeps files
# out of the fit and summarises the picks on them apart; a held-out file of a
# shape's timings counts that shape there, not among the fitted ones.
fit=$BUILD_DIR/tools/fit
if [ ! -x "$fit" ]; then
    bad "$fit" "missing or not executable"
else
    C=plots/calib
    kinds=$(sed -n 's/^#define SK_KINDS \([0-9]*\)$/\1/p' common/stream_k.h) # tile shapes: 0 .. kinds - 1
    run_bin "$fit" --no-fit 52428800 3352:$C/h100_fixed.csv --held-out 3352:$C/h100_random_heldout.csv
    want=$(sed -n 's|^ *{\([0-9., ]*\)}, */\* k_tile:.*|{{\1}, /* k_tile */|p' common/stream_k.h)
    got=$(sed -n 2p "$tmp/out")
    nheld=$(tail -n +2 $C/h100_random_heldout.csv | cut -d, -f1-3 | sort -u | grep -c '')
    if [ $rc -ne 0 ]; then bad "fit --no-fit" "$(status $rc) (stderr: $(first "$tmp/err"))"
    elif [ -z "$want" ] || [ "$got" != "$want" ]; then bad "fit --no-fit: sk_model_sm90's k_tile costs" "got '$got', want '$want'"
    else ok "fit --no-fit: sk_model_sm90's k_tile costs, unmoved"; fi
    check "fit --held-out: $nheld held-out shapes summarised apart" "$(grep 'shapes:' "$tmp/out" | tr '\n' ' ')" \
        grep -q "^held out, $nheld shapes: the picks run 0\.[0-9]* of the fastest" "$tmp/out"
    check "fit --held-out: the fitted rows are the fitted file's" "$(head -n 1 "$tmp/out")" \
        grep -qx "rows $(grep -c ',[0-9]*x[0-9]*:' $C/h100_fixed.csv), rms log error [0-9.]*" "$tmp/out"
    for args in "" "52428800" "52428800 nope.csv" "52428800 --held-out 3352:$C/h100_fixed.csv" \
        "52428800 3352:$C/h100_fixed.csv --held-out 3352:$C/h100_fixed.csv --held-out 3352:$C/h100_fixed.csv" "--kinds $kinds 52428800 3352:$C/h100_fixed.csv" "--kinds 1x 52428800 3352:$C/h100_fixed.csv" \
        "--no-fit --before 0 52428800 3352:$C/h100_fixed.csv" "--no-fit --before $((kinds + 1)) 52428800 3352:$C/h100_fixed.csv"; do
        # shellcheck disable=SC2086
        run_bin "$fit" $args
        if [ $rc -eq 0 ] || [ -s "$tmp/out" ] || ! grep -q error "$tmp/err"; then
            bad "fit $args" "$(status $rc), want an error and no stdout (stderr: $(first "$tmp/err"))"
        else ok "fit $args (refused)"; fi
    done
fi

# --before K: the picks against the model's picks among tile shapes 0 .. K - 1,
# by measured time: none changes when K is every shape; the widths in steps of
# 16 (shapes 7 ..) change some on the timings of every candidate of every shape.
if [ -x "$fit" ]; then
    F=plots/calib/fine
    run_bin "$fit" --no-fit --before 16 52428800 3352:$F/h100_sweep40.csv
    check "fit --before 16: the same picks" "$(grep against "$tmp/out")" \
        grep -q "against the picks among tile shapes 0 .. 15, the picks run 1.0000 times as fast (geometric mean), 0 shapes changed" "$tmp/out"
    run_bin "$fit" --no-fit --before 7 52428800 3352:$F/h100_sweep40.csv
    check "fit --before 7: some picks change" "$(grep against "$tmp/out")" \
        grep -qE "against the picks among tile shapes 0 .. 6, the picks run [0-9.]+ times as fast \(geometric mean\), [1-9][0-9]* shapes changed" "$tmp/out"
    # --unswapped: the picks against those among tiles of C alone: timings with
    # no tiles of C^T change none; with them (plots/calib/swap/) some.
    run_bin "$fit" --no-fit --unswapped 52428800 3352:$F/h100_sweep40.csv
    check "fit --unswapped, no tiles of C^T timed: the same picks" "$(grep against "$tmp/out")" \
        grep -q "tile shapes 0 .. $((kinds - 1)), unswapped, the picks run 1.0000 times as fast (geometric mean), 0 shapes changed" "$tmp/out"
    run_bin "$fit" --no-fit --unswapped 52428800 3352:plots/calib/swap/h100_heldout.csv
    check "fit --unswapped: some picks change" "$(grep against "$tmp/out")" \
        grep -qE "tile shapes 0 .. $((kinds - 1)), unswapped, the picks run [0-9.]+ times as fast \(geometric mean\), [1-9][0-9]* shapes changed" "$tmp/out"
fi

# ---- j3. calib_v7's command line (tools/calib.c; it times only on a GPU) -------
# Bad options are refused before any CUDA call: exit 2, one error line naming
# the usage (with --mix, the order of tools/calib_order.h: host_tests).
calib=$BUILD_DIR/tools/calib_v7
if [ ! -x "$calib" ]; then
    bad "$calib" "missing or not executable"
else
    for args in "--bogus" "--all --all" "--mix --mix" "--all --mix extra"; do
        # shellcheck disable=SC2086
        run_bin "$calib" $args </dev/null
        if [ $rc -ne 2 ] || [ -s "$tmp/out" ] || [ "$(nlines "$tmp/err")" -ne 1 ] || ! grep -q 'usage: .*\[--all\] \[--mix\]' "$tmp/err"; then
            bad "calib_v7 $args" "$(status $rc), want 2 with one usage line and no stdout (stderr: $(first "$tmp/err"))"
        else ok "calib_v7 $args (refused)"; fi
    done
fi

# ---- k. README tables (tools/readme_tables.sh, make readme) --------------------
# The README's tables of measured figures are rendered from plots/*.csv; the
# README must hold exactly what the generator makes of it, and the check must
# be able to fail: a copy with one number changed is caught and put right.
rt() { (bash tools/readme_tables.sh "$@" >"$tmp/rt.out" 2>"$tmp/rt.err"; exit $?) 2>/dev/null; rc=$?; }
for t in ladder random awkward steps; do
    check "README has the table:$t block" "no '<!-- table:$t -->' ... '<!-- /table:$t -->' in README.md" \
        eval "grep -qx '<!-- table:$t -->' README.md && grep -qx '<!-- /table:$t -->' README.md"
done
rt README.md "$tmp/readme.md"
if [ $rc -ne 0 ]; then bad "README tables match plots/*.csv" "readme_tables.sh: $(status $rc): $(first "$tmp/rt.err")"
elif ! cmp -s README.md "$tmp/readme.md"; then
    bad "README tables match plots/*.csv" "run make readme: $(diff README.md "$tmp/readme.md" | grep -m 1 '^[<>]' | cut -c1-120)"
else ok "README tables match plots/*.csv (make readme)"; fi
# One ratio in the 8192^3 table and one diff size in the ladder, doctored.
awk '/^<!-- table:ladder -->$/ { on = 1 } /^<!-- \/table:ladder -->$/ { on = 0 }
     on && !done && /^\| v/ && sub(/\| [0-9]\.[0-9][0-9][0-9] /, "| 9.999 ") { done = 1 } { print }' README.md >"$tmp/doctored1.md"
awk '/^<!-- table:steps -->$/ { on = 1 } /^<!-- \/table:steps -->$/ { on = 0 }
     on && !done && sub(/\| \+[0-9]+ -/, "| +99999 -") { done = 1 } { print }' README.md >"$tmp/doctored2.md"
for d in doctored1 doctored2; do
    rt "$tmp/$d.md" "$tmp/$d.out.md"
    if cmp -s README.md "$tmp/$d.md"; then bad "README check catches a changed number ($d)" "the doctoring changed nothing (table format changed?)"
    elif [ $rc -ne 0 ] || cmp -s "$tmp/$d.md" "$tmp/$d.out.md" || ! cmp -s "$tmp/readme.md" "$tmp/$d.out.md"; then
        bad "README check catches a changed number ($d)" "the generator did not put the doctored copy back"
    else ok "README check catches a changed number ($d)"; fi
done
# The random-shape summary, from tests/random_sample.csv (test data): per GPU
# and shape set the newest seed only, the latest row per shape, geometric
# means (v6: sqrt(0.25 x 1.0) = 0.5 and sqrt(0.9 x 0.4) = 0.6; v7: cbrt(0.5
# x 2 x 1) = 1), the worst shape, and a count where a step has fewer shapes.
printf '%s\n' 'x' '<!-- table:random -->' 'stale' '<!-- /table:random -->' 'y' >"$tmp/rnd.md"
RANDOM_CSV=tests/random_sample.csv rt "$tmp/rnd.md" "$tmp/rnd.out.md"
if [ $rc -ne 0 ]; then bad "README random table from the sample" "$(status $rc): $(first "$tmp/rt.err")"
else
    check "README random table from the sample" "want the sample's three rows (got: $(sed -n 4p "$tmp/rnd.out.md"))" \
        has_all_lines "$tmp/rnd.out.md" \
        '| GPU | shapes (seed) | count | v6 | v7 |' \
        '| TESTGPU-A | aligned (2) | 3 | 0.500 / 0.600, worst 0.250 (2 shapes) | 1.000 / 0.800, worst 0.500 |' \
        '| TESTGPU-A | any (3) | 1 | - | 1.200 / 1.100, worst 1.200 |' \
        '| TESTGPU-B | aligned (7) | 2 | - | 0.854 / 0.800, worst 0.810 |'
    check "README random table: text outside the markers kept, old block replaced" "$(tr '\n' ' ' <"$tmp/rnd.out.md" | cut -c1-120)" \
        eval '[ "$(head -n 2 "$tmp/rnd.out.md" | tr "\n" " ")" = "x <!-- table:random --> " ] && [ "$(tail -n 2 "$tmp/rnd.out.md" | tr "\n" " ")" = "<!-- /table:random --> y " ] && ! grep -q stale "$tmp/rnd.out.md"'
fi
RANDOM_CSV=$tmp/no-such.csv rt "$tmp/rnd.md" "$tmp/rnd.out.md"
check "README random table without plots/random.csv: one 'not measured' line" "$(status $rc): $(sed -n 3p "$tmp/rnd.out.md")" \
    eval '[ $rc -eq 0 ] && [ "$(grep -c "" "$tmp/rnd.out.md")" -eq 5 ] && grep -q "Not measured yet" "$tmp/rnd.out.md"'
# The README is the tutorial; revisions, runs and their stories belong in
# plots/NOTES.md (the issue that split them asked for under 420 lines).
n=$(nlines README.md)
check "README under 420 lines ($n)" "$n lines: move measurement detail to plots/NOTES.md" test "$n" -lt 420
grep -oE '(^|[^[:alnum:]_])[0-9a-f]{7,40}([^[:alnum:]_]|$)' README.md | grep '[0-9]' | grep '[a-f]' >"$tmp/hashes" || true
check "README names no commit (they belong in plots/NOTES.md)" "found: $(head -n 3 "$tmp/hashes" | tr -d '\n`')" test ! -s "$tmp/hashes"
# Every step's section has the same outline, in this order, with a picture.
awk '/^## / { on = ($0 == "## The steps") } on && /^### v[0-9]/ { if (sec) print sec ": " seq; sec = $2; sub(/:$/, "", sec); seq = "" }
     on && sec && /^- \*\*(Limit|Idea|PTX|Measured|Tried and not kept)\.\*\*/ { l = $0; sub(/^- \*\*/, "", l); sub(/\.\*\*.*/, "", l); seq = seq l "," }
     on && sec && /^```/ && !(sec in pic) { pic[sec] = 1; seq = seq "picture," }
     END { if (sec) print sec ": " seq }' README.md >"$tmp/outline"
want="Limit,Idea,PTX,picture,Measured,Tried and not kept,"
check "README: every step's section in one outline ($(grep -c '' "$tmp/outline") steps)" \
    "want $want; got $(grep -v ": $want\$" "$tmp/outline" | head -n 1)" \
    eval '[ -s "$tmp/outline" ] && ! grep -qv ": $want\$" "$tmp/outline"'
printf '%s\n' '<!-- table:ladder -->' 'x' >"$tmp/open.md"
rt "$tmp/open.md" "$tmp/open.out.md"
check "README tables: an unclosed marker fails" "$(status $rc), stderr: $(first "$tmp/rt.err")" \
    eval '[ $rc -ne 0 ] && grep -q "not closed" "$tmp/rt.err"'

# ---- l. tests/gpu.sh itself, on stub binaries (no GPU) ---------------------------
# make test-gpu runs several of a step's runs at once (GPU_TEST_JOBS): its log
# must list the same tests in the same order as one at a time, report a planted
# failure and exit 1. The stubs stand in for ./v7, ./v4, streams_graph_vN,
# build/broken/v4 and compute-sanitizer, each taking a random few centiseconds.
if [ -x "$BUILD_DIR/tools/shapes" ]; then
    g=$tmp/gputest
    mkdir -p "$g/tests" "$g/build/tools" "$g/build/tests" "$g/build/broken" "$g/bin"
    cp tests/gpu.sh "$g/tests/" && cp "$BUILD_DIR/tools/shapes" "$g/build/tools/"
    cat >"$g/v7" <<'STUB'
#!/usr/bin/env bash
sleep "0.0$((RANDOM % 6))"
if [ "$1" = 200000 ]; then echo "error: needs 1 GiB of GPU memory" >&2; exit 1; fi
if [ "$1 $2 $3" = "129 257 200" ]; then echo "FAIL planted"; exit 1; fi
echo "v7 plan: tiles ${V7_TILE:-model} $*"
STUB
    printf '#!/usr/bin/env bash\necho "PASS two streams"\n' >"$g/build/tests/streams_graph_v7"
    printf '#!/usr/bin/env bash\nsleep "0.0$((RANDOM %% 4))"\nwhile [ "${1:0:2}" = -- ]; do shift 2; done\nexec "$@"\n' \
        >"$g/bin/compute-sanitizer"
    cp "$g/v7" "$g/v4" && cp "$g/v7" "$g/build/broken/v4" && cp "$g/build/tests/streams_graph_v7" "$g/build/tests/streams_graph_v4"
    chmod +x "$g/v7" "$g/v4" "$g/build/broken/v4" "$g/build/tests/"* "$g/bin/compute-sanitizer"
    for j in 1 4; do
        (cd "$g" && PATH="$g/bin:$PATH" STEPS="v4_raster v7_stream_k" GPU_TEST_JOBS=$j timeout 300 bash tests/gpu.sh) \
            >"$tmp/gpu$j.out" 2>&1
        echo $? >"$tmp/gpu$j.rc"
    done
    names() { grep -E '^(PASS|FAIL) ' "$1" | sed -E 's/ \([0-9]+ s\)$//'; }
    check "test-gpu script: a planted failure fails it (exit 1, its FAIL line)" \
        "exit $(cat "$tmp/gpu4.rc"), $(grep -c '^FAIL ./v7 129 257 200' "$tmp/gpu4.out") FAIL lines for it" \
        eval '[ "$(cat "$tmp/gpu4.rc")" = 1 ] && grep -q "^FAIL ./v7 129 257 200 (exit 1)" "$tmp/gpu4.out"'
    check "test-gpu script: 4 runs at once list what 1 at a time does, in order ($(names "$tmp/gpu4.out" | grep -c '') tests)" \
        "$(diff <(names "$tmp/gpu1.out") <(names "$tmp/gpu4.out") | grep -m 1 '^[<>]')" \
        eval 'names "$tmp/gpu1.out" | grep -q "compute-sanitizer --tool synccheck" && cmp -s <(names "$tmp/gpu1.out") <(names "$tmp/gpu4.out")'
    # Each step's block in the sequential order: streams_graph, the refusal, the
    # shapes (and v7's plans), then the sanitizers; the deadlocked v4 last.
    names "$tmp/gpu4.out" | awk '{ k = /streams_graph/ ? "S" : /too large/ ? "R" : /compute-sanitizer/ ? "Z" : /broken/ ? "B" : "X"
                                   if (k != last) printf "%s", k; last = k } END { print "" }' >"$tmp/gpu4.kinds"
    check "test-gpu script: each step's runs in their order (streams, refusal, shapes, sanitizers)" \
        "blocks $(cat "$tmp/gpu4.kinds"), want SRXZSRXZB" grep -qx SRXZSRXZB "$tmp/gpu4.kinds"
    check "test-gpu script: its summary counts its lines" "$(tail -n 1 "$tmp/gpu4.out")" \
        grep -qx "gpu tests: $(grep -c '^PASS ' "$tmp/gpu4.out") passed, $(grep -c '^FAIL ' "$tmp/gpu4.out") failed" "$tmp/gpu4.out"
else
    skipped "test-gpu script on stub binaries" "no $BUILD_DIR/tools/shapes"
fi

for f in "${failed[@]}"; do echo "  failed: $f"; done
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
