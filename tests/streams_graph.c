/* GPU test of one step's public matmul() as a library caller uses it
 * (make test-gpu runs build/tests/streams_graph_vN, linked like ./vN):
 *
 *   streams   two non-blocking streams run matmul on different problems at
 *             once; each result must equal, bit for bit, the same call run
 *             alone (a step that kept per-call state in globals, e.g. a
 *             persistent scheduler's tile counter, fails here);
 *   graph     one call captured into a CUDA graph and replayed on new inputs
 *             written into the same buffers between replays; each replay
 *             must equal a direct call on those inputs (a step that baked
 *             host-side state into the capture, or did work outside the
 *             stream, fails here); then replays and direct calls back to
 *             back, without waiting in between.
 *
 * Inputs are small integers (fill_exact), so every result is exact and must
 * also equal cuBLAS bit for bit. Three problems go through staging
 * (stream-ordered allocations and copies, common/staged.c): one with N, K %
 * 8 != 0; one whose A, B and C start 2 bytes past a 16-byte boundary; and
 * one whose K % 16 == 8 at a size where v4 and v5 copy A and B to a 128-byte
 * pitch (the copy's 16-byte loads).
 *
 * Every wait polls with a deadline (--timeout, default 60 s): a deadlock
 * fails with one line instead of hanging. Prints "PASS <name>" or
 * "FAIL <name>: <why>" per check and "N passed, N failed" last; exits 0 iff
 * all passed, 1 on a failure, a CUDA error or no usable GPU (one line). */
#define _POSIX_C_SOURCE 200809L
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../common/baseline.h"
#include "../common/check.h"
#include "../common/gpuinfo.h"
#include "../common/matmul.h"
#include "../common/verify.h"

static double timeout_s = 60;
static int n_pass, n_fail;

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Waits for everything queued on s, or gives up after timeout_s. _Exit, not
 * exit: the runtime's exit handlers could wait on the stuck kernel. */
