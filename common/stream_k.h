/* v7's work decomposition: which tile shape, which operand a cluster pair
 * shares, and how the k-tiles of the problem are split among the clusters.
 * Pure arithmetic, shared by the host (launch set-up, host tests) and the
 * device (each role's pieces of work, the fixup).
 *
 * Units of work are tile PAIRS (the two tiles of a 2-CTA cluster, as in v6)
 * times k-tiles: pair u, k-tiles kb .. ke - 1. The pairs, in the L2-friendly
 * tile order, are cut in two parts:
 *  - the first ones are data-parallel: whole pairs, dealt out round robin
 *    (cluster p takes pairs p, p + clusters, p + 2 clusters, ..);
 *  - the last sk_pairs pairs are stream-K, worked on once a cluster's whole
 *    pairs are done: their sk_pairs * k_tiles iterations (one pair, one
 *    k-tile) are dealt out in equal contiguous ranges, cluster p taking
 *    [sk_begin(p), sk_begin(p + 1)). A range starts and ends anywhere, so a
 *    pair can be split among several clusters.
 * A split pair is finished by its OWNER, the cluster whose range holds its
 * first k-tile: every other cluster in the split writes its fp32 partial
 * sums to a workspace slot of its own and raises a flag; the owner adds
 * them to its own sums in cluster order, then stores C.
 * With fewer pairs than clusters (split-K), every pair is cut the same
 * number of ways (`ways`), one piece per cluster, and the pieces finish
 * their pair together (reduce-scatter): each writes its partials, then
 * adds up its own 1/ways of the pair's fragment from all of them and
 * stores that part of C; no cluster adds the whole tile alone.
 * Either way the order of the additions is fixed by the plan, not by
 * timing, so C is bitwise the same on every run. */
#ifndef COMMON_STREAM_K_H
#define COMMON_STREAM_K_H

#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include "tile_order.h"

#ifdef __CUDACC__
#define SK_HD __host__ __device__
#else
#define SK_HD
#endif

/* The tile shapes the kernel is built for, [kind] = {rows, columns}. */
#define SK_KINDS 5
static const int sk_tile[SK_KINDS][2] = {
    {128, 256}, /* 0: v6's tile, for problems of 3/4 of a wave of pairs or more,
                   and split-K over a long K                                   */
    {128, 128}, /* 1: fewer pairs than that, or N <= 128                        */
    {64, 128},  /* 2: M <= 64 (decode steps): half the A tile was past the edge;
                   and small problems of short K, which 128 x 128 would split  */
    {128, 64},  /* 3: N <= 64: the same for B                                   */
    {64, 64},   /* 4: M <= 64 where its pairs make one wave, whole              */
};

typedef struct {
    int kind;        /* the tile shape, an index of sk_tile                     */
    int bm, bn;      /* its rows and columns                                    */
    int share_b;     /* 1: a pair is 2 M-blocks sharing B; 0: 2 N-blocks sharing A */
    int a_rows;      /* rows of A a stage holds: bm, or M rounded up to 8 when C is
                        one block row shorter than a 64-row tile (no rows past C
                        read; the 128-row tiles keep their two half boxes)        */
    int m_blocks, n_blocks; /* bm x bn tiles                                      */
    int pairs;       /* units of the tile order                                  */
    int k_tiles;     /* 64-wide k-tiles                                          */
    int clusters;    /* grid, in clusters                                        */
    int sk_pairs;    /* the last sk_pairs pairs are split stream-K; 0: none      */
    int64_t sk_iters; /* sk_pairs * k_tiles                                      */
    int64_t sk_per;  /* sk_iters / clusters: iterations per cluster ...          */
    int sk_extra;    /* ... and one more for the first sk_iters % clusters       */
    int ways;        /* split-K: every pair cut in `ways` pieces, cluster p doing
                        piece p % ways of pair p / ways; 0: not split-K          */
} sk_plan;

/* Rows of the TMA boxes v7 loads A and B in (64 k wide): the shared operand
 * in half-tile boxes, one per CTA, each multicast to both; A shorter than a
 * 64-row tile in one box of a_rows rows, CTA 0's (load_stage). */
static inline int sk_box_rows_a(const sk_plan *s)
{
    return s->share_b ? s->bm : s->a_rows < s->bm ? s->a_rows : s->bm / 2;
}
static inline int sk_box_rows_b(const sk_plan *s) { return s->share_b ? s->bn / 2 : s->bn; }

