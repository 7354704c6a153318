#define _POSIX_C_SOURCE 200809L
#include "driver.h"
#include "baseline.h"
#include "check.h"
#include "cli.h"
#include "dispatch.h"
#include "gpuinfo.h"
#include "verify.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef GIT_REV
#define GIT_REV "unknown"
#endif

#define MAX_SETS 8 /* input copies rotated while timing, so small shapes miss in L2 */

typedef struct {
    const char *step;
    matmul_fn fn;
    options o;
    gpu_info g;
    cublasHandle_t cublas;
    cudaStream_t stream;
    int nsets;
    f16 *dA[MAX_SETS], *dB[MAX_SETS], *dC, *dR; /* dC: the step's C, dR: cuBLAS's */
    f16 *hA, *hB, *hC, *hR;
} ctx;

static size_t elems(int r, int c) { return (size_t)r * (size_t)c; }

static void run_step(ctx *x, int set, f16 *C)
{
    CUDA_CHECK(x->fn(x->dA[set], x->dB[set], C, x->o.M, x->o.N, x->o.K, x->stream));
}

static void run_cublas(ctx *x, int set, f16 *C)
{
    CUBLAS_CHECK(cublas_matmul(x->cublas, x->dA[set], x->dB[set], C, x->o.M, x->o.N, x->o.K));
}

/* NaN everywhere (0xFFFF is a NaN in fp16): an element the kernel never
 * writes cannot pass any check. */
static void poison(ctx *x, f16 *C)
{
    CUDA_CHECK(cudaMemsetAsync(C, 0xFF, elems(x->o.M, x->o.N) * sizeof(f16), x->stream));
}

static void download(ctx *x, f16 *host, const f16 *dev)
{
    CUDA_CHECK(cudaStreamSynchronize(x->stream));
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
    upload_inputs(x, exact);

    poison(x, x->dC);
    run_step(x, 0, x->dC);
    poison(x, x->dR);
    run_cublas(x, 0, x->dR);
    download(x, x->hC, x->dC);
    download(x, x->hR, x->dR);

    check_result vs_cublas = exact ? check_bitwise(x->hC, x->hR, M, N, "vs cuBLAS")
                                   : check_close(x->hC, x->hR, M, N, K, "vs cuBLAS");

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
    /* cuBLAS against the same reference: for information, so the two errors
     * can be compared (x->hR still holds cuBLAS's C here). */
    check_result cublas_ref = check_reference(x->hR, x->hA, x->hB, M, N, K, rows, nr, cols, nc,
                                              exact, "cuBLAS vs fp64");
    free(rows);
    free(cols);

    /* Same inputs again: the result must not change by a single bit. */
    poison(x, x->dC);
    run_step(x, 0, x->dC);
    download(x, x->hR, x->dC);
    check_result repeat = check_bitwise(x->hR, x->hC, M, N, "repeat run");

    bool ok = vs_cublas.bad == 0 && vs_ref.bad == 0 && repeat.bad == 0;
    printf("check    %-6s %s: vs cuBLAS %s on %zu elements (%zu bad, max |diff| %.3g); "
           "vs fp64 %s on %zu sampled (%zu bad, rel. error %.2e; cuBLAS's %.2e); "
           "repeat run %s\n",
           mode, ok ? "PASS" : "FAIL", exact ? "bitwise" : "elementwise", vs_cublas.checked,
           vs_cublas.bad, vs_cublas.max_abs_err, exact ? "bitwise" : "rel. error <= 1e-3",
           vs_ref.checked, vs_ref.bad, vs_ref.rel_err, cublas_ref.rel_err,
           repeat.bad == 0 ? "bitwise identical" : "DIFFERS");
    return ok;
}

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
    float ms, cublas_ms;
    int sm_mhz;      /* median over the timed runs, -1 unknown */
    double power_w;  /* mean over the timed runs, -1 unknown   */
} timing;

