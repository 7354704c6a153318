#define _POSIX_C_SOURCE 200809L
#include "driver.h"
#include "baseline.h"
#include "check.h"
#include "cli.h"
#include "dispatch.h"
#include "gpuinfo.h"
#include "hold.h"
#include "verify.h"
#include "waitlimit.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef GIT_REV
#define GIT_REV "unknown"
#endif

#define MAX_SETS 8          /* input copies rotated while timing, so small shapes miss in L2 */
#define LT_RUNS 5           /* timed calls of each cuBLASLt candidate                       */
#define HOLD_ROUNDS 32      /* timed rounds queued behind one hold (hold.h): a few hundred
                               launches, far from filling the queue                         */
#define HOLD_MAX_S 2.0      /* a hold lets go by itself after this long                      */
#define WARM_S 0.2          /* warm-up rounds go on until this long has passed: a short
                               problem's few rounds would leave the clocks where idle left them */
#define ENERGY_BLOCK_S 1.0  /* length of each kernel's energy block: several updates of the
                               counter, short enough for three kernels per run              */
#define ENERGY_MAX_RUNS 100000

/* The kernels a run compares: the step, and the cuBLAS baselines asked for. */
enum { K_STEP, K_DEFAULT, K_BEST, NKERNELS };

typedef struct {
    const char *prog, *step;
    matmul_fn fn;
    options o;
    gpu_info g;
    bool use[NKERNELS];
    cublasHandle_t cublas;
    lt_baseline lt;
    cudaStream_t stream;
    cudaEvent_t done; /* marks the end of the queued work a wait is for */
    queue_hold hold;  /* timed calls are queued behind it, then run back to back */
    int nsets;
    f16 *dA[MAX_SETS], *dB[MAX_SETS], *dC, *dR; /* dC: the step's C, dR: a baseline's */
    f16 *hA, *hB, *hC, *hR;
} ctx;

static const char *const kernel_label[NKERNELS] = {NULL, "cuBLAS (default)", "cuBLAS (best)"};
static const char *label(const ctx *x, int k) { return k == K_STEP ? x->step : kernel_label[k]; }

static size_t elems(int r, int c) { return (size_t)r * (size_t)c; }

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* One call of kernel k on input set `set`; the step writes dC, cuBLAS dR. */
static void run_kernel(ctx *x, int k, int set)
{
    const f16 *A = x->dA[set], *B = x->dB[set];
    if (k == K_STEP) CUDA_CHECK(x->fn(A, B, x->dC, x->o.M, x->o.N, x->o.K, x->stream));
    else if (k == K_DEFAULT) CUBLAS_CHECK(cublas_matmul(x->cublas, A, B, x->dR, x->o.M, x->o.N, x->o.K));
    else CUBLAS_CHECK(cublaslt_matmul(&x->lt, x->lt.chosen, A, B, x->dR, x->stream));
}

/* ---- waiting for the GPU, with a time limit ------------------------------ */

static double limit_s(const ctx *x, double calls)
{
    return x->o.time_limit > 0 ? x->o.time_limit : wait_limit_s(x->o.M, x->o.N, x->o.K, calls);
}

/* Kernel k never finished. The GPU is stuck, and normal teardown (cudaFree,
 * the context's destruction at exit) could wait on it forever too: say so in
 * one line and leave without any of it. */
static void stuck(const ctx *x, int k, double limit, const char *what)
{
    fflush(stdout);
    if (k == K_STEP)
        fprintf(stderr, "%s: error: the step's kernel (%s) did not finish within %.0f s (%s); "
                        "a barrier may be waited on forever\n", x->prog, x->step, limit, what);
    else
        fprintf(stderr, "%s: error: %s did not finish within %.0f s (%s); the GPU may be hung\n",
                x->prog, label(x, k), limit, what);
    _Exit(1);
}

/* Clock and power read by the host while the GPU works through a queue. */
enum { MAX_SAMPLES = 4096 };
typedef struct {
    float clocks[MAX_SAMPLES];
    int nclk, npow;
    double power_sum;
} samples;

