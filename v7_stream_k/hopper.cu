/* v7_stream_k: the work decomposition fits the problem (sm_90a).
 *
 * Previous step: v6_cluster (2-CTA clusters sharing an operand tile, a
 * persistent grid claiming whole 256 x 256 tile pairs).
 *
 * The idea. Whole tiles are the wrong unit of work when their count does
 * not fit the GPU. At 8192^3 there are 2048 tiles of 128 x 256, 1024 pairs
 * for the 66 clusters an H100 holds (132 SMs): 15.5 waves, so the last wave
 * leaves half of the SMs idle, 3% of the run. At 1024^3 there are 16 pairs,
 * and 3/4 of the GPU has nothing to do; at 512 x 512 x 8192, 4 pairs of 128
 * k-tiles each. So this step cuts work in k-tiles (stream-K, Osama et al.,
 * PPoPP 2023):
 *  - whole pairs run first, in v4's L2-friendly order; the rest is dealt
 *    out as ranges of (pair, k-tile) iterations, one per cluster, so a pair
 *    can be split between clusters (stream-K), or every pair is cut the same
 *    number of ways when there are fewer pairs than clusters (split-K);
 *  - a split pair's pieces meet in fp32: they write their partial sums to
 *    workspace slots of their own and raise flags (st.release.gpu); the
 *    pair's owner (stream-K), or every piece for its share of the tile
 *    (split-K, gathered by bulk copies), waits for the flags (ld.acquire.gpu)
 *    and adds the partials in an order fixed by the plan, not by who
 *    finishes first, so every run gives the same bits;
 *  - the tile shape is the plan's (a template parameter: wgmma's N is part
 *    of the instruction), 128 x 288 down to 64 x 64, 128 rows by 80 .. 240
 *    columns in steps of 16 and by 288 (two wgmma a k-step), 64 rows by
 *    80 .. 112; a 64-row tile is one consumer's, the two taking turns on
 *    pieces (ping-pong); so is the
 *    cluster size (2, or 4 where one wave of whole tiles fits in the 30
 *    clusters of 4 the GPU holds: each CTA loads a quarter of the shared
 *    operand, or, 64 x 64 tiles 2 x 2, half of each operand; or 8 in 2 x 4
 *    or 4 x 2 tiles, 128 rows or 64 by 64 .. 96, in the 15 clusters of 8 it
 *    holds: a quarter of one operand and half of the other);
 *  - the operands' roles can swap: the kernel then computes C^T = B A^T and
 *    writes its fragment to C transposed (stmatrix .trans), so the side
 *    that wgmma's n sizes in steps of 16 can be M (144 x 6040: 80 x 128 tiles
 *    of C, not 128 x 128 over 256 rows);
 *  - where a CTA runs several whole 128-row tiles up to 256 wide, a
 *    consumer packs its last tile's fragment to fp16 in registers and
 *    stores it one 64-column slice per k-tile of the next tile, under
 *    that tile's MMAs (store_slice; the last tile stores as it packs).
 * The plan is chosen on the host from a cost model over candidate plans
 * (common/stream_k.h); `make plan SIZE="M N K"` prints them. Every role
 * works the plan out for itself (sk_work_of), but where there are more than
 * two waves of long whole pairs, v6's scheduler still claims them at run
 * time: the clusters do not all run at one speed (sk_claims).
 *
 * PTX first used here: st.release.gpu, ld.acquire.gpu, prefetch.tensormap,
 * wgmma m64nNk16 for N = 64 .. 240 in steps of 16, stmatrix.sync.aligned.m8n8.x4.trans,
 * cp.async.bulk (global -> shared, no tensor map), fence.proxy.async.global.
 *
 * Costs and gains: a workspace, flags and the fixup's partials; a little
 * ahead of v6 at 8192^3, far ahead where tiles are few or skinny (README.md,
 * the awkward table; the measurements behind the plan: plots/NOTES.md).
 *
 * Run: make v7 && ./v7 1024 1024 1024   (V7_PLAN=1 prints the plan; make plan
 *      SIZE="1024 1024 1024" works it out on the CPU, cluster by cluster)
 */
#include <cuda_fp16.h>
#include "../common/matmul.h"
#include "../common/check.h"
#include "../common/smem.cuh"
#include "../common/fence.cuh"
#include "../common/griddep.cuh"
#include "../common/wgmma.cuh"
#include "../common/mbarrier.cuh"
#include "../common/tma.cuh"
#include "../common/tmap.h"
#include "../common/warpgroup.cuh"
#include "../common/cluster.cuh"
#include "../common/pipeline.cuh"
#include "../common/tile_order.h"
#include "../common/stream_k.h"
#include "../common/flag.cuh"
#include "../common/workspace.h"
#include <stdlib.h>
#include <string.h>

/* BM x BN, the rows and columns of C per CTA, are the kernel's template
 * parameters: 128 x 256, 128 x 192, 128 x 128, 64 x 128, 128 x 64, 64 x 64,
 * 64 x 256, 128 x 80 .. 240 in steps of 16, 128 x 288, or 64 x 80 .. 112 (the plan picks,
 * sk_tile in common/stream_k.h). */
#define BOX_K 64                      /* K per TMA box: 64 fp16 = 128 B = one swizzle row */
#define BK SK_DEPTH(BM, BN)           /* K per k-tile, one stage: 128 for the 64-row tiles up to
                                       * 128 wide (half the waits and releases per MMA), else 64 */
#define CONSUMERS 2                   /* consumer warpgroups                          */
#define ROW_WGS (BM / 64)             /* of them on one tile, 64 rows each: 2 share a
                                       * 128-row tile; a 64-row tile is one's alone, and
                                       * the two take turns (ping-pong)               */
#define THREADS (128 * (1 + CONSUMERS)) /* warpgroup 0 produces, the others consume  */
#define CLUSTER CL                    /* CTAs per cluster: a pair (2), a quad (4) or 8:
                                       * the kernel's template parameter CL (sk_tile) */
/* Which operand a pair shares is the plan's choice (plan.share_b); the group
 * width of the tile order is worked out per call from K and the L2 size
 * (tile_order_width); -DSWIZZLE=n fixes it, for experiments. */

/* Shared memory: a ring of STAGES stages, each tile A [BK / 64][BM][64]
 * then tile B [BK / 64][BN][64] (a box of 64 k per [rows][64]), K-major in
 * the 128-byte swizzle (see wgmma_desc_k_sw128); then, per consumer, C_BUFS
 * slices of C [64][64] fp16 (8 KB each) in the same swizzle. As many stages
 * as fit in the 227 KB: 4 x 48 KB (128 x 256, 64 x 128), 6 x 32 KB (128 x
 * 128, 64 x 64), 8 x 24 KB (128 x 64), 4 x 40 KB (64 x 256, 128 x 192), 4
 * to 7 stages for the 128-row widths in steps of 16, 4 or 5 for 64 x 80 ..
 * 112 (one more in clusters of 8: C_IN_RING), 4 x 52 KB for 128 x 288 (one
 * C slice buffer: C_BUFS). */
#define TILE_A_BYTES (BM * BK * 2)
#define TILE_B_BYTES (BN * BK * 2)
#define STAGE_BYTES (TILE_A_BYTES + TILE_B_BYTES)
#define C_SLICE_BYTES (64 * 64 * 2)   /* a consumer's [64 rows][64 cols] slice of C */
#define C_BUFS (BN > 256 ? 1 : 2)     /* slice buffers per consumer: one filled while one drains;
                                       * past 256 columns one, so the ring keeps 4 stages of
                                       * 128 x 288 */
#define SMEM_MAX (227 * 1024)         /* shared memory a CTA may have on sm_90 */
/* 64-row tiles in clusters of 8 run one piece a CTA (sk_plan_of): after its
 * last k-tile nothing fills the ring again, so their C slices reuse its
 * first 32 KB, and the ring has their room: 7 / 6 / 5 stages for 64 x 64 /
 * 80 / 96, not 6 / 5 / 4 (64 x 96 then ran 2-15% faster, H100 and H200;
 * the same for every kernel, the stage count a run-time choice, made small
 * calls 2-6% slower: plots/NOTES.md). */
#define C_IN_RING (BM == 64 && CL == 8)
#define C_ROOM (C_IN_RING ? 0 : CONSUMERS * C_BUFS * C_SLICE_BYTES) /* the C slices' own room */
#define STAGES ((SMEM_MAX - 1024 - C_ROOM) / STAGE_BYTES)
#define SMEM_BYTES (STAGES * STAGE_BYTES + C_ROOM + 1024)
/* A consumer's partial sums in the workspace: its [64][BN] fp32 fragment
 * (one slot per 64 rows of a CTA's tile: in ping-pong only a cluster's first
 * piece, consumer 0's, ever hands on a partial). */
#define PARTIAL_FLOATS (64 * BN)
/* Split-K: a consumer's gather of its share of every piece's partials, in
 * its own part of the ring: [ways][its float4s] (sk_slice: at most
 * PARTIAL_FLOATS / 4 / ways + 1 each). */
