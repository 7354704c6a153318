/* v7's work decomposition: which tile shape, which operand a cluster pair
 * shares, and how the k-tiles of the problem are split among the clusters.
 * Pure arithmetic, shared by the host (launch set-up, host tests) and the
 * device (each role's pieces of work, the fixup).
 *
 * Units of work are tile PAIRS (the two tiles of a 2-CTA cluster, as in v6)
 * times k-tiles: pair u, k-tiles kb .. ke - 1. The pairs, in the L2-friendly
 * tile order, are cut in two parts:
 *  - the first ones are data-parallel: whole pairs, dealt out round robin
 *    (cluster p takes pairs p, p + clusters, p + 2 clusters, ..), or, where
 *    there are more than two waves of long ones (sk_claims), claimed at run
 *    time;
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

#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "tile_order.h"

#ifdef __CUDACC__
#define SK_HD __host__ __device__
#else
#define SK_HD
#endif

/* The tile shapes the kernel is built for, [kind] = {rows, columns, CTAs
 * per cluster}; which one a problem gets is the cost model's choice
 * (sk_plan_make, below). */
#define SK_KINDS 43
static const int sk_tile[SK_KINDS][3] = {
    {128, 256, 2}, /* 0: v6's tile: the fewest L2 bytes per MMA              */
    {128, 128, 2}, /* 1: twice the pairs of 0, half its columns past an edge */
    {64, 128, 2},  /* 2: M <= 64 (decode steps), short problems              */
    {128, 64, 2},  /* 3: N <= 64                                             */
    {64, 64, 2},   /* 4: the most pairs, for the fewest rows and columns     */
    {64, 256, 2},  /* 5: 0's MMA on half its rows: short K, M past a 128 edge */
    {128, 192, 2}, /* 6: 4/3 the pairs of 0: a wave where 0 leaves clusters
                         idle; N in 129 .. 192 or 257 .. 384, less padding   */
    /* 7-15: 128 rows, widths in steps of 16 between those above: a width
     * that covers N with little padding, or fills the last wave */
    {128, 80, 2}, {128, 96, 2}, {128, 112, 2}, {128, 144, 2}, {128, 160, 2}, {128, 176, 2},
    {128, 208, 2}, {128, 224, 2}, {128, 240, 2},
    /* 16-18: 64 rows, widths between those of 4 and 2: a short side just
     * past a multiple of 64 or 128 (N = 144 in 64 x 80 tiles, not 64 x 128
     * or 128 x 80); k-tiles 128 deep, as 64 x 128's */
    {64, 80, 2}, {64, 96, 2}, {64, 112, 2},
    /* 19-25: clusters of 4 CTAs ("quads"; V7_TILE "128x192q"): 4 tiles share
     * the operand, each CTA loading a quarter, so a CTA asks L2 for fewer
     * bytes a k-tile (128 x 192: 22 KB against 28), but only 30 clusters fit
     * (120 of 132 SMs): where one wave of whole tiles fits in them
     * (sk_bytes_cost). Widths whose quarter is a multiple of 8 rows (the
     * 128-byte swizzle's atom). */
    {128, 256, 4}, {128, 128, 4}, {128, 192, 4}, {128, 224, 4}, {128, 160, 4}, {128, 96, 4}, {128, 64, 4},
    /* 26: 64 x 64 in clusters of 4, as a quad of 2 x 2 tiles sharing both
     * operands (V7_TILE "64x64q:dp:AB"): a CTA asks L2 for half of each
     * operand tile, 16 KB a k-tile of 128 against a pair's 24 (sk_each_cand
     * says where the other quads may be 2 x 2) */
    {64, 64, 4},
    /* 27-38: clusters of 8 CTAs (V7_TILE "128x112o"), 2 x 4 or 4 x 2 tiles
     * sharing both operands: a CTA asks L2 for a quarter of one operand tile
     * and half of the other (128 x 112 in 2 x 4: 11 KB a k-tile against a
     * pair's 23), as cuBLAS's kernels for skinny shapes do; only 15 clusters
     * fit (120 of 132 SMs): whole tiles or split-K (sk_each_cand). Not 128 x
     * 64: its k-tiles took 190-380 ns where its bytes and MMAs price them at
     * 160-205, and the plans that chose it ran 0.92-1.55 of the time of those
     * without (H100, 8 shapes; plots/calib/cl8/). */
    {128, 80, 8}, {128, 96, 8}, {128, 112, 8}, {128, 128, 8}, {128, 144, 8}, {128, 160, 8},
    {128, 176, 8}, {128, 192, 8}, {128, 208, 8}, {128, 224, 8}, {128, 240, 8}, {128, 256, 8},
    /* 39-41: 64-row tiles in clusters of 8 (V7_TILE "64x80o:dp:AB"), 2 x 4 or
     * 4 x 2 as 27-38, where a short side of C of 128 .. 512 leaves 128-row
     * tiles too few: cuBLAS's 64 x 80 tiles in 2 x 4 clusters at 200 x 2296 x
     * 3712. Forced on 24 small shapes (H100), a CTA's k-tile of 128 took about
     * 280 / 320 / 405 ns (64, 80, 96 columns), a pair's 440-510; 200 x 1704 x
     * 3792 ran 14.6 us against 18.5 (plots/calib/cl64/). Not 112 or 128
     * columns: slower than the others where forced. */
    {64, 64, 8}, {64, 80, 8}, {64, 96, 8},
    /* 42: 128 rows wider than one wgmma (two per k-step, 144 + 144
     * columns), in pairs sharing B only (B's box is half a tile: at most 256
     * rows): one wave of whole tiles where narrower ones need two (3856 x
     * 1064 x 3624: 128 x 272 tiles ran 49.6 us against 69.2 for 128 x 144,
     * H100; cuBLAS's best runs 128 x 272 there). Not 128 x 272: it spilled
     * 4 bytes in one kernel, and its picks ran about level with the plans
     * they replaced; not 128 x 320: its 3 stages ran its k-tiles 1.36 times
     * 128 x 256's (8192^3 and 4096 x 14336 x 4096 10% slower;
     * plots/calib/wide288/). */
    {128, 288, 2},
};
/* Clusters of 4 (8) a GPU holds where it holds `pairs` clusters of 2: 30 (15)
 * for 66 on an H100 SXM (their GPCs; cudaOccupancyMaxActiveClusters).
 * For the CPU tools (make plan, the fit, host tests); v7 asks the GPU. */
static inline int sk_clusters_of(int kind, int pairs) { return sk_tile[kind][2] == 8 ? pairs * 15 / 66 : sk_tile[kind][2] == 4 ? pairs * 30 / 66 : pairs; }
/* A tile of 64 rows is one consumer warpgroup's: the kernel's two consumers
 * take turns on them (ping-pong), one's epilogue under the other's MMAs. */

/* K per k-tile (a stage of the kernel's ring), by tile shape: 128 for the
 * 64-row tiles up to 128 columns wide, 64 for the others. A 64 x 64 k-tile
 * of 64 is 128 cycles of MMAs, and its consumer's ~60 instructions around
 * them (the wait, 4 wgmma, the release) took ~360 (plots/NOTES.md): twice
 * the depth halves the waits and releases per MMA. The kernel's BK. */
#define SK_DEPTH(bm, bn) ((bm) == 64 && (bn) <= 128 ? 128 : 64)

/* Split-K's most pieces per pair: v7 gathers a piece's share of every
 * piece's partials into its ring at once (up to 64 x bn x 4 bytes plus 16
 * per piece, per consumer); an H100 or H200 holds 66 clusters at most. */
#define SK_WAYS_MAX 128

typedef struct {
    int kind;        /* the tile shape, an index of sk_tile                     */
    int swap;        /* 1: the operands' roles swapped: the kernel computes C^T =
                        B A^T, its tiles' rows running along N, their columns along
                        M (so the side wgmma's n fits in steps of 16 can be M); every
                        field below then counts in C^T's rows and columns          */
    int bm, bn;      /* its rows and columns                                    */
    int cl;          /* CTAs per cluster: the tiles of a "pair" (2, or 4: quads) */
    int share_b;     /* 1: a pair is 2 M-blocks sharing B; 0: 2 N-blocks sharing A;
                        2: a quad is 2 x 2 tiles, each pair of M-neighbours sharing
                        B, each pair of N-neighbours A (SK_SHARE_BOTH)           */
    int a_rows;      /* rows of A a stage holds: bm, or M rounded up to 8 when C is
                        one block row shorter than a 64-row tile (no rows past C
                        read; the 128-row tiles keep their two half boxes)        */
    int m_blocks, n_blocks; /* bm x bn tiles                                      */
    int pairs;       /* units of the tile order                                  */
    int bk;          /* K per k-tile: SK_DEPTH(bm, bn)                          */
    int k_tiles;     /* k-tiles of bk                                           */
    int clusters;    /* grid, in clusters                                        */
    int sk_pairs;    /* the last sk_pairs pairs are split stream-K; 0: none      */
    int64_t sk_iters; /* sk_pairs * k_tiles                                      */
    int64_t sk_per;  /* sk_iters / clusters: iterations per cluster ...          */
    int sk_extra;    /* ... and one more for the first sk_iters % clusters       */
    int ways;        /* split-K: every pair cut in `ways` pieces, cluster p doing
                        piece p % ways of pair p / ways; 0: not split-K          */
    int claims;      /* 1: whole pairs claimed at run time (sk_claims_of)        */
} sk_plan;

