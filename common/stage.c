/* The staging plan of matmul_staged (see matmul.h): pure arithmetic, host-tested.
 * The staging itself is in staged.c, its copies in stage_copy.cu. */
#include "matmul.h"
#include "check.h"
#include <limits.h>

static bool aligned16(const void *p) { return ((uintptr_t)p & 15u) == 0; }
static int round_up8(int x) { return (int)(((int64_t)x + 7) / 8 * 8); }

bool stage_for_pitch(int M, int N, int K, double pitch_loss)
{
    const double kp = (double)(((int64_t)K + 63) / 64 * 64);
    return K % 16 != 0 && pitch_loss > 0 &&
           ((double)M + N) * (K + kp) * STAGE_FLOP_PER_BYTE < pitch_loss * (double)M * N * kp;
}

stage_plan stage_plan_make(const void *A, const void *B, const void *C,
                           int M, int N, int K, double pitch_loss)
{
    stage_plan p = {0};
    /* K % 8 != 0 breaks the row pitch of A and B; zero columns K..kp-1 add
     * nothing to the dot products, so the kernel simply runs with K = kp.
     * Staged for the pitch, kp is a multiple of 64 (128-byte rows): the
     * kernels' k-tiles are 64 wide, so they run no more of them. */
    p.for_pitch = stage_for_pitch(M, N, K, pitch_loss) && K <= INT_MAX - 63;
    p.kp = p.for_pitch ? (int)(((int64_t)K + 63) / 64 * 64) : round_up8(K);
    p.stage_a = p.kp != K || !aligned16(A);
    p.stage_b = p.kp != K || !aligned16(B);
    p.wide_a = p.stage_a && K % 8 == 0 && aligned16(A);
    p.wide_b = p.stage_b && K % 8 == 0 && aligned16(B);
    /* N % 8 != 0 breaks C's pitch: the kernel writes an [M, ldc] scratch and
     * only its first N columns are copied back. */
    p.ldc = round_up8(N);
    p.stage_c = p.ldc != N || !aligned16(C);
    p.bytes_a = p.stage_a ? (size_t)M * p.kp * sizeof(f16) : 0;
    p.bytes_b = p.stage_b ? (size_t)N * p.kp * sizeof(f16) : 0;
    p.bytes_c = p.stage_c ? (size_t)M * p.ldc * sizeof(f16) : 0;
    return p;
}