/* Start of cluster p's stream-K range (p = clusters: the end of the last).
 * No division: the device calls this with 128 accumulators live. */
static inline SK_HD int64_t sk_begin(const sk_plan *s, int p)
{
    return s->sk_per * p + (p < s->sk_extra ? p : s->sk_extra);
}

/* The plan for an M x N x K problem on a GPU that holds `max_clusters[kind]`
 * 2-CTA clusters of this kernel at once (for each tile shape); `kind` >= 0
 * forces a tile shape (V7_TILE, for measurements), -1 lets the rule pick.
 *  - Tile shape: 64 x 128 when M <= 64 and 128 x 64 when N <= 64: a
 *    skinny problem streams the long operand once from DRAM, and its speed
 *    is the bytes in flight per SM; the half of a 128-row tile that lies
 *    past the edge would take half of every stage. With M <= 64, 64 x 64
 *    instead where its pairs make one wave of whole pairs (15/16 of the
 *    clusters or more, none left over): no split-K fixup at all (H200, 64 x
 *    64 against 64 x 128 split 2 ways: 16 x 8192 x 8192 0.896-0.904 against
 *    0.836-0.844 of cuBLAS, 64 x 8192 x 8192 0.913-0.916 against 0.863-0.864,
 *    8 x 8192 x 8192 1.016-1.019 against 0.933-0.944; but 16 x 4096 x 14336,
 *    split either way, 0.921-0.927 against 0.931-0.935, and 32 x 14336 x
 *    4096, 1.7 waves, 0.876-0.879 against 0.981-0.986). Otherwise 128 x 256 (v6's
 *    tile) when its pairs fill at least 3/4 of a wave and N > 128, else
 *    128 x 128: twice the pairs to spread over the SMs (less splitting, so
 *    less fixup), half the wasted columns when N is small. And when even
 *    128 x 128 tiles leave clusters idle (split-K) and K is short (at most
 *    SK_SHORT_K k-tiles), 64 x 128: the split's fixed costs (partials
 *    written, waited for and summed, a workspace) then outweigh what the
 *    larger tile saves per k-tile (H100, ratio to cuBLAS, 128 x 128 / 64 x
 *    128: 1024^3 0.47 / 0.80, 768 x 768 x 2048 0.63 / 0.87, 1024 x 1024 x
 *    4096 0.65 / 0.72, 512 x 512 x 8192 0.75 / 0.74, 1024 x 1024 x 16384
 *    0.84 / 0.74). Over a long K the other way: 128 x 256, split-K too,
 *    when its pieces still have SK_LONG_PIECE k-tiles or more; it reads
 *    a quarter less from L2 per MMA (1024 x 1024 x 16384: 16 pairs cut in 4
 *    pieces of 64 k-tiles, 0.91 of cuBLAS; 32 pairs of 128 x 128 cut in 2,
 *    0.86; 512 x 512 x 8192: 16 pieces of 8 k-tiles, 0.75, against 0.83).
 *    And over a long K but very few pairs, 64 x 128 again when the
 *    128 x 128 pieces would be shorter than SK_SHORT_PIECE k-tiles and
 *    64 x 128 cuts fewer ways: 256 x 256 x 8192, 2 pairs cut in 33 pieces
 *    of 3-4 k-tiles, ran 0.50-0.51 of cuBLAS on an H100 and 0.56-0.57 on
 *    an H200; 4 pairs of 64 x 128 cut in 16 pieces of 8 k-tiles 0.66-0.73
 *    and 0.81-0.82 (256 x 256 x 16384: 0.61-0.63 -> 0.80-0.81, 0.58 ->
 *    0.77-0.78; 256 x 384 x 8192: 0.64 -> 0.71-0.73, 0.59-0.60 ->
 *    0.68-0.74); with pieces of 16 k-tiles 128 x 128 stays ahead (512 x
 *    512 x 8192 on the H100: 0.86-0.87 against 0.85-0.86). Where the
 *    pieces are still SK_SHORT_PIECE k-tiles or fewer, 64 x 64 when it cuts
 *    fewer ways into pieces at least that long: fewer partials to write,
 *    wait for and add, at the price of more bytes per MMA (H100, v7's time
 *    in us, 64 x 64 against the plan before, two runs each: 256 x 256 x
 *    8192 (16 pieces of 8 k-tiles -> 8 of 16) 14.7, 13.8 against 15.4,
 *    16.2; 128 x 256 x 8192 (33 of 3-4 -> 16 of 8) 14.0, 15.4 against
 *    17.9, 18.2; 256 x 512 x 8192 (128 x 128, 16 of 8 -> 4 of 32) 17.0,
 *    16.5 against 19.0, 18.8; 192 x 256 x 8192 14.4, 14.5 against 14.8,
 *    14.6. Not with longer pieces: 256 x 256 x 16384, 16 of 16, 18.4
 *    against 17.8-17.9; 512 x 512 x 8192 24.7-24.8 against 19.9).
 *  - Pairs share B (2 M-neighbours) unless C has one block row: then they
 *    share A (2 N-neighbours), so the second CTA does not sit past the edge.
 *  - Stream-K covers the last, partial wave: with w full waves and a
 *    remainder of r pairs (0 < r), the last r pairs are stream-K when they
 *    fill at least half a wave (every cluster gets 1/2 to 1 pair's worth of
 *    iterations); a smaller remainder takes one full wave with it (when
 *    w >= 1: 1 to 1.5 pairs' worth), so that a pair is split at most three
 *    ways either way and its owner adds at most two partials. With no full
 *    wave, all pairs are stream-K (split-K, each pair the same number of
 *    ways, see below) unless they fill at least 15/16 of the wave (2048^3:
 *    64 pairs). With full waves, stream-K is used only where the idle part
 *    of the last wave is worth at least SK_MIN_GAIN k-tiles of a pair:
 *    (clusters - r) / clusters * k_tiles >= SK_MIN_GAIN. The stream-K tail costs about that
 *    much (its partials, its waits, its staggered k-tiles in L2): on an
 *    H100, v7 at 4096^3 (3 waves and 58 of 66 pairs: 7.8 k-tiles idle) ran
 *    0.947 of cuBLAS with it against v6's 0.978; at 8192^3 (62 k-tiles
 *    idle) 1.041 against 1.020. The stream-K pairs come last, so the whole
 *    pairs before them run in waves in the tile order's L2-friendly
 *    patches; dealt out first, the pieces of 1.5 waves of pairs at
 *    staggered k-tiles outgrew the L2 (v7 at 4096^3 read 334 MB from DRAM,
 *    v6 164 MB). */
