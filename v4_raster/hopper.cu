/* v4_raster: an L2-friendly tile order, and the ring as a reusable piece (sm_90a).
 *
 * Previous step: v3_warp_spec (2D grid: blockIdx.x walks down M; the
 * full/empty bookkeeping written out inline).
 *
 * The idea, in two parts.
 * 1. Tile order. The grid is 1D and a block's linear index is mapped to its
 *    tile by tile_map_coord (common/tile_order.h): groups of W
 *    N-columns, row-major inside a group. The 132 blocks that run at once
 *    then cover a compact patch of C, about 132 / W tile rows by W tile
 *    columns, so each A row-panel and B column-panel fetched from memory is
 *    read by several running blocks while it is still in L2. W is as wide as
 *    keeps the group's B panels [256 x K] in half the L2 (tile_order_width:
 *    3 at K = 16384 on a 50 MB L2, 6 at 8192, capped at 16). The divisions
 *    by grid constants are multiply-high + shift (fast_divmod), their
 *    constants computed once on the host.
 * 2. The pipeline. v3's stage index, phase bit and full/empty waits become a
 *    small struct with producer_acquire / consumer_acquire / consumer_release
 *    / pipeline_advance (common/pipeline.cuh), so the next steps can add
 *    more pipelines without rewriting the bookkeeping.
 *
 * Tile: the same 128 x 256 tile, warpgroups and stages as v3.
 *
 * PTX first used here: mul.hi.u32 (fast_divmod).
 *
 * Costs and gains: a wider group reads each B panel once only while they
 * all stay in L2; past that, each row of the group reads them from DRAM
 * again (a fixed W = 8 lost to v3 at 16384^3 on an H100). At 8192^3 the
 * order changes little; at 16384^3 it halves DRAM reads and energy per
 * matmul falls with them (plots/NOTES.md, v4_raster).
 *
 * Run: make v4 && ./v4 8192 8192 8192
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
#include "../common/warpgroup.cuh"
#include "../common/pipeline.cuh"
#include "../common/tile_order.h"

#define BM 128                        /* rows of C per CTA                          */
#define BN 256                        /* columns of C per CTA                       */
#define BK 64                         /* K per tile: 64 fp16 = 128 B = one swizzle row */
#define CONSUMERS 2                   /* consumer warpgroups, 64 rows of the tile each */
#define THREADS (128 * (1 + CONSUMERS)) /* warpgroup 0 produces, the others consume  */
#define STAGES 4                      /* k-tiles resident in the ring                */
/* The group width of the tile order is worked out per call from K and the
 * L2 size (tile_order_width); -DSWIZZLE=n fixes it, for experiments. */

/* Shared memory: a ring of STAGES stages, each tile A [BM][BK] (16 KB) then
 * tile B [BN][BK] (32 KB), both K-major in the 128-byte swizzle (see
 * wgmma_desc_k_sw128). The epilogue reuses the first 64 KB for the C tile
 * [BM][BN] as four [BM][64] swizzled slices. */
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