/* Step and cuBLAS alternate run by run (and which goes first alternates too),
 * so both see the same clocks, temperature and power state. The host samples
 * clock and power while the GPU works through the queue. */
static timing time_both(ctx *x)
{
    const int reps = x->o.reps;
    upload_inputs(x, false); /* random non-integer data: integer data draws less power */
    for (int i = 0; i < x->o.warmup; i++) {
        run_step(x, i % x->nsets, x->dC);
        run_cublas(x, i % x->nsets, x->dR);
    }
    CUDA_CHECK(cudaStreamSynchronize(x->stream));

    cudaEvent_t *ev = malloc(sizeof(cudaEvent_t) * 3 * (size_t)reps);
    float *t_step = malloc(sizeof(float) * (size_t)reps), *t_ref = malloc(sizeof(float) * (size_t)reps);
    if (!ev || !t_step || !t_ref) {
        fprintf(stderr, "error: out of host memory for %d timed runs\n", reps);
        exit(EXIT_FAILURE);
    }
    for (int i = 0; i < 3 * reps; i++) CUDA_CHECK(cudaEventCreate(&ev[i]));
    for (int i = 0; i < reps; i++) {
        const int set = i % x->nsets;
        CUDA_CHECK(cudaEventRecord(ev[3 * i], x->stream));
        if (i % 2 == 0) run_step(x, set, x->dC); else run_cublas(x, set, x->dR);
        CUDA_CHECK(cudaEventRecord(ev[3 * i + 1], x->stream));
        if (i % 2 == 0) run_cublas(x, set, x->dR); else run_step(x, set, x->dC);
        CUDA_CHECK(cudaEventRecord(ev[3 * i + 2], x->stream));
    }
    enum { MAX_SAMPLES = 4096 };
    static float clocks[MAX_SAMPLES];
    int nclk = 0, npow = 0;
    double power_sum = 0;
    cudaError_t q;
    while ((q = cudaEventQuery(ev[3 * reps - 1])) == cudaErrorNotReady) {
        int mhz;
        double w;
        gpu_sample(&x->g, &mhz, &w);
        if (mhz > 0 && nclk < MAX_SAMPLES) clocks[nclk++] = (float)mhz;
        if (w > 0) { power_sum += w; npow++; }
        struct timespec ts = {0, 2000000};
        nanosleep(&ts, NULL);
    }
    CUDA_CHECK(q);
    for (int i = 0; i < reps; i++) {
        float a, b;
        CUDA_CHECK(cudaEventElapsedTime(&a, ev[3 * i], ev[3 * i + 1]));
        CUDA_CHECK(cudaEventElapsedTime(&b, ev[3 * i + 1], ev[3 * i + 2]));
        t_step[i] = i % 2 == 0 ? a : b;
        t_ref[i] = i % 2 == 0 ? b : a;
    }
    for (int i = 0; i < 3 * reps; i++) CUDA_CHECK(cudaEventDestroy(ev[i]));
    timing t;
    t.ms = median(t_step, reps);
    t.cublas_ms = median(t_ref, reps);
    if (nclk == 0) gpu_sample(&x->g, &t.sm_mhz, &t.power_w); /* queue drained too fast */
    else {
        t.sm_mhz = (int)median(clocks, nclk);
        t.power_w = npow ? power_sum / npow : -1;
    }
    free(ev);
    free(t_step);
    free(t_ref);
    return t;
}

