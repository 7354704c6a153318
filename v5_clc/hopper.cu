/* v5_clc: a persistent kernel with a tile scheduler, and an epilogue that
 * overlaps the next tile's main loop (sm_90a).
 *
 * Previous step: v4_raster (one CTA per tile: every CTA sets up its barriers,
 * fills its ring, computes one tile, stores it and exits; the next CTA on that
 * SM starts only then).
 *
 * The idea, in two parts.
 * 1. Persistent CTAs and a scheduler. The grid is one CTA per SM (fewer if
 *    there are fewer tiles). A CTA computes the tile of its blockIdx.x, then
 *    keeps taking tiles until none is left: the set-up is paid once per SM,
 *    and the producer loads the next tile's first k-tiles while the consumers
 *    are still busy with this tile's epilogue. A scheduler thread (warp 1 of
 *    the producer warpgroup) claims the next tile from a global counter with
 *    atomicAdd and hands it to the producer and both consumers through a
 *    one-slot shared-memory pipeline (tile_full / tile_empty mbarriers, the
 *    same pipeline struct as the k-tile ring). Claims still follow v4's tile
 *    order. The counter lives in a workspace kept per device
 *    (common/workspace.h), so no call allocates or clears it in the stream.
 * 2. The epilogue overlaps the next main loop. Each consumer converts its
 *    64 x 256 fp32 accumulator to fp16 in 64-column slices into two small
 *    smem buffers of its own (not the ring, which the producer is already
 *    refilling), and the TMA engine stores each slice asynchronously. A
 *    buffer is waited on (cp.async.bulk.wait_group.read) only before it is
 *    written again, two slices later.
 * On Blackwell (the seed's step 5) clusterlaunchcontrol.try_cancel hands out
 * tiles (here: atomicAdd; "no more tiles" is a claim past the end), clc_pipe
 * spreads them (here: tile_full / tile_empty), and an epilogue warpgroup
 * drains a two-stage TMEM accumulator (here the accumulator lives in the
 * consumers' registers; the TMA engine plays the epilogue warpgroup).
 *
 * Tile: the same 128 x 256 tile, warpgroups and stages as v4.
 *
 * PTX first used here: atom.global.add, cp.async.bulk.wait_group.read 1.
 *
 * Costs and gains: a scheduler warp and a workspace; above cuBLAS at 8192^3,
 * the tensor pipe 97.8% busy at a locked clock (plots/NOTES.md, v5_clc).
 *
 * Run: make v5 && ./v5 8192 8192 8192
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
#include "../common/workspace.h"

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
 * wgmma_desc_k_sw128); then, per consumer, C_BUFS slices of C [64][64] fp16
 * (8 KB each) in the same swizzle. 4 x 48 + 2 x 2 x 8 = 224 KB of the 227. */
#define TILE_A_BYTES (BM * BK * 2)
#define TILE_B_BYTES (BN * BK * 2)
#define STAGE_BYTES (TILE_A_BYTES + TILE_B_BYTES)
#define C_SLICE_BYTES (64 * 64 * 2)   /* a consumer's [64 rows][64 cols] slice of C */
#define C_BUFS 2                      /* slice buffers per consumer: one filled while one drains */
#define SMEM_BYTES (STAGES * STAGE_BYTES + CONSUMERS * C_BUFS * C_SLICE_BYTES + 1024)

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

/* Any role: the next tile from the scheduler, -1 when none is left. Every
 * lane of the calling warp reads the slot; then one arrival per warp frees it. */
__device__ __forceinline__ int take_tile(pipeline *tp, const int *slot)
{
    consumer_acquire(tp);
    const int tile = slot[tp->stage];
    __syncwarp(__activemask());
    if (threadIdx.x % 32 == 0)
        consumer_release(tp, tp->stage);
    pipeline_advance(tp);
    return tile;
}