/* Polls ev (a blocking sync could never give up) until it completes or
 * `limit` seconds pass; false on the latter. Samples clock and power between
 * polls if s is given. A kernel that failed exits through CUDA_CHECK. */
static bool wait_event(const ctx *x, cudaEvent_t ev, double limit, samples *s)
{
    const double t0 = now_s();
    cudaError_t q;
    while ((q = cudaEventQuery(ev)) == cudaErrorNotReady) {
        if (now_s() - t0 > limit) return false;
        if (s) {
            int mhz;
            double w;
            gpu_sample(&x->g, &mhz, &w);
            if (mhz > 0 && s->nclk < MAX_SAMPLES) s->clocks[s->nclk++] = (float)mhz;
            if (w > 0) { s->power_sum += w; s->npow++; }
        }
        struct timespec ts = {0, s ? 2000000 : 100000};
        nanosleep(&ts, NULL);
    }
    CUDA_CHECK(q);
    return true;
}

/* Waits for everything queued so far, the last `calls` calls of kernel k. */
static void await(ctx *x, int k, double calls, const char *what)
{
    CUDA_CHECK(cudaEventRecord(x->done, x->stream));
    const double limit = limit_s(x, calls);
    if (!wait_event(x, x->done, limit, NULL)) stuck(x, k, limit, what);
}

/* ---- verification -------------------------------------------------------- */

/* NaN everywhere (0xFFFF is a NaN in fp16): an element the kernel never
 * writes cannot pass any check. */
static void poison(ctx *x, f16 *C)
{
    CUDA_CHECK(cudaMemsetAsync(C, 0xFF, elems(x->o.M, x->o.N) * sizeof(f16), x->stream));
}

/* Every call is awaited before its result is read, so this copy never waits on a stuck GPU. */
static void download(ctx *x, f16 *host, const f16 *dev)
{
    CUDA_CHECK(cudaMemcpy(host, dev, elems(x->o.M, x->o.N) * sizeof(f16), cudaMemcpyDeviceToHost));
}

static void upload_inputs(ctx *x, bool exact)
{
    const int M = x->o.M, N = x->o.N, K = x->o.K;
    (exact ? fill_exact : fill_random)(x->hA, elems(M, K), x->o.seed * 2);
    (exact ? fill_exact : fill_random)(x->hB, elems(N, K), x->o.seed * 2 + 1);
    for (int s = 0; s < x->nsets; s++) {
        CUDA_CHECK(cudaMemcpy(x->dA[s], x->hA, elems(M, K) * sizeof(f16), cudaMemcpyHostToDevice));
        CUDA_CHECK(cudaMemcpy(x->dB[s], x->hB, elems(N, K) * sizeof(f16), cudaMemcpyHostToDevice));
    }
}