#define SK_MIN_GAIN 20
#define SK_SHORT_K 64
#define SK_LONG_PIECE 32
#define SK_SHORT_PIECE 8
static inline sk_plan sk_shape(int M, int N, int kind, const int max_clusters[SK_KINDS])
{
    sk_plan s;
    s.kind = kind;
    s.bm = sk_tile[kind][0];
    s.bn = sk_tile[kind][1];
    s.m_blocks = (M + s.bm - 1) / s.bm;
    s.n_blocks = (N + s.bn - 1) / s.bn;
    s.share_b = s.m_blocks >= 2;
    s.a_rows = s.bm == 64 && M < s.bm ? (M + 7) / 8 * 8 : s.bm;
    s.pairs = s.share_b ? (s.m_blocks + 1) / 2 * s.n_blocks : s.m_blocks * ((s.n_blocks + 1) / 2);
    s.clusters = max_clusters[kind];
    return s;
}

/* Split-K's ways for `pairs` pairs on `clusters` clusters over `k_tiles`
 * k-tiles: clusters / pairs, at most k_tiles; 0 when the pairs are not
 * split-K: a wave or more, nearly a wave (15/16), or fewer than 2 ways. */
static inline int sk_split_ways(int pairs, int clusters, int k_tiles)
{
    if (pairs >= clusters || pairs * 16 >= clusters * 15)
        return 0;
    const int ways = clusters / pairs < k_tiles ? clusters / pairs : k_tiles;
    return ways >= 2 ? ways : 0;
}

