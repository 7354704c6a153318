/* Thread block clusters (sm_90): CTAs launched together on neighbouring SMs
 * of one GPC, which can read, write and arrive on each other's shared memory
 * (distributed shared memory) and wait on a cluster-wide barrier.
 * One PTX instruction per wrapper. */
#ifndef COMMON_CLUSTER_CUH
#define COMMON_CLUSTER_CUH

#include <stdint.h>
#include "smem.cuh"

/* This CTA's rank in its cluster, 0 .. cluster size - 1. */
__device__ __forceinline__ uint32_t cluster_ctarank()
{
    uint32_t r;
    asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(r));
    return r;
}

/* Index of this CTA's cluster in the grid, and the number of clusters (x). */
__device__ __forceinline__ uint32_t cluster_id_x()
{
    uint32_t r;
    asm volatile("mov.u32 %0, %%clusterid.x;\n" : "=r"(r));
    return r;
}

__device__ __forceinline__ uint32_t nclusterid_x()
{
    uint32_t r;
    asm volatile("mov.u32 %0, %%nclusterid.x;\n" : "=r"(r));
    return r;
}

/* The address of `p` (a variable of this CTA's shared memory) in CTA `rank`
 * of the cluster, in the shared::cluster window. */
__device__ __forceinline__ uint32_t mapa_shared_cluster(const void *p, uint32_t rank)
{
    uint32_t r;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;\n" : "=r"(r) : "r"(smem_u32(p)), "r"(rank));
    return r;
}

/* A 32-bit store into any CTA's shared memory (shared::cluster address). */
__device__ __forceinline__ void st_shared_cluster_u32(uint32_t cluster_addr, uint32_t v)
{
    asm volatile("st.shared::cluster.u32 [%0], %1;\n" :: "r"(cluster_addr), "r"(v) : "memory");
}

/* An arrival on the cluster-wide barrier that releases nothing: enough at
 * the start of a kernel, where the only writes a peer must see are mbarrier
 * inits, already made visible to the cluster by
 * fence.mbarrier_init.release.cluster (pipeline_init); the wait below still
 * acquires. A full release here is a cluster-scope fence in every thread
 * (0.55 us of a 1024^3 kernel's start on an H100). .aligned: every thread of
 * the warp executes it together. */
__device__ __forceinline__ void barrier_cluster_arrive_relaxed_aligned()
{
    asm volatile("barrier.cluster.arrive.relaxed.aligned;\n" ::: "memory");
}

/* The cluster-wide barrier, split: every thread of every CTA arrives
 * (releasing its earlier writes), then waits for all the others (acquiring
 * theirs). Not .aligned: the threads of a warp may arrive apart. */
__device__ __forceinline__ void barrier_cluster_arrive_release()
{
    asm volatile("barrier.cluster.arrive.release;\n" ::: "memory");
}

__device__ __forceinline__ void barrier_cluster_wait_acquire()
{
    asm volatile("barrier.cluster.wait.acquire;\n" ::: "memory");
}

#endif