#define SK_SHARE_BOTH 2  /* sk_plan.share_b of a quad of 2 x 2 tiles, of a cluster of 8 in 2 x 4 */
#define SK_SHARE_BOTH4 3 /* of a cluster of 8 in 4 x 2 tiles (M x N) */
/* Tiles along M (R) of a cluster that shares both operands; cl / R along N.
 * Rank R j + i holds tile (i, j): it loads part j of S = cl / R of A's tile,
 * multicast to its row, and part i of R of B's, to its column. */
static inline SK_HD int sk_both_rows(int share_b, int cl) { return share_b == SK_SHARE_BOTH4 ? cl / 2 : 2; }

/* Rows of the TMA boxes v7 loads A and B in (64 k wide, bk / 64 a stage):
 * the shared operand in boxes of 1 / cl of a tile, one per CTA, each
 * multicast to all; in a 2 x 2 quad both operands in half-tile boxes, each
 * multicast to the two CTAs that share it; A shorter than a 64-row tile in
 * one box of a_rows rows, CTA 0's (load_stage). */
static inline int sk_box_rows_a(const sk_plan *s)
{
    return s->share_b >= SK_SHARE_BOTH ? s->bm / (s->cl / sk_both_rows(s->share_b, s->cl))
           : s->share_b                ? s->bm
           : s->a_rows < s->bm         ? s->a_rows
                                       : s->bm / s->cl;
}
static inline int sk_box_rows_b(const sk_plan *s)
{
    return s->share_b >= SK_SHARE_BOTH ? s->bn / sk_both_rows(s->share_b, s->cl) : s->share_b ? s->bn / s->cl : s->bn;
}

/* Start of cluster p's stream-K range (p = clusters: the end of the last).
 * No division: the device calls this with 128 accumulators live. */
static inline SK_HD int64_t sk_begin(const sk_plan *s, int p)
{
    return s->sk_per * p + (p < s->sk_extra ? p : s->sk_extra);
}

/* Tile shape `kind` laid over M x N: its blocks and pairs (2 M-neighbours
 * sharing B; 2 N-neighbours sharing A when C has one block row, so the
 * second CTA does not sit past the edge, or when share_a asks for it: with
 * an odd number of block rows, pairs along N leave no CTA past the edge;
 * share_a = SK_SHARE_BOTH: quads of 2 x 2 tiles) and the clusters the GPU
 * holds. */
static inline sk_plan sk_shape(int M, int N, int kind, int share_a, const int max_clusters[SK_KINDS])
{
    sk_plan s;
    s.kind = kind;
    s.bm = sk_tile[kind][0];
    s.bn = sk_tile[kind][1];
    s.cl = sk_tile[kind][2];
    s.bk = SK_DEPTH(s.bm, s.bn);
    s.m_blocks = (M + s.bm - 1) / s.bm;
    s.n_blocks = (N + s.bn - 1) / s.bn;
    s.share_b = share_a >= SK_SHARE_BOTH ? share_a : s.m_blocks >= 2 && !share_a;
    s.a_rows = s.bm == 64 && M < s.bm ? (M + 7) / 8 * 8 : s.bm;
    const int br = sk_both_rows(s.share_b, s.cl), bs = s.cl / br;
    s.pairs = s.share_b >= SK_SHARE_BOTH ? (s.m_blocks + br - 1) / br * ((s.n_blocks + bs - 1) / bs)
              : s.share_b                ? (s.m_blocks + s.cl - 1) / s.cl * s.n_blocks
                                         : s.m_blocks * ((s.n_blocks + s.cl - 1) / s.cl);
    s.clusters = max_clusters[kind];
    return s;
}

/* A candidate plan: a tile shape and how the pairs' k-tiles are cut among
 * the clusters:
 *  - SK_WHOLE ("dp"): whole pairs only, dealt out round robin (data-parallel);
 *  - SK_STREAM ("sk"): the pairs of the last, partial wave stream-K (all
 *    pairs, when there is less than a wave), the others whole;
 *  - SK_STREAM_WAVE ("skw"): the same with one full wave more stream-K;
 *  - SK_SPLIT ("splitW"): fewer pairs than clusters, each cut in W pieces. */
enum { SK_WHOLE, SK_STREAM, SK_STREAM_WAVE, SK_SPLIT, SK_MODES };
static const char *const sk_mode_name[SK_MODES] = {"dp", "sk", "skw", "split"};
typedef struct {
    int kind, mode, ways; /* ways: SK_SPLIT's pieces per pair */
    int share_a;          /* 1: pairs of N-neighbours sharing A ("RxC:MODE:A")
                             where C has 2 block rows or more (0: they share B);
                             2 (SK_SHARE_BOTH): a quad of 2 x 2 tiles sharing
                             both ("RxCq:MODE:AB"), where C has 2 block rows
                             and 2 block columns or more                        */
    int swap;             /* 1: tiles of C^T ("RxC:MODE[:A]:T"): sk_plan.swap;
                             then "A" and "B", rows and columns are C^T's       */
} sk_cand;

/* Are the plan's whole pairs claimed at run time? Where there are more than
 * two waves of them, each of more than SK_CLAIM_K_TILES k-tiles: each
 * cluster's first is its own index, the rest go to whichever cluster asks
 * first (v6's scheduler, kept in v7). Clusters do not run at one speed:
 * dealt out before the launch, many waves of long pairs left the last
 * cluster to finish 4-8% of the run after the mean one (H100,
 * plots/NOTES.md). The first wave of claims is made at the start, in no
 * useful order, so with two waves the claims even out nothing (and cost:
 * 11 of 13 such shapes ran 3-8% faster dealt out, one 1.6% slower, H100).
 * And a claim costs its pair about the same whatever the pair's length (the
 * readers' release of the slot, an atomic in L2, the posts to both CTAs, the
 * exit barrier), while what the claims even out grows with it. Dealt out,
 * pairs of 9-13 k-tiles ran 2-7% faster than claimed, of 14-31 0-3%, of
 * 32-40 level, and from 43 on the claims were 0-6% faster (H100, 39 shapes of
 * seeds 7001-7006); on 27 shapes of seeds 7011-7020 with 9-31 k-tiles, dealt
 * out took 0.979 (H100) and 0.977 (H200) of the claimed time. The stream-K
 * pieces are always dealt out: an owner waits for the contributors the plan
 * names. Not for 64-row tiles: their two consumers take turns on pieces, and
 * each steps over the other's by the plan (their registers had no room for
 * more). */
#define SK_CLAIM_K_TILES 32
static inline int sk_claims_of(const sk_plan *s)
{
    return !s->ways && s->bm == 128 && s->cl == 2 && s->pairs - s->sk_pairs > 2 * s->clusters &&
           s->k_tiles > SK_CLAIM_K_TILES;
}

/* Fills in the stream-K fields of s (shape fields set, s->sk_pairs and
 * s->ways chosen): iterations, and no cluster without work. */
static inline void sk_finish(sk_plan *s)
{
    s->sk_iters = (int64_t)s->sk_pairs * s->k_tiles;
    if (s->ways)
        s->clusters = s->pairs * s->ways;
    /* No more clusters than pairs, nor than iterations when all are
     * stream-K (then no range is empty). */
    if (s->sk_pairs == 0 && s->pairs < s->clusters)
        s->clusters = s->pairs;
    if (s->sk_pairs == s->pairs && s->sk_iters < s->clusters)
        s->clusters = (int)s->sk_iters;
    s->sk_per = s->sk_iters / s->clusters;
    s->sk_extra = (int)(s->sk_iters % s->clusters);
    s->claims = sk_claims_of(s);
}