static inline sk_plan sk_plan_make(int M, int N, int K, const int max_clusters[SK_KINDS], int kind)
{
    sk_plan s;
    if (kind >= 0)
        s = sk_shape(M, N, kind, max_clusters);
    else if (M <= 64) {
        const sk_plan small = sk_shape(M, N, 4, max_clusters);
        s = sk_shape(M, N, 2, max_clusters);
        if (small.pairs <= small.clusters && small.pairs * 16 >= small.clusters * 15)
            s = small;
    }
    else if (N <= 64)
        s = sk_shape(M, N, 3, max_clusters);
    else {
        const sk_plan wide = sk_shape(M, N, 0, max_clusters);
        const int kt = (K + 63) / 64;
        s = wide;
        if (4 * s.pairs < 3 * s.clusters || N <= 128) {
            s = sk_shape(M, N, 1, max_clusters);
            /* Would these 128 x 128 pairs be split-K (see below), and how
             * many ways would 128 x 256 and 64 x 128 pairs be? */
            const sk_plan narrow = sk_shape(M, N, 2, max_clusters);
            const int split = sk_split_ways(s.pairs, s.clusters, kt);
            const int ways = sk_split_ways(wide.pairs, wide.clusters, kt);
            const int ways64 = sk_split_ways(narrow.pairs, narrow.clusters, kt);
            if (split && kt <= SK_SHORT_K)
                s = narrow;
            else if (split && N > 128 && ways && kt / ways >= SK_LONG_PIECE)
                s = wide;
            else if (split && kt / split < SK_SHORT_PIECE && ways64 < split)
                s = narrow;
        }
        /* Pieces still short (SK_SHORT_PIECE k-tiles or fewer): 64 x 64 where its
         * pieces are at least that long, cut fewer ways. */
        const int ways_s = sk_split_ways(s.pairs, s.clusters, kt);
        const sk_plan small = sk_shape(M, N, 4, max_clusters);
        const int ways_small = sk_split_ways(small.pairs, small.clusters, kt);
        if (ways_s && kt / ways_s <= SK_SHORT_PIECE && small.pairs <= small.clusters &&
            ways_small < ways_s && (ways_small == 0 || kt / ways_small >= SK_SHORT_PIECE))
            s = small;
    }
    s.k_tiles = (K + 63) / 64;
    s.ways = 0;
    const int waves = s.pairs / s.clusters, rem = s.pairs % s.clusters;
    if (rem == 0)
        s.sk_pairs = 0;
    else if (waves == 0) { /* split-K, unless the pairs (nearly) fill the wave */
        /* Each pair split the same number of ways, ways = clusters / pairs (at
         * most k_tiles), on that many times the pairs' clusters, one piece
         * each (sk_work_of): every pair is cut at the same k-tiles, so the
         * clusters on pairs that share A or B rows read the same k-tile at
         * the same time, once from DRAM. Ranges of equal length over all the
         * clusters start each at its own k-tile instead (v7 at 1024 x 1024 x
         * 16384 on an H100, 66 clusters: 0.60 of cuBLAS). */
        s.ways = sk_split_ways(s.pairs, s.clusters, s.k_tiles);
        s.sk_pairs = s.ways ? s.pairs : 0;
        if (s.ways)
            s.clusters = s.pairs * s.ways;
    }
    else if ((int64_t)(s.clusters - rem) * s.k_tiles < (int64_t)SK_MIN_GAIN * s.clusters)
        s.sk_pairs = 0;
    else
        s.sk_pairs = 2 * rem >= s.clusters ? rem : rem + s.clusters;
    s.sk_iters = (int64_t)s.sk_pairs * s.k_tiles;
    /* No cluster without work: no more clusters than pairs, nor than
     * iterations when all are stream-K (then no range is empty). */
    if (s.sk_pairs == 0 && s.pairs < s.clusters)
        s.clusters = s.pairs;
    if (s.sk_pairs == s.pairs && s.sk_iters < s.clusters)
        s.clusters = (int)s.sk_iters;
    s.sk_per = s.sk_iters / s.clusters;
    s.sk_extra = (int)(s.sk_iters % s.clusters);
    return s;
}

/* A piece of work: pair `pair`, k-tiles kb .. ke - 1; pair < 0: none left. */
typedef struct {
    int pair, kb, ke;
} sk_work;

/* The n-th stream-K piece of cluster p (n = 0, 1, ..): its range cut at pair
 * boundaries. pair = -1 once the range is used up. The range counts the
 * stream-K pairs from 0; the pair returned is the pair's own index. */
