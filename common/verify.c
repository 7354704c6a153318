#include "verify.h"
#include "f16.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void fill_exact(f16 *x, size_t n, uint64_t seed)
{
    static const f16 values[5] = {0xc000, 0xbc00, 0x0000, 0x3c00, 0x4000}; /* -2 -1 0 1 2 */
    uint64_t s = seed;
    for (size_t i = 0; i < n; i++) x[i] = values[rng_next(&s) % 5];
}

/* Uniform over the 2046 non-zero multiples of 2^-10 in (-1, 1), all exact in
 * fp16: a table lookup per element keeps filling gigabytes quick. */
void fill_random(f16 *x, size_t n, uint64_t seed)
{
    static f16 table[2046];
    if (table[0] == 0)
        for (int k = -1023, i = 0; k <= 1023; k++)
            if (k != 0) table[i++] = f16_from_double(k / 1024.0);
    uint64_t s = seed ^ 0x5eedull;
    for (size_t i = 0; i < n; i++) x[i] = table[rng_next(&s) % 2046];
}

static void note(check_result *r, double got, double want, bool ok, int row, int col,
                 const char *label)
{
    double e = fabs(got - want);
    if (isnan(e)) e = INFINITY;
    if (e > r->max_abs_err) r->max_abs_err = e;
    if (!ok && r->bad++ < MAX_REPORTED)
        fprintf(stderr, "  %s mismatch at (row %d, col %d): got %.6g, want %.6g\n", label, row,
                col, got, want);
    r->checked++;
}

check_result check_bitwise(const f16 *got, const f16 *want, int M, int N, const char *label)
{
    check_result r = {0};
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            size_t k = (size_t)i * N + j;
            note(&r, f16_to_float(got[k]), f16_to_float(want[k]), got[k] == want[k], i, j, label);
        }
    return r;
}

check_result check_close(const f16 *got, const f16 *want, int M, int N, int K, const char *label)
{
    check_result r = {0};
    const double atol = ldexp(sqrt((double)K), -8);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            size_t k = (size_t)i * N + j;
            double g = f16_to_float(got[k]), w = f16_to_float(want[k]);
            bool ok = fabs(g - w) <= ldexp(fabs(w), -9) + atol; /* false for NaN */
            note(&r, g, w, ok, i, j, label);
        }
    return r;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

int sample_indices(int n, int max, uint64_t seed, int *out)
{
    int cnt = 0;
    if (n <= max) {
        for (int i = 0; i < n; i++) out[i] = i;
        return n;
    }
    /* Edges of the matrix and of the first and last tiles of any size we use. */
    const int fixed[] = {0, n - 1, 1, n - 2, 63, 64, 127, 128, 255, 256, n / 2, n - 129,
                         n - 128, n - 65, n - 64};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0] && cnt < max; i++)
        if (fixed[i] >= 0 && fixed[i] < n) out[cnt++] = fixed[i];
    uint64_t s = seed;
    while (cnt < max) out[cnt++] = (int)(rng_next(&s) % (uint64_t)n);
    qsort(out, (size_t)cnt, sizeof(int), cmp_int);
    int u = 0;
    for (int i = 0; i < cnt; i++)
        if (u == 0 || out[i] != out[u - 1]) out[u++] = out[i];
    return u;
}

check_result check_reference(const f16 *got, const f16 *A, const f16 *B, int M, int N, int K,
                             const int *rows, int nr, const int *cols, int nc, bool exact,
                             const char *label)
{
    check_result r = {0};
    double err2 = 0, ref2 = 0;
    double *arow = malloc((size_t)K * sizeof(double));
    if (!arow) {
        fprintf(stderr, "error: out of host memory for the reference (K = %d)\n", K);
        exit(EXIT_FAILURE);
    }
    for (int a = 0; a < nr; a++) {
        const int i = rows[a];
        if (i < 0 || i >= M) {
            fprintf(stderr, "error: reference row %d outside 0..%d\n", i, M - 1);
            exit(EXIT_FAILURE);
        }
        for (int k = 0; k < K; k++) arow[k] = f16_to_float(A[(size_t)i * K + k]);
        for (int b = 0; b < nc; b++) {
            const int j = cols[b];
            if (j < 0 || j >= N) {
                fprintf(stderr, "error: reference column %d outside 0..%d\n", j, N - 1);
                exit(EXIT_FAILURE);
            }
            const f16 *brow = B + (size_t)j * K;
            double ref = 0;
            for (int k = 0; k < K; k++) ref += arow[k] * f16_to_float(brow[k]);
            const f16 g16 = got[(size_t)i * N + j];
            const double g = f16_to_float(g16);
            bool ok = exact ? g16 == f16_from_double(ref) : !isnan(g);
            note(&r, g, ref, ok, i, j, label);
            err2 += (g - ref) * (g - ref);
            ref2 += ref * ref;
        }
    }
    free(arow);
    r.rel_err = ref2 > 0 ? sqrt(err2 / ref2) : sqrt(err2);
    if (isnan(r.rel_err)) r.rel_err = INFINITY;
    if (!exact && !(r.rel_err <= REL_ERR_BOUND)) {
        fprintf(stderr, "  %s: relative error %.3g exceeds %.0e\n", label, r.rel_err,
                REL_ERR_BOUND);
        if (r.bad == 0) r.bad = 1;
    }
    return r;
}
