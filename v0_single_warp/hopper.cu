/* v0_single_warp: the smallest tensor-core matmul on Hopper (sm_90a).
 *
 * Previous step: none; this is the first rung of the ladder.
 *
 * The idea: asynchronous tensor-core MMA straight from shared memory. The
 * 128 threads copy one k-tile of A and B into shared memory (cp.async), then
 * issue wgmma, which reads both operands from shared memory through matrix
 * descriptors and accumulates into registers, and wait for it to finish.
 * One k-tile at a time: copy, wait, multiply, wait.
 *
 * Why a warpgroup and not one warp: on Blackwell one thread issues tcgen05.mma
 * for the whole CTA and the accumulator lives in tensor memory. Hopper's
 * asynchronous MMA, wgmma, is issued by a warpgroup (4 warps, 128 threads)
 * together, and the 64 x N accumulator is spread over the registers of those
 * 128 threads. So the Blackwell step's 4 copy warps + 1 MMA warp become one
 * warpgroup that both copies and multiplies.
 *
 * Tile: each CTA computes a 128 x 128 tile of C, as two m64n128k16 wgmma per
 * 16-wide slice of K (rows 0-63 and 64-127), 128 fp32 accumulators a thread.
 *
 * PTX first used here (wrappers in common/): cp.async.cg + commit/wait_all,
 * fence.proxy.async, wgmma.fence / mma_async / commit_group / wait_group.
 *
 * Costs and gains: nothing overlaps inside a CTA, so the tensor cores idle
 * through every copy; only the other CTAs resident on the SM (three fit)
 * hide the waits. Well under half of cuBLAS at 8192^3 (README.md, Results).
 *
 * Run: make v0 && ./v0 8192 8192 8192
 */
#include <cuda_fp16.h>
#include "../common/matmul.h"
#include "../common/check.h"
#include "../common/smem.cuh"
#include "../common/fence.cuh"
#include "../common/wgmma.cuh"
#include "../common/cp_async.cuh"

#define BM 128                        /* rows of C per CTA                          */
#define BN 128                        /* columns of C per CTA                       */
#define BK 64                         /* K per tile: 64 fp16 = 128 B = one swizzle row */
#define THREADS 128                   /* one warpgroup                               */

/* Shared memory: tile A [BM][BK] then tile B [BN][BK], both K-major in the
 * 128-byte swizzle (see wgmma_desc_k_sw128), 16 KB each. */
#define TILE_A_BYTES (BM * BK * 2)
#define TILE_B_BYTES (BN * BK * 2)
#define SMEM_BYTES (TILE_A_BYTES + TILE_B_BYTES + 1024) /* + room to align to 1024 */