static void append_csv(ctx *x, const timing *t, double tf, double tf_ref, const char *check)
{
    FILE *f = fopen(x->o.csv, "a+");
    if (!f) {
        fprintf(stderr, "error: cannot open %s for appending\n", x->o.csv);
        exit(EXIT_FAILURE);
    }
    fseek(f, 0, SEEK_END);
    if (ftell(f) == 0)
        fprintf(f, "date,git_rev,gpu,sm_clock_mhz,power_w,step,M,N,K,ms,tflops,cublas_ms,"
                   "cublas_tflops,ratio,check\n");
    char date[32], gpu[256];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    snprintf(gpu, sizeof gpu, "%s", x->g.name);
    for (char *p = gpu; *p; p++)
        if (*p == ',') *p = ' ';
    fprintf(f, "%s,%s,%s,%d,%.0f,%s,%d,%d,%d,%.4f,%.1f,%.4f,%.1f,%.3f,%s\n", date, GIT_REV, gpu,
            t->sm_mhz, t->power_w, x->step, x->o.M, x->o.N, x->o.K, t->ms, tf, t->cublas_ms,
            tf_ref, tf / tf_ref, check);
    if (fclose(f) != 0) {
        fprintf(stderr, "error: writing %s failed\n", x->o.csv);
        exit(EXIT_FAILURE);
    }
}

int driver_main(int argc, char **argv, const char *step, matmul_fn fn)
{
    ctx x;
    memset(&x, 0, sizeof x);
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

    /* Memory: inputs (rotated copies while timing), two outputs, the worst-case
     * staging scratch, and room for cuBLAS's workspace. Counted in double: the
     * products of int sizes overflow 64 bits long before memory runs out. */
    const double ab = ((double)M * K + (double)N * K) * 2, c = (double)M * N * 2;
    const double scratch = ((double)M + N) * (K + 7.0) * 2 + (double)M * (N + 7.0) * 2;
    x.nsets = 1;
    if (x.o.reps > 0) {
        x.nsets = (int)ceil(2.0 * (double)x.g.l2_bytes / ab);
        x.nsets = x.nsets < 1 ? 1 : x.nsets > MAX_SETS ? MAX_SETS : x.nsets;
    }
    const double need = x.nsets * ab + 2 * c + scratch + 256.0 * (1 << 20);
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
    CUBLAS_CHECK(cublasCreate(&x.cublas));
    CUBLAS_CHECK(cublasSetStream(x.cublas, x.stream));

    printf("gpu      %s (sm_%d%d, %d SMs, max SM clock %d MHz)\n", x.g.name, x.g.cc_major,
           x.g.cc_minor, x.g.sms, x.g.max_sm_mhz);
    printf("step     %s\n", step);
    printf("shape    M=%d N=%d K=%d  (C = A * B^T, fp16 in/out, fp32 accumulate)\n", M, N, K);

    bool ok = true;
    if (x.o.check == CHECK_EXACT || x.o.check == CHECK_BOTH) ok = verify(&x, true) && ok;
    if (x.o.check == CHECK_RANDOM || x.o.check == CHECK_BOTH) ok = verify(&x, false) && ok;
    if (x.o.check == CHECK_NONE) printf("check    none (--check none)\n");
    if (!ok) {
        fprintf(stderr, "%s: error: verification FAILED for M=%d N=%d K=%d\n", argv[0], M, N, K);
        return 1;
    }

    if (x.o.reps > 0) {
        timing t = time_both(&x);
        const double flop = 2.0 * M * N * K;
        const double tf = flop / (t.ms * 1e-3) / 1e12, tf_ref = flop / (t.cublas_ms * 1e-3) / 1e12;
        printf("clock    SM %d MHz (median while timing), board power %.0f W (mean)\n", t.sm_mhz,
               t.power_w);
        printf("time     %-16s %9.4f ms %8.1f TFLOPS  (median of %d, %d input sets)\n", step, t.ms,
               tf, x.o.reps, x.nsets);
        printf("time     %-16s %9.4f ms %8.1f TFLOPS\n", "cuBLAS", t.cublas_ms, tf_ref);
        printf("ratio    %.3f of cuBLAS\n", tf / tf_ref);
        if (x.o.csv)
            append_csv(&x, &t, tf, tf_ref, x.o.check == CHECK_NONE ? "none" : "pass");
    }

    CUBLAS_CHECK(cublasDestroy(x.cublas));
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
