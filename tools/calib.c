/* Times v7's candidate plans on the GPU: the measurements its plan's cost
 * model is fitted to (common/stream_k.h, sk_model), and what each candidate
 * is worth on a shape.
 *
 *   build/tools/calib_v7 [--all] [--mix] < shapes   (one "M N K [CAND ...]" per line)
 *
 * For each line: each candidate named (V7_TILE's form, e.g. 128x256:dp or
 * 64x128:split4; "auto" is the plan's own choice), or with --all and no names
 * every candidate of every tile shape (dp, sk, skw, split 2 .. clusters /
 * pairs ways), is timed: 3 calls to warm up, then the median of 15 calls,
 * the candidates' calls interleaved, random data. One CSV line per
 * candidate on stdout: M,N,K,cand,ms (no time and "n/a" where v7 refuses the
 * candidate: it does not apply to the shape on this GPU). --all tries the
 * candidates that apply on a GPU of 66 clusters (132 SMs), of every tile
 * shape. The inputs rotate round by round through copies that together
 * outgrow the L2 (at most 8): within a round every candidate reads the same
 * copy, and as the order only rotates, each candidate follows the same one
 * in all rounds but one. With many candidates (--all) that leaves a bias of
 * position: the same plan of C and of C^T, sharing the same operand of C,
 * came out 2-3% apart in --all runs and level timed alone, and the
 * candidates that follow another kernel ran slower (plots/NOTES.md,
 * nineteenth session). --mix draws each round's order so that, where the
 * numbers allow, no call follows one of its own kernel (tools/calib_order.h),
 * as in the driver, where v7's calls and cuBLAS's alternate. */
#define _POSIX_C_SOURCE 200809L
#include "../common/matmul.h"
#include "../common/check.h"
#include "../common/verify.h"
#include "../common/stream_k.h"
#include "../common/hold.h"
#include "calib_order.h"
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>

#define WARMUP 3
#define REPS 15
#define MAX_SETS 8
#define MAX_CANDS 512
#define HOLD_CALLS 64 /* calls queued behind one hold (hold.h) */

