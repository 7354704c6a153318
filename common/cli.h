/* Command line of every step's driver: ./vN [M N K] [options]. */
#ifndef COMMON_CLI_H
#define COMMON_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum { CHECK_BOTH, CHECK_EXACT, CHECK_RANDOM, CHECK_NONE } check_mode;

/* Which cuBLAS the step is held to: cublasGemmEx's default algorithm, the
 * fastest of cuBLASLt's heuristic candidates for the shape, both, or none
 * (no cuBLAS kernel runs: the step is checked against the fp64 reference on
 * sampled rows and columns and against itself, and timed alone; for
 * compute-sanitizer runs, whose reports would otherwise hold cuBLAS's
 * kernels too). */
typedef enum { BASELINE_BOTH, BASELINE_DEFAULT, BASELINE_BEST, BASELINE_NONE } baseline_mode;

typedef struct {
    int M, N, K;
    int reps;          /* timed runs of each of step and cuBLAS; 0 = no timing */
    int warmup;        /* untimed runs of each before timing                   */
    check_mode check;
    baseline_mode baseline;
    double time_limit; /* seconds for each GPU wait; 0 = wait_limit_s()   */
    uint64_t seed;
    bool energy;       /* measure each kernel's energy alone after timing (1 s each) */
    const char *csv;   /* append a result row here, or NULL                    */
    bool help;
} options;

#define DEFAULT_SIZE 8192
/* Largest M, N or K: INT_MAX rounded down to a multiple of 8, so that K and N
 * rounded up to the next multiple of 8 (see stage_plan_make) still fit an int. */
#define MAX_SIZE 2147483640

/* Fills *o from argv. Returns 0, or -1 with a one-line reason in err. */
int cli_parse(int argc, char **argv, options *o, char *err, size_t errlen);

/* The usage text, for --help and after an error. */
void cli_usage(FILE *f, const char *prog);

#endif
