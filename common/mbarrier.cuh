/* mbarrier: a 64-bit shared-memory barrier with an arrival count, a transaction
 * (byte) count and a phase bit that flips each time both reach zero.
 * One PTX instruction per wrapper (the wait is a loop around one). */
#ifndef COMMON_MBARRIER_CUH
#define COMMON_MBARRIER_CUH

#include <stdint.h>
#include "smem.cuh"

__device__ __forceinline__ void mbarrier_init(uint64_t *bar, uint32_t arrivals)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n"
                 :: "r"(smem_u32(bar)), "r"(arrivals) : "memory");
}

/* Makes initialised barriers visible to the async proxy (TMA) and the cluster. */
__device__ __forceinline__ void fence_mbarrier_init_release_cluster()
{
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
}

/* One arrival that also announces `bytes` of TMA data still to land in this
 * phase. The barrier by its shared-window address (smem_u32): a loop that
 * keeps the address in a register converts no generic pointer per call (in
 * cluster kernels that conversion reads the CTA's window base, S2UR
 * SR_CgaCtaId, tens of cycles). */
__device__ __forceinline__ void mbarrier_arrive_expect_tx(uint32_t bar, uint32_t bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n"
                 :: "r"(bar), "r"(bytes) : "memory");
}

/* The same by pointer. */
__device__ __forceinline__ void mbarrier_arrive_expect_tx(uint64_t *bar, uint32_t bytes)
{
    mbarrier_arrive_expect_tx(smem_u32(bar), bytes);
}

/* One arrival; the barrier by its shared-window address, as above. */
__device__ __forceinline__ void mbarrier_arrive(uint32_t bar)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" :: "r"(bar) : "memory");
}

/* The same by pointer. */
__device__ __forceinline__ void mbarrier_arrive(uint64_t *bar)
{
    mbarrier_arrive(smem_u32(bar));
}

/* True once the phase with the given parity (0 or 1) has completed; the
 * barrier by its shared-window address, as above. */
__device__ __forceinline__ bool mbarrier_try_wait_parity(uint32_t bar, uint32_t parity)
{
    uint32_t done;
    asm volatile("{\n"
                 ".reg .pred p;\n"
                 "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                 "selp.u32 %0, 1, 0, p;\n"
                 "}\n"
                 : "=r"(done) : "r"(bar), "r"(parity) : "memory");
    return done != 0;
}

__device__ __forceinline__ void mbarrier_wait_parity(uint32_t bar, uint32_t parity)
{
    while (!mbarrier_try_wait_parity(bar, parity)) {
    }
}

/* The same two by pointer. */
__device__ __forceinline__ bool mbarrier_try_wait_parity(uint64_t *bar, uint32_t parity)
{
    return mbarrier_try_wait_parity(smem_u32(bar), parity);
}

__device__ __forceinline__ void mbarrier_wait_parity(uint64_t *bar, uint32_t parity)
{
    mbarrier_wait_parity(smem_u32(bar), parity);
}

/* Cluster forms (v6). An arrival on a barrier of any CTA of the cluster,
 * addressed in the shared::cluster window (see mapa_shared_cluster), with
 * the default .release.cta semantics: cheap, and enough where the data the
 * barrier guards moves through the async proxy (TMA writes, wgmma reads),
 * whose completion the barrier itself tracks. */
__device__ __forceinline__ void mbarrier_arrive_shared_cluster(uint32_t cluster_addr)
{
    asm volatile("mbarrier.arrive.shared::cluster.b64 _, [%0];\n"
                 :: "r"(cluster_addr) : "memory");
}

/* As above, releasing this thread's earlier ordinary writes (to any CTA's
 * shared memory) to whoever acquires the phase at cluster scope. A
 * cluster-scope release is a fence that waits for those writes: use it where
 * it carries data written by threads (v6's tile slot), not per k-tile. */
__device__ __forceinline__ void mbarrier_arrive_release_cluster(uint32_t cluster_addr)
{
    asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];\n"
                 :: "r"(cluster_addr) : "memory");
}

/* As mbarrier_arrive_release_cluster, also announcing `bytes` of transaction
 * count on that barrier (Blackwell v6: the leader's scheduler tells both
 * CTAs' barriers to expect the 16-byte multicast CLC response). */
__device__ __forceinline__ void mbarrier_arrive_expect_tx_release_cluster(uint32_t cluster_addr,
                                                                          uint32_t bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.release.cluster.shared::cluster.b64 _, [%0], %1;\n"
                 :: "r"(cluster_addr), "r"(bytes) : "memory");
}

/* As mbarrier_try_wait_parity, acquiring at cluster scope: for phases
 * completed by arrivals from other CTAs of the cluster. */
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

__device__ __forceinline__ void mbarrier_wait_parity_acquire_cluster(uint64_t *bar, uint32_t parity)
{
    while (!mbarrier_try_wait_parity_acquire_cluster(bar, parity)) {
    }
}

#endif