/* The plan of candidate c for an M x N x K problem: 0, or -1 where c does
 * not apply (stream-K with no partial wave, one wave more with no full one,
 * split-K with a wave of pairs or more, or ways outside 2 .. min(clusters /
 * pairs, k-tiles, SK_WAYS_MAX); pairs sharing A asked for where C has one block row:
 * they share A anyway; a cluster of 8 not sharing both operands, not whole
 * or split-K, or with a box not a multiple of 8 rows; of 64-row tiles, whole
 * past one wave; a tile wider than 256 columns not in a pair sharing B). A
 * swapped candidate is planned on C^T, N x M. */
static inline int sk_plan_of(int M, int N, int K, const int max_clusters[SK_KINDS], sk_cand c,
                             sk_plan *out)
{
    if (c.kind < 0 || c.kind >= SK_KINDS || c.mode < 0 || c.mode >= SK_MODES)
        return -1;
    sk_plan s = c.swap ? sk_shape(N, M, c.kind, c.share_a, max_clusters)
                       : sk_shape(M, N, c.kind, c.share_a, max_clusters);
    s.swap = c.swap != 0;
    if (c.share_a && s.m_blocks < 2)
        return -1;
    if (c.share_a >= SK_SHARE_BOTH && (s.cl < 4 || s.n_blocks < 2))
        return -1;
    if (c.share_a == SK_SHARE_BOTH4 && s.cl != 8)
        return -1;
    if (s.cl == 8 && (c.share_a < SK_SHARE_BOTH || (c.mode != SK_WHOLE && c.mode != SK_SPLIT)))
        return -1;
    if (s.cl == 8 && (sk_box_rows_b(&s) % 8 || sk_box_rows_a(&s) % 8))
        return -1;
    if (s.cl == 8 && s.bm == 64 && c.mode == SK_WHOLE && s.pairs > s.clusters)
        return -1; /* one piece a CTA: v7's C slices for these tiles lie in its ring */
    if (s.bn > 256 && s.share_b != 1)
        return -1; /* a TMA box has at most 256 rows: B comes in halves, one a CTA */
    s.k_tiles = (K + s.bk - 1) / s.bk;
    s.ways = 0;
    s.sk_pairs = 0;
    const int waves = s.pairs / s.clusters, rem = s.pairs % s.clusters;
    if (c.mode == SK_STREAM) {
        if (rem == 0)
            return -1;
        s.sk_pairs = rem;
    } else if (c.mode == SK_STREAM_WAVE) {
        if (rem == 0 || waves == 0)
            return -1;
        s.sk_pairs = rem + s.clusters;
    } else if (c.mode == SK_SPLIT) {
        if (s.pairs >= s.clusters || c.ways < 2 || c.ways > s.clusters / s.pairs || c.ways > s.k_tiles ||
            c.ways > SK_WAYS_MAX)
            return -1;
        s.ways = c.ways;
        s.sk_pairs = s.pairs;
    }
    sk_finish(&s);
    *out = s;
    return 0;
}

/* A candidate by name, as V7_TILE takes it: "RxC" (a tile shape of sk_tile,
 * the decomposition left to the plan: mode -1) or "RxC:MODE[:A|:AB][:T]", MODE
 * one of dp, sk, skw, splitW (W >= 2), :A for pairs sharing A, :AB for quads
 * of 2 x 2 tiles sharing both, :T for tiles of C^T (the operands' roles
 * swapped). 0, or -1 for anything else. Host only. */
static inline int sk_cand_parse(const char *v, sk_cand *c)
{
    int r, col, n = 0;
    c->kind = c->mode = -1;
    c->ways = c->share_a = c->swap = 0;
    if (sscanf(v, "%dx%d%n", &r, &col, &n) != 2)
        return -1;
    const int cl = v[n] == 'q' ? 4 : v[n] == 'o' ? 8 : 2; /* "RxCq": a 4-CTA cluster's; "o": 8 */
    n += cl != 2;
    for (int i = 0; i < SK_KINDS; i++)
        if (sk_tile[i][0] == r && sk_tile[i][1] == col && sk_tile[i][2] == cl)
            c->kind = i;
    if (c->kind < 0)
        return -1;
    const char *m = v + n;
    if (!*m)
        return 0;
    if (*m++ != ':')
        return -1;
    char mode[16];
    const size_t len = strcspn(m, ":");
    if (len >= sizeof mode)
        return -1;
    memcpy(mode, m, len);
    mode[len] = 0;
    if (m[len]) { /* ":A", ":T" or ":A:T", and nothing more */
        const char *tail = m + len;
        if (!strncmp(tail, ":AB", 3))
            c->share_a = SK_SHARE_BOTH, tail += 3;
        else if (!strncmp(tail, ":BA", 3))
            c->share_a = SK_SHARE_BOTH4, tail += 3;
        else if (!strncmp(tail, ":A", 2))
            c->share_a = 1, tail += 2;
        if (!strcmp(tail, ":T"))
            c->swap = 1, tail += 2;
        if (*tail)
            return -1;
    }
    m = mode;
    for (int i = 0; i < SK_SPLIT; i++)
        if (!strcmp(m, sk_mode_name[i]))
            c->mode = i;
    if (c->mode < 0 && !strncmp(m, "split", 5)) {
        int w, k = 0;
        if (sscanf(m + 5, "%d%n", &w, &k) == 1 && !m[5 + k] && w >= 2 && m[5] >= '0' && m[5] <= '9') {
            c->mode = SK_SPLIT;
            c->ways = w;
        }
    }
    return c->mode < 0 ? -1 : 0;
}

/* Its name, the form sk_cand_parse reads. Host only. */
static inline void sk_cand_name(sk_cand c, char *buf, size_t n)
{
    if (c.mode == SK_SPLIT)
        snprintf(buf, n, "%dx%d%s:split%d%s%s", sk_tile[c.kind][0], sk_tile[c.kind][1],
                 sk_tile[c.kind][2] == 4 ? "q" : sk_tile[c.kind][2] == 8 ? "o" : "", c.ways, c.share_a == SK_SHARE_BOTH4 ? ":BA" : c.share_a == SK_SHARE_BOTH ? ":AB" : c.share_a ? ":A" : "",
                 c.swap ? ":T" : "");
    else
        snprintf(buf, n, "%dx%d%s:%s%s%s", sk_tile[c.kind][0], sk_tile[c.kind][1], sk_tile[c.kind][2] == 4 ? "q" : sk_tile[c.kind][2] == 8 ? "o" : "",
                 sk_mode_name[c.mode], c.share_a == SK_SHARE_BOTH4 ? ":BA" : c.share_a == SK_SHARE_BOTH ? ":AB" : c.share_a ? ":A" : "",
                 c.swap ? ":T" : "");
}

/* ---- the cost model: which candidate plan runs fastest -------------------
 *
 * For each candidate (tile shape x decomposition, sk_cand), a modelled time
 * in ns: a fixed cost per launch, then the busiest cluster's time, or the
 * DRAM's where that is longer (in effect: sk_overlap). A cluster's time
 * adds, for each piece of work it does, a cost per k-tile of its tile shape
 * (the MMAs of both CTAs and the stream of stages feeding them) and a cost
 * per piece (filling the ring, draining the accumulators through the
 * epilogue); and for split pairs the fixup: fp32 partials written and read
 * through L2 (per byte) and a wait per flag. Where stream-K ranges run side by side at staggered k-tiles,
 * their operands are read from DRAM again unless L2 holds what the ranges
 * between them read (sk_reread_bytes).
 * The constants (sk_model_sm90) are fitted to v7's measured times of every
 * candidate on a set of shapes (tools/calib.c on the GPU, tools/fit.c on the
 * CPU; plots/NOTES.md says how; the data is in plots/calib/). */
typedef struct {
    double k_tile[SK_KINDS]; /* ns per k-tile of a pair, by tile shape            */
    double piece[SK_KINDS];  /* ns per piece of work: ring fill, epilogue         */
    double launch;           /* ns per call: launch, set-up, the first loads      */
    double partial_byte;     /* ns per byte of a CTA's fp32 partial, written or read */
    double fixup;            /* ns per call with partials: the workspace, flags   */
    double flag;             /* ns per flag waited for                            */
    double gather;           /* ns per piece of a split-K pair: its flag and share gathered */
    double dram_eff;         /* the share of the DRAM's peak bandwidth reached    */
    double l2_eff;           /* the share of L2 that holds operands for reuse     */
    double overlap;          /* p of the p-norm of a phase's MMA and DRAM times   */
    double stream;           /* a stream-K phase's time, as a factor              */
} sk_model;