/* One verification mode. Returns true if every comparison passed. */
static bool verify(ctx *x, bool exact)
{
    const int M = x->o.M, N = x->o.N, K = x->o.K;
    const char *mode = exact ? "exact" : "random";
    char what[64];
    upload_inputs(x, exact);

    poison(x, x->dC);
    run_kernel(x, K_STEP, 0);
    snprintf(what, sizeof what, "verification run, %s mode", mode);
    await(x, K_STEP, 1, what);
    download(x, x->hC, x->dC);

    /* fp64 reference on sampled rows x columns, capped near 2^31 multiply-adds. */
    int cap = (int)sqrt(2147483648.0 / K);
    cap = cap < 2 ? 2 : cap > 128 ? 128 : cap;
    int *rows = malloc(sizeof(int) * (size_t)cap), *cols = malloc(sizeof(int) * (size_t)cap);
    if (!rows || !cols) {
        fprintf(stderr, "error: out of host memory\n");
        exit(EXIT_FAILURE);
    }
    int nr = sample_indices(M, cap, x->o.seed + 11, rows);
    int nc = sample_indices(N, cap, x->o.seed + 12, cols);
    check_result vs_ref = check_reference(x->hC, x->hA, x->hB, M, N, K, rows, nr, cols, nc,
                                          exact, "vs fp64");

    /* Each baseline against the step, elementwise; in exact mode every correct
     * algorithm gives the same bits. The first baseline's own fp64 error is
     * for information, so the two errors can be compared. */
    char base[2][160];
    bool base_ok = true;
    double cublas_rel = -1;
    int nb = 0;
    for (int k = K_DEFAULT; k <= K_BEST; k++) {
        if (!x->use[k]) continue;
        poison(x, x->dR);
        run_kernel(x, k, 0);
        snprintf(what, sizeof what, "verification run, %s mode", mode);
        await(x, k, 1, what);
        download(x, x->hR, x->dR);
        check_result r = exact ? check_bitwise(x->hC, x->hR, M, N, label(x, k))
                               : check_close(x->hC, x->hR, M, N, K, label(x, k));
        base_ok = base_ok && r.bad == 0;
        snprintf(base[nb++], sizeof base[0], "vs %s %s on %zu elements (%zu bad, max |diff| %.3g)",
                 label(x, k), exact ? "bitwise" : "elementwise", r.checked, r.bad, r.max_abs_err);
        if (cublas_rel < 0)
            cublas_rel = check_reference(x->hR, x->hA, x->hB, M, N, K, rows, nr, cols, nc, exact,
                                         "cuBLAS vs fp64").rel_err;
    }
    free(rows);
    free(cols);

    /* Same inputs again: the result must not change by a single bit. */
    poison(x, x->dC);
    run_kernel(x, K_STEP, 0);
    snprintf(what, sizeof what, "repeat run, %s mode", mode);
    await(x, K_STEP, 1, what);
    download(x, x->hR, x->dC);
    check_result repeat = check_bitwise(x->hR, x->hC, M, N, "repeat run");

    bool ok = base_ok && vs_ref.bad == 0 && repeat.bad == 0;
    printf("check    %-6s %s: ", mode, ok ? "PASS" : "FAIL");
    for (int i = 0; i < nb; i++) printf("%s; ", base[i]);
    printf("vs fp64 %s on %zu sampled (%zu bad, rel. error %.2e", exact ? "bitwise" : "rel. error <= 1e-3",
           vs_ref.checked, vs_ref.bad, vs_ref.rel_err);
    if (cublas_rel >= 0) printf("; cuBLAS's %.2e", cublas_rel);
    printf("); repeat run %s\n", repeat.bad == 0 ? "bitwise identical" : "DIFFERS");
    return ok;
}

/* ---- cuBLASLt's algorithm for this shape ----------------------------------- */

/* Times each of the heuristic's candidates (one warm-up call, then LT_RUNS
 * back to back behind a hold, random data) and keeps the fastest: the
 * heuristic's first choice is not always the fastest for a given shape and
 * GPU. */
static void choose_lt_algo(ctx *x)
{
    upload_inputs(x, false);
    cudaEvent_t e0, e1;
    CUDA_CHECK(cudaEventCreate(&e0));
    CUDA_CHECK(cudaEventCreate(&e1));
    float best = INFINITY, first = 0;
    int chosen = 0;
    for (int c = 0; c < x->lt.ncand; c++) {
        x->lt.chosen = c;
        run_kernel(x, K_BEST, 0);
        await(x, K_BEST, 1, "cuBLASLt algorithm search, warm-up");
        CUDA_CHECK(hold_begin(&x->hold, x->stream, HOLD_MAX_S));
        CUDA_CHECK(cudaEventRecord(e0, x->stream));
        for (int r = 0; r < LT_RUNS; r++) run_kernel(x, K_BEST, r % x->nsets);
        CUDA_CHECK(cudaEventRecord(e1, x->stream));
        hold_release(&x->hold);
        const double limit = limit_s(x, LT_RUNS);
        if (!wait_event(x, e1, limit, NULL)) stuck(x, K_BEST, limit, "cuBLASLt algorithm search");
        float ms;
        CUDA_CHECK(cudaEventElapsedTime(&ms, e0, e1));
        ms /= LT_RUNS;
        if (c == 0) first = ms;
        if (ms < best) {
            best = ms;
            chosen = c;
        }
    }
    x->lt.chosen = chosen;
    CUDA_CHECK(cudaEventDestroy(e0));
    CUDA_CHECK(cudaEventDestroy(e1));
    printf("baseline cuBLASLt: candidate %d of the heuristic's %d is the fastest here, %.4f ms "
           "(its first choice: %.4f ms)\n", chosen + 1, x->lt.ncand, best, first);
}

