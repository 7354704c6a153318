/* Thread-block clusters (sm_90+) as the 2-CTA Blackwell kernel uses them: its
 * rank, another CTA's shared memory (DSMEM) addresses, remote mbarrier
 * arrivals, the cluster-wide barrier, cluster-scope waits, and the TMA load
 * whose completion goes to the pair's leader. One PTX instruction per
 * wrapper, named after it. Forms checked against the CUDA 13.0 headers (cccl
 * cuda/__ptx/instructions/generated/: mapa.h, mbarrier_arrive.h,
 * mbarrier_arrive_expect_tx.h, barrier_cluster.h, mbarrier_try_wait_parity.h,
 * cp_async_bulk_tensor.h) and CUTLASS (cute/arch/copy_sm100_tma.hpp,
 * cutlass/arch/barrier.h); each assembles with ptxas 13.0 for sm_100a. */
#ifndef COMMON_CLUSTER_CUH
#define COMMON_CLUSTER_CUH

#include <stdint.h>
#include <cuda.h>
#include "smem.cuh"

/* %cluster_ctarank (PTX ISA special registers): this CTA's rank. */
__device__ __forceinline__ uint32_t cluster_ctarank()
{
    uint32_t r;
    asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(r));
    return r;
}

/* mapa (PTX ISA "Data Movement and Conversion Instructions: mapa"): the
 * shared::cluster address of the variable at p's offset in the CTA of the
 * given rank (this CTA's own rank gives its own). */
__device__ __forceinline__ uint32_t mapa_shared_cluster(const void *p, uint32_t rank)
{
    uint32_t a;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;\n" : "=r"(a) : "r"(smem_u32(p)), "r"(rank));
    return a;
}

/* mbarrier.arrive on a barrier named by a shared::cluster address (mapa),
 * release at cluster scope: orders this thread's earlier accesses before
 * the arrival, as seen by the CTA that waits on it. */
__device__ __forceinline__ void mbarrier_arrive_release_cluster(uint32_t bar_cluster)
{
    asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];\n"
                 :: "r"(bar_cluster) : "memory");
}

/* The same with `bytes` of transaction count announced. */
__device__ __forceinline__ void mbarrier_arrive_expect_tx_release_cluster(uint32_t bar_cluster,
                                                                          uint32_t bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.release.cluster.shared::cluster.b64 _, [%0], %1;\n"
                 :: "r"(bar_cluster), "r"(bytes) : "memory");
}

/* mbarrier.try_wait.parity, acquire at cluster scope: for phases completed by
 * other CTAs' arrivals or by cluster-scope complete_tx (CLC responses). */
__device__ __forceinline__ bool mbarrier_try_wait_parity_acquire_cluster(uint64_t *bar,
                                                                        uint32_t parity)
{
    uint32_t done;
    asm volatile("{\n"
                 ".reg .pred p;\n"
                 "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], %2;\n"
                 "selp.u32 %0, 1, 0, p;\n"
                 "}\n"
                 : "=r"(done) : "r"(smem_u32(bar)), "r"(parity) : "memory");
    return done != 0;
}

__device__ __forceinline__ void mbarrier_wait_parity_acquire_cluster(uint64_t *bar,
                                                                    uint32_t parity)
{
    while (!mbarrier_try_wait_parity_acquire_cluster(bar, parity)) {
    }
}

/* barrier.cluster.arrive.release + barrier.cluster.wait.acquire: every
 * thread of every CTA of the cluster (the .aligned forms: whole warps). */
__device__ __forceinline__ void barrier_cluster_arrive_release()
{
    asm volatile("barrier.cluster.arrive.release.aligned;\n" ::: "memory");
}

__device__ __forceinline__ void barrier_cluster_wait_acquire()
{
    asm volatile("barrier.cluster.wait.acquire.aligned;\n" ::: "memory");
}

/* TMA load, cta_group::2 (PTX ISA cp.async.bulk.tensor, .cta_group): the tile lands
 * in THIS CTA's shared memory at dst, and its bytes complete on the mbarrier
 * at bar_cluster, which may be the peer CTA's (the pair's leader), named by a
 * mapa address. Coordinates are {column, row} in elements. */
__device__ __forceinline__ void cp_async_bulk_tensor_2d_global_to_shared_cta2(
    void *dst, const CUtensorMap *map, int col, int row, uint32_t bar_cluster)
{
    asm volatile("cp.async.bulk.tensor.2d.cta_group::2.shared::cluster.global.tile"
                 ".mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\n"
                 :: "r"(smem_u32(dst)), "l"(map), "r"(col), "r"(row), "r"(bar_cluster)
                 : "memory");
}

#endif
