/* matmul(): one binary for Hopper and Blackwell. Each step links its
 * hopper.cu (matmul_sm90) and, where it has one, its blackwell.cu
 * (matmul_sm100); this file picks by the current device's compute capability.
 *
 * Built once per step by the Makefile with -DSTEP_NAME='"vN_name"' and
 * -DHAVE_SM100=1 for the steps listed in BW_STEPS, 0 for the others (which
 * then link without a matmul_sm100 and refuse a 10.0 GPU by name). */
#include "matmul.h"
#include "dispatch.h"
#include <stdatomic.h>
#include <stdio.h>

#if !defined(STEP_NAME) || !defined(HAVE_SM100)
#error "build with -DSTEP_NAME='\"vN_name\"' -DHAVE_SM100=0|1 (the Makefile does, from BW_STEPS)"
#endif

/* Compute capability of device d as 10 * major + minor + 1; 0 = not asked yet.
 * Threads may race to fill an entry: each stores the same value, and the
 * atomics make that race well defined. Devices past the table are asked on
 * every call (a cheap attribute query). */
#define CC_CACHE_DEVICES 64
static _Atomic int cc_cache[CC_CACHE_DEVICES];

static cudaError_t current_cc(int *major, int *minor)
{
    int dev;
    cudaError_t e = cudaGetDevice(&dev);
    if (e != cudaSuccess) {
        fprintf(stderr, "error: matmul: cudaGetDevice: %s\n", cudaGetErrorString(e));
        return e;
    }
    int v = dev >= 0 && dev < CC_CACHE_DEVICES ? atomic_load(&cc_cache[dev]) : 0;
    if (v == 0) {
        if ((e = cudaDeviceGetAttribute(major, cudaDevAttrComputeCapabilityMajor, dev)) !=
                cudaSuccess ||
            (e = cudaDeviceGetAttribute(minor, cudaDevAttrComputeCapabilityMinor, dev)) !=
                cudaSuccess) {
            fprintf(stderr, "error: matmul: compute capability of device %d: %s\n", dev,
                    cudaGetErrorString(e));
            return e;
        }
        if (dev >= 0 && dev < CC_CACHE_DEVICES)
            atomic_store(&cc_cache[dev], 10 * *major + *minor + 1);
        return cudaSuccess;
    }
    *major = (v - 1) / 10;
    *minor = (v - 1) % 10;
    return cudaSuccess;
}

int matmul_device_check(char *why, size_t whylen)
{
    int major, minor;
    cudaError_t e = current_cc(&major, &minor);
    if (e != cudaSuccess) {
        snprintf(why, whylen, "cannot read the device's compute capability: %s",
                 cudaGetErrorString(e));
        return -1;
    }
    return matmul_pick(major, minor, HAVE_SM100, STEP_NAME, why, whylen) == MATMUL_ARCH_NONE ? -1
                                                                                            : 0;
}

cudaError_t matmul(const f16 *A, const f16 *B, f16 *C, int M, int N, int K, cudaStream_t stream)
{
    int major, minor;
    cudaError_t e = current_cc(&major, &minor);
    if (e != cudaSuccess) return e;
    char why[256] = "no kernel for this device";
    switch (matmul_pick(major, minor, HAVE_SM100, STEP_NAME, why, sizeof why)) {
    case MATMUL_ARCH_SM90:
        return matmul_sm90(A, B, C, M, N, K, stream);
    case MATMUL_ARCH_SM100:
#if HAVE_SM100
        return matmul_sm100(A, B, C, M, N, K, stream);
#else
        break; /* matmul_pick never returns it without a Blackwell kernel */
#endif
    case MATMUL_ARCH_NONE:
        break;
    }
    fprintf(stderr, "error: matmul: %s\n", why);
    return cudaErrorNoKernelImageForDevice;
}
