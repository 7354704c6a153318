/* TMA (the bulk tensor copy engine, sm_90): one thread describes a whole tile
 * copy by a tensor map and coordinates; the hardware does the addressing, the
 * swizzle, the zero fill of out-of-bounds loads and the clipping of stores.
 * One PTX instruction per wrapper. Coordinates are {column, row} in elements. */
#ifndef COMMON_TMA_CUH
#define COMMON_TMA_CUH

#include <stdint.h>
#include <cuda.h>
#include "smem.cuh"

/* Starts fetching a tensor map (a __grid_constant__ kernel parameter, by its
 * generic address) into the TMA unit's descriptor cache, so that the first
 * copy through it does not wait for that fetch. */
__device__ __forceinline__ void prefetch_tensormap(const CUtensorMap *map)
{
    asm volatile("prefetch.tensormap [%0];\n" :: "l"(map) : "memory");
}

/* Global -> shared; the bytes land as complete_tx on the mbarrier `bar`. dst
 * and bar by their shared-window addresses (smem_u32), which a loop can keep
 * in registers (v7's producer). */
__device__ __forceinline__ void cp_async_bulk_tensor_2d_global_to_shared(
    uint32_t dst, const CUtensorMap *map, int col, int row, uint32_t bar)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%2, %3}], [%4];\n"
                 :: "r"(dst), "l"(map), "r"(col), "r"(row), "r"(bar)
                 : "memory");
}

/* The same by pointers. */
__device__ __forceinline__ void cp_async_bulk_tensor_2d_global_to_shared(
    void *dst, const CUtensorMap *map, int col, int row, uint64_t *bar)
{
    cp_async_bulk_tensor_2d_global_to_shared(smem_u32(dst), map, col, row, smem_u32(bar));
}

/* Global -> shared without a tensor map: `bytes` contiguous bytes (16-byte
 * aligned, a multiple of 16) from src to dst, landing as complete_tx on the
 * mbarrier `bar` (both by shared-window address). */
__device__ __forceinline__ void cp_async_bulk_global_to_shared(uint32_t dst, const void *src, uint32_t bytes,
                                                               uint32_t bar)
{
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\n"
                 :: "r"(dst), "l"(src), "r"(bytes), "r"(bar)
                 : "memory");
}

/* Global -> shared of every CTA in cta_mask (bit r: cluster rank r), at the
 * same offset in each; each destination's mbarrier at bar's offset gets the
 * bytes as complete_tx. One L2 read feeds several SMs. */
__device__ __forceinline__ void cp_async_bulk_tensor_2d_global_to_shared_multicast(
    uint32_t dst, const CUtensorMap *map, int col, int row, uint32_t bar, uint16_t cta_mask)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                 ".multicast::cluster [%0], [%1, {%2, %3}], [%4], %5;\n"
                 :: "r"(dst), "l"(map), "r"(col), "r"(row), "r"(bar), "h"(cta_mask)
                 : "memory");
}

/* The same by pointers. */
__device__ __forceinline__ void cp_async_bulk_tensor_2d_global_to_shared_multicast(
    void *dst, const CUtensorMap *map, int col, int row, uint64_t *bar, uint16_t cta_mask)
{
    cp_async_bulk_tensor_2d_global_to_shared_multicast(smem_u32(dst), map, col, row, smem_u32(bar), cta_mask);
}

/* Global -> shared, cta_group::2 (sm_100a, Blackwell v6): the tile lands in
 * THIS CTA's shared memory at dst, and its bytes complete on the mbarrier at
 * bar_cluster, which may be the peer CTA's (the pair's leader), named by a
 * mapa address. Form as in CUTLASS SM100_TMA_2SM_LOAD (copy_sm100_tma.hpp,
 * which clears the peer bit instead of using mapa) and DeepGEMM. */
__device__ __forceinline__ void cp_async_bulk_tensor_2d_global_to_shared_cta2(
    void *dst, const CUtensorMap *map, int col, int row, uint32_t bar_cluster)
{
    asm volatile("cp.async.bulk.tensor.2d.cta_group::2.shared::cluster.global.tile"
                 ".mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\n"
                 :: "r"(smem_u32(dst)), "l"(map), "r"(col), "r"(row), "r"(bar_cluster)
                 : "memory");
}

/* Shared -> global; completion is tracked by bulk groups of the issuing thread. */
__device__ __forceinline__ void cp_async_bulk_tensor_2d_shared_to_global(
    const CUtensorMap *map, int col, int row, const void *src)
{
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group"
                 " [%0, {%1, %2}], [%3];\n"
                 :: "l"(map), "r"(col), "r"(row), "r"(smem_u32(src)) : "memory");
}

__device__ __forceinline__ void cp_async_bulk_commit_group()
{
    asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
}

/* Waits until at most N of this thread's committed bulk groups are still
 * READING shared memory (N = 0: all have read it), so their buffers may be
 * reused or the CTA may exit. N is an immediate in the instruction. */
template <int N>
__device__ __forceinline__ void cp_async_bulk_wait_group_read()
{
    asm volatile("cp.async.bulk.wait_group.read %0;\n" :: "n"(N) : "memory");
}

#endif
