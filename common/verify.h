/* Input data and result checks, on the host, in C.
 *
 * Exact mode: inputs are small integers in [-2, 2]; every product and partial
 * sum is an integer far below 2^24, so fp32 accumulation is exact in any order
 * and the fp16 result is the same rounding of the same number for everyone:
 * the step must equal cuBLAS and the fp64 reference bit for bit.
 * Random mode: inputs uniform in (-1, 1), non-zero multiples of 2^-10 (so
 * non-integer: integer or zero data draws less power); the result must match
 * the fp64 reference to a relative Frobenius error of REL_ERR_BOUND and cuBLAS
 * element by element within check_close's tolerance. */
#ifndef COMMON_VERIFY_H
#define COMMON_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "matmul.h"

#define REL_ERR_BOUND 1e-3
#define MAX_REPORTED 5 /* mismatches printed per check */

typedef struct {
    size_t checked;     /* elements compared                        */
    size_t bad;         /* elements that failed                     */
    double max_abs_err; /* largest |got - want| (inf if a NaN)      */
    double rel_err;     /* ||got - want||_F / ||want||_F            */
} check_result;

uint64_t rng_next(uint64_t *state); /* splitmix64 */
void fill_exact(f16 *x, size_t n, uint64_t seed);
void fill_random(f16 *x, size_t n, uint64_t seed);

/* Every element of got[M,N] bit-equal to want[M,N]. */
check_result check_bitwise(const f16 *got, const f16 *want, int M, int N, const char *label);

/* Every element within |got - want| <= 2^-9 |want| + 2^-8 sqrt(K). The first
 * term is two fp16 ulps of the value. The second is for the reference itself:
 * for some shapes (N % 8 != 0, for one) cuBLAS splits K and rounds each partial
 * sum to fp16, an error of up to an ulp of a partial sum, whose size grows as
 * sqrt(K) (inputs in (-1, 1)). A wrong tile, k-slice or unwritten element
 * misses by far more; the exact mode and the fp64 check are the tight tests. */
check_result check_close(const f16 *got, const f16 *want, int M, int N, int K,
                         const char *label);

/* Up to max indices of [0, n): all of them if n <= max, else the edges, the
 * tile boundaries near the start and end, and random others; sorted, unique. */
int sample_indices(int n, int max, uint64_t seed, int *out);

/* fp64 dot products for rows x cols of C = A * B^T. exact: got must equal the
 * fp16 rounding of the reference bit for bit; else rel_err <= REL_ERR_BOUND. */
check_result check_reference(const f16 *got, const f16 *A, const f16 *B, int M, int N, int K,
                             const int *rows, int nr, const int *cols, int nc, bool exact,
                             const char *label);

#endif