#define GATHER_BYTES ((PARTIAL_FLOATS / 4 + SK_WAYS_MAX) * 16)
/* BN columns are one wgmma instruction per k-step (n: any multiple of 8 up to
 * 256). Split in two (192 + 48 for 240, 128 + 16 for 144), the narrow second
 * one made the tile 1-6% slower (plots/NOTES.md). Past 256 columns they are
 * two of half each (WN_1 columns; B's rows WN_1 .. start on a 1024-byte
 * swizzle atom, WN_1 being a multiple of 8), their fragments one after the
 * other in acc, which is then the m64nBN fragment (128 x 272 as 136 + 136,
 * 128 + 144 or 144 + 128 spilled 4 bytes in one kernel: plots/NOTES.md).
 * The epilogue stores BN / 64 slices of 64 columns, then the last BN % 64
 * (tmap_c16: one box of them a warp, or of C^T boxes of 16 rows of C). */
#define WN_1 (BN > 256 ? BN / 2 : BN) /* the first wgmma's n: 144 + 144 */
#define C_BOX_BYTES (16 * 64 * 2)     /* C^T: a box of a slice's last BN % 64 rows of C,
                                       * [16][64], in the swizzle */
/* The epilogue under the next tile's MMAs. A 128-row tile's two consumers
 * both convert and store, so the tensor cores would wait for the epilogue.
 * In the whole-pairs kernels a consumer instead keeps its fragment, packed to
 * fp16 in registers (pend, BN / 4 of them), and stores one slice of it after
 * each of the next piece's first k-tiles is issued. 64-row tiles have it
 * already: their two consumers take turns. */
#define SLICES ((BN + 63) / 64)       /* slices of a consumer's fragment, the last BN % 64 wide */
#define DEFER (BM == 128 && BN <= 256 && WHOLE)
/* The workspace starts with the scheduler's two counters, on a line of
 * their own, then the flags, each on a 128-byte line of its own:
 * a flag is polled by the pieces that wait for it while its neighbours are
 * written (one line for many flags: every raise and every poll meets at one
 * L2 slice). Room for 1024; an H100 needs 66 clusters x 2 CTAs x 2 consumers. */
#define FLAG_STRIDE 32                /* uint32s from one flag to the next */
#define FLAG_BYTES (1024 * FLAG_STRIDE * 4)
#define COUNTER_BYTES 128             /* before the flags: the scheduler's two counters */

/* Issued by one thread: TMA copies of k-tile kt of A (rows m0..) and B (rows
 * n0..) into the stage, announced to its full barrier. Out-of-bounds rows and
 * columns arrive as zeros and still count toward the expected bytes. The
 * shared operand: this CTA loads 1 / CL of it (rank r: the r-th part) into
 * every CTA; the other parts arrive from the peers, also counted here (a
 * 2 x 2 quad: half of each operand, into the two CTAs that share it). But an
 * A of fewer rows than a 64-row tile (a_rows < BM, plan.a_rows in
 * stream_k.h) comes whole, from CTA 0 alone: a box of rows past the edge is
 * not free (16 x 8192 x 8192, 64 x 64 tiles, H200: 55.5 us, against 41.5 us
 * at M = 64). */
/* A box of each operand for a cluster of 8 as R x S tiles sharing both (2 x 4
 * or 4 x 2): rank R j + i holds tile (i, j); A's part j of S goes to the CTAs
 * of row i (ranks i + R j'), B's part i of R to those of column j (ranks R j ..
 * R j + R - 1). A CTA asks L2 for BM / S rows of A and BN / R of B. (A quad's
 * 2 x 2 is the same, written out in load_stage: as load_both<2, 2> it made
 * the 64 x 64 quads' kernels 8 instructions longer.) */
template <int BM, int BN, int R, int S>
__device__ __forceinline__ void load_both(uint32_t a, uint32_t b, const CUtensorMap *tmap_a,
                                          const CUtensorMap *tmap_b, int k, int m0, int n0, uint32_t rank,
                                          uint32_t full)
{
    const uint32_t i = rank % R, jj = rank / R;
    constexpr uint32_t a_mask = S == 4 ? 0x55u : R == 4 ? 0x11u : 0x5u;
    constexpr uint32_t b_mask = (1u << R) - 1;
    cp_async_bulk_tensor_2d_global_to_shared_multicast(a + jj * (BM / S) * BOX_K * 2, tmap_a, k,
                                                       m0 + (int)(jj * (BM / S)), full, (uint16_t)(a_mask << i));
    cp_async_bulk_tensor_2d_global_to_shared_multicast(b + i * (BN / R) * BOX_K * 2, tmap_b, k,
                                                       n0 + (int)(i * (BN / R)), full, (uint16_t)(b_mask << (R * jj)));
}

template <int BM, int BN, int CL>
__device__ __forceinline__ void load_stage(uint32_t stage, uint32_t full,
                                           const CUtensorMap *tmap_a, const CUtensorMap *tmap_b,
                                           int kt, int m0, int n0, uint32_t rank, int share_b,
                                           int a_rows)
{
    mbarrier_arrive_expect_tx(full, (uint32_t)(a_rows * BK * 2 + TILE_B_BYTES));
#pragma unroll
    for (int j = 0; j < BK / BOX_K; j++) { /* box j: k = kt * BK + 64 j .. + 63 */
        const int k = kt * BK + j * BOX_K;
        const uint32_t a = stage + j * BM * BOX_K * 2, b = stage + TILE_A_BYTES + j * BN * BOX_K * 2;
        if constexpr (CL == 8) { /* 2 x 4 or 4 x 2 tiles: no other way (sk_plan_of) */
            if (share_b == SK_SHARE_BOTH4)
                load_both<BM, BN, 4, 2>(a, b, tmap_a, tmap_b, k, m0, n0, rank, full);
            else
                load_both<BM, BN, 2, 4>(a, b, tmap_a, tmap_b, k, m0, n0, rank, full);
        } else if (a_rows < BM) { /* C is one block row (the pair shares A); the rest of the A
                            * tile is never written: the MMAs' rows there lie past C,
                            * and no store writes them */
            if (rank == 0)
                cp_async_bulk_tensor_2d_global_to_shared_multicast(a, tmap_a, k, m0, full, (1 << CLUSTER) - 1);
            cp_async_bulk_tensor_2d_global_to_shared(b, tmap_b, k, n0, full);
        } else if (CL == 4 && share_b == SK_SHARE_BOTH) { /* 2 x 2: rank 2 j + i, tile (i, j) of the
                            * quad; A's half j to the CTAs of row i (ranks i, i + 2), B's half
                            * i to those of column j (ranks 2 j, 2 j + 1) */
            const uint32_t i = rank & 1, jj = rank >> 1;
            cp_async_bulk_tensor_2d_global_to_shared_multicast(a + jj * BM / 2 * BOX_K * 2, tmap_a, k,
                                                               m0 + (int)jj * BM / 2, full, (uint16_t)(0x5 << i));
            cp_async_bulk_tensor_2d_global_to_shared_multicast(b + i * BN / 2 * BOX_K * 2, tmap_b, k,
                                                               n0 + (int)i * BN / 2, full, (uint16_t)(0x3 << (2 * jj)));
        } else if (share_b) {
            cp_async_bulk_tensor_2d_global_to_shared(a, tmap_a, k, m0, full);
            cp_async_bulk_tensor_2d_global_to_shared_multicast(b + rank * BN / CLUSTER * BOX_K * 2, tmap_b, k,
                                                               n0 + rank * BN / CLUSTER, full, (1 << CLUSTER) - 1);
        } else {
            cp_async_bulk_tensor_2d_global_to_shared_multicast(a + rank * BM / CLUSTER * BOX_K * 2, tmap_a, k,
                                                               m0 + rank * BM / CLUSTER, full, (1 << CLUSTER) - 1);
            cp_async_bulk_tensor_2d_global_to_shared(b, tmap_b, k, n0, full);
        }
    }
}

/* A consumer warpgroup's fp32 fragment to its workspace slot, laid out as
 * the fragment: float4 i of thread t at [i][t], so each warp writes 512
 * contiguous bytes; then its flag, raised (set to this call's generation,
 * st.release.gpu) once the whole warpgroup has written. */
template <int BN>
__device__ __forceinline__ void write_partials(float4 *slot, const float (&acc)[BN / 2], int t, int c,
                                               uint32_t *flag, uint32_t gen)
{
#pragma unroll
    for (int i = 0; i < BN / 8; i++)
        __stcg(&slot[i * 128 + t], make_float4(acc[4 * i], acc[4 * i + 1], acc[4 * i + 2], acc[4 * i + 3]));
    fence_proxy_async_global(); /* split-K's pieces read them by bulk copies (the stream-K
                                 * owner's ordinary loads need no fence: one per piece) */
    bar_sync(2 + c, 128); /* the warpgroup's partials are written ... */
    if (t == 0)
        st_release_gpu_u32(flag, gen); /* ... before the flag says so */
}

