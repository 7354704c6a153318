/* v2_pipeline: a ring of shared-memory stages, loads running ahead (sm_90a).
 *
 * Previous step: v1_tma (one stage: load, wait, multiply, wait).
 *
 * The idea: software pipelining. Shared memory holds STAGES k-tiles in a ring,
 * each with its own "full" mbarrier. The copies for the next STAGES - 1
 * k-tiles are in flight while the tensor cores work on the current one, so
 * the load latency is hidden behind the MMAs instead of added to them.
 *
 * Phase bits: stage s is filled for the i-th time by k-tile kt = s + i*STAGES
 * and that fill completes phase i of full[s], so the consumer waits for parity
 * (kt / STAGES) % 2. A stage is refilled only after the wgmma that read it have
 * completed (wait_group 0 + __syncthreads at the end of each iteration).
 *
 * Tile: the same 128 x 128 tile and one warpgroup as v1; STAGES = 3.
 *
 * PTX first used here: none; the same barriers, one per stage.
 *
 * Costs and gains: 3 x 32 KB of tiles lets two CTAs share an SM (2 x 97 KB
 * of the 227 KB), so one CTA's MMAs fill the gaps of the other (its wgmma
 * drain at every k-tile, its epilogue); four stages and one CTA per SM ran
 * slower. On an H200 it reaches cuBLAS at 8192^3; on an H100 there, and at
 * 16384^3 on both, it falls below v1: the plain 2D launch order misses L2
 * and v2 reads more from DRAM (plots/NOTES.md, v2_pipeline).
 *
 * Run: make v2 && ./v2 8192 8192 8192
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
#define STAGES 3                      /* k-tiles resident in the ring                */

/* Shared memory: a ring of STAGES stages, each tile A [BM][BK] then tile B
 * [BN][BK], both K-major in the 128-byte swizzle (see wgmma_desc_k_sw128),
 * 16 KB each. The epilogue reuses the first 32 KB for the C tile [BM][BN] as
 * two [BM][64] swizzled slices. */
#define TILE_A_BYTES (BM * BK * 2)
#define TILE_B_BYTES (BN * BK * 2)
#define STAGE_BYTES (TILE_A_BYTES + TILE_B_BYTES)
#define SMEM_BYTES (STAGES * STAGE_BYTES + 1024) /* + room to align to 1024 */

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

    __shared__ uint64_t full[STAGES]; /* full[s] completes when stage s has landed */

    const int tid = threadIdx.x;
    const int m0 = blockIdx.x * BM;
    const int n0 = blockIdx.y * BN;
    const int k_tiles = (K + BK - 1) / BK;

    if (tid == 0) {
        for (int s = 0; s < STAGES; s++)
            mbarrier_init(&full[s], 1); /* one arrival: the thread that issues the copies */
        fence_mbarrier_init_release_cluster();
        /* Prologue: start the first STAGES - 1 k-tiles. */
        for (int kt = 0; kt < STAGES - 1 && kt < k_tiles; kt++)
            load_stage(smem + kt * STAGE_BYTES, &full[kt], &tmap_a, &tmap_b, kt, m0, n0);
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
        /* Refill the stage k-tile kt - 1 used (its wgmma have completed) with
         * k-tile kt + STAGES - 1: the copies run STAGES - 1 tiles ahead. */
        const int next = kt + STAGES - 1;
        if (tid == 0 && next < k_tiles)
            load_stage(smem + (next % STAGES) * STAGE_BYTES, &full[next % STAGES], &tmap_a,
                       &tmap_b, next, m0, n0);
        const int s = kt % STAGES;
        uint8_t *tile_a = smem + s * STAGE_BYTES; /* [BM][BK] fp16, swizzled */
        uint8_t *tile_b = tile_a + TILE_A_BYTES;  /* [BN][BK] fp16, swizzled */
        mbarrier_wait_parity(&full[s], (kt / STAGES) % 2);

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
     * different banks. The ring is free: every load was consumed and every
     * wgmma has completed. */
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