/* What a plan needs to know of the GPU. */
typedef struct {
    int max_clusters[SK_KINDS]; /* clusters of each kernel held at once        */
    double dram_bytes_per_ns;   /* peak DRAM bandwidth (GB/s)                 */
    double l2_bytes;
} sk_gpu;

/* Fitted to both GPUs at once (tools/fit.c over the CSVs in plots/calib/,
 * every candidate of 75 shapes and the fixed calibration set, measured on an
 * H100 SXM and an H200): first to the kernels as at the model's introduction
 * (rms log error 0.103); then, the 64-row tiles run in ping-pong and 64 x 256
 * added, their costs alone refitted (fit --kinds 2,4,5) to the kernels'
 * re-measurement of 2026-11-24, the other constants kept: rms log error
 * 0.116; the model's picks, among the tiles that fit (sk_tile_fits), run 0.985
 * of the fastest candidate measured, geometric mean. Then 128 x 192's two
 * costs alone (fit --kinds 6, plots/calib/tile192/): rms log error 0.118.
 * The widths in steps of 16 (kinds 7-15) are not fitted: their costs lie on
 * straight lines between those of the 128-row tiles 64, 128, 192 and 256
 * columns wide. Costs fitted to them alone lost to these on the shapes not
 * fitted to (plots/calib/fine/, plots/NOTES.md). Since, their kernels issue
 * one wgmma per k-step, not two (1.5-6% faster); refitted or scaled by that,
 * the picks were no better, so the costs stay (plots/calib/wide/). Last, the
 * p-norm of MMA and DRAM time (overlap, sk_overlap) in place of their maximum,
 * the other constants kept: on the H100's recorded calibration sets (80 fit
 * shapes, then 23, 20 and 30 of the worst of two random seeds) the rms log
 * error is unchanged to 3 digits (0.126 / 0.140 / 0.119 / 0.131) and the picks
 * run 0.937 / 0.960 / 0.932 / 0.939 of the fastest candidate, against 0.934 /
 * 0.960 / 0.918 / 0.929 (plots/calib/model/). Then, the k-tiles of 64 x 64
 * and 64 x 128 made 128 deep, their two costs alone (fit --kinds 2,4, per
 * k-tile of 128) to every candidate of the random fit set re-measured on
 * both GPUs (plots/calib/deep/): rms log error 0.133; the picks run 0.972
 * of the fastest candidate, 0.974 on the held-out set (with their costs
 * doubled and not refitted, 0.972 / 0.969). piece[4] fitted to 0: a 64 x 64
 * piece's epilogue is under the other consumer's MMAs. Then split-K's pieces
 * gathered their shares of the partials by bulk copies (2-25% faster calls);
 * split-K's per-piece cost, flag's until then, became a constant of its own
 * (gather), kept at flag's value: on the re-measured sets
 * (plots/calib/gather/) the model as it is picks 0.978 / 0.981 of the
 * fastest; gather refitted alone (to 0), or with fixup and the partials'
 * costs, lowered the rms log error from 0.165 to 0.122-0.130 but picked
 * split-K where it lost: 0.973-0.974 / 0.976-0.978. Then, no constant
 * changed, two terms (2026-11-25, plots/calib/all/ and reread/): pairs
 * sharing A priced below 1 where they load fewer bytes (sk_bytes_cost),
 * and re-reads counted from the stagger of the stream-K ranges, only of
 * operands that several pairs read and that outgrow half of L2
 * (sk_reread_bytes). On every candidate of the random sets, re-measured on
 * both GPUs, the picks run 0.965 / 0.968 of the fastest (fit / held-out
 * shapes), against 0.954 / 0.961; on the worst shapes of seeds 20261160 (H100
 * / H200) and 20261170 (H100), 0.959 / 0.973 / 0.937, against 0.947 / 0.971 /
 * 0.925; on those of seed 20261180 (H100, measured after the first forms were
 * chosen, then used to choose among four of the share read again), 0.906,
 * against 0.829. Last, 64 x 80, 64 x 96 and 64 x 112 (kinds 16-18), not
 * fitted: per 64 of K, their costs lie on the straight line between 64 x 64's
 * and 64 x 128's (2026-11-25, plots/calib/narrow/). On the 126 H100 shapes
 * of the recorded sets whose pick they changed, the new picks ran 0.962 of
 * the old picks' time (interleaved, geometric mean; 0.81-1.17). The same 7
 * widths at 64 rows from 144 to 240 columns, priced the same way, were not
 * kept: their candidates ran at most 0.7% faster than the fastest of the
 * other kinds on the random sets, and fitted or not, picking them ran no
 * faster. The 4-CTA clusters (kinds 19-25) cost their pairs' tiles' k_tile
 * and piece, no constant fitted to them: their k-tiles are priced by the
 * bytes a CTA asks L2 for, as a pair sharing A always was (sk_bytes_cost),
 * and only in one wave of whole tiles; elsewhere as their pairs. Fitted
 * alone (fit --kinds 19-25, plots/calib/cluster4/) their k-tiles came out at
 * 0.84-0.98 of the pairs', and the model then put 8192^3 and 4096^3 in
 * quads, measured 12% and 20% slower; so did k-tile costs refitted with an
 * L2 term, a power term or both (plots/NOTES.md, twenty-third session). On
 * held-out seeds, against the model without quads: 0.980 (H100) and 0.985
 * (H200) of the time, all shapes; 0.91 and 0.95 on the 13 each whose plan
 * changed (plots/calib/quads/). The clusters of 8 (kinds 27-38) likewise
 * cost their pairs' k_tile and piece, priced by their bytes, but no less
 * than their MMAs at the tensor cores' peak and 60 ns (sk_k_tile_floor; plots/calib/cl8/,
 * plots/calib/cl8waves/). Last, a stream-K phase's time times 1.08
 * (stream; measured over modelled time, stream-K plans ran 1.11-1.16 on the
 * sweeps, whole pairs 1.03-1.05): where it changed the plan, on shapes it was
 * not chosen on, 0.962 (H100, 33 shapes) and 0.964 (H200, 52) of the old
 * time, most of it where whole pairs replace a long stream-K phase
 * (plots/calib/pdl2/, plots/calib/sktax/). A split-K phase priced 7% cheaper
 * the same way ran 1.076 of the time where it changed the plan (H100, 18
 * shapes, mostly quads -> split-K), and was not kept. The 64-row clusters
 * of 8 (kinds 39-41) are priced the same way, by their bytes and floor, but
 * with k_tile and piece of their own (fit --kinds 39,40,41) fitted to their
 * forced one-wave runs of 10.5 us or more (H100, 10 shapes; rms log error
 * 0.035): a pair's k_tile, priced by these bytes, came out 10-25% short
 * (plots/calib/cl64/). Last, 128 x 288 (kind 42), not fitted: k_tile 735
 * ns and piece 2.8 us read off four of its whole-pair plans (5-32 k-tiles,
 * 1-14 waves; H100, 2026-11-26): per column its k-tile costs about 3% more
 * than 128 x 256's, and its epilogue has one C slice buffer a consumer.
 * On held-out shapes whose plan it changed, 0.936 (H100, 20 shapes) and
 * 0.951 (H200, 27) of the time of the plans before (plots/calib/wide288/). */
static const sk_model sk_model_sm90 = {
    {636.1, 400.1, 583.4, 355.7, 437.4, 443.4, 502.4, 366.8, 377.9, 389.0, 425.7, 451.2, 476.8, 535.8, 569.2, 602.7, 473.9, 510.4, 546.9, 636.1, 400.1, 502.4, 569.2, 451.2, 377.9, 355.7, 437.4, 366.8, 377.9, 389.0, 400.1, 425.7, 451.2, 476.8, 502.4, 535.8, 569.2, 602.7, 636.1, 475.7, 511.7, 587.0, 735.0}, /* k_tile: sk_tile's order */
    {2272.3, 1321.9, 182.4, 626.8, 0.0, 1512.6, 1784.1, 800.6, 974.4, 1148.1, 1437.5, 1553.0, 1668.5, 1906.2, 2028.2, 2150.2, 45.6, 91.2, 136.8, 2272.3, 1321.9, 1784.1, 2028.2, 1553.0, 974.4, 626.8, 0.0, 800.6, 974.4, 1148.1, 1321.9, 1437.5, 1553.0, 1668.5, 1784.1, 1906.2, 2028.2, 2150.2, 2272.3, 0.0, 0.0, 651.5, 2800.0}, /* piece */
    6039.1, 0.01096, 2786.4, 119.0, 119.0, 0.944, 1.000, 30.0, 1.08};

