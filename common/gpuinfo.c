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
typedef int (*nvml_energy_fn)(void *, unsigned long long *);
#define NVML_CLOCK_SM 1

static struct {
    int tried;
    void *dev; /* NULL: NVML or the device is not available */
    nvml_clock_fn clock;
    nvml_power_fn power;
    nvml_energy_fn energy; /* NULL where the library lacks it */
} nvml;

/* POSIX's way to turn dlsym's object pointer into a function pointer. */
static void nvml_sym(void *lib, const char *name, void *fn)
{
    void *p = dlsym(lib, name);
    memcpy(fn, &p, sizeof p);
}

static void nvml_open(const gpu_info *g)
{
    if (nvml.tried) return;
    nvml.tried = 1;
    void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW);
    if (!lib) return;
    nvml_init_fn init;
    nvml_by_pci_fn by_pci;
    nvml_sym(lib, "nvmlInit_v2", &init);
    nvml_sym(lib, "nvmlDeviceGetHandleByPciBusId_v2", &by_pci);
    nvml_sym(lib, "nvmlDeviceGetClockInfo", &nvml.clock);
    nvml_sym(lib, "nvmlDeviceGetPowerUsage", &nvml.power);
    nvml_sym(lib, "nvmlDeviceGetTotalEnergyConsumption", &nvml.energy);
    char bus[64];
    if (!init || !by_pci || !nvml.clock || !nvml.power || init() != 0 ||
        cudaDeviceGetPCIBusId(bus, sizeof bus, g->dev) != cudaSuccess ||
        by_pci(bus, &nvml.dev) != 0)
        nvml.dev = NULL;
}

void gpu_sample(const gpu_info *g, int *sm_mhz, double *power_w)
{
    *sm_mhz = -1;
    *power_w = -1;
    nvml_open(g);
    if (!nvml.dev) return;
    unsigned v;
    if (nvml.clock(nvml.dev, NVML_CLOCK_SM, &v) == 0) *sm_mhz = (int)v;
    if (nvml.power(nvml.dev, &v) == 0) *power_w = v / 1000.0; /* milliwatts */
}

int gpu_energy_mj(const gpu_info *g, unsigned long long *mj)
{
    nvml_open(g);
    if (!nvml.dev || !nvml.energy) return -1;
    return nvml.energy(nvml.dev, mj) == 0 ? 0 : -1;
}
