/* v5_clc, Blackwell track: a persistent kernel scheduled by cluster launch
 * control, with a pipelined epilogue (sm_100a).
 *
 * Previous step: v4_raster/blackwell.cu (one CTA = one tile; its 4 warps run
 * the epilogue after the MMAs, with the tensor cores idle meanwhile).
 *
 * The idea, in two parts.
 * 1. CLC persistent scheduling. The grid still has one CTA per tile, but a
 *    running CTA does not exit after its tile: a scheduler warp asks the
 *    hardware to cancel a CTA that has not started yet
 *    (clusterlaunchcontrol.try_cancel) and, when that succeeds, the CTA
 *    takes over the cancelled CTA's tile (query_cancel gives its
 *    blockIdx.x). The set-up is paid once per SM, and faster SMs take more
 *    tiles. The response reaches every role through a one-slot pipeline
 *    (clc_full / clc_empty); all roles leave at the first "not cancelled".
 * 2. A pipelined epilogue. Warps 4-7 (one warp per quarter of TMEM's lanes)
 *    do nothing but the epilogue, and the accumulator has two TMEM stages:
 *      TMA warp 0   --(full/empty, STAGES smem stages)-->     MMA warp 1
 *      MMA warp 1   --(acc_full/acc_empty, 2 TMEM stages)--> epilogue warps 4-7
 *      scheduler 2  --(clc_full/clc_empty, 1 response)-->    all of them
 *    Warp 3 has no role: it keeps the epilogue warps aligned to a warpgroup.
 * Deviations from the seed's listing: readers of a CLC response execute
 * fence.proxy.async before releasing its slot (the next try_cancel writes it
 * through the async proxy) and wait on it with cluster-scope acquire; the
 * epilogue releases an accumulator stage with tcgen05.fence::before_thread_
 * sync before its arrival, the MMA warp fences after its wait (PTX ISA
 * 9.7.16.6.4 patterns).
 *
 * PTX first used here (wrappers in common/clc.cuh):
 * clusterlaunchcontrol.try_cancel, ld.shared.b128, query_cancel.
 *
 * Fences: tcgen05.fence::before_thread_sync / ::after_thread_sync around every
 * thread synchronization (PTX ISA 9.7.16.6), also where the seed shows none.
 *
 * Costs and gains: compiled and checked, never run (this project has no
 * B200); every run verifies it before timing it. The tutorial reports about
 * 1506 TFLOPS for this step on a B200.
 *
 * Run: make v5 && ./v5 8192 8192 8192   (a B200 picks this kernel)
 */
#include <cuda_fp16.h>
#include "../common/matmul.h"
#include "../common/check.h"
#include "../common/smem.cuh"
#include "../common/fence.cuh"
#include "../common/mbarrier.cuh"
#include "../common/tcgen05.cuh"
#include "../common/tcgen05_desc.h"
#include "../common/tma.cuh"
#include "../common/tmap.h"
#include "../common/pipeline.cuh"
#include "../common/tile_order.h"
#include "../common/warpgroup.cuh"
#include "../common/clc.cuh"

#define BM 128                        /* rows of C per tile = MMA M = TMEM lanes    */
#define BN 256                        /* columns of C per tile = MMA N              */
#define BK 64                         /* K per tile: 64 fp16 = 128 B = one swizzle row */
#define MMA_K 16                      /* K of one tcgen05.mma kind::f16             */
#define THREADS 256                   /* warps: 0 TMA, 1 MMA, 2 scheduler, 3 idle, 4-7 epilogue */
#define EPI_THREADS 128               /* the epilogue warpgroup, warps 4-7           */
#define STAGES 4                      /* k-tiles resident in the ring                */
#define ACC_STAGES 2                  /* accumulators in TMEM: MMA fills one, epilogue drains the other */
#define TMEM_COLS (ACC_STAGES * BN)   /* 512: all of TMEM, one CTA per SM            */
/* Readers of each CLC response: lane 0 of warps 0, 1 and 2, and the epilogue. */
#define CLC_CONSUMERS (3 + EPI_THREADS)
/* The group width of the tile order is worked out per call from K and the
 * L2 size (tile_order_width), as in hopper.cu; -DSWIZZLE=n fixes it. */

