/* Which kernel of a step serves a GPU: pure arithmetic on the compute
 * capability, shared by common/dispatch.c, common/gpuinfo.c and the host tests.
 *
 * sm_90a and sm_100a code runs only on exactly 9.0 and 10.0: the "a"
 * features (wgmma and setmaxnreg; tcgen05) are not carried forward to later
 * architectures, so 10.3 (B300) or 12.0 (RTX 50) get neither. */
#ifndef COMMON_DISPATCH_H
#define COMMON_DISPATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef enum { MATMUL_ARCH_NONE, MATMUL_ARCH_SM90, MATMUL_ARCH_SM100 } matmul_arch;

/* The kernel for compute capability major.minor in step `step`, which has a
 * Blackwell kernel iff has_sm100. MATMUL_ARCH_NONE comes with a one-line
 * reason in why (no trailing newline). */
static inline matmul_arch matmul_pick(int major, int minor, bool has_sm100, const char *step,
                                      char *why, size_t whylen)
{
    if (major == 9 && minor == 0) return MATMUL_ARCH_SM90;
    if (major == 10 && minor == 0) {
        if (has_sm100) return MATMUL_ARCH_SM100;
        snprintf(why, whylen, "%s has no Blackwell kernel (sm_100a) yet; it runs on Hopper "
                              "(sm_90a: H100, H200) only", step);
        return MATMUL_ARCH_NONE;
    }
    snprintf(why, whylen, "compute capability %d.%d (sm_%d%d): these kernels are built for "
                          "Hopper (sm_90a: H100, H200) and Blackwell (sm_100a: B200, GB200) only",
             major, minor, major, minor);
    return MATMUL_ARCH_NONE;
}

/* Defined in common/dispatch.c (built once per step, knowing whether the step
 * has a Blackwell kernel). 0 if matmul() can run on the current device, else
 * -1 and a one-line reason: lets a program refuse before allocating anything. */
int matmul_device_check(char *why, size_t whylen);

#endif
