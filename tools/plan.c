/* v7's work plan for an M x N x K problem, worked out on the CPU: no GPU needed.
 *
 *   make plan SIZE="M N K" [CLUSTERS=66] [DRAM=3352]
 *   build/tools/plan M N K [clusters [l2_bytes [dram_gbps]]]
 *
 * Prints every candidate plan with its modelled time (common/stream_k.h's
 * cost model), then the line `V7_PLAN=1 ./v7 M N K` prints (the candidate
 * of least time) on a GPU that holds `clusters` 2-CTA clusters of every v7
 * kernel at once (66 on an H100 SXM or an H200: 132 SMs; fewer on a GPU with
 * fewer SMs) and whose DRAM peaks at dram_gbps GB/s (3352 on an H100 SXM,
 * 4800 on an H200), then the waves, and what each
 * cluster does: its whole pairs, then its stream-K or split-K pieces (pair,
 * its two tiles' block coordinates, k-tiles), for the first clusters and the
 * last. V7_TILE forces a tile shape or a candidate, as it does for v7
 * (e.g. V7_TILE=64x64:dp); one that does not apply is an error. The model
 * and the plan are common/stream_k.h's, the pair order
 * common/tile_order.h's (its group width depends on the L2 size: 50 MiB by
 * default, as on both GPUs here). */
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <limits.h>
#include <string.h>
#include "../common/stream_k.h"
#include "../common/tmap.h"

static int arg(const char *s, const char *what, long long lo, long long hi, long long *v)
{
    char *end;
    errno = 0;
    const long long x = strtoll(s, &end, 10);
    if (errno || end == s || *end || x < lo || x > hi) {
        fprintf(stderr, "plan: error: %s must be an integer in %lld .. %lld, not '%s'\n", what, lo,
                hi, s);
        return -1;
    }
    *v = x;
    return 0;
}

/* One piece: pair u, its tiles (2, or 4 in a quad), k-tiles kb .. ke - 1. */
static void piece(const sk_plan *s, const tile_map *pairs, sk_work w)
{
    printf(" pair %d [tiles", w.pair);
    for (int r = 0; r < s->cl; r++) {
        int m, n;
        tile_map_group_coord(pairs, w.pair, r, s->share_b, s->cl, &m, &n);
        printf(" (%d,%d)", m, n);
    }
    printf("] k %d..%d;", w.kb, w.ke - 1);
}

static void cluster(const sk_plan *s, const tile_map *pairs, int p)
{
    long long iters = 0;
    int whole = 0, i;
    sk_work w;
    printf("cluster %3d:", p);
    for (i = 0; (w = sk_work_of(s, p, i)).pair >= 0; i++) {
        iters += w.ke - w.kb;
        if (w.kb == 0 && w.ke == s->k_tiles && !s->ways) { /* a whole pair: listed by index */
            printf("%s%d", whole++ ? " " : " whole pairs ", w.pair);
            continue;
        }
        if (whole) printf(";");
        whole = 0;
        piece(s, pairs, w);
    }
    printf("%s %lld k-tiles in all\n", whole ? ";" : "", iters);
}

/* One candidate's line: its name, its modelled time, its plan. */
typedef struct {
    int M, N, K;
    const sk_gpu *g;
} shape;

static void show(sk_cand c, const sk_plan *s, void *arg)
{
    const shape *sh = arg;
    char name[32], line[256];
    sk_cand_name(c, name, sizeof name);
    sk_plan_describe(s, sh->M, sh->N, sh->K, line, sizeof line);
    printf("candidate %-16s %9.1f us  %s\n", name,
           sk_model_ns(s, sh->M, sh->N, sh->K, sh->g, &sk_model_sm90) * 1e-3, strchr(line, ':') + 2);
}