/* ---- timing and energy ------------------------------------------------------ */

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

static float median(float *v, int n)
{
    qsort(v, (size_t)n, sizeof(float), cmp_float);
    return n % 2 ? v[n / 2] : 0.5f * (v[n / 2 - 1] + v[n / 2]);
}

typedef struct {
    bool have;           /* false: NVML's energy counter not available      */
    long runs;           /* back-to-back calls in the block                 */
    double s, w, j;      /* block length, mean power, energy per call (J)   */
    double tflops_per_w; /* = TFLOP per joule                               */
} energy;

typedef struct {
    float ms[NKERNELS];  /* median per kernel in use */
    int sm_mhz;          /* median over the timed runs, -1 unknown */
    double power_w;      /* mean of NVML's (1-second average) readings, -1 unknown */
    energy e[NKERNELS];
} timing;

/* Kernel k alone, `runs` calls back to back sized to last about
 * ENERGY_BLOCK_S, between two readings of the board's energy counter. The
 * interleaved timing cannot tell whose energy is whose; this can. */
static energy measure_energy(ctx *x, int k, float ms)
{
    energy e = {false, 0, 0, -1, -1, -1};
    const double runs = ceil(ENERGY_BLOCK_S * 1e3 / (ms > 1e-3f ? ms : 1e-3f));
    e.runs = runs > ENERGY_MAX_RUNS ? ENERGY_MAX_RUNS : (long)runs;
    unsigned long long mj0, mj1;
    const double t0 = now_s();
    if (gpu_energy_mj(&x->g, &mj0) != 0) return e; /* before any work: no counter, no block */
    for (long i = 0; i < e.runs; i++) run_kernel(x, k, (int)(i % x->nsets));
    await(x, k, (double)e.runs, "energy measurement");
    if (gpu_energy_mj(&x->g, &mj1) != 0 || mj1 <= mj0) return e; /* a still counter measured nothing */
    e.s = now_s() - t0;
    const double joules = (double)(mj1 - mj0) * 1e-3;
    e.have = true;
    e.w = joules / e.s;
    e.j = joules / (double)e.runs;
    e.tflops_per_w = 2.0 * x->o.M * x->o.N * x->o.K / e.j / 1e12;
    return e;
}

/* The kernel of the first call among ev[0 .. n - 1] that has not finished
 * (who[e]: the kernel of the call ev[e] ends, -1 for a hold's start): the
 * one that never finished. */
static int never_done(cudaEvent_t *ev, const int *who, size_t n)
{
    size_t u = 0;
    while (u < n - 1 && (who[u] < 0 || cudaEventQuery(ev[u]) == cudaSuccess)) u++;
    return who[u];
}

/* The step and the baselines in use take turns run by run, and which goes
 * first rotates, so all see the same clocks, temperature and power state.
 * The timed calls are queued behind a hold (hold.h) and run back to back, so
 * a call shorter than its launch is timed on the GPU, not by the host's
 * launch gaps. The host samples clock and power while the GPU works through
 * the queue. Then each kernel's energy, alone. */
