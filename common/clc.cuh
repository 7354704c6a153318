/* Cluster launch control (sm_100): a running CTA cancels a cluster of the
 * grid that has not been launched yet and takes over its work, the hardware
 * form of a persistent kernel's tile queue. One PTX instruction per wrapper,
 * named after it; PTX ISA 9.0, sections 9.7.13.17 (clusterlaunchcontrol
 * .try_cancel) and 9.7.13.18 (.query_cancel). Forms checked against
 * the CUDA 13.0 headers (cccl cuda/__ptx/instructions/generated/
 * clusterlaunchcontrol.h), CUTLASS (media/docs/cpp/
 * blackwell_cluster_launch_control.md, PipelineCLCFetchAsync) and
 * ThunderKittens; each assembles with ptxas 13.0 for sm_100a.
 *
 * The response is a 16-byte opaque value at a 16-byte aligned shared
 * address, written through the async proxy; its arrival is a complete_tx of
 * 16 bytes on an mbarrier (at cluster scope), which must have been told to
 * expect them. A reader waits on that barrier with acquire semantics, loads
 * the response with ld.shared.b128 and decodes it with the query
 * instructions; before the slot is handed to the next try_cancel it executes
 * fence.proxy.async.shared::cta. After a response that says "not
 * cancelled", issuing another try_cancel is undefined: every role leaves its
 * loop at the first failure. */
#ifndef COMMON_CLC_CUH
#define COMMON_CLC_CUH

#include <stdint.h>
#include "smem.cuh"

/* Asks to cancel one pending cluster; the response lands in *response (this
 * CTA only) and completes 16 transaction bytes on *bar. One thread. */
__device__ __forceinline__ void clusterlaunchcontrol_try_cancel(uint32_t *response, uint64_t *bar)
{
    asm volatile("clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes"
                 ".b128 [%0], [%1];\n"
                 :: "r"(smem_u32(response)), "r"(smem_u32(bar)) : "memory");
}

/* The same, with the response written to the same offset in every CTA of the
 * cluster and 16 bytes completed on each CTA's barrier at bar's offset (each
 * of them must expect the 16 bytes). sm_100a only. */
__device__ __forceinline__ void clusterlaunchcontrol_try_cancel_multicast(uint32_t *response,
                                                                         uint64_t *bar)
{
    asm volatile("clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes"
                 ".multicast::cluster::all.b128 [%0], [%1];\n"
                 :: "r"(smem_u32(response)), "r"(smem_u32(bar)) : "memory");
}

/* ld.shared.b128 (ld, .b128 since PTX ISA 8.3): the response as one 128-bit register value. */
__device__ __forceinline__ unsigned __int128 ld_shared_b128(const uint32_t *p)
{
    unsigned __int128 v;
    asm volatile("ld.shared.b128 %0, [%1];\n" : "=q"(v) : "r"(smem_u32(p)) : "memory");
    return v;
}

/* True if the response says a cluster was cancelled (its work is ours). */
__device__ __forceinline__ bool clusterlaunchcontrol_query_cancel_is_canceled(unsigned __int128 r)
{
    uint32_t yes;
    asm volatile("{\n"
                 ".reg .pred p;\n"
                 "clusterlaunchcontrol.query_cancel.is_canceled.pred.b128 p, %1;\n"
                 "selp.u32 %0, 1, 0, p;\n"
                 "}\n"
                 : "=r"(yes) : "q"(r));
    return yes != 0;
}

/* blockIdx.x of the first CTA of the cancelled cluster; only meaningful when
 * clusterlaunchcontrol_query_cancel_is_canceled(r). */
__device__ __forceinline__ uint32_t
clusterlaunchcontrol_query_cancel_get_first_ctaid_x(unsigned __int128 r)
{
    uint32_t x;
    asm volatile("clusterlaunchcontrol.query_cancel.get_first_ctaid::x.b32.b128 %0, %1;\n"
                 : "=r"(x) : "q"(r));
    return x;
}

#endif