/* Any role: the i-th piece of cluster p's work (i = 0, 1, ..), pair -1 when
 * none is left. Where the plan claims whole pairs (sk_claims: more than two
 * waves of them, each of more than 32 k-tiles), the first is the cluster's
 * own index, and the rest come from CTA 0's scheduler: whole pairs claimed at
 * run time, as v6 claims them (dealt out before the launch, many waves of
 * pairs left the clusters 4-8% apart at the end, for they do not all run at
 * one speed: plots/NOTES.md), then the cluster's stream-K pieces, which the
 * plan fixes. The warp's first lane reads the slot (written by CTA 0: acquire
 * at cluster scope), frees it with one arrival at this CTA's pair_empty
 * (CTA 1 relays it to CTA 0) and passes the piece to the other lanes. (v6
 * lets every lane read, the warp synchronized before the arrival;
 * compute-sanitizer's racecheck takes that for a race with the next claim's
 * write.) Otherwise the plan alone says (work_of). Every role of both CTAs
 * walks the same pieces. */
/* The i-th piece of cluster p as the plan deals it out; the instance for
 * whole pairs only (WHOLE) without sk_work_of's stream-K code, which made
 * small calls up to 6.5% slower (plots/NOTES.md). */
template <int WHOLE>
__device__ __forceinline__ sk_work work_of(const sk_plan *plan, int p, int i)
{
    return WHOLE ? sk_whole_work_of(plan, p, i) : sk_work_of(plan, p, i);
}

template <int BM, int WHOLE>
__device__ __forceinline__ sk_work next_work(const sk_plan *plan, int p, int i, uint64_t *pair_full,
                                             uint64_t *pair_empty, const int *slot)
{
    if (BM != 128 || !sk_claims(plan) || i == 0) /* never for 64-row tiles (sk_claims) */
        return work_of<WHOLE>(plan, p, i);
    const unsigned warp = __activemask();
    sk_work w = {-1, 0, 0};
    if (threadIdx.x % 32 == 0) {
        mbarrier_wait_parity_acquire_cluster(pair_full, (uint32_t)(i - 1) & 1); /* the (i - 1)-th post */
        w.pair = slot[0], w.kb = slot[1], w.ke = slot[2];
        mbarrier_arrive(pair_empty);
    }
    w.pair = __shfl_sync(warp, w.pair, 0);
    w.kb = __shfl_sync(warp, w.kb, 0);
    w.ke = __shfl_sync(warp, w.ke, 0);
    return w;
}

/* A piece as the warp's own (redux_sync_max_u32 of each field; every lane
 * holds them alike): see the consumers' main loop. */
__device__ __forceinline__ sk_work warp_work(sk_work w)
{
    w.pair = (int)redux_sync_max_u32((uint32_t)w.pair);
    w.kb = (int)redux_sync_max_u32((uint32_t)w.kb);
    w.ke = (int)redux_sync_max_u32((uint32_t)w.ke);
    return w;
}

/* Two fp32 as the fp16 pair of one 32-bit register (x in the low half). */
__device__ __forceinline__ uint32_t half2_bits(float x, float y)
{
    const __half2 h = __floats2half2_rn(x, y);
    return *(const uint32_t *)&h;
}

/* The epilogue's store of one slice of a consumer's fragment: v, its fp16
 * pairs [8-column group][row half] (16; the last slice, BN % 64 wide, fewer),
 * of the tile's rows row0 .. row0 + 63 and columns n0 + 64 slice .. (of C^T:
 * C's columns and rows). Registers -> shared memory -> TMA store, in the same
 * 128-byte swizzle as the inputs: a warp's 32 four-byte writes then fall in 32
 * different banks. Each slice is its own bulk group, so "at most C_BUFS - 1
 * groups still reading" means the buffer about to be written has been read.
 * Slices wholly outside C are skipped (TMA clips partial ones). */
template <int BN, int T>
__device__ __forceinline__ void store_slice(const uint32_t *v, int slice, int row0, int n0, int M, int N,
                                            uint8_t *c_bufs, int &stored, int c, const CUtensorMap *tmap_c,
                                            const CUtensorMap *tmap_c16)
{
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32 % 4;
    if (n0 + slice * 64 >= N || row0 >= M) /* the same for the whole warpgroup */
        return;
    if constexpr (T) {
        /* Tiles of C^T: the fragment's rows are C's columns row0 .., its
         * columns C's rows n0 ... A slice is 64 of its columns (the last BN %
         * 64), C's rows by 64 of C's columns: [rows][64] fp16 in the same
         * swizzle, written by stmatrix .trans, each 8 x 8 block of the
         * fragment transposed (a block's column: 16 bytes of a row of C); the
         * last slice goes out in [16][64] boxes (tmap_c16). One stmatrix:
         * 8-column groups j, j + 1 of the fragment, each in its rows 16w ..
         * 16w + 7 and 16w + 8 .. 16w + 15, four 8 x 8 blocks; lane l addresses
         * block l / 8's column l % 8: C's row 8(l / 16) + l % 8 of the slice's
         * 16 rows from 8j, 16-byte chunk 2w + (l / 8) % 2 of its 64 columns.
         * The row's swizzle, l % 8, is the same for every j. */
        const int st_row = lane / 16 * 8 + lane % 8;
        const int st_at = st_row * 128 + (((2 * warp + lane / 8 % 2) ^ (st_row % 8)) << 4);
        const int rows = slice < BN / 64 ? 64 : BN % 64; /* of C */
        uint8_t *buf = c_bufs + stored % C_BUFS * C_SLICE_BYTES; /* [rows][64] fp16, swizzled */
        if (threadIdx.x % 128 == 0)
            cp_async_bulk_wait_group_read<C_BUFS - 1>();
        bar_sync(2 + c, 128);
#pragma unroll
        for (int q = 0; q < rows / 16; q++)
            stmatrix_m8n8_x4_trans_b16(buf + q * 16 * 128 + st_at, v[4 * q], v[4 * q + 1], v[4 * q + 2],
                                       v[4 * q + 3]);
        fence_proxy_async_shared_cta();
        bar_sync(2 + c, 128);
        if (threadIdx.x % 128 == 0) {
            if (rows == 64)
                cp_async_bulk_tensor_2d_shared_to_global(tmap_c, row0, n0 + slice * 64, buf);
            else
                for (int b = 0; b < rows / 16 && n0 + slice * 64 + b * 16 < N; b++)
                    cp_async_bulk_tensor_2d_shared_to_global(tmap_c16, row0, n0 + slice * 64 + b * 16,
                                                             buf + b * C_BOX_BYTES);
            cp_async_bulk_commit_group();
        }
    } else {
        /* Tiles of C: each warp writes and stores its own 16 rows (its groups
         * are its first lane's), so no barrier waits for the warpgroup's
         * slowest warp: [64][64] fp16, swizzled, this warp's rows 16w ..; the
         * last BN % 64 columns in one [16][BN % 64] box of C (tmap_c16), not
         * swizzled, in the warp's own 2 KB of the buffer. */
        uint8_t *buf = c_bufs + stored % C_BUFS * C_SLICE_BYTES + warp * 16 * 128;
        if (lane == 0)
            cp_async_bulk_wait_group_read<C_BUFS - 1>();
        __syncwarp(); /* buf is free for the warp */
        const int chunks = slice < BN / 64 ? 8 : BN % 64 / 8;
#pragma unroll
        for (int chunk = 0; chunk < chunks; chunk++)
#pragma unroll
            for (int half = 0; half < 2; half++) {
                const int r = lane / 4 + half * 8; /* row of the warp's 16 */
                const int at = slice < BN / 64 ? r * 128 + ((chunk ^ (r % 8)) << 4) : r * (BN % 64 * 2) + chunk * 16;
                *(uint32_t *)(buf + at + (lane % 4) * 4) = v[chunk * 2 + half];
            }
        fence_proxy_async_shared_cta(); /* generic-proxy writes, read next by TMA (async proxy) */
        __syncwarp();
        if (lane == 0) {
            cp_async_bulk_tensor_2d_shared_to_global(slice < BN / 64 ? tmap_c : tmap_c16, n0 + slice * 64,
                                                     row0 + warp * 16, buf);
            cp_async_bulk_commit_group();
        }
    }
    stored++;
}

/* T: the operands' roles swapped (plan.swap): A and B are the tensor maps of
 * B and A, M and N are C^T's rows and columns, and the epilogue writes the
 * fragment to C transposed. WHOLE: the plan runs whole pairs only (no
 * stream-K, no split-K), and the kernel has no code for the others: their
 * paths, never taken, made the kernel 70% longer, and the short kernel ran
 * 15 shapes 2.3% / 1.7% faster (H100 / H200; up to 6.6% on small calls:
 * plots/NOTES.md). */
