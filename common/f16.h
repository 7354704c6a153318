/* fp16 conversions on the host, in plain C (round to nearest even). */
#ifndef COMMON_F16_H
#define COMMON_F16_H

#include "matmul.h"

#ifdef __cplusplus
extern "C" {
#endif

float f16_to_float(f16 h);
f16 f16_from_double(double x); /* one rounding, straight from double */
int f16_isnan(f16 h);

#ifdef __cplusplus
}
#endif
#endif
