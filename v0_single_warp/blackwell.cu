/* v0_single_warp, Blackwell track: the seed's own first step (sm_100a).
 *
 * Previous step: none; this is the first rung of the ladder. hopper.cu beside
 * it is the same step for sm_90a; one binary holds both (common/dispatch.c).
 *
 * The idea: asynchronous tensor-core MMA from shared memory into tensor
 * memory. The 4 warps copy one k-tile of A and B into shared memory
 * (cp.async, zero-filling past the edges); then ONE thread issues
 * tcgen05.mma, which reads both operands through shared-memory descriptors
 * and accumulates in tensor memory (TMEM), not in registers; it commits them
 * to an mbarrier (tcgen05.commit) and everyone waits on its phase before the
 * next copy. Warp 0 allocates the TMEM accumulator (tcgen05.alloc) and frees
 * it at the end. Epilogue: each warp reads its 32 TMEM lanes = 32 rows of the
 * tile into registers (tcgen05.ld + tcgen05.wait::ld) and stores them to
 * global memory. Nothing overlaps within a CTA.
 *
 * Tile: each CTA computes a 128 x 256 tile of C with one tcgen05.mma of
 * shape M128 N256 K16 per 16-wide slice of K, 4 per 64-wide k-tile.
 *
 * PTX first used here (wrappers in common/tcgen05.cuh): tcgen05.alloc /
 * relinquish_alloc_permit / dealloc, tcgen05.mma.cta_group::1.kind::f16,
 * tcgen05.commit, tcgen05.ld.32x32b, tcgen05.wait::ld, tcgen05.fence.
 * Descriptors: common/tcgen05_desc.h (bit fields tested in tests/host_tests.c).
 *
 * Fences: tcgen05.fence::before_thread_sync / ::after_thread_sync around every
 * thread synchronization (PTX ISA 9.7.16.6), also where the seed shows none.
 *
 * Costs and gains: compiled and checked, never run (this project has no
 * B200): ptxas accepts it for sm_100a with no spills, the tests check its
 * PTX and descriptor bits; every run verifies before it times, so a B200
 * user learns at once whether it is right. The tutorial reports about
 * 490 TFLOPS for this step on a B200 (sources checked: plots/NOTES.md).
 *
 * Run: make v0 && ./v0 8192 8192 8192   (a B200 runs this kernel, an H100/H200 hopper.cu)
 */
#include <cuda_fp16.h>
#include "../common/matmul.h"
#include "../common/check.h"
#include "../common/smem.cuh"
#include "../common/fence.cuh"
#include "../common/mbarrier.cuh"
#include "../common/tcgen05.cuh"
#include "../common/tcgen05_desc.h"
#include "../common/cp_async.cuh"

#define BM 128                        /* rows of C per CTA = MMA M = TMEM lanes     */
#define BN 256                        /* columns of C per CTA = MMA N               */
#define BK 64                         /* K per tile: 64 fp16 = 128 B = one swizzle row */
#define MMA_K 16                      /* K of one tcgen05.mma kind::f16             */
#define THREADS 128                   /* 4 warps: one per 32-lane quarter of TMEM    */
#define TMEM_COLS 256                 /* accumulator columns (power of 2, >= 32); an SM has 512,
                                         so a third resident CTA waits in tcgen05.alloc */

/* Shared memory: tile A [BM][BK] (16 KB) then tile B [BN][BK] (32 KB), both
 * K-major in the 128-byte swizzle (see umma_desc_k_sw128). */
#define TILE_A_BYTES (BM * BK * 2)
#define TILE_B_BYTES (BN * BK * 2)
#define SMEM_BYTES (TILE_A_BYTES + TILE_B_BYTES + 1024) /* + room to align to 1024 */