template <int BM, int BN, int T, int WHOLE, int CL>
__global__ void __launch_bounds__(THREADS, 1) /* the 1 gives setmaxnreg a cap to move from */
matmul_kernel(const __grid_constant__ CUtensorMap tmap_a, const __grid_constant__ CUtensorMap tmap_b,
              const __grid_constant__ CUtensorMap tmap_c, const __grid_constant__ CUtensorMap tmap_c16,
              f16 *C, int M, int N, int ldc, const tile_map pairs, const sk_plan plan, int *counters,
              uint32_t *flags, float *partials, uint32_t gen)
{
    extern __shared__ uint8_t smem_raw[];
    uint8_t *smem = align1024(smem_raw);

    __shared__ uint64_t full[STAGES];  /* full[s] completes when stage s has landed        */
    __shared__ uint64_t empty[STAGES]; /* empty[s] completes when the consumers are done with it */
    __shared__ uint64_t turn[CONSUMERS]; /* ping-pong: turn[c] completes a phase when consumer c
                                          * has seen the last stage of a piece land */
    __shared__ uint64_t pair_full[1];  /* CTA 0's scheduler has put the next pair in pair_slot */
    __shared__ uint64_t pair_empty[1]; /* every reader (at CTA 0: of both CTAs) has taken it  */
    __shared__ int pair_slot[3];       /* the next piece: pair, kb, ke; pair -1: none left    */
    __shared__ uint32_t ring_at[4];    /* shared addresses of the ring, full[0], empty[0], turn[0] */
    __shared__ uint64_t gathered[CONSUMERS]; /* split-K: consumer c's gather has landed */
    /* STAGES leaves room for these but does not count them: check. */
    static_assert(SMEM_BYTES + sizeof full + sizeof empty + sizeof turn + sizeof pair_full + sizeof pair_empty +
                          sizeof pair_slot + sizeof ring_at + sizeof gathered <= SMEM_MAX,
                  "the ring, the C slices and the barriers exceed 227 KB of shared memory");
    static_assert(CONSUMERS * GATHER_BYTES <= STAGES * STAGE_BYTES, "the split-K gathers exceed the ring");
    static_assert(BN <= 256 || (WN_1 % 8 == 0 && BN - WN_1 <= 256),
                  "past 256 columns: two wgmma, the second's B rows from a whole swizzle atom (8 rows)");

    const int tid = threadIdx.x;
    const uint32_t rank = cluster_ctarank(); /* 0 or 1: which tile of the pair */
    const int p = (int)cluster_id_x();       /* this cluster: its work in the plan, its workspace slot */

    /* The tensor maps' fetch overlaps the set-up below (a small problem's
     * first copies otherwise wait for it). */
    if (tid == 0) {
        prefetch_tensormap(&tmap_a);
        prefetch_tensormap(&tmap_b);
        prefetch_tensormap(&tmap_c);
        if (BN % 64)
            prefetch_tensormap(&tmap_c16);
    }

    /* full: one arrival, the thread that issues this CTA's copies; empty: one
     * arrival per consumer warpgroup of both CTAs that reads the stage (thread
     * r of a warpgroup signals CTA r: a wgmma group completes for the whole
     * warpgroup at once, so one thread's wait speaks for all 128, and the two
     * arrivals go out from one instruction). turn: one arrival. pair_full:
     * CTA 0's scheduler; pair_empty: one arrival per reading warp of this CTA,
     * and at CTA 0 one more from CTA 1's relay. (One per lane of warp 0, each
     * lane fencing its own, was 0.3-0.65 us slower: plots/NOTES.md.) */
    if (tid == 0) {
        /* Read back by the producer and the consumers for their main loops
         * (see the consumers'): stored before the init fence below, which
         * releases them with the inits. */
        ring_at[0] = smem_u32(smem);
        ring_at[1] = smem_u32(full);
        ring_at[2] = smem_u32(empty);
        ring_at[3] = smem_u32(turn);
        pipeline_init(full, empty, STAGES, 1, CLUSTER * ROW_WGS);
        for (int c = 0; c < CONSUMERS; c++) {
            mbarrier_init(&turn[c], 1);
            mbarrier_init(&gathered[c], 1);
        }
        pipeline_init(pair_full, pair_empty, 1, 1, 1 + CONSUMERS * 4 + (rank == 0 ? CLUSTER - 1 : 0));
    }
    /* Both CTAs' barriers are initialised before anyone arrives on a peer's
     * barrier. The init fence has made the inits visible to the cluster, so
     * the arrival need not release (a release is a cluster-scope fence in
     * every thread: 0.55 us of a 1024^3 kernel's start); the wait acquires. */
    barrier_cluster_arrive_relaxed_aligned();
    barrier_cluster_wait_acquire();
    /* Launched early (PDL) behind the kernel that staged A and B, or behind
     * the previous call: the set-up above overlapped its tail; nothing in
     * global memory is touched before this. The next kernel (C's copy out)
     * may launch now and wait in turn. */
    griddepcontrol_launch_dependents();
    griddepcontrol_wait();

    const int wg = (int)redux_sync_max_u32((uint32_t)tid / 128); /* see the consumers' main loop */
    const bool exit_barrier = BM == 128 && CL == 2 && sk_claims(&plan); /* see the end (worked out there,
                                                               * it spilled in one kernel) */
    if (wg == 0) {
        /* Producer: one thread fills the ring, each stage once the consumers
         * have released it. */
        setmaxnreg_dec<40>();
        if (tid == 0) {
            pipeline pipe = pipeline_producer(full, empty, STAGES);
            const uint32_t ring = ring_at[0], full_sh = ring_at[1], empty_sh = ring_at[2];
            sk_work w;
            for (int i = 0; (w = next_work<BM, WHOLE>(&plan, p, i, pair_full, pair_empty, pair_slot)).pair >= 0; i++) {
                int m_block, n_block;
                tile_map_group_coord(&pairs, w.pair, (int)rank, plan.share_b, CL, &m_block, &n_block);
                /* The CTA's rank is read afresh for each stage: held, with the
                 * offsets it gives, it spilled from the producer's 40 registers. */
                for (int kt = w.kb; kt < w.ke; kt++) {
                    /* producer_acquire: released by both CTAs' consumers */
                    mbarrier_wait_parity(empty_sh + 8 * pipe.stage, pipe.phase);
                    load_stage<BM, BN, CL>(ring + pipe.stage * STAGE_BYTES, full_sh + 8 * pipe.stage, &tmap_a,
                                   &tmap_b, kt, m_block * BM, n_block * BN, cluster_ctarank(), plan.share_b,
                                   plan.a_rows);
                    pipeline_advance(&pipe);
                }
            }
            /* The producer's tail: every stage's last fill released by the
             * consumers of both CTAs (a stage never filled passes at once),
             * so no arrival from the peer is still on its way to this CTA's
             * ring when it leaves (see the end of the kernel). */
#pragma unroll 1
            for (int s = 0; s < STAGES; s++) {
                producer_acquire(&pipe);
                pipeline_advance(&pipe);
            }
        } else if (tid == 32 && rank == 0) {
            /* Scheduler (CTA 0 only), as v6's: claims whole pairs while the
             * others compute, from the clusters' count on; once none is left,
             * it hands on the cluster's stream-K pieces from the plan, then
             * pair -1. Each piece goes into both CTAs' slots, then a
             * release-arrive on each CTA's pair_full carries it. Cluster 0
             * also zeroes the counter of the call after (counters:
             * common/workspace.h), whether this call claims or not. */
            if (p == 0 && counters)
                counters[(gen + 1) % 2] = 0;
            if (BM == 128 && CL == 2 && sk_claims(&plan)) { /* pairs only (sk_claims_of): in a
                                                             * cluster of 8 its posts spilled */
                int *next_pair = &counters[gen % 2]; /* zeroed by the call before */
                pipeline tp = pipeline_producer(pair_full, pair_empty, 1);
                int n = -1; /* the plan's pieces handed on, after the deal's whole pairs; -1: claiming */
                sk_work w = {0, 0, plan.k_tiles};
                do {
                    producer_acquire_cluster(&tp);
                    if (n < 0) {
                        w.pair = sched_claim(plan.clusters, atomicAdd(next_pair, 1), plan.pairs - plan.sk_pairs);
                        if (w.pair < 0)
                            n = WHOLE ? 0 : sk_whole_of(&plan, p);
                    }
                    if (n >= 0) /* whole pairs only: no stream-K piece follows */
                        w = WHOLE ? sk_work{-1, 0, 0} : sk_work_of(&plan, p, n++);
                    for (uint32_t r = 0; r < CLUSTER; r++) {
                        st_shared_cluster_u32(mapa_shared_cluster(&pair_slot[0], r), (uint32_t)w.pair);
                        st_shared_cluster_u32(mapa_shared_cluster(&pair_slot[1], r), (uint32_t)w.kb);
                        st_shared_cluster_u32(mapa_shared_cluster(&pair_slot[2], r), (uint32_t)w.ke);
                        mbarrier_arrive_release_cluster(mapa_shared_cluster(&pair_full[0], r));
                    }
                    pipeline_advance(&tp);
                } while (w.pair >= 0);
            }
        } else if (BM == 128 && CL == 2 && tid == 32 && sk_claims(&plan)) {
            /* CTA 1's relay, as v6's: once every reader of this CTA has taken
             * the pair in the slot, one arrival (release, at cluster scope) at
             * CTA 0's pair_empty says so. */
            uint32_t phase = 0;
            int pair;
            do {
                mbarrier_wait_parity(&pair_empty[0], phase);
                phase ^= 1;
                pair = pair_slot[0]; /* what the readers took: -1 ends the relay too */
                mbarrier_arrive_release_cluster(mapa_shared_cluster(&pair_empty[0], 0));
            } while (pair >= 0);
        }
    } else {
        setmaxnreg_inc<232>();
        const int c = wg - 1;                   /* this consumer                    */
        const int h = ROW_WGS > 1 ? c : 0;      /* its rows of the tile: 64h .. 64h + 63 */
        const int t = tid % 128, lane = tid % 32;
        uint8_t *c_bufs = smem + (C_IN_RING ? 0 : STAGES * STAGE_BYTES) + c * C_BUFS * C_SLICE_BYTES;
        int stored = 0; /* slices this consumer has handed to the TMA engine */
        /* The last tile's fragment, fp16 pairs [slice][8-column group][row
         * half], its slices ds .. not yet stored (SLICES: none), and its corner. */
        uint32_t pend[DEFER ? BN / 4 : 1];
        int ds = SLICES, pm0 = 0, pn0 = 0;

        pipeline pipe = pipeline_consumer(full, empty, STAGES);
        /* The main loop below is one warp's stream of instructions, issued
         * one after another with nothing to hide their latency: on 64-row
         * tiles it, not the tensor cores, sets the pace (a 64 x 64 k-tile of
         * 64 took ~450 cycles, 4 x 32 of them MMAs: plots/NOTES.md; hence
         * their k-tiles 128 deep, BK). So it takes its addresses from
         * registers: the full barriers', its release's (thread r of the
         * warpgroup releases CTA r's empty barrier) and stage 0's
         * descriptors, stepped to stage s by addition (wgmma_desc_advance).
         * The shared addresses are loaded (ring_at), not worked out: ptxas
         * worked a computed one out again on every k-tile, from the CTA's
         * window base (S2UR SR_CgaCtaId). Everything the loop is built from
         * (the warpgroup's role, those addresses, the piece's k-tiles, `live`)
         * goes through redux_sync_max_u32 once, where it is made: ptxas keeps
         * a value in uniform registers, where wgmma reads its descriptors,
         * only if it can prove every lane holds the same one and the code
         * around it runs the warp as one. Otherwise it runs the loop in
         * vector registers: 70 instructions a warp a k-tile of 128 x 64,
         * 16 of them R2UR, against 46 (plots/NOTES.md). */
        const uint32_t ring = redux_sync_max_u32(ring_at[0]), full_sh = redux_sync_max_u32(ring_at[1]);
        const uint32_t turn_sh = ring_at[3] + 8 * c;
        const uint32_t empty_peer = mapa_shared_cluster(empty, (uint32_t)(tid % 128 % CLUSTER));
        const uint64_t desc_a0 = wgmma_desc_k_sw128(ring + (uint32_t)h * 64 * 128);
        const uint64_t desc_b0 = wgmma_desc_k_sw128(ring + TILE_A_BYTES);
        /* Ping-pong (64-row tiles): consumer c takes pieces c, c + 2, .. and
         * steps over the stages of the other's. It starts a piece only once
         * the other has seen the last stage of the piece before land: the MMAs
         * of the two pieces run one after the other, the epilogue of one under
         * the main loop of the next; and no stage's fill is waited for while
         * the fill before it is still due. */
        const int first = ROW_WGS == 1 ? c : 0, every = ROW_WGS == 1 ? CONSUMERS : 1;
        /* w: this piece; next: the one after, read while this one's last
         * MMAs run (the warp only waits for them then), not after its epilogue. */
        sk_work w = warp_work(next_work<BM, WHOLE>(&plan, p, first, pair_full, pair_empty, pair_slot)), next;
        for (int i = first; w.pair >= 0; i += every, w = next) {
            if (ROW_WGS == 1 && i > 0) {
                const sk_work before = warp_work(work_of<WHOLE>(&plan, p, i - 1)); /* the other's (no claims:
                                                                                      * sk_claims) */
                pipeline_skip(&pipe, before.ke - before.kb);
                /* its ((i + c) / 2 - 1)-th wait: consumer 0 waits at 2, 4, .., 1 at 1, 3, .. */
                mbarrier_wait_parity(&turn[1 - c], (uint32_t)((i + c) / 2 - 1) & 1);
            }
            int m_block, n_block;
            tile_map_group_coord(&pairs, w.pair, (int)rank, plan.share_b, CL, &m_block, &n_block);
            const int m0 = m_block * BM;
            const int n0 = n_block * BN;
            /* Do this consumer's 64 rows hold any of C? If not (M = 16, the
             * second tile of a pair past the edge), its MMAs, partials and
             * stores are skipped alike, in every cluster that shares the piece. */
            /* Through redux_sync_max_u32 (see above): a lane's own `live` would
             * put the loop under it back in vector registers. Not in the kernel
             * 288 wide, which has no register to spare for it (ptxas spilled). */
            const bool live = BN > 256 ? m0 + h * 64 < M && n0 < N
                                       : redux_sync_max_u32(m0 + h * 64 < M && n0 < N) != 0;
            /* acc: the m64nBN fragment of rows 64h .. 64h + 63 of the tile. Not
             * zeroed: the piece's first MMA overwrites it (scale_d = 0; BN / 2
             * moves a thread, on the way from one tile to the next). A piece has
             * at least one k-tile (sk_work_of; split-K ways <= k-tiles, sk_plan_of). */
            float acc[BN / 2];

            int prev = 0; /* stage of k-tile kt - 1 */
            /* k-tile kt: its stage waited for, its MMAs issued; the stage's index */
            auto issue = [&](int kt) {
                const int s = pipe.stage;
                /* stage s: A [BK / 64][BM][64] then B [BK / 64][BN][64], fp16, swizzled */
                const uint32_t stage_at = (uint32_t)s * STAGE_BYTES; /* from stage 0 */
                mbarrier_wait_parity(full_sh + 8 * s, pipe.phase); /* consumer_acquire */
                if (ROW_WGS == 1 && kt == w.ke - 1 && t == 0)
                    mbarrier_arrive(turn_sh); /* the piece's last stage is here: the other's turn */

                if (live) {
                    wgmma_fence();
#pragma unroll
                    for (int k = 0; k < BK / 16; k++) {
                        /* 16 fp16 of K = 32 bytes (2 x 16) along each swizzled row
                         * of box k / (BOX_K / 16). */
                        const uint32_t box = (uint32_t)(k / (BOX_K / 16)) * BOX_K * 2,
                                       in = (uint32_t)(k % (BOX_K / 16)) * 32;
                        const uint64_t db = wgmma_desc_advance(desc_b0, stage_at + box * BN + in);
                        const uint64_t da = wgmma_desc_advance(desc_a0, stage_at + box * BM + in);
                        wgmma_m64nNk16_f32_f16_f16<WN_1>(acc, da, db, k > 0 || kt > w.kb);
                        if constexpr (BN > WN_1) /* B's rows WN_1 ..: 128 B each, whole 1024-byte swizzle atoms */
                            wgmma_m64nNk16_f32_f16_f16<BN - WN_1>(acc + WN_1 / 2, da,
                                                                 wgmma_desc_advance(db, WN_1 * 128),
                                                                 k > 0 || kt > w.kb);
                    }
                    wgmma_commit_group();
                }
                return s;
            };
            /* k-tile kt's MMAs stay in flight; kt - 1's are done, so its stage is free. */
            auto release = [&](int kt, int s) {
                wgmma_wait_group<1>();
                if (kt > w.kb && tid % 128 < CLUSTER)
                    mbarrier_arrive_shared_cluster(empty_peer + 8 * prev); /* consumer_release_cluster */
                prev = s;
                pipeline_advance(&pipe);
            };
            int kt = w.kb;
            /* The last tile's slices, one while each k-tile's MMAs run, in a loop
             * of its own: the main loop stays v6's. pend is indexed by constants
             * (sl, unrolled) so it stays in registers. */
            if constexpr (DEFER)
                for (; ds < SLICES; kt++, ds++) { /* past the piece's k-tiles, stores alone */
                    const bool mma = kt < w.ke;
                    int s = 0;
                    if (mma)
                        s = issue(kt);
#pragma unroll
                    for (int sl = 0; sl < SLICES; sl++)
                        if (sl == ds)
                            store_slice<BN, T>(pend + sl * 16, sl, pm0 + h * 64, pn0, M, N, c_bufs, stored, c,
                                               &tmap_c, &tmap_c16);
                    if (mma)
                        release(kt, s);
                }
            for (; kt < w.ke; kt++)
                release(kt, issue(kt));
            next = warp_work(next_work<BM, WHOLE>(&plan, p, i + every, pair_full, pair_empty, pair_slot));
            wgmma_wait_group<0>();
            if (tid % 128 < CLUSTER)
                mbarrier_arrive_shared_cluster(empty_peer + 8 * prev); /* the piece's last stage */

            /* The workspace has a slot and a flag per cluster, CTA and consumer
             * (write_partials lays the slot out); this consumer's: */
            const int me = (p * CLUSTER + (int)rank) * ROW_WGS + h;

            /* Split-K: the `ways` pieces of the pair finish it together, a
             * reduce-scatter. Each writes its partials (slot and flag as below);
             * piece l then adds up its 1/ways of the slot's float4s from every
             * piece's slot, in piece order (fixed: the same bits every run), and
             * stores them straight to C. Its shares of the slots are gathered
             * into shared memory by bulk copies, thread q copying piece q's as
             * soon as its flag is up: all in flight at once, one round trip to
             * L2 in all. (Loaded into registers, a few pieces at a time, they
             * took 4.6 us of a 14 us call in 21 pieces: plots/NOTES.md.) The
             * gather lands in the ring, which no copy fills again: a cluster
             * has one piece (sk_work_of), its stages have all landed, and the
             * MMAs of both consumers are done. */
            if (!WHOLE && plan.ways) {
                const int l = p % plan.ways;             /* this piece of the pair */
                const int step = CLUSTER * ROW_WGS;      /* from piece q's slot to q + 1's */
                const int floats4 = PARTIAL_FLOATS / 4; /* float4s per slot */
                const float4 *piece0 = (const float4 *)partials + (size_t)(me - l * step) * floats4;
                int lo, hi; /* this piece's float4s of the slot */
                sk_slice(plan.ways, l, floats4, &lo, &hi);
                const int n4 = hi - lo;
                const float4 *got = (const float4 *)(smem + c * GATHER_BYTES); /* [ways][n4] */
                if (ROW_WGS > 1)
                    bar_sync(1, CONSUMERS * 128); /* the other consumer's MMAs are done too */
                if (live) {
                    if (t == 0) /* before write_partials' barrier, so before any copy */
                        mbarrier_arrive_expect_tx(&gathered[c], (uint32_t)(plan.ways * n4 * 16));
                    write_partials<BN>((float4 *)partials + (size_t)me * floats4, acc, t, c,
                                       &flags[me * FLAG_STRIDE], gen);
                    for (int q = t; q < plan.ways; q += 128) {
                        if (q != l) /* this piece's own: written before write_partials' barrier */
                            while (ld_acquire_gpu_u32(&flags[(me + (q - l) * step) * FLAG_STRIDE]) != gen)
                                ;
                        fence_proxy_async_global(); /* written by ordinary stores, read by TMA */
                        cp_async_bulk_global_to_shared(smem_u32(got + q * n4), piece0 + (size_t)q * step * floats4 + lo,
                                                       (uint32_t)(n4 * 16), smem_u32(&gathered[c]));
                    }
                    mbarrier_wait_parity(&gathered[c], 0); /* once per kernel: its one piece */
                    for (int f = lo + t; f < hi; f += 128) {
                        float4 sum = got[f - lo];
                        for (int q = 1; q < plan.ways; q++) {
                            const float4 v = got[q * n4 + f - lo];
                            sum.x += v.x;
                            sum.y += v.y;
                            sum.z += v.z;
                            sum.w += v.w;
                        }
                        /* float4 f is float4 i = f / 128 of fragment thread f % 128:
                         * rows 16w + l/4 and 8 below (w, l: that thread's warp and
                         * lane), columns 8i + 2(l % 4) + {0, 1}. C's rows start on
                         * 16-byte boundaries (ldc % 8 == 0): a column pair is one
                         * 4-byte store. */
                        const int ft = f % 128;
                        const int row = m0 + h * 64 + ft / 32 * 16 + ft % 32 / 4;
                        const int col = n0 + f / 128 * 8 + ft % 4 * 2;
                        const __half2 h[2] = {__floats2half2_rn(sum.x, sum.y), __floats2half2_rn(sum.z, sum.w)};
                        if constexpr (T) { /* C^T's columns col, col + 1: rows of C */
#pragma unroll
                            for (int e = 0; e < 2; e++) {
                                if (col + e >= N)
                                    continue;
                                __half *dst = (__half *)(C + (size_t)(col + e) * ldc + row);
#pragma unroll
                                for (int half = 0; half < 2; half++)
                                    if (row + 8 * half < M)
                                        dst[8 * half] = e ? __high2half(h[half]) : __low2half(h[half]);
                            }
                        } else {
#pragma unroll
                            for (int half = 0; half < 2; half++) {
                                f16 *dst = C + (size_t)(row + 8 * half) * ldc + col;
                                if (row + 8 * half >= M || col >= N)
                                    continue;
                                if (col + 1 < N)
                                    *(__half2 *)dst = h[half];
                                else
                                    *(__half *)dst = __low2half(h[half]);
                            }
                        }
                    }
                }
                break; /* a split-K cluster has one piece (sk_work_of) */
            }

            /* Stream-K fixup. A piece that does not start at k-tile 0 belongs to
             * a pair another cluster owns: hand the sums over and go on (a
             * cluster hands on at most one partial: its first piece's). */
            if (!WHOLE && w.kb > 0) {
                if (live)
                    write_partials<BN>((float4 *)partials + (size_t)me * (PARTIAL_FLOATS / 4), acc, t, c,
                                       &flags[me * FLAG_STRIDE], gen);
                continue;
            }
            /* The owner of a split pair: add the others' partials, in cluster
             * order (fixed by the plan: the same bits every run): clusters
             * p + 1 .. last (found first, so that no 64-bit bound stays live
             * beside the accumulators and the partials in flight). */
            if (!WHOLE && w.ke < plan.k_tiles && live) {
                /* plan.pairs through redux_sync_max_u32: ptxas otherwise
                 * worked a constant of the search's bound out once, before
                 * the loop over pieces, and spilled it (4 bytes, 128 x 288). */
                sk_plan sp = plan;
                sp.pairs = (int)redux_sync_max_u32((uint32_t)plan.pairs);
                int last = p;
                for (int q; (q = sk_next_contributor(&sp, w.pair, last)) >= 0;)
                    last = q;
                for (int q = p + 1; q <= last; q++) {
                    const int them = (q * CLUSTER + (int)rank) * ROW_WGS + h;
                    const float4 *part = (const float4 *)partials + (size_t)them * (PARTIAL_FLOATS / 4);
                    if (t == 0)
                        while (ld_acquire_gpu_u32(&flags[them * FLAG_STRIDE]) != gen)
                            ;
                    bar_sync(2 + c, 128); /* thread 0 has seen the flag: all may read */
#pragma unroll
                    for (int i = 0; i < BN / 8; i++) {
                        const float4 v = __ldcg(&part[i * 128 + t]);
                        acc[4 * i] += v.x;
                        acc[4 * i + 1] += v.y;
                        acc[4 * i + 2] += v.z;
                        acc[4 * i + 3] += v.w;
                    }
                }
            }

            /* Epilogue: slice by slice, the fragment packed to fp16 pairs and
             * stored, or, where the kernel defers and a piece follows, kept in
             * pend for that piece to store under its first MMAs. (The last
             * tile stores at once, slice after slice: packed whole first, its
             * stores started later, and one-wave calls ran 1-2% slower.) pend
             * is written either way: written only when deferring, the last
             * tile's values stayed live beside it and spilled. */
            const bool now = !DEFER || next.pair < 0;
#pragma unroll
            for (int sl = 0; sl < SLICES; sl++) {
                uint32_t v[16]; /* [8-column group][row half] */
#pragma unroll
                for (int j = 0; j < 8 && sl * 8 + j < BN / 8; j++)
#pragma unroll
                    for (int half = 0; half < 2; half++)
                        v[j * 2 + half] = half2_bits(acc[(sl * 8 + j) * 4 + half * 2], acc[(sl * 8 + j) * 4 + half * 2 + 1]);
                if constexpr (DEFER)
#pragma unroll
                    for (int j = 0; j < 16 && sl * 16 + j < BN / 4; j++)
                        pend[sl * 16 + j] = v[j];
                if (now)
                    store_slice<BN, T>(v, sl, m0 + h * 64, n0, M, N, c_bufs, stored, c, &tmap_c, &tmap_c16);
            }
            ds = now ? SLICES : 0, pm0 = m0, pn0 = n0;
        }
        if (lane == 0) /* every store's issuer (tiles of C: each warp's first lane; of C^T: the first) */
            cp_async_bulk_wait_group_read<0>(); /* shared memory must outlive the stores' reads */
    }
    /* No CTA leaves while its peer may still write to its shared memory. The
     * peer's multicasts landed before their stage's full barrier completed,
     * and every stage was waited for; its consumers' arrivals on the empty
     * barriers, by the producer's tail. So no cluster barrier is needed at
     * the end (it cost 0.3-0.7 us of a small call: plots/NOTES.md), except
     * where the scheduler claims pairs: CTA 1's relay arrives at CTA 0 after
     * the last post, and compute-sanitizer orders CTA 0's posts into CTA 1's
     * slot (st.shared::cluster) before CTA 1's exit only by a cluster
     * barrier. There the warps that arrive on the peer's barriers (the first
     * warp of each consumer warpgroup, consumer_release_cluster; warp 1:
     * scheduler, relay) release; the others arrive relaxed. */
    if (exit_barrier) {
        if ((wg > 0 && tid % 128 < 32) || tid / 32 == 1) /* 0.1-0.3 us sooner than all releasing (plots/NOTES.md) */
            barrier_cluster_arrive_release();
        else
            barrier_cluster_arrive_relaxed_aligned();
        barrier_cluster_wait_acquire();
    }
}

