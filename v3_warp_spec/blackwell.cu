/* v3_warp_spec, Blackwell track: a TMA warp, an MMA warp and epilogue warps
 * (sm_100a).
 *
 * Previous step: v2_pipeline/blackwell.cu (one thread issues both the copies
 * and the MMAs, and everyone waits for each k-tile's MMAs before the next).
 *
 * The idea: give each job its own warp. Warp 0 is the TMA producer: one of
 * its threads keeps the ring of stages full. Warp 1 is the MMA issuer: one of
 * its threads issues a k-tile's MMAs as soon as it has landed. Each stage now
 * has two barriers: full[s] (the copy has landed; the MMA warp waits on it)
 * and empty[s] (the MMAs that read it have finished; the TMA warp waits on
 * it). The MMA warp commits each k-tile's MMAs to that stage's empty barrier
 * and goes straight on to the next k-tile without waiting: the tensor cores
 * themselves release the stage when they are done with it, so MMAs of
 * consecutive k-tiles queue back to back. After the last k-tile it commits
 * to acc_full; then all 4 warps (one per quarter of TMEM's lanes) run the
 * epilogue.
 *
 * Tile: the same 128 x 256 tile, 4 stages and TMEM accumulator as v2.
 *
 * PTX first used here: none.
 *
 * Fences: tcgen05.fence::before_thread_sync / ::after_thread_sync around every
 * thread synchronization (PTX ISA 9.7.16.6), also where the seed shows none.
 *
 * Costs and gains: compiled and checked, never run (this project has no
 * B200): ptxas accepts it for sm_100a with no spills, the tests check its
 * PTX and descriptor bits; every run verifies before it times, so a B200
 * user learns at once whether it is right. The tutorial reports about
 * 1351 TFLOPS for this step on a B200.
 *
 * Run: make v3 && ./v3 8192 8192 8192   (a B200 runs this kernel, an H100/H200 hopper.cu)
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

#define BM 128                        /* rows of C per CTA = MMA M = TMEM lanes     */
#define BN 256                        /* columns of C per CTA = MMA N               */
#define BK 64                         /* K per tile: 64 fp16 = 128 B = one swizzle row */
#define MMA_K 16                      /* K of one tcgen05.mma kind::f16             */
#define THREADS 128                   /* 4 warps: TMA, MMA; all 4 for the epilogue (one per TMEM quarter) */
#define TMEM_COLS 256                 /* accumulator columns (power of 2, >= 32); an SM has 512,
                                         so a third resident CTA waits in tcgen05.alloc */
#define STAGES 4                      /* k-tiles resident in the ring                */

/* Shared memory: a ring of STAGES stages, each tile A [BM][BK] (16 KB) then
 * tile B [BN][BK] (32 KB), both K-major in the 128-byte swizzle (see
 * umma_desc_k_sw128). The epilogue reuses the first 64 KB for the C tile
 * [BM][BN] as four [BM][64] swizzled slices. */