__global__ void __launch_bounds__(THREADS, 1) /* the 1 gives setmaxnreg a cap to move from */
matmul_kernel(const __grid_constant__ CUtensorMap tmap_a, const __grid_constant__ CUtensorMap tmap_b,
              const __grid_constant__ CUtensorMap tmap_c, int M, int N, int K,
              const tile_map tiles, int *counters, uint32_t gen)
{
    extern __shared__ uint8_t smem_raw[];
    uint8_t *smem = align1024(smem_raw);

    __shared__ uint64_t full[STAGES];  /* full[s] completes when stage s has landed        */
    __shared__ uint64_t empty[STAGES]; /* empty[s] completes when the consumers are done with it */
    __shared__ uint64_t tile_full[1];  /* the scheduler has put the next tile in tile_slot   */
    __shared__ uint64_t tile_empty[1]; /* every reader has taken it                          */
    __shared__ int tile_slot[1];       /* next tile's linear index, -1: no tile left         */

    const int tid = threadIdx.x;
    const int tiles_total = tiles.m_blocks * tiles.n_blocks;
    const int k_tiles = (K + BK - 1) / BK;

    /* full: one arrival, the thread that issues the copies; empty: one arrival
     * per consumer warp. tile_full: the scheduler; tile_empty: one arrival per
     * reading warp, the producer's and the consumers'. */
    if (tid == 0) {
        pipeline_init(full, empty, STAGES, 1, CONSUMERS * 4);
        pipeline_init(tile_full, tile_empty, 1, 1, 1 + CONSUMERS * 4);
    }
    __syncthreads();

    const int wg = tid / 128;
    if (wg == 0) {
        /* Producer: one thread fills the ring, each stage once the consumers
         * have released it. */
        setmaxnreg_dec<40>();
        if (tid == 0) {
            pipeline pipe = pipeline_producer(full, empty, STAGES);
            pipeline tp = pipeline_consumer(tile_full, tile_empty, 1);
            for (int tile = blockIdx.x; tile >= 0; tile = take_tile(&tp, tile_slot)) {
                int m_block, n_block;
                tile_map_coord(&tiles, tile, &m_block, &n_block);
                for (int kt = 0; kt < k_tiles; kt++) {
                    producer_acquire(&pipe);
                    load_stage(smem + pipe.stage * STAGE_BYTES, &full[pipe.stage], &tmap_a,
                               &tmap_b, kt, m_block * BM, n_block * BN);
                    pipeline_advance(&pipe);
                }
            }
        } else if (tid == 32) {
            /* Scheduler: claims tiles while the others compute. The first
             * gridDim.x tiles are the CTAs' own blockIdx.x; claims count on
             * from there. A claim is made only once the slot is free, so a
             * CTA holds at most one tile it has not started. */
            int *next_tile = &counters[gen % 2]; /* zeroed by the call before */
            if (blockIdx.x == 0)
                counters[(gen + 1) % 2] = 0; /* for the call after */
            pipeline tp = pipeline_producer(tile_full, tile_empty, 1);
            int tile;
            do {
                producer_acquire(&tp);
                tile = sched_claim(gridDim.x, atomicAdd(next_tile, 1), tiles_total);
                tile_slot[tp.stage] = tile;
                mbarrier_arrive(&tile_full[tp.stage]); /* release: the slot's value goes with it */
                pipeline_advance(&tp);
            } while (tile >= 0);
        }
    } else {
        setmaxnreg_inc<232>();
        const int c = wg - 1; /* this consumer's rows of the tile: 64c .. 64c + 63 */
        const int warp = tid / 32 % 4, lane = tid % 32;
        uint8_t *c_bufs = smem + STAGES * STAGE_BYTES + c * C_BUFS * C_SLICE_BYTES;
        int stored = 0; /* slices this consumer has handed to the TMA engine */

        pipeline pipe = pipeline_consumer(full, empty, STAGES);
        pipeline tp = pipeline_consumer(tile_full, tile_empty, 1);
        for (int tile = blockIdx.x; tile >= 0; tile = take_tile(&tp, tile_slot)) {
            int m_block, n_block;
            tile_map_coord(&tiles, tile, &m_block, &n_block);
            const int m0 = m_block * BM;
            const int n0 = n_block * BN;

            /* acc: the m64n256 fragment of rows 64c .. 64c + 63 of the tile. */
            float acc[128];
#pragma unroll
            for (int i = 0; i < 128; i++)
                acc[i] = 0.0f;

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
            if (tid % 32 == 0)
                consumer_release(&pipe, prev); /* the tile's last stage: the producer is waiting for it */

            /* Epilogue: registers -> shared memory -> TMA store, one [64][64] slice of
             * this consumer's rows at a time, in the same 128-byte swizzle as the
             * inputs: a warp's 32 four-byte writes then fall in 32 different banks.
             * Each slice is its own bulk group, so "at most C_BUFS - 1 groups still
             * reading" means the buffer about to be written has been read. Slices
             * wholly outside C are skipped (TMA clips partial ones). */
#pragma unroll
            for (int slice = 0; slice < BN / 64; slice++) {
                if (n0 + slice * 64 >= N || m0 + c * 64 >= M) /* same for the whole warpgroup */
                    continue;
                uint8_t *buf = c_bufs + stored % C_BUFS * C_SLICE_BYTES; /* [64][64] fp16, swizzled */
                if (tid % 128 == 0)
                    cp_async_bulk_wait_group_read<C_BUFS - 1>();
                bar_sync(2 + c, 128); /* buf is free for the whole warpgroup */
#pragma unroll
                for (int chunk = 0; chunk < 8; chunk++)
#pragma unroll
                    for (int half = 0; half < 2; half++) {
                        const int j = slice * 8 + chunk;                /* 8-column group of the tile */
                        const int r = warp * 16 + lane / 4 + half * 8;  /* row in this consumer's half */
                        uint8_t *dst = buf + r * 128 + ((chunk ^ (r % 8)) << 4) + (lane % 4) * 4;
                        *(__half2 *)dst =
                            __floats2half2_rn(acc[j * 4 + half * 2], acc[j * 4 + half * 2 + 1]);
                    }
                fence_proxy_async_shared_cta(); /* generic-proxy writes, read next by TMA (async proxy) */
                bar_sync(2 + c, 128);
                if (tid % 128 == 0) {
                    cp_async_bulk_tensor_2d_shared_to_global(&tmap_c, n0 + slice * 64, m0 + c * 64, buf);
                    cp_async_bulk_commit_group();
                }
                stored++;
            }
        }
        if (tid % 128 == 0)
            cp_async_bulk_wait_group_read<0>(); /* shared memory must outlive the stores' reads */
    }
}

