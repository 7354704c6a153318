#define _GNU_SOURCE
#include "gpuinfo.h"
#include "dispatch.h"
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <cuda_runtime_api.h>

int gpu_open(gpu_info *g, char *err, size_t errlen)
{
    memset(g, 0, sizeof *g);
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
        snprintf(err, errlen, "no CUDA GPU found (%s)",
                 e != cudaSuccess ? cudaGetErrorString(e) : "device count is 0");
        return -1;
    }
    g->dev = 0;
    struct cudaDeviceProp p;
    if ((e = cudaGetDeviceProperties(&p, 0)) != cudaSuccess ||
        (e = cudaSetDevice(0)) != cudaSuccess ||
        (e = cudaMemGetInfo(&g->free_bytes, &g->total_bytes)) != cudaSuccess) {
        snprintf(err, errlen, "cannot query GPU 0: %s", cudaGetErrorString(e));
        return -1;
    }
    snprintf(g->name, sizeof g->name, "%s", p.name);
    g->cc_major = p.major;
    g->cc_minor = p.minor;
    g->sms = p.multiProcessorCount;
    g->l2_bytes = (size_t)p.l2CacheSize;
    int khz = 0;
    g->max_sm_mhz = cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0) == cudaSuccess
                        ? khz / 1000 : -1;
    /* Hopper (9.0) or Blackwell (10.0); whether this step has a kernel for
     * the GPU is matmul_device_check's question (common/dispatch.c). */
    char why[256];
    if (matmul_pick(p.major, p.minor, true, "", why, sizeof why) == MATMUL_ARCH_NONE) {
        snprintf(err, errlen, "%s: %s", p.name, why);
        return -1;
    }
    return 0;
}

/* The few NVML calls we need, declared by hand: the toolkit ships no nvml.h
 * here, and a missing libnvidia-ml must not stop a run. */
typedef int (*nvml_init_fn)(void);
typedef int (*nvml_by_pci_fn)(const char *, void **);
typedef int (*nvml_clock_fn)(void *, int, unsigned *);
typedef int (*nvml_power_fn)(void *, unsigned *);
#define NVML_CLOCK_SM 1

void gpu_sample(const gpu_info *g, int *sm_mhz, double *power_w)
{
    static void *dev = NULL;
    static nvml_clock_fn clock_fn;
    static nvml_power_fn power_fn;
    static int tried = 0;
    *sm_mhz = -1;
    *power_w = -1;
    if (!tried) {
        tried = 1;
        void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW);
        if (!lib) return;
        /* POSIX's way to turn dlsym's object pointer into a function pointer. */
        nvml_init_fn init;
        nvml_by_pci_fn by_pci;
        void *p;
        p = dlsym(lib, "nvmlInit_v2");                      memcpy(&init, &p, sizeof p);
        p = dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2"); memcpy(&by_pci, &p, sizeof p);
        p = dlsym(lib, "nvmlDeviceGetClockInfo");           memcpy(&clock_fn, &p, sizeof p);
        p = dlsym(lib, "nvmlDeviceGetPowerUsage");          memcpy(&power_fn, &p, sizeof p);
        char bus[64];
        if (!init || !by_pci || !clock_fn || !power_fn || init() != 0 ||
            cudaDeviceGetPCIBusId(bus, sizeof bus, g->dev) != cudaSuccess ||
            by_pci(bus, &dev) != 0)
            dev = NULL;
    }
    if (!dev) return;
    unsigned v;
    if (clock_fn(dev, NVML_CLOCK_SM, &v) == 0) *sm_mhz = (int)v;
    if (power_fn(dev, &v) == 0) *power_w = v / 1000.0; /* milliwatts */
}