/* DRAM bytes of a plan's stream-K ranges beyond reading their operands
 * once. Ranges run side by side at staggered k-tiles (cluster p's starts
 * p * sk_per iterations in, anywhere in K), so an operand tile that two ranges
 * read comes from DRAM again unless L2 still holds it from the first visit:
 * unless the two ranges are within `near` of K of each other, where near is
 * the k-tiles that all clusters together stream while L2 (the part left to
 * operands) fills once. For two offsets spread evenly over K, the share of
 * visits farther apart is (1 - near)^2. Nothing is read again where all the
 * ranges read (their working set, at most the stream-K pairs' rows of A and
 * B) fits in L2; nor of an operand that one pair alone reads (A where C has
 * one block column, B one block row), nor of one that fits in half of L2:
 * its tiles come back too often to age out (296 x 4664 x 6296, 160 x 128
 * tiles of C^T, all stream-K: 49.0 us, the fastest candidate, H100; with its
 * 3.7 MB operand counted, the model put it at 64.5 and picked a plan of 62.7
 * us). Measured (H100, ncu / calib): 9176 x 152 x 4968 in 128 x 160 tiles,
 * one block column, read 99 MB from DRAM, the operands once; 1944 x 1192 x
 * 15360, 128 x 240, 474 MB, 377 MB again (here 549); 4176 x 1064 x 7040, 128 x 224, all 85 pairs stream-K: 163.7 us, where
 * the DRAM at 0.944 of its peak needs 75% of the stream-K bytes again (here
 * 78%). Until 2026-11-25 the share was 1 - room / working (here 30%). */
static inline double sk_reread_bytes(const sk_plan *s, int K, const sk_gpu *g, const sk_model *m)
{
    if (!s->sk_pairs || s->ways)
        return 0; /* split-K's pieces of a pair start together: read once */
    /* a pair's rows of A and of B, and the pairs that read each row block of
     * A, each column block of B */
    const int both = s->share_b >= SK_SHARE_BOTH; /* R x S */
    const int br = sk_both_rows(s->share_b, s->cl), bs = s->cl / br;
    const double pair_a = both ? (double)br * s->bm : s->share_b ? (double)s->cl * s->bm : s->bm;
    const double pair_b = both ? (double)bs * s->bn : s->share_b ? s->bn : (double)s->cl * s->bn;
    const int a_users = both ? (s->n_blocks + bs - 1) / bs : s->share_b ? s->n_blocks : (s->n_blocks + s->cl - 1) / s->cl;
    const int b_users = both ? (s->m_blocks + br - 1) / br : s->share_b ? (s->m_blocks + s->cl - 1) / s->cl : s->m_blocks;
    const double iter_bytes = (pair_a + pair_b) * s->bk * 2; /* a pair's k-tile */
    const double all_rows = (double)s->m_blocks * s->bm + (double)s->n_blocks * s->bn;
    const double pair_rows = both ? all_rows
                             : s->share_b ? (double)s->m_blocks * s->bm + s->bn * (double)s->cl * s->sk_pairs
                                          : (double)s->n_blocks * s->bn + s->bm * (double)s->cl * s->sk_pairs;
    const double footprint = (pair_rows < all_rows ? pair_rows : all_rows) * (double)K * 2;
    const double streamed = (double)s->sk_iters * iter_bytes;
    const double room = m->l2_eff * g->l2_bytes;
    if ((streamed < footprint ? streamed : footprint) <= room)
        return 0.0; /* the working set fits */
    const int a_hot = (double)s->m_blocks * s->bm * K * 2 <= room / 2,
              b_hot = (double)s->n_blocks * s->bn * K * 2 <= room / 2;
    const double again = ((a_users > 1 && !a_hot ? pair_a : 0) + (b_users > 1 && !b_hot ? pair_b : 0)) * s->bk * 2;
    const double near = room / (s->clusters * iter_bytes) / s->k_tiles; /* share of K */
    return near < 1 ? (double)s->sk_iters * again * (1 - near) * (1 - near) : 0.0;
}

/* Bytes a CTA asks L2 for a k-tile: its own tile of one operand and its
 * share (1 / cl) of the one the cluster shares, which the TMA multicasts to
 * the others; in a 2 x 2 quad half of each. 128 x 256 sharing B: 32 KB,
 * sharing A 40; 128 x 96 sharing A 20 KB, sharing B 22; a quad's 128 x 192
 * sharing B 22 KB against a pair's 28; 64 x 64 (128 deep) 16 KB in 2 x 2,
 * 24 in a pair. */
static inline double sk_cta_bytes(const sk_plan *s, int cl, int share_b)
{
    const int br = sk_both_rows(share_b, cl);
    const double a = share_b >= SK_SHARE_BOTH ? (double)br / cl : share_b ? 1.0 : 1.0 / cl; /* shares of the tiles */
    const double b = share_b >= SK_SHARE_BOTH ? 1.0 / br : share_b ? 1.0 / cl : 1.0;
    return (a * s->bm + b * s->bn) * s->bk * 2;
}

/* A k-tile's cost relative to k_tile, which was measured on pairs sharing B
 * (sharing A where C has one block row): as the bytes a CTA asks L2 for.
 * The k-tiles of the tile shapes run at about one rate of those bytes (50-59
 * B/ns a CTA on an H100, all but 128 x 256), so a pair sharing A where that
 * loads fewer bytes runs faster (1840 x 544 x 1248 in 128 x 96 tiles: 11.2
 * us sharing A, 14.3 sharing B, H100, plots/calib/gather/), and so does a
 * quad, whose CTAs each ask for a quarter of the shared operand (1880 x
 * 1304 x 3528 in 128 x 192 tiles, one wave: 33.4 us in quads, 39.6 in
 * pairs), but only in a single wave of whole tiles (busy > 0): past one
 * wave a quad's k-tile took no less than its pair's (8192^3 in 128 x 256:
 * about 818 ns a k-tile in quads, 760 in pairs, at the board's power cap;
 * H100, plots/calib/cluster4/), and quads cut into stream-K or split-K
 * pieces ran slower than the model's pairs on 9 of the 15 such shapes of
 * seeds 20261320 and 20261330, by up to 15% (plots/calib/quads/). Elsewhere
 * a quad is priced as its pair. A cluster of 8 is priced by its bytes past
 * one wave and in split-K's wave too (its floor, sk_k_tile_floor, keeps it from the quads' 8192^3:
 * 128 x 256 is priced at its pair's k-tile): over 2-5 waves its k-tiles
 * took 0.68 (128 x 80) to 1.07 (128 x 192) of the k_tile its pair is priced
 * at (plots/calib/cl8waves/ktile_fit.py; 12128 x 400 x 2184, forced in 128
 * x 112: 50 us against 55 for the plan of 192 x 128 pairs, plots/calib/cl8/).
 * And in a wave that leaves SMs idle, a quad
 * gains less: its price moves from its pair's toward its own bytes' by the
 * share of the GPU's SMs the wave's CTAs fill (`busy`), for the rate of bytes
 * is what L2 gives CTAs that all ask at once. 64 x 64 in quads of 2 x 2
 * (a third fewer bytes than pairs) on an H100, v7 against its plan without
 * them, three rounds: 0.87-0.95 of the time where the quads filled half of
 * the SMs or more and the other plan used about as many (248 x 1328 x 1848:
 * 88 CTAs, 10.9 us against 12.3, 0.78 of the main loop, as this prices it);
 * 1.02-1.09 against split-K plans on three to seven times the SMs (512 x 200
 * x 2384: 32 CTAs against 120; 416 x 88 x 1848: 16 against 112). */