int main(int argc, char **argv)
{
    long long M, N, K, clusters = 66, l2 = 50ll << 20, dram = 3352;
    if (argc < 4 || argc > 7) {
        fprintf(stderr, "plan: error: usage: %s M N K [clusters (66)] [l2_bytes (52428800)] "
                        "[dram_gbps (3352)]\n", argv[0]);
        return 2;
    }
    if (arg(argv[1], "M", 1, INT_MAX, &M) || arg(argv[2], "N", 1, INT_MAX, &N) ||
        arg(argv[3], "K", 1, INT_MAX, &K) ||
        (argc > 4 && arg(argv[4], "clusters", 1, 1024, &clusters)) ||
        (argc > 5 && arg(argv[5], "l2_bytes", 1, LLONG_MAX, &l2)) ||
        (argc > 6 && arg(argv[6], "dram_gbps", 1, 1000000, &dram)))
        return 2;
    sk_gpu g;
    for (int k = 0; k < SK_KINDS; k++) g.max_clusters[k] = sk_clusters_of(k, (int)clusters);
    g.l2_bytes = (double)l2;
    g.dram_bytes_per_ns = (double)dram;
    const shape sh = {(int)M, (int)N, (int)K, &g};
    sk_cand forced = {-1, -1, 0, 0, 0};
    const char *v = getenv("V7_TILE");
    if (v && *v && sk_cand_parse(v, &forced) != 0) {
        fprintf(stderr, "plan: error: V7_TILE=%s is no tile shape or candidate (e.g. 128x256, 64x64:dp, "
                        "128x128:split4, 128x144:dp:T)\n", v);
        return 2;
    }
    sk_plan s;
    if (sk_plan_pick((int)M, (int)N, (int)K, &g, &sk_model_sm90, forced, &s) != 0) {
        fprintf(stderr, "plan: error: V7_TILE=%s does not apply to %lld x %lld x %lld\n", v, M, N, K);
        return 2;
    }
    if ((long long)s.m_blocks * s.n_blocks > INT_MAX) {
        fprintf(stderr, "plan: error: %d x %d tiles exceed a 1D grid\n", s.m_blocks, s.n_blocks);
        return 2;
    }
    sk_each_cand(sh.M, sh.N, sh.K, &g, -1, show, (void *)&sh);
    char line[256];
    sk_plan_describe(&s, (int)M, (int)N, (int)K, line, sizeof line);
    printf("v7 plan: %s (modelled %.1f us)\n", line,
           sk_model_ns(&s, (int)M, (int)N, (int)K, &g, &sk_model_sm90) * 1e-3);

    const tile_map pairs = sk_pair_order(&s, (int)K, l2, 0);
    /* Swapped, the kernel's rows are C's columns and its A is B. */
    const char *ka = s.swap ? "B" : "A", *kb = s.swap ? "A" : "B", *rows = s.swap ? "N" : "M";
    if (s.swap)
        printf("swapped: the kernel computes C^T = B A^T, %lld x %lld; below, its rows are C's columns "
               "(N), its A is B\n", N, M);
    char group[48];
    const int br = sk_both_rows(s.share_b, s.cl);
    if (s.share_b >= SK_SHARE_BOTH)
        snprintf(group, sizeof group, "clusters of %d x %d tiles", br, s.cl / br);
    else
        snprintf(group, sizeof group, "%s of %d %s-neighbours", s.cl == 4 ? "quads" : "pairs", s.cl,
                 s.share_b ? rows : s.swap ? "M" : "N");
    printf("tiles: %d x %d blocks of %d x %d; %s, %d x %d pairs in groups "
           "of %d; %d pairs for the %lld clusters the GPU holds: %.2f waves\n",
           s.m_blocks, s.n_blocks, s.bm, s.bn, group, pairs.m_blocks, pairs.n_blocks, pairs.swizzle, s.pairs,
           (long long)g.max_clusters[s.kind], (double)s.pairs / g.max_clusters[s.kind]);
    /* The rows of A and B, as the kernel reads them: K rounded up to 8 (a K
     * % 8 != 0 is staged to that pitch; v7 makes no copy for K % 16 = 8). */
    const long long pitch = 2 * ((K + 7) / 8 * 8);
    /* How each operand arrives: a CTA's own, a part of the tile from each
     * CTA that shares it, or (a short A) CTA 0's whole box. */
    const int both = s.share_b >= SK_SHARE_BOTH;
    const char *own = "each CTA its own";
    char a_part[96], b_part[96];
    snprintf(a_part, sizeof a_part, "%s tile per CTA, multicast to the %d CTAs that share it",
             s.cl / br == 2 ? "half a" : "a quarter", s.cl / br);
    snprintf(b_part, sizeof b_part, "%s tile per CTA, multicast to the %d CTAs that share it", br == 2 ? "half a" : "a quarter",
             br);
    const char *part = both ? a_part
                       : s.cl == 4 ? "a quarter tile per CTA, multicast to all 4"
                                   : "half a tile per CTA, multicast to both";
    const char *a_how = both || !s.share_b ? (s.a_rows < s.bm ? (s.cl == 4 ? "CTA 0's, multicast to all 4"
                                                                          : "CTA 0's, multicast to both")
                                                              : part)
                                           : own;
    const char *b_how = both ? b_part : s.share_b ? part : own;
    printf("loads: %s in [%d x 64] boxes (%s), %s in [%d x 64] boxes (%s); rows %lld bytes apart: "
           "L2 promotion %s\n", ka, sk_box_rows_a(&s), a_how, kb, sk_box_rows_b(&s), b_how,
           pitch,
           tmap_promotion_streamed((uint64_t)pitch, sk_streams_dram(&s, (int)M, (int)N, (int)K, &g, &sk_model_sm90)) ==
                   CU_TENSOR_MAP_L2_PROMOTION_L2_256B
               ? "256B"
               : "128B");
    if (s.ways)
        printf("split-K: every pair in %d pieces of about %d k-tiles, one per cluster\n", s.ways,
               s.k_tiles / s.ways);
    else if (s.sk_pairs)
        printf("stream-K: the last %d pairs, %lld (pair, k-tile) iterations, %lld or %lld per "
               "cluster\n", s.sk_pairs, (long long)s.sk_iters, (long long)s.sk_per,
               (long long)s.sk_per + (s.sk_extra ? 1 : 0));
    else
        printf("whole pairs only\n");
    if (sk_claims(&s))
        printf("whole pairs: %d, claimed at run time (each cluster's first is its own index); below, "
               "the even deal the model prices\n", s.pairs - s.sk_pairs);
    else if (s.pairs - s.sk_pairs > s.clusters)
        printf("whole pairs: %d (%.2f waves) of %d k-tiles: dealt out before the launch, not claimed "
               "(sk_claims)\n", s.pairs - s.sk_pairs, (double)(s.pairs - s.sk_pairs) / s.clusters, s.k_tiles);
    const int shown = 4;
    for (int p = 0; p < s.clusters; p++) {
        if (p == shown && s.clusters > shown + 2) {
            printf("... (clusters %d .. %d)\n", shown, s.clusters - 3);
            p = s.clusters - 3;
            continue;
        }
        cluster(&s, &pairs, p);
    }
    return 0;
}
