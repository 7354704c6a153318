/* Proxy fences. Ordinary loads/stores (and cp.async) act in the "generic proxy";
 * wgmma operand reads and TMA act in the "async proxy". A write in one proxy is
 * seen by the other only after this fence, executed by the writing thread and
 * followed by a barrier that orders it before the reader. */
#ifndef COMMON_FENCE_CUH
#define COMMON_FENCE_CUH

__device__ __forceinline__ void fence_proxy_async_shared_cta()
{
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}

/* The same for global memory: v7's split-K pieces write their fp32 partials
 * with ordinary stores and read each other's with bulk copies (TMA). */
__device__ __forceinline__ void fence_proxy_async_global()
{
    asm volatile("fence.proxy.async.global;\n" ::: "memory");
}

#endif