__global__ void __launch_bounds__(THREADS)
matmul_kernel(const __half *A, const __half *B, __half *C, int M, int N, int K, int ldc)
{
    extern __shared__ uint8_t smem_raw[];
    uint8_t *smem = align1024(smem_raw);

    const int tid = threadIdx.x;
    const int m0 = blockIdx.x * BM;
    const int n0 = blockIdx.y * BN;
    const int k_tiles = (K + BK - 1) / BK;

    /* acc[h]: the m64n128 fragment of rows 64h .. 64h + 63 of the tile. */
    float acc[2][64];
#pragma unroll
    for (int h = 0; h < 2; h++)
#pragma unroll
        for (int i = 0; i < 64; i++)
            acc[h][i] = 0.0f;

    for (int kt = 0; kt < k_tiles; kt++) {
        uint8_t *tile_a = smem;                  /* [BM][BK] fp16, swizzled */
        uint8_t *tile_b = tile_a + TILE_A_BYTES; /* [BN][BK] fp16, swizzled */
        /* Copy A rows m0.. and B rows n0.. as 16-byte chunks: chunk c of tile
         * row r goes to chunk position c ^ (r % 8), the 128-byte swizzle; eight
         * consecutive threads read one 128-byte row, so loads coalesce. Rows
         * past M or N and chunks past K become zeros (K % 8 == 0, so a chunk
         * is wholly inside or wholly outside). */
        for (int i = tid; i < (BM + BN) * (BK / 8); i += THREADS) {
            const int r = i / (BK / 8), c = i % (BK / 8);
            const bool is_a = r < BM;
            const int row = is_a ? m0 + r : n0 + (r - BM);
            const int k = kt * BK + c * 8;
            const bool inside = row < (is_a ? M : N) && k < K;
            const __half *base = is_a ? A : B;
            const __half *src = inside ? base + (size_t)row * K + k : base;
            const uint32_t dst = smem_u32(smem) + r * 128 + ((c ^ (r % 8)) << 4);
            cp_async_cg_shared_global_16(dst, src, inside ? 16 : 0);
        }
        cp_async_commit_group();
        cp_async_wait_all();
        fence_proxy_async_shared_cta(); /* cp.async wrote in the generic proxy; wgmma reads in the async one */
        __syncthreads();

        wgmma_fence();
#pragma unroll
        for (int k = 0; k < BK / 16; k++) {
            /* 16 fp16 of K = 32 bytes along each swizzled row. */
            const uint64_t db = wgmma_desc_k_sw128(tile_b + k * 32);
#pragma unroll
            for (int h = 0; h < 2; h++) {
                const uint64_t da = wgmma_desc_k_sw128(tile_a + h * 64 * 128 + k * 32);
                wgmma_m64n128k16_f32_f16_f16(acc[h], da, db, 1);
            }
        }
        wgmma_commit_group();
        wgmma_wait_group<0>();
        __syncthreads(); /* every warp's wgmma has read the tile before it is overwritten */
    }

    /* Epilogue: each thread writes its fragment straight to global memory as
     * pairs of fp16. ldc may exceed N (staged C); a pair whose first column is
     * inside N is written whole, its second column landing in the padding. */
    const int warp = tid / 32, lane = tid % 32;
#pragma unroll
    for (int h = 0; h < 2; h++)
#pragma unroll
        for (int j = 0; j < BN / 8; j++)
#pragma unroll
            for (int half = 0; half < 2; half++) {
                const int row = m0 + h * 64 + warp * 16 + lane / 4 + half * 8;
                const int col = n0 + j * 8 + (lane % 4) * 2;
                if (row < M && col < N)
                    *(__half2 *)(C + (size_t)row * ldc + col) =
                        __floats2half2_rn(acc[h][j * 4 + half * 2], acc[h][j * 4 + half * 2 + 1]);
            }
}

static cudaError_t launch(const f16 *A, const f16 *B, f16 *C, int M, int N, int K, int ldc,
                          cudaStream_t stream)
{
    const dim3 grid((M + BM - 1) / BM, (N + BN - 1) / BN);
    CUDA_TRY(cudaFuncSetAttribute(matmul_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  SMEM_BYTES));
    matmul_kernel<<<grid, THREADS, SMEM_BYTES, stream>>>(
        (const __half *)A, (const __half *)B, (__half *)C, M, N, K, ldc);
    CUDA_TRY(cudaGetLastError());
    return cudaSuccess;
}

/* Share of this step's time lost to a row pitch of A and B that is 16 but
 * not 32 bytes aligned (K % 16 == 8); matmul_staged() copies them to a
 * 128-byte pitch where that is cheaper (matmul.h). Not measured for this
 * step: 0, never copied for the pitch alone. */
#ifndef PITCH_LOSS /* -DPITCH_LOSS=0 builds the step without the copy, to measure the loss */
#define PITCH_LOSS 0.0
#endif

extern "C" cudaError_t matmul_sm90(const f16 *A, const f16 *B, f16 *C, int M, int N, int K,
                                   cudaStream_t stream)
{
    return matmul_staged(A, B, C, M, N, K, stream, launch, PITCH_LOSS);
}