/* The launch configuration of a kernel: clusters of CL CTAs, its threads
 * and shared memory, `clusters` clusters. */
template <int BM, int BN, int CL>
static void launch_config(cudaLaunchConfig_t *cfg, cudaLaunchAttribute *attr, int clusters,
                          cudaStream_t stream)
{
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = CLUSTER;
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    attr[1].id = cudaLaunchAttributeProgrammaticStreamSerialization; /* PDL: griddepcontrol_wait */
    attr[1].val.programmaticStreamSerializationAllowed = 1;
    *cfg = cudaLaunchConfig_t{};
    cfg->gridDim = dim3(CLUSTER * clusters);
    cfg->blockDim = dim3(THREADS);
    cfg->dynamicSmemBytes = SMEM_BYTES;
    cfg->stream = stream;
    cfg->attrs = attr;
    cfg->numAttrs = 2;
}

/* What a launch needs to know of the device, asked once per device (the
 * queries cost more host time than a small problem takes on the GPU): the
 * L2 size and how many clusters of each kernel fit at once. */
#define MAX_DEVICES 64
typedef struct {
    int ready; /* written last (release), read first (acquire) */
    int l2;
    sk_gpu gpu; /* what the plan's cost model needs: clusters per tile shape, DRAM, L2 */
} device_facts;
static device_facts facts[MAX_DEVICES];

