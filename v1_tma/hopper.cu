/* v1_tma: tile copies by the TMA engine, completing on an mbarrier (sm_90a).
 *
 * Previous step: v0_single_warp (128 threads copy with cp.async, then wgmma).
 *
 * The idea: the copy engine and the mbarrier. One thread describes each tile
 * copy to the TMA unit (a tensor map + the tile's coordinates) and announces
 * the bytes it expects on an mbarrier (arrive.expect_tx); the copy engine does
 * the addressing, the 128-byte swizzle and the zero fill past the edges, and
 * counts the bytes in as they land. Everyone waits on the mbarrier's phase.
 * The epilogue goes the other way: registers -> shared memory (swizzled) ->
 * fence.proxy.async -> a TMA store per 64-column slice of the tile, which
 * clips at the matrix edge by itself.
 *
 * Tile: the same 128 x 128 tile and one warpgroup as v0.
 *
 * PTX first used here (wrappers in common/): mbarrier.init / arrive.expect_tx /
 * try_wait.parity, fence.mbarrier_init, cp.async.bulk.tensor (load and store),
 * cp.async.bulk.commit_group / wait_group.read.
 *
 * Costs and gains: the threads no longer compute addresses, swizzle or
 * zero-fill; about twice v0's ratio to cuBLAS at 8192^3 (README.md, the
 * ladder). Still one k-tile at a time: load, wait, multiply, wait.
 *
 * Run: make v1 && ./v1 8192 8192 8192
 */
#include <cuda_fp16.h>
#include "../common/matmul.h"
#include "../common/check.h"
#include "../common/smem.cuh"
#include "../common/fence.cuh"
#include "../common/wgmma.cuh"
#include "../common/mbarrier.cuh"
#include "../common/tma.cuh"
#include "../common/tmap.h"

#define BM 128                        /* rows of C per CTA                          */
#define BN 128                        /* columns of C per CTA                       */
#define BK 64                         /* K per tile: 64 fp16 = 128 B = one swizzle row */
#define THREADS 128                   /* one warpgroup                               */

/* Shared memory: tile A [BM][BK] then tile B [BN][BK], both K-major in the
 * 128-byte swizzle (see wgmma_desc_k_sw128), 16 KB each. The epilogue reuses
 * the same 32 KB for the C tile [BM][BN] as two [BM][64] swizzled slices. */
#define TILE_A_BYTES (BM * BK * 2)
#define TILE_B_BYTES (BN * BK * 2)
#define STAGE_BYTES (TILE_A_BYTES + TILE_B_BYTES)
#define SMEM_BYTES (STAGE_BYTES + 1024) /* + room to align to 1024 */

/* Issued by one thread: TMA copies of k-tile kt of A (rows m0..) and B (rows
 * n0..) into the stage, announced to its full barrier. Out-of-bounds rows and
 * columns arrive as zeros and still count toward the expected bytes. */
__device__ __forceinline__ void load_stage(uint8_t *stage, uint64_t *full,
                                           const CUtensorMap *tmap_a, const CUtensorMap *tmap_b,
                                           int kt, int m0, int n0)
{
    mbarrier_arrive_expect_tx(full, STAGE_BYTES);
    cp_async_bulk_tensor_2d_global_to_shared(stage, tmap_a, kt * BK, m0, full);
    cp_async_bulk_tensor_2d_global_to_shared(stage + TILE_A_BYTES, tmap_b, kt * BK, n0, full);
}

