/* v6_cluster: two CTAs of a cluster share their operand traffic (sm_90a).
 *
 * Previous step: v5_clc (persistent CTAs, a tile scheduler, an epilogue that
 * overlaps the next tile's main loop; every CTA loads all of its A and B
 * tiles from L2 on its own).
 *
 * The idea. The grid is made of clusters of 2 CTAs on neighbouring SMs, and
 * the two compute neighbouring tiles that need the same B tile: rows
 * m_block = 2 pm and 2 pm + 1 of C, columns n_block (a 256 x 256 pair). Each
 * CTA loads its own A tile and only HALF of the shared B tile, multicast
 * (cp.async.bulk.tensor ... .multicast::cluster) into the same place in both
 * CTAs' shared memory: one L2 read feeds two SMs, and the L2 -> SM traffic
 * per stage falls from 48 KB to 32 KB per CTA. What makes two CTAs one
 * pipeline:
 *  - each full barrier still expects STAGE_BYTES, now from two producers;
 *  - a stage is free to refill only when the consumers of BOTH CTAs are done
 *    with it: every consumer warpgroup arrives on the empty barrier of its
 *    own CTA and of its peer (mapa gives the peer's address);
 *  - the scheduler of CTA 0 claims tile PAIRS and writes each claim into both
 *    CTAs' slots (st.shared::cluster + a remote arrive); an idle thread of
 *    CTA 1 tells CTA 0's scheduler once CTA 1's readers have taken it;
 *  - cluster barriers after set-up and before exit.
 * An odd number of 128-row blocks leaves the last pair's second tile below
 * C: that CTA still loads and computes, and its stores are skipped. Which
 * operand to share is a measured choice (SHARE_B below): sharing B saves 16
 * KB of the 48 KB each CTA loads per stage, sharing A 8 KB.
 *
 * Tile: 128 x 256 per CTA; the same warpgroups, stages and epilogue as v5.
 *
 * PTX first used here: .multicast::cluster, mapa, mbarrier.arrive on a
 * shared::cluster address, st.shared::cluster, barrier.cluster.
 *
 * Costs and gains: cluster barriers and remote arrivals; even with v5 at
 * 8192^3, where the tensor pipe is already 97.6% busy, ahead where the
 * power-capped card moves more data (plots/NOTES.md, v6_cluster). Blackwell
 * goes further: one tcgen05.mma.cta_group::2 reads both CTAs' smem.
 *
 * Run: make v6 && ./v6 8192 8192 8192
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
#include "../common/cluster.cuh"
#include "../common/pipeline.cuh"
#include "../common/tile_order.h"
#include "../common/workspace.h"

#define BM 128                        /* rows of C per CTA                          */
#define BN 256                        /* columns of C per CTA                       */
#define BK 64                         /* K per tile: 64 fp16 = 128 B = one swizzle row */
#define CONSUMERS 2                   /* consumer warpgroups, 64 rows of the tile each */
#define THREADS (128 * (1 + CONSUMERS)) /* warpgroup 0 produces, the others consume  */
#define STAGES 4                      /* k-tiles resident in the ring                */
#define CLUSTER 2                     /* CTAs per cluster: a pair                    */
#ifndef SHARE_B
#define SHARE_B 1                     /* 1: the pair shares B (M-neighbours); 0: A (N-neighbours) */
#endif
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
 * columns arrive as zeros and still count toward the expected bytes. The
 * shared operand: this CTA loads half of it (rank r: the r-th half) into
 * both CTAs; the other half arrives from the peer, also counted here. */
__device__ __forceinline__ void load_stage(uint8_t *stage, uint64_t *full,
                                           const CUtensorMap *tmap_a, const CUtensorMap *tmap_b,
                                           int kt, int m0, int n0, uint32_t rank)
{
    mbarrier_arrive_expect_tx(full, STAGE_BYTES);
#if SHARE_B
    cp_async_bulk_tensor_2d_global_to_shared(stage, tmap_a, kt * BK, m0, full);
    cp_async_bulk_tensor_2d_global_to_shared_multicast(stage + TILE_A_BYTES + rank * TILE_B_BYTES / 2,
                                                       tmap_b, kt * BK, n0 + rank * BN / 2, full,
                                                       (1 << CLUSTER) - 1);
#else
    cp_async_bulk_tensor_2d_global_to_shared_multicast(stage + rank * TILE_A_BYTES / 2, tmap_a,
                                                       kt * BK, m0 + rank * BM / 2, full,
                                                       (1 << CLUSTER) - 1);
    cp_async_bulk_tensor_2d_global_to_shared(stage + TILE_A_BYTES, tmap_b, kt * BK, n0, full);
#endif
}