static inline double sk_bytes_cost(const sk_plan *s, double busy)
{
    const double ref = sk_cta_bytes(s, 2, s->m_blocks >= 2);
    const double pair = sk_cta_bytes(s, 2, s->share_b >= SK_SHARE_BOTH ? 1 : s->share_b) / ref;
    if (s->cl < 4 || busy <= 0)
        return pair;
    const double quad = sk_cta_bytes(s, s->cl, s->share_b) / ref;
    return s->share_b >= SK_SHARE_BOTH ? pair - (busy < 1 ? busy : 1) * (pair - quad) : quad;
}
/* The least a k-tile of a cluster of 8 takes: its MMAs at the tensor
 * cores' peak plus SK_CL8_K_TILE_EXTRA, and no less than its MMAs at the
 * rate of 128 x 256's k-tile, the one tile shape the MMAs bound (k_tile[0],
 * 636 ns for 128 x 256 x 64). The peak: 2048 fp16 FMA a cycle per SM, so
 * 128 x 256 x 64 in 1024 cycles, 517 ns at 1980 MHz (SK_MMA_PEAK_NS). The
 * bytes price (sk_bytes_cost) puts a cluster of 8 below this: its CTAs ask
 * L2 for half a pair's bytes or less. Measured (H100, plans of 40 or more
 * k-tiles, the per-call and per-piece costs taken off; ktile_fit.py in
 * plots/calib/cl8waves/): 35 plans of clusters of 8 over 2 to 5 waves took
 * 45-148 ns a k-tile over the peak, median 74, at every width from 80 to
 * 208 (128 x 80: 82-91; three of 128 x 192 in 4 x 2: 112-148); 4 of one
 * wave 49-93. So the k-tile is not its bytes' at L2's rate but its MMAs'
 * and a fixed cost per stage (the stage's round trip through the cluster's
 * barriers). Of 50, 60 and 70 ns (or 50 in one wave and 73 past it), 60
 * picked best on the 74 shapes timed both ways (0.921 of the time of the
 * plan before, against 0.925-0.928; the worst 1.10, against 1.04-1.22).
 * Until 2026-11-26 the floor was 636 ns a 128 x 256 x 64 and at least 210
 * ns. Applied to the clusters of 8 only: the pairs' and quads' costs were
 * measured as they are. */
#define SK_MMA_PEAK_NS 517.2
#define SK_CL8_K_TILE_EXTRA 60.0
static inline double sk_k_tile_floor(const sk_plan *s, const sk_model *m)
{
    if (s->cl != 8)
        return 0;
    const double r = ((double)s->bm * s->bn * s->bk) / (128.0 * 256 * 64); /* of 128 x 256 x 64 */
    const double mma = m->k_tile[0] * r, peak = SK_CL8_K_TILE_EXTRA + SK_MMA_PEAK_NS * r;
    return mma > peak ? mma : peak;
}

/* A phase's time from its MMAs' time and its DRAM bytes' time: the p-norm
 * of the two, p = m->overlap (30). That is the longer, unless the two are
 * close: 2.3% more than either where they are equal, 0.14% where one is 0.9
 * of the other. As a plain maximum, every candidate whose DRAM time is the
 * longer cost the same, and the first of them was picked whatever its MMAs
 * cost (96 x 15232 x 1072: 128 x 128 tiles, 19.1 us, where 96 x 128 tiles of
 * C^T take 15.8; H100). The p-norm picks the one with the least MMA time among
 * them. A p of 8 picked as well on recorded calibration sets but moved the
 * H200's picks for 16 .. 64 x 8192 x 8192 to split-K, 8-13% slower. */
static inline double sk_overlap(double mma, double dram, const sk_model *m)
{
    const double hi = mma > dram ? mma : dram, lo = mma > dram ? dram : mma;
    return hi <= 0 ? 0 : hi * pow(1 + pow(lo / hi, m->overlap), 1 / m->overlap);
}

/* The modelled time of plan s, in ns: the whole pairs' waves, then the
 * stream-K or split-K pieces, each phase as long as its busiest cluster or
 * its DRAM bytes take, whichever is longer (sk_overlap). Where mma and dram
 * are not NULL, the two summed over the phases, before the overlap. */
static inline double sk_model_ns_of(const sk_plan *s, int M, int N, int K, const sk_gpu *g,
                                    const sk_model *m, double *mma, double *dram)
{
    const double kt = s->k_tiles, tp = m->piece[s->kind];
    const double part = m->partial_byte * (double)s->bm * s->bn * 4; /* one CTA's partial */
    const double bw = g->dram_bytes_per_ns * m->dram_eff;
    const double once = 2.0 * ((double)M * K + (double)N * K + (double)M * N) / s->pairs; /* per pair */
    const int whole = s->pairs - s->sk_pairs;
    const int waves = (whole + s->clusters - 1) / s->clusters;
    const double sms = 2.0 * g->max_clusters[0]; /* a wave of pairs fills the SMs */
    const double busy = sms > 0 && (s->cl == 8 || (waves <= 1 && !s->sk_pairs)) ? s->cl * s->clusters / sms : 0;
    const double tb = m->k_tile[s->kind] * sk_bytes_cost(s, busy), floor = sk_k_tile_floor(s, m);
    const double tk = tb > floor ? tb : floor;
    double t_whole = waves * (kt * tk + tp), t_split = 0;
    const double d_whole = once * whole / bw;
    const double mma_whole = t_whole;
    t_whole = sk_overlap(t_whole, d_whole, m);
    if (s->ways) { /* split-K: one piece each; write, wait for all, add 1/ways of each */
        t_split = (int)((kt + s->ways - 1) / s->ways) * tk + tp + 2 * part + s->ways * m->gather;
    } else if (s->sk_pairs) {
        /* A range: sk_pairs / clusters pairs' k-tiles, touching one pair more;
         * an owner adds the partials of the clusters / sk_pairs ranges (at
         * least one) that share its pair. Neither depends on K: a longer K
         * never costs less. */
        const double per = (double)((s->sk_iters + s->clusters - 1) / s->clusters);
        const double share = (double)s->sk_pairs / s->clusters;
        const double pieces = share + 1;
        const double added = share > 1 ? 1 : 1 / share;
        t_split = (per * tk + pieces * tp + (1 + added) * (part + m->flag)) * m->stream;
    }
    const double d_split = (once * s->sk_pairs + sk_reread_bytes(s, K, g, m)) / bw;
    if (mma)
        *mma = mma_whole + t_split;
    if (dram)
        *dram = d_whole + d_split;
    t_split = sk_overlap(t_split, d_split, m);
    return m->launch + (s->sk_pairs ? m->fixup : 0) + t_whole + t_split;
}

static inline double sk_model_ns(const sk_plan *s, int M, int N, int K, const sk_gpu *g,
                                 const sk_model *m)
{
    return sk_model_ns_of(s, M, N, K, g, m, NULL, NULL);
}

/* Does plan s stream its operands from DRAM: is its modelled DRAM time
 * longer than its MMAs'? v7 then asks its A and B tensor maps for the
 * earlier steps' L2 promotion (tmap_promotion: 256 bytes on 32-byte aligned
 * rows), else for 128 bytes, a box row's own. A 256-byte fill brings the
 * next k-tile's bytes of the row with it: where DRAM sets the pace that
 * paid (16 x 8192 x 8192, H200: 0.827 of cuBLAS with 256, 0.800-0.805 with
 * 128; plots/NOTES.md, "What limits it"); where the operands are read from
 * L2 again and again, 128 ran faster (H100: 1512 x 1408 x 8400, 128 x 240
 * tiles, 70.8 / 71.8 -> 64.3 / 65.0 us; 3576 x 184 x 1488, 64 x 96, 13.4 /
 * 13.3 -> 12.2 / 12.3 us; plots/NOTES.md, eighteenth session). */
static inline int sk_streams_dram(const sk_plan *s, int M, int N, int K, const sk_gpu *g, const sk_model *m)
{
    double mma, dram;
    sk_model_ns_of(s, M, N, K, g, m, &mma, &dram);
    return dram > mma;
}

/* Is tile shape k worth modelling for M x N? Not where it reaches past the
 * edge by as much as it covers (at least twice M's rows or N's columns) while
 * a shape of fewer rows (columns) exists: the half past the edge still takes
 * its share of every stage and, for columns, of every MMA, which the model's
 * per-k-tile costs, measured on full tiles, do not see (8192 x 64 x 8192 on
 * an H100: 64 x 128 tiles 0.61 of cuBLAS, 128 x 64 split in 2 0.96). */
static inline int sk_tile_fits_among(int k, int M, int N, int kinds) /* shapes 0 .. kinds - 1 */
{
    for (int j = 0; j < kinds; j++)
        if ((sk_tile[j][0] < sk_tile[k][0] && sk_tile[k][0] >= 2 * M) ||
            (sk_tile[j][1] < sk_tile[k][1] && sk_tile[k][1] >= 2 * N))
            return 0;
    return 1;
}
static inline int sk_tile_fits(int k, int M, int N) { return sk_tile_fits_among(k, M, N, SK_KINDS); }