static timing time_all(ctx *x)
{
    const int reps = x->o.reps;
    int ks[NKERNELS], nk = 0;
    for (int k = 0; k < NKERNELS; k++)
        if (x->use[k]) ks[nk++] = k;
    upload_inputs(x, false); /* random non-integer data: integer data draws less power */
    /* --warmup rounds, each call awaited (a stuck kernel is named), then more,
     * awaited a round at a time, until WARM_S has passed. */
    const double w0 = now_s();
    for (int i = 0; i < x->o.warmup || (x->o.warmup > 0 && now_s() - w0 < WARM_S); i++)
        for (int j = 0; j < nk; j++) {
            run_kernel(x, ks[j], i % x->nsets);
            if (i < x->o.warmup || j == nk - 1) await(x, ks[j], i < x->o.warmup ? 1 : nk, "warm-up run");
        }

    /* Per hold of HOLD_ROUNDS rounds, an event that starts it, then one that
     * ends each call: who[e] is the kernel of the call that ev[e] ends (-1: a
     * start), and that call lies between ev[e - 1] and ev[e]. */
    const int holds = (reps + HOLD_ROUNDS - 1) / HOLD_ROUNDS;
    const size_t nev = (size_t)holds + (size_t)nk * (size_t)reps;
    cudaEvent_t *ev = malloc(sizeof(cudaEvent_t) * nev);
    int *who = malloc(sizeof(int) * nev);
    float *t[NKERNELS] = {0};
    int got[NKERNELS] = {0};
    bool fed = ev && who;
    for (int j = 0; j < nk; j++) fed = (t[ks[j]] = malloc(sizeof(float) * (size_t)reps)) && fed;
    if (!fed) {
        fprintf(stderr, "error: out of host memory for %d timed runs\n", reps);
        exit(EXIT_FAILURE);
    }
    for (size_t i = 0; i < nev; i++) CUDA_CHECK(cudaEventCreate(&ev[i]));
    bool expired = false;
    size_t e = 0;
    for (int i0 = 0; i0 < reps; i0 += HOLD_ROUNDS) {
        CUDA_CHECK(hold_begin(&x->hold, x->stream, HOLD_MAX_S));
        who[e] = -1;
        CUDA_CHECK(cudaEventRecord(ev[e++], x->stream));
        for (int i = i0; i < reps && i < i0 + HOLD_ROUNDS; i++)
            for (int j = 0; j < nk; j++) {
                who[e] = ks[(i + j) % nk];
                run_kernel(x, who[e], i % x->nsets);
                CUDA_CHECK(cudaEventRecord(ev[e++], x->stream));
            }
        hold_release(&x->hold);
        if (i0 + HOLD_ROUNDS < reps) { /* the next hold reuses the flags: this one must be done */
            CUDA_CHECK(cudaEventRecord(x->done, x->stream));
            const double limit = limit_s(x, (double)HOLD_ROUNDS * nk);
            if (!wait_event(x, x->done, limit, NULL)) stuck(x, never_done(ev, who, e), limit, "timed runs");
            expired = expired || hold_expired(&x->hold);
        }
    }
    static samples smp;
    memset(&smp, 0, sizeof smp);
    const double limit = limit_s(x, (double)HOLD_ROUNDS * nk);
    if (!wait_event(x, ev[nev - 1], limit, &smp)) stuck(x, never_done(ev, who, nev), limit, "timed runs");
    expired = expired || hold_expired(&x->hold);
    if (expired)
        printf("note     the host took over %.0f s to queue %d rounds: some timed calls started "
               "as launched, launch gaps may lie in their times\n", HOLD_MAX_S, HOLD_ROUNDS);
    timing r;
    memset(&r, 0, sizeof r);
    for (size_t u = 1; u < nev; u++)
        if (who[u] >= 0) CUDA_CHECK(cudaEventElapsedTime(&t[who[u]][got[who[u]]++], ev[u - 1], ev[u]));
    for (size_t i = 0; i < nev; i++) CUDA_CHECK(cudaEventDestroy(ev[i]));
    for (int j = 0; j < nk; j++) r.ms[ks[j]] = median(t[ks[j]], reps);
    if (smp.nclk == 0) gpu_sample(&x->g, &r.sm_mhz, &r.power_w); /* queue drained too fast */
    else {
        r.sm_mhz = (int)median(smp.clocks, smp.nclk);
        r.power_w = smp.npow ? smp.power_sum / smp.npow : -1;
    }
    if (x->o.energy) /* off: the energy columns stay empty, 1 s per kernel saved */
        for (int j = 0; j < nk; j++) r.e[ks[j]] = measure_energy(x, ks[j], r.ms[ks[j]]);
    free(ev);
    free(who);
    for (int j = 0; j < nk; j++) free(t[ks[j]]);
    return r;
}