/* Any role: the next pair from CTA 0's scheduler, -1 when none is left. Every
 * lane of the calling warp reads the slot (written by CTA 0: acquire at
 * cluster scope); then one arrival per warp frees it, at this CTA's
 * tile_empty (CTA 1 relays it to CTA 0). */
__device__ __forceinline__ int take_pair(pipeline *tp, const int *slot)
{
    consumer_acquire_cluster(tp);
    const int pair = slot[tp->stage];
    __syncwarp(__activemask());
    if (threadIdx.x % 32 == 0)
        consumer_release(tp, tp->stage);
    pipeline_advance(tp);
    return pair;
}

__global__ void __launch_bounds__(THREADS, 1) /* the 1 gives setmaxnreg a cap to move from */
matmul_kernel(const __grid_constant__ CUtensorMap tmap_a, const __grid_constant__ CUtensorMap tmap_b,
              const __grid_constant__ CUtensorMap tmap_c, int M, int N, int K,
              const tile_map pairs, int *counters, uint32_t gen)
{
    extern __shared__ uint8_t smem_raw[];
    uint8_t *smem = align1024(smem_raw);

    __shared__ uint64_t full[STAGES];  /* full[s] completes when stage s has landed        */
    __shared__ uint64_t empty[STAGES]; /* empty[s] completes when the consumers are done with it */
    __shared__ uint64_t tile_full[1];  /* CTA 0's scheduler has put the next pair in tile_slot */
    __shared__ uint64_t tile_empty[1]; /* every reader (at CTA 0: of both CTAs) has taken it */
    __shared__ int tile_slot[1];       /* next pair's linear index, -1: no pair left         */

    const int tid = threadIdx.x;
    const uint32_t rank = cluster_ctarank(); /* 0 or 1: which tile of the pair */
    const int pairs_total = pairs.m_blocks * pairs.n_blocks;
    const int k_tiles = (K + BK - 1) / BK;

    /* full: one arrival, the thread that issues this CTA's copies; empty: one
     * arrival per consumer warpgroup of both CTAs (thread r of a warpgroup
     * signals CTA r: a wgmma group completes for the whole warpgroup at once,
     * so one thread's wait speaks for all 128, and the two arrivals go out
     * from one instruction). tile_full: CTA 0's scheduler; tile_empty: one
     * arrival per reading warp of this CTA, and at CTA 0 one more from CTA 1's
     * relay. */
    if (tid == 0) {
        pipeline_init(full, empty, STAGES, 1, CLUSTER * CONSUMERS);
        pipeline_init(tile_full, tile_empty, 1, 1, 1 + CONSUMERS * 4 + (rank == 0 ? CLUSTER - 1 : 0));
    }
    /* Both CTAs' barriers are initialised before anyone arrives on a peer's
     * barrier. The init fence has made the inits visible to the cluster, so
     * the arrival need not release (a release is a cluster-scope fence in
     * every thread: 0.55 us of a 1024^3 kernel's start); the wait acquires. */
    barrier_cluster_arrive_relaxed_aligned();
    barrier_cluster_wait_acquire();

    const int wg = tid / 128;
    if (wg == 0) {
        /* Producer: one thread fills the ring, each stage once the consumers
         * have released it. */
        setmaxnreg_dec<40>();
        if (tid == 0) {
            pipeline pipe = pipeline_producer(full, empty, STAGES);
            pipeline tp = pipeline_consumer(tile_full, tile_empty, 1);
            for (int pair = cluster_id_x(); pair >= 0; pair = take_pair(&tp, tile_slot)) {
                int m_block, n_block;
                tile_map_pair_coord(&pairs, pair, (int)rank, SHARE_B, &m_block, &n_block);
                for (int kt = 0; kt < k_tiles; kt++) {
                    producer_acquire(&pipe); /* released by both CTAs' consumers */
                    load_stage(smem + pipe.stage * STAGE_BYTES, &full[pipe.stage], &tmap_a,
                               &tmap_b, kt, m_block * BM, n_block * BN, rank);
                    pipeline_advance(&pipe);
                }
            }
        } else if (tid == 32 && rank == 0) {
            /* Scheduler (CTA 0 only): claims pairs while the others compute.
             * The first pairs are the clusters' own indices; claims count on
             * from there. Each claim goes into both CTAs' slots, then a
             * release-arrive on each CTA's tile_full carries it. */
            int *next_pair = &counters[gen % 2]; /* zeroed by the call before */
            if (cluster_id_x() == 0)
                counters[(gen + 1) % 2] = 0; /* for the call after */
            pipeline tp = pipeline_producer(tile_full, tile_empty, 1);
            int pair;
            do {
                producer_acquire_cluster(&tp);
                pair = sched_claim((int)nclusterid_x(), atomicAdd(next_pair, 1), pairs_total);
                for (uint32_t r = 0; r < CLUSTER; r++) {
                    st_shared_cluster_u32(mapa_shared_cluster(&tile_slot[tp.stage], r),
                                          (uint32_t)pair);
                    mbarrier_arrive_release_cluster(mapa_shared_cluster(&tile_full[tp.stage], r));
                }
                pipeline_advance(&tp);
            } while (pair >= 0);
        } else if (tid == 32) {
            /* CTA 1's relay: once every reader of this CTA has taken the pair
             * in the slot, one arrival at CTA 0's tile_empty says so. It must
             * release at cluster scope (the slot is about to be rewritten
             * from CTA 0), and that is a fence: done here by an idle thread,
             * not by every reading warp on its way into the next tile. */
            uint32_t phase = 0;
            int pair;
            do {
                mbarrier_wait_parity(&tile_empty[0], phase);
                phase ^= 1;
                pair = tile_slot[0]; /* what the readers took: -1 ends the relay too */
                mbarrier_arrive_release_cluster(mapa_shared_cluster(&tile_empty[0], 0));
            } while (pair >= 0);
        }
    } else {
        setmaxnreg_inc<232>();
        const int c = wg - 1; /* this consumer's rows of the tile: 64c .. 64c + 63 */
        const int warp = tid / 32 % 4, lane = tid % 32;
        uint8_t *c_bufs = smem + STAGES * STAGE_BYTES + c * C_BUFS * C_SLICE_BYTES;
        int stored = 0; /* slices this consumer has handed to the TMA engine */

        pipeline pipe = pipeline_consumer(full, empty, STAGES);
        pipeline tp = pipeline_consumer(tile_full, tile_empty, 1);
        for (int pair = cluster_id_x(); pair >= 0; pair = take_pair(&tp, tile_slot)) {
            int m_block, n_block;
            tile_map_pair_coord(&pairs, pair, (int)rank, SHARE_B, &m_block, &n_block);
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
                if (kt > 0 && tid % 128 < CLUSTER)
                    consumer_release_cluster(&pipe, prev, tid % 128);
                prev = s;
                pipeline_advance(&pipe);
            }
            wgmma_wait_group<0>();
            if (tid % 128 < CLUSTER)
                consumer_release_cluster(&pipe, prev, tid % 128); /* the tile's last stage */

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
    /* No CTA leaves while its peer may still arrive on its barriers. */
    barrier_cluster_arrive_release();
    barrier_cluster_wait_acquire();
}

static cudaError_t launch(const f16 *A, const f16 *B, f16 *C, int M, int N, int K, int ldc,
                          cudaStream_t stream)
{
    /* A and B are read in [BM or BN rows x 64 K] boxes (the shared one in
     * half-height boxes), C is written in [64 x 64] boxes; all in the 128-byte
     * swizzle the kernel's smem layout assumes. */
    CUtensorMap tmap_a, tmap_b, tmap_c;
    tmap_desc da = tmap_desc_make(A, M, K, K, SHARE_B ? BM : BM / 2, BK, CU_TENSOR_MAP_SWIZZLE_128B);
    tmap_desc db = tmap_desc_make(B, N, K, K, SHARE_B ? BN / 2 : BN, BK, CU_TENSOR_MAP_SWIZZLE_128B);
    tmap_desc dc = tmap_desc_make(C, M, N, ldc, 64, 64, CU_TENSOR_MAP_SWIZZLE_128B);
    CUDA_TRY(tmap_encode(&tmap_a, &da));
    CUDA_TRY(tmap_encode(&tmap_b, &db));
    CUDA_TRY(tmap_encode(&tmap_c, &dc));

    const int m_blocks = (M + BM - 1) / BM, n_blocks = (N + BN - 1) / BN;
    if ((int64_t)m_blocks * n_blocks > INT32_MAX) {
        fprintf(stderr, "error: %d x %d tiles exceed a 1D grid\n", m_blocks, n_blocks);
        return cudaErrorInvalidValue;
    }
    /* Pairs of tiles: 2 M-blocks x 1 N-block when B is shared, else 1 x 2. */
#ifdef SWIZZLE
    const int width = SWIZZLE;
#else
    int dev, l2;
    CUDA_TRY(cudaGetDevice(&dev));
    CUDA_TRY(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
    const int width = tile_order_width(K, SHARE_B ? BN : 2 * BN, l2);
#endif
    const tile_map pairs = SHARE_B ? tile_map_make((m_blocks + 1) / 2, n_blocks, width)
                                   : tile_map_make(m_blocks, (n_blocks + 1) / 2, width);
    const int pairs_total = pairs.m_blocks * pairs.n_blocks;
    CUDA_TRY(cudaFuncSetAttribute(matmul_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  SMEM_BYTES));
    /* As many clusters as the GPU can hold at once (a cluster must fit in one
     * GPC, so this can be less than SMs / 2), fewer if there are fewer pairs. */
    cudaLaunchAttribute attr;
    attr.id = cudaLaunchAttributeClusterDimension;
    attr.val.clusterDim.x = CLUSTER;
    attr.val.clusterDim.y = 1;
    attr.val.clusterDim.z = 1;
    cudaLaunchConfig_t cfg = {};
    cfg.blockDim = dim3(THREADS);
    cfg.dynamicSmemBytes = SMEM_BYTES;
    cfg.stream = stream;
    cfg.attrs = &attr;
    cfg.numAttrs = 1;
    cfg.gridDim = dim3(CLUSTER * pairs_total); /* what the occupancy query is asked about */
    int clusters;
    CUDA_TRY(cudaOccupancyMaxActiveClusters(&clusters, matmul_kernel, &cfg));
    if (clusters < 1) {
        fprintf(stderr, "error: this GPU cannot hold one %d-CTA cluster of this kernel\n", CLUSTER);
        return cudaErrorInvalidConfiguration;
    }
    cfg.gridDim = dim3(CLUSTER * (pairs_total < clusters ? pairs_total : clusters));
    /* The scheduler's two counters, in a workspace kept per device
     * (common/workspace.h): the call of generation g counts on counter g % 2,
     * zeroed by the call before it. An allocation and a memset in the stream
     * before every kernel cost 1.7 us a call (v5 at 2048^3 on an H100: 29.0
     * us a call with them, 27.3 us without). */
    workspace_use u;
    CUDA_TRY(workspace_begin(2 * sizeof(int), 2 * sizeof(int), stream, &u));
    const cudaError_t err = cudaLaunchKernelEx(&cfg, matmul_kernel, tmap_a, tmap_b, tmap_c, M, N, K,
                                               pairs, (int *)u.ws, u.gen);
    if (err != cudaSuccess)
        fprintf(stderr, "error: matmul_kernel launch: %s\n", cudaGetErrorString(err));
    const cudaError_t done = workspace_end(&u, stream, err);
    return err != cudaSuccess ? err : done;
}

/* Share of this step's time lost to a row pitch of A and B that is 16 but
 * not 32 bytes aligned (K % 16 == 8); matmul_staged() copies them to a
 * 128-byte pitch where that is cheaper (matmul.h). Measured: v6 at 4096 x
 * 4096 x 4104 ran 0.988 of cuBLAS, at 4096 x 4096 x 4160 0.989; at 3072 x 5120
 * x 7160 0.927, at 7168 0.935 (H100, 2026-11-22, L2 promotion 128B): nothing
 * to win, so never copied. (With 256B promotion it lost 14%.) */
#ifndef PITCH_LOSS /* -DPITCH_LOSS=0 builds the step without the copy, to measure the loss */
#define PITCH_LOSS 0.0
#endif

extern "C" cudaError_t matmul_sm90(const f16 *A, const f16 *B, f16 *C, int M, int N, int K,
                                   cudaStream_t stream)
{
    return matmul_staged(A, B, C, M, N, K, stream, launch, PITCH_LOSS);
}
