/* tcgen05 (sm_100a): Blackwell's tensor cores and their tensor memory (TMEM).
 * One PTX instruction per wrapper, named after it. Sections are those of the
 * PTX ISA's tcgen05 chapter (9.7.16, "TensorCore 5th Generation Family
 * Instructions", numbered as in PTX ISA 9.0; later editions renumber
 * the chapter); the operand forms were checked against CUTLASS
 * (include/cute/arch/mma_sm100_umma.hpp, copy_sm100.hpp,
 * tmem_allocator_sm100.hpp, include/cutlass/arch/barrier.h umma_arrive),
 * DeepGEMM (deep_gemm/include/deep_gemm/ptx/tcgen05.cuh) and gau-nernst
 * learn-cuda 02e_matmul_sm100, and each assembles with ptxas 13.0 for sm_100a.
 *
 * TMEM: per CTA 128 lanes x 512 columns of 32-bit cells, addressed as
 * (lane << 16) | column (common/tcgen05_desc.h). An fp32 accumulator of an
 * M = 128 MMA holds row r of the tile in lane r, column n in base + n.
 *
 * Ordering: tcgen05.mma runs asynchronously; tcgen05.commit makes an
 * mbarrier track the completion of the MMAs this thread issued before it.
 * Across a thread synchronization (bar.sync, an mbarrier wait) the PTX ISA
 * asks for tcgen05.fence::before_thread_sync on the signalling side and
 * tcgen05.fence::after_thread_sync on the waiting side (memory consistency
 * model of the chapter, 9.7.16.6). */
#ifndef COMMON_TCGEN05_CUH
#define COMMON_TCGEN05_CUH

#include <stdint.h>
#include "smem.cuh"

/* tcgen05.alloc (9.7.16.7.1, "Tensor Memory Allocation and Management"): the
 * whole warp, converged; allocates ncols columns (power of 2, 32..512) of all
 * 128 lanes and writes their base address to *dst in shared memory. Blocks
 * until that many columns are free on the SM. Form as in CUTLASS
 * TMEM::Allocator1Sm (tmem_allocator_sm100.hpp). */
__device__ __forceinline__ void tcgen05_alloc_cta1(uint32_t *dst, uint32_t ncols)
{
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;\n"
                 :: "r"(smem_u32(dst)), "r"(ncols) : "memory");
}

/* tcgen05.relinquish_alloc_permit (9.7.16.7.1): this CTA will not allocate
 * again, so the SM may schedule the next CTA's allocation. Whole warp.
 * Form as in CUTLASS Allocator1Sm::release_allocation_lock. */
__device__ __forceinline__ void tcgen05_relinquish_alloc_permit_cta1()
{
    asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;\n" ::: "memory");
}

/* tcgen05.dealloc (9.7.16.7.1): frees what tcgen05_alloc_cta1 returned; the
 * same warp, the same ncols (ptxas does not check that). Every allocation
 * must be freed before the kernel exits. Form as in CUTLASS Allocator1Sm::free. */
__device__ __forceinline__ void tcgen05_dealloc_cta1(uint32_t taddr, uint32_t ncols)
{
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;\n"
                 :: "r"(taddr), "r"(ncols) : "memory");
}

/* tcgen05.mma (9.7.16.10.9.1), cta_group::1, kind::f16: D[M x N] (+)= A[M x 16]
 * * B[N x 16]^T with A and B in shared memory (descriptors, tcgen05_desc.h)
 * and D, fp32, in tensor memory at d_tmem. Issued by ONE thread for the whole
 * CTA. accumulate = 0 overwrites D (enable-input-d false): the first MMA of a
 * tile needs it, as TMEM is not zeroed. Form as in DeepGEMM's SM100 MMA
 * wrapper and learn-cuda's (CUTLASS's SM100_MMA_F16BF16_SS adds the
 * optional disable-output-lane mask, which we leave out). */
__device__ __forceinline__ void tcgen05_mma_cta1_f16(uint32_t d_tmem, uint64_t a_desc,
                                                     uint64_t b_desc, uint32_t idesc,
                                                     uint32_t accumulate)
{
    asm volatile("{\n"
                 ".reg .pred p;\n"
                 "setp.ne.b32 p, %4, 0;\n"
                 "tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p;\n"
                 "}\n"
                 :: "r"(d_tmem), "l"(a_desc), "l"(b_desc), "r"(idesc), "r"(accumulate)
                 : "memory");
}

/* tcgen05.commit (9.7.16.12.1): one arrival on the mbarrier once every
 * asynchronous tcgen05 operation this thread issued before it has completed
 * (the MMAs have read their shared memory and written TMEM). Issued by the
 * thread that issued the MMAs, only by it (32 lanes would be 32 arrivals).
 * It implies tcgen05.fence::before_thread_sync. The CTA's own shared address
 * is a valid shared::cluster address. Form as in CUTLASS umma_arrive
 * (cutlass/arch/barrier.h). */
__device__ __forceinline__ void tcgen05_commit_cta1(uint64_t *bar)
{
    asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%0];\n"
                 :: "r"(smem_u32(bar)) : "memory");
}

/* tcgen05.ld (9.7.16.8.3), shape 32x32b, 32 repetitions: the whole warp;
 * thread t receives lane (taddr's lane + t), columns taddr's column + 0..31,
 * one 32-bit value each. A warp may only touch the 32 lanes of its quarter:
 * lanes 32 (warp % 4) .. 32 (warp % 4) + 31 (access restrictions, 9.7.16.8.1).
 * Asynchronous: r is valid only after tcgen05_wait_ld. Form as in CUTLASS
 * SM100_TMEM_LOAD_32dp32b32x (copy_sm100.hpp). */