/* Shared memory: a ring of STAGES stages, each tile A [BM][BK] (16 KB) then
 * tile B [BN][BK] (32 KB), both K-major in the 128-byte swizzle (see
 * umma_desc_k_sw128); then the epilogue's own C slice [BM][64] (16 KB,
 * swizzled): the ring is busy with the next tile while the epilogue runs. */
#define TILE_A_BYTES (BM * BK * 2)
#define TILE_B_BYTES (BN * BK * 2)
#define STAGE_BYTES (TILE_A_BYTES + TILE_B_BYTES)
#define C_SLICE_BYTES (BM * 64 * 2)
#define SMEM_BYTES (STAGES * STAGE_BYTES + C_SLICE_BYTES + 1024) /* + room to align to 1024 */

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

/* Every role, after each tile: the next tile (the cancelled CTA's
 * blockIdx.x), or -1 when the scheduler's try_cancel failed. */
__device__ __forceinline__ int next_tile(pipeline *clc, const uint32_t *response)
{
    consumer_acquire_cluster(clc); /* the response completes at cluster scope */
    const unsigned __int128 r = ld_shared_b128(response);
    const int tile = clusterlaunchcontrol_query_cancel_is_canceled(r)
                         ? (int)clusterlaunchcontrol_query_cancel_get_first_ctaid_x(r)
                         : -1;
    fence_proxy_async_shared_cta(); /* our generic read before the next async-proxy write */
    consumer_release(clc, clc->stage);
    pipeline_advance(clc);
    return tile;
}