__global__ void __launch_bounds__(THREADS, 1) /* the 1 gives setmaxnreg a cap to move from */
matmul_kernel(const __grid_constant__ CUtensorMap tmap_a, const __grid_constant__ CUtensorMap tmap_b,
              const __grid_constant__ CUtensorMap tmap_c, int M, int N, int K,
              const tile_map tiles)
{
    extern __shared__ uint8_t smem_raw[];
    uint8_t *smem = align1024(smem_raw);

    __shared__ uint64_t full[STAGES];  /* full[s] completes when stage s has landed        */
    __shared__ uint64_t empty[STAGES]; /* empty[s] completes when the consumers are done with it */

    const int tid = threadIdx.x;
    int m_block, n_block;
    tile_map_coord(&tiles, blockIdx.x, &m_block, &n_block);
    const int m0 = m_block * BM;
    const int n0 = n_block * BN;
    const int k_tiles = (K + BK - 1) / BK;

    /* full: one arrival, the thread that issues the copies; empty: one arrival
     * per consumer warp. */
    if (tid == 0)
        pipeline_init(full, empty, STAGES, 1, CONSUMERS * 4);
    __syncthreads();

    const int wg = tid / 128;
    if (wg == 0) {
        /* Producer: one thread fills the ring, each stage once the consumers
         * have released it. */
        setmaxnreg_dec<40>();
        if (tid == 0) {
            pipeline pipe = pipeline_producer(full, empty, STAGES);
            for (int kt = 0; kt < k_tiles; kt++) {
                producer_acquire(&pipe);
                load_stage(smem + pipe.stage * STAGE_BYTES, &full[pipe.stage], &tmap_a, &tmap_b,
                           kt, m0, n0);
                pipeline_advance(&pipe);
            }
        }
        return;
    }
    setmaxnreg_inc<232>();
    const int c = wg - 1; /* this consumer's rows of the tile: 64c .. 64c + 63 */

    /* acc: the m64n256 fragment of rows 64c .. 64c + 63 of the tile. */
    float acc[128];
#pragma unroll
    for (int i = 0; i < 128; i++)
        acc[i] = 0.0f;

    pipeline pipe = pipeline_consumer(full, empty, STAGES);
    int prev = 0; /* stage of k-tile kt - 1 */
    for (int kt = 0; kt < k_tiles; kt++) {
        const int s = pipe.stage;
        uint8_t *tile_a = smem + s * STAGE_BYTES; /* [BM][BK] fp16, swizzled */
        uint8_t *tile_b = tile_a + TILE_A_BYTES;  /* [BN][BK] fp16, swizzled */
        consumer_acquire(&pipe);

        wgmma_fence();
#pragma unroll
        for (int k = 0; k < BK / 16; k++) {
            /* 16 fp16 of K = 32 bytes along each swizzled row. */
            const uint64_t db = wgmma_desc_k_sw128(tile_b + k * 32);
            const uint64_t da = wgmma_desc_k_sw128(tile_a + c * 64 * 128 + k * 32);
            wgmma_m64n256k16_f32_f16_f16(acc, da, db, 1);
        }
        wgmma_commit_group();
        /* k-tile kt's MMAs stay in flight; kt - 1's are done, so its stage is free. */
        wgmma_wait_group<1>();
        if (kt > 0 && tid % 32 == 0)
            consumer_release(&pipe, prev);
        prev = s;
        pipeline_advance(&pipe);
    }
    wgmma_wait_group<0>();
    bar_sync(1, 128 * CONSUMERS); /* both consumers are done reading the ring */

    /* Epilogue: registers -> shared memory -> TMA store. The C tile [BM][BN]
     * is stored as BN / 64 column slices [BM][64], 16 KB each, in the same 128-byte
     * swizzle as the inputs: a warp's 32 four-byte writes then fall in 32
     * different banks. The ring is free: every load was consumed and every
     * wgmma has completed. */
    const int warp = tid / 32 % 4, lane = tid % 32;
#pragma unroll
    for (int j = 0; j < BN / 8; j++)
#pragma unroll
        for (int half = 0; half < 2; half++) {
            const int r = c * 64 + warp * 16 + lane / 4 + half * 8; /* row in tile     */
            const int slice = j / 8, chunk = j % 8;                  /* 64-col slice    */
            uint8_t *dst = smem + slice * (BM * 128) + r * 128 + ((chunk ^ (r % 8)) << 4) +
                           (lane % 4) * 4;
            *(__half2 *)dst = __floats2half2_rn(acc[j * 4 + half * 2], acc[j * 4 + half * 2 + 1]);
        }
    fence_proxy_async_shared_cta(); /* generic-proxy writes, read next by TMA (async proxy) */
    bar_sync(1, 128 * CONSUMERS);
    if (tid == 128) {
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

    const int m_blocks = (M + BM - 1) / BM, n_blocks = (N + BN - 1) / BN;
    if ((int64_t)m_blocks * n_blocks > INT32_MAX) {
        fprintf(stderr, "error: %d x %d tiles exceed a 1D grid\n", m_blocks, n_blocks);
        return cudaErrorInvalidValue;
    }
#ifdef SWIZZLE
    const int width = SWIZZLE;
#else
    int dev, l2;
    CUDA_TRY(cudaGetDevice(&dev));
    CUDA_TRY(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
    const int width = tile_order_width(K, BN, l2);
#endif
    const tile_map tiles = tile_map_make(m_blocks, n_blocks, width);
    const dim3 grid(m_blocks * n_blocks);
    CUDA_TRY(cudaFuncSetAttribute(matmul_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  SMEM_BYTES));
    matmul_kernel<<<grid, THREADS, SMEM_BYTES, stream>>>(tmap_a, tmap_b, tmap_c, M, N, K, tiles);
    CUDA_TRY(cudaGetLastError());
    return cudaSuccess;
}

/* Share of this step's time lost to a row pitch of A and B that is 16 but
 * not 32 bytes aligned (K % 16 == 8); matmul_staged() copies them to a
 * 128-byte pitch where that is cheaper (matmul.h). Measured: built with
 * -DPITCH_LOSS=0, v4 at 4096 x 4096 x 4104 ran 0.644 of cuBLAS, at
 * 4096 x 4096 x 4160 0.941 (H100, 2026-11-22, L2 promotion 128B): 32% lost. */
#ifndef PITCH_LOSS /* -DPITCH_LOSS=0 builds the step without the copy, to measure the loss */
#define PITCH_LOSS 0.32
#endif

extern "C" cudaError_t matmul_sm90(const f16 *A, const f16 *B, f16 *C, int M, int N, int K,
                                   cudaStream_t stream)
{
    return matmul_staged(A, B, C, M, N, K, stream, launch, PITCH_LOSS);
}