__global__ void __launch_bounds__(THREADS)
matmul_kernel_sm100(const __half *A, const __half *B, __half *C, int M, int N, int K, int ldc)
{
    extern __shared__ uint8_t smem_raw[];
    uint8_t *smem = align1024(smem_raw);

    __shared__ uint64_t mma_done;  /* phase completes when a k-tile's MMAs have finished */
    __shared__ uint32_t tmem_base; /* written by tcgen05.alloc                            */

    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    const int m0 = blockIdx.x * BM;
    const int n0 = blockIdx.y * BN;
    const int k_tiles = (K + BK - 1) / BK;

    if (warp == 0) {
        tcgen05_alloc_cta1(&tmem_base, TMEM_COLS);
        tcgen05_relinquish_alloc_permit_cta1(); /* one allocation per CTA */
    }
    if (tid == 0) {
        mbarrier_init(&mma_done, 1); /* one arrival: the commit of the MMA thread */
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
        fence_proxy_async_shared_cta(); /* cp.async wrote in the generic proxy; the MMA reads in the async one */
        __syncthreads();

        if (tid == 0) {
            tcgen05_fence_after_thread_sync();
#pragma unroll
            for (int k = 0; k < BK / MMA_K; k++) {
                /* 16 fp16 of K = 32 bytes along each swizzled row. */
                const uint64_t da = umma_desc_k_sw128(smem_u32(tile_a) + k * 32);
                const uint64_t db = umma_desc_k_sw128(smem_u32(tile_b) + k * 32);
                tcgen05_mma_cta1_f16(acc, da, db, idesc, kt > 0 || k > 0);
            }
            tcgen05_commit_cta1(&mma_done); /* implies fence::before_thread_sync */
        }
        /* k-tile kt's commit completes phase kt: the MMAs have read the tile
         * (it may be overwritten) and, after the last one, written acc. */
        mbarrier_wait_parity(&mma_done, kt % 2);
    }
    tcgen05_fence_after_thread_sync();

    /* Epilogue: TMEM -> registers -> global. Warp w reads lanes 32w .. 32w + 31
     * (its quarter), 32 columns at a time: thread `lane` gets row 32w + lane.
     * It writes them as four 16-byte pieces of 8 fp16. ldc may exceed N
     * (staged C); a piece whose first column is inside N is written whole,
     * the rest landing in the padding (N and ldc round up to the same 8). */
    const int row = m0 + warp * 32 + lane;
#pragma unroll 1
    for (int c = 0; c < BN; c += 32) {
        uint32_t v[32]; /* fp32 bits of row `row`, columns n0 + c .. n0 + c + 31 */
        tcgen05_ld_32x32b_x32(tmem_addr(acc, warp * 32, c), v);
        tcgen05_wait_ld();
#pragma unroll
        for (int j = 0; j < 32; j += 8) {
            const int col = n0 + c + j;
            if (row < M && col < N) {
                uint4 out;
                __half2 *h = (__half2 *)&out;
#pragma unroll
                for (int e = 0; e < 4; e++)
                    h[e] = __floats2half2_rn(__uint_as_float(v[j + 2 * e]),
                                             __uint_as_float(v[j + 2 * e + 1]));
                *(uint4 *)(C + (size_t)row * ldc + col) = out;
            }
        }
    }

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
    const dim3 grid((M + BM - 1) / BM, (N + BN - 1) / BN);
    CUDA_TRY(cudaFuncSetAttribute(matmul_kernel_sm100, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  SMEM_BYTES));
    matmul_kernel_sm100<<<grid, THREADS, SMEM_BYTES, stream>>>(
        (const __half *)A, (const __half *)B, (__half *)C, M, N, K, ldc);
    CUDA_TRY(cudaGetLastError());
    return cudaSuccess;
}

extern "C" cudaError_t matmul_sm100(const f16 *A, const f16 *B, f16 *C, int M, int N, int K,
                                    cudaStream_t stream)
{
    /* 0: never copied for the row pitch alone (matmul.h): never measured, never run here. */
    return matmul_staged(A, B, C, M, N, K, stream, launch, 0.0);
}
