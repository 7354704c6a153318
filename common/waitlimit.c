#include "waitlimit.h"

double wait_limit_s(int M, int N, int K, double calls)
{
    const double s = calls * 2.0 * (double)M * (double)N * (double)K / (WAIT_LIMIT_TFLOPS * 1e12);
    return s > WAIT_LIMIT_MIN_S ? s : WAIT_LIMIT_MIN_S;
}