static cudaError_t launch(const f16 *A, const f16 *B, f16 *C, int M, int N, int K, int ldc,
                          cudaStream_t stream)
{
    /* A and B are read in [BM or BN rows x 64 K] boxes, C is written in
     * [64 x 64] boxes; all in the 128-byte swizzle the kernel's smem layout assumes. */
    CUtensorMap tmap_a, tmap_b, tmap_c;
    tmap_desc da = tmap_desc_make(A, M, K, K, BM, BK, CU_TENSOR_MAP_SWIZZLE_128B);
    tmap_desc db = tmap_desc_make(B, N, K, K, BN, BK, CU_TENSOR_MAP_SWIZZLE_128B);
    tmap_desc dc = tmap_desc_make(C, M, N, ldc, 64, 64, CU_TENSOR_MAP_SWIZZLE_128B);
    CUDA_TRY(tmap_encode(&tmap_a, &da));
    CUDA_TRY(tmap_encode(&tmap_b, &db));
    CUDA_TRY(tmap_encode(&tmap_c, &dc));

    const int m_blocks = (M + BM - 1) / BM, n_blocks = (N + BN - 1) / BN;
    if ((int64_t)m_blocks * n_blocks > INT32_MAX) {
        fprintf(stderr, "error: %d x %d tiles exceed a 1D grid\n", m_blocks, n_blocks);
        return cudaErrorInvalidValue;
    }
    int dev, l2, sms;
    CUDA_TRY(cudaGetDevice(&dev));
    CUDA_TRY(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
    CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
#ifdef SWIZZLE
    const int width = SWIZZLE;
#else
    const int width = tile_order_width(K, BN, l2);
#endif
    const tile_map tiles = tile_map_make(m_blocks, n_blocks, width);
    const dim3 grid(m_blocks * n_blocks < sms ? m_blocks * n_blocks : sms); /* one CTA per SM */
    CUDA_TRY(cudaFuncSetAttribute(matmul_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  SMEM_BYTES));
    /* The scheduler's two counters, in a workspace kept per device
     * (common/workspace.h): the call of generation g counts on counter g % 2,
     * zeroed by the call before it. An allocation and a memset in the stream
     * before every kernel cost 1.7 us a call (v5 at 2048^3 on an H100: 29.0
     * us a call with them, 27.3 us without). */
    workspace_use u;
    CUDA_TRY(workspace_begin(2 * sizeof(int), 2 * sizeof(int), stream, &u));
    matmul_kernel<<<grid, THREADS, SMEM_BYTES, stream>>>(tmap_a, tmap_b, tmap_c, M, N, K, tiles,
                                                         (int *)u.ws, u.gen);
    const cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess)
        fprintf(stderr, "error: matmul_kernel launch: %s\n", cudaGetErrorString(err));
    const cudaError_t done = workspace_end(&u, stream, err);
    return err != cudaSuccess ? err : done;
}

/* Share of this step's time lost to a row pitch of A and B that is 16 but
 * not 32 bytes aligned (K % 16 == 8); matmul_staged() copies them to a
 * 128-byte pitch where that is cheaper (matmul.h). Measured: built with
 * -DPITCH_LOSS=0, v5 at 4096 x 4096 x 4104 ran 0.644 of cuBLAS, at
 * 4096 x 4096 x 4160 0.993 (H100, 2026-11-22, L2 promotion 128B): 35% lost. */
#ifndef PITCH_LOSS /* -DPITCH_LOSS=0 builds the step without the copy, to measure the loss */
#define PITCH_LOSS 0.35
#endif

extern "C" cudaError_t matmul_sm90(const f16 *A, const f16 *B, f16 *C, int M, int N, int K,
                                   cudaStream_t stream)
{
    return matmul_staged(A, B, C, M, N, K, stream, launch, PITCH_LOSS);
}