__device__ __forceinline__ void tcgen05_ld_32x32b_x32(uint32_t taddr, uint32_t (&r)[32])
{
    asm volatile("tcgen05.ld.sync.aligned.32x32b.x32.b32 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
                 "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, "
                 "[%32];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]), "=r"(r[4]), "=r"(r[5]),
                   "=r"(r[6]), "=r"(r[7]), "=r"(r[8]), "=r"(r[9]), "=r"(r[10]), "=r"(r[11]),
                   "=r"(r[12]), "=r"(r[13]), "=r"(r[14]), "=r"(r[15]), "=r"(r[16]), "=r"(r[17]),
                   "=r"(r[18]), "=r"(r[19]), "=r"(r[20]), "=r"(r[21]), "=r"(r[22]), "=r"(r[23]),
                   "=r"(r[24]), "=r"(r[25]), "=r"(r[26]), "=r"(r[27]), "=r"(r[28]), "=r"(r[29]),
                   "=r"(r[30]), "=r"(r[31])
                 : "r"(taddr)
                 : "memory");
}

/* tcgen05.wait::ld (9.7.16.8.5): waits until this thread's tcgen05.ld have
 * completed, so their registers may be used and the TMEM reused. Form as in
 * CUTLASS fence_view_async_tmem_load. */
__device__ __forceinline__ void tcgen05_wait_ld()
{
    asm volatile("tcgen05.wait::ld.sync.aligned;\n" ::: "memory");
}

/* tcgen05.fence::before_thread_sync (9.7.16.11.1): orders this thread's
 * earlier tcgen05 operations before the thread synchronization that follows.
 * Form as in DeepGEMM's tcgen05_before_thread_sync. */
__device__ __forceinline__ void tcgen05_fence_before_thread_sync()
{
    asm volatile("tcgen05.fence::before_thread_sync;\n" ::: "memory");
}

/* tcgen05.fence::after_thread_sync (9.7.16.11.1): orders this thread's later
 * tcgen05 operations after the thread synchronization that precedes it.
 * Form as in DeepGEMM's tcgen05_after_thread_sync. */
__device__ __forceinline__ void tcgen05_fence_after_thread_sync()
{
    asm volatile("tcgen05.fence::after_thread_sync;\n" ::: "memory");
}

/* ---- cta_group::2: a CTA pair (ranks 2i, 2i + 1 of a cluster) works as one.
 * Within one kernel every cta_group-carrying tcgen05 instruction must use the
 * same group (ptxas refuses a mix), hence these separate wrappers. */

/* tcgen05.alloc, cta_group::2 (9.7.16.7.1): one warp in EACH CTA of the pair
 * calls it, with the same dst offset and ncols; each CTA receives the
 * address in its own shared memory. The peer must be running: a cluster
 * barrier before it. Form as in CUTLASS TMEM::Allocator2Sm. */
__device__ __forceinline__ void tcgen05_alloc_cta2(uint32_t *dst, uint32_t ncols)
{
    asm volatile("tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32 [%0], %1;\n"
                 :: "r"(smem_u32(dst)), "r"(ncols) : "memory");
}

__device__ __forceinline__ void tcgen05_relinquish_alloc_permit_cta2()
{
    asm volatile("tcgen05.relinquish_alloc_permit.cta_group::2.sync.aligned;\n" ::: "memory");
}

/* tcgen05.dealloc, cta_group::2: both CTAs, after a cluster barrier that
 * orders every access of the pair's TMEM before it. */
__device__ __forceinline__ void tcgen05_dealloc_cta2(uint32_t taddr, uint32_t ncols)
{
    asm volatile("tcgen05.dealloc.cta_group::2.sync.aligned.b32 %0, %1;\n"
                 :: "r"(taddr), "r"(ncols) : "memory");
}

/* tcgen05.mma, cta_group::2, kind::f16 (9.7.16.10.9.1): ONE thread of the
 * pair issues D[M x N] (+)= A * B^T with M = 256 (idesc): each CTA holds
 * half of A (its 128 rows) and half of B (N / 2 rows) at the SAME shared
 * offsets as the issuer's descriptors, and receives its 128 rows of D in its
 * own TMEM at d_tmem (lane r = row r of its half). Form as in CUTLASS
 * SM100_MMA_F16BF16_2x1SM_SS without the disable-output-lane mask. */
__device__ __forceinline__ void tcgen05_mma_cta2_f16(uint32_t d_tmem, uint64_t a_desc,
                                                     uint64_t b_desc, uint32_t idesc,
                                                     uint32_t accumulate)
{
    asm volatile("{\n"
                 ".reg .pred p;\n"
                 "setp.ne.b32 p, %4, 0;\n"
                 "tcgen05.mma.cta_group::2.kind::f16 [%0], %1, %2, %3, p;\n"
                 "}\n"
                 :: "r"(d_tmem), "l"(a_desc), "l"(b_desc), "r"(idesc), "r"(accumulate)
                 : "memory");
}

/* tcgen05.commit, cta_group::2, multicast (9.7.16.12.1): once this thread's
 * earlier tcgen05 operations have completed, one arrival on the mbarrier at
 * bar's offset in every CTA of the cluster whose bit is set in cta_mask
 * (bit i = %cluster_ctarank i). The mask is a 16-bit operand. Form as in
 * CUTLASS umma_arrive_multicast_2x1SM (cutlass/arch/barrier.h) and DeepGEMM's
 * SM100 multicast commit. */
__device__ __forceinline__ void tcgen05_commit_cta2_multicast(uint64_t *bar, uint16_t cta_mask)
{
    asm volatile("tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster"
                 ".multicast::cluster.b64 [%0], %1;\n"
                 :: "r"(smem_u32(bar)), "h"(cta_mask) : "memory");
}

#endif