/* Calls f(cand, plan, arg) for every candidate that applies to the shape:
 * tiles of C, then of C^T (swap); each tile shape that fits (sk_tile_fits,
 * on C^T's rows and columns for the swapped ones; only `kind` when kind >=
 * 0, in the ways round it fits, or as tiles of C where it fits neither way),
 * its pairs sharing B, then sharing A, each whole-pair, stream-K, stream-K
 * with one wave more, and split-K in every number of ways that fits. But 64 x
 * 64's quads only as 2 x 2 tiles, whole, in one wave that leaves a fifth of
 * the quads' slots free (24 of 30 on an H100), so on some shapes none: on
 * held-out shapes (H100 and H200, three rounds each, plots/NOTES.md), those of
 * 25-30 quads ran 0.95-1.17 of the time of the plan without them, half of
 * them 4-17% slower (1816 x 168 x 1448: 1.06 / 1.17; 288 x 1048 x 3600: 1.10
 * / 1.10); those of fewer 0.87-1.07, most of them faster. Quads of 2 x 2 tiles
 * of the other shapes, which V7_TILE can force (":AB"), are not candidates:
 * on an H100, 128 x 64 ran 1.03-1.07 of the time (3 shapes), 128 x 96 1.07
 * (1024^3) and 64 x 128 1.01-1.13 (3). Clusters of 8 only as 2 x 4 or 4 x
 * 2 tiles, whole or split-K; of 128-row tiles, where their CTAs fill 2/3 of
 * the SMs or more (11 to 15 clusters of the 15 an H100 holds, or more than
 * one wave): on an H100,
 * forced, one wave of 14-15 ran 0.77-0.90 of the model's plan without them
 * (4 shapes), waves of 6-10 clusters 1.00-1.19 (4 shapes); on held-out
 * shapes whose plan the rule's 2/3, not 4/5, changed (all to 11-13
 * clusters), 0.914 (H100, 44 shapes, 1 slower by 2% or more) and 0.949
 * (H200, 43, 5 slower: 312 x 3056 x 12432 1.087) of the time (2936 x 320 x
 * 7344: 42.6 -> 33.7 us, H100; plots/calib/fill23/); past one wave,
 * priced by their bytes and floor (sk_k_tile_floor), the plans that chose
 * them ran 0.926 (H100, 34 shapes) and 0.966 (H200, 31) of the time of the
 * plans before, on held-out shapes (plots/calib/cl8waves/); split-K in one
 * wave, priced by their bytes as a whole wave is, 0.957 (H100, 25 shapes)
 * and 0.977 (H200, the same 25) where they changed the plan, on held-out
 * shapes (plots/calib/cl8split/); not stream-K (not tried); 64-row tiles
 * on any number of SMs (on held-out shapes whose plan that changed, all to
 * 12-13 clusters, 0.878 (H100, 18 shapes) and 0.907 (H200, 14) of the time
 * of the plan under the 4/5 rule, none slower by 2% or more: 80 x 4032 x 3064
 * in 64 x 80, 21.2 -> 15.3 us, H100; plots/calib/cring/), but whole and in
 * one wave only (on 44 held-out shapes whose plan they changed,
 * H100 / H200: whole tiles in one wave 0.912 / 0.931 of the time of the plan
 * without them; split-K 0.980 / 0.998, up to 1.11 slower: plots/calib/cl64/),
 * and not where a 64 x 64 quad is a candidate (against the quad they ran
 * 0.99-1.13 of the time on 9 shapes, H100: a quad's CTAs already ask L2 for
 * half of each operand, and in clusters of 8 every stage waits for 8 CTAs);
 * and whose tiles cover no more than 4/3 of C: the
 * model prices every CTA of a wave alike, padding or not, and of 33 plans
 * of clusters of 8 it picked (H100), those padding C by 1.38-1.85 ran 0.83-1.08
 * of the time without them, those padding it less 0.65-1.01
 * (plots/calib/cl8/). 64-row tiles are held to 4/3 of C with its 64-row side
 * rounded up to 128 (sk_cover_base: 96 x 3536 x 2648, 64 x 64 in 2 x 4, 17.2 ->
 * 13.0 us, H100); on 40 held-out shapes each whose plan that changed, 0.949
 * (H100) and 0.969 (H200) of the time against 4/3 of C itself, 8 and 10 of
 * them slower by 2-15% (80 x 5352 x 2432 in 64 x 96: 1.145, H200;
 * plots/calib/cl64/). */
static inline int sk_only_both(int kind) /* 64 x 64q: 2 x 2 tiles, whole, one wave of 4/5 */
{
    return sk_tile[kind][0] == 64 && sk_tile[kind][2] == 4;
}
static inline int sk_only_both_wave(const sk_plan *s, const sk_gpu *g) /* ... of its 4/5 */
{
    return 5 * s->pairs <= 4 * g->max_clusters[s->kind];
}
/* The area of C its clusters' tiles cover, padding included: every pair
 * (sk_shape) is cl tiles. */
static inline int64_t sk_cover(const sk_plan *s)
{
    return (int64_t)s->pairs * s->cl * s->bm * s->bn;
}

/* What a cluster of 8's cover is held to 4/3 of: C; for 64-row tiles, C
 * with its side along the tiles' rows (C^T's rows where swapped) rounded up
 * to 128, as the 64-row pairs sharing B cover it too. */
static inline int64_t sk_cover_base(const sk_plan *s, int M, int N)
{
    const int64_t rows = s->swap ? N : M, cols = s->swap ? M : N;
    return s->bm == 64 ? (rows + 127) / 128 * 128 * cols : rows * cols;
}

/* Tile shapes with no candidate on some shapes (the 64 x 64 quads', the
 * clusters of 8: their one-wave rules; past 256 columns: pairs sharing B
 * only, so C needs two block rows). */
static inline int sk_kind_may_have_none(int kind)
{
    return sk_only_both(kind) || sk_tile[kind][2] == 8 || sk_tile[kind][1] > 256;
}
/* Is a 64 x 64 quad a candidate for M x N x K (sk_only_both's one wave)? */
static inline int sk_quad64_applies(int M, int N, int K, const sk_gpu *g)
{
    for (int k = 0; k < SK_KINDS; k++)
        for (int swap = 0; swap < 2 && sk_only_both(k); swap++) {
            const sk_cand c = {k, SK_WHOLE, 0, SK_SHARE_BOTH, swap};
            sk_plan s;
            if (sk_tile_fits(k, swap ? N : M, swap ? M : N) && sk_plan_of(M, N, K, g->max_clusters, c, &s) == 0 &&
                sk_only_both_wave(&s, g))
                return 1;
        }
    return 0;
}
static inline void sk_each_cand(int M, int N, int K, const sk_gpu *g, int kind,
                                void (*f)(sk_cand, const sk_plan *, void *), void *arg)
{
    const int quad64 = sk_quad64_applies(M, N, K, g);
    for (int swap = 0; swap < 2; swap++)
        for (int k = 0; k < SK_KINDS; k++) {
            const int fits = sk_tile_fits(k, swap ? N : M, swap ? M : N);
            if (kind >= 0 ? k != kind || (!fits && (swap || sk_tile_fits(k, N, M))) : !fits)
                continue;
            const int only_both = sk_only_both(k), eight = sk_tile[k][2] == 8;
            for (int share_a = only_both || eight ? SK_SHARE_BOTH : 0;
                 share_a <= (eight ? SK_SHARE_BOTH4 : only_both ? SK_SHARE_BOTH : 1); share_a++)
                for (int mode = 0; mode < (only_both ? SK_WHOLE + 1 : SK_MODES); mode++) { /* of 8: whole or split-K, sk_plan_of */
                    const int most = mode == SK_SPLIT ? g->max_clusters[k] : 0;
                    for (int w = mode == SK_SPLIT ? 2 : 0; w <= most; w++) {
                        const sk_cand c = {k, mode, w, share_a, swap};
                        sk_plan s;
                        if (sk_plan_of(M, N, K, g->max_clusters, c, &s) == 0) {
                            if ((!only_both || sk_only_both_wave(&s, g)) &&
                                (!eight || (3 * sk_cover(&s) <= 4 * sk_cover_base(&s, M, N) &&
                                            (sk_tile[k][0] == 128
                                                 ? 3 * s.cl * s.clusters >= 2 * 2 * g->max_clusters[0]
                                                 : mode == SK_WHOLE && !quad64)))) /* one wave: sk_plan_of */
                                f(c, &s, arg);
                        } else if (mode == SK_SPLIT)
                            break; /* more ways do not fit either */
                    }
                }
        }
}