#define TILE_A_BYTES (BM * BK * 2)
#define TILE_B_BYTES (BN * BK * 2)
#define STAGE_BYTES (TILE_A_BYTES + TILE_B_BYTES)
#define C_TILE_BYTES (BM * BN * 2)
#define SMEM_BYTES (STAGES * STAGE_BYTES + 1024) /* >= C_TILE_BYTES; + room to align to 1024 */

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
matmul_kernel_sm100(const __grid_constant__ CUtensorMap tmap_a, const __grid_constant__ CUtensorMap tmap_b,
                    const __grid_constant__ CUtensorMap tmap_c, int M, int N, int K)
{
    extern __shared__ uint8_t smem_raw[];
    uint8_t *smem = align1024(smem_raw);

    __shared__ uint64_t full[STAGES];  /* full[s] completes when stage s has landed         */
    __shared__ uint64_t empty[STAGES]; /* empty[s] completes when the MMAs reading it are done */
    __shared__ uint64_t acc_full;      /* completes when the tile's last MMA has finished    */
    __shared__ uint32_t tmem_base;     /* written by tcgen05.alloc                         */

    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    const int m0 = blockIdx.x * BM;
    const int n0 = blockIdx.y * BN;
    const int k_tiles = (K + BK - 1) / BK;

    if (warp == 0) {
        tcgen05_alloc_cta1(&tmem_base, TMEM_COLS);
        tcgen05_relinquish_alloc_permit_cta1(); /* one allocation per CTA */
    }
    if (tid == 0) {
        for (int s = 0; s < STAGES; s++) {
            mbarrier_init(&full[s], 1);  /* the thread that issues the copies   */
            mbarrier_init(&empty[s], 1); /* the commit of the MMA thread        */
        }
        mbarrier_init(&acc_full, 1);     /* the commit after the last k-tile    */
        fence_mbarrier_init_release_cluster();
    }
    /* The TMEM address reaches the other warps through shared memory and this
     * barrier: the fence pair orders the alloc before every later use. */
    tcgen05_fence_before_thread_sync();
    __syncthreads();
    tcgen05_fence_after_thread_sync();
    /* acc: TMEM [BM lanes][BN columns] fp32; row r of the tile is lane r,
     * column n is column tmem_base + n. */
    const uint32_t acc = tmem_base;
    const uint32_t idesc = umma_idesc_f16_f32(BM, BN);

    if (warp == 0) {
        /* TMA warp: one thread fills the ring; k-tile kt goes to stage
         * kt % STAGES once the MMAs of that stage's previous k-tile,
         * kt - STAGES, have finished (phase kt / STAGES - 1 of empty[s]). */
        if (lane == 0)
            for (int kt = 0; kt < k_tiles; kt++) {
                const int s = kt % STAGES;
                if (kt >= STAGES)
                    mbarrier_wait_parity(&empty[s], (kt / STAGES - 1) % 2);
                load_stage(smem + s * STAGE_BYTES, &full[s], &tmap_a, &tmap_b, kt, m0, n0);
            }
    } else if (warp == 1) {
        /* MMA warp: one thread issues each k-tile's MMAs once it has landed. */
        if (lane == 0) {
            for (int kt = 0; kt < k_tiles; kt++) {
                const int s = kt % STAGES;
                uint8_t *tile_a = smem + s * STAGE_BYTES; /* [BM][BK] fp16, swizzled */
                uint8_t *tile_b = tile_a + TILE_A_BYTES;  /* [BN][BK] fp16, swizzled */
                mbarrier_wait_parity(&full[s], (kt / STAGES) % 2);
                tcgen05_fence_after_thread_sync();
#pragma unroll
                for (int k = 0; k < BK / MMA_K; k++) {
                    /* 16 fp16 of K = 32 bytes along each swizzled row. */
                    const uint64_t da = umma_desc_k_sw128(smem_u32(tile_a) + k * 32);
                    const uint64_t db = umma_desc_k_sw128(smem_u32(tile_b) + k * 32);
                    tcgen05_mma_cta1_f16(acc, da, db, idesc, kt > 0 || k > 0);
                }
                /* No wait: empty[s] completes when these MMAs have read the stage. */
                tcgen05_commit_cta1(&empty[s]);
            }
            /* Tracks every MMA issued above: acc is complete when it fires. */
            tcgen05_commit_cta1(&acc_full);
        }
    }
    /* All 4 warps: the epilogue, once the accumulator is complete. */
    mbarrier_wait_parity(&acc_full, 0);
    __syncwarp(); /* lane 0 of warps 0 and 1 rejoins: tcgen05.ld is .sync.aligned */
    tcgen05_fence_after_thread_sync();

    /* Epilogue: TMEM -> registers -> shared memory -> TMA store. Warp w reads
     * lanes 32w .. 32w + 31 (its quarter), 32 columns at a time: thread `lane`
     * gets row r = 32w + lane of the tile. The C tile [BM][BN] is stored as
     * BN / 64 column slices [BM][64], 16 KB each, in the same 128-byte
     * swizzle as the inputs: 16-byte chunk j of row r goes to j ^ (r % 8), so
     * the 8 threads of a store phase (8 rows) hit 8 different bank groups.
     * The ring is free: every load was consumed and every MMA has completed. */
    const int r = warp * 32 + lane; /* row in tile */
#pragma unroll 1
    for (int c = 0; c < BN; c += 32) {
        uint32_t v[32]; /* fp32 bits of row r, columns c .. c + 31 of the tile */
        tcgen05_ld_32x32b_x32(tmem_addr(acc, warp * 32, c), v);
        tcgen05_wait_ld();
        const int slice = c / 64;                    /* 64-col slice          */
        uint8_t *dst_row = smem + slice * (BM * 128) + r * 128;
#pragma unroll
        for (int j = 0; j < 32; j += 8) {
            const int chunk = (c % 64 + j) / 8;      /* 16-byte chunk in row  */
            uint4 out;
            __half2 *h = (__half2 *)&out;
#pragma unroll
            for (int e = 0; e < 4; e++)
                h[e] = __floats2half2_rn(__uint_as_float(v[j + 2 * e]),
                                         __uint_as_float(v[j + 2 * e + 1]));
            *(uint4 *)(dst_row + ((chunk ^ (r % 8)) << 4)) = out;
        }
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
    __syncwarp(); /* warp 0 converged again for the .sync.aligned dealloc */

    /* Every warp's tcgen05.ld has completed before warp 0 frees the TMEM. */
    tcgen05_fence_before_thread_sync();
    __syncthreads();
    tcgen05_fence_after_thread_sync();
    if (warp == 0)
        tcgen05_dealloc_cta1(acc, TMEM_COLS);
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
    CUDA_TRY(cudaFuncSetAttribute(matmul_kernel_sm100, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  SMEM_BYTES));
    matmul_kernel_sm100<<<grid, THREADS, SMEM_BYTES, stream>>>(tmap_a, tmap_b, tmap_c, M, N, K);
    CUDA_TRY(cudaGetLastError());
    return cudaSuccess;
}

extern "C" cudaError_t matmul_sm100(const f16 *A, const f16 *B, f16 *C, int M, int N, int K,
                                    cudaStream_t stream)
{
    /* 0: never copied for the row pitch alone (matmul.h): never measured, never run here. */
    return matmul_staged(A, B, C, M, N, K, stream, launch, 0.0);
}
