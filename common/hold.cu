/* The queue hold of hold.h: a kernel that waits on a flag in host memory. */
#include "hold.h"
#include "check.h"

/* Nanoseconds of the GPU's global timer. */
__device__ __forceinline__ unsigned long long globaltimer()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

/* One thread: polls the host's flag about once a microsecond (each read
 * crosses PCIe) until it is set or max_ns pass. */
__global__ void hold_kernel(volatile int *flags, unsigned long long max_ns)
{
    const unsigned long long t0 = globaltimer();
    while (!flags[0]) {
        if (globaltimer() - t0 > max_ns) {
            flags[1] = 1;
            return;
        }
        __nanosleep(1000);
    }
}

extern "C" cudaError_t hold_open(queue_hold *h)
{
    void *p;
    CUDA_TRY(cudaHostAlloc(&p, 2 * sizeof(int), cudaHostAllocMapped));
    h->flags = (volatile int *)p;
    h->flags[0] = h->flags[1] = 0;
    return cudaSuccess;
}

extern "C" cudaError_t hold_begin(queue_hold *h, cudaStream_t stream, double max_s)
{
    int *dev;
    CUDA_TRY(cudaHostGetDevicePointer((void **)&dev, (void *)h->flags, 0));
    h->flags[0] = h->flags[1] = 0;
    hold_kernel<<<1, 1, 0, stream>>>(dev, (unsigned long long)(max_s * 1e9));
    return cudaGetLastError();
}

extern "C" void hold_release(queue_hold *h)
{
    __atomic_store_n((int *)&h->flags[0], 1, __ATOMIC_RELEASE);
}

extern "C" bool hold_expired(const queue_hold *h) { return h->flags[1] != 0; }

extern "C" cudaError_t hold_close(queue_hold *h)
{
    CUDA_TRY(cudaFreeHost((void *)h->flags));
    h->flags = NULL;
    return cudaSuccess;
}