static int cmp_float(const void *a, const void *b)
{
    const float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* Candidate names collected by sk_each_cand (add_name). */
typedef struct {
    char (*names)[32];
    char **cands;
    int n;
} name_list;

static void add_name(sk_cand c, const sk_plan *plan, void *arg)
{
    name_list *l = arg;
    (void)plan;
    if (l->n >= MAX_CANDS) return;
    sk_cand_name(c, l->names[l->n], sizeof l->names[l->n]);
    l->cands[l->n] = l->names[l->n];
    l->n++;
}

typedef struct {
    int M, N, K, nsets;
    f16 *A[MAX_SETS], *B[MAX_SETS], *C;
    cudaStream_t stream;
} problem;

/* Makes candidate `cand` ("auto": the plan's own) the one v7 runs. */
static void set_cand(const char *cand)
{
    if (strcmp(cand, "auto")) setenv("V7_TILE", cand, 1);
    else unsetenv("V7_TILE");
}

/* Do candidates a and b run the same kernel (--mix's groups): the same tile
 * shape (the name up to the first ':') and both tiling C^T (":T") or both
 * not? "auto" runs the plan's kernel, unknown here: a group of its own. */
static bool same_kernel(const char *a, const char *b)
{
    const size_t la = strcspn(a, ":"), lb = strcspn(b, ":");
    return la == lb && !strncmp(a, b, la) && !strstr(a, ":T") == !strstr(b, ":T");
}

/* Times the n candidates of one shape, interleaved (one call of each per
 * round; the order rotating, or with `mix` drawn each round so that no call
 * follows one of its own kernel where the groups allow it, calib_mix_order;
 * a round's calls on input copy r % nsets), queued behind a hold and run back to back with
 * an event between calls, as the driver times) so that all see the same
 * clocks and power state; prints one line each. A candidate v7 refuses (it
 * does not apply to the shape) returns before any launch and leaves no CUDA
 * error. */
static void time_cands(problem *p, char **cands, int n, bool mix)
{
    static int live[MAX_CANDS], group[MAX_CANDS], ord[MAX_CANDS], work[4 * MAX_CANDS];
    static bool ok[MAX_CANDS];
    static int who[2 * MAX_CANDS * REPS]; /* the candidate whose call ev[i] ends; -1: a hold's start */
    static float ms[MAX_CANDS][REPS];
    static cudaEvent_t ev[2 * MAX_CANDS * REPS];
    static int have;
    static queue_hold hold;
    if (!hold.flags) CUDA_CHECK(hold_open(&hold));
    for (; have < 2 * n * REPS; have++) CUDA_CHECK(cudaEventCreate(&ev[have]));
    for (int c = 0; c < n; c++) {
        set_cand(cands[c]);
        ok[c] = matmul(p->A[0], p->B[0], p->C, p->M, p->N, p->K, p->stream) == cudaSuccess;
        for (int i = 1; ok[c] && i < WARMUP; i++)
            CUDA_CHECK(matmul(p->A[i % p->nsets], p->B[i % p->nsets], p->C, p->M, p->N, p->K, p->stream));
    }
    int e = 0, held = HOLD_CALLS; /* calls queued behind the current hold */
    bool expired = false;
    int nl = 0; /* --mix: the candidates v7 runs; group[i]: the first of live[i]'s kernel */
    for (int c = 0; c < n; c++)
        if (ok[c]) live[nl++] = c;
    for (int i = 0; mix && i < nl; i++) {
        group[i] = i;
        for (int k = 0; k < i && group[i] == i; k++)
            if (same_kernel(cands[live[k]], cands[live[i]])) group[i] = k;
    }
    for (int r = 0; r < REPS; r++) {
        if (mix) calib_mix_order(group, nl, (uint64_t)r + 1, ord, work);
        for (int j = 0; j < (mix ? nl : n); j++) {
            const int c = mix ? live[ord[j]] : (r + j) % n;
            if (!ok[c]) continue;
            if (held == HOLD_CALLS) { /* a new hold, once the last is done with the flags */
                if (e > 0) hold_release(&hold);
                CUDA_CHECK(cudaStreamSynchronize(p->stream));
                expired = expired || (e > 0 && hold_expired(&hold));
                CUDA_CHECK(hold_begin(&hold, p->stream, 2.0));
                who[e] = -1;
                CUDA_CHECK(cudaEventRecord(ev[e++], p->stream));
                held = 0;
            }
            set_cand(cands[c]);
            CUDA_CHECK(matmul(p->A[r % p->nsets], p->B[r % p->nsets], p->C, p->M, p->N, p->K, p->stream));
            who[e] = c;
            CUDA_CHECK(cudaEventRecord(ev[e++], p->stream));
            held++;
        }
    }
    if (e > 0) hold_release(&hold);
    CUDA_CHECK(cudaStreamSynchronize(p->stream));
    if (expired || hold_expired(&hold))
        fprintf(stderr, "calib: note: a hold let go before its calls were queued: launch gaps may lie in the times\n");
    int got[MAX_CANDS] = {0};
    for (int i = 1; i < e; i++)
        if (who[i] >= 0) CUDA_CHECK(cudaEventElapsedTime(&ms[who[i]][got[who[i]]++], ev[i - 1], ev[i]));
    for (int c = 0; c < n; c++) {
        if (!ok[c]) {
            printf("%d,%d,%d,%s,,n/a\n", p->M, p->N, p->K, cands[c]);
            continue;
        }
        qsort(ms[c], REPS, sizeof(float), cmp_float);
        printf("%d,%d,%d,%s,%.5f\n", p->M, p->N, p->K, cands[c], ms[c][REPS / 2]);
    }
    fflush(stdout);
}

int main(int argc, char **argv)
{
    bool all = false, mix = false, bad = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--all") && !all) all = true;
        else if (!strcmp(argv[i], "--mix") && !mix) mix = true;
        else bad = true;
    }
    if (bad) {
        fprintf(stderr, "calib: error: usage: %s [--all] [--mix] < lines of M N K [CAND ...]\n", argv[0]);
        return 2;
    }
    int dev;
    size_t l2 = 0;
    CUDA_CHECK(cudaGetDevice(&dev));
    int l2i;
    CUDA_CHECK(cudaDeviceGetAttribute(&l2i, cudaDevAttrL2CacheSize, dev));
    l2 = (size_t)l2i;
    problem p;
    memset(&p, 0, sizeof p);
    CUDA_CHECK(cudaStreamCreate(&p.stream));
    printf("M,N,K,cand,ms\n");
    char line[4096];
    while (fgets(line, sizeof line, stdin)) {
        char *save, *tok = strtok_r(line, " \t\r\n", &save);
        if (!tok || tok[0] == '#') continue;
        int dims[3];
        for (int i = 0; i < 3; i++) {
            if (!tok || (dims[i] = atoi(tok)) < 1) {
                fprintf(stderr, "calib: error: a line must start with M N K >= 1\n");
                return 2;
            }
            tok = i < 2 ? strtok_r(NULL, " \t\r\n", &save) : tok;
        }
        p.M = dims[0], p.N = dims[1], p.K = dims[2];
        const size_t a = (size_t)p.M * p.K, b = (size_t)p.N * p.K;
        p.nsets = (int)ceil(2.0 * (double)l2 / (double)((a + b) * 2));
        p.nsets = p.nsets < 1 ? 1 : p.nsets > MAX_SETS ? MAX_SETS : p.nsets;
        f16 *h = malloc((a > b ? a : b) * sizeof(f16));
        if (!h) {
            fprintf(stderr, "calib: error: out of host memory\n");
            return 1;
        }
        for (int s = 0; s < p.nsets; s++) {
            CUDA_CHECK(cudaMalloc((void **)&p.A[s], a * sizeof(f16)));
            CUDA_CHECK(cudaMalloc((void **)&p.B[s], b * sizeof(f16)));
            fill_random(h, a, 2 * (uint64_t)s + 1);
            CUDA_CHECK(cudaMemcpy(p.A[s], h, a * sizeof(f16), cudaMemcpyHostToDevice));
            fill_random(h, b, 2 * (uint64_t)s + 2);
            CUDA_CHECK(cudaMemcpy(p.B[s], h, b * sizeof(f16), cudaMemcpyHostToDevice));
        }
        free(h);
        CUDA_CHECK(cudaMalloc((void **)&p.C, (size_t)p.M * p.N * sizeof(f16)));
        static char names[MAX_CANDS][32];
        char *cands[MAX_CANDS];
        int n = 0;
        while ((tok = strtok_r(NULL, " \t\r\n", &save)) && n < MAX_CANDS) {
            snprintf(names[n], sizeof names[n], "%s", tok);
            cands[n] = names[n];
            n++;
        }
        if (!n && all) {
            snprintf(names[n], sizeof names[n], "auto");
            cands[n] = names[n];
            n++;
            /* Every tile shape, also those the plan passes over (sk_tile_fits):
             * sk_each_cand with the shape named enumerates them all. */
            sk_gpu g = {{0}, 1, 1};
            for (int k = 0; k < SK_KINDS; k++) g.max_clusters[k] = sk_clusters_of(k, 66);
            name_list l = {names, cands, n};
            for (int k = 0; k < SK_KINDS; k++) sk_each_cand(p.M, p.N, p.K, &g, k, add_name, &l);
            n = l.n;
        }
        time_cands(&p, cands, n, mix);
        for (int s = 0; s < p.nsets; s++) {
            CUDA_CHECK(cudaFree(p.A[s]));
            CUDA_CHECK(cudaFree(p.B[s]));
        }
        CUDA_CHECK(cudaFree(p.C));
    }
    return 0;
}
