/* The GPU the driver runs on: checks that it can run sm_90a or sm_100a code,
 * and reads its SM clock, power and energy through NVML (loaded at run time,
 * optional). */
#ifndef COMMON_GPUINFO_H
#define COMMON_GPUINFO_H

#include <stddef.h>

typedef struct {
    int dev;
    char name[256];
    int cc_major, cc_minor, sms;
    size_t l2_bytes, free_bytes, total_bytes;
    int max_sm_mhz; /* -1 if unknown */
} gpu_info;

/* Selects device 0 and fills *g. Returns 0, or -1 with a one-line reason. */
int gpu_open(gpu_info *g, char *err, size_t errlen);

/* Current SM clock (MHz) and board power (W); -1 where NVML cannot tell. */
void gpu_sample(const gpu_info *g, int *sm_mhz, double *power_w);

/* The board's energy counter (millijoules since the driver loaded): the
 * difference of two readings is the energy between them, where the power
 * reading above is an average over the last second or so. 0, or -1 where
 * NVML or the counter is not available. */
int gpu_energy_mj(const gpu_info *g, unsigned long long *mj);

#endif
