/* v3_warp_spec: producer and consumer roles (sm_90a).
 *
 * Previous step: v2_pipeline (one warpgroup both issues the copies and runs
 * the MMAs, and drains the tensor cores with wait_group 0 every k-tile).
 *
 * The idea: give each job its own warps. Warpgroup 0 is the producer: one of
 * its threads keeps the ring of stages full with TMA. Warpgroups 1 and 2 are
 * consumers: each runs wgmma on its 64 rows of the tile. Each stage now has
 * two barriers: full[s] (the copy has landed; consumers wait on it) and
 * empty[s] (every consumer is done reading it; the producer waits on it).
 * A consumer no longer drains the tensor cores: it commits k-tile kt's MMAs,
 * waits until only that group is still running (wgmma.wait_group 1), which
 * means k-tile kt - 1's MMAs are done, and only then releases kt - 1's stage.
 * So MMAs from two k-tiles overlap, the Hopper form of the Blackwell step's
 * "commit to the empty barrier without waiting".
 *
 * setmaxnreg: the kernel starts with 65536 / 384 = 168 registers a thread; the
 * producer needs few and gives most back (setmaxnreg.dec to 40), the consumers
 * take them (setmaxnreg.inc to 232): 128 x 40 + 256 x 232 = 64512 <= 65536.
 *
 * Tile: 128 x 256; each consumer issues m64n256k16, the widest wgmma, which
 * reads the most output per byte of shared memory (128 accumulators a
 * thread). A stage is 16 KB of A + 32 KB of B; 4 stages (192 KB).
 *
 * PTX first used here (wrappers in common/): setmaxnreg.inc / dec, bar.sync
 * with a thread count (named barriers), mbarrier.arrive.
 *
 * Costs and gains: one CTA per SM, its tensor cores kept busy by the two
 * consumers alone instead of by a second CTA; the 4 stages keep the copies
 * far enough ahead. The ladder's big step: about cuBLAS at 8192^3.
 *
 * Run: make v3 && ./v3 8192 8192 8192
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

#define BM 128                        /* rows of C per CTA                          */
#define BN 256                        /* columns of C per CTA                       */
#define BK 64                         /* K per tile: 64 fp16 = 128 B = one swizzle row */
#define CONSUMERS 2                   /* consumer warpgroups, 64 rows of the tile each */
#define THREADS (128 * (1 + CONSUMERS)) /* warpgroup 0 produces, the others consume  */
#define STAGES 4                      /* k-tiles resident in the ring                */

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
              const __grid_constant__ CUtensorMap tmap_c, int M, int N, int K)
{
    extern __shared__ uint8_t smem_raw[];
    uint8_t *smem = align1024(smem_raw);

    __shared__ uint64_t full[STAGES];  /* full[s] completes when stage s has landed        */
    __shared__ uint64_t empty[STAGES]; /* empty[s] completes when the consumers are done with it */

    const int tid = threadIdx.x;
    const int m0 = blockIdx.x * BM;
    const int n0 = blockIdx.y * BN;
    const int k_tiles = (K + BK - 1) / BK;

    if (tid == 0) {
        for (int s = 0; s < STAGES; s++) {
            mbarrier_init(&full[s], 1);              /* the thread that issues the copies */
            mbarrier_init(&empty[s], CONSUMERS * 4); /* one arrival per consumer warp     */
        }
        fence_mbarrier_init_release_cluster();
    }
    __syncthreads();

    const int wg = tid / 128;
    if (wg == 0) {
        /* Producer: one thread fills the ring; k-tile kt goes to stage kt % STAGES
         * once the consumers have released that stage's previous k-tile,
         * kt - STAGES (phase kt / STAGES - 1 of empty[s]). */
        setmaxnreg_dec<40>();
        if (tid == 0)
            for (int kt = 0; kt < k_tiles; kt++) {
                const int s = kt % STAGES;
                if (kt >= STAGES)
                    mbarrier_wait_parity(&empty[s], (kt / STAGES - 1) % 2);
                load_stage(smem + s * STAGE_BYTES, &full[s], &tmap_a, &tmap_b, kt, m0, n0);
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

    for (int kt = 0; kt < k_tiles; kt++) {
        const int s = kt % STAGES;
        uint8_t *tile_a = smem + s * STAGE_BYTES; /* [BM][BK] fp16, swizzled */
        uint8_t *tile_b = tile_a + TILE_A_BYTES;  /* [BN][BK] fp16, swizzled */
        mbarrier_wait_parity(&full[s], (kt / STAGES) % 2);

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
            mbarrier_arrive(&empty[(kt - 1) % STAGES]);
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