template <int BM, int BN, int T, int WHOLE, int CL>
static cudaError_t max_clusters_of(int *clusters)
{
    CUDA_TRY(cudaFuncSetAttribute(matmul_kernel<BM, BN, T, WHOLE, CL>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  SMEM_BYTES));
    cudaLaunchConfig_t cfg;
    cudaLaunchAttribute attr[2];
    launch_config<BM, BN, CL>(&cfg, attr, 1024, 0); /* what the occupancy query is asked about */
    cfg.numAttrs = 1; /* the cluster shape; PDL is not the query's business */
    CUDA_TRY(cudaOccupancyMaxActiveClusters(clusters, matmul_kernel<BM, BN, T, WHOLE, CL>, &cfg));
    if (*clusters < 1) {
        fprintf(stderr, "error: this GPU cannot hold one %d-CTA cluster of this kernel\n", CLUSTER);
        return cudaErrorInvalidConfiguration;
    }
    return cudaSuccess;
}

/* Clusters of a tile shape's kernels, both roles of the operands, whole
 * pairs only or not: the fewest. */
template <int BM, int BN, int CL>
static cudaError_t max_clusters_both(int *clusters)
{
    int n[4];
    CUDA_TRY((max_clusters_of<BM, BN, 0, 0, CL>(&n[0])));
    CUDA_TRY((max_clusters_of<BM, BN, 1, 0, CL>(&n[1])));
    CUDA_TRY((max_clusters_of<BM, BN, 0, 1, CL>(&n[2])));
    CUDA_TRY((max_clusters_of<BM, BN, 1, 1, CL>(&n[3])));
    *clusters = n[0];
    for (int i = 1; i < 4; i++)
        if (n[i] < *clusters)
            *clusters = n[i];
    return cudaSuccess;
}