/* ---- report ------------------------------------------------------------------ */

#define CSV_HEADER                                                                          \
    "date,git_rev,gpu,sm_clock_mhz,power_w,step,M,N,K,ms,tflops,cublas_ms,cublas_tflops,"   \
    "ratio,check,best_ms,best_tflops,ratio_best,step_w,step_j,step_tflops_per_w,cublas_w,"  \
    "cublas_j,cublas_tflops_per_w,best_w,best_j,best_tflops_per_w"

/* ",value", or just "," where there is none: an empty field reads as missing. */
static void csv_field(FILE *f, bool have, const char *fmt, double v)
{
    fputc(',', f);
    if (have) fprintf(f, fmt, v);
}

static void append_csv(ctx *x, const timing *t, const double *tf, const char *check)
{
    FILE *f = fopen(x->o.csv, "a+");
    if (!f) {
        fprintf(stderr, "error: cannot open %s for appending\n", x->o.csv);
        exit(EXIT_FAILURE);
    }
    /* A file from an older driver has fewer columns; its readers still work
     * (new columns only ever go at the end), but say so. */
    char line[1024];
    rewind(f);
    const bool fresh = !fgets(line, sizeof line, f);
    line[fresh ? 0 : strcspn(line, "\r\n")] = '\0';
    fseek(f, 0, SEEK_END); /* C11 needs a positioning call between reading and writing */
    if (fresh) fprintf(f, "%s\n", CSV_HEADER);
    else if (strcmp(line, CSV_HEADER) != 0)
        fprintf(stderr, "note: %s has another header than this driver writes (%s); "
                        "row appended anyway\n", x->o.csv, CSV_HEADER);
    char date[32], gpu[256];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    snprintf(gpu, sizeof gpu, "%s", x->g.name);
    for (char *p = gpu; *p; p++)
        if (*p == ',') *p = ' ';
    fprintf(f, "%s,%s,%s,%d,%.0f,%s,%d,%d,%d,%.4f,%.1f", date, GIT_REV, gpu, t->sm_mhz,
            t->power_w, x->step, x->o.M, x->o.N, x->o.K, t->ms[K_STEP], tf[K_STEP]);
    const bool def = x->use[K_DEFAULT], best = x->use[K_BEST];
    csv_field(f, def, "%.4f", t->ms[K_DEFAULT]);
    csv_field(f, def, "%.1f", tf[K_DEFAULT]);
    csv_field(f, def, "%.3f", def ? tf[K_STEP] / tf[K_DEFAULT] : 0);
    fprintf(f, ",%s", check);
    csv_field(f, best, "%.4f", t->ms[K_BEST]);
    csv_field(f, best, "%.1f", tf[K_BEST]);
    csv_field(f, best, "%.3f", best ? tf[K_STEP] / tf[K_BEST] : 0);
    for (int k = 0; k < NKERNELS; k++) {
        const energy *e = &t->e[k];
        const bool have = x->use[k] && e->have;
        csv_field(f, have, "%.1f", e->w);
        csv_field(f, have, "%.5g", e->j);
        csv_field(f, have, "%.4g", e->tflops_per_w);
    }
    fputc('\n', f);
    if (fclose(f) != 0) {
        fprintf(stderr, "error: writing %s failed\n", x->o.csv);
        exit(EXIT_FAILURE);
    }
}