__global__ void __launch_bounds__(THREADS)
matmul_kernel(const __grid_constant__ CUtensorMap tmap_a, const __grid_constant__ CUtensorMap tmap_b,
              const __grid_constant__ CUtensorMap tmap_c, int M, int N, int K)
{
    extern __shared__ uint8_t smem_raw[];
    uint8_t *smem = align1024(smem_raw);

    __shared__ uint64_t full; /* phase completes when a k-tile's A and B have landed */

    const int tid = threadIdx.x;
    const int m0 = blockIdx.x * BM;
    const int n0 = blockIdx.y * BN;
    const int k_tiles = (K + BK - 1) / BK;

    if (tid == 0) {
        mbarrier_init(&full, 1); /* one arrival: the thread that issues the copies */
        fence_mbarrier_init_release_cluster();
    }
    __syncthreads();

    /* acc[h]: the m64n128 fragment of rows 64h .. 64h + 63 of the tile. */
    float acc[2][64];
#pragma unroll
    for (int h = 0; h < 2; h++)
#pragma unroll
        for (int i = 0; i < 64; i++)
            acc[h][i] = 0.0f;

    for (int kt = 0; kt < k_tiles; kt++) {
        if (tid == 0)
            load_stage(smem, &full, &tmap_a, &tmap_b, kt, m0, n0);
        uint8_t *tile_a = smem;                  /* [BM][BK] fp16, swizzled */
        uint8_t *tile_b = tile_a + TILE_A_BYTES; /* [BN][BK] fp16, swizzled */
        /* The barrier's phase flips once per k-tile: k-tile kt completes phase kt % 2. */
        mbarrier_wait_parity(&full, kt % 2);

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

    /* Epilogue: registers -> shared memory -> TMA store. The C tile [BM][BN]
     * is stored as BN / 64 column slices [BM][64], 16 KB each, in the same 128-byte
     * swizzle as the inputs: a warp's 32 four-byte writes then fall in 32
     * different banks. The tile buffers are free: every wgmma has completed. */
    const int warp = tid / 32, lane = tid % 32;
#pragma unroll
    for (int h = 0; h < 2; h++)
#pragma unroll
        for (int j = 0; j < BN / 8; j++)
#pragma unroll
            for (int half = 0; half < 2; half++) {
                const int r = h * 64 + warp * 16 + lane / 4 + half * 8; /* row in tile     */
                const int slice = j / 8, chunk = j % 8;                  /* 64-col slice    */
                uint8_t *dst = smem + slice * (BM * 128) + r * 128 + ((chunk ^ (r % 8)) << 4) +
                               (lane % 4) * 4;
                *(__half2 *)dst =
                    __floats2half2_rn(acc[h][j * 4 + half * 2], acc[h][j * 4 + half * 2 + 1]);
            }
    fence_proxy_async_shared_cta(); /* generic-proxy writes, read next by TMA (async proxy) */
    __syncthreads();
    if (tid == 0) {
        for (int slice = 0; slice < BN / 64; slice++)
            if (n0 + slice * 64 < N) /* TMA clips partial boxes; skip wholly outside ones */
                cp_async_bulk_tensor_2d_shared_to_global(&tmap_c, n0 + slice * 64, m0,
                                                         smem + slice * (BM * 128));
        cp_async_bulk_commit_group();
        cp_async_bulk_wait_group_read<0>(); /* shared memory must outlive the store's reads */
    }
}

static cudaError_t launch(const f16 *A, const f16 *B, f16 *C, int M, int N, int K, int ldc,
                          cudaStream_t stream)
{
    /* A and B are read in [BM or BN rows x 64 K] boxes, C is written in
     * [BM x 64] boxes; all in the 128-byte swizzle the kernel's smem layout assumes. */
    CUtensorMap tmap_a, tmap_b, tmap_c;
    tmap_desc da = tmap_desc_make(A, M, K, K, BM, BK, CU_TENSOR_MAP_SWIZZLE_128B);
    tmap_desc db = tmap_desc_make(B, N, K, K, BN, BK, CU_TENSOR_MAP_SWIZZLE_128B);
    tmap_desc dc = tmap_desc_make(C, M, N, ldc, BM, 64, CU_TENSOR_MAP_SWIZZLE_128B);
    CUDA_TRY(tmap_encode(&tmap_a, &da));
    CUDA_TRY(tmap_encode(&tmap_b, &db));
    CUDA_TRY(tmap_encode(&tmap_c, &dc));

    const dim3 grid((M + BM - 1) / BM, (N + BN - 1) / BN);
    CUDA_TRY(cudaFuncSetAttribute(matmul_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  SMEM_BYTES));
    matmul_kernel<<<grid, THREADS, SMEM_BYTES, stream>>>(tmap_a, tmap_b, tmap_c, M, N, K);
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
