#!/usr/bin/env bash
# GPU tests (make test-gpu), for an H100 or H200. Every step over a sweep of
# shapes with both checks (exact and random; each also re-runs and demands a
# bitwise-identical result), then compute-sanitizer (memcheck, racecheck,
# synccheck) on small shapes, and the library-caller checks of
# build/tests/streams_graph_vN (two streams at once, CUDA graphs). Every run
# has a time limit, so a deadlocked kernel fails instead of hanging. The steps
# run side by side (one job each), and a step's runs several at once
# (GPU_TEST_JOBS); their logs are in build/gpu-test-<step>.log.
# Then, alone on the GPU, the driver's own time limit: build/broken/v4 (make
# build-broken), whose kernel waits forever on a barrier, must end with exit 1
# and one line naming it.
set -u
cd "$(dirname "$0")/.." || exit 1
STEPS=${STEPS:?}
mkdir -p build

# M N K: tiny, odd, not multiples of 8 (staged), K below one k-tile, tall,
# wide, one tile, aligned, partial tiles everywhere, large.
SHAPES=(
    "1 1 1" "1 1 8" "7 13 5" "2 3 9" "64 64 8" "128 128 64" "256 256 16"
    "1000 1000 1000" "1000 1000 24" "129 257 200" "4097 4095 1031" "8191 8191 8191"
    "8192 8 8192" "8 8192 8192" "16384 128 1024" "128 16384 1024"
    "3 8191 10000" "8192 8192 8192"
)

run() { # name seconds command...
    local name=$1 secs=$2 out rc
    shift 2
    out=$(timeout "$secs" "$@" 2>&1)
    rc=$?
    if [ $rc -eq 0 ]; then
        echo "PASS $name"
    else
        [ $rc -eq 124 ] && echo "FAIL $name (timed out after ${secs}s)" || echo "FAIL $name (exit $rc)"
        echo "$out" | tail -8 | sed 's/^/    /'
    fi
}

# A program that prints its own "PASS x" / "FAIL x: why" lines: those lines,
# named after it; a non-zero exit without a FAIL line (a crash, the time
# limit) is one more FAIL, with the end of its output.
run_checks() { # name seconds command...
    local name=$1 secs=$2 out rc
    shift 2
    out=$(timeout "$secs" "$@" 2>&1)
    rc=$?
    printf '%s\n' "$out" | awk -v n="$name" '/^(PASS|FAIL) / { print $1 " " n ": " substr($0, 6) }'
    if [ $rc -ne 0 ]; then
        if ! printf '%s\n' "$out" | grep -q '^FAIL '; then
            [ $rc -eq 124 ] && echo "FAIL $name (timed out after ${secs}s)" || echo "FAIL $name (exit $rc)"
        fi
        printf '%s\n' "$out" | grep -v '^PASS ' | tail -8 | sed 's/^/    /'
    fi
}

# Exit status 1 and exactly one line on stderr naming the reason.
expect_refusal() { # name pattern command...
    local name=$1 pattern=$2 err rc t0=$SECONDS
    shift 2
    err=$(timeout 60 "$@" 2>&1 >/dev/null)
    rc=$?
    if [ $rc -eq 1 ] && [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] && [[ $err == *"$pattern"* ]]; then
        echo "PASS $name ($((SECONDS - t0)) s)"
    else
        echo "FAIL $name (exit $rc)"
        printf '%s\n' "$err" | tail -4 | sed 's/^/    /'
    fi
}