template <int BM, int BN, int T, int WHOLE, int CL>
static cudaError_t launch_plan(const CUtensorMap *tmap_a, const CUtensorMap *tmap_b,
                               const CUtensorMap *tmap_c, const CUtensorMap *tmap_c16, f16 *C, int M, int N, int ldc,
                               const tile_map *pairs, const sk_plan *plan, int *counters, uint32_t *flags,
                               float *partials, uint32_t gen, cudaStream_t stream)
{
    /* All clusters at once: an owner waits for its contributors, so they
     * must all be resident together (plan.clusters <= what the GPU holds). */
    cudaLaunchConfig_t cfg;
    cudaLaunchAttribute attr[2];
    launch_config<BM, BN, CL>(&cfg, attr, plan->clusters, stream);
    return cudaLaunchKernelEx(&cfg, matmul_kernel<BM, BN, T, WHOLE, CL>, *tmap_a, *tmap_b, *tmap_c, *tmap_c16, C, M, N,
                              ldc, *pairs, *plan, counters, flags, partials, gen);
}

/* The kernels, one per tile shape, in sk_tile's order (get_facts checks it):
 * how many clusters of each the GPU holds, and the launch of a plan, tiles
 * of C and of C^T, whole pairs only or any plan. */
typedef cudaError_t (*launch_fn)(const CUtensorMap *, const CUtensorMap *, const CUtensorMap *,
                                 const CUtensorMap *, f16 *, int, int, int, const tile_map *,
                                 const sk_plan *, int *, uint32_t *, float *, uint32_t, cudaStream_t);
#define KERNEL(bm, bn, cl)                                                                                  \
    {bm, bn, cl, max_clusters_both<bm, bn, cl>,                                                              \
     {{launch_plan<bm, bn, 0, 0, cl>, launch_plan<bm, bn, 0, 1, cl>},                                         \
      {launch_plan<bm, bn, 1, 0, cl>, launch_plan<bm, bn, 1, 1, cl>}}}
static const struct {
    int bm, bn, cl;
    cudaError_t (*max_clusters)(int *);
    launch_fn launch[2][2]; /* [plan.swap][whole pairs only] */
} kernels[SK_KINDS] = {
    KERNEL(128, 256, 2), KERNEL(128, 128, 2), KERNEL(64, 128, 2),  KERNEL(128, 64, 2),  KERNEL(64, 64, 2),
    KERNEL(64, 256, 2),  KERNEL(128, 192, 2), KERNEL(128, 80, 2),  KERNEL(128, 96, 2),  KERNEL(128, 112, 2),
    KERNEL(128, 144, 2), KERNEL(128, 160, 2), KERNEL(128, 176, 2), KERNEL(128, 208, 2), KERNEL(128, 224, 2),
    KERNEL(128, 240, 2), KERNEL(64, 80, 2),   KERNEL(64, 96, 2),   KERNEL(64, 112, 2),  KERNEL(128, 256, 4),
    KERNEL(128, 128, 4), KERNEL(128, 192, 4), KERNEL(128, 224, 4), KERNEL(128, 160, 4), KERNEL(128, 96, 4),
    KERNEL(128, 64, 4),  KERNEL(64, 64, 4),
    KERNEL(128, 80, 8),  KERNEL(128, 96, 8),  KERNEL(128, 112, 8), KERNEL(128, 128, 8), KERNEL(128, 144, 8),
    KERNEL(128, 160, 8), KERNEL(128, 176, 8), KERNEL(128, 192, 8), KERNEL(128, 208, 8), KERNEL(128, 224, 8),
    KERNEL(128, 240, 8), KERNEL(128, 256, 8),
    KERNEL(64, 64, 8),   KERNEL(64, 80, 8),   KERNEL(64, 96, 8),
    KERNEL(128, 288, 2),
};
#undef KERNEL

static cudaError_t get_facts(const device_facts **out)
{
    int dev;
    CUDA_TRY(cudaGetDevice(&dev));
    if (dev >= MAX_DEVICES) {
        fprintf(stderr, "error: device %d: this step knows of at most %d devices\n", dev, MAX_DEVICES);
        return cudaErrorInvalidDevice;
    }
    device_facts *f = &facts[dev];
    if (!__atomic_load_n(&f->ready, __ATOMIC_ACQUIRE)) {
        /* Two threads may both get here: they write the same values. */
        int khz, bits;
        CUDA_TRY(cudaDeviceGetAttribute(&f->l2, cudaDevAttrL2CacheSize, dev));
        CUDA_TRY(cudaDeviceGetAttribute(&khz, cudaDevAttrMemoryClockRate, dev));
        CUDA_TRY(cudaDeviceGetAttribute(&bits, cudaDevAttrGlobalMemoryBusWidth, dev));
        f->gpu.l2_bytes = f->l2;
        f->gpu.dram_bytes_per_ns = 2.0 * khz * 1e3 * (bits / 8) * 1e-9; /* double data rate */
        for (int k = 0; k < SK_KINDS; k++) {
            if (kernels[k].bm != sk_tile[k][0] || kernels[k].bn != sk_tile[k][1] || kernels[k].cl != sk_tile[k][2]) {
                fprintf(stderr, "error: kernel %d is %d x %d in clusters of %d, sk_tile says %d x %d in %d\n", k,
                        kernels[k].bm, kernels[k].bn, kernels[k].cl, sk_tile[k][0], sk_tile[k][1], sk_tile[k][2]);
                return cudaErrorInvalidConfiguration;
            }
            CUDA_TRY(kernels[k].max_clusters(&f->gpu.max_clusters[k]));
        }
        __atomic_store_n(&f->ready, 1, __ATOMIC_RELEASE);
    }
    *out = f;
    return cudaSuccess;
}

/* V7_TILE=RxC[:MODE[:A][:T]] (one of sk_tile's shapes, e.g. 64x128, optionally
 * with the decomposition, e.g. 128x128:split4, pairs sharing A, 128x256:dp:A,
 * and tiles of C^T, 128x144:dp:T; sk_cand_parse) forces the
 * plan, to measure what the plan's choice is worth; unset: the plan picks.
 * An unknown shape, or a candidate that does not apply to the problem, is an
 * error. */