static void report_timing(ctx *x, const timing *t)
{
    const double flop = 2.0 * x->o.M * x->o.N * x->o.K;
    double tf[NKERNELS] = {0};
    for (int k = 0; k < NKERNELS; k++)
        if (x->use[k]) tf[k] = flop / (t->ms[k] * 1e-3) / 1e12;
    printf("clock    SM %d MHz (median while timing), board power %.0f W (mean of NVML's "
           "1-second averages)\n", t->sm_mhz, t->power_w);
    for (int k = 0; k < NKERNELS; k++) {
        if (!x->use[k]) continue;
        printf("time     %-16s %9.4f ms %8.1f TFLOPS", label(x, k), t->ms[k], tf[k]);
        if (k == K_STEP) printf("  (median of %d, %d input sets)", x->o.reps, x->nsets);
        printf("\n");
    }
    printf("ratio    ");
    if (!x->use[K_DEFAULT] && !x->use[K_BEST]) printf("none (--baseline none)");
    if (x->use[K_DEFAULT]) printf("%.3f of cuBLAS (default)", tf[K_STEP] / tf[K_DEFAULT]);
    if (x->use[K_DEFAULT] && x->use[K_BEST]) printf(", ");
    if (x->use[K_BEST]) printf("%.3f of cuBLAS (best cuBLASLt algo)", tf[K_STEP] / tf[K_BEST]);
    printf("\n");
    for (int k = 0; k < NKERNELS; k++) {
        if (!x->use[k]) continue;
        const energy *e = &t->e[k];
        if (!x->o.energy)
            printf("energy   %-16s not measured (--energy off)\n", label(x, k));
        else if (!e->have)
            printf("energy   %-16s n/a (NVML's energy counter is not available or did not move)\n",
                   label(x, k));
        else
            printf("energy   %-16s %7.1f W mean, %.4g J per matmul, %.4g TFLOPS/W  "
                   "(%ld runs alone, %.2f s)\n", label(x, k), e->w, e->j, e->tflops_per_w,
                   e->runs, e->s);
    }
    if (x->o.csv) append_csv(x, t, tf, x->o.check == CHECK_NONE ? "none" : "pass");
}

