/* Random problem shapes for `make bench-random`, drawn from a seed so a sweep
 * can be repeated exactly:
 *
 *   build/tools/shapes SEED COUNT [aligned|any]
 *
 * prints COUNT lines "M N K". M and N are log-uniform in 64 .. 16384, K in
 * 256 .. 16384 (the sizes callers use, from decode-step GEMMs to large
 * training ones, each octave as likely as the next). `aligned` (the default)
 * rounds each to a multiple of 8, the row pitch TMA needs without staging;
 * `any` keeps every integer. The generator is splitmix64, the same numbers on
 * every machine (common/verify.c's rng_next). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../common/verify.h"

/* Log-uniform in [lo, hi], a multiple of `align`, within the range. */
static int draw(uint64_t *state, int lo, int hi, int align)
{
    const double u = (double)(rng_next(state) >> 11) * 0x1.0p-53; /* [0, 1) */
    const double x = exp(log(lo) + u * (log(hi) - log(lo)));
    int v = (int)lround(x / align) * align;
    if (v < lo) v = lo;
    if (v > hi) v = hi;
    return v;
}

int main(int argc, char **argv)
{
    if (argc < 3 || argc > 4 || (argc == 4 && strcmp(argv[3], "aligned") && strcmp(argv[3], "any"))) {
        fprintf(stderr, "shapes: error: usage: %s SEED COUNT [aligned|any]\n", argv[0]);
        return 2;
    }
    char *end;
    errno = 0;
    const unsigned long long seed = strtoull(argv[1], &end, 10);
    if (errno || end == argv[1] || *end || argv[1][0] == '-') {
        fprintf(stderr, "shapes: error: SEED must be a whole number >= 0, not '%s'\n", argv[1]);
        return 2;
    }
    errno = 0;
    const long count = strtol(argv[2], &end, 10);
    if (errno || end == argv[2] || *end || count < 1 || count > 100000) {
        fprintf(stderr, "shapes: error: COUNT must be a whole number in 1 .. 100000, not '%s'\n", argv[2]);
        return 2;
    }
    const int align = argc == 4 && !strcmp(argv[3], "any") ? 1 : 8;
    uint64_t state = seed;
    for (long i = 0; i < count; i++) {
        const int M = draw(&state, 64, 16384, align);
        const int N = draw(&state, 64, 16384, align);
        const int K = draw(&state, 256, 16384, align);
        printf("%d %d %d\n", M, N, K);
    }
    return 0;
}
