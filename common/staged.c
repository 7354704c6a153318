/* matmul_staged (matmul.h): runs a step's launcher on an aligned view of the
 * problem, staging what stage_plan_make says in one kernel before the
 * launch (A and B) and one after it (C): stage_copy.cu. */
#include "matmul.h"
#include "stage.h"
#include "check.h"
#include <limits.h>

cudaError_t matmul_staged(const f16 *A, const f16 *B, f16 *C, int M, int N, int K,
                          cudaStream_t stream, matmul_launch_fn launch, double pitch_loss)
{
    if (M < 1 || N < 1 || K < 1 || N > INT_MAX - 7 || K > INT_MAX - 7 || !A || !B || !C) {
        fprintf(stderr, "error: matmul: need 1 <= M, 1 <= N, K <= %d and non-null pointers "
                        "(got M=%d N=%d K=%d)\n", INT_MAX - 7, M, N, K);
        return cudaErrorInvalidValue;
    }
    const stage_plan p = stage_plan_make(A, B, C, M, N, K, pitch_loss);
    void *scratch[3] = {NULL, NULL, NULL}; /* A, B, C */
    const size_t bytes[3] = {p.bytes_a, p.bytes_b, p.bytes_c};
    cudaError_t err = cudaSuccess;
    for (int i = 0; i < 3 && err == cudaSuccess; i++)
        if (bytes[i] && (err = cudaMallocAsync(&scratch[i], bytes[i], stream)) != cudaSuccess)
            fprintf(stderr, "error: cudaMallocAsync(%zu bytes of scratch): %s\n", bytes[i],
                    cudaGetErrorString(err));
    const f16 *a = p.stage_a ? (const f16 *)scratch[0] : A, *b = p.stage_b ? (const f16 *)scratch[1] : B;
    f16 *c = p.stage_c ? (f16 *)scratch[2] : C;

    /* A and B at pitch kp, zero past K (those columns add nothing to the
     * dot products, so the kernel simply runs with K = kp). */
    if (err == cudaSuccess && (p.stage_a || p.stage_b)) {
        const stage_copy none = {NULL, NULL, 0, 0, 8, 0};
        const stage_copy sa = {A, scratch[0], M, K, p.kp, p.wide_a};
        const stage_copy sb = {B, scratch[1], N, K, p.kp, p.wide_b};
        err = stage_copy_in(p.stage_a ? sa : none, p.stage_b ? sb : none, stream);
    }
    for (int n0 = 0; n0 < N && err == cudaSuccess; n0 += MATMUL_MAX_N_PER_LAUNCH) {
        const int nn = N - n0 < MATMUL_MAX_N_PER_LAUNCH ? N - n0 : MATMUL_MAX_N_PER_LAUNCH;
        err = launch(a, b + (size_t)n0 * p.kp, c + n0, M, nn, p.kp, p.ldc, stream);
    }
    /* C's first N columns back from the [M, ldc] scratch the kernel wrote
     * (every element of them: no need to clear it first). */
    if (err == cudaSuccess && p.stage_c) {
        const stage_copy sc = {scratch[2], C, M, N, p.ldc, 0};
        err = stage_copy_out(sc, stream);
    }
    /* Stream-ordered frees: safe even though the kernels may still be running. */
    for (int i = 0; i < 3; i++) {
        const cudaError_t e = scratch[i] ? cudaFreeAsync(scratch[i], stream) : cudaSuccess;
        if (e != cudaSuccess) fprintf(stderr, "error: cudaFreeAsync: %s\n", cudaGetErrorString(e));
        if (err == cudaSuccess) err = e;
    }
    return err;
}
