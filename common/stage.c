/* Staging of operands whose rows are not 16-byte aligned (see matmul.h). */
#include "matmul.h"
#include "check.h"
#include <limits.h>

static bool aligned16(const void *p) { return ((uintptr_t)p & 15u) == 0; }
static int round_up8(int x) { return (int)(((int64_t)x + 7) / 8 * 8); }

bool stage_for_pitch(int M, int N, int K, double pitch_loss)
{
    const double kp = (double)(((int64_t)K + 63) / 64 * 64);
    return K % 16 != 0 && pitch_loss > 0 &&
           ((double)M + N) * (K + kp) * STAGE_FLOP_PER_BYTE < pitch_loss * (double)M * N * kp;
}

stage_plan stage_plan_make(const void *A, const void *B, const void *C,
                           int M, int N, int K, double pitch_loss)
{
    stage_plan p = {0};
    /* K % 8 != 0 breaks the row pitch of A and B; zero columns K..kp-1 add
     * nothing to the dot products, so the kernel simply runs with K = kp.
     * Staged for the pitch, kp is a multiple of 64 (128-byte rows): the
     * kernels' k-tiles are 64 wide, so they run no more of them. */
    p.for_pitch = stage_for_pitch(M, N, K, pitch_loss) && K <= INT_MAX - 63;
    p.kp = p.for_pitch ? (int)(((int64_t)K + 63) / 64 * 64) : round_up8(K);
    p.stage_a = p.kp != K || !aligned16(A);
    p.stage_b = p.kp != K || !aligned16(B);
    /* N % 8 != 0 breaks C's pitch: the kernel writes an [M, ldc] scratch and
     * only its first N columns are copied back. */
    p.ldc = round_up8(N);
    p.stage_c = p.ldc != N || !aligned16(C);
    p.bytes_a = p.stage_a ? (size_t)M * p.kp * sizeof(f16) : 0;
    p.bytes_b = p.stage_b ? (size_t)N * p.kp * sizeof(f16) : 0;
    p.bytes_c = p.stage_c ? (size_t)M * p.ldc * sizeof(f16) : 0;
    return p;
}

/* Copies a [rows, cols] fp16 matrix of pitch `cols` into scratch of pitch kp,
 * zeroing columns cols .. kp - 1 (only those: the copy writes the rest). */
static cudaError_t stage_in(void **dst, const f16 *src, int rows, int cols, int kp,
                            size_t bytes, cudaStream_t s)
{
    CUDA_TRY(cudaMallocAsync(dst, bytes, s));
    if (kp > cols)
        CUDA_TRY(cudaMemset2DAsync((f16 *)*dst + cols, (size_t)kp * sizeof(f16), 0,
                                   (size_t)(kp - cols) * sizeof(f16), (size_t)rows, s));
    CUDA_TRY(cudaMemcpy2DAsync(*dst, (size_t)kp * sizeof(f16), src,
                               (size_t)cols * sizeof(f16), (size_t)cols * sizeof(f16),
                               (size_t)rows, cudaMemcpyDeviceToDevice, s));
    return cudaSuccess;
}

cudaError_t matmul_staged(const f16 *A, const f16 *B, f16 *C, int M, int N, int K,
                          cudaStream_t stream, matmul_launch_fn launch, double pitch_loss)
{
    if (M < 1 || N < 1 || K < 1 || N > INT_MAX - 7 || K > INT_MAX - 7 || !A || !B || !C) {
        fprintf(stderr, "error: matmul: need 1 <= M, 1 <= N, K <= %d and non-null pointers "
                        "(got M=%d N=%d K=%d)\n", INT_MAX - 7, M, N, K);
        return cudaErrorInvalidValue;
    }
    stage_plan p = stage_plan_make(A, B, C, M, N, K, pitch_loss);
    void *sa = NULL, *sb = NULL, *sc = NULL;
    const f16 *a = A, *b = B;
    f16 *c = C;
    cudaError_t err = cudaSuccess;

    if (p.stage_a) {
        if ((err = stage_in(&sa, A, M, K, p.kp, p.bytes_a, stream)) != cudaSuccess) goto out;
        a = (const f16 *)sa;
    }
    if (p.stage_b) {
        if ((err = stage_in(&sb, B, N, K, p.kp, p.bytes_b, stream)) != cudaSuccess) goto out;
        b = (const f16 *)sb;
    }
    if (p.stage_c) {
        /* No need to clear it: the kernel writes every element that is copied back. */
        if ((err = cudaMallocAsync(&sc, p.bytes_c, stream)) != cudaSuccess) {
            fprintf(stderr, "error: cudaMallocAsync(C scratch, %zu bytes): %s\n",
                    p.bytes_c, cudaGetErrorString(err));
            goto out;
        }
        c = (f16 *)sc;
    }
    for (int n0 = 0; n0 < N; n0 += MATMUL_MAX_N_PER_LAUNCH) {
        int nn = N - n0 < MATMUL_MAX_N_PER_LAUNCH ? N - n0 : MATMUL_MAX_N_PER_LAUNCH;
        err = launch(a, b + (size_t)n0 * p.kp, c + n0, M, nn, p.kp, p.ldc, stream);
        if (err != cudaSuccess) goto out;
    }
    if (p.stage_c) {
        err = cudaMemcpy2DAsync(C, (size_t)N * sizeof(f16), sc, (size_t)p.ldc * sizeof(f16),
                                (size_t)N * sizeof(f16), (size_t)M,
                                cudaMemcpyDeviceToDevice, stream);
        if (err != cudaSuccess)
            fprintf(stderr, "error: cudaMemcpy2DAsync(C <- scratch): %s\n", cudaGetErrorString(err));
    }
out:;
    /* Stream-ordered frees: safe even though the kernel may still be running. */
    void *scratch[3] = {sa, sb, sc};
    for (int i = 0; i < 3; i++) {
        cudaError_t e = scratch[i] ? cudaFreeAsync(scratch[i], stream) : cudaSuccess;
        if (e != cudaSuccess) fprintf(stderr, "error: cudaFreeAsync: %s\n", cudaGetErrorString(e));
        if (err == cudaSuccess) err = e;
    }
    return err;
}
