#include "f16.h"
#include <math.h>
#include <string.h>

float f16_to_float(f16 h)
{
    uint32_t sign = (uint32_t)(h >> 15) << 31, exp = (h >> 10) & 0x1f, man = h & 0x3ff;
    float f;
    if (exp == 0x1f) { /* inf or nan */
        uint32_t bits = sign | 0x7f800000u | (man << 13);
        memcpy(&f, &bits, 4);
        return f;
    }
    f = exp ? ldexpf((float)(man | 0x400), (int)exp - 25) : ldexpf((float)man, -24);
    return sign ? -f : f;
}

f16 f16_from_double(double x)
{
    if (isnan(x)) return 0x7e00;
    f16 sign = signbit(x) ? 0x8000 : 0;
    double a = fabs(x);
    if (a >= 65520.0) return sign | 0x7c00; /* rounds to inf (65504 + half an ulp) */
    if (a < ldexp(1.0, -14)) {              /* subnormal: units of 2^-24 */
        double q = nearbyint(a * ldexp(1.0, 24)); /* default rounding: to nearest even */
        return sign | (f16)q;               /* q == 1024 is the smallest normal: still right */
    }
    int e;
    frexp(a, &e); /* a = m * 2^e, m in [0.5, 1) */
    double q = nearbyint(ldexp(a, 11 - e)); /* 11 significant bits, in [1024, 2048] */
    if (q == 2048.0) { q = 1024.0; e++; }
    if (e + 14 >= 31) return sign | 0x7c00;
    return sign | (f16)((e + 14) << 10) | (f16)((int)q - 1024);
}

int f16_isnan(f16 h) { return (h & 0x7c00) == 0x7c00 && (h & 0x3ff) != 0; }