__global__ void __launch_bounds__(THREADS, 1)
matmul_kernel_sm100(const __grid_constant__ CUtensorMap tmap_a, const __grid_constant__ CUtensorMap tmap_b,
                    const __grid_constant__ CUtensorMap tmap_c, int M, int N, int K,
                    const tile_map tiles)
{
    extern __shared__ uint8_t smem_raw[];
    uint8_t *smem = align1024(smem_raw);
    uint8_t *c_slice = smem + STAGES * STAGE_BYTES; /* [BM][64] fp16, swizzled */

    __shared__ uint64_t full[STAGES];          /* full[s]: stage s has landed              */
    __shared__ uint64_t empty[STAGES];         /* empty[s]: the MMAs reading it are done   */
    __shared__ uint64_t acc_full[ACC_STAGES];  /* acc_full[a]: accumulator a is complete   */
    __shared__ uint64_t acc_empty[ACC_STAGES]; /* acc_empty[a]: the epilogue has read it   */
    __shared__ uint64_t clc_full[1];           /* the CLC response has landed              */
    __shared__ uint64_t clc_empty[1];          /* every role has read it                   */
    __shared__ __align__(16) uint32_t clc_response[4]; /* 16-byte opaque CLC response   */
    __shared__ uint32_t tmem_base;             /* written by tcgen05.alloc                 */

    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    const int k_tiles = (K + BK - 1) / BK;

    if (warp == 0) {
        tcgen05_alloc_cta1(&tmem_base, TMEM_COLS);
        tcgen05_relinquish_alloc_permit_cta1(); /* one allocation per CTA */
    }
    /* full: the copy thread; empty: the MMA thread's commit; acc_full: the
     * MMA thread's commit; acc_empty: the 128 epilogue threads; clc_full: the
     * scheduler's expect_tx (then 16 bytes); clc_empty: every reader. */
    if (tid == 0) {
        pipeline_init(full, empty, STAGES, 1, 1);
        pipeline_init(acc_full, acc_empty, ACC_STAGES, 1, EPI_THREADS);
        pipeline_init(clc_full, clc_empty, 1, 1, CLC_CONSUMERS);
    }
    /* The TMEM address reaches the other warps through shared memory and this
     * barrier: the fence pair orders the alloc before every later use. */
    tcgen05_fence_before_thread_sync();
    __syncthreads();
    tcgen05_fence_after_thread_sync();
    /* acc stage a: TMEM [BM lanes][BN columns] fp32 at columns tmem_base +
     * a * BN; row r of the tile is lane r. */
    const uint32_t tmem = tmem_base;
    const uint32_t idesc = umma_idesc_f16_f32(BM, BN);

    if (warp == 0) {
        /* TMA warp: one thread fills the ring for tile after tile. */
        if (lane == 0) {
            pipeline pipe = pipeline_producer(full, empty, STAGES);
            pipeline clc = pipeline_consumer(clc_full, clc_empty, 1);
            for (int tile = blockIdx.x; tile >= 0; tile = next_tile(&clc, clc_response)) {
                int m_block, n_block;
                tile_map_coord(&tiles, tile, &m_block, &n_block);
                for (int kt = 0; kt < k_tiles; kt++) {
                    producer_acquire(&pipe);
                    load_stage(smem + pipe.stage * STAGE_BYTES, &full[pipe.stage], &tmap_a,
                               &tmap_b, kt, m_block * BM, n_block * BN);
                    pipeline_advance(&pipe);
                }
            }
        }
    } else if (warp == 1) {
        /* MMA warp: one thread; per tile, an empty accumulator stage, then
         * each k-tile's MMAs once it has landed. */
        if (lane == 0) {
            pipeline pipe = pipeline_consumer(full, empty, STAGES);
            pipeline accp = pipeline_producer(acc_full, acc_empty, ACC_STAGES);
            pipeline clc = pipeline_consumer(clc_full, clc_empty, 1);
            for (int tile = blockIdx.x; tile >= 0; tile = next_tile(&clc, clc_response)) {
                producer_acquire(&accp); /* the epilogue has read this stage's last tile */
                tcgen05_fence_after_thread_sync();
                const uint32_t acc = tmem + accp.stage * BN;
                for (int kt = 0; kt < k_tiles; kt++) {
                    uint8_t *tile_a = smem + pipe.stage * STAGE_BYTES; /* [BM][BK] fp16, swizzled */
                    uint8_t *tile_b = tile_a + TILE_A_BYTES;           /* [BN][BK] fp16, swizzled */
                    consumer_acquire(&pipe);
                    tcgen05_fence_after_thread_sync();
#pragma unroll
                    for (int k = 0; k < BK / MMA_K; k++) {
                        /* 16 fp16 of K = 32 bytes along each swizzled row. */
                        const uint64_t da = umma_desc_k_sw128(smem_u32(tile_a) + k * 32);
                        const uint64_t db = umma_desc_k_sw128(smem_u32(tile_b) + k * 32);
                        tcgen05_mma_cta1_f16(acc, da, db, idesc, kt > 0 || k > 0);
                    }
                    /* The release: empty completes when these MMAs have read the stage. */
                    tcgen05_commit_cta1(&pipe.empty[pipe.stage]);
                    pipeline_advance(&pipe);
                }
                /* Tracks every MMA issued above: this accumulator is complete when it fires. */
                tcgen05_commit_cta1(&accp.full[accp.stage]);
                pipeline_advance(&accp);
            }
        }
    } else if (warp == 2) {
        /* Scheduler: one thread asks for the next tile while the others work
         * on this one, and reads the answer like everyone else. */
        if (lane == 0) {
            pipeline sched = pipeline_producer(clc_full, clc_empty, 1);
            pipeline clc = pipeline_consumer(clc_full, clc_empty, 1);
            int tile;
            do {
                producer_acquire(&sched); /* every reader is done with the last response */
                mbarrier_arrive_expect_tx(&sched.full[sched.stage], 16);
                clusterlaunchcontrol_try_cancel(clc_response, &sched.full[sched.stage]);
                pipeline_advance(&sched);
                tile = next_tile(&clc, clc_response);
            } while (tile >= 0);
        }
    } else if (warp >= 4) {
        /* Epilogue warpgroup: TMEM -> registers -> shared memory -> TMA store,
         * one [BM][64] slice at a time. Warp 4 + q reads lanes 32q .. 32q + 31
         * (its quarter): thread `lane` gets row r = 32q + lane of the tile. */
        const int q = warp - 4, r = q * 32 + lane, et = tid - 4 * 32;
        pipeline accp = pipeline_consumer(acc_full, acc_empty, ACC_STAGES);
        pipeline clc = pipeline_consumer(clc_full, clc_empty, 1);
        for (int tile = blockIdx.x; tile >= 0; tile = next_tile(&clc, clc_response)) {
            int m_block, n_block;
            tile_map_coord(&tiles, tile, &m_block, &n_block);
            const int m0 = m_block * BM, n0 = n_block * BN;
            consumer_acquire(&accp);
            tcgen05_fence_after_thread_sync();
            const uint32_t acc = tmem + accp.stage * BN;
#pragma unroll 1
            for (int slice = 0; slice < BN / 64; slice++) {
                uint32_t v[2][32]; /* fp32 bits of row r, columns 64 slice + 32 h + 0..31 */
                tcgen05_ld_32x32b_x32(tmem_addr(acc, q * 32, slice * 64), v[0]);
                tcgen05_ld_32x32b_x32(tmem_addr(acc, q * 32, slice * 64 + 32), v[1]);
                tcgen05_wait_ld();
                /* 16-byte chunk j of row r goes to j ^ (r % 8), the 128-byte
                 * swizzle of the C tensor map. */
                uint8_t *dst_row = c_slice + r * 128;
#pragma unroll
                for (int chunk = 0; chunk < 8; chunk++) {
                    const uint32_t *w = &v[chunk / 4][(chunk % 4) * 8];
                    uint4 out;
                    __half2 *h = (__half2 *)&out;
#pragma unroll
                    for (int e = 0; e < 4; e++)
                        h[e] = __floats2half2_rn(__uint_as_float(w[2 * e]),
                                                 __uint_as_float(w[2 * e + 1]));
                    *(uint4 *)(dst_row + ((chunk ^ (r % 8)) << 4)) = out;
                }
                fence_proxy_async_shared_cta(); /* generic-proxy writes, read next by TMA */
                bar_sync(1, EPI_THREADS);
                if (et == 0) {
                    if (n0 + slice * 64 < N) /* TMA clips partial boxes; skip wholly outside ones */
                        cp_async_bulk_tensor_2d_shared_to_global(&tmap_c, n0 + slice * 64, m0,
                                                                 c_slice);
                    cp_async_bulk_commit_group();
                    cp_async_bulk_wait_group_read<0>(); /* the slice buffer is read out */
                }
                bar_sync(1, EPI_THREADS); /* before anyone writes the slice buffer again */
            }
            /* This thread's TMEM reads are done (wait::ld): free the stage. */
            tcgen05_fence_before_thread_sync();
            consumer_release(&accp, accp.stage);
            pipeline_advance(&accp);
        }
    }
    __syncwarp(); /* lane 0 of warps 0-2 rejoins its warp */

    /* Every TMEM read and every MMA has completed (the epilogue waited for
     * the last accumulator) before warp 0 frees the TMEM. */
    tcgen05_fence_before_thread_sync();
    __syncthreads();
    tcgen05_fence_after_thread_sync();
    if (warp == 0)
        tcgen05_dealloc_cta1(tmem, TMEM_COLS);
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
    CUDA_TRY(cudaFuncSetAttribute(matmul_kernel_sm100, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  SMEM_BYTES));
    /* The full grid, one CTA per tile, launched as clusters of one CTA (what
     * CLC cancels); the CTAs that start take over the rest. */
    cudaLaunchAttribute cluster;
    cluster.id = cudaLaunchAttributeClusterDimension;
    cluster.val.clusterDim.x = 1;
    cluster.val.clusterDim.y = 1;
    cluster.val.clusterDim.z = 1;
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(m_blocks * n_blocks);
    cfg.blockDim = dim3(THREADS);
    cfg.dynamicSmemBytes = SMEM_BYTES;
    cfg.stream = stream;
    cfg.attrs = &cluster;
    cfg.numAttrs = 1;
    CUDA_TRY(cudaLaunchKernelEx(&cfg, matmul_kernel_sm100, tmap_a, tmap_b, tmap_c, M, N, K, tiles));
    return cudaSuccess;
}

extern "C" cudaError_t matmul_sm100(const f16 *A, const f16 *B, f16 *C, int M, int N, int K,
                                    cudaStream_t stream)
{
    /* 0: never copied for the row pitch alone (matmul.h): never measured, never run here. */
    return matmul_staged(A, B, C, M, N, K, stream, launch, 0.0);
}