static cudaError_t forced_cand(sk_cand *c)
{
    const char *v = getenv("V7_TILE");
    c->kind = c->mode = -1;
    c->ways = c->share_a = c->swap = 0;
    if (!v || !*v)
        return cudaSuccess;
    if (sk_cand_parse(v, c) == 0)
        return cudaSuccess;
    fprintf(stderr, "error: V7_TILE=%s is none of", v);
    for (int k = 0; k < SK_KINDS; k++)
        fprintf(stderr, " %dx%d%s", sk_tile[k][0], sk_tile[k][1], k + 1 < SK_KINDS ? "," : "");
    fprintf(stderr, ", optionally with :dp, :sk, :skw or :splitW, then :A for pairs sharing A, :T for tiles of C^T\n");
    return cudaErrorInvalidValue;
}

static cudaError_t launch(const f16 *A, const f16 *B, f16 *C, int M, int N, int K, int ldc,
                          cudaStream_t stream)
{
    const device_facts *f;
    CUDA_TRY(get_facts(&f));
    sk_cand forced;
    CUDA_TRY(forced_cand(&forced));
    /* The plan: the candidate of least modelled time, unless V7_TILE forces
     * one. Weighing every candidate takes up to 7 us of host time (split-K
     * in every number of ways, for each tile shape), more than a small
     * problem runs on the GPU: the last plan is kept per thread and reused
     * for the same problem on the same device. */
    static thread_local struct {
        const device_facts *f;
        int M, N, K;
        sk_cand forced;
        sk_plan plan;
        int streams; /* sk_streams_dram: the operands' L2 promotion */
    } last;
    if (!(last.f == f && last.M == M && last.N == N && last.K == K && !memcmp(&last.forced, &forced, sizeof forced))) {
        if (sk_plan_pick(M, N, K, &f->gpu, &sk_model_sm90, forced, &last.plan) != 0) {
            last.f = NULL;
            fprintf(stderr, "error: V7_TILE=%s does not apply to %d x %d x %d\n", getenv("V7_TILE"), M, N, K);
            return cudaErrorInvalidValue;
        }
        last.f = f, last.M = M, last.N = N, last.K = K, last.forced = forced;
        last.streams = sk_streams_dram(&last.plan, M, N, K, &f->gpu, &sk_model_sm90);
    }
    const sk_plan plan = last.plan;
    const int streams = last.streams;
    if ((int64_t)plan.m_blocks * plan.n_blocks > INT32_MAX) {
        fprintf(stderr, "error: %d x %d tiles exceed a 1D grid\n", plan.m_blocks, plan.n_blocks);
        return cudaErrorInvalidValue;
    }
    const int bm = plan.bm, bn = plan.bn;
    static int told; /* V7_PLAN=1: the plan of the process's first call, on stderr */
    if (getenv("V7_PLAN") && !__atomic_exchange_n(&told, 1, __ATOMIC_RELAXED)) {
        char line[256];
        sk_plan_describe(&plan, M, N, K, line, sizeof line);
        fprintf(stderr, "v7 plan: %s\n", line);
    }

    /* A and B are read in [bm or bn rows x 64 K] boxes (the shared one in
     * half-height boxes, a short A in one box of its rows: sk_box_rows_a), C is
     * written in [16 x 64] boxes (C^T in [64 x 64]); all in the 128-byte swizzle
     * the kernel's smem layout assumes. Swapped, the kernel's A is B and its B is A, and it
     * computes C^T: M' x N' = N x M. */
    const f16 *ka = plan.swap ? B : A, *kb = plan.swap ? A : B;
    const int Mk = plan.swap ? N : M, Nk = plan.swap ? M : N;
    CUtensorMap tmap_a, tmap_b, tmap_c, tmap_c16;
    tmap_desc da = tmap_desc_make(ka, Mk, K, K, sk_box_rows_a(&plan), BOX_K, CU_TENSOR_MAP_SWIZZLE_128B);
    tmap_desc db = tmap_desc_make(kb, Nk, K, K, sk_box_rows_b(&plan), BOX_K, CU_TENSOR_MAP_SWIZZLE_128B);
    da.promotion = tmap_promotion_streamed(da.stride_row, streams); /* sk_streams_dram */
    db.promotion = tmap_promotion_streamed(db.stride_row, streams);
    /* C: each warp stores its own 16 rows of a slice ([16 x 64] boxes), so no
     * barrier across the warpgroup waits for the slowest warp; C^T's slices go
     * out whole ([64 x 64]: a warp's fragment rows are columns of C there). */
    tmap_desc dc = tmap_desc_make(C, M, N, ldc, plan.swap ? 64 : 16, 64, CU_TENSOR_MAP_SWIZZLE_128B);
    CUDA_TRY(tmap_encode(&tmap_a, &da));
    CUDA_TRY(tmap_encode(&tmap_b, &db));
    CUDA_TRY(tmap_encode(&tmap_c, &dc));
    if (bn % 64) { /* the last bn % 64 columns of a tile, in one [16 x bn % 64] box (a
                    * warp's rows); swapped, its last rows of C, in [16 x 64] boxes in the swizzle */
        tmap_desc dc16 = plan.swap ? tmap_desc_make(C, M, N, ldc, 16, 64, CU_TENSOR_MAP_SWIZZLE_128B)
                                   : tmap_desc_make(C, M, N, ldc, 16, bn % 64, CU_TENSOR_MAP_SWIZZLE_NONE);
        CUDA_TRY(tmap_encode(&tmap_c16, &dc16));
    } else
        tmap_c16 = tmap_c; /* not read */

    /* Pairs of tiles: 2 M-blocks x 1 N-block when B is shared, else 1 x 2, in
     * v4's tile order (sk_pair_order). */
#ifdef SWIZZLE
    const int width = SWIZZLE;
#else
    const int width = 0; /* from K and the L2 size */
#endif
    const tile_map pairs = sk_pair_order(&plan, K, f->l2, width);

    const launch_fn launch_kind = kernels[plan.kind].launch[plan.swap][!plan.sk_pairs && !plan.ways];
    cudaError_t err;
    if (!plan.sk_pairs && !sk_claims(&plan)) { /* whole pairs, dealt out: no workspace */
        err = launch_kind(&tmap_a, &tmap_b, &tmap_c, &tmap_c16, C, Mk, Nk, ldc, &pairs, &plan, NULL, NULL, NULL, 0,
                          stream);
        if (err != cudaSuccess)
            fprintf(stderr, "error: matmul_kernel launch: %s\n", cudaGetErrorString(err));
        return err;
    }

    /* The workspace: the scheduler's two counters (as v6's), a flag per
     * consumer of each CTA, then the partials' slots (not cleared: each is
     * read only after its flag). */
    const size_t slots = plan.sk_pairs ? (size_t)plan.clusters * plan.cl * (bm / 64) : 0;
    const size_t bytes = COUNTER_BYTES + FLAG_BYTES + slots * 64 * bn * sizeof(float);
    if (slots > FLAG_BYTES / (FLAG_STRIDE * sizeof(uint32_t))) {
        fprintf(stderr, "error: %zu stream-K flags, the workspace has %zu\n", slots,
                FLAG_BYTES / (FLAG_STRIDE * sizeof(uint32_t)));
        return cudaErrorInvalidValue;
    }
    /* Kept per device and reused, its flags never cleared (generation
     * numbers); its own allocation under CUDA-graph capture (workspace.h). */
    workspace_use u;
    CUDA_TRY(workspace_begin(bytes, COUNTER_BYTES + FLAG_BYTES, stream, &u));
    err = launch_kind(&tmap_a, &tmap_b, &tmap_c, &tmap_c16, C, Mk, Nk, ldc, &pairs, &plan, (int *)u.ws,
                      (uint32_t *)(u.ws + COUNTER_BYTES), (float *)(u.ws + COUNTER_BYTES + FLAG_BYTES), u.gen,
                      stream);
    if (err != cudaSuccess)
        fprintf(stderr, "error: matmul_kernel launch: %s\n", cudaGetErrorString(err));
    const cudaError_t done = workspace_end(&u, stream, err);
    return err != cudaSuccess ? err : done;
}

/* Share of this step's time lost to a row pitch of A and B that is 16 but
 * not 32 bytes aligned (K % 16 == 8); matmul_staged() copies them to a
 * 128-byte pitch where that is cheaper (matmul.h). Measured: v7 at 4096 x
 * 4096 x 4104 ran 0.984 of cuBLAS, at 4096 x 4096 x 4160 0.985; at 3072 x 5120
 * x 7160 0.907, at 7168 0.912 (H100, 2026-11-22, L2 promotion 128B): nothing
 * to win, so never copied. (With 256B promotion it lost 12-14%.) */
#ifndef PITCH_LOSS /* -DPITCH_LOSS=0 builds the step without the copy, to measure the loss */
#define PITCH_LOSS 0.0
#endif

extern "C" cudaError_t matmul_sm90(const f16 *A, const f16 *B, f16 *C, int M, int N, int K,
                                   cudaStream_t stream)
{
    return matmul_staged(A, B, C, M, N, K, stream, launch, PITCH_LOSS);
}
