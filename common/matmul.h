/* The one entry point every step defines, and the shape contract around it.
 *
 *   C[M,N] = A[M,K] * B[N,K]^T,  A, B, C fp16 row-major, fp32 accumulation.
 *
 * Any M, N, K >= 1 works. The kernels want 16-byte aligned rows (TMA and
 * 16-byte cp.async), so matmul_staged() copies unaligned operands into
 * aligned scratch and back; that work is part of the call and of its time. */
#ifndef COMMON_MATMUL_H
#define COMMON_MATMUL_H

#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* An fp16 value as its IEEE binary16 bit pattern: C11 has no half type. */
typedef uint16_t f16;

/* The public entry point (common/dispatch.c): runs the step's kernel for the
 * current device, matmul_sm90 on compute capability 9.0, matmul_sm100 on 10.0;
 * on anything else, or on 10.0 in a step without a Blackwell kernel, it
 * prints one line and returns cudaErrorNoKernelImageForDevice. Device
 * pointers; returns cudaSuccess or the first error (already printed to stderr). */
cudaError_t matmul(const f16 *A, const f16 *B, f16 *C, int M, int N, int K,
                   cudaStream_t stream);

/* Defined by each vN_name/hopper.cu (sm_90a: H100, H200). */
cudaError_t matmul_sm90(const f16 *A, const f16 *B, f16 *C, int M, int N, int K,
                        cudaStream_t stream);

/* Defined by each vN_name/blackwell.cu (sm_100a: B200, GB200), where the step has one. */
cudaError_t matmul_sm100(const f16 *A, const f16 *B, f16 *C, int M, int N, int K,
                         cudaStream_t stream);

/* What a step's kernel launcher may assume: A, B, C 16-byte aligned, K % 8 == 0,
 * ldc % 8 == 0 (ldc = row pitch of C in elements, >= N), N <= MATMUL_MAX_N_PER_LAUNCH. */
typedef cudaError_t (*matmul_launch_fn)(const f16 *A, const f16 *B, f16 *C,
                                        int M, int N, int K, int ldc,
                                        cudaStream_t stream);

/* Columns per launch: keeps a 2D grid's y extent (N / 128 tiles) under 65535. */
#define MATMUL_MAX_N_PER_LAUNCH (1 << 22)

/* How a call's operands are staged; pure arithmetic, tested on the host. */
typedef struct {
    bool stage_a, stage_b, stage_c; /* operand goes through scratch          */
    bool for_pitch;                 /* A and B staged for speed (see below)  */
    bool wide_a, wide_b;            /* staged, and its rows are 16-byte aligned
                                       already (K % 8 == 0, aligned pointer):
                                       copied in 16-byte loads              */
    int kp;                         /* K the kernel sees: K rounded up to 8,
                                       or to 64 when staged for the pitch    */
    int ldc;                        /* row pitch of the C the kernel writes   */
    size_t bytes_a, bytes_b, bytes_c; /* scratch sizes (0 if not staged)      */
} stage_plan;

/* Rows of A and B whose pitch is a multiple of 16 bytes but not of 32 (K % 16
 * == 8) start halfway into a 32-byte L2 sector on every other row: each
 * 128-byte row of a TMA box then touches 5 sectors in 2 requests instead of
 * 4 in 1 (Nsight Compute, v6 at 4096 x 4096 x 4104 on an H100: 22.4 M L2
 * requests against 11.8 M at K = 4096, 4160). A step that loses the fraction
 * `pitch_loss` of its time to that (measured per step; 0: never staged for
 * it) gets A and B copied to a 128-byte pitch (K rounded up to kp, a
 * multiple of 64) when the copy is cheaper: it moves 2 (M + N) (K + kp)
 * bytes at DRAM speed, the loss is pitch_loss of 2 M N kp flops at tensor
 * speed (the kernels run kp / 64 k-tiles either way), so copy when
 *     (M + N) (K + kp) * STAGE_FLOP_PER_BYTE < pitch_loss * M * N * kp
 * (for large K about 2 (M + N) * STAGE_FLOP_PER_BYTE < pitch_loss * M * N).
 * STAGE_FLOP_PER_BYTE: an H100's ~750 dense fp16 TFLOPS over its ~3 TB/s. */
#define STAGE_FLOP_PER_BYTE 250.0
bool stage_for_pitch(int M, int N, int K, double pitch_loss);

stage_plan stage_plan_make(const void *A, const void *B, const void *C,
                           int M, int N, int K, double pitch_loss);

/* Runs launch() on an aligned view of the problem: stages what the plan says,
 * splits N into launches of at most MATMUL_MAX_N_PER_LAUNCH columns, copies C back. */
cudaError_t matmul_staged(const f16 *A, const f16 *B, f16 *C, int M, int N, int K,
                          cudaStream_t stream, matmul_launch_fn launch, double pitch_loss);

#ifdef __cplusplus
}
#endif
#endif