int driver_main(int argc, char **argv, const char *step, matmul_fn fn)
{
    ctx x;
    memset(&x, 0, sizeof x);
    x.prog = argv[0];
    x.step = step;
    x.fn = fn;
    char err[512];
    if (cli_parse(argc, argv, &x.o, err, sizeof err) != 0) {
        fprintf(stderr, "%s: error: %s (see --help)\n", argv[0], err);
        return 2;
    }
    if (x.o.help) {
        cli_usage(stdout, argv[0]);
        return 0;
    }
    if (gpu_open(&x.g, err, sizeof err) != 0 || matmul_device_check(err, sizeof err) != 0) {
        fprintf(stderr, "%s: error: %s\n", argv[0], err);
        return 1;
    }
    const int M = x.o.M, N = x.o.N, K = x.o.K;
    x.use[K_STEP] = true;
    x.use[K_DEFAULT] = x.o.baseline == BASELINE_DEFAULT || x.o.baseline == BASELINE_BOTH;
    x.use[K_BEST] = x.o.baseline == BASELINE_BEST || x.o.baseline == BASELINE_BOTH;

    /* Memory: inputs (rotated copies while timing), two outputs, the worst-case
     * staging scratch, and room for cuBLAS's workspaces. Counted in double: the
     * products of int sizes overflow 64 bits long before memory runs out. */
    const double ab = ((double)M * K + (double)N * K) * 2, c = (double)M * N * 2;
    const double scratch = ((double)M + N) * (K + 7.0) * 2 + (double)M * (N + 7.0) * 2;
    x.nsets = 1;
    if (x.o.reps > 0) {
        x.nsets = (int)ceil(2.0 * (double)x.g.l2_bytes / ab);
        x.nsets = x.nsets < 1 ? 1 : x.nsets > MAX_SETS ? MAX_SETS : x.nsets;
    }
    const double need = x.nsets * ab + 2 * c + scratch + 256.0 * (1 << 20) +
                        (x.use[K_BEST] ? (double)LT_MAX_WORKSPACE : 0);
    if (need > (double)x.g.free_bytes) {
        fprintf(stderr, "%s: error: M=%d N=%d K=%d needs %.2f GiB of GPU memory, %s has %.2f GiB free\n",
                argv[0], M, N, K, need / (1 << 30), x.g.name, (double)x.g.free_bytes / (1 << 30));
        return 1;
    }
    x.hA = malloc(elems(M, K) * sizeof(f16));
    x.hB = malloc(elems(N, K) * sizeof(f16));
    x.hC = malloc(elems(M, N) * sizeof(f16));
    x.hR = malloc(elems(M, N) * sizeof(f16));
    if (!x.hA || !x.hB || !x.hC || !x.hR) {
        fprintf(stderr, "%s: error: M=%d N=%d K=%d needs %.2f GiB of host memory, not available\n",
                argv[0], M, N, K, (ab + 2 * c) / (1 << 30));
        return 1;
    }
    for (int s = 0; s < x.nsets; s++) {
        CUDA_CHECK(cudaMalloc((void **)&x.dA[s], elems(M, K) * sizeof(f16)));
        CUDA_CHECK(cudaMalloc((void **)&x.dB[s], elems(N, K) * sizeof(f16)));
    }
    CUDA_CHECK(cudaMalloc((void **)&x.dC, elems(M, N) * sizeof(f16)));
    CUDA_CHECK(cudaMalloc((void **)&x.dR, elems(M, N) * sizeof(f16)));
    CUDA_CHECK(cudaStreamCreate(&x.stream));
    CUDA_CHECK(cudaEventCreateWithFlags(&x.done, cudaEventDisableTiming));
    CUDA_CHECK(hold_open(&x.hold));
    if (x.use[K_DEFAULT]) {
        CUBLAS_CHECK(cublasCreate(&x.cublas));
        CUBLAS_CHECK(cublasSetStream(x.cublas, x.stream));
    }
    if (x.use[K_BEST]) {
        if (lt_baseline_init(&x.lt, M, N, K) == 0) {
            fprintf(stderr, "%s: error: cuBLASLt's heuristic has no algorithm for M=%d N=%d K=%d "
                            "(--baseline default compares with cublasGemmEx only)\n", argv[0], M, N, K);
            return 1;
        }
        x.lt.ws_bytes = lt_workspace_needed(&x.lt);
        if (x.lt.ws_bytes) CUDA_CHECK(cudaMalloc(&x.lt.ws, x.lt.ws_bytes));
    }

    printf("gpu      %s (sm_%d%d, %d SMs, max SM clock %d MHz)\n", x.g.name, x.g.cc_major,
           x.g.cc_minor, x.g.sms, x.g.max_sm_mhz);
    printf("step     %s\n", step);
    printf("shape    M=%d N=%d K=%d  (C = A * B^T, fp16 in/out, fp32 accumulate)\n", M, N, K);
    /* The chosen algorithm is the one verified, so it is chosen first. */
    if (x.use[K_BEST] && (x.o.reps > 0 || x.o.check != CHECK_NONE)) choose_lt_algo(&x);

    bool ok = true;
    if (x.o.check == CHECK_EXACT || x.o.check == CHECK_BOTH) ok = verify(&x, true) && ok;
    if (x.o.check == CHECK_RANDOM || x.o.check == CHECK_BOTH) ok = verify(&x, false) && ok;
    if (x.o.check == CHECK_NONE) printf("check    none (--check none)\n");
    if (!ok) {
        fprintf(stderr, "%s: error: verification FAILED for M=%d N=%d K=%d\n", argv[0], M, N, K);
        return 1;
    }

    if (x.o.reps > 0) {
        timing t = time_all(&x);
        report_timing(&x, &t);
    }

    if (x.lt.ws) CUDA_CHECK(cudaFree(x.lt.ws));
    lt_baseline_destroy(&x.lt);
    if (x.cublas) CUBLAS_CHECK(cublasDestroy(x.cublas));
    CUDA_CHECK(hold_close(&x.hold));
    CUDA_CHECK(cudaEventDestroy(x.done));
    CUDA_CHECK(cudaStreamDestroy(x.stream));
    for (int s = 0; s < x.nsets; s++) {
        CUDA_CHECK(cudaFree(x.dA[s]));
        CUDA_CHECK(cudaFree(x.dB[s]));
    }
    CUDA_CHECK(cudaFree(x.dC));
    CUDA_CHECK(cudaFree(x.dR));
    free(x.hA);
    free(x.hB);
    free(x.hC);
    free(x.hR);
    return 0;
}