/* Candidates the model prices alike: within SK_TIE of the least modelled
 * time (in effect equal: only rounding apart). Most such ties are plans
 * that differ in which operand a pair multicasts, in tiling C or C^T, or in
 * how many pairs stick out past C's edge within the same wave: the model
 * charges waves, and every plan reads each operand once. Among them the pick
 * is not a quad cut in stream-K or split-K pieces where a pair ties with it
 * (priced as the pair, such quads ran slower on 9 of 15 shapes: see
 * sk_bytes_cost; 5056 x 160 x 3360 in 128 x 160, split in 2: 0.92 of the
 * quads' time on an H100), then has the fewest pairs (the least padding:
 * fewer CTAs, fewer bytes through L2; and quads over pairs in whole waves:
 * 224 x 128 tiles of C^T at 1304 x 4856 x 408, two waves, ran 1.03-1.06 of
 * the time in pairs), then multicasts the larger operand (A where M > N,
 * else B): the one streamed from DRAM, which a pair then asks L2 for half as
 * often. On the recorded calibration sets (plots/NOTES.md) the picks went
 * from 0.937 / 0.960 / 0.932 / 0.939 (H100) and 0.948 / 0.957 / 0.980 / 0.957
 * (H200) of the fastest candidate to 0.958 / 0.961 / 0.953 / 0.956 and
 * 0.959 / 0.964 / 0.980 / 0.964. */
#define SK_TIE 1e-9
static inline int sk_tie_better(const sk_plan *a, const sk_plan *b, int M, int N)
{
    if (a->cl != b->cl && (a->sk_pairs || b->sk_pairs)) /* a quad cut in pieces: priced as */
        return a->cl < b->cl;                           /* its pair, and ran slower        */
    if (a->pairs != b->pairs)
        return a->pairs < b->pairs;
    const int a_larger = M > N; /* the kernel's B is A when swapped: */
    const int a_shares = a->share_b == SK_SHARE_BOTH || (a->share_b == a->swap) == a_larger,
              b_shares = b->share_b == SK_SHARE_BOTH || (b->share_b == b->swap) == a_larger;
    return a_shares > b_shares;
}

/* Is a candidate of modelled time t better than the best so far, of time
 * best_t: less time, or tied (SK_TIE) and sk_tie_better? */
static inline int sk_better(double t, const sk_plan *s, double best_t, const sk_plan *best, int M, int N)
{
    if (t < best_t * (1 - SK_TIE))
        return 1;
    return t <= best_t * (1 + SK_TIE) && sk_tie_better(s, best, M, N);
}

typedef struct {
    int M, N, K;
    const sk_gpu *g;
    const sk_model *m;
    double best_ns;
    sk_plan best;
} sk_choice;

static inline void sk_consider(sk_cand c, const sk_plan *s, void *arg)
{
    sk_choice *ch = (sk_choice *)arg;
    const double t = sk_model_ns(s, ch->M, ch->N, ch->K, ch->g, ch->m);
    (void)c;
    if (sk_better(t, s, ch->best_ns, &ch->best, ch->M, ch->N)) { /* else the first: the larger tile */
        ch->best_ns = t < ch->best_ns ? t : ch->best_ns;
        ch->best = *s;
    }
}

/* The plan for an M x N x K problem: the candidate of least modelled time
 * (of tile shape `kind` only, when kind >= 0: V7_TILE), ties broken by
 * sk_tie_better; clusters = 0 where the shape has none (only 64 x 64q). */
static inline sk_plan sk_plan_make(int M, int N, int K, const sk_gpu *g, const sk_model *m, int kind)
{
    sk_choice ch;
    memset(&ch, 0, sizeof ch);
    ch.M = M, ch.N = N, ch.K = K, ch.g = g, ch.m = m;
    ch.best_ns = 1e300;
    sk_each_cand(M, N, K, g, kind, sk_consider, &ch);
    return ch.best;
}

/* The plan v7 runs: candidate `forced` where its mode is set (V7_TILE with a
 * decomposition), else the model's choice (of tile shape forced.kind when
 * that is set). 0, or -1 where the forced candidate does not apply. */
static inline int sk_plan_pick(int M, int N, int K, const sk_gpu *g, const sk_model *m, sk_cand forced,
                               sk_plan *out)
{
    if (forced.mode >= 0)
        return sk_plan_of(M, N, K, g->max_clusters, forced, out);
    *out = sk_plan_make(M, N, K, g, m, forced.kind);
    return out->clusters > 0 ? 0 : -1;
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

/* The kernel's view: worked out once, by sk_finish (a division the
 * producer's 40 registers have no room for). */
static inline SK_HD int sk_claims(const sk_plan *s)
{
    return s->claims;
}

/* How many whole pairs the plan deals out to cluster p (round robin). */
static inline SK_HD int sk_whole_of(const sk_plan *s, int p)
{
    const int whole = s->ways ? 0 : s->pairs - s->sk_pairs;
    return p < whole ? (whole - p + s->clusters - 1) / s->clusters : 0;
}

/* The i-th piece of work of cluster p (i = 0, 1, ..) as the plan deals it
 * out: its whole pairs, round robin, then its stream-K pieces (split-K: its
 * one piece); pair = -1 when it has no more. Every role of every CTA works
 * it out alike. Where sk_claims, the kernel claims the whole pairs instead
 * and takes only the stream-K pieces from here (sk_piece); the deal is what
 * the cost model prices (the claims only even out the clusters' speeds). */
static inline SK_HD sk_work sk_work_of(const sk_plan *s, int p, int i)
{
    if (s->ways) { /* piece l of pair u: k-tiles l k / ways .. (l + 1) k / ways - 1 */
        const int u = p / s->ways, l = p - u * s->ways;
        const sk_work w = {i == 0 ? u : -1, (int)((int64_t)l * s->k_tiles / s->ways),
                           (int)((int64_t)(l + 1) * s->k_tiles / s->ways)};
        return w;
    }
    const int mine = sk_whole_of(s, p);
    if (i < mine) {
        const sk_work w = {p + i * s->clusters, 0, s->k_tiles};
        return w;
    }
    return sk_piece(s, p, i - mine);
}

/* sk_work_of for a plan of whole pairs only (no stream-K pair, no split-K),
 * as the kernel instance for such plans (WHOLE) works it out: the deal is
 * round robin, so pair p + i clusters while there is one; no division, and
 * none of sk_piece's code in the instance (a small call's roles work their
 * first piece out before their first copy or MMA). */
static inline SK_HD sk_work sk_whole_work_of(const sk_plan *s, int p, int i)
{
    const int pair = p + i * s->clusters;
    const sk_work w = {pair < s->pairs ? pair : -1, 0, s->k_tiles};
    return w;
}

/* The order the plan's pairs run in, which the kernel and `make plan` both
 * walk: v4's tile order over pairs (2 M-blocks x 1 N-block when they share
 * B, else 1 x 2), its group width worked out from K and the L2 size
 * (tile_order_width) unless `width` > 0 fixes it. Host only. */
static inline tile_map sk_pair_order(const sk_plan *s, int K, int64_t l2_bytes, int width)
{
    if (s->share_b >= SK_SHARE_BOTH) {
        const int r = sk_both_rows(s->share_b, s->cl), c = s->cl / r;
        return tile_map_make((s->m_blocks + r - 1) / r, (s->n_blocks + c - 1) / c,
                             width > 0 ? width : tile_order_width(K, c * s->bn, l2_bytes));
    }
    if (width <= 0)
        width = tile_order_width(K, s->share_b ? s->bn : s->cl * s->bn, l2_bytes);
    return s->share_b ? tile_map_make((s->m_blocks + s->cl - 1) / s->cl, s->n_blocks, width)
                      : tile_map_make(s->m_blocks, (s->n_blocks + s->cl - 1) / s->cl, width);
}

/* The plan in one line: what `V7_PLAN=1 ./v7 M N K` prints on a GPU, and
 * `make plan` on the CPU. Host only. */
static inline void sk_plan_describe(const sk_plan *s, int M, int N, int K, char *buf, size_t n)
{
    snprintf(buf, n,
             "%d x %d x %d: tiles %d x %d%s, pairs share %s, %d pairs of %d k-tiles (%d deep) on %d clusters, "
             "%d stream-K (%lld iterations per cluster), %d whole%s%s",
             M, N, K, s->swap ? s->bn : s->bm, s->swap ? s->bm : s->bn, s->swap ? " (swapped: C^T in its tiles)" : "",
             s->share_b == SK_SHARE_BOTH4 ? "A and B (4 x 2)" : s->share_b == SK_SHARE_BOTH ? (s->cl == 8 ? "A and B (2 x 4)" : "A and B (2 x 2)") : s->share_b != s->swap ? "B" : "A", s->pairs,
             s->k_tiles, s->bk, s->clusters, s->sk_pairs,
             (long long)(s->sk_iters / s->clusters), s->pairs - s->sk_pairs, s->ways ? ", split-K" : "",
             s->cl == 8 ? ", clusters of 8" : s->cl == 4 ? ", clusters of 4" : "");
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