static void wait_stream(cudaStream_t s, const char *what)
{
    const double deadline = now_s() + timeout_s;
    for (;;) {
        cudaError_t e = cudaStreamQuery(s);
        if (e == cudaSuccess) return;
        if (e != cudaErrorNotReady) CUDA_CHECK(e);
        if (now_s() > deadline) {
            printf("FAIL %s: not finished after %.0f s (deadlock?)\n", what, timeout_s);
            fflush(stdout);
            fprintf(stderr, "streams_graph: error: %s did not finish within %.0f s\n", what,
                    timeout_s);
            _Exit(EXIT_FAILURE);
        }
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
}

static void report(bool ok, const char *name, const char *why)
{
    if (ok) {
        n_pass++;
        printf("PASS %s\n", name);
    } else {
        n_fail++;
        printf("FAIL %s: %s\n", name, why);
    }
    fflush(stdout);
}

typedef struct {
    int M, N, K;
    int off;           /* elements from each allocation's start to dA, dB, dC */
    f16 *dA, *dB, *dC;
    f16 *hA, *hB;
    f16 *alone; /* C of the call run by itself: the reference of every check */
    f16 *got;   /* C downloaded after the call under test                  */
    char name[64];
} problem;

static size_t nel(int r, int c) { return (size_t)r * (size_t)c; }

static void *host_alloc(size_t bytes)
{
    void *p = malloc(bytes);
    if (!p) {
        fprintf(stderr, "streams_graph: error: out of host memory (%zu bytes)\n", bytes);
        exit(EXIT_FAILURE);
    }
    return p;
}

static void problem_init(problem *p, int M, int N, int K, int off)
{
    p->M = M, p->N = N, p->K = K, p->off = off;
    snprintf(p->name, sizeof p->name, off ? "%dx%dx%d at +%d bytes" : "%dx%dx%d", M, N, K,
             off * (int)sizeof(f16));
    CUDA_CHECK(cudaMalloc((void **)&p->dA, (nel(M, K) + off) * sizeof(f16)));
    CUDA_CHECK(cudaMalloc((void **)&p->dB, (nel(N, K) + off) * sizeof(f16)));
    CUDA_CHECK(cudaMalloc((void **)&p->dC, (nel(M, N) + off) * sizeof(f16)));
    p->dA += off, p->dB += off, p->dC += off;
    p->hA = host_alloc(nel(M, K) * sizeof(f16));
    p->hB = host_alloc(nel(N, K) * sizeof(f16));
    p->alone = host_alloc(nel(M, N) * sizeof(f16));
    p->got = host_alloc(nel(M, N) * sizeof(f16));
}

static void problem_free(problem *p)
{
    CUDA_CHECK(cudaFree(p->dA - p->off));
    CUDA_CHECK(cudaFree(p->dB - p->off));
    CUDA_CHECK(cudaFree(p->dC - p->off));
    free(p->hA);
    free(p->hB);
    free(p->alone);
    free(p->got);
}

/* New exact inputs into the same device buffers (the streams are idle).
 * From pageable memory, cudaMemcpy may return before its DMA to the device
 * has finished, and the tests' non-blocking streams do not wait for the
 * legacy stream that carries it: without the synchronization the next call
 * could read inputs half written. */
static void set_inputs(problem *p, uint64_t seed)
{
    fill_exact(p->hA, nel(p->M, p->K), 2 * seed);
    fill_exact(p->hB, nel(p->N, p->K), 2 * seed + 1);
    CUDA_CHECK(cudaMemcpy(p->dA, p->hA, nel(p->M, p->K) * sizeof(f16), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(p->dB, p->hB, nel(p->N, p->K) * sizeof(f16), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaDeviceSynchronize());
}

/* NaN (0xFFFF) everywhere: an element a call does not write cannot match. */
static void poison(problem *p, cudaStream_t s)
{
    CUDA_CHECK(cudaMemsetAsync(p->dC, 0xFF, nel(p->M, p->N) * sizeof(f16), s));
}

static void call(problem *p, cudaStream_t s)
{
    CUDA_CHECK(matmul(p->dA, p->dB, p->dC, p->M, p->N, p->K, s));
}

static void download(problem *p, f16 *host, cudaStream_t s, const char *what)
{
    wait_stream(s, what);
    CUDA_CHECK(cudaMemcpy(host, p->dC, nel(p->M, p->N) * sizeof(f16), cudaMemcpyDeviceToHost));
}

/* The call alone into p->alone, checked against cuBLAS (exact data: bitwise). */
static bool run_alone(problem *p, cudaStream_t s, cublasHandle_t h, const char *check)
{
    poison(p, s);
    CUBLAS_CHECK(cublasSetStream(h, s));
    CUBLAS_CHECK(cublas_matmul(h, p->dA, p->dB, p->dC, p->M, p->N, p->K));
    download(p, p->got, s, "cuBLAS");
    poison(p, s);
    call(p, s);
    download(p, p->alone, s, check);
    return check_bitwise(p->alone, p->got, p->M, p->N, "alone vs cuBLAS").bad == 0;
}

static bool same_as_alone(problem *p, const char *label)
{
    return check_bitwise(p->got, p->alone, p->M, p->N, label).bad == 0;
}

/* Two problems on two streams at once, `rounds` calls each, issued
 * alternately so that both streams have work queued at the same time. */
static void test_streams(problem *a, problem *b, cublasHandle_t h)
{
    enum { ROUNDS = 4 };
    char name[192], why[256];
    cudaStream_t sa, sb;
    CUDA_CHECK(cudaStreamCreateWithFlags(&sa, cudaStreamNonBlocking));
    CUDA_CHECK(cudaStreamCreateWithFlags(&sb, cudaStreamNonBlocking));
    snprintf(name, sizeof name, "streams: %s and %s at once, %d calls each", a->name, b->name,
             ROUNDS);

    set_inputs(a, 1);
    set_inputs(b, 2);
    bool ok_a = run_alone(a, sa, h, "alone"), ok_b = run_alone(b, sb, h, "alone");
    snprintf(why, sizeof why, "the call alone differs from cuBLAS (%s: %s, %s: %s)", a->name,
             ok_a ? "equal" : "DIFFERS", b->name, ok_b ? "equal" : "DIFFERS");
    char alone_name[192];
    snprintf(alone_name, sizeof alone_name, "alone == cuBLAS bitwise: %s and %s", a->name, b->name);
    report(ok_a && ok_b, alone_name, why);

    /* Events bracket each stream's work: whether the two overlapped in time
     * is reported, not required (a kernel that fills the GPU may run first). */
    cudaEvent_t a0, a1, b0, b1;
    CUDA_CHECK(cudaEventCreate(&a0));
    CUDA_CHECK(cudaEventCreate(&a1));
    CUDA_CHECK(cudaEventCreate(&b0));
    CUDA_CHECK(cudaEventCreate(&b1));
    poison(a, sa);
    poison(b, sb);
    CUDA_CHECK(cudaEventRecord(a0, sa));
    CUDA_CHECK(cudaEventRecord(b0, sb));
    for (int r = 0; r < ROUNDS; r++) {
        call(a, sa);
        call(b, sb);
    }
    CUDA_CHECK(cudaEventRecord(a1, sa));
    CUDA_CHECK(cudaEventRecord(b1, sb));
    download(a, a->got, sa, name);
    download(b, b->got, sb, name);
    float b0_to_a1 = 0, a0_to_b1 = 0;
    CUDA_CHECK(cudaEventElapsedTime(&b0_to_a1, b0, a1)); /* > 0: b started before a ended */
    CUDA_CHECK(cudaEventElapsedTime(&a0_to_b1, a0, b1));
    bool eq_a = same_as_alone(a, "stream a vs alone"), eq_b = same_as_alone(b, "stream b vs alone");
    snprintf(why, sizeof why, "%s %s, %s %s the call alone", a->name,
             eq_a ? "equals" : "DIFFERS from", b->name, eq_b ? "equals" : "DIFFERS from");
    size_t len = strlen(name);
    snprintf(name + len, sizeof name - len, " (their work %s in time)",
             b0_to_a1 > 0 && a0_to_b1 > 0 ? "overlapped" : "did not overlap");
    report(eq_a && eq_b, name, why);

    CUDA_CHECK(cudaEventDestroy(a0));
    CUDA_CHECK(cudaEventDestroy(a1));
    CUDA_CHECK(cudaEventDestroy(b0));
    CUDA_CHECK(cudaEventDestroy(b1));
    CUDA_CHECK(cudaStreamDestroy(sa));
    CUDA_CHECK(cudaStreamDestroy(sb));
}

/* One call captured into a graph, replayed on new inputs in the same buffers. */
static void test_graph(problem *p, cublasHandle_t h)
{
    enum { REPLAYS = 4, BACK_TO_BACK = 5 };
    char name[192], why[256];
    cudaStream_t s;
    cudaGraph_t g;
    cudaGraphExec_t ge;
    CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

    set_inputs(p, 100);
    CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    call(p, s);
    CUDA_CHECK(cudaStreamEndCapture(s, &g));
    CUDA_CHECK(cudaGraphInstantiate(&ge, g, 0));

    snprintf(name, sizeof name, "graph %s: %d replays on new inputs == direct calls", p->name,
             REPLAYS);
    int bad = -1;
    why[0] = '\0';
    for (int r = 0; r < REPLAYS; r++) {
        set_inputs(p, 101 + (uint64_t)r);
        if (!run_alone(p, s, h, name)) { /* direct call on these inputs, vs cuBLAS */
            snprintf(why, sizeof why, "replay %d: the direct call differs from cuBLAS", r);
            bad = r;
            break;
        }
        poison(p, s);
        CUDA_CHECK(cudaGraphLaunch(ge, s));
        download(p, p->got, s, name);
        if (!same_as_alone(p, "replay vs direct call")) {
            snprintf(why, sizeof why, "replay %d differs from the direct call on its inputs", r);
            bad = r;
            break;
        }
    }
    report(bad < 0, name, why);

    /* Back to back, nothing between the launches; the last inputs are still
     * in place and p->alone is the direct call on them. */
    snprintf(name, sizeof name, "graph %s: %d replays back to back", p->name, BACK_TO_BACK);
    poison(p, s);
    for (int r = 0; r < BACK_TO_BACK; r++) CUDA_CHECK(cudaGraphLaunch(ge, s));
    download(p, p->got, s, name);
    report(same_as_alone(p, "back-to-back replays vs direct call"), name,
           "result differs from the direct call");

    snprintf(name, sizeof name, "direct %s: %d calls back to back", p->name, BACK_TO_BACK);
    poison(p, s);
    for (int r = 0; r < BACK_TO_BACK; r++) call(p, s);
    download(p, p->got, s, name);
    report(same_as_alone(p, "back-to-back calls vs one call"), name,
           "result differs from a single call");

    CUDA_CHECK(cudaGraphExecDestroy(ge));
    CUDA_CHECK(cudaGraphDestroy(g));
    CUDA_CHECK(cudaStreamDestroy(s));
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        char *end = NULL;
        if (strcmp(argv[i], "--timeout") == 0 && i + 1 < argc &&
            (timeout_s = strtod(argv[i + 1], &end)) > 0 && *end == '\0') {
            i++;
        } else {
            fprintf(stderr, "usage: %s [--timeout SECONDS]\n", argv[0]);
            return 2;
        }
    }
    gpu_info gi;
    char err[512];
    if (gpu_open(&gi, err, sizeof err) != 0) {
        fprintf(stderr, "%s: error: %s\n", argv[0], err);
        return 1;
    }
    printf("gpu %s\n", gi.name);

    cublasHandle_t h;
    CUBLAS_CHECK(cublasCreate(&h));
    /* Aligned shapes of different sizes and tile counts, and three staged:
     * N, K % 8 != 0; every pointer 2 bytes past 16-byte alignment; K % 16 ==
     * 8 where v4 and v5 stage A and B for the pitch (4096 x 4096: the copy
     * costs less than the pitch would, matmul.h). */
    problem p1, p2, p3, p4, p5;
    problem_init(&p1, 1000, 1032, 520, 0);
    problem_init(&p2, 2048, 768, 1024, 0);
    problem_init(&p3, 129, 131, 133, 0);
    problem_init(&p4, 264, 136, 200, 1);
    problem_init(&p5, 4096, 4096, 1032, 0);

    test_streams(&p1, &p2, h);
    test_streams(&p2, &p3, h);
    test_graph(&p1, h);
    test_graph(&p3, h);
    test_graph(&p4, h);
    test_graph(&p5, h);

    CUBLAS_CHECK(cublasDestroy(h));
    problem_free(&p1);
    problem_free(&p2);
    problem_free(&p3);
    problem_free(&p4);
    problem_free(&p5);
    printf("%d passed, %d failed\n", n_pass, n_fail);
    return n_fail ? 1 : 0;
}