# v7: the plan's paths, each named by its V7_PLAN line (stderr), then verified
# like every shape. Most are forced (V7_TILE=tile:mode, so each path is run
# whatever the cost model prefers): split-K over few pairs (8 ways: the
# reduce-scatter over 8 clusters; 4 ways of 128 x 256), each tile shape, pairs
# that share A, a single k-tile per cluster, stream-K over less than a wave
# (48 pairs on 66 clusters), over a wave and a half (skw), and a tail of 3
# pairs cut 16 ways each (an owner adding 15 partials), two waves of whole
# pairs dealt out (128 x 128:sk on 3744 x 1080), three dealt out and three
# claimed at run time (128 x 128:sk on 3328 x 2048, pairs of 16 and of 34
# k-tiles); the 64-row tiles'
# ping-pong over several pieces per cluster (whole, stream-K, pieces of fewer
# k-tiles than the ring has stages); the others are the model's own plans.
V7_PLANS=(
    "V7_TILE=128x128:split8 512 512 8192|tiles 128 x 128, pairs share B, 8 pairs of 128 k-tiles \(64 deep\) on 64 clusters, 8 stream-K \(16 iterations per cluster\), 0 whole, split-K"
    "V7_TILE=128x256:split4 1024 1024 16384|tiles 128 x 256, pairs share B, 16 pairs of 256 k-tiles \(64 deep\) on 64 clusters, 16 stream-K.*split-K"
    "V7_TILE=64x64:dp 16 8192 8192|tiles 64 x 64, pairs share A, 64 pairs of 64 k-tiles \(128 deep\) on 64 clusters, 0 stream-K"
    "V7_TILE=64x128:split2 16 4096 14336|tiles 64 x 128, pairs share A, 16 pairs of 112 k-tiles \(128 deep\) on 32 clusters, 16 stream-K.*split-K"
    "V7_TILE=128x64:split2 8192 64 8192|tiles 128 x 64, pairs share B, 32 pairs of 128 k-tiles \(64 deep\) on 64 clusters, 32 stream-K.*split-K"
    "1000 1000 1000|tiles 64 x 128, pairs share B, 64 pairs of 8 k-tiles \(128 deep\) on [0-9]+ clusters, 0 stream-K"
    "V7_TILE=128x128:split2 1000 1000 1000|tiles 128 x 128, pairs share B, 32 pairs of 16 k-tiles \(64 deep\) on 64 clusters, 32 stream-K.*split-K"
    "V7_TILE=128x64:split2 400 1000 3000|tiles 128 x 64, pairs share B, 32 pairs of 47 k-tiles \(64 deep\) on 64 clusters, 32 stream-K.*split-K"
    "V7_TILE=128x192q:dp 1880 1304 3528|tiles 128 x 192, pairs share B, 28 pairs of 56 k-tiles \(64 deep\) on [0-9]+ clusters, 0 stream-K.*, clusters of 4"
    "V7_TILE=128x128q:sk 3328 2048 2176|tiles 128 x 128, pairs share B, 112 pairs of 34 k-tiles \(64 deep\) on [0-9]+ clusters, [0-9]+ stream-K.*, clusters of 4"
    "V7_TILE=128x96q:dp:A 7152 176 1448|tiles 128 x 96, pairs share A, 56 pairs of 23 k-tiles \(64 deep\) on [0-9]+ clusters, 0 stream-K.*, clusters of 4"
    "V7_TILE=128x160q:split2 1000 1000 3000|tiles 128 x 160, pairs share B, 14 pairs of 47 k-tiles \(64 deep\) on [0-9]+ clusters, 14 stream-K.*split-K, clusters of 4"
    "V7_TILE=128x64q:dp:T 300 5000 1000|tiles 64 x 128 \(swapped: C\^T in its tiles\), pairs share A.*, clusters of 4"
    "248 1328 1848|tiles 64 x 64, pairs share A and B \(2 x 2\), 22 pairs of 15 k-tiles \(128 deep\) on [0-9]+ clusters, 0 stream-K.*, clusters of 4"
    "V7_TILE=64x64q:dp:AB:T 200 600 1000|tiles 64 x 64 \(swapped: C\^T in its tiles\), pairs share A and B \(2 x 2\), 10 pairs of 8 k-tiles.*, clusters of 4"
    "V7_TILE=128x128q:dp:AB 1000 1000 1000|tiles 128 x 128, pairs share A and B \(2 x 2\), 16 pairs of 16 k-tiles.*, clusters of 4"
    "4104 4104 4096|tiles 128 x 224, pairs share B, 323 pairs of 64 k-tiles \(64 deep\) on [0-9]+ clusters, 0 stream-K"
    "V7_TILE=128x256:sk 4104 4104 4096|tiles 128 x 256, pairs share B, 289 pairs of 64 k-tiles \(64 deep\) on [0-9]+ clusters, [1-9][0-9]* stream-K"
    "8192 8192 8192|tiles 128 x 256, pairs share B, 1024 pairs of 128 k-tiles \(64 deep\) on [0-9]+ clusters"
    "V7_TILE=64x128:split8 256 256 1024|tiles 64 x 128, pairs share B, 4 pairs of 8 k-tiles \(128 deep\) on 32 clusters, 4 stream-K.*split-K"
    "V7_TILE=64x64:split8 256 256 8192|tiles 64 x 64, pairs share B, 8 pairs of 64 k-tiles \(128 deep\) on 64 clusters, 8 stream-K \(8 iterations per cluster\), 0 whole, split-K"
    "V7_TILE=64x128:split16 256 256 8192|tiles 64 x 128, pairs share B, 4 pairs of 64 k-tiles \(128 deep\) on 64 clusters, 4 stream-K \(4 iterations per cluster\), 0 whole, split-K"
    "V7_TILE=128x256:sk 1536 2048 4096|tiles 128 x 256, pairs share B, 48 pairs of 64 k-tiles \(64 deep\) on 66 clusters, 48 stream-K \(46 iterations per cluster\), 0 whole"
    "V7_TILE=128x256:skw 2304 2816 4096|tiles 128 x 256, pairs share B, 99 pairs of 64 k-tiles \(64 deep\) on 66 clusters, 99 stream-K \(96 iterations per cluster\), 0 whole"
    "V7_TILE=128x128:sk 3744 1080 968|tiles 128 x 128, pairs share B, 135 pairs of 16 k-tiles \(64 deep\) on 66 clusters, 3 stream-K \(0 iterations per cluster\), 132 whole"
    "V7_TILE=128x128:sk 3328 2048 1024|tiles 128 x 128, pairs share B, 208 pairs of 16 k-tiles \(64 deep\) on 66 clusters, 10 stream-K \(2 iterations per cluster\), 198 whole"
    "V7_TILE=128x128:sk 3328 2048 2176|tiles 128 x 128, pairs share B, 208 pairs of 34 k-tiles \(64 deep\) on 66 clusters, 10 stream-K \(5 iterations per cluster\), 198 whole"
    "V7_TILE=64x256:dp 2048 3072 328|tiles 64 x 256, pairs share B, 192 pairs of 6 k-tiles \(64 deep\) on [0-9]+ clusters, 0 stream-K"
    "V7_TILE=64x256:sk 3000 2000 1000|tiles 64 x 256, pairs share B, 192 pairs of 16 k-tiles \(64 deep\) on [0-9]+ clusters, [1-9][0-9]* stream-K"
    "V7_TILE=64x256:skw 3000 2000 1000|tiles 64 x 256, pairs share B, 192 pairs of 16 k-tiles \(64 deep\) on [0-9]+ clusters, [1-9][0-9]* stream-K"
    "V7_TILE=64x256:split4 256 512 8192|tiles 64 x 256, pairs share B, 4 pairs of 128 k-tiles \(64 deep\) on 16 clusters.*split-K"
    "V7_TILE=64x128:dp 4096 2048 200|tiles 64 x 128, pairs share B, 512 pairs of 2 k-tiles \(128 deep\) on [0-9]+ clusters, 0 stream-K"
    "V7_TILE=64x64:sk 1000 1000 3000|tiles 64 x 64, pairs share B, 128 pairs of 24 k-tiles \(128 deep\) on [0-9]+ clusters, [1-9][0-9]* stream-K"
    "V7_TILE=64x256:dp 40 5000 1000|tiles 64 x 256, pairs share A, 10 pairs of 16 k-tiles"
    "V7_TILE=128x192:dp 1000 1000 1000|tiles 128 x 192, pairs share B, 24 pairs of 16 k-tiles \(64 deep\) on [0-9]+ clusters, 0 stream-K"
    "V7_TILE=128x192:sk 3100 2000 1000|tiles 128 x 192, pairs share B, 143 pairs of 16 k-tiles \(64 deep\) on [0-9]+ clusters, [1-9][0-9]* stream-K"
    "V7_TILE=128x192:skw 3100 2000 1000|tiles 128 x 192, pairs share B, 143 pairs of 16 k-tiles \(64 deep\) on [0-9]+ clusters, [1-9][0-9]* stream-K"
    "V7_TILE=128x192:split4 256 600 8192|tiles 128 x 192, pairs share B, 4 pairs of 128 k-tiles \(64 deep\) on 16 clusters.*split-K"
    "V7_TILE=128x192:dp 100 5000 1000|tiles 128 x 192, pairs share A, 14 pairs of 16 k-tiles"
    "V7_TILE=128x256:dp:A 528 4000 1000|tiles 128 x 256, pairs share A, 40 pairs of 16 k-tiles \(64 deep\) on 40 clusters, 0 stream-K"
    "V7_TILE=128x192:sk:A 600 3000 1000|tiles 128 x 192, pairs share A, 40 pairs of 16 k-tiles \(64 deep\) on 66 clusters, 40 stream-K"
    "V7_TILE=64x64:split3:A 200 500 2000|tiles 64 x 64, pairs share A, 16 pairs of 16 k-tiles \(128 deep\) on 48 clusters, 16 stream-K.*split-K"
    "V7_TILE=64x128:skw:A 1000 3000 500|tiles 64 x 128, pairs share A, 192 pairs of 4 k-tiles \(128 deep\) on [0-9]+ clusters, [1-9][0-9]* stream-K"
    # Widths in steps of 16: one wgmma of the whole width per k-step, the last columns in 16-column boxes,
    # N past the edge inside a box, in every decomposition.
    "V7_TILE=128x80:dp 1000 1000 1000|tiles 128 x 80, pairs share B, 52 pairs of 16 k-tiles \(64 deep\) on [0-9]+ clusters, 0 stream-K"
    "V7_TILE=128x96:sk 1000 1000 1000|tiles 128 x 96, pairs share B, 44 pairs of 16 k-tiles \(64 deep\) on [0-9]+ clusters, 44 stream-K"
    "V7_TILE=128x112:split4 300 500 2000|tiles 128 x 112, pairs share B, 10 pairs of 32 k-tiles \(64 deep\) on 40 clusters.*split-K"
    "V7_TILE=128x144:skw 2000 1500 1000|tiles 128 x 144, pairs share B, 88 pairs of 16 k-tiles \(64 deep\) on [0-9]+ clusters, 88 stream-K"
    "V7_TILE=128x160:dp:A 1000 3000 500|tiles 128 x 160, pairs share A, 80 pairs of 8 k-tiles \(64 deep\) on [0-9]+ clusters, 0 stream-K"
    "V7_TILE=128x176:sk:A 700 1900 3000|tiles 128 x 176, pairs share A, 36 pairs of 47 k-tiles \(64 deep\) on [0-9]+ clusters, 36 stream-K"
    "V7_TILE=128x208:split3 200 700 4000|tiles 128 x 208, pairs share B, 4 pairs of 63 k-tiles \(64 deep\) on 12 clusters.*split-K"
    "V7_TILE=128x224:dp 1500 1100 700|tiles 128 x 224, pairs share B, 30 pairs of 11 k-tiles \(64 deep\) on [0-9]+ clusters, 0 stream-K"
    "V7_TILE=128x240:sk 3100 2600 1500|tiles 128 x 240, pairs share B, 143 pairs of 24 k-tiles \(64 deep\) on [0-9]+ clusters, [1-9][0-9]* stream-K"
    "V7_TILE=128x240:dp 77 999 333|tiles 128 x 240, pairs share A, 3 pairs of 6 k-tiles"
    "V7_TILE=128x80:split5 129 83 4100|tiles 128 x 80, pairs share B, 2 pairs of 65 k-tiles \(64 deep\) on 10 clusters.*split-K"
    "V7_TILE=128x144:sk:A 257 4001 2049|tiles 128 x 144, pairs share A, 42 pairs of 33 k-tiles \(64 deep\) on [0-9]+ clusters, 42 stream-K"
    # Tiles of C^T (the operands' roles swapped): the fragment stored transposed
    # (stmatrix), the last 16-48 rows of C in [16 x 64] boxes, M and N edges inside
    # them, in every decomposition; the split-K pieces' transposed direct stores.
    "V7_TILE=128x144:dp:T 1000 3000 1000|tiles 144 x 128 \(swapped: C\^T in its tiles\), pairs share A, 84 pairs of 16 k-tiles \(64 deep\) on [0-9]+ clusters, 0 stream-K"
    "V7_TILE=128x176:sk:T 1900 700 3000|tiles 176 x 128 \(swapped: C\^T in its tiles\), pairs share A, 33 pairs of 47 k-tiles \(64 deep\) on [0-9]+ clusters, 33 stream-K"
    "V7_TILE=128x256:skw:T 2000 3100 1000|tiles 256 x 128 \(swapped: C\^T in its tiles\), pairs share A, 104 pairs of 16 k-tiles \(64 deep\) on [0-9]+ clusters, 104 stream-K"
    "V7_TILE=128x80:split4:T 300 500 2000|tiles 80 x 128 \(swapped: C\^T in its tiles\), pairs share A, 8 pairs of 32 k-tiles \(64 deep\) on 32 clusters.*split-K"
    "V7_TILE=128x256:split4:T 1024 1000 16384|tiles 256 x 128 \(swapped: C\^T in its tiles\), pairs share A, 16 pairs of 256 k-tiles \(64 deep\) on 64 clusters.*split-K"
    "V7_TILE=64x64:dp:T 8192 16 8192|tiles 64 x 64 \(swapped: C\^T in its tiles\), pairs share B, 64 pairs of 64 k-tiles \(128 deep\) on [0-9]+ clusters, 0 stream-K"
    "V7_TILE=64x128:split2:T 4096 16 14336|tiles 128 x 64 \(swapped: C\^T in its tiles\), pairs share B, 16 pairs of 112 k-tiles \(128 deep\) on 32 clusters.*split-K"
    "V7_TILE=64x256:sk:T 2000 3000 1000|tiles 256 x 64 \(swapped: C\^T in its tiles\), pairs share A, 192 pairs of 16 k-tiles \(64 deep\) on [0-9]+ clusters, [1-9][0-9]* stream-K"
    "V7_TILE=128x192:dp:A:T 5000 300 1000|tiles 192 x 128 \(swapped: C\^T in its tiles\), pairs share B, 42 pairs of 16 k-tiles \(64 deep\) on [0-9]+ clusters, 0 stream-K"
    "V7_TILE=128x112:split3:A:T 500 300 2000|tiles 112 x 128 \(swapped: C\^T in its tiles\), pairs share B, 9 pairs of 32 k-tiles \(64 deep\) on 27 clusters.*split-K"
    "V7_TILE=128x240:dp:T 999 77 333|tiles 240 x 128 \(swapped: C\^T in its tiles\), pairs share B, 3 pairs of 6 k-tiles"
    "V7_TILE=128x160:sk:T 4001 257 2049|tiles 160 x 128 \(swapped: C\^T in its tiles\), pairs share A, 52 pairs of 33 k-tiles \(64 deep\) on [0-9]+ clusters, 52 stream-K"
    # Clusters of 8 sharing both operands, 2 x 4 and 4 x 2, tiles of C and of C^T,
    # rows and columns of tiles past C's edges (whole clusters' parts), a box of
    # B 24 rows deep (4 x 2 of 96 columns); and the model's own pick of one. Then
    # several waves of them, whole pairs dealt out unevenly (48 on 15 clusters; 40 of
    # C^T in 4 x 2), and the model's own pick of two waves.
    "V7_TILE=128x112o:dp:AB 1000 800 500|tiles 128 x 112, pairs share A and B \(2 x 4\), 8 pairs of 8 k-tiles \(64 deep\) on 8 clusters, 0 stream-K.*, clusters of 8"
    "V7_TILE=128x96o:dp:BA 7152 176 1448|tiles 128 x 96, pairs share A and B \(4 x 2\), 14 pairs of 23 k-tiles \(64 deep\) on 14 clusters, 0 stream-K.*, clusters of 8"
    "V7_TILE=128x208o:dp:AB:T 1500 300 500|tiles 208 x 128 \(swapped: C\^T in its tiles\), pairs share A and B \(2 x 4\), 4 pairs of 8 k-tiles.*, clusters of 8"
    "V7_TILE=128x224o:dp:BA 2000 448 1000|tiles 128 x 224, pairs share A and B \(4 x 2\), 4 pairs of 16 k-tiles.*, clusters of 8"
    "V7_TILE=128x96o:dp:BA:T 300 1800 900|tiles 96 x 128 \(swapped: C\^T in its tiles\), pairs share A and B \(4 x 2\), 8 pairs of 15 k-tiles.*, clusters of 8"
    "3600 264 1584|tiles 128 x 80, pairs share A and B \(2 x 4\), 15 pairs of 25 k-tiles \(64 deep\) on 15 clusters, 0 stream-K.*, clusters of 8"
    "V7_TILE=128x112o:dp:AB 12128 400 2184|tiles 128 x 112, pairs share A and B \(2 x 4\), 48 pairs of 35 k-tiles \(64 deep\) on 15 clusters, 0 stream-K.*, 48 whole, clusters of 8"
    "V7_TILE=128x96o:dp:BA:T 1900 2000 1000|tiles 96 x 128 \(swapped: C\^T in its tiles\), pairs share A and B \(4 x 2\), 40 pairs of 16 k-tiles \(64 deep\) on 15 clusters.*, clusters of 8"
    "7320 560 568|tiles 128 x 144, pairs share A and B \(2 x 4\), 29 pairs of 9 k-tiles \(64 deep\) on 15 clusters, 0 stream-K.*, clusters of 8"
    # Clusters of 8 split-K: each piece's partials gathered by 8 CTAs x 2 consumers (4 x 2
    # of C^T: 64-row consumers of 96-column tiles), a column of clusters past C's edge;
    # and the model's own pick of one.
    "V7_TILE=128x112o:split7:AB 300 300 8000|tiles 128 x 112, pairs share A and B \(2 x 4\), 2 pairs of 125 k-tiles \(64 deep\) on 14 clusters.*split-K, clusters of 8"
    "V7_TILE=128x96o:split3:BA:T 200 1000 3000|tiles 96 x 128 \(swapped: C\^T in its tiles\), pairs share A and B \(4 x 2\), 4 pairs of 47 k-tiles \(64 deep\) on 12 clusters.*split-K, clusters of 8"
    "2128 320 14656|tiles 128 x 160, pairs share A and B \(4 x 2\), 5 pairs of 229 k-tiles \(64 deep\) on 15 clusters.*split-K, clusters of 8"
    # 64-row tiles in clusters of 8 (one consumer's, ping-pong; k-tiles 128 deep): 2 x 4 of C
    # (B in 40-row boxes), 4 x 2 of C^T (24-row boxes), rows of tiles past C's edge (M =
    # 200, 312); split-K, which only V7_TILE asks of them (the plan takes them whole, in
    # one wave); and the model's own pick of one.
    "V7_TILE=64x80o:dp:AB 312 1360 3232|tiles 64 x 80, pairs share A and B \(2 x 4\), 15 pairs of 26 k-tiles \(128 deep\) on 15 clusters, 0 stream-K.*, clusters of 8"
    "V7_TILE=64x96o:dp:BA:T 1000 264 1000|tiles 96 x 64 \(swapped: C\^T in its tiles\), pairs share A and B \(4 x 2\), 12 pairs of 8 k-tiles \(128 deep\) on 12 clusters.*, clusters of 8"
    "V7_TILE=64x64o:dp:BA 200 1704 3792|tiles 64 x 64, pairs share A and B \(4 x 2\), 14 pairs of 30 k-tiles \(128 deep\) on 14 clusters.*, clusters of 8"
    "V7_TILE=64x64o:split5:AB 352 208 2552|tiles 64 x 64, pairs share A and B \(2 x 4\), 3 pairs of 20 k-tiles \(128 deep\) on 15 clusters.*split-K, clusters of 8"
    "600 920 1008|tiles 64 x 80, pairs share A and B \(2 x 4\), 15 pairs of 8 k-tiles \(128 deep\) on 15 clusters, 0 stream-K.*, clusters of 8"
    # The epilogue under the next tile's MMAs (whole pairs of 128-row tiles, several to a
    # cluster): tiles of fewer k-tiles (1, 2, 3) than slices, so a piece stores what is
    # pending past its own k-tiles; tiles of C^T; 16- and 48-column tails; pairs sharing A.
    "V7_TILE=128x256:dp 4000 4000 128|tiles 128 x 256, pairs share B, 256 pairs of 2 k-tiles \(64 deep\) on [0-9]+ clusters, 0 stream-K"
    "V7_TILE=128x208:dp 4100 3900 64|tiles 128 x 208, pairs share B, 323 pairs of 1 k-tiles \(64 deep\) on [0-9]+ clusters, 0 stream-K"
    "V7_TILE=128x224:dp:T 5000 3000 192|tiles 224 x 128 \(swapped: C\^T in its tiles\), pairs share A, 276 pairs of 3 k-tiles \(64 deep\) on [0-9]+ clusters, 0 stream-K"
    "V7_TILE=128x256:dp:T 4100 3900 200|tiles 256 x 128 \(swapped: C\^T in its tiles\), pairs share A, 272 pairs of 4 k-tiles \(64 deep\) on [0-9]+ clusters, 0 stream-K"
    "V7_TILE=128x176:dp:A 3001 2999 520|tiles 128 x 176, pairs share A, 216 pairs of 9 k-tiles \(64 deep\) on [0-9]+ clusters, 0 stream-K"
    # Tiles wider than one wgmma (128 x 288: two a k-step, 144 + 144 columns;
    # one C slice buffer a consumer), every decomposition, tiles of C^T, edges
    # inside the second wgmma's columns and odd sizes.
    "V7_TILE=128x288:dp 3856 1064 3624|tiles 128 x 288, pairs share B, 64 pairs of 57 k-tiles \(64 deep\) on 64 clusters, 0 stream-K"
    "V7_TILE=128x288:sk 3000 2000 1000|tiles 128 x 288, pairs share B, 84 pairs of 16 k-tiles \(64 deep\) on [0-9]+ clusters, [1-9][0-9]* stream-K"
    "V7_TILE=128x288:skw 4104 4104 1024|tiles 128 x 288, pairs share B, 255 pairs of 16 k-tiles \(64 deep\) on [0-9]+ clusters, [1-9][0-9]* stream-K"
    "V7_TILE=128x288:split3 300 600 5000|tiles 128 x 288, pairs share B, 6 pairs of 79 k-tiles \(64 deep\) on 18 clusters.*split-K"
    "V7_TILE=128x288:dp:T 1000 300 2000|tiles 288 x 128 \(swapped: C\^T in its tiles\), pairs share A, 8 pairs of 32 k-tiles \(64 deep\) on 8 clusters, 0 stream-K"
    "V7_TILE=128x288:split2:T 1000 260 3000|tiles 288 x 128 \(swapped: C\^T in its tiles\), pairs share A, 8 pairs of 47 k-tiles.*split-K"
    "V7_TILE=128x288:sk:T 1001 999 1003|tiles 288 x 128 \(swapped: C\^T in its tiles\), pairs share A, 16 pairs of 16 k-tiles \(64 deep\) on [0-9]+ clusters, 16 stream-K"
)
# And the model's plans on random shapes (build/tools/shapes, a fixed seed):
# whatever it picks must verify.
while read -r m n k; do V7_PLANS+=("$m $n $k|tiles"); done < <(build/tools/shapes 4242 12)
run_plan() { # [VAR=value] shape plan-regex
    local out rc env=()
    local args=$1
    [[ $args == V7_TILE=* ]] && env=("${args%% *}") && args=${args#* }
    # shellcheck disable=SC2086
    out=$(env V7_PLAN=1 "${env[@]}" timeout 300 ./v7 $args --check both --reps 0 2>&1)
    rc=$?
    if [ $rc -ne 0 ]; then
        echo "FAIL ./v7 $1 (plan path, exit $rc)"
        echo "$out" | tail -8 | sed 's/^/    /'
    elif ! grep -qE -- "$2" <<<"$out"; then
        echo "FAIL ./v7 $1: plan does not match '$2'"
        grep 'v7 plan' <<<"$out" | head -2 | sed 's/^/    /'
    else
        echo "PASS ./v7 $1 ($(grep -m1 -o 'tiles.*' <<<"$out"))"
    fi
}

# Several of a step's verification runs at once (GPU_TEST_JOBS, counting the
# step's sanitizer runs as one; by default the host's cores shared among the
# steps, 1 to 4 each): most of a run's time is the host's (inputs, the fp64
# reference, the comparisons), one core each, so v7's ~130 runs took 8.5
# minutes one after another. Each job's lines go to a numbered file, printed
# in the order the jobs were started.
nsteps=$(wc -w <<<"$STEPS")
cores=$(nproc 2>/dev/null || echo 4)
jobs_default=$((cores / nsteps))
[ "$jobs_default" -gt 4 ] && jobs_default=4
[ "$jobs_default" -lt 1 ] && jobs_default=1
GPU_TEST_JOBS=${GPU_TEST_JOBS:-$jobs_default}
job() { # command...
    while [ "$(jobs -rp | wc -l)" -ge "$GPU_TEST_JOBS" ]; do wait -n; done
    JOB_N=$((JOB_N + 1))
    "$@" >"$JOB_DIR/$(printf '%04d' "$JOB_N")" 2>&1 &
}

test_step() {
    local bin=./${1%%_*} shape
    JOB_DIR=build/gpu-test-$1.jobs JOB_N=0
    rm -rf "$JOB_DIR" && mkdir -p "$JOB_DIR" || exit 1
    # The sanitizers, one after another, beside the rest (their lines last).
    sanitizer_tests "$1" >"$JOB_DIR/sanitizers" 2>&1 &
    # Two streams at once, CUDA-graph capture and replay (tests/streams_graph.c).
    job run_checks "streams_graph_${1%%_*}" 300 "build/tests/streams_graph_${1%%_*}"
    job expect_refusal "$bin 200000 200000 200000 (too large for memory)" "GiB of GPU memory" \
        "$bin" 200000 200000 200000 --reps 0
    for shape in "${SHAPES[@]}"; do
        # shellcheck disable=SC2086
        job run "$bin $shape" 300 $bin $shape --check both --reps 0
    done
    if [ "$1" = v7_stream_k ]; then
        for shape in "${V7_PLANS[@]}"; do job run_plan "${shape%%|*}" "${shape#*|}"; done
    fi
    wait
    cat "$JOB_DIR"/[0-9]* "$JOB_DIR/sanitizers"
    rm -rf "$JOB_DIR"
}

sanitizer_tests() {
    local bin=./${1%%_*} shape tool
    # The sanitizers slow kernels down by orders of magnitude: the driver's
    # own limit (10 s at these sizes) is lifted; the outer timeout still holds.
    # At most three sanitizer processes at once (a lock per step number mod
    # 3, where flock exists): eight at once lost one to a kill (exit 9).
    local lock=()
    command -v flock >/dev/null 2>&1 && lock=(flock "build/.sanitizer-$((${1:1:1} % 3)).lock")
    for tool in memcheck racecheck synccheck; do
        # aligned; staged (K, N % 8 != 0); v7: 32 clusters of one k-tile each, pairs split 8
        # ways; v7's skinny tiles (64 x 128, 128 x 64), split 4 ways, edges in the direct stores
        local extra=()
        [ "$1" = v7_stream_k ] && extra=("16 300 200" "300 40 200")
        for shape in "100 200 72" "129 131 133" "256 256 512" "${extra[@]}"; do
            # shellcheck disable=SC2086
            run "compute-sanitizer --tool $tool $bin $shape" 600 "${lock[@]}" \
                compute-sanitizer --tool "$tool" --error-exitcode 99 $bin $shape --check random --reps 0 \
                --time-limit 300
        done
        # The shapes above have at most 3 k-tiles: no stage of a ring is ever
        # refilled. Here every ring wraps (16 k-tiles; v7: 64 x 128 tiles on 8
        # stages, 64 x 64 split-K pieces on 12). No cuBLAS (--baseline none):
        # racecheck reports hazards inside cuBLAS's own kernels at these shapes.
        # v7's ping-pong: three 64 x 256 pieces of 6 k-tiles per cluster, on 4 stages;
        # 128 x 192 tiles stream-K (4 stages, an owner adding a partial), and with pairs of
        # N-neighbours sharing A over 5 block rows; 128 x 176 stream-K (5 stages, its last
        # 48 columns in 16-column boxes); tiles of C^T, 176 x 128 stream-K (stmatrix, the
        # last 48 rows of C in 16-row boxes) and 80 x 128 split-K (transposed direct stores);
        # three waves of whole 128 x 128 pairs, the last two claimed at run time (34 k-tiles:
        # more than SK_CLAIM_K_TILES), then stream-K pieces that the scheduler hands on
        # (sk_claims); 4-CTA clusters stream-K (the shared B in quarters); 2 x 2 tiles to a
        # 4-CTA cluster (half of each operand to two CTAs; 16 k-tiles through 6 stages);
        # clusters of 8, 2 x 4 and 4 x 2 of C^T (a quarter of one operand, half of the other;
        # 16 k-tiles through 6 stages), 36 pairs of 2 x 4 dealt out to 15 clusters, and 2 x 4
        # split-K (the partials written, flagged and gathered by 16 consumers a piece); 64 x 80
        # tiles in 2 x 4 clusters (one consumer a tile) and 64 x 64 in them split-K; whole
        # pairs of 128 x 256 and of 176 x 128 of C^T, several to a cluster, fewer k-tiles than
        # slices (the last tile's stores under the next tile's MMAs, and past them).
        local wrap=("128 256 1024")
        [ "$1" = v7_stream_k ] && wrap=("1024 1024 1024" "256 256 8192" "V7_TILE=64x256:dp 2048 3072 328"
                                        "V7_TILE=128x192:sk 1000 1000 1000" "V7_TILE=128x192:sk:A 600 3000 1000"
                                        "V7_TILE=128x176:sk 1000 1000 1000" "V7_TILE=128x176:sk:T 1000 1000 1000"
                                        "V7_TILE=128x80:split4:T 300 500 2000" "V7_TILE=128x128:sk 3328 2048 2176"
                                        "V7_TILE=128x128q:sk 1000 1000 1000" "V7_TILE=64x64q:dp:AB 200 136 2000"
                                        "V7_TILE=128x128o:dp:AB 1000 1000 1000" "V7_TILE=128x96o:dp:BA:T 300 1800 1000"
                                        "V7_TILE=128x112o:dp:AB 3000 1000 500" "V7_TILE=128x112o:split3:AB 300 300 2000"
                                        "V7_TILE=64x80o:dp:AB 264 1520 500" "V7_TILE=64x64o:split3:AB 200 300 2000"
                                        "V7_TILE=128x256:dp 4096 2048 128" "V7_TILE=128x176:dp:T 3000 2000 192")
        for shape in "${wrap[@]}"; do
            local env=()
            [[ $shape == V7_TILE=* ]] && env=("${shape%% *}") && shape=${shape#* }
            # shellcheck disable=SC2086
            run "${env[*]}${env:+ }compute-sanitizer --tool $tool $bin $shape --baseline none" 600 \
                "${lock[@]}" env "${env[@]}" compute-sanitizer --tool "$tool" --error-exitcode 99 $bin $shape \
                --check random --reps 0 --baseline none --time-limit 300
        done
    done
}

for step in $STEPS; do
    test_step "$step" >"build/gpu-test-$step.log" 2>&1 &
done
wait

# The deliberately deadlocked v4: consumers never release a stage, so the
# producer waits forever once K has more k-tiles (64 wide) than the 4 stages.
# The driver must give up after its limit (10 s at 1024^3), print one line
# and exit 1 at once: 60 s covers the limit, start-up and the exit.
broken_tests() {
    local bin=build/broken/v4
    if [ ! -x "$bin" ]; then
        echo "FAIL $bin missing (make build-broken)"
        return
    fi
    # K = 256 is 4 k-tiles: no stage is ever refilled, so the missing release
    # does not matter and the run passes; the hang below is the release's doing.
    run "$bin 256 256 256 (one pass over the ring, no release needed)" 300 \
        "$bin" 256 256 256 --check both --reps 0
    expect_refusal "$bin 1024 1024 1024: gives up in verification" \
        "error: the step's kernel (v4_raster) did not finish within 10 s (verification run, exact mode); a barrier may be waited on forever" \
        "$bin" 1024 1024 1024 --reps 0
    expect_refusal "$bin 1024 1024 1024: gives up in the timed runs" \
        "error: the step's kernel (v4_raster) did not finish within 10 s (timed runs)" \
        "$bin" 1024 1024 1024 --check none --warmup 0 --reps 3
    expect_refusal "$bin 1024 1024 1024 --time-limit 3: names the limit given" \
        "did not finish within 3 s (verification run, random mode)" \
        "$bin" 1024 1024 1024 --check random --reps 0 --time-limit 3
}
case " $STEPS " in
*" v4_raster "*) broken_tests >build/gpu-test-broken.log 2>&1 ;;
*) : >build/gpu-test-broken.log ;;
esac

logs=$(for s in $STEPS broken; do echo "build/gpu-test-$s.log"; done)
# shellcheck disable=SC2086
cat $logs
# shellcheck disable=SC2086
pass=$(cat $logs | grep -c '^PASS')
# shellcheck disable=SC2086
fail=$(cat $logs | grep -c '^FAIL')
echo "gpu tests: $pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
