/* How long the driver waits for the GPU before it calls a run stuck. A kernel
 * that waits on a barrier nobody will complete never finishes and never
 * fails; without a limit the program would hang with it. */
#ifndef COMMON_WAITLIMIT_H
#define COMMON_WAITLIMIT_H

/* The floor: covers start-up, cuBLAS's first call and every small or
 * memory-bound problem (writing all of GPU memory takes well under a second). */
#define WAIT_LIMIT_MIN_S 10.0
/* An assumed rate far below any step's: v0, the slowest, runs above 100
 * TFLOP/s at 2048^3 on H100/H200, so the limit is ~20x the slowest honest run
 * and more for the others. */
#define WAIT_LIMIT_TFLOPS 5.0

/* Seconds to wait for `calls` matmuls of M x N x K queued back to back:
 *   max(WAIT_LIMIT_MIN_S, calls * 2 M N K / (WAIT_LIMIT_TFLOPS * 10^12)).
 * Pure arithmetic in double (2 M N K passes 2^63 for the largest sizes). */
double wait_limit_s(int M, int N, int K, double calls);

#endif