static inline SK_HD sk_work sk_piece(const sk_plan *s, int p, int n)
{
    sk_work w = {-1, 0, 0};
    const int64_t end = sk_begin(s, p + 1);
    int64_t i = sk_begin(s, p);
    for (int j = 0; i < end; j++) {
        const int u = (int)(i / s->k_tiles); /* u-th stream-K pair */
        int64_t stop = (int64_t)(u + 1) * s->k_tiles;
        if (stop > end) stop = end;
        if (j == n) {
            w.pair = s->pairs - s->sk_pairs + u;
            w.kb = (int)(i - (int64_t)u * s->k_tiles);
            w.ke = (int)(stop - (int64_t)u * s->k_tiles);
            return w;
        }
        i = stop;
    }
    return w;
}

/* The i-th piece of work of cluster p (i = 0, 1, ..): its whole pairs, then
 * its stream-K pieces (split-K: its one piece); pair = -1 when it has no
 * more. The whole plan is fixed before the launch: every role of every CTA
 * works it out alike, and the work per cluster is equal by construction, so
 * no claims are made. */
static inline SK_HD sk_work sk_work_of(const sk_plan *s, int p, int i)
{
    if (s->ways) { /* piece l of pair u: k-tiles l k / ways .. (l + 1) k / ways - 1 */
        const int u = p / s->ways, l = p - u * s->ways;
        const sk_work w = {i == 0 ? u : -1, (int)((int64_t)l * s->k_tiles / s->ways),
                           (int)((int64_t)(l + 1) * s->k_tiles / s->ways)};
        return w;
    }
    const int whole = s->pairs - s->sk_pairs;
    const int mine = p < whole ? (whole - p + s->clusters - 1) / s->clusters : 0;
    if (i < mine) {
        const sk_work w = {p + i * s->clusters, 0, s->k_tiles};
        return w;
    }
    return sk_piece(s, p, i - mine);
}

/* The order the plan's pairs run in, which the kernel and `make plan` both
 * walk: v4's tile order over pairs (2 M-blocks x 1 N-block when they share
 * B, else 1 x 2), its group width worked out from K and the L2 size
 * (tile_order_width) unless `width` > 0 fixes it. Host only. */
static inline tile_map sk_pair_order(const sk_plan *s, int K, int64_t l2_bytes, int width)
{
    if (width <= 0)
        width = tile_order_width(K, s->share_b ? s->bn : 2 * s->bn, l2_bytes);
    return s->share_b ? tile_map_make((s->m_blocks + 1) / 2, s->n_blocks, width)
                      : tile_map_make(s->m_blocks, (s->n_blocks + 1) / 2, width);
}

/* The plan in one line: what `V7_PLAN=1 ./v7 M N K` prints on a GPU, and
 * `make plan` on the CPU. Host only. */
static inline void sk_plan_describe(const sk_plan *s, int M, int N, int K, char *buf, size_t n)
{
    snprintf(buf, n,
             "%d x %d x %d: tiles %d x %d, pairs share %s, %d pairs of %d k-tiles on %d clusters, "
             "%d stream-K (%lld iterations per cluster), %d whole%s",
             M, N, K, s->bm, s->bn, s->share_b ? "B" : "A", s->pairs, s->k_tiles, s->clusters,
             s->sk_pairs, (long long)(s->sk_iters / s->clusters), s->pairs - s->sk_pairs,
             s->ways ? ", split-K" : "");
}

/* Split-K's reduce-scatter: the share [*j0, *j1) of a pair's `units` (the
 * float4s of a workspace slot) that piece l of `ways` adds up and stores. */
static inline SK_HD void sk_slice(int ways, int l, int units, int *j0, int *j1)
{
    *j0 = l * units / ways;
    *j1 = (l + 1) * units / ways;
}

/* The clusters whose partials the owner of a split piece adds, in order: the
 * owner p ends its range inside the pair; the next clusters cover the rest,
 * each with the first piece of its range (no range is empty: see
 * sk_plan_make). Start with q = p (the owner); each call returns the next
 * contributor after q, or -1 once the pair's last k-tile is covered. */
static inline SK_HD int sk_next_contributor(const sk_plan *s, int pair, int q)
{
    const int u = pair - (s->pairs - s->sk_pairs); /* u-th stream-K pair */
    return sk_begin(s, q + 1) >= (int64_t)(u + 1) * s->k_tiles ? -1 : q + 1;
}

#endif
