/* Host tests of common/: fp16 conversion, command line, staging plan, tensor
 * map descriptors, tcgen05 (sm_100) descriptors, kernel choice per GPU, input
 * data and result checks. No GPU needed.
 *
 * Every test prints exactly one line, "PASS <name>" or "FAIL <name>: <why>"
 * (the first failed expectation, with its line); exit status 0 iff all passed.
 * The check_* functions print their mismatches to stderr: expected here. */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/cli.h"
#include "../common/dispatch.h"
#include "../common/f16.h"
#include "../common/matmul.h"
#include "../common/tcgen05_desc.h"
#include "../common/tile_order.h"
#include "../common/stream_k.h"
#include "../common/tmap.h"
#include "../common/verify.h"
#include "../common/waitlimit.h"
#include "../tools/calib_order.h"

/* ---- harness ------------------------------------------------------------ */

static const char *cur_name;
static bool cur_failed;
static char cur_why[768];
static int n_pass, n_fail;

static void begin(const char *name)
{
    cur_name = name;
    cur_failed = false;
    cur_why[0] = '\0';
}

static void end(void)
{
    if (cur_failed) {
        printf("FAIL %s: %s\n", cur_name, cur_why);
        n_fail++;
    } else {
        printf("PASS %s\n", cur_name);
        n_pass++;
    }
    fflush(stdout); /* a later crash must not swallow the lines already earned */
}

/* Records the first failure of the current test; later ones add nothing. */
static void failf(int line, const char *fmt, ...)
{
    if (cur_failed) return;
    cur_failed = true;
    int n = snprintf(cur_why, sizeof cur_why, "line %d: ", line);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cur_why + n, sizeof cur_why - (size_t)n, fmt, ap);
    va_end(ap);
}

#define EXPECT(cond, ...)                          \
    do {                                           \
        if (!(cond)) failf(__LINE__, __VA_ARGS__); \
    } while (0)

#define EXPECT_EQ_U(got, want, what)                                                    \
    do {                                                                                \
        unsigned long long g_ = (unsigned long long)(got), w_ = (unsigned long long)(want); \
        if (g_ != w_) failf(__LINE__, "%s = %llu (0x%llx), want %llu (0x%llx)", what, g_, g_, \
                            w_, w_);                                                    \
    } while (0)

static void *xmalloc(size_t n)
{
    void *p = malloc(n);
    if (!p) {
        fprintf(stderr, "host_tests: out of memory (%zu bytes)\n", n);
        exit(2);
    }
    return p;
}

/* ---- f16 ---------------------------------------------------------------- */

/* NaN by definition (exponent all ones, mantissa non-zero), not via f16_isnan. */
static bool is_nan_pattern(unsigned h) { return (h & 0x7c00u) == 0x7c00u && (h & 0x3ffu) != 0; }

/* The value of a non-NaN fp16 pattern, from the IEEE binary16 definition. */
static double f16_value(unsigned h)
{
    unsigned e = (h >> 10) & 0x1f, m = h & 0x3ff;
    double v = e == 0x1f ? INFINITY : e ? ldexp(1024.0 + m, (int)e - 25) : ldexp((double)m, -24);
    return (h & 0x8000u) ? -v : v;
}

static void test_f16_to_float_values(void)
{
    begin("f16_to_float_all_patterns");
    for (unsigned h = 0; h <= 0xffffu; h++) {
        if (is_nan_pattern(h)) continue;
        float f = f16_to_float((f16)h);
        double want = f16_value(h);
        if ((double)f != want || !signbit(f) != !signbit(want)) {
            failf(__LINE__, "f16_to_float(0x%04x) = %.9g, want %.9g", h, f, want);
            break;
        }
    }
    EXPECT(f16_to_float(0x3c00) == 1.0f, "0x3c00 is not 1");
    EXPECT(f16_to_float(0xc000) == -2.0f, "0xc000 is not -2");
    EXPECT(f16_to_float(0x7bff) == 65504.0f, "0x7bff is not 65504");
    EXPECT(f16_to_float(0x0001) == ldexpf(1.0f, -24), "0x0001 is not 2^-24");
    EXPECT(f16_to_float(0x0400) == ldexpf(1.0f, -14), "0x0400 is not 2^-14");
    EXPECT(f16_to_float(0x3555) == 0.333251953125f, "0x3555 is not 0.333251953125");
    EXPECT(isinf(f16_to_float(0x7c00)) && f16_to_float(0x7c00) > 0, "0x7c00 is not +inf");
    EXPECT(isinf(f16_to_float(0xfc00)) && f16_to_float(0xfc00) < 0, "0xfc00 is not -inf");
    /* strictly increasing over the positive patterns 0 .. +inf */
    for (unsigned h = 0; h < 0x7c00u; h++)
        if (!(f16_to_float((f16)h) < f16_to_float((f16)(h + 1)))) {
            failf(__LINE__, "f16_to_float not increasing at 0x%04x", h);
            break;
        }
    end();
}

static void test_f16_round_trip(void)
{
    begin("f16_round_trip_all_non_nan");
    int n = 0;
    for (unsigned h = 0; h <= 0xffffu; h++) {
        if (is_nan_pattern(h)) continue;
        n++;
        f16 b = f16_from_double((double)f16_to_float((f16)h));
        if (b != h) {
            failf(__LINE__, "0x%04x -> %.9g -> 0x%04x", h, f16_to_float((f16)h), b);
            break;
        }
    }
    EXPECT_EQ_U(n, 65536 - 2 * 1023, "non-NaN patterns visited");
    end();
}

static void expect_round(int line, double x, unsigned want)
{
    f16 a = f16_from_double(x);
    if (a != want) failf(line, "f16_from_double(%.17g) = 0x%04x, want 0x%04x", x, a, want);
}
#define EXPECT_ROUND(x, want) expect_round(__LINE__, (x), (want))

static void test_f16_ties(void)
{
    begin("f16_round_nearest_even_ties");
    EXPECT_ROUND(1.0 + ldexp(1, -11), 0x3c00);      /* tie: down to even 0x3c00 */
    EXPECT_ROUND(1.0 + 3 * ldexp(1, -11), 0x3c02);  /* tie: up to even 0x3c02   */
    EXPECT_ROUND(1.0 + 5 * ldexp(1, -11), 0x3c02);  /* tie: down to even 0x3c02 */
    EXPECT_ROUND(1.0 + ldexp(1, -11) + ldexp(1, -20), 0x3c01); /* just above the tie */
    EXPECT_ROUND(1.0 + ldexp(1, -11) - ldexp(1, -20), 0x3c00); /* just below the tie */
    EXPECT_ROUND(-(1.0 + 3 * ldexp(1, -11)), 0xbc02);
    EXPECT_ROUND(2048.0 + 1.0, 0x6800);             /* 2049: tie between 2048 and 2050 */
    EXPECT_ROUND(2048.0 + 3.0, 0x6802);             /* 2051 -> 2052 */
    EXPECT_ROUND(2.0 - ldexp(1, -11), 0x4000);      /* tie 0x3fff/0x4000: to even, carries into the exponent */
    EXPECT_ROUND(0.1, 0x2e66);
    EXPECT_ROUND(1.0 / 3.0, 0x3555);
    /* one rounding from double: 1 + 2^-11 + 2^-40 is above the tie, though a
     * float would round it to the tie first */
    f16 h = f16_from_double(1.0 + ldexp(1, -11) + ldexp(1, -40));
    EXPECT(h == 0x3c01, "f16_from_double(1 + 2^-11 + 2^-40) = 0x%04x, want 0x3c01 (double rounding)", h);
    end();
}

static void test_f16_overflow(void)
{
    begin("f16_overflow");
    EXPECT_ROUND(65504.0, 0x7bff);
    EXPECT_ROUND(65519.0, 0x7bff);
    EXPECT_ROUND(65519.99, 0x7bff);
    EXPECT_ROUND(65520.0, 0x7c00); /* half an ulp above the largest: tie to even = inf */
    EXPECT_ROUND(-65520.0, 0xfc00);
    EXPECT_ROUND(65536.0, 0x7c00);
    EXPECT_ROUND(1e10, 0x7c00);
    EXPECT_ROUND(1e300, 0x7c00);
    EXPECT_ROUND(-1e300, 0xfc00);
    EXPECT(f16_from_double(INFINITY) == 0x7c00, "+inf -> 0x%04x", f16_from_double(INFINITY));
    EXPECT(f16_from_double(-INFINITY) == 0xfc00, "-inf -> 0x%04x", f16_from_double(-INFINITY));
    end();
}

static void test_f16_subnormals(void)
{
    begin("f16_subnormals");
    EXPECT_ROUND(ldexp(1, -24), 0x0001);
    EXPECT_ROUND(ldexp(1, -25), 0x0000);          /* tie between 0 and 2^-24: to even 0 */
    EXPECT_ROUND(3 * ldexp(1, -25), 0x0002);      /* tie between 1 and 2 units: to 2 */
    EXPECT_ROUND(5 * ldexp(1, -25), 0x0002);      /* tie between 2 and 3 units: to 2 */
    EXPECT_ROUND(ldexp(1, -25) + ldexp(1, -40), 0x0001);
    EXPECT_ROUND(ldexp(1, -26), 0x0000);
    EXPECT_ROUND(-ldexp(1, -24), 0x8001);
    EXPECT_ROUND(-ldexp(1, -25), 0x8000);         /* rounds to -0, keeps the sign */
    EXPECT_ROUND(ldexp(1023, -24), 0x03ff);       /* largest subnormal */
    EXPECT_ROUND(ldexp(1, -14), 0x0400);          /* smallest normal */
    EXPECT_ROUND(ldexp(1, -14) - ldexp(1, -25), 0x0400); /* tie 0x3ff/0x400: to even 0x400 */
    EXPECT_ROUND(ldexp(1, -14) - 3 * ldexp(1, -25), 0x03fe); /* tie 0x3fe/0x3ff: to even */
    EXPECT_ROUND(1e-30, 0x0000);
    end();
}

static void test_f16_signed_zero(void)
{
    begin("f16_negative_zero");
    EXPECT(f16_from_double(-0.0) == 0x8000, "-0.0 -> 0x%04x, want 0x8000", f16_from_double(-0.0));
    EXPECT(f16_from_double(-0.0) == 0x8000, "-0.0 -> 0x%04x, want 0x8000", f16_from_double(-0.0));
    EXPECT(f16_from_double(0.0) == 0x0000, "+0.0 -> 0x%04x", f16_from_double(0.0));
    float z = f16_to_float(0x8000);
    EXPECT(z == 0.0f && signbit(z), "0x8000 -> %g (signbit %d), want -0", z, signbit(z) != 0);
    z = f16_to_float(0x0000);
    EXPECT(z == 0.0f && !signbit(z), "0x0000 -> %g with sign bit set", z);
    end();
}

static void test_f16_isnan(void)
{
    begin("f16_isnan");
    const f16 nans[] = {0x7c01, 0x7e00, 0x7fff, 0xfc01, 0xfe00, 0xffff, 0x7d00};
    const f16 nums[] = {0x7c00, 0xfc00, 0x7bff, 0xfbff, 0x0000, 0x8000, 0x3c00, 0x03ff, 0x0001};
    for (size_t i = 0; i < sizeof nans / sizeof nans[0]; i++)
        EXPECT(f16_isnan(nans[i]), "f16_isnan(0x%04x) is 0", nans[i]);
    for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++)
        EXPECT(!f16_isnan(nums[i]), "f16_isnan(0x%04x) is non-zero", nums[i]);
    int count = 0;
    for (unsigned h = 0; h <= 0xffffu; h++) count += f16_isnan((f16)h) != 0;
    EXPECT_EQ_U(count, 2 * 1023, "number of NaN patterns");
    EXPECT(f16_isnan(f16_from_double(NAN)), "f16_from_double(NAN) = 0x%04x, not a NaN",
           f16_from_double(NAN));
    EXPECT(f16_isnan(f16_from_double(-NAN)), "f16_from_double(-NAN) is not a NaN");
    EXPECT(isnan(f16_to_float(0x7e00)) && isnan(f16_to_float(0xffff)),
           "f16_to_float of a NaN pattern is not NaN");
    end();
}

/* ---- cli_parse ---------------------------------------------------------- */

#define MAX_ARGS 16

/* cli_parse on {"vtest", args..., NULL}; err starts non-empty on purpose. */
static int parse_args(options *o, char *err, size_t errlen, int n, const char *const *args)
{
    char *argv[MAX_ARGS + 2];
    argv[0] = (char *)"vtest";
    for (int i = 0; i < n; i++) argv[i + 1] = (char *)args[i];
    argv[n + 1] = NULL;
    snprintf(err, errlen, "%s", "");
    memset(o, 0xA5, sizeof *o); /* garbage: cli_parse must set every field */
    return cli_parse(n + 1, argv, o, err, errlen);
}

#define ARGS(...) ((const char *const[]){__VA_ARGS__})
#define NARGS(...) ((int)(sizeof(ARGS(__VA_ARGS__)) / sizeof(const char *)))

/* Expects -1 and a message holding each of the (up to two) key words. */
static void expect_cli_error(const char *name, int n, const char *const *args, const char *key1,
                             const char *key2)
{
    begin(name);
    options o;
    char err[256];
    int rc = parse_args(&o, err, sizeof err, n, args);
    EXPECT(rc == -1, "cli_parse returned %d, want -1 (err '%s')", rc, err);
    EXPECT(err[0] != '\0', "empty error message");
    EXPECT(strchr(err, '\n') == NULL, "error message is not one line: '%s'", err);
    EXPECT(!key1 || strstr(err, key1), "message '%s' does not mention '%s'", err, key1);
    EXPECT(!key2 || strstr(err, key2), "message '%s' does not mention '%s'", err, key2);
    end();
}
#define CLI_ERROR(name, key1, key2, ...) \
    expect_cli_error(name, NARGS(__VA_ARGS__), ARGS(__VA_ARGS__), key1, key2)

static void test_cli_defaults(void)
{
    begin("cli_defaults");
    options o;
    char err[256];
    int rc = parse_args(&o, err, sizeof err, 0, NULL);
    EXPECT(rc == 0, "cli_parse() returned %d (%s)", rc, err);
    EXPECT(o.M == 8192 && o.N == 8192 && o.K == 8192, "sizes %d %d %d, want 8192^3", o.M, o.N, o.K);
    EXPECT(o.reps == 30, "reps %d, want 30", o.reps);
    EXPECT(o.warmup == 5, "warmup %d, want 5", o.warmup);
    EXPECT(o.check == CHECK_BOTH, "check %d, want CHECK_BOTH", (int)o.check);
    EXPECT(o.baseline == BASELINE_BOTH, "baseline %d, want BASELINE_BOTH", (int)o.baseline);
    EXPECT(o.time_limit == 0, "time_limit %g, want 0 (from the problem size)", o.time_limit);
    EXPECT(o.seed == 1, "seed %llu, want 1", (unsigned long long)o.seed);
    EXPECT(o.csv == NULL, "csv not NULL");
    EXPECT(o.energy, "energy off, want on");
    EXPECT(!o.help, "help set");
    end();
}

static void test_cli_sizes(void)
{
    begin("cli_three_sizes");
    options o;
    char err[256];
    int rc = parse_args(&o, err, sizeof err, NARGS("7", "13", "2147483640"),
                        ARGS("7", "13", "2147483640"));
    EXPECT(rc == 0, "returned %d (%s)", rc, err);
    EXPECT(o.M == 7 && o.N == 13 && o.K == MAX_SIZE, "sizes %d %d %d, want 7 13 %d", o.M, o.N,
           o.K, MAX_SIZE);
    EXPECT(o.reps == 30 && o.warmup == 5 && o.check == CHECK_BOTH && o.seed == 1 && !o.csv &&
               !o.help,
           "options other than the sizes changed");
    /* sizes and options interleaved */
    rc = parse_args(&o, err, sizeof err, NARGS("--reps", "3", "10", "20", "--seed", "9", "30"),
                    ARGS("--reps", "3", "10", "20", "--seed", "9", "30"));
    EXPECT(rc == 0, "interleaved: returned %d (%s)", rc, err);
    EXPECT(o.M == 10 && o.N == 20 && o.K == 30 && o.reps == 3 && o.seed == 9,
           "interleaved: got %d %d %d reps %d seed %llu", o.M, o.N, o.K, o.reps,
           (unsigned long long)o.seed);
    end();
}

static void test_cli_errors(void)
{
    CLI_ERROR("cli_error_one_size", "three sizes", "got 1", "8");
    CLI_ERROR("cli_error_two_sizes", "three sizes", "got 2", "8", "8");
    CLI_ERROR("cli_error_four_sizes", "too many", "'4'", "1", "2", "3", "4");
    CLI_ERROR("cli_error_non_numeric_abc", "M", "'abc'", "abc", "1", "1");
    CLI_ERROR("cli_error_non_numeric_12x", "N", "'12x'", "1", "12x", "1");
    CLI_ERROR("cli_error_non_numeric_1.5", "K", "'1.5'", "1", "1", "1.5");
    CLI_ERROR("cli_error_empty_size", "M", "whole number", "", "1", "1");
    CLI_ERROR("cli_error_zero", "M", "at least 1", "0", "1", "1");
    CLI_ERROR("cli_error_negative", "N", "at least 1", "1", "-3", "1");
    CLI_ERROR("cli_error_too_large_int", "K", "too large", "1", "1", "2147483648");
    /* K or N just under INT_MAX would overflow when rounded up to a multiple of 8. */
    CLI_ERROR("cli_error_too_large_for_padding", "N", "too large", "1", "2147483641", "8");
    CLI_ERROR("cli_error_huge_negative", "K", "at least 1", "1", "1", "-99999999999999999999");
    CLI_ERROR("cli_error_too_large_overflow", "M", "too large", "99999999999999999999", "1", "1");
    CLI_ERROR("cli_error_unknown_option", "unknown option", "--foo", "--foo");
    CLI_ERROR("cli_error_unknown_option_after_sizes", "unknown option", "--foo", "8", "8", "8",
              "--foo");
    CLI_ERROR("cli_error_check_bad_value", "--check", "maybe", "--check", "maybe");
    CLI_ERROR("cli_error_check_missing_value", "--check", NULL, "--check");
    CLI_ERROR("cli_error_baseline_bad_value", "--baseline", "maybe", "--baseline", "maybe");
    CLI_ERROR("cli_error_baseline_missing_value", "--baseline", NULL, "8", "8", "8", "--baseline");
    CLI_ERROR("cli_error_time_limit_zero", "--time-limit", NULL, "--time-limit", "0");
    CLI_ERROR("cli_error_time_limit_fraction", "--time-limit", NULL, "--time-limit", "1.5");
    CLI_ERROR("cli_error_time_limit_missing", "--time-limit", NULL, "--time-limit");
    CLI_ERROR("cli_error_reps_non_numeric", "--reps", NULL, "--reps", "abc");
    CLI_ERROR("cli_error_reps_negative", "--reps", NULL, "--reps", "-1");
    CLI_ERROR("cli_error_reps_missing", "--reps", NULL, "--reps");
    CLI_ERROR("cli_error_warmup_missing", "--warmup", NULL, "8", "8", "8", "--warmup");
    CLI_ERROR("cli_error_seed_negative", "--seed", NULL, "--seed", "-2");
    CLI_ERROR("cli_error_csv_missing", "--csv", NULL, "--csv");
    CLI_ERROR("cli_error_energy_bad_value", "--energy", "maybe", "--energy", "maybe");
    CLI_ERROR("cli_error_energy_missing", "--energy", NULL, "8", "8", "8", "--energy");
    CLI_ERROR("cli_error_csv_empty", "--csv", NULL, "8", "8", "8", "--csv", "");
}

static void test_cli_options(void)
{
    begin("cli_valid_options");
    options o;
    char err[256];
    static const struct { const char *arg; check_mode mode; } modes[] = {
        {"exact", CHECK_EXACT}, {"random", CHECK_RANDOM}, {"none", CHECK_NONE}, {"both", CHECK_BOTH}};
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
        int rc = parse_args(&o, err, sizeof err, 2, ARGS("--check", modes[i].arg));
        EXPECT(rc == 0 && o.check == modes[i].mode, "--check %s: rc %d, check %d, want %d",
               modes[i].arg, rc, (int)o.check, (int)modes[i].mode);
    }
    static const struct { const char *arg; baseline_mode mode; } bases[] = {
        {"default", BASELINE_DEFAULT}, {"best", BASELINE_BEST}, {"both", BASELINE_BOTH},
        {"none", BASELINE_NONE}};
    for (size_t i = 0; i < sizeof bases / sizeof bases[0]; i++) {
        int rc = parse_args(&o, err, sizeof err, 2, ARGS("--baseline", bases[i].arg));
        EXPECT(rc == 0 && o.baseline == bases[i].mode, "--baseline %s: rc %d, baseline %d, want %d",
               bases[i].arg, rc, (int)o.baseline, (int)bases[i].mode);
        EXPECT(o.check == CHECK_BOTH, "--baseline %s changed check to %d", bases[i].arg, (int)o.check);
    }
    int rc = parse_args(&o, err, sizeof err, 2, ARGS("--energy", "off"));
    EXPECT(rc == 0 && !o.energy, "--energy off: rc %d energy %d", rc, (int)o.energy);
    rc = parse_args(&o, err, sizeof err, 2, ARGS("--energy", "on"));
    EXPECT(rc == 0 && o.energy, "--energy on: rc %d energy %d", rc, (int)o.energy);
    rc = parse_args(&o, err, sizeof err, 2, ARGS("--time-limit", "7"));
    EXPECT(rc == 0 && o.time_limit == 7.0, "--time-limit 7: rc %d time_limit %g", rc, o.time_limit);
    rc = parse_args(&o, err, sizeof err, 2, ARGS("--reps", "0"));
    EXPECT(rc == 0 && o.reps == 0, "--reps 0: rc %d reps %d", rc, o.reps);
    EXPECT(o.warmup == 5, "--reps changed warmup to %d", o.warmup);
    rc = parse_args(&o, err, sizeof err, 2, ARGS("--warmup", "0"));
    EXPECT(rc == 0 && o.warmup == 0 && o.reps == 30, "--warmup 0: rc %d warmup %d reps %d", rc,
           o.warmup, o.reps);
    rc = parse_args(&o, err, sizeof err, 2, ARGS("--seed", "42"));
    EXPECT(rc == 0 && o.seed == 42, "--seed 42: rc %d seed %llu", rc, (unsigned long long)o.seed);
    rc = parse_args(&o, err, sizeof err, 2, ARGS("--csv", "f.csv"));
    EXPECT(rc == 0 && o.csv && !strcmp(o.csv, "f.csv"), "--csv f.csv: rc %d csv %s", rc,
           o.csv ? o.csv : "(null)");
    rc = parse_args(&o, err, sizeof err, 1, ARGS("--help"));
    EXPECT(rc == 0 && o.help, "--help: rc %d help %d", rc, (int)o.help);
    rc = parse_args(&o, err, sizeof err, 1, ARGS("-h"));
    EXPECT(rc == 0 && o.help, "-h: rc %d help %d", rc, (int)o.help);
    rc = parse_args(&o, err, sizeof err, 0, NULL);
    EXPECT(rc == 0 && !o.help, "no --help but help set");
    end();
}

/* ---- stage_plan_make ---------------------------------------------------- */

#define AL ((const void *)0x1000)

static void test_stage_plan(void)
{
    stage_plan p;

    begin("stage_plan_aligned_nothing_staged");
    p = stage_plan_make(AL, AL, AL, 64, 128, 256, 0);
    EXPECT(!p.stage_a && !p.stage_b && !p.stage_c, "staged %d %d %d", p.stage_a, p.stage_b,
           p.stage_c);
    EXPECT_EQ_U(p.kp, 256, "kp");
    EXPECT_EQ_U(p.ldc, 128, "ldc");
    EXPECT(p.bytes_a == 0 && p.bytes_b == 0 && p.bytes_c == 0, "bytes %zu %zu %zu", p.bytes_a,
           p.bytes_b, p.bytes_c);
    end();

    begin("stage_plan_k5_stages_a_and_b");
    p = stage_plan_make(AL, AL, AL, 10, 24, 5, 0);
    EXPECT(p.stage_a && p.stage_b && !p.stage_c, "staged %d %d %d, want 1 1 0", p.stage_a,
           p.stage_b, p.stage_c);
    EXPECT_EQ_U(p.kp, 8, "kp");
    EXPECT_EQ_U(p.ldc, 24, "ldc");
    EXPECT_EQ_U(p.bytes_a, 10 * 8 * 2, "bytes_a");
    EXPECT_EQ_U(p.bytes_b, 24 * 8 * 2, "bytes_b");
    EXPECT_EQ_U(p.bytes_c, 0, "bytes_c");
    EXPECT(!p.wide_a && !p.wide_b, "K = 5: rows of 10 bytes, copied value by value (wide %d %d)",
           p.wide_a, p.wide_b);
    end();

    begin("stage_plan_n13_stages_c");
    p = stage_plan_make(AL, AL, AL, 10, 13, 64, 0);
    EXPECT(!p.stage_a && !p.stage_b && p.stage_c, "staged %d %d %d, want 0 0 1", p.stage_a,
           p.stage_b, p.stage_c);
    EXPECT_EQ_U(p.kp, 64, "kp");
    EXPECT_EQ_U(p.ldc, 16, "ldc");
    EXPECT_EQ_U(p.bytes_c, 10 * 16 * 2, "bytes_c");
    EXPECT(p.bytes_a == 0 && p.bytes_b == 0, "bytes_a %zu bytes_b %zu", p.bytes_a, p.bytes_b);
    end();

    begin("stage_plan_misaligned_pointers");
    p = stage_plan_make((const void *)0x1002, AL, AL, 16, 16, 16, 0);
    EXPECT(p.stage_a && !p.stage_b && !p.stage_c, "A at 0x1002: staged %d %d %d, want 1 0 0",
           p.stage_a, p.stage_b, p.stage_c);
    EXPECT_EQ_U(p.kp, 16, "kp");
    EXPECT_EQ_U(p.bytes_a, 16 * 16 * 2, "bytes_a");
    EXPECT(p.bytes_b == 0 && p.bytes_c == 0, "bytes_b %zu bytes_c %zu", p.bytes_b, p.bytes_c);
    EXPECT(!p.wide_a && !p.wide_b, "A at 0x1002: copied value by value (wide %d %d)", p.wide_a,
           p.wide_b);
    p = stage_plan_make(AL, (const void *)0x1008, AL, 16, 16, 16, 0);
    EXPECT(!p.stage_a && p.stage_b && !p.stage_c, "B at 0x1008: staged %d %d %d, want 0 1 0",
           p.stage_a, p.stage_b, p.stage_c);
    p = stage_plan_make(AL, AL, (const void *)0x100e, 16, 16, 16, 0);
    EXPECT(!p.stage_a && !p.stage_b && p.stage_c, "C at 0x100e: staged %d %d %d, want 0 0 1",
           p.stage_a, p.stage_b, p.stage_c);
    EXPECT_EQ_U(p.ldc, 16, "ldc (C misaligned, N aligned)");
    EXPECT_EQ_U(p.bytes_c, 16 * 16 * 2, "bytes_c");
    end();

    begin("stage_plan_1x1x1");
    p = stage_plan_make(AL, AL, AL, 1, 1, 1, 0);
    EXPECT(p.stage_a && p.stage_b && p.stage_c, "staged %d %d %d, want 1 1 1", p.stage_a,
           p.stage_b, p.stage_c);
    EXPECT_EQ_U(p.kp, 8, "kp");
    EXPECT_EQ_U(p.ldc, 8, "ldc");
    EXPECT(p.bytes_a == 16 && p.bytes_b == 16 && p.bytes_c == 16, "bytes %zu %zu %zu, want 16",
           p.bytes_a, p.bytes_b, p.bytes_c);
    end();

    /* The row-pitch rule (matmul.h): K % 16 == 8 copies A and B to a 128-byte
     * pitch only where the copy costs less than the step's measured loss. */
    begin("stage_for_pitch_rule");
    EXPECT(!stage_for_pitch(4096, 4096, 4096, 0.43), "K %% 16 == 0: nothing to gain");
    EXPECT(!stage_for_pitch(4096, 4096, 4112, 0.43), "K %% 16 == 0 (32-byte rows): nothing to gain");
    EXPECT(!stage_for_pitch(4096, 4096, 4104, 0), "loss 0: never");
    /* v4 (32%): 2 (M + N) 250 = 4.1e6 < 0.32 M N = 5.4e6 at 4096^2; not at 1024^2. */
    EXPECT(stage_for_pitch(4096, 4096, 4104, 0.32), "v4 at 4096 x 4096 x 4104");
    EXPECT(!stage_for_pitch(1024, 1024, 1032, 0.32), "v4 at 1024 x 1024 x 1032");
    EXPECT(stage_for_pitch(3072, 5120, 7160, 0.32), "v4 at 3072 x 5120 x 7160");
    /* A step losing 14%: not at 4096^2 (4.1e6 > 2.3e6), yes at 16384^2. */
    EXPECT(!stage_for_pitch(4096, 4096, 4104, 0.14), "14%% at 4096 x 4096 x 4104");
    EXPECT(stage_for_pitch(16384, 16384, 16392, 0.14), "14%% at 16384 x 16384 x 16392");
    /* Skinny: the copy of the long operand never pays. */
    EXPECT(!stage_for_pitch(16, 8192, 8200, 0.43), "16 x 8192 x 8200");
    EXPECT(!stage_for_pitch(512, 512, 8, 0.43), "K = 8: 9x the bytes to move, 512^2");
    EXPECT(stage_for_pitch(8192, 8192, 8, 0.43), "K = 8 at 8192^2");
    end();
    begin("stage_plan_for_pitch");
    p = stage_plan_make(AL, AL, AL, 4096, 4096, 4104, 0.43);
    EXPECT(p.for_pitch && p.stage_a && p.stage_b && !p.stage_c, "staged %d %d %d for_pitch %d",
           p.stage_a, p.stage_b, p.stage_c, p.for_pitch);
    EXPECT_EQ_U(p.kp, 4160, "kp (128-byte rows)");
    EXPECT_EQ_U(p.bytes_a, 4096ull * 4160 * 2, "bytes_a");
    EXPECT(p.wide_a && p.wide_b, "K = 4104, aligned: copied in 16-byte loads (wide %d %d)", p.wide_a,
           p.wide_b);
    p = stage_plan_make((const void *)0x1002, AL, AL, 4096, 4096, 4104, 0.43);
    EXPECT(p.for_pitch && !p.wide_a && p.wide_b, "A at 0x1002: wide %d %d, want 0 1", p.wide_a, p.wide_b);
    p = stage_plan_make(AL, AL, AL, 4096, 4096, 4100, 0.43); /* K % 8 != 0 as well */
    EXPECT(p.for_pitch && p.kp == 4160, "K = 4100: for_pitch %d kp %d", p.for_pitch, p.kp);
    EXPECT(!p.wide_a && !p.wide_b, "K = 4100: wide %d %d, want 0 0", p.wide_a, p.wide_b);
    p = stage_plan_make(AL, AL, AL, 4096, 4096, 4104, 0.14);
    EXPECT(!p.for_pitch && !p.stage_a && !p.stage_b && p.kp == 4104, "14%% at 4096^2: staged");
    EXPECT(!p.wide_a && !p.wide_b, "not staged: wide %d %d", p.wide_a, p.wide_b);
    p = stage_plan_make(AL, AL, AL, 1024, 1024, 1020, 0.43); /* staged for K % 8, not the pitch */
    EXPECT(!p.for_pitch && p.stage_a && p.kp == 1024, "K = 1020: for_pitch %d kp %d", p.for_pitch, p.kp);
    end();

    begin("stage_plan_large_64bit_sizes");
    p = stage_plan_make(AL, AL, AL, 100000, 7, 100001, 0);
    EXPECT(p.stage_a && p.stage_b && p.stage_c, "staged %d %d %d", p.stage_a, p.stage_b,
           p.stage_c);
    EXPECT_EQ_U(p.kp, 100008, "kp");
    EXPECT_EQ_U(p.ldc, 8, "ldc");
    EXPECT_EQ_U(p.bytes_a, 100000ull * 100008 * 2, "bytes_a");
    EXPECT_EQ_U(p.bytes_b, 7ull * 100008 * 2, "bytes_b");
    EXPECT_EQ_U(p.bytes_c, 100000ull * 8 * 2, "bytes_c");
    end();
}

/* ---- tmap_desc ---------------------------------------------------------- */

/* A tensor map the driver would refuse, and the word its reason must name. */
typedef struct {
    const char *name;
    const void *base;
    int rows, cols, ld, box_rows, box_cols;
    CUtensorMapSwizzle sw;
    const char *key;
} tmap_reject_case;

static void expect_tmap_reject(const tmap_reject_case *c)
{
    begin(c->name);
    tmap_desc d = tmap_desc_make(c->base, c->rows, c->cols, c->ld, c->box_rows, c->box_cols, c->sw);
    const char *why = tmap_desc_check(&d);
    EXPECT(why != NULL, "accepted");
    EXPECT(!why || why[0] != '\0', "empty reason");
    EXPECT(!why || strstr(why, c->key), "reason '%s' does not mention '%s'", why ? why : "",
           c->key);
    end();
}

static void test_tmap(void)
{
    begin("tmap_desc_8192_128x64_swizzle128");
    tmap_desc d = tmap_desc_make(AL, 8192, 8192, 8192, 128, 64, CU_TENSOR_MAP_SWIZZLE_128B);
    EXPECT(d.base == AL, "base %p", d.base);
    EXPECT(d.dim[0] == 8192 && d.dim[1] == 8192, "dim %llu %llu", (unsigned long long)d.dim[0],
           (unsigned long long)d.dim[1]);
    EXPECT_EQ_U(d.stride_row, 8192 * 2, "stride_row");
    EXPECT(d.box[0] == 64 && d.box[1] == 128, "box {%u, %u}, want {64, 128}", d.box[0], d.box[1]);
    EXPECT(d.swizzle == CU_TENSOR_MAP_SWIZZLE_128B, "swizzle %d", (int)d.swizzle);
    const char *why = tmap_desc_check(&d);
    EXPECT(why == NULL, "rejected: %s", why);
    end();

    /* L2 promotion by row pitch: 256 bytes on 32-byte-aligned rows, 128 where
     * every other row starts 16 bytes into a sector (K % 16 == 8). */
    begin("tmap_desc_l2_promotion_by_pitch");
    static const struct { int ld; CUtensorMapL2promotion want; } pr[] = {
        {8192, CU_TENSOR_MAP_L2_PROMOTION_L2_256B}, {4112, CU_TENSOR_MAP_L2_PROMOTION_L2_256B},
        {4104, CU_TENSOR_MAP_L2_PROMOTION_L2_128B}, {7160, CU_TENSOR_MAP_L2_PROMOTION_L2_128B},
        {8, CU_TENSOR_MAP_L2_PROMOTION_L2_128B},    {16, CU_TENSOR_MAP_L2_PROMOTION_L2_256B},
    };
    for (size_t i = 0; i < sizeof pr / sizeof pr[0]; i++) {
        d = tmap_desc_make(AL, 64, pr[i].ld, pr[i].ld, 64, 8, CU_TENSOR_MAP_SWIZZLE_NONE);
        EXPECT(d.promotion == pr[i].want, "ld %d: promotion %d, want %d", pr[i].ld, (int)d.promotion,
               (int)pr[i].want);
        /* v7's rule: the pitch's promotion only where the plan streams from DRAM */
        EXPECT(tmap_promotion_streamed(d.stride_row, 1) == pr[i].want, "ld %d, streamed: promotion %d, want %d",
               pr[i].ld, (int)tmap_promotion_streamed(d.stride_row, 1), (int)pr[i].want);
        EXPECT(tmap_promotion_streamed(d.stride_row, 0) == CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
               "ld %d, not streamed: promotion %d, want 128B", pr[i].ld, (int)tmap_promotion_streamed(d.stride_row, 0));
    }
    end();

    begin("tmap_desc_non_square_order");
    d = tmap_desc_make(AL, 300, 200, 208, 64, 32, CU_TENSOR_MAP_SWIZZLE_64B);
    EXPECT(d.dim[0] == 200 && d.dim[1] == 300, "dim {%llu, %llu}, want {cols 200, rows 300}",
           (unsigned long long)d.dim[0], (unsigned long long)d.dim[1]);
    EXPECT_EQ_U(d.stride_row, 208 * 2, "stride_row");
    EXPECT(d.box[0] == 32 && d.box[1] == 64, "box {%u, %u}, want {32, 64}", d.box[0], d.box[1]);
    why = tmap_desc_check(&d);
    EXPECT(why == NULL, "rejected: %s", why);
    /* 256-byte box rows are fine without swizzle, as is the largest box */
    d = tmap_desc_make(AL, 1000, 1000, 1000, 256, 128, CU_TENSOR_MAP_SWIZZLE_NONE);
    why = tmap_desc_check(&d);
    EXPECT(why == NULL, "256x128 box, no swizzle, rejected: %s", why);
    /* large: stride of 2^31 bytes, rows 2^20 */
    d = tmap_desc_make(AL, 1 << 20, 64, 1 << 30, 64, 64, CU_TENSOR_MAP_SWIZZLE_128B);
    EXPECT_EQ_U(d.stride_row, 1ull << 31, "stride_row of ld 2^30 (64-bit)");
    why = tmap_desc_check(&d);
    EXPECT(why == NULL, "ld 2^30 rejected: %s", why);
    end();

    const CUtensorMapSwizzle SWNONE = CU_TENSOR_MAP_SWIZZLE_NONE, SW64 = CU_TENSOR_MAP_SWIZZLE_64B,
                             SW128 = CU_TENSOR_MAP_SWIZZLE_128B;
    /*  name, base, rows, cols, ld, box_rows, box_cols, swizzle, word in the reason */
    const tmap_reject_case reject[] = {
        {"tmap_reject_misaligned_base", (const void *)0x1008, 64, 64, 64, 64, 64, SW128, "align"},
        {"tmap_reject_row_stride_not_16B", AL, 64, 5, 5, 64, 8, SWNONE, "stride"},
        {"tmap_reject_box_wider_than_swizzle", AL, 256, 256, 256, 64, 128, SW128, "swizzle"},
        {"tmap_reject_box_wider_than_swizzle_64B", AL, 256, 256, 256, 64, 64, SW64, "swizzle"},
        {"tmap_reject_box_rows_over_256", AL, 1024, 1024, 1024, 257, 64, SW128, "box"},
        {"tmap_reject_box_cols_over_256", AL, 1024, 1024, 1024, 64, 264, SWNONE, "box"},
        {"tmap_reject_box_row_under_16B", AL, 64, 64, 64, 64, 4, SWNONE, "16"},
        {"tmap_reject_ld_shorter_than_row", AL, 64, 128, 64, 64, 64, SW128, "shorter"},
        {"tmap_reject_zero_rows", AL, 0, 64, 64, 64, 64, SW128, "zero"},
        {"tmap_reject_zero_cols", AL, 64, 0, 64, 64, 64, SW128, "zero"},
        {"tmap_reject_zero_box", AL, 64, 64, 64, 0, 64, SW128, "box"},
    };
    for (size_t i = 0; i < sizeof reject / sizeof reject[0]; i++)
        expect_tmap_reject(&reject[i]);
}

/* ---- tile_order.h: fast_divmod and the swizzled tile order ------------- */

static bool divmod_ok(uint32_t d, uint32_t n, uint32_t *q, uint32_t *r)
{
    fast_divmod f = fast_divmod_make(d);
    fast_divmod_do(f, n, q, r);
    return *q == n / d && *r == n % d;
}

static void test_fast_divmod(void)
{
    begin("fast_divmod");
    uint32_t q = 0, r = 0;
    const uint32_t big[] = {3, 5, 6, 7, 11, 127, 129, 641, 1000, 6700417, 65535, 65537,
                            (1u << 30) - 1, (1u << 30) + 1, (1u << 31) - 1, 1u << 30,
                            (1u << 16) + 3, 2147483629u /* a prime near 2^31 */};
    uint64_t s = 12345;
    /* every d up to 4100 against many n, then large d */
    for (uint32_t d = 1; d <= 4100 && !cur_failed; d++) {
        const uint32_t ns[] = {0, 1, d - 1, d, d + 1, 2 * d - 1, 2 * d, 12345, 0x7fffffffu,
                               0x7ffffffeu, 0x7fffffffu - d, (0x7fffffffu / d) * d,
                               (0x7fffffffu / d) * d - 1};
        for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
            if (!divmod_ok(d, ns[i], &q, &r))
                failf(__LINE__, "%u / %u: got q %u r %u, want %u %u", ns[i], d, q, r, ns[i] / d,
                      ns[i] % d);
        for (int i = 0; i < 200; i++) {
            uint32_t n = (uint32_t)(rng_next(&s) >> 33); /* < 2^31 */
            if (!divmod_ok(d, n, &q, &r))
                failf(__LINE__, "%u / %u: got q %u r %u, want %u %u", n, d, q, r, n / d, n % d);
        }
    }
    for (size_t k = 0; k < sizeof big / sizeof big[0]; k++) {
        const uint32_t d = big[k];
        for (int i = 0; i < 20000; i++) {
            uint32_t n = i < 4 ? 0x7fffffffu - (uint32_t)i : (uint32_t)(rng_next(&s) >> 33);
            if (i >= 4 && i < 8) n = d * (0x7fffffffu / d) - (uint32_t)(i - 5); /* around a multiple */
            if (!divmod_ok(d, n, &q, &r)) {
                failf(__LINE__, "%u / %u: got q %u r %u, want %u %u", n, d, q, r, n / d, n % d);
                break;
            }
        }
    }
    end();
}

/* Checks tile_map_coord over the whole grid: a bijection onto
 * [0, m_blocks) x [0, n_blocks) in the documented order. */
static void check_tile_map(int mb, int nb, int sw)
{
    tile_map t = tile_map_make(mb, nb, sw);
    const int w = sw < nb ? sw : nb; /* effective group width */
    unsigned char *seen = calloc((size_t)mb * (size_t)nb, 1);
    if (!seen) {
        failf(__LINE__, "out of memory");
        return;
    }
    int linear = 0;
    /* Expected order: groups of w columns left to right; inside a group, row-major. */
    for (int g0 = 0; g0 < nb && !cur_failed; g0 += w) {
        const int gw = nb - g0 < w ? nb - g0 : w;
        for (int m = 0; m < mb && !cur_failed; m++)
            for (int c = 0; c < gw; c++, linear++) {
                int om = -1, on = -1;
                tile_map_coord(&t, linear, &om, &on);
                if (om != m || on != g0 + c) {
                    failf(__LINE__, "grid %dx%d swizzle %d: tile %d -> (%d, %d), want (%d, %d)",
                          mb, nb, sw, linear, om, on, m, g0 + c);
                    break;
                }
                if (om >= 0 && om < mb && on >= 0 && on < nb) {
                    if (seen[(size_t)om * (size_t)nb + (size_t)on]++)
                        failf(__LINE__, "grid %dx%d swizzle %d: (%d, %d) twice", mb, nb, sw, om, on);
                }
            }
    }
    if (!cur_failed && linear != mb * nb)
        failf(__LINE__, "grid %dx%d: visited %d tiles", mb, nb, linear);
    free(seen);
}

static void test_tile_map(void)
{
    begin("tile_map_order");
    static const int cases[][3] = {
        {1, 1, 1}, {1, 1, 8}, {5, 7, 1}, {5, 7, 2}, {5, 7, 3}, {5, 7, 7}, {5, 7, 8}, {5, 7, 100},
        {16, 16, 4}, {17, 33, 8}, {64, 64, 8}, {1, 100, 8}, {100, 1, 8}, {33, 129, 16},
        {132, 66, 8}, {3, 1000, 7}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0] && !cur_failed; i++)
        check_tile_map(cases[i][0], cases[i][1], cases[i][2]);
    tile_map t = tile_map_make(5, 7, 100);
    EXPECT(t.swizzle == 7, "swizzle 100 on 7 columns kept as %d, want 7", t.swizzle);
    end();

    begin("tile_map_large_grid");
    /* m_blocks * n_blocks just below 2^31: the last tiles land where they should */
    const int mb = 65536, nb = 32767, sw = 8;
    t = tile_map_make(mb, nb, sw);
    const int total = mb * nb; /* 2^31 - 2^16 */
    int m = -1, n = -1;
    tile_map_coord(&t, total - 1, &m, &n);
    EXPECT(m == mb - 1 && n == nb - 1, "last tile -> (%d, %d), want (%d, %d)", m, n, mb - 1, nb - 1);
    /* last group is 32767 % 8 = 7 wide and starts at column 32760 */
    const int last0 = (nb / sw) * sw * mb;
    tile_map_coord(&t, last0, &m, &n);
    EXPECT(m == 0 && n == 32760, "first tile of the last group -> (%d, %d), want (0, 32760)", m, n);
    tile_map_coord(&t, last0 + 7, &m, &n);
    EXPECT(m == 1 && n == 32760, "tile %d -> (%d, %d), want (1, 32760)", last0 + 7, m, n);
    tile_map_coord(&t, last0 - 1, &m, &n);
    EXPECT(m == mb - 1 && n == 32759, "last tile of a full group -> (%d, %d), want (%d, 32759)", m,
           n, mb - 1);
    tile_map_coord(&t, 8 * mb + 9, &m, &n);
    EXPECT(m == 1 && n == 9, "tile 8*mb+9 -> (%d, %d), want (1, 9)", m, n);
    end();
}

static void test_tile_order_width(void)
{
    begin("tile_order_width");
    const int64_t mb50 = 50LL << 20; /* the H100's and H200's L2 */
    /* B panels of 256 x K fp16 in half of the L2: 25 MB / (512 K) bytes */
    static const int64_t ks[] = {16384, 14336, 8192, 4096, 2048, 1024, 8};
    static const int want[] = {3, 3, 6, 12, 16, 16, 16};
    for (int i = 0; i < 7; i++) {
        int w = tile_order_width(ks[i], 256, mb50);
        EXPECT(w == want[i], "K=%lld: width %d, want %d", (long long)ks[i], w, want[i]);
    }
    EXPECT(tile_order_width(1 << 20, 256, mb50) == 1, "huge K: at least 1");
    EXPECT(tile_order_width((int64_t)INT_MAX, 256, mb50) == 1, "K = INT_MAX: at least 1, no overflow");
    EXPECT(tile_order_width(16384, 512, mb50) == 1, "B panels of 512 columns at K=16384: 1");
    EXPECT(tile_order_width(16384, 256, 40LL << 20) == 2, "a 40 MB L2 at K=16384: 2");
    /* the width never grows with K */
    int prev = 16;
    for (int64_t k = 1; k <= (1 << 22) && !cur_failed; k += k / 7 + 1) {
        int w = tile_order_width(k, 256, mb50);
        EXPECT(w >= 1 && w <= 16 && w <= prev, "K=%lld: width %d after %d", (long long)k, w, prev);
        prev = w;
    }
    end();
}

/* The persistent scheduler, simulated: `grid` CTAs, each starting on its own
 * unit and then claiming more in a pseudo-random interleaving (each claim is
 * one atomicAdd on the shared counter). Every unit must be worked on exactly
 * once, and every CTA must end on a -1. For clusters (pairs = cl, 2 for v6,
 * 2, 4 or 8 for v7), each unit is a cluster's group of cl tiles, which through
 * tile_map_group_coord (tile_map_pair_coord for 2) must cover the grid exactly
 * once (the tiles of the last group past an edge that cl does not divide
 * lying just past it); pairs = 0: single tiles. */
static void check_schedule(int mb, int nb, int sw, int grid, int pairs, int share_b,
                           uint64_t seed)
{
    const int both = share_b >= SK_SHARE_BOTH; /* R x S tiles a unit */
    const int br = both ? sk_both_rows(share_b, pairs) : 1, bs = both ? pairs / br : 1;
    const int umb = both ? (mb + br - 1) / br : pairs && share_b ? (mb + pairs - 1) / pairs : mb;
    const int unb = both ? (nb + bs - 1) / bs : pairs && !share_b ? (nb + pairs - 1) / pairs : nb;
    tile_map t = tile_map_make(umb, unb, sw);
    const int units = umb * unb;
    if (grid > units) grid = units; /* the launch never starts more CTAs than units */
    unsigned char *seen = calloc((size_t)mb * (size_t)nb, 1);
    int *cur = malloc(sizeof(int) * (size_t)grid);
    if (!seen || !cur) {
        failf(__LINE__, "out of memory");
        free(seen);
        free(cur);
        return;
    }
    for (int c = 0; c < grid; c++) cur[c] = c;
    int counter = 0, live = grid, extra = 0;
    uint64_t x = seed;
    while (live > 0 && !cur_failed) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        int c = (int)((x >> 33) % (uint64_t)grid);
        if (cur[c] < 0) continue;
        const int u = cur[c];
        EXPECT(u < units, "unit %d of %d handed out", u, units);
        for (int r = 0; r < (pairs ? pairs : 1) && !cur_failed; r++) {
            int m, n;
            if (pairs == 2) tile_map_pair_coord(&t, u, r, share_b, &m, &n);
            else if (pairs) tile_map_group_coord(&t, u, r, share_b, pairs, &m, &n);
            else tile_map_coord(&t, u, &m, &n);
            if (m >= mb || n >= nb) { /* a group's last tiles past an edge cl does not divide */
                EXPECT(pairs && (both      ? m < br * umb && n < bs * unb
                                 : share_b ? m >= mb && m < umb * pairs && n < nb
                                           : n >= nb && n < unb * pairs && m < mb),
                       "grid %dx%d unit %d rank %d -> (%d, %d) outside", mb, nb, u, r, m, n);
                extra++;
                continue;
            }
            EXPECT(m >= 0 && n >= 0, "negative tile (%d, %d)", m, n);
            if (!cur_failed && seen[(size_t)m * (size_t)nb + (size_t)n]++)
                failf(__LINE__, "grid %dx%d: tile (%d, %d) twice", mb, nb, m, n);
        }
        cur[c] = sched_claim(grid, counter++, units);
        if (cur[c] < 0) live--;
    }
    for (size_t i = 0; i < (size_t)mb * (size_t)nb && !cur_failed; i++)
        EXPECT(seen[i] == 1, "grid %dx%d: tile (%zu, %zu) never computed", mb, nb, i / (size_t)nb,
               i % (size_t)nb);
    const int want_extra = !pairs ? 0 : both ? pairs * umb * unb - mb * nb : share_b ? (umb * pairs - mb) * nb : (unb * pairs - nb) * mb;
    EXPECT(extra == want_extra, "grid %dx%d: %d tiles past the edge, want %d", mb, nb, extra,
           want_extra);
    EXPECT(counter == units - grid + grid, "claims %d, want %d (one -1 per CTA)", counter, units);
    free(seen);
    free(cur);
}

static void test_scheduler(void)
{
    static const int grids[][2] = {{1, 1},   {1, 7},   {7, 1},  {5, 7},   {64, 32}, {33, 17},
                                   {65, 3},  {3, 65},  {128, 64}, {11, 250}, {250, 11}, {2, 2}};
    static const int ctas[] = {1, 2, 3, 66, 132, 1000};
    begin("scheduler_tiles_once");
    for (size_t g = 0; g < sizeof grids / sizeof grids[0] && !cur_failed; g++)
        for (size_t c = 0; c < sizeof ctas / sizeof ctas[0] && !cur_failed; c++)
            check_schedule(grids[g][0], grids[g][1], 3, ctas[c], 0, 0, 17 + g * 31 + c);
    end();
    begin("scheduler_pairs_once");
    for (size_t g = 0; g < sizeof grids / sizeof grids[0] && !cur_failed; g++)
        for (size_t c = 0; c < sizeof ctas / sizeof ctas[0] && !cur_failed; c++)
            for (int share_b = 0; share_b < 2 && !cur_failed; share_b++)
                check_schedule(grids[g][0], grids[g][1], 2, ctas[c] / 2 + 1, 2, share_b,
                               5 + g * 13 + c);
    end();
    begin("scheduler_quads_once"); /* v7's 4-CTA clusters */
    for (size_t g = 0; g < sizeof grids / sizeof grids[0] && !cur_failed; g++)
        for (size_t c = 0; c < sizeof ctas / sizeof ctas[0] && !cur_failed; c++)
            for (int share_b = 0; share_b < 3 && !cur_failed; share_b++) /* 2: 2 x 2 */
                check_schedule(grids[g][0], grids[g][1], 2, ctas[c] / 4 + 1, 4, share_b,
                               7 + g * 11 + c);
    end();
    begin("scheduler_clusters_of_8_once"); /* 2 x 4 (share_b 2) and 4 x 2 (3) tiles */
    for (size_t g = 0; g < sizeof grids / sizeof grids[0] && !cur_failed; g++)
        for (size_t c = 0; c < sizeof ctas / sizeof ctas[0] && !cur_failed; c++)
            for (int share_b = SK_SHARE_BOTH; share_b <= SK_SHARE_BOTH4 && !cur_failed; share_b++)
                check_schedule(grids[g][0], grids[g][1], 2, ctas[c] / 8 + 1, 8, share_b, 3 + g * 7 + c);
    end();
    begin("sched_claim");
    EXPECT(sched_claim(132, 0, 2048) == 132, "first claim");
    EXPECT(sched_claim(132, 2048 - 133, 2048) == 2047, "last unit");
    EXPECT(sched_claim(132, 2048 - 132, 2048) == -1, "past the end");
    EXPECT(sched_claim(132, INT_MAX - 5, 2048) == -1, "huge claim count: -1, no overflow");
    EXPECT(sched_claim(1, 0, 1) == -1, "one unit, one CTA: nothing to claim");
    end();
}

/* ---- stream_k.h: v7's plan and work split -------------------------------- */

/* Plays out v7's plan for one problem as the kernel does: each cluster takes
 * its pieces of work in order (sk_work_of: whole pairs round robin, then its
 * stream-K pieces). Demands: every (pair, k-tile) unit computed exactly
 * once; a piece that does not start at k-tile 0 is its cluster's first
 * stream-K piece, and a cluster has at most one; every owner's contributor
 * list (sk_next_contributor) is the contributors' first stream-K pieces, in
 * order, exactly covering the rest of its pair, and every contributor piece
 * is added by exactly one owner; with stream-K on, the clusters' iteration
 * counts differ by at most one; no cluster is without work. */
static void check_stream_k(int M, int N, int K, const int clusters[SK_KINDS], sk_plan s)
{
    if (s.swap) { /* a plan of C^T counts in C^T's rows and columns */
        const int t = M;
        M = N, N = t;
    }
    const int maxc = clusters[s.kind];
    EXPECT(s.clusters >= 1 && s.clusters <= maxc, "%dx%dx%d: %d clusters of %d", M, N, K,
           s.clusters, maxc);
    EXPECT(s.sk_pairs >= 0 && s.sk_pairs <= s.pairs, "%dx%dx%d: sk_pairs %d of %d", M, N, K,
           s.sk_pairs, s.pairs);
    /* The A box: a TMA box (8..256 rows here, a multiple of 8); the one-box
     * form only for a 64-row tile with one block row, covering all M rows. */
    const int ra = sk_box_rows_a(&s), rb = sk_box_rows_b(&s);
    EXPECT(ra >= 8 && ra <= 256 && ra % 8 == 0 && rb >= 16 && rb <= 256 && rb % 8 == 0,
           "%dx%dx%d: boxes of %d and %d rows", M, N, K, ra, rb);
    if (s.a_rows < s.bm)
        EXPECT(s.bm == 64 && !s.share_b && s.m_blocks == 1 && ra == s.a_rows && s.a_rows >= M &&
               s.a_rows < M + 8, "%dx%dx%d: a_rows %d of a %d-row tile", M, N, K, s.a_rows, s.bm);
    else
        EXPECT(s.a_rows == s.bm && ra == (s.share_b >= SK_SHARE_BOTH ? s.bm * sk_both_rows(s.share_b, s.cl) / s.cl
                                          : s.share_b                ? s.bm
                                                                     : s.bm / s.cl),
               "%dx%dx%d: a_rows %d box %d", M, N, K, s.a_rows, ra);
    /* The k-tiles: 128 deep for the 64-row tiles up to 128 columns, 64 for
     * the others (the kernel's BK is the same SK_DEPTH), covering K with
     * less than one k-tile to spare. */
    EXPECT(s.bk == ((s.bm == 64 && s.bn <= 128) ? 128 : 64) && (int64_t)s.k_tiles * s.bk >= K &&
               (int64_t)(s.k_tiles - 1) * s.bk < K,
           "%dx%dx%d: %d x %d tiles, %d k-tiles of %d", M, N, K, s.bm, s.bn, s.k_tiles, s.bk);
    if (cur_failed) return;
    const int whole = s.pairs - s.sk_pairs;
    const size_t units = (size_t)s.pairs * (size_t)s.k_tiles;
    unsigned char *seen = calloc(units, 1);
    int *ways = calloc((size_t)s.sk_pairs + 1, sizeof(int));
    int *used = calloc((size_t)s.clusters, sizeof(int)); /* contributor pieces added */
    if (!seen || !ways || !used) {
        failf(__LINE__, "out of memory");
        goto out;
    }
    int64_t least = INT64_MAX, most = 0;
    for (int p = 0; p < s.clusters && !cur_failed; p++) {
        int firsts = 0, n_sk = 0;
        int64_t iters = 0;
        for (int i = 0;; i++) {
            const sk_work w = sk_work_of(&s, p, i);
            if (!s.sk_pairs && !s.ways) { /* the kernel instance for whole pairs only works it out so */
                const sk_work v = sk_whole_work_of(&s, p, i);
                EXPECT(v.pair == w.pair && (w.pair < 0 || (v.kb == w.kb && v.ke == w.ke)),
                       "%dx%dx%d cluster %d piece %d: whole-pairs deal gives pair %d k %d..%d, the plan %d k %d..%d",
                       M, N, K, p, i, v.pair, v.kb, v.ke, w.pair, w.kb, w.ke);
            }
            if (w.pair < 0) break;
            EXPECT(w.pair < s.pairs && w.kb >= 0 && w.kb < w.ke && w.ke <= s.k_tiles,
                   "%dx%dx%d cluster %d piece %d: pair %d k %d..%d", M, N, K, p, i, w.pair, w.kb, w.ke);
            if (cur_failed) break;
            iters += w.ke - w.kb;
            for (int k = w.kb; k < w.ke && !cur_failed; k++)
                if (seen[(size_t)w.pair * s.k_tiles + k]++)
                    failf(__LINE__, "%dx%dx%d: pair %d k-tile %d twice", M, N, K, w.pair, k);
            if (w.pair < whole) {
                EXPECT(n_sk == 0 && w.kb == 0 && w.ke == s.k_tiles,
                       "%dx%dx%d cluster %d: whole pair %d after stream-K or cut", M, N, K, p, w.pair);
                continue;
            }
            ways[w.pair - whole]++;
            if (w.kb > 0) {
                EXPECT(n_sk == 0, "%dx%dx%d cluster %d: contributor piece is its stream-K piece %d",
                       M, N, K, p, n_sk);
                firsts++;
            }
            n_sk++;
            if (w.kb == 0 && w.ke < s.k_tiles && !s.ways) { /* an owner: follow its contributors */
                int at = w.ke, q = p;
                while ((q = sk_next_contributor(&s, w.pair, q)) >= 0 && !cur_failed) {
                    const sk_work c = sk_piece(&s, q, 0);
                    EXPECT(c.pair == w.pair && c.kb == at, "%dx%dx%d pair %d: contributor %d has "
                           "pair %d k %d.., want k %d..", M, N, K, w.pair, q, c.pair, c.kb, at);
                    used[q]++;
                    at = c.ke;
                }
                EXPECT(at == s.k_tiles, "%dx%dx%d pair %d: contributors end at k-tile %d of %d", M,
                       N, K, w.pair, at, s.k_tiles);
            }
        }
        EXPECT(iters > 0, "%dx%dx%d: cluster %d has no work", M, N, K, p);
        EXPECT(firsts <= 1, "cluster %d: %d contributor pieces", p, firsts);
        /* Owners visit only clusters of a higher index: p's count is final. */
        if (!s.ways) {
            const sk_work f = sk_piece(&s, p, 0);
            EXPECT(used[p] == (f.pair >= 0 && f.kb > 0), "%dx%dx%d: cluster %d's partial added %d times",
                   M, N, K, p, used[p]);
        }
        least = iters < least ? iters : least;
        most = iters > most ? iters : most;
    }
    if (s.sk_pairs)
        EXPECT(most - least <= 1, "%dx%dx%d: clusters get %lld to %lld iterations", M, N, K,
               (long long)least, (long long)most);
    /* Split-K (fewer pairs than clusters): every pair cut the same number of
     * ways (as many as fit, at most its k-tiles), at the same k-tiles, one
     * piece per cluster, the pair's pieces on consecutive clusters in k
     * order; the reduce-scatter's column slices cover the tile once. */
    if (s.ways) {
        const int w = s.ways;
        EXPECT(w >= 2 && w <= s.k_tiles && s.sk_pairs == s.pairs && s.clusters == s.pairs * w &&
               s.clusters <= maxc, "%dx%dx%d: %d clusters (ways %d) for %d pairs of %d k-tiles (of %d)",
               M, N, K, s.clusters, s.ways, s.pairs, s.k_tiles, maxc);
        for (int p = 0; p < s.clusters && !cur_failed; p++) {
            const sk_work a = sk_work_of(&s, p, 0), b = sk_work_of(&s, p, 1);
            const sk_work prev = p % w ? sk_work_of(&s, p - 1, 0) : (sk_work){p / w, 0, 0};
            EXPECT(b.pair < 0 && a.pair == p / w && a.kb == prev.ke &&
                   (p % w < w - 1 || a.ke == s.k_tiles) && a.ke - a.kb >= s.k_tiles / w &&
                   a.ke - a.kb <= s.k_tiles / w + 1,
                   "%dx%dx%d cluster %d: pair %d k %d..%d", M, N, K, p, a.pair, a.kb, a.ke);
        }
        /* A slot's float4s for 64 x 64, 64 x 128 and 64 x 256 fragments, and a few
         * small counts (fewer units than ways leaves some pieces none). */
        static const int units[] = {1, 2, 5, 32, 1024, 2048, 4096};
        for (size_t k = 0; k < sizeof units / sizeof units[0] && !cur_failed; k++) {
            const int g = units[k];
            int next = 0;
            for (int l = 0; l < w; l++) {
                int j0, j1;
                sk_slice(w, l, g, &j0, &j1);
                EXPECT(j0 == next && j1 >= j0 && j1 - j0 <= g / w + 1, "ways %d, %d units: piece %d "
                       "has %d..%d, want from %d", w, g, l, j0, j1, next);
                next = j1;
            }
            EXPECT(next == g, "ways %d: slices of %d units end at %d", w, g, next);
        }
    }
    for (size_t i = 0; i < units && !cur_failed; i++)
        EXPECT(seen[i] == 1, "%dx%dx%d: pair %zu k-tile %zu computed %d times", M, N, K,
               i / (size_t)s.k_tiles, i % (size_t)s.k_tiles, seen[i]);
    /* Claims (sk_claims: more than two waves of whole pairs of more than
     * SK_CLAIM_K_TILES k-tiles, 128-row tiles, no split-K). The kernel's walk:
     * cluster p's own pair p first, the pairs from the clusters' count on to
     * whoever claims them, then what the scheduler hands on, sk_work_of(p,
     * sk_whole_of(p) + n): that must be exactly the deal's stream-K pieces
     * (sk_piece), so the claims change who runs a whole pair and nothing else. */
    EXPECT(sk_claims(&s) == (!s.ways && s.bm == 128 && s.cl == 2 && whole > 2 * s.clusters &&
                             s.k_tiles > SK_CLAIM_K_TILES),
           "%dx%dx%d: sk_claims %d (%d whole pairs, %d clusters, %d rows, %d k-tiles)", M, N, K, sk_claims(&s),
           whole, s.clusters, s.bm, s.k_tiles);
    int dealt = 0;
    for (int p = 0; p < s.clusters && !cur_failed; p++) {
        const int mine = sk_whole_of(&s, p);
        dealt += mine;
        EXPECT(!sk_claims(&s) || (mine >= 1 && sk_work_of(&s, p, 0).pair == p), "%dx%dx%d cluster %d: "
               "%d whole pairs dealt, first %d", M, N, K, p, mine, sk_work_of(&s, p, 0).pair);
        for (int n = 0; !s.ways && !cur_failed; n++) {
            const sk_work a = sk_work_of(&s, p, mine + n), b = sk_piece(&s, p, n);
            EXPECT(a.pair == b.pair && a.kb == b.kb && a.ke == b.ke && (a.pair < 0 || a.pair >= whole),
                   "%dx%dx%d cluster %d stream-K piece %d: handed on pair %d k %d..%d, the deal's %d "
                   "k %d..%d", M, N, K, p, n, a.pair, a.kb, a.ke, b.pair, b.kb, b.ke);
            if (a.pair < 0) break;
        }
    }
    EXPECT(dealt == (s.ways ? 0 : whole), "%dx%dx%d: %d whole pairs dealt of %d", M, N, K, dealt, whole);
out:
    free(seen);
    free(ways);
    free(used);
}

/* Every candidate of a shape, checked as a plan (sk_each_cand's callback). */
typedef struct {
    int M, N, K, n;
    const int *clusters;
} cand_check;

static void check_cand(sk_cand c, const sk_plan *s, void *arg)
{
    cand_check *x = arg;
    EXPECT(s->kind == c.kind && s->ways == (c.mode == SK_SPLIT ? c.ways : 0) &&
           (c.mode == SK_WHOLE) == (s->sk_pairs == 0), "%dx%dx%d: candidate %d/%d/%d made kind %d "
           "ways %d sk %d", x->M, x->N, x->K, c.kind, c.mode, c.ways, s->kind, s->ways, s->sk_pairs);
    check_stream_k(x->M, x->N, x->K, x->clusters, *s);
    x->n++;
}

static sk_gpu gpu_of(const int clusters[SK_KINDS], double dram)
{
    sk_gpu g;
    for (int k = 0; k < SK_KINDS; k++) g.max_clusters[k] = clusters[k];
    g.dram_bytes_per_ns = dram;
    g.l2_bytes = 50.0 * (1 << 20);
    return g;
}

static void test_stream_k(void)
{
    static const int shapes[][3] = {
        {1, 1, 1},          {1, 1, 8},         {64, 64, 8},        {129, 257, 200},
        {1024, 1024, 1024}, {2048, 2048, 2048}, {512, 512, 8192}, {1024, 1024, 16384},
        {64, 8192, 8192},   {8192, 64, 8192},  {16, 8192, 8192},   {4096, 4096, 4104},
        {4104, 4104, 4096}, {8192, 8192, 8192}, {4096, 14336, 4096}, {16384, 4096, 14336},
        {8192, 8, 8192},    {8, 8192, 8192},   {3, 8191, 10000},   {4097, 4095, 1031},
        {16384, 128, 1024}, {128, 16384, 1024}, {100000, 300, 64},  {300, 100000, 64},
        {352, 3032, 14064}, {3744, 1080, 968}, {144, 3320, 7880},  {2048, 8192, 28672}};
    /* Clusters of each tile shape's kernel: an H100's, uneven counts, few, many. */
    int gpus[6][SK_KINDS];
    for (int k = 0; k < SK_KINDS; k++) {
        gpus[0][k] = sk_clusters_of(k, 66);
        gpus[1][k] = 57 + (k * 5) % 10;
        gpus[2][k] = 1;
        gpus[3][k] = 2 + k % 2;
        gpus[4][k] = 7;
        gpus[5][k] = 132;
    }
    /* The model's plan (each tile shape forced, then free), and every candidate. */
    begin("stream_k_units_once");
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0] && !cur_failed; i++)
        for (size_t gi = 0; gi < sizeof gpus / sizeof gpus[0] && !cur_failed; gi++) {
            const int M = shapes[i][0], N = shapes[i][1], K = shapes[i][2];
            const sk_gpu g = gpu_of(gpus[gi], 3352);
            for (int kind = -1; kind < SK_KINDS && !cur_failed; kind++) {
                const sk_plan s = sk_plan_make(M, N, K, &g, &sk_model_sm90, kind);
                if (s.clusters > 0 || kind < 0 || !sk_kind_may_have_none(kind))
                    check_stream_k(M, N, K, gpus[gi], s);
            }
            cand_check x = {M, N, K, 0, gpus[gi]};
            sk_each_cand(M, N, K, &g, -1, check_cand, &x);
            EXPECT(x.n >= 1, "%dx%dx%d: %d candidates", M, N, K, x.n);
        }
    end();

    /* Candidates by name (V7_TILE), both ways, and what does not apply. */
    begin("stream_k_candidates");
    int h100[SK_KINDS];
    for (int k = 0; k < SK_KINDS; k++)
        h100[k] = sk_clusters_of(k, 66);
    for (int k = 0; k < SK_KINDS; k++)
        for (int m = 0; m < SK_MODES; m++)
            for (int a = 0; a < 4; a++) { /* share_a = a % 2, swap = a / 2 */
                const sk_cand c = {k, m, m == SK_SPLIT ? 7 : 0, a % 2, a / 2};
                char name[32];
                sk_cand_name(c, name, sizeof name);
                sk_cand d;
                EXPECT(sk_cand_parse(name, &d) == 0 && d.kind == k && d.mode == m && d.ways == c.ways &&
                           d.share_a == a % 2 && d.swap == a / 2,
                       "%s: parsed as %d/%d/%d/%d/%d", name, d.kind, d.mode, d.ways, d.share_a, d.swap);
            }
    sk_cand c;
    EXPECT(sk_cand_parse("64x128", &c) == 0 && c.kind == 2 && c.mode == -1, "64x128: %d/%d", c.kind, c.mode);
    EXPECT(sk_cand_parse("128x256:sk:A", &c) == 0 && c.kind == 0 && c.mode == SK_STREAM && c.share_a == 1,
           "128x256:sk:A: %d/%d/%d", c.kind, c.mode, c.share_a);
    static const char *const bad[] = {"", "64x", "96x128", "128x256:", "128x256:xx", "128x256:split",
                                      "128x256:split1", "128x256:split-2", "128x256:split2x",
                                      "128x256:dpx", "128x256 ", "128x256:dp:", "128x256:dp:B",
                                      "128x256:dp:A:", "128x256:dp:AA", "128x256::A", "128x256:A",
                                      "128x256:T", "128x256:dp:T:A", "128x256:dp:TT", "128x256:dp:T:"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        EXPECT(sk_cand_parse(bad[i], &c) == -1, "'%s' accepted", bad[i]);
    EXPECT(sk_cand_parse("128x80:split9:A:T", &c) == 0 && c.kind == 7 && c.ways == 9 && c.share_a && c.swap,
           "128x80:split9:A:T: %d/%d/%d/%d", c.kind, c.ways, c.share_a, c.swap);
    sk_plan s;
    /* Quads of 2 x 2 tiles (":AB"), both ways; a pair cannot share both, nor
     * a quad with one block row or column. */
    for (int k = 19; k < SK_KINDS; k++)
        for (int t = 0; t < 2; t++) {
            const sk_cand q = {k, SK_WHOLE, 0, SK_SHARE_BOTH, t};
            char name[32];
            sk_cand_name(q, name, sizeof name);
            sk_cand d;
            EXPECT(sk_cand_parse(name, &d) == 0 && d.kind == k && d.share_a == SK_SHARE_BOTH && d.swap == t &&
                       strstr(name, ":AB") != NULL,
                   "%s: parsed as %d/%d/%d", name, d.kind, d.share_a, d.swap);
        }
    EXPECT(sk_cand_parse("64x64q:dp:AB:T", &c) == 0 && c.kind == 26 && c.share_a == SK_SHARE_BOTH && c.swap &&
               sk_plan_of(200, 600, 1000, h100, c, &s) == 0 && s.share_b == SK_SHARE_BOTH &&
               sk_plan_of(1000, 1000, 1000, h100, (sk_cand){4, SK_WHOLE, 0, SK_SHARE_BOTH, 0}, &s) == -1 &&
               sk_plan_of(64, 1000, 1000, h100, (sk_cand){26, SK_WHOLE, 0, SK_SHARE_BOTH, 0}, &s) == -1 &&
               sk_plan_of(1000, 64, 1000, h100, (sk_cand){26, SK_WHOLE, 0, SK_SHARE_BOTH, 0}, &s) == -1,
           "64x64q:dp:AB:T and the 2 x 2 forms that do not apply");
    /* Tiles of C^T: planned on N x M. 144 x 6040 in 128 x 80 tiles of C^T: 48
     * block rows along N, 2 block columns along M, pairs sharing the kernel's
     * B (A's rows); as tiles of C the same tile covers 144 rows in 2 blocks. */
    EXPECT(sk_plan_of(144, 6040, 1744, h100, (sk_cand){7, SK_WHOLE, 0, 0, 1}, &s) == 0 && s.swap &&
               s.m_blocks == 48 && s.n_blocks == 2 && s.share_b && s.pairs == 48,
           "144x6040 in 128x80:dp:T: %d x %d blocks, %d pairs", s.m_blocks, s.n_blocks, s.pairs);
    EXPECT(sk_plan_of(144, 6040, 1744, h100, (sk_cand){7, SK_WHOLE, 0, 0, 0}, &s) == 0 && !s.swap &&
               s.m_blocks == 2 && s.n_blocks == 76, "144x6040 in 128x80:dp: %d x %d blocks", s.m_blocks, s.n_blocks);
    /* 8192^3: 1024 pairs of 128 x 256, 15 waves and 34 */
    EXPECT(sk_plan_of(8192, 8192, 8192, h100, (sk_cand){0, SK_STREAM, 0, 0, 0}, &s) == 0 && s.sk_pairs == 34 &&
           s.clusters == 66, "8192^3 sk: %d", s.sk_pairs);
    EXPECT(sk_plan_of(8192, 8192, 8192, h100, (sk_cand){0, SK_STREAM_WAVE, 0, 0, 0}, &s) == 0 &&
           s.sk_pairs == 100, "8192^3 skw: %d", s.sk_pairs);
    EXPECT(sk_plan_of(8192, 8192, 8192, h100, (sk_cand){0, SK_SPLIT, 2, 0, 0}, &s) == -1, "8192^3 split");
    /* Claims: 990 whole pairs on 66 clusters, yes; two waves or less of them, 64-row tiles,
     * split-K, or pairs of no more than SK_CLAIM_K_TILES k-tiles, no. */
    EXPECT(sk_plan_of(8192, 8192, 8192, h100, (sk_cand){0, SK_STREAM, 0, 0, 0}, &s) == 0 && sk_claims(&s),
           "8192^3 sk: claims");
    EXPECT(sk_plan_of(8192, 8192, 256, h100, (sk_cand){0, SK_WHOLE, 0, 0, 0}, &s) == 0 && !sk_claims(&s) &&
           s.pairs == 1024, "8192 x 8192 x 256 in 128 x 256: 1024 pairs of 4 k-tiles, dealt out");
    EXPECT(SK_CLAIM_K_TILES == 32, "SK_CLAIM_K_TILES %d: the tests below take 32", SK_CLAIM_K_TILES);
    EXPECT(sk_plan_of(8192, 8192, 2048, h100, (sk_cand){0, SK_WHOLE, 0, 0, 0}, &s) == 0 && !sk_claims(&s) &&
               s.k_tiles == 32 && s.pairs == 1024,
           "8192 x 8192 x 2048 in 128 x 256: %d pairs of %d k-tiles, dealt out", s.pairs, s.k_tiles);
    EXPECT(sk_plan_of(8192, 8192, 2112, h100, (sk_cand){0, SK_WHOLE, 0, 0, 0}, &s) == 0 && sk_claims(&s) &&
               s.k_tiles == 33,
           "8192 x 8192 x 2112 in 128 x 256: %d k-tiles, claimed", s.k_tiles);
    EXPECT(sk_plan_of(2816, 3072, 8192, h100, (sk_cand){0, SK_WHOLE, 0, 0, 0}, &s) == 0 && !sk_claims(&s) &&
               s.pairs == 132 && s.clusters == 66,
           "2816 x 3072 x 8192 in 128 x 256: %d pairs on %d clusters, two waves, dealt out", s.pairs, s.clusters);
    EXPECT(sk_plan_of(2816, 3328, 8192, h100, (sk_cand){0, SK_WHOLE, 0, 0, 0}, &s) == 0 && sk_claims(&s) &&
               s.pairs == 143, "2816 x 3328 x 8192 in 128 x 256: %d pairs, more than two waves, claimed", s.pairs);
    EXPECT(sk_plan_of(1024, 1024, 1024, h100, (sk_cand){1, SK_WHOLE, 0, 0, 0}, &s) == 0 && !sk_claims(&s),
           "1024^3 in 64 pairs of 128 x 128: no claims");
    EXPECT(sk_plan_of(8192, 8192, 8192, h100, (sk_cand){2, SK_WHOLE, 0, 0, 0}, &s) == 0 && s.bm == 64 &&
           !sk_claims(&s), "8192^3 in 64 x 128: no claims");
    EXPECT(sk_plan_of(512, 512, 8192, h100, (sk_cand){1, SK_SPLIT, 8, 0, 0}, &s) == 0 && !sk_claims(&s),
           "512^2 x 8192 split8: no claims");
    /* 8448 x 8192: 33 x 32 = 1056 pairs = 16 waves: no partial wave to stream */
    EXPECT(sk_plan_of(8448, 8192, 8192, h100, (sk_cand){0, SK_STREAM, 0, 0, 0}, &s) == -1, "16 waves, sk");
    /* 1536 x 2048: 48 pairs, less than a wave: stream-K over all, split up to 66 / 48 = 1 way */
    EXPECT(sk_plan_of(1536, 2048, 4096, h100, (sk_cand){0, SK_STREAM, 0, 0, 0}, &s) == 0 && s.sk_pairs == 48 &&
           s.clusters == 66, "48 pairs, sk: %d on %d", s.sk_pairs, s.clusters);
    EXPECT(sk_plan_of(1536, 2048, 4096, h100, (sk_cand){0, SK_STREAM_WAVE, 0, 0, 0}, &s) == -1, "48 pairs, skw");
    EXPECT(sk_plan_of(1536, 2048, 4096, h100, (sk_cand){0, SK_SPLIT, 2, 0, 0}, &s) == -1, "48 pairs, split2");
    EXPECT(sk_plan_of(1536, 2048, 4096, h100, (sk_cand){0, SK_WHOLE, 0, 0, 0}, &s) == 0 && s.clusters == 48,
           "48 pairs, dp: %d clusters", s.clusters);
    /* 512 x 512 x 8192 (128 x 128): 8 pairs of 128 k-tiles, up to 8 ways; not beyond the k-tiles */
    EXPECT(sk_plan_of(512, 512, 8192, h100, (sk_cand){1, SK_SPLIT, 8, 0, 0}, &s) == 0 && s.clusters == 64 &&
           sk_work_of(&s, 9, 0).pair == 1 && sk_work_of(&s, 9, 0).kb == 16, "512^2 x 8192 split8");
    EXPECT(sk_plan_of(512, 512, 8192, h100, (sk_cand){1, SK_SPLIT, 9, 0, 0}, &s) == -1, "split9 of 8 pairs");
    EXPECT(sk_plan_of(512, 512, 128, h100, (sk_cand){1, SK_SPLIT, 3, 0, 0}, &s) == -1, "split3 of 2 k-tiles");
    /* Pairs sharing A: only where C has 2 block rows or more (else they do anyway); 528 rows
     * are 5 blocks of 128: 3 x 52 pairs sharing B (one CTA in 6 past C), 5 x 26 sharing A. */
    EXPECT(sk_plan_of(100, 4096, 1024, h100, (sk_cand){0, SK_WHOLE, 0, 1, 0}, &s) == -1, "one block row, :A");
    EXPECT(sk_plan_of(528, 13184, 2312, h100, (sk_cand){0, SK_WHOLE, 0, 0, 0}, &s) == 0 && s.share_b &&
           s.pairs == 156, "528 x 13184, B: %d pairs", s.pairs);
    EXPECT(sk_plan_of(528, 13184, 2312, h100, (sk_cand){0, SK_WHOLE, 0, 1, 0}, &s) == 0 && !s.share_b &&
           s.pairs == 130 && sk_box_rows_a(&s) == 64 && sk_box_rows_b(&s) == 256,
           "528 x 13184, A: %d pairs, boxes %d / %d", s.pairs, sk_box_rows_a(&s), sk_box_rows_b(&s));
    end();

    /* The cost model: its choice is the least of its candidates (up to a tie); more k-tiles
     * never cost less; and the choices the measurements behind it show. */
    begin("stream_k_model");
    const sk_gpu h1 = gpu_of(h100, 3352), h2 = gpu_of(h100, 4800);
    uint64_t rng = 12345;
    for (int i = 0; i < 3000 && !cur_failed; i++) {
        const int M = 1 + (int)(rng_next(&rng) % 16384), N = 1 + (int)(rng_next(&rng) % 16384);
        const int K = 1 + (int)(rng_next(&rng) % 16384);
        const sk_gpu *g = i % 2 ? &h1 : &h2;
        const sk_plan a = sk_plan_make(M, N, K, g, &sk_model_sm90, -1);
        const sk_plan b = sk_plan_make(M, N, K + 64, g, &sk_model_sm90, -1);
        const double ta = sk_model_ns(&a, M, N, K, g, &sk_model_sm90);
        const double tb = sk_model_ns(&b, M, N, K + 64, g, &sk_model_sm90);
        EXPECT(tb >= ta, "%dx%dx%d: %.0f ns, with K + 64 %.0f ns", M, N, K, ta, tb);
        for (int k = 0; k < SK_KINDS; k++) {
            const sk_plan f = sk_plan_make(M, N, K, g, &sk_model_sm90, k);
            if (!f.clusters && sk_kind_may_have_none(k)) /* none on this shape */
                continue;
            EXPECT(f.kind == k && sk_model_ns(&f, M, N, K, g, &sk_model_sm90) >= ta / (1 + SK_TIE),
                   "%dx%dx%d: tile %d beats the choice", M, N, K, k); /* ties: sk_tie_better */
        }
    }
    /* sk_model.stream prices a stream-K phase alone: raised, a plan with
     * stream-K pairs costs more and one without (whole pairs, split-K) the
     * same. */
    {
        sk_model dear = sk_model_sm90;
        dear.stream *= 1.5;
        int seen_sk = 0, seen_other = 0;
        for (int i = 0; i < 400 && !cur_failed; i++) {
            const int M = 64 + (int)(rng_next(&rng) % 8192), N = 64 + (int)(rng_next(&rng) % 8192);
            const int K = 256 + (int)(rng_next(&rng) % 8192);
            const sk_plan p = sk_plan_make(M, N, K, &h1, &sk_model_sm90, -1);
            const double t = sk_model_ns(&p, M, N, K, &h1, &sk_model_sm90);
            const double td = sk_model_ns(&p, M, N, K, &h1, &dear);
            if (p.sk_pairs && !p.ways) {
                seen_sk++;
                EXPECT(td > t, "%dx%dx%d (stream-K): %.0f ns, stream x 1.5 %.0f ns", M, N, K, t, td);
            } else {
                seen_other++;
                EXPECT(td == t, "%dx%dx%d (no stream-K phase): %.0f ns, stream x 1.5 %.0f ns", M, N, K, t, td);
            }
        }
        EXPECT(seen_sk > 0 && seen_other > 0, "400 random plans: %d stream-K, %d others", seen_sk, seen_other);
    }
    /* Measured on an H100 (tools/calib.c, plots/calib_h100.csv): a long K
     * whose stream-K ranges outgrow L2 runs its last wave whole (2048 x 8192
     * x 28672: 1197 us whole, 1522 us stream-K); few pairs over a long K
     * split (512 x 1024 x 8192: 80 us whole, 30 us in 8 ways); N = 376 in
     * 128-column tiles, not 256 (9576 x 376 x 6784: 95 us against 130 us;
     * now 192, below); 8192^3 in v6's tile. */
    s = sk_plan_make(2048, 8192, 28672, &h1, &sk_model_sm90, -1);
    EXPECT(s.sk_pairs == 0 && s.bn == 256, "2048x8192x28672: sk %d bn %d", s.sk_pairs, s.bn);
    s = sk_plan_make(512, 1024, 8192, &h1, &sk_model_sm90, -1);
    EXPECT(s.ways >= 4, "512x1024x8192: ways %d", s.ways);
    /* The 128 x 192 tile (plots/calib/tile192/, 2026-11-24, H100 / H200): N =
     * 376 in two 192-column blocks, stream-K (92.9 / 85.8 us against 98.9 /
     * 89.3 us in 128 x 128; now tiles of C^T, below); 3072^3 as 192 whole pairs, 2.9 waves (82.7 / 81.1
     * us against 92.6 / 92.0 us for 128 x 256 stream-K); since 128 x 288
     * (plots/calib/wide288/), as 132 whole pairs of it, 2 waves (79.5 against
     * 81.3 us in 128 x 192, H100). */
    s = sk_plan_make(3072, 3072, 3072, &h1, &sk_model_sm90, -1);
    EXPECT(s.bn == 288 && s.sk_pairs == 0, "3072^3: %d x %d, %d stream-K", s.bm, s.bn, s.sk_pairs);
    s = sk_plan_make(3072, 3072, 3072, &h2, &sk_model_sm90, -1);
    EXPECT(s.bn == 288 && s.sk_pairs == 0, "3072^3 (H200): %d x %d, %d stream-K", s.bm, s.bn, s.sk_pairs);
    /* 128 x 288 pairs where one wave of them covers C (plots/calib/wide288/, H200):
     * 3856 x 1064 x 3624 49.2 us against 63.0 in 128 x 144 pairs, 2 waves;
     * 9296 x 456 x 2632 (288 x 128 tiles of C^T) 38.5 against 40.8 in 128 x
     * 160 clusters of 8 (H100: 42.2 against 42.1). */
    for (int gi = 0; gi < 2; gi++) {
        s = sk_plan_make(3856, 1064, 3624, gi ? &h2 : &h1, &sk_model_sm90, -1);
        EXPECT(s.bn == 288 && !s.swap && s.pairs <= s.clusters && !s.sk_pairs, "3856x1064x3624: %d x %d%s, %d pairs",
               s.bm, s.bn, s.swap ? " of C^T" : "", s.pairs);
        s = sk_plan_make(9296, 456, 2632, gi ? &h2 : &h1, &sk_model_sm90, -1);
        EXPECT(s.bn == 288 && s.swap && s.cl == 2 && s.pairs <= s.clusters, "9296x456x2632: %d x %d%s in clusters of %d",
               s.bm, s.bn, s.swap ? " of C^T" : "", s.cl);
    }
    /* A phase's MMA and DRAM times combine as a p-norm (sk_overlap): never
     * less than the longer, at most 2^(1/p) times it, and a phase the DRAM
     * bounds still costs more for more MMA time where that is at least half
     * the DRAM time, so that candidates alike in DRAM bytes are told apart by
     * their MMAs (96 x 15232 x 1072, H100: 96 x 128 tiles of C^T, 15.8 us,
     * not 128 x 128 tiles of C, 19.1 us; plots/calib/model/). */
    for (double lo = 0; lo <= 1000; lo += 125) {
        const double t = sk_overlap(1000, lo, &sk_model_sm90), u = sk_overlap(lo, 1000, &sk_model_sm90);
        EXPECT(t == u && t >= 1000 && t <= 1000 * pow(2, 1 / sk_model_sm90.overlap) * (1 + 1e-12),
               "sk_overlap(1000, %.0f) = %.3f, (%.0f, 1000) = %.3f", lo, t, lo, u);
        EXPECT(lo < 500 || sk_overlap(1000, lo, &sk_model_sm90) > sk_overlap(1000, lo - 125, &sk_model_sm90),
               "sk_overlap(1000, %.0f) not above sk_overlap(1000, %.0f)", lo, lo - 125);
    }
    s = sk_plan_make(96, 15232, 1072, &h1, &sk_model_sm90, -1);
    EXPECT(s.swap && s.bn == 96, "96x15232x1072: %d x %d%s", s.bm, s.bn, s.swap ? " of C^T" : "");
    /* The operand a pair multicasts: at 5432 x 504 x 3248 the pair that
     * multicasts A, the larger operand, i.e. tiles of C^T sharing their B,
     * ran 0.902 / 0.877 of the time of tiles of C sharing B (128 x 176, H100 /
     * H200, plots/calib/ties/; a tie of the model then, sk_tie_better). Now
     * the pick is a quad's 128 x 192, one wave, which ran 1.04-1.09 of the
     * pairs' time in four A/B runs (plots/calib/quads/): the model's known
     * miss. Exchanging M and N exchanges the pick. */
    for (int gi = 0; gi < 2; gi++) {
        const sk_gpu *g = gi ? &h2 : &h1;
        s = sk_plan_make(5432, 504, 3248, g, &sk_model_sm90, -1);
        const sk_plan t = sk_plan_make(504, 5432, 3248, g, &sk_model_sm90, -1);
        EXPECT(s.swap && s.share_b && !t.swap && t.share_b && s.kind == t.kind,
               "5432x504x3248: %d x %d%s, share B %d; 504x5432x3248: %d x %d%s, share B %d", s.bm, s.bn,
               s.swap ? " of C^T" : "", s.share_b, t.bm, t.bn, t.swap ? " of C^T" : "", t.share_b);
    }
    /* The operands' L2 promotion (sk_streams_dram): the tensor maps' rule by
     * pitch only where the plan's modelled DRAM time exceeds its MMAs', which
     * on both GPUs is the skinny shapes that stream one operand once (16 and
     * 64 x 8192 x 8192, 8192 x 64 x 8192); 128 bytes where the operands are
     * read from L2 again and again (1512 x 1408 x 8400 and 3576 x 184 x 1488:
     * 9% and 8% faster with 128 on an H100, plots/calib/promo/; 8192^3). The
     * MMA and DRAM times it compares are the model's own: sk_model_ns_of gives
     * sk_model_ns's time, and that is never less than either. */
    for (int gi = 0; gi < 2; gi++) {
        const sk_gpu *g = gi ? &h2 : &h1;
        static const int streams[][4] = {{16, 8192, 8192, 1}, {64, 8192, 8192, 1}, {8192, 64, 8192, 1},
                                         {1512, 1408, 8400, 0}, {3576, 184, 1488, 0}, {8192, 8192, 8192, 0},
                                         {1024, 1024, 1024, 0}};
        for (int i = 0; i < (int)(sizeof streams / sizeof streams[0]); i++) {
            const int *c = streams[i];
            s = sk_plan_make(c[0], c[1], c[2], g, &sk_model_sm90, -1);
            double mma = -1, dram = -1;
            const double t = sk_model_ns_of(&s, c[0], c[1], c[2], g, &sk_model_sm90, &mma, &dram);
            EXPECT(sk_streams_dram(&s, c[0], c[1], c[2], g, &sk_model_sm90) == c[3] && mma > 0 && dram > 0 &&
                       t == sk_model_ns(&s, c[0], c[1], c[2], g, &sk_model_sm90) && t >= mma && t >= dram,
                   "%dx%dx%d (%s): streams %d, want %d (MMA %.0f ns, DRAM %.0f ns, model %.0f ns)", c[0], c[1],
                   c[2], gi ? "H200" : "H100", sk_streams_dram(&s, c[0], c[1], c[2], g, &sk_model_sm90), c[3], mma,
                   dram, t);
        }
    }
    /* Pairs sharing A where an odd number of block rows would leave a CTA past
     * C (plots/calib/share_a/, H100 / H200): 528 x 13184 x 2312, 5 rows of 128
     * x 256, 130 whole pairs, 85.5 / 83.1 -> 79.2 / 69.4 us (now tiles of C^T,
     * below); 368 x 1704 x 2760, 3
     * rows of 128 x 128 split 3 ways, 23.2 / 21.6 -> 20.7 / 19.0 us (from 64 x 256;
     * then 128 x 80, split 2 ways, sharing A: fewer bytes a CTA, sk_bytes_cost;
     * then 64 x 80, whole pairs, no row block past C: 19.6 -> 18.3 us on an
     * H100, 18.0 -> 17.2 on an H200, plots/calib/narrow/; now 128 x 64 in
     * quads sharing A, one wave of whole tiles: 18.0 -> 15.7 us, 17.5 -> 15.6,
     * plots/calib/quads/; now 96 x 64 tiles of C^T in clusters of 8, 4 x 2,
     * one wave: 15.4 -> 15.3 us on an H200, plots/calib/cl64/). */
    s = sk_plan_make(368, 1704, 2760, &h2, &sk_model_sm90, -1);
    EXPECT(s.bm == 64 && s.bn == 96 && s.cl == 8 && s.share_b == SK_SHARE_BOTH4 && s.swap && !s.sk_pairs,
           "368x1704x2760: %d x %d%s in clusters of %d, share B %d, %d stream-K pairs, %d ways", s.bm, s.bn,
           s.swap ? " of C^T" : "", s.cl, s.share_b, s.sk_pairs, s.ways);
    /* The 64-row tiles 80 .. 112 wide, where 128 x 64 or 128 x 80 left half the
     * SMs idle or padded: 3904 x 144 x 1448, 128 x 64 pairs sharing A 16.4 ->
     * 64 x 80 13.3 us (H100), 15.8 -> 12.3 (H200) (plots/calib/narrow/). */
    for (int gi = 0; gi < 2; gi++) {
        s = sk_plan_make(3904, 144, 1448, gi ? &h2 : &h1, &sk_model_sm90, -1);
        EXPECT(s.bm == 64 && s.bn == 80 && !s.swap, "3904x144x1448 (%s): %d x %d%s", gi ? "H200" : "H100", s.bm,
               s.bn, s.swap ? " of C^T" : "");
    }
    /* ... but not where the wider tile's extra bytes cost more than the pairs
     * saved (H100, with a pair sharing A priced as sharing B: 4424 x 6080 x 2864 227.6 -> 250.3
     * us, 1608 x 6408 x 2920 109.2 -> 131.4, 616 x 10256 x 3344 80.3 -> 98.8). */
    static const int wide[][3] = {{4424, 6080, 2864}, {1608, 6408, 2920}, {616, 10256, 3344}};
    for (int i = 0; i < 3; i++) {
        s = sk_plan_make(wide[i][0], wide[i][1], wide[i][2], &h1, &sk_model_sm90, -1);
        EXPECT(s.share_b, "%dx%dx%d: pairs share A", wide[i][0], wide[i][1], wide[i][2]);
    }
    /* A k-tile's cost by the bytes a CTA asks L2 for (sk_bytes_cost), against
     * a pair sharing B: 128 x 256 sharing A 40 KB against 32; 128 x 64 16
     * against 20; one block row (the pair shares A, as k_tile was measured) 1;
     * a quad's 128 x 192 sharing B 22 against 28 in one wave of whole tiles,
     * elsewhere its pair's cost. */
    sk_plan_of(528, 13184, 2312, h100, (sk_cand){0, SK_WHOLE, 0, 1, 0}, &s);
    EXPECT(sk_bytes_cost(&s, 1) == 1.25, "128 x 256 sharing A: %g", sk_bytes_cost(&s, 1));
    sk_plan_of(528, 13184, 2312, h100, (sk_cand){3, SK_WHOLE, 0, 1, 0}, &s);
    EXPECT(sk_bytes_cost(&s, 1) == 0.8, "128 x 64 sharing A: %g", sk_bytes_cost(&s, 1)); /* 16 KB against 20 */
    EXPECT(sk_plan_of(100, 13184, 2312, h100, (sk_cand){3, SK_WHOLE, 0, 0, 0}, &s) == 0 && !s.share_b &&
               s.m_blocks == 1 && sk_bytes_cost(&s, 1) == 1.0, "128 x 64, one block row: %g", sk_bytes_cost(&s, 1));
    EXPECT(sk_plan_of(1880, 1304, 3528, h100, (sk_cand){21, SK_WHOLE, 0, 0, 0}, &s) == 0 && s.cl == 4 &&
               sk_bytes_cost(&s, 1) == 22.0 / 28 && sk_bytes_cost(&s, 0) == 1.0,
           "128 x 192 in quads: %g in one wave of whole tiles, %g else", sk_bytes_cost(&s, 1), sk_bytes_cost(&s, 0));
    /* A quad of 2 x 2 64 x 64 tiles asks for 16 KB a k-tile against a pair's
     * 24; its price moves toward that by the share of the SMs its wave fills
     * (at 2/3: 1 - 2/3 x 1/3 = 7/9). */
    EXPECT(sk_plan_of(248, 1328, 1848, h100, (sk_cand){26, SK_WHOLE, 0, SK_SHARE_BOTH, 0}, &s) == 0 &&
               s.share_b == SK_SHARE_BOTH && s.pairs == 22 && sk_box_rows_a(&s) == 32 && sk_box_rows_b(&s) == 32 &&
               fabs(sk_bytes_cost(&s, 2.0 / 3) - 7.0 / 9) < 1e-12 && sk_bytes_cost(&s, 0) == 1.0 &&
               sk_bytes_cost(&s, 1) == 2.0 / 3,
           "64 x 64 in 2 x 2: %d pairs, %g at 2/3 busy, %g at 0, %g at 1", s.pairs, sk_bytes_cost(&s, 2.0 / 3),
           sk_bytes_cost(&s, 0), sk_bytes_cost(&s, 1));
    {   /* the same in the model's sum (22 quads, 88 of 132 SMs busy, 15 k-tiles);
         * with sk_cta_bytes in an earlier, branching form, gcc 12 at -O2 made
         * it the 1 x 4 quad's bytes here (8/9 where 7/9 is right) */
        double mma, dram;
        sk_model_ns_of(&s, 248, 1328, 1848, &h1, &sk_model_sm90, &mma, &dram);
        const double want = 15 * sk_model_sm90.k_tile[26] * (1 - 88.0 / 132 / 3) + sk_model_sm90.piece[26];
        EXPECT(fabs(mma - want) < 1e-6 * want, "64 x 64 in 2 x 2, 248x1328x1848: MMA time %.1f ns, want %.1f", mma, want);
    }
    /* The plan picks them where a one-wave of them fills half the SMs or more
     * against a plan on about as many (H100 and H200, held-out shapes: 896 x
     * 384 x 2232 0.80 / 0.87 of the time, 72 x 2872 x 1032 0.83 / 0.87), not
     * against split-K plans on three or more times the SMs (512 x 200 x 2384,
     * 416 x 88 x 1848: 1.07-1.09 in 2 x 2), nor past 24 quads (1816 x 168 x
     * 1448, 30: 1.06 / 1.17; 288 x 1048 x 3600, 27: 1.10 / 1.10), both GPUs'
     * models. */
    static const int both_yes[][3] = {{896, 384, 2232}, {72, 2872, 1032}, {2784, 112, 3112}, {248, 1328, 1848}};
    static const int both_no[][3] = {{512, 200, 2384}, {416, 88, 1848}, {1816, 168, 1448}, {288, 1048, 3600},
                                     {1024, 1024, 1024}, {8192, 8192, 8192}};
    for (int gi = 0; gi < 2; gi++) {
        for (int i = 0; i < 4; i++) {
            s = sk_plan_make(both_yes[i][0], both_yes[i][1], both_yes[i][2], gi ? &h2 : &h1, &sk_model_sm90, -1);
            EXPECT(s.kind == 26 && s.share_b == SK_SHARE_BOTH && !s.sk_pairs && 5 * s.pairs <= 4 * h100[26],
                   "%dx%dx%d (%s): kind %d share %d", both_yes[i][0], both_yes[i][1], both_yes[i][2], gi ? "H200" : "H100",
                   s.kind, s.share_b);
        }
        for (int i = 0; i < 6; i++) {
            s = sk_plan_make(both_no[i][0], both_no[i][1], both_no[i][2], gi ? &h2 : &h1, &sk_model_sm90, -1);
            /* 1816 x 168 x 1448 and 288 x 1048 x 3600 now run 64 x 64 in clusters
             * of 8 (0.885 and 0.907 of the time of the plan before, H100,
             * plots/calib/cl64/): 2 x 4 or 4 x 2, not 2 x 2 */
            const int now8 = i == 2 || i == 3;
            EXPECT(now8 ? s.cl == 8 && s.bm == 64 && s.bn == 64 : s.share_b != SK_SHARE_BOTH,
                   "%dx%dx%d (%s): %d x %d in clusters of %d, share B %d", both_no[i][0], both_no[i][1], both_no[i][2],
                   gi ? "H200" : "H100", s.bm, s.bn, s.cl, s.share_b);
        }
    }
    /* Clusters of 8 (plots/calib/cl8/, H100, forced against the plan without
     * them): 2 x 4 or 4 x 2 tiles, whole, one wave. A CTA's bytes: 128 x 112
     * in 2 x 4 asks for 32 rows of A and 56 of B, 11 KB a k-tile against a
     * pair's 23 (sharing B); its k-tile is priced no lower than its MMAs at
     * the tensor cores' peak plus SK_CL8_K_TILE_EXTRA (286 ns here, above its
     * MMAs at 128 x 256's rate, 278), nor than those (128 x 256 in 2 x 4). */
    EXPECT(sk_cand_parse("128x112o:dp:AB", &c) == 0 && sk_tile[c.kind][2] == 8 && c.share_a == SK_SHARE_BOTH &&
               sk_plan_of(3664, 416, 3936, h100, c, &s) == 0 && s.pairs == 15 && sk_box_rows_a(&s) == 32 &&
               sk_box_rows_b(&s) == 56 && fabs(sk_bytes_cost(&s, 1) - 88.0 / 184) < 1e-12 &&
               fabs(sk_k_tile_floor(&s, &sk_model_sm90) - (SK_CL8_K_TILE_EXTRA + SK_MMA_PEAK_NS * 112 / 256)) < 1e-9 &&
               sk_k_tile_floor(&s, &sk_model_sm90) > sk_model_sm90.k_tile[0] * 112 / 256,
           "128x112o:dp:AB at 3664x416x3936: %d pairs, boxes %d / %d, bytes %g", s.pairs, sk_box_rows_a(&s),
           sk_box_rows_b(&s), sk_bytes_cost(&s, 1));
    EXPECT(sk_cand_parse("128x256o:dp:AB", &c) == 0 && sk_plan_of(4096, 4096, 4096, h100, c, &s) == 0 &&
               fabs(sk_k_tile_floor(&s, &sk_model_sm90) - sk_model_sm90.k_tile[0]) < 1e-9,
           "128x256o:dp:AB: k-tile floor %g", sk_k_tile_floor(&s, &sk_model_sm90));
    EXPECT(sk_cand_parse("128x96o:dp:BA:T", &c) == 0 && sk_plan_of(120, 7048, 3472, h100, c, &s) == 0 &&
               sk_cover(&s) == 7168LL * 192 && 3 * sk_cover(&s) > 4 * 120LL * 7048,
           "120x7048x3472 in 128x96o:dp:BA:T: cover %lld", (long long)sk_cover(&s));
    EXPECT(sk_cand_parse("128x96o:dp:BA:T", &c) == 0 && c.share_a == SK_SHARE_BOTH4 && c.swap &&
               sk_plan_of(176, 7152, 1448, h100, c, &s) == 0 && s.m_blocks == 56 && s.n_blocks == 2 &&
               s.pairs == 14 && sk_box_rows_a(&s) == 64 && sk_box_rows_b(&s) == 24,
           "128x96o:dp:BA:T at 176x7152x1448: %d x %d blocks, %d pairs", s.m_blocks, s.n_blocks, s.pairs);
    {   /* only whole pairs, only sharing both, 4 x 2 only where a quarter of B's
         * tile is whole swizzle atoms (8 rows), the 4 x 2 form on clusters of 8
         * only, and never with one block column */
        sk_cand o;
        EXPECT(sk_cand_parse("128x112o:dp:AB", &o) == 0, "128x112o");
        const int k8 = o.kind, k4 = 20; /* 128 x 128 in quads */
        EXPECT(sk_plan_of(3664, 416, 3936, h100, (sk_cand){k8, SK_STREAM, 0, SK_SHARE_BOTH, 0}, &s) == -1 &&
                   sk_plan_of(3664, 416, 3936, h100, (sk_cand){k8, SK_WHOLE, 0, 0, 0}, &s) == -1 &&
                   sk_plan_of(3664, 416, 3936, h100, (sk_cand){k8, SK_WHOLE, 0, 1, 0}, &s) == -1 &&
                   sk_plan_of(3664, 416, 3936, h100, (sk_cand){k8, SK_WHOLE, 0, SK_SHARE_BOTH4, 0}, &s) == -1 &&
                   sk_plan_of(3664, 416, 3936, h100, (sk_cand){k4, SK_WHOLE, 0, SK_SHARE_BOTH4, 0}, &s) == -1 &&
                   sk_plan_of(3664, 100, 3936, h100, (sk_cand){k8, SK_WHOLE, 0, SK_SHARE_BOTH, 0}, &s) == -1 &&
                   sk_cand_parse("128x112o:sk:AB", &o) == 0 && sk_plan_of(300, 300, 8000, h100, o, &s) == -1 &&
                   sk_cand_parse("128x112o:skw:AB", &o) == 0 && sk_plan_of(3664, 416, 3936, h100, o, &s) == -1 &&
                   sk_cand_parse("128x112o:split8:AB", &o) == 0 && sk_plan_of(300, 300, 8000, h100, o, &s) == -1,
               "clusters of 8: forms that do not apply");
        /* split-K in one wave: 300 x 300 in 128 x 112 is 3 x 3 tiles, 2 clusters' worth in 2 x 4
         * (a column of clusters past the edge), cut 7 ways on 14 of the 15 clusters */
        EXPECT(sk_cand_parse("128x112o:split7:AB", &o) == 0 && sk_plan_of(300, 300, 8000, h100, o, &s) == 0 &&
                   s.cl == 8 && s.pairs == 2 && s.ways == 7 && s.clusters == 14 && s.sk_pairs == 2,
               "128x112o:split7:AB at 300x300x8000: %d pairs, %d ways, %d clusters", s.pairs, s.ways, s.clusters);
    }
    /* The plan picks them where one wave of them fills 2/3 of the SMs or more
     * (0.77-0.90 of the time at 4/5 or more; 11-13 clusters, below, 0.914 /
     * 0.949 of the time on held-out shapes, H100 / H200), and over several
     * waves where they ran faster (7320 x 560 x 568, 4864 x 888 x 3512: 0.77-0.86,
     * plots/calib/cl8waves/; 9296 x 456 x 2632 and 2160 x 1944 x 3848 too,
     * but now one wave of 128 x 288 pairs: 1.00 / 0.94 of the time at 9296 x
     * 456 x 2632, H100 / H200, below; 1.04 at 2160 x 1944 x 3848, H100, a
     * known miss, plots/calib/wide288/); not on fewer (6-10
     * clusters: 1.00-1.19), nor where their tiles cover more than 4/3 of C
     * (120 x 7048 x 3472 in 96 x 128 tiles of C^T, 4 x 2, covering 1.63 times
     * C: 1.01-1.08), nor where they ran slower over several waves (8192 x 1024
     * x 2048, 2864 x 2048 x 15072, 9024 x 920 x 824, 1344 x 8704 x 1888, 536 x
     * 8760 x 1040: 1.09-1.22 in 128 x 96 or 128 x 128 tiles). Of 128 rows, that
     * is: 2872 x 168 x 2808 now runs 96 x 64 tiles of C^T in clusters of 8, 4 x 2,
     * 16.2 us against the 128 x 64 quads' 15.6 (H100, plots/calib/cl64/), a
     * known miss of the model. */
    static const int eight_yes[][3] = {{3664, 416, 3936}, {3600, 264, 1584}, {7152, 176, 1448}, {1040, 1512, 1192},
                                       {7320, 560, 568},  {4864, 888, 3512}};
    static const int eight_no[][3] = {{2872, 168, 2808}, {1024, 1024, 1024}, {8192, 8192, 8192}, {120, 7048, 3472},
                                      {8192, 1024, 2048}, {2864, 2048, 15072}, {9024, 920, 824}, {1344, 8704, 1888},
                                      {536, 8760, 1040}};
    for (int i = 0; i < 9; i++) {
        s = sk_plan_make(eight_no[i][0], eight_no[i][1], eight_no[i][2], &h1, &sk_model_sm90, -1);
        EXPECT(i == 0 ? s.cl == 8 && s.bm == 64 && s.bn == 96 && s.swap : s.cl != 8, "%dx%dx%d: %d x %d%s in clusters of %d",
               eight_no[i][0], eight_no[i][1], eight_no[i][2], s.bm, s.bn, s.swap ? " of C^T" : "", s.cl);
    }
    /* 128-row tiles in one wave of 11-13 clusters of 8, under 4/5 of the SMs
     * (plots/calib/fill23/, own pick against the plan of the 4/5 rule, H100 /
     * H200): 3120 x 312 x 2280 in 128 x 80, 13 clusters, 19.1 -> 15.2 / 17.6
     * -> 15.1 us; 6312 x 192 x 5208 in 128 x 96, 13, 44.0 -> 35.3 / 36.3 ->
     * 31.8; 400 x 2736 x 2096 in 112 x 128 of C^T, 11, 18.8 -> 15.2 / 17.5 ->
     * 15.0. */
    static const int eight_few[][3] = {{3120, 312, 2280}, {6312, 192, 5208}, {400, 2736, 2096}};
    for (int gi = 0; gi < 2; gi++)
        for (int i = 0; i < 3; i++) {
            s = sk_plan_make(eight_few[i][0], eight_few[i][1], eight_few[i][2], gi ? &h2 : &h1, &sk_model_sm90, -1);
            EXPECT(s.cl == 8 && s.bm == 128 && !s.ways && !s.sk_pairs && s.pairs <= s.clusters &&
                       5 * 8 * s.clusters < 4 * 2 * 66 && 3 * 8 * s.clusters >= 2 * 2 * 66,
                   "%dx%dx%d (%s): %d x %d in clusters of %d, %d pairs on %d clusters", eight_few[i][0], eight_few[i][1],
                   eight_few[i][2], gi ? "H200" : "H100", s.bm, s.bn, s.cl, s.pairs, s.clusters);
        }
    /* 64-row tiles in clusters of 8 (kinds 39-41; plots/calib/cl64/, H100):
     * picked where they ran faster forced or on held-out shapes (200 x 1704 x
     * 3792 in 64 x 64, 18.5 -> 14.6 us; 96 x 3536 x 2648, 17.2 -> 13.0; 312 x
     * 1360 x 3232 in 64 x 80, 16.4 -> 14.2; 3512 x 112 x 5480 in 64 x 64 of C^T,
     * 30.4 -> 21.8), whole and in one wave on both GPUs' models; not where a
     * 64 x 64 quad fits (896 x 384 x 2232: 12.2 us against the quad's 10.8), nor
     * over several waves (6992 x 384 x 3632 in 64 x 96: 54.1 us forced,
     * against 36.3). */
    static const int eight64_yes[][3] = {{200, 1704, 3792}, {96, 3536, 2648}, {312, 1360, 3232}, {3512, 112, 5480}};
    static const int eight64_no[][3] = {{896, 384, 2232}, {6992, 384, 3632}};
    for (int gi = 0; gi < 2; gi++) {
        for (int i = 0; i < 4; i++) {
            s = sk_plan_make(eight64_yes[i][0], eight64_yes[i][1], eight64_yes[i][2], gi ? &h2 : &h1, &sk_model_sm90, -1);
            EXPECT(s.cl == 8 && s.bm == 64 && !s.ways && !s.sk_pairs && s.pairs <= s.clusters,
                   "%dx%dx%d (%s): %d x %d in clusters of %d, %d pairs on %d, %d ways", eight64_yes[i][0],
                   eight64_yes[i][1], eight64_yes[i][2], gi ? "H200" : "H100", s.bm, s.bn, s.cl, s.pairs, s.clusters,
                   s.ways);
        }
        for (int i = 0; i < 2; i++) {
            s = sk_plan_make(eight64_no[i][0], eight64_no[i][1], eight64_no[i][2], gi ? &h2 : &h1, &sk_model_sm90, -1);
            EXPECT(s.cl != 8 || s.bm != 64, "%dx%dx%d (%s): 64-row tiles in clusters of 8", eight64_no[i][0],
                   eight64_no[i][1], eight64_no[i][2], gi ? "H200" : "H100");
        }
    }
    /* ... on fewer than 4/5 of the SMs too (held out, H100 / H200: 80 x 4032 x
     * 3064 in 64 x 80, 13 clusters, 21.2 -> 15.3 / 15.9 -> 14.0 us; 104 x 3208
     * x 4312 in 64 x 64, 22.4 -> 17.2 / 18.8 -> 16.3; 4056 x 88 x 1712 in 64 x
     * 80 of C^T, 13.5 -> 11.3 / 12.7 -> 10.4; plots/calib/cring/). */
    static const int eight64_few[][3] = {{80, 4032, 3064}, {104, 3208, 4312}, {4056, 88, 1712}};
    for (int gi = 0; gi < 2; gi++)
        for (int i = 0; i < 3; i++) {
            s = sk_plan_make(eight64_few[i][0], eight64_few[i][1], eight64_few[i][2], gi ? &h2 : &h1, &sk_model_sm90,
                             -1);
            EXPECT(s.cl == 8 && s.bm == 64 && !s.ways && !s.sk_pairs && 5 * 8 * s.clusters < 4 * 2 * 66,
                   "%dx%dx%d (%s): %d x %d in clusters of %d on %d clusters", eight64_few[i][0], eight64_few[i][1],
                   eight64_few[i][2], gi ? "H200" : "H100", s.bm, s.bn, s.cl, s.clusters);
        }
    /* v7's kernels for 64-row tiles in clusters of 8 keep their C slices in
     * the ring (C_IN_RING in v7_stream_k/hopper.cu): every plan of them, V7_TILE's
     * too, runs one piece a cluster (whole pairs in one wave, or split-K), and
     * sk_plan_of refuses whole pairs past one wave (6992 x 384 x 3632). */
    static const int any64[][3] = {{6992, 384, 3632}, {200, 1704, 3792}, {4096, 4096, 4096}, {96, 3536, 2648},
                                   {1024, 1024, 1024}, {512, 200, 9000}};
    int one64 = 0, refused64 = 0;
    for (int k = 0; k < SK_KINDS; k++)
        for (int i = 0; i < 6 && sk_tile[k][0] == 64 && sk_tile[k][2] == 8; i++)
            for (int mode = 0; mode < SK_MODES; mode++)
                for (int ways = mode == SK_SPLIT ? 2 : 0; ways <= (mode == SK_SPLIT ? 15 : 0); ways++)
                    for (int share = SK_SHARE_BOTH; share <= SK_SHARE_BOTH4; share++)
                        for (int swap = 0; swap < 2; swap++) {
                            const sk_cand c = {k, mode, ways, share, swap};
                            if (sk_plan_of(any64[i][0], any64[i][1], any64[i][2], h1.max_clusters, c, &s)) {
                                refused64 += mode == SK_WHOLE && i == 0;
                                continue;
                            }
                            one64++;
                            EXPECT(s.ways > 0 || (s.sk_pairs == 0 && s.pairs <= s.clusters),
                                   "%dx%dx%d: %d x %d in clusters of 8, mode %d: %d pairs on %d clusters, %d "
                                   "stream-K", any64[i][0], any64[i][1], any64[i][2], s.bm, s.bn, mode, s.pairs,
                                   s.clusters, s.sk_pairs);
                        }
    EXPECT(one64 > 0 && refused64 > 0, "64-row clusters of 8: %d plans made, %d whole past one wave refused", one64,
           refused64);
    for (int i = 0; i < 6; i++) {
        s = sk_plan_make(eight_yes[i][0], eight_yes[i][1], eight_yes[i][2], &h1, &sk_model_sm90, -1);
        EXPECT(s.cl == 8 && s.share_b >= SK_SHARE_BOTH && !s.sk_pairs && (i >= 4) == (s.pairs > s.clusters) &&
                   5 * 8 * s.pairs >= 4 * 132,
               "%dx%dx%d: clusters of %d, %d pairs", eight_yes[i][0], eight_yes[i][1], eight_yes[i][2], s.cl, s.pairs);
    }
    /* ... and split-K in one wave where it ran faster on both GPUs (472 x 552 x
     * 12296 in 128 x 96, 4 x 2, cut 5 ways on 15 clusters: 0.825 / 0.873 of the
     * time of 128 x 192 pairs split 11 ways, H100 / H200; plots/calib/cl8split/). */
    for (int gi = 0; gi < 2; gi++) {
        s = sk_plan_make(472, 552, 12296, gi ? &h2 : &h1, &sk_model_sm90, -1);
        EXPECT(s.cl == 8 && s.ways >= 2 && s.pairs * s.ways == s.clusters && s.clusters <= 15,
               "472x552x12296 (%s): clusters of %d, %d ways, %d clusters", gi ? "H200" : "H100", s.cl, s.ways,
               s.clusters);
    }
    /* A quad cut in split-K pieces is priced as its pair, and the tie goes to
     * the pair (88 x 304 x 5048: 64 x 64 split 10 ways on 50 clusters, not 3
     * quads on 30). */
    s = sk_plan_make(88, 304, 5048, &h1, &sk_model_sm90, -1);
    EXPECT(s.cl == 2 && s.ways >= 2, "88x304x5048: clusters of %d, %d ways", s.cl, s.ways);
    /* ... so past one wave the plan stays in pairs: in quads, 128 x 256 ran
     * 8192^3 12% slower, 4096^3 20%, 4096 x 14336 x 4096 7% (H100,
     * plots/calib/cluster4/), and 2048 x 8192 x 28672 9% (plots/calib/l2model/). */
    static const int big[][3] = {{8192, 8192, 8192}, {4096, 4096, 4096}, {4096, 14336, 4096}, {2048, 8192, 28672},
                                 {16384, 4096, 14336}};
    for (int i = 0; i < 5; i++)
        for (int gi = 0; gi < 2; gi++) {
            s = sk_plan_make(big[i][0], big[i][1], big[i][2], gi ? &h2 : &h1, &sk_model_sm90, -1);
            EXPECT(s.cl == 2, "%dx%dx%d (%s): clusters of %d", big[i][0], big[i][1], big[i][2], gi ? "H200" : "H100",
                   s.cl);
        }
    /* Widths in steps of 16 (plots/calib/fine/, H100, old plan -> new, same
     * run): 2776 x 856 x 9144 in 128 x 144, one whole wave, 117.6 -> 86.7 us;
     * 4368 x 1544 x 1512 in 128 x 224, 50.6 -> 44.4 us; 512 x 4448 x 15336 in
     * 128 x 144, 172.3 -> 155.4 us; 2840 x 80 x 4720 in 128 x 80 split 5 ways,
     * 20.9 -> 18.8 us; 4104 x 4104 x 4096 in 128 x 224 whole pairs, 0.2218 ->
     * 0.2146 ms. 2840 x 80 x 4720 is now 64 x 80, stream-K: 19.3 -> 17.3 us
     * (H100), 16.6 -> 16.5 (H200; plots/calib/narrow/); with the stream-K
     * phase priced 8% dearer (sk_model.stream) the model picks 128 x 80 split
     * 5 ways again: measured 19.9 us against 19.2 for 64 x 80 stream-K, 3.8%
     * slower, a loss the factor's gains elsewhere pay for (H100, 2026-11-26,
     * plots/calib/pdl2/h100_sk_ab2.txt). 2776 x 856 x 9144 and
     * 512 x 4448 x 15336 are now one wave of quads (plots/calib/quads/, H100 /
     * H200, 2026-11-26): 192 x 128 of C^T, 86.2 -> 80.9 us / 76.3 -> 77.2 us;
     * 128 x 160, 154.0 -> 132.5 / 124.0 -> 107.9 us. */
    static const int fine[][4] = {{2776, 856, 9144, 192}, {4368, 1544, 1512, 224}, {512, 4448, 15336, 160},
                                  {2840, 80, 4720, 80},   {4104, 4104, 4096, 224}};
    for (int i = 0; i < 5; i++)
        for (int gi = 0; gi < 2; gi++) {
            s = sk_plan_make(fine[i][0], fine[i][1], fine[i][2], gi ? &h2 : &h1, &sk_model_sm90, -1);
            const int quads = i == 0 || i == 2;
            EXPECT(s.bm == 128 && s.bn == fine[i][3] && (s.cl == 4) == quads, "%dx%dx%d (%s): %d x %d in clusters of %d, want 128 x %d",
                   fine[i][0], fine[i][1], fine[i][2], gi ? "H200" : "H100", s.bm, s.bn, s.cl, fine[i][3]);
        }
    /* The widths between 64 and 256 columns (and 288, two wgmma of 144) are
     * kernels the plan can name: multiples of 16 (the shared B's halves stay
     * 1024-byte aligned), and their costs on the lines through the 128-row
     * tiles of 64, 128, 192 and 256 columns (288's measured), so a wider
     * 128-row tile never costs less per k-tile or per piece. */
    for (int k = 0; k < SK_KINDS; k++) {
        EXPECT(sk_tile[k][1] % 16 == 0 && sk_tile[k][1] >= 64 && (sk_tile[k][1] <= 256 || sk_tile[k][1] == 288),
               "kind %d: %d columns", k, sk_tile[k][1]);
        for (int j = 0; j < SK_KINDS; j++)
            if (sk_tile[k][0] == 128 && sk_tile[j][0] == 128 && sk_tile[j][1] > sk_tile[k][1])
                EXPECT(sk_model_sm90.k_tile[j] > sk_model_sm90.k_tile[k] &&
                           sk_model_sm90.piece[j] > sk_model_sm90.piece[k],
                       "128 x %d costs no more than 128 x %d", sk_tile[j][1], sk_tile[k][1]);
        for (int j = 0; j < k; j++)
            EXPECT(sk_tile[j][0] != sk_tile[k][0] || sk_tile[j][1] != sk_tile[k][1] || sk_tile[j][2] != sk_tile[k][2],
                   "kinds %d and %d alike", j, k);
    }
    /* Tiles of C^T (plots/calib/swap/, H100, 2026-11-24, the model's pick
     * among tiles of C -> its pick, same run): M in steps of 16 where M is the
     * side with the padding or the waves to fill. 144 x 6040 x 1744 in 80 x 128
     * tiles of C (128 x 80 of C^T), 23.1 -> 18.4 us; 296 x 4664 x 6296 in 160 x
     * 128, 63.0 -> 53.2 us (see below); 1888 x 4176 x 4600 in 240 x 128, 151.5 -> 131.4 us;
     * 9576 x 376 x 6784 in 224 x 128, 96.1 -> 80.0 us; 528 x 13184 x 2312 in
     * 176 x 128, 77.1 -> 74.3 us. And the model is symmetric: C^T's problem
     * costs what C's does. (296 x 4664 x 6296 is now one wave of 128 x 128 in
     * quads, which ran 53.1 us against 51.0 for the plan of C^T that came
     * before, H100, plots/calib/quads/: a miss of the model, not tested.)
     * 144 x 6040 x 1744 in 128 x 112 tiles in clusters of 8, 2 x 4, the second
     * row of tiles 16 rows deep, took 15.9 us against 14.8 (H100,
     * plots/calib/cl8/): no cluster of 8 covers more than 4/3 of C. */
    static const int swapped[][4] = {{144, 6040, 1744, 80}, {1888, 4176, 4600, 240}, {9576, 376, 6784, 224},
                                     {528, 13184, 2312, 176}};
    for (int i = 0; i < 4; i++) {
        s = sk_plan_make(swapped[i][0], swapped[i][1], swapped[i][2], &h1, &sk_model_sm90, -1);
        EXPECT(s.swap && s.bm == 128 && s.bn == swapped[i][3], "%dx%dx%d: swap %d, %d x %d, want 128 x %d of C^T",
               swapped[i][0], swapped[i][1], swapped[i][2], s.swap, s.bm, s.bn, swapped[i][3]);
    }
    rng = 777;
    for (int i = 0; i < 500 && !cur_failed; i++) {
        const int M = 1 + (int)(rng_next(&rng) % 16384), N = 1 + (int)(rng_next(&rng) % 16384);
        const int K = 1 + (int)(rng_next(&rng) % 16384);
        const sk_plan a = sk_plan_make(M, N, K, &h1, &sk_model_sm90, -1);
        const sk_plan b = sk_plan_make(N, M, K, &h1, &sk_model_sm90, -1);
        const double ta = sk_model_ns(&a, M, N, K, &h1, &sk_model_sm90);
        const double tb = sk_model_ns(&b, N, M, K, &h1, &sk_model_sm90);
        EXPECT(ta == tb, "%dx%dx%d: %.0f ns, transposed %.0f ns", M, N, K, ta, tb);
    }
    sk_cand c144;
    EXPECT(sk_cand_parse("128x144:split3:A", &c144) == 0 && sk_tile[c144.kind][1] == 144 && c144.ways == 3 &&
               c144.share_a && sk_cand_parse("128x150", &c144) != 0 && sk_cand_parse("64x144", &c144) != 0,
           "names of the widths in steps of 16");
    s = sk_plan_make(8192, 8192, 8192, &h1, &sk_model_sm90, -1);
    EXPECT(s.bm == 128 && s.bn == 256 && s.share_b, "8192^3: %d x %d", s.bm, s.bn);
    /* Re-reads: only an operand that several stream-K pairs read can be read
     * again. 9176 x 152 x 4968 in 128 x 160 tiles is one block column: each
     * pair's A rows are its own (DRAM bytes read, ncu, H100: 99 MB, the
     * operands once), so at most B's bytes count again (the model before
     * counted A's too: 65 MB). */
    sk_cand c160;
    EXPECT(sk_cand_parse("128x160:sk", &c160) == 0 && sk_plan_of(9176, 152, 4968, h100, c160, &s) == 0 &&
               s.sk_pairs > 0 && s.n_blocks == 1 &&
               sk_reread_bytes(&s, 4968, &h1, &sk_model_sm90) <= (double)s.sk_iters * 160 * 64 * 2,
           "9176x152x4968, 128 x 160 stream-K: %.0f bytes read again", sk_reread_bytes(&s, 4968, &h1, &sk_model_sm90));
    /* The re-read bytes of any candidate: none without stream-K pairs or in
     * split-K, never more than the stream-K ranges read, and never more with
     * a larger L2. */
    rng = 4242;
    for (int i = 0; i < 400 && !cur_failed; i++) {
        const int M = 1 + (int)(rng_next(&rng) % 16384), N = 1 + (int)(rng_next(&rng) % 16384);
        const int K = 1 + (int)(rng_next(&rng) % 16384);
        sk_gpu big = h1;
        big.l2_bytes = 2 * h1.l2_bytes;
        for (int mode = 0; mode < SK_MODES; mode++) {
            const sk_cand c = {(int)(rng_next(&rng) % SK_KINDS), mode, mode == SK_SPLIT ? 2 : 0,
                               (int)(rng_next(&rng) % 2), (int)(rng_next(&rng) % 2)};
            if (sk_plan_of(M, N, K, h100, c, &s) != 0)
                continue;
            const double r = sk_reread_bytes(&s, K, &h1, &sk_model_sm90), rb = sk_reread_bytes(&s, K, &big, &sk_model_sm90);
            const double rows = s.share_b ? (double)s.cl * s.bm + s.bn : s.bm + (double)s.cl * s.bn;
            EXPECT(r >= 0 && rb <= r && r <= (double)s.sk_iters * rows * s.bk * 2 &&
                       ((s.sk_pairs && !s.ways) || r == 0),
                   "%dx%dx%d, kind %d mode %d: %.0f bytes again, %.0f with twice the L2", M, N, K, c.kind, mode, r, rb);
        }
    }
    /* ... and operands read by several pairs at staggered k-tiles are read
     * again: 4176 x 1064 x 7040 with all 85 pairs of 128 x 224 stream-K ran
     * 163.7 us (H100, plots/calib/reread/), the 19 last pairs alone 105.3. */
    s = sk_plan_make(4176, 1064, 7040, &h1, &sk_model_sm90, -1);
    EXPECT(s.sk_pairs < s.pairs, "4176x1064x7040: %d of %d pairs stream-K", s.sk_pairs, s.pairs);
    /* No tile twice as wide (tall) as C while a narrower one exists. */
    s = sk_plan_make(8192, 64, 8192, &h1, &sk_model_sm90, -1);
    EXPECT(s.bn == 64, "8192x64x8192: %d x %d", s.bm, s.bn);
    s = sk_plan_make(16, 4096, 14336, &h1, &sk_model_sm90, -1);
    EXPECT(s.bm == 64, "16x4096x14336: %d x %d", s.bm, s.bn);
    s = sk_plan_make(8, 8, 8192, &h1, &sk_model_sm90, -1);
    EXPECT(s.bm == 64 && s.bn == 64, "8x8x8192: %d x %d", s.bm, s.bn);
    EXPECT(sk_tile_fits(0, 129, 129) && !sk_tile_fits(0, 128, 128) && sk_tile_fits(1, 128, 128) &&
           !sk_tile_fits(1, 64, 128) && sk_tile_fits(2, 64, 128) && sk_tile_fits(4, 1, 1),
           "sk_tile_fits");
    /* Rows of A a stage holds: M rounded up to 8 when C is one block row
     * shorter than a 64-row tile, else the tile's. */
    s = sk_plan_make(16, 8192, 8192, &h1, &sk_model_sm90, 4);
    EXPECT(s.a_rows == 16 && !s.share_b, "16 x 8192 x 8192: a_rows %d", s.a_rows);
    s = sk_plan_make(1, 1000, 1000, &h1, &sk_model_sm90, 2);
    EXPECT(s.a_rows == 8, "1 x 1000 x 1000: a_rows %d", s.a_rows);
    s = sk_plan_make(33, 2048, 8192, &h1, &sk_model_sm90, 4);
    EXPECT(s.a_rows == 40 && s.bm == 64, "33 x 2048 x 8192 (64 x 64): a_rows %d", s.a_rows);
    s = sk_plan_make(100, 8192, 8192, &h1, &sk_model_sm90, 1); /* 128-row tiles: two half boxes */
    EXPECT(s.a_rows == 128 && s.m_blocks == 1, "100 x 8192 x 8192 (128 x 128): a_rows %d", s.a_rows);
    s = sk_plan_make(200, 8192, 8192, &h1, &sk_model_sm90, 1);
    EXPECT(s.a_rows == 128 && s.share_b, "200 x 8192 x 8192 (128 x 128): a_rows %d", s.a_rows);
    end();
}

/* ---- tcgen05_desc.h: sm_100 descriptors, field by field ------------------ */

/* One field of a descriptor as the PTX ISA's table states it: bits
 * lo .. lo + width - 1 hold `want`. */
typedef struct {
    const char *name;
    int lo, width;
    uint64_t want;
} bitfield;

static uint64_t field_of(uint64_t v, int lo, int width)
{
    return (v >> lo) & (width == 64 ? ~0ull : (1ull << width) - 1);
}

/* Every field of v has its value, and the table covers each of the `bits`
 * bits exactly once (so a field moved by one bit cannot pass). */
static void expect_fields(int line, const char *what, uint64_t v, const bitfield *f, size_t n,
                          int bits)
{
    uint64_t covered = 0;
    for (size_t i = 0; i < n; i++) {
        const uint64_t mask = ((f[i].width == 64 ? ~0ull : (1ull << f[i].width) - 1)) << f[i].lo;
        if (covered & mask) failf(line, "%s: table error, field %s overlaps another", what, f[i].name);
        covered |= mask;
        const uint64_t got = field_of(v, f[i].lo, f[i].width);
        if (got != f[i].want)
            failf(line, "%s = 0x%016llx: field %s (bits %d-%d) = %llu, want %llu", what,
                  (unsigned long long)v, f[i].name, f[i].lo, f[i].lo + f[i].width - 1,
                  (unsigned long long)got, (unsigned long long)f[i].want);
    }
    const uint64_t all = bits == 64 ? ~0ull : (1ull << bits) - 1;
    if (covered != all) failf(line, "%s: table error, bits not covered 0x%llx", what,
                              (unsigned long long)(all & ~covered));
}

/* The shared-memory descriptor table (PTX ISA, tcgen05 "Shared Memory
 * Descriptor"): start, LBO, SBO >> 4; bit 46 set; swizzle code at 61-63. */
static void expect_smem_desc(int line, uint64_t d, uint32_t addr, uint32_t lbo, uint32_t sbo,
                             uint32_t swizzle)
{
    const bitfield f[] = {
        {"start address >> 4", 0, 14, (addr & 0x3FFFFu) >> 4},
        {"reserved 14-15", 14, 2, 0},
        {"LBO >> 4", 16, 14, (lbo & 0x3FFFFu) >> 4},
        {"reserved 30-31", 30, 2, 0},
        {"SBO >> 4", 32, 14, (sbo & 0x3FFFFu) >> 4},
        {"fixed 0b001", 46, 3, 1},
        {"base offset", 49, 3, 0},
        {"LBO mode", 52, 1, 0},
        {"fixed 0", 53, 8, 0},
        {"swizzle mode", 61, 3, swizzle},
    };
    expect_fields(line, "smem descriptor", d, f, sizeof f / sizeof f[0], 64);
}

static void test_umma_smem_desc(void)
{
    begin("umma_smem_desc_fields");
    /* The kernels' operand: K-major, 128B swizzle, 1024-byte aligned tiles. */
    const uint32_t addrs[] = {0, 0x400, 0x1400, 0xC400, 0x30000, 0x3FC00};
    for (size_t i = 0; i < sizeof addrs / sizeof addrs[0]; i++) {
        const uint64_t d = umma_desc_k_sw128(addrs[i]);
        expect_smem_desc(__LINE__, d, addrs[i], 16, 1024, 2);
        /* CUTLASS's make_umma_desc<K> for Layout_K_SW128_Atom<half_t> (host run,
         * notes/blackwell-facts.md section 4): 0x4000404000010000 | addr >> 4. */
        EXPECT_EQ_U(d, 0x4000404000010000ull | (addrs[i] >> 4), "umma_desc_k_sw128");
    }
    /* Other layouts through the general form: no swizzle K-major (LBO 2048,
     * SBO 128, as CUTLASS's 128x16 no-swizzle atom), 64B and 32B swizzle. */
    expect_smem_desc(__LINE__, umma_smem_desc(0x2340, 2048, 128, UMMA_SWIZZLE_NONE), 0x2340, 2048,
                     128, 0);
    expect_smem_desc(__LINE__, umma_smem_desc(0x800, 16, 512, UMMA_SWIZZLE_64B), 0x800, 16, 512, 4);
    expect_smem_desc(__LINE__, umma_smem_desc(0x100, 16, 256, UMMA_SWIZZLE_32B), 0x100, 16, 256, 6);
    expect_smem_desc(__LINE__, umma_smem_desc(0x400, 16, 1024, UMMA_SWIZZLE_128B_BASE32B), 0x400,
                     16, 1024, 1);
    /* Largest encodable offsets: 14 bits of 16-byte units. */
    expect_smem_desc(__LINE__, umma_smem_desc(0x3FFF0, 0x3FFF0, 0x3FFF0, 2), 0x3FFF0, 0x3FFF0,
                     0x3FFF0, 2);
    EXPECT_EQ_U(field_of(umma_smem_desc(0x3FFF0, 0x3FFF0, 0x3FFF0, 2), 0, 14), 0x3FFF,
                "start field of 0x3FFF0");
    end();

    begin("umma_smem_desc_k_steps_and_sm90");
    /* Stepping along K inside the swizzled 128-byte row adds 32 bytes per
     * MMA (16 fp16), i.e. 2 to the start field, nothing else changes. */
    for (uint32_t k = 0; k < 4; k++) {
        const uint64_t d0 = umma_desc_k_sw128(0x8000), dk = umma_desc_k_sw128(0x8000 + 32 * k);
        EXPECT_EQ_U(dk - d0, 2 * k, "descriptor step for k");
    }
    /* The sm_90 wgmma descriptor of the same tile (common/wgmma.cuh: start,
     * LBO 1, SBO 64, layout 1 at bits 62-63) differs only in bit 46: the
     * 128B codes 2 << 61 (sm_100) and 1 << 62 (sm_90) are the same bits. */
    for (uint32_t a = 0; a < 0x40000; a += 0x2400) {
        const uint64_t sm90 = (uint64_t)(a >> 4) | (1ull << 16) | (64ull << 32) | (1ull << 62);
        EXPECT_EQ_U(umma_desc_k_sw128(a), sm90 | (1ull << 46), "sm_100 descriptor vs sm_90's");
    }
    EXPECT_EQ_U((uint64_t)UMMA_SWIZZLE_64B << 61, 1ull << 63, "64B code vs sm_90's (2 << 62)");
    EXPECT_EQ_U((uint64_t)UMMA_SWIZZLE_32B << 61, 3ull << 62, "32B code vs sm_90's (3 << 62)");
    end();
}

/* The instruction descriptor table for .kind::f16 (PTX ISA, tcgen05
 * "Instruction descriptor"), fp16 A and B, fp32 D, dense, K-major. */
static void expect_idesc(int line, uint32_t d, uint32_t m, uint32_t n)
{
    const bitfield f[] = {
        {"sparsity selector", 0, 2, 0},
        {"sparsity", 2, 1, 0},
        {"saturate", 3, 1, 0},
        {"D type (1 = f32)", 4, 2, 1},
        {"reserved 6", 6, 1, 0},
        {"A type (0 = f16)", 7, 3, 0},
        {"B type (0 = f16)", 10, 3, 0},
        {"negate A", 13, 1, 0},
        {"negate B", 14, 1, 0},
        {"transpose A (0 = K-major)", 15, 1, 0},
        {"transpose B (0 = K-major)", 16, 1, 0},
        {"N >> 3", 17, 6, n >> 3},
        {"reserved 23", 23, 1, 0},
        {"M >> 4", 24, 5, m >> 4},
        {"reserved 29", 29, 1, 0},
        {"max shift", 30, 2, 0},
    };
    expect_fields(line, "instruction descriptor", d, f, sizeof f / sizeof f[0], 32);
}

static void test_umma_idesc(void)
{
    begin("umma_idesc_f16_fields");
    /* The encodable shapes of kind::f16: M 64 with N a multiple of 8, M 128
     * and (cta_group::2) 256 with N a multiple of 16, N up to 256. */
    for (uint32_t n = 8; n <= 256 && !cur_failed; n += 8) {
        expect_idesc(__LINE__, umma_idesc_f16_f32(64, n), 64, n);
        if (n % 16 == 0) {
            expect_idesc(__LINE__, umma_idesc_f16_f32(128, n), 128, n);
            expect_idesc(__LINE__, umma_idesc_f16_f32(256, n), 256, n);
        }
    }
    /* CUTLASS's UMMA::make_instr_desc<half_t, half_t, float, M, N, K-major,
     * K-major> (host run, notes/blackwell-facts.md section 3). */
    EXPECT_EQ_U(umma_idesc_f16_f32(128, 256), 0x08400010u, "idesc M128 N256");
    EXPECT_EQ_U(umma_idesc_f16_f32(128, 128), 0x08200010u, "idesc M128 N128");
    EXPECT_EQ_U(umma_idesc_f16_f32(256, 256), 0x10400010u, "idesc M256 N256");
    end();

    begin("tmem_addr");
    /* lane in bits 31-16, column in bits 15-0 (PTX ISA, Tensor Memory addressing). */
    EXPECT_EQ_U(tmem_addr(0, 0, 0), 0, "lane 0 column 0");
    EXPECT_EQ_U(tmem_addr(0, 96, 224), (96u << 16) | 224u, "lane 96 column 224");
    EXPECT_EQ_U(tmem_addr(256, 32, 32), (32u << 16) | 288u, "base column 256, lane 32, column 32");
    end();
}

/* ---- dispatch.h: which kernel for which GPU ------------------------------ */

static void test_matmul_pick(void)
{
    begin("matmul_pick");
    char why[256];
    EXPECT(matmul_pick(9, 0, true, "v0_x", why, sizeof why) == MATMUL_ARCH_SM90, "9.0 -> sm90");
    EXPECT(matmul_pick(9, 0, false, "v0_x", why, sizeof why) == MATMUL_ARCH_SM90,
           "9.0 without a Blackwell kernel -> sm90");
    EXPECT(matmul_pick(10, 0, true, "v0_x", why, sizeof why) == MATMUL_ARCH_SM100, "10.0 -> sm100");
    why[0] = '\0';
    EXPECT(matmul_pick(10, 0, false, "v5_clc", why, sizeof why) == MATMUL_ARCH_NONE,
           "10.0 without a Blackwell kernel must be refused");
    EXPECT(strstr(why, "v5_clc has no Blackwell kernel") != NULL && !strchr(why, '\n'),
           "reason '%s' does not name the step in one line", why);
    /* The "a" targets run on exactly 9.0 and 10.0: not on 8.x, 9.x > 0, 10.3 (B300),
     * 11.0, 12.0 (RTX 50). */
    static const int others[][2] = {{7, 5}, {8, 0}, {8, 9}, {9, 1}, {10, 1}, {10, 3},
                                    {11, 0}, {12, 0}, {12, 1}};
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
        char want[16];
        why[0] = '\0';
        snprintf(want, sizeof want, "sm_%d%d", others[i][0], others[i][1]);
        EXPECT(matmul_pick(others[i][0], others[i][1], true, "v0_x", why, sizeof why) ==
                   MATMUL_ARCH_NONE,
               "%d.%d must be refused", others[i][0], others[i][1]);
        EXPECT(strstr(why, want) != NULL && !strchr(why, '\n'), "reason '%s' does not name %s",
               why, want);
    }
    end();
}

/* ---- verify: fills ------------------------------------------------------ */

#define NDRAW 10000

/* Same seed: the same data; another seed: agreement on fewer than max_same
 * of NDRAW values. x holds fill(seed). */
static void expect_seeded(void (*fill)(f16 *, size_t, uint64_t), const f16 *x, f16 *y,
                          uint64_t seed, int max_same)
{
    fill(y, NDRAW, seed);
    EXPECT(!memcmp(x, y, NDRAW * sizeof(f16)), "same seed, different data");
    fill(y, NDRAW, seed + 1);
    int same = 0;
    for (int i = 0; i < NDRAW; i++) same += x[i] == y[i];
    EXPECT(same < max_same, "seeds %llu and %llu agree on %d of %d", (unsigned long long)seed,
           (unsigned long long)seed + 1, same, NDRAW);
}

static void test_fill_exact(void)
{
    begin("fill_exact_values");
    f16 *x = xmalloc(NDRAW * sizeof(f16)), *y = xmalloc(NDRAW * sizeof(f16));
    int seen[5] = {0};
    fill_exact(x, NDRAW, 7);
    for (int i = 0; i < NDRAW; i++) {
        float v = f16_to_float(x[i]);
        if (!(v == -2 || v == -1 || v == 0 || v == 1 || v == 2)) {
            failf(__LINE__, "x[%d] = %g (0x%04x), not in {-2..2}", i, v, x[i]);
            break;
        }
        seen[(int)v + 2]++;
        if (x[i] == 0x8000) failf(__LINE__, "x[%d] is -0", i);
    }
    for (int k = 0; k < 5; k++)
        EXPECT(seen[k] > NDRAW / 5 / 2, "value %d drawn %d times of %d", k - 2, seen[k], NDRAW);
    expect_seeded(fill_exact, x, y, 7, NDRAW / 2);
    free(x);
    free(y);
    end();
}

static void test_fill_random(void)
{
    begin("fill_random_values");
    f16 *x = xmalloc(NDRAW * sizeof(f16)), *y = xmalloc(NDRAW * sizeof(f16));
    fill_random(x, NDRAW, 3);
    int integers = 0, distinct_from_first = 0;
    double lo = 2, hi = -2, sum = 0;
    for (int i = 0; i < NDRAW; i++) {
        float v = f16_to_float(x[i]);
        if (!(v > -1.0f && v < 1.0f))
            failf(__LINE__, "x[%d] = %.9g (0x%04x), not in the open interval (-1, 1)", i, v, x[i]);
        integers += v == floorf(v);
        /* verify.h: non-zero multiples of 2^-10 */
        if (v == 0 || ldexpf(v, 10) != floorf(ldexpf(v, 10)))
            failf(__LINE__, "x[%d] = %.9g (0x%04x), not a non-zero multiple of 2^-10", i, v, x[i]);
        distinct_from_first += x[i] != x[0];
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
        sum += v;
    }
    EXPECT(integers < NDRAW / 100, "%d of %d values are integers", integers, NDRAW);
    EXPECT(distinct_from_first > 0, "all values equal");
    EXPECT(lo < -0.99 && hi > 0.99, "range [%g, %g] does not span (-1, 1)", lo, hi);
    EXPECT(fabs(sum / NDRAW) < 0.03, "mean %g, not near 0", sum / NDRAW);
    expect_seeded(fill_random, x, y, 3, NDRAW / 20);
    free(x);
    free(y);
    end();
}

/* ---- verify: element-wise checks ---------------------------------------- */

static void test_check_bitwise(void)
{
    enum { M = 13, N = 17 };
    f16 want[M * N], got[M * N];
    fill_random(want, M * N, 5);

    begin("check_bitwise_identical");
    memcpy(got, want, sizeof got);
    check_result r = check_bitwise(got, want, M, N, "test");
    EXPECT(r.bad == 0, "bad %zu", r.bad);
    EXPECT_EQ_U(r.checked, M * N, "checked");
    EXPECT(r.max_abs_err == 0, "max_abs_err %g", r.max_abs_err);
    end();

    begin("check_bitwise_one_flipped_bit");
    memcpy(got, want, sizeof got);
    got[6 * N + 11] ^= 0x0001; /* lowest mantissa bit: one ulp */
    r = check_bitwise(got, want, M, N, "test (1 mismatch expected)");
    EXPECT(r.bad == 1, "bad %zu, want 1", r.bad);
    EXPECT(r.max_abs_err > 0, "max_abs_err %g", r.max_abs_err);
    memcpy(got, want, sizeof got);
    got[M * N - 1] ^= 0x8000; /* sign bit of the last element */
    r = check_bitwise(got, want, M, N, "test (1 mismatch expected)");
    EXPECT(r.bad == 1, "sign flip of the last element: bad %zu, want 1", r.bad);
    end();

    begin("check_bitwise_nan");
    const f16 nans[] = {0x7e00, 0xffff};
    for (int k = 0; k < 2; k++) {
        memcpy(got, want, sizeof got);
        got[3] = nans[k];
        r = check_bitwise(got, want, M, N, "test (NaN expected)");
        EXPECT(r.bad >= 1, "NaN 0x%04x: bad %zu", nans[k], r.bad);
        EXPECT(isinf(r.max_abs_err), "NaN 0x%04x: max_abs_err %g, want inf", nans[k],
               r.max_abs_err);
    }
    end();
}

/* verify.h: |got - want| <= 2^-9 |want| + 2^CLOSE_ATOL_LOG2 sqrt(K). */
#define CLOSE_ATOL_LOG2 (-8)

static double close_tol(double want, int K)
{
    return ldexp(fabs(want), -9) + ldexp(sqrt((double)K), CLOSE_ATOL_LOG2);
}

/* The last fp16 pattern above `want` (stepping away from zero on the positive
 * side) that the documented tolerance still accepts. */
static f16 close_edge(f16 want, int K)
{
    const double w = f16_to_float(want), tol = close_tol(w, K);
    f16 h = want;
    while (h < 0x7bff && f16_to_float((f16)(h + 1)) - w <= tol) h++;
    return h;
}

static void test_check_close(void)
{
    enum { N = 8 };
    /* Values where 1% is well above the tolerance at K = 1 (checked below). */
    const double vals[N] = {1.0, -3.5, 10.0, 1000.0, 2.5, -65472.0, 1.5, 30000.0};
    f16 want[N], got[N];
    for (int i = 0; i < N; i++) want[i] = f16_from_double(vals[i]);

    begin("check_close_one_ulp_passes");
    for (int i = 0; i < N; i++) got[i] = (f16)(want[i] + 1); /* one ulp away from zero */
    check_result r = check_close(got, want, 1, N, 1, "test");
    EXPECT(r.bad == 0, "+1 ulp: bad %zu", r.bad);
    EXPECT_EQ_U(r.checked, N, "checked");
    for (int i = 0; i < N; i++) got[i] = (f16)(want[i] - 1); /* one ulp toward zero */
    r = check_close(got, want, 1, N, 1, "test");
    EXPECT(r.bad == 0, "-1 ulp: bad %zu", r.bad);
    memcpy(got, want, sizeof got);
    r = check_close(got, want, 1, N, 1, "test");
    EXPECT(r.bad == 0 && r.max_abs_err == 0, "equal: bad %zu max_abs_err %g", r.bad, r.max_abs_err);
    end();

    begin("check_close_one_percent_fails");
    for (int i = 0; i < N; i++) {
        got[i] = f16_from_double(1.01 * f16_to_float(want[i]));
        double d = fabs(f16_to_float(got[i]) - f16_to_float(want[i]));
        if (!isinf(d) && !(d > 1.2 * close_tol(f16_to_float(want[i]), 1)))
            failf(__LINE__, "test data: 1%% of %g is within the tolerance", vals[i]);
    }
    r = check_close(got, want, 1, N, 1, "test (8 mismatches expected)");
    EXPECT(r.bad == N, "bad %zu, want %d", r.bad, N); /* 1.01 * -65472 is -inf: fails too */
    for (int i = 0; i < N; i++) got[i] = f16_from_double(0.99 * f16_to_float(want[i]));
    r = check_close(got, want, 1, N, 1, "test (8 mismatches expected)");
    EXPECT(r.bad == N, "0.99: bad %zu, want %d", r.bad, N);
    end();

    begin("check_close_nan_fails");
    memcpy(got, want, sizeof got);
    got[2] = 0x7e00;
    r = check_close(got, want, 1, N, 1, "test (NaN expected)");
    EXPECT(r.bad == 1, "bad %zu, want 1", r.bad);
    EXPECT(isinf(r.max_abs_err), "max_abs_err %g, want inf", r.max_abs_err);
    memcpy(got, want, sizeof got);
    got[7] = 0xffff;
    r = check_close(got, want, 1, N, 1 << 30, "test (NaN expected)");
    EXPECT(r.bad == 1, "NaN with a huge K: bad %zu, want 1", r.bad);
    end();

    /* The pass/fail edge sits exactly where verify.h puts it, and moves out as K grows. */
    begin("check_close_tolerance_edge_grows_with_k");
    const f16 ws[] = {0x3c00 /* 1 */, 0x0000 /* 0 */, 0x5640 /* 100 */, 0x3400 /* 0.25 */};
    const int ks[] = {1, 15, 16, 64, 4096, 1 << 20};
    for (size_t a = 0; a < sizeof ws / sizeof ws[0]; a++) {
        f16 prev_edge = 0;
        for (size_t b = 0; b < sizeof ks / sizeof ks[0]; b++) {
            const f16 w = ws[a], edge = close_edge(w, ks[b]), out = (f16)(edge + 1);
            r = check_close(&edge, &w, 1, 1, ks[b], "test");
            EXPECT(r.bad == 0, "want %g K %d: %g (at the tolerance) failed", f16_to_float(w),
                   ks[b], f16_to_float(edge));
            if (edge < 0x7bff) {
                r = check_close(&out, &w, 1, 1, ks[b], "test (1 mismatch expected)");
                EXPECT(r.bad == 1, "want %g K %d: %g (beyond the tolerance) passed",
                       f16_to_float(w), ks[b], f16_to_float(out));
            }
            EXPECT(b == 0 || edge >= prev_edge, "want %g: tolerance shrank from K %d to %d",
                   f16_to_float(w), ks[b - (b > 0)], ks[b]);
            prev_edge = edge;
        }
        EXPECT(close_edge(ws[a], 1 << 20) > close_edge(ws[a], 1),
               "want %g: tolerance does not grow with K", f16_to_float(ws[a]));
    }
    end();
}

/* ---- verify: sample_indices --------------------------------------------- */

static bool contains(const int *v, int n, int x)
{
    for (int i = 0; i < n; i++)
        if (v[i] == x) return true;
    return false;
}

static void test_sample_indices(void)
{
    enum { PAD = 32, SENTINEL = -12345 };
    int buf[256 + PAD];

    begin("sample_indices_small_n_all");
    for (int i = 0; i < 256 + PAD; i++) buf[i] = SENTINEL;
    int c = sample_indices(10, 128, 1, buf);
    EXPECT(c == 10, "count %d, want 10", c);
    for (int i = 0; i < 10 && i < c; i++) EXPECT(buf[i] == i, "out[%d] = %d", i, buf[i]);
    c = sample_indices(128, 128, 1, buf);
    EXPECT(c == 128, "n = max = 128: count %d", c);
    for (int i = 0; i < c; i++) EXPECT(buf[i] == i, "n = max: out[%d] = %d", i, buf[i]);
    c = sample_indices(1, 2, 1, buf);
    EXPECT(c == 1 && buf[0] == 0, "n = 1: count %d out[0] %d", c, buf[0]);
    end();

    static const struct { int n, max; } cases[] = {
        {100000, 128}, {8192, 128}, {129, 128}, {300, 128}, {1000, 15}, {1000, 5}, {1000, 2}, {1 << 30, 64}};
    begin("sample_indices_large_n");
    for (size_t t = 0; t < sizeof cases / sizeof cases[0]; t++) {
        const int n = cases[t].n, max = cases[t].max;
        for (int i = 0; i < 256 + PAD; i++) buf[i] = SENTINEL;
        c = sample_indices(n, max, 99, buf);
        EXPECT(c >= 1 && c <= max, "n %d max %d: count %d", n, max, c);
        for (int i = max; i < max + PAD; i++)
            EXPECT(buf[i] == SENTINEL, "n %d max %d: wrote out[%d] beyond max", n, max, i);
        for (int i = 0; i < c; i++) {
            EXPECT(buf[i] >= 0 && buf[i] < n, "n %d: out[%d] = %d out of range", n, i, buf[i]);
            EXPECT(i == 0 || buf[i] > buf[i - 1], "n %d: out[%d..%d] = %d, %d not sorted unique",
                   n, i - 1, i, i ? buf[i - 1] : 0, buf[i]);
        }
        /* The first and last index are sampled whatever the budget. */
        EXPECT(contains(buf, c, 0) && (max < 2 || contains(buf, c, n - 1)),
               "n %d max %d: first or last index not sampled", n, max);
        if (max >= 64) {
            const int need[] = {0, 1, 63, 64, 127, 128, n / 2, n - 64, n - 2, n - 1};
            for (size_t k = 0; k < sizeof need / sizeof need[0]; k++)
                EXPECT(contains(buf, c, need[k]), "n %d max %d: %d not sampled", n, max, need[k]);
            if (n >= 4 * max) EXPECT(c > max / 2, "n %d max %d: only %d indices", n, max, c);
        }
    }
    int again[128];
    c = sample_indices(100000, 128, 99, buf);
    int c2 = sample_indices(100000, 128, 99, again);
    EXPECT(c == c2 && !memcmp(buf, again, (size_t)c * sizeof(int)), "not deterministic per seed");
    end();
}

/* ---- verify: check_reference -------------------------------------------- */

/* C = A * B^T in fp64, each element rounded once to fp16. */
static void reference(f16 *C, const f16 *A, const f16 *B, int M, int N, int K)
{
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double s = 0;
            for (int k = 0; k < K; k++)
                s += (double)f16_to_float(A[i * K + k]) * (double)f16_to_float(B[j * K + k]);
            C[i * N + j] = f16_from_double(s);
        }
}

static void test_check_reference(void)
{
    enum { M = 37, N = 29, K = 45 };
    f16 A[M * K], B[N * K], C[M * N], C2[M * N];
    int rows[M], cols[N];
    for (int i = 0; i < M; i++) rows[i] = i;
    for (int j = 0; j < N; j++) cols[j] = j;

    fill_exact(A, M * K, 1);
    fill_exact(B, N * K, 2);
    reference(C, A, B, M, N, K);

    begin("check_reference_exact_pass");
    check_result r = check_reference(C, A, B, M, N, K, rows, M, cols, N, true, "test");
    EXPECT(r.bad == 0, "bad %zu", r.bad);
    EXPECT_EQ_U(r.checked, M * N, "checked");
    EXPECT(r.rel_err == 0, "rel_err %g, want 0", r.rel_err);
    end();

    begin("check_reference_exact_one_ulp_fails");
    /* one ulp on a large element (ulp >= 2^-6) and on a zero (ulp 2^-24) */
    int big = -1, zero = -1;
    for (int i = 0; i < M * N; i++) {
        const float v = fabsf(f16_to_float(C[i]));
        if (big < 0 && v >= 16) big = i;
        if (zero < 0 && v == 0) zero = i;
    }
    EXPECT(big >= 0 && zero >= 0, "test data has no element >= 16 or no zero");
    if (big >= 0 && zero >= 0) {
        memcpy(C2, C, sizeof C);
        C2[big] = (f16)(C2[big] + 1);
        r = check_reference(C2, A, B, M, N, K, rows, M, cols, N, true, "test (1 mismatch expected)");
        EXPECT(r.bad == 1, "C[%d] = %g one ulp off: bad %zu, want 1", big, f16_to_float(C[big]),
               r.bad);
        memcpy(C2, C, sizeof C);
        C2[zero] = 0x0001;
        r = check_reference(C2, A, B, M, N, K, rows, M, cols, N, true, "test (1 mismatch expected)");
        EXPECT(r.bad == 1, "C[%d] = 0 -> 2^-24: bad %zu, want 1", zero, r.bad);
        C2[zero] = 0x8000; /* -0 is not the rounding of the reference +0 */
        r = check_reference(C2, A, B, M, N, K, rows, M, cols, N, true, "test (1 mismatch expected)");
        EXPECT(r.bad == 1, "C[%d] = 0 -> -0: bad %zu, want 1", zero, r.bad);
    }
    memcpy(C2, C, sizeof C);
    C2[20 * N + 7] = (f16)(C2[20 * N + 7] + 1);
    /* a subset of rows and columns sees only its own elements */
    const int sr[] = {0, 20, 36}, sc[] = {0, 28};
    r = check_reference(C2, A, B, M, N, K, sr, 3, sc, 2, true, "test");
    EXPECT(r.bad == 0 && r.checked == 6, "subset without the bad element: bad %zu checked %zu",
           r.bad, r.checked);
    const int sc2[] = {7};
    r = check_reference(C2, A, B, M, N, K, sr, 3, sc2, 1, true, "test (1 mismatch expected)");
    EXPECT(r.bad == 1 && r.checked == 3, "subset with the bad element: bad %zu checked %zu", r.bad,
           r.checked);
    end();

    fill_random(A, M * K, 1);
    fill_random(B, N * K, 2);
    reference(C, A, B, M, N, K);

    begin("check_reference_random_pass");
    r = check_reference(C, A, B, M, N, K, rows, M, cols, N, false, "test");
    EXPECT(r.bad == 0, "bad %zu", r.bad);
    EXPECT(r.rel_err > 0 && r.rel_err < 1e-3, "rel_err %g, want in (0, 1e-3)", r.rel_err);
    end();

    begin("check_reference_random_scaled_fails");
    for (int i = 0; i < M * N; i++) C2[i] = f16_from_double(1.01 * f16_to_float(C[i]));
    r = check_reference(C2, A, B, M, N, K, rows, M, cols, N, false, "test (failure expected)");
    EXPECT(r.bad >= 1, "C * 1.01 passed (rel_err %g)", r.rel_err);
    EXPECT(r.rel_err > 5e-3 && r.rel_err < 2e-2, "rel_err %g, want about 1e-2", r.rel_err);
    end();

    begin("check_reference_random_nan_fails");
    memcpy(C2, C, sizeof C);
    C2[5 * N + 5] = 0x7e00;
    r = check_reference(C2, A, B, M, N, K, rows, M, cols, N, false, "test (NaN expected)");
    EXPECT(r.bad >= 1, "NaN passed");
    C2[5 * N + 5] = 0xffff;
    r = check_reference(C2, A, B, M, N, K, rows, M, cols, N, true, "test (NaN expected)");
    EXPECT(r.bad >= 1, "NaN 0xffff passed in exact mode");
    end();
}

/* ---- wait_limit_s ------------------------------------------------------- */

static void expect_limit(int line, int M, int N, int K, double calls, double want)
{
    double got = wait_limit_s(M, N, K, calls);
    if (!(fabs(got - want) <= 1e-9 * want))
        failf(line, "wait_limit_s(%d, %d, %d, %g) = %.17g, want %.17g", M, N, K, calls, got, want);
}
#define EXPECT_LIMIT(M, N, K, calls, want) expect_limit(__LINE__, M, N, K, calls, want)

static void test_wait_limit(void)
{
    begin("wait_limit_floor_and_rate");
    /* Small problems, however many calls queued, get the floor. */
    EXPECT_LIMIT(1, 1, 1, 1, WAIT_LIMIT_MIN_S);
    EXPECT_LIMIT(4096, 4096, 4096, 100, WAIT_LIMIT_MIN_S); /* 13.7 TFLOP: 2.7 s at the rate */
    /* Large ones: the flops at WAIT_LIMIT_TFLOPS. 2 * 8192^3 = 1.0995e12 flop per call. */
    const double f8k = 2.0 * 8192.0 * 8192.0 * 8192.0;
    EXPECT_LIMIT(8192, 8192, 8192, 1, WAIT_LIMIT_MIN_S);   /* 0.22 s: the floor still */
    EXPECT_LIMIT(8192, 8192, 8192, 90, 90 * f8k / (WAIT_LIMIT_TFLOPS * 1e12));
    EXPECT_LIMIT(16384, 16384, 16384, 1, WAIT_LIMIT_MIN_S);
    EXPECT_LIMIT(16384, 16384, 16384, 30, 30 * 8 * f8k / (WAIT_LIMIT_TFLOPS * 1e12));
    /* Exactly at the crossover the two terms agree. */
    const double calls_at_floor = WAIT_LIMIT_MIN_S * WAIT_LIMIT_TFLOPS * 1e12 / f8k;
    EXPECT_LIMIT(8192, 8192, 8192, calls_at_floor, WAIT_LIMIT_MIN_S);
    /* Proportional to the calls and to each size above the floor. */
    double a = wait_limit_s(8192, 8192, 8192, 1000);
    EXPECT(fabs(wait_limit_s(8192, 8192, 8192, 2000) / a - 2) < 1e-12, "not linear in calls");
    EXPECT(fabs(wait_limit_s(16384, 8192, 8192, 1000) / a - 2) < 1e-12, "not linear in M");
    EXPECT(fabs(wait_limit_s(8192, 16384, 8192, 1000) / a - 2) < 1e-12, "not linear in N");
    EXPECT(fabs(wait_limit_s(8192, 8192, 16384, 1000) / a - 2) < 1e-12, "not linear in K");
    /* The largest sizes: 2 M N K overflows any integer type; must stay finite and positive. */
    double big = wait_limit_s(MAX_SIZE, MAX_SIZE, MAX_SIZE, 1);
    EXPECT(isfinite(big) && big > 1e15, "wait_limit_s at MAX_SIZE^3 = %g", big);
    /* Never below the floor, for any shape or call count. */
    EXPECT(wait_limit_s(1, MAX_SIZE, 1, 0) == WAIT_LIMIT_MIN_S, "0 calls not the floor");
    EXPECT(wait_limit_s(3, 8191, 10000, 3) == WAIT_LIMIT_MIN_S, "skinny shape not the floor");
    end();
}

/* ---- calib_v7 --mix: a round's order (tools/calib_order.h) ---------------- */

/* Neighbours of ord that share a group. */
static int mix_repeats(const int *group, const int *ord, int n)
{
    int r = 0;
    for (int i = 1; i < n; i++) r += group[ord[i]] == group[ord[i - 1]];
    return r;
}

static void test_calib_mix_order(void)
{
    begin("calib_mix_order: a permutation; no neighbours of one kernel where the sizes allow, the fewest where not; rounds differ");
    enum { NMAX = 512 };
    static int group[NMAX], ord[NMAX], ord2[NMAX], work[4 * NMAX], seen[NMAX], size[NMAX];
    uint64_t rs = 20261125;
    for (int trial = 0; trial < 400 && !cur_failed; trial++) {
        const int n = 1 + (int)(rng_next(&rs) % NMAX);
        const int groups = 1 + (int)(rng_next(&rs) % (uint64_t)(trial % 4 == 0 ? 3 : 40));
        /* groups of uneven sizes, as the kinds' candidate counts are; the
         * group ids are first members' indices, as calib makes them */
        int first[40];
        for (int g = 0; g < 40; g++) first[g] = -1, size[g] = 0;
        for (int i = 0; i < n; i++) {
            int g = (int)(rng_next(&rs) % (uint64_t)groups);
            if (trial % 3 == 0 && rng_next(&rs) % 2) g = 0; /* one group often large */
            if (first[g] < 0) first[g] = i;
            group[i] = first[g];
            size[g]++;
        }
        int most = 0;
        for (int g = 0; g < 40; g++) most = size[g] > most ? size[g] : most;
        calib_mix_order(group, n, (uint64_t)trial + 1, ord, work);
        for (int i = 0; i < n; i++) seen[i] = 0;
        for (int i = 0; i < n && !cur_failed; i++) {
            EXPECT(ord[i] >= 0 && ord[i] < n && !seen[ord[i]]++, "n %d: ord[%d] = %d is out of range or repeated", n, i, ord[i]);
        }
        if (cur_failed) break;
        /* the fewest possible: none while the largest group is at most
         * (n + 1) / 2, else its surplus 2 most - n - 1 */
        const int want = most <= (n + 1) / 2 ? 0 : 2 * most - n - 1;
        EXPECT(mix_repeats(group, ord, n) == want, "n %d, %d groups, largest %d: %d neighbours of one group, want %d",
               n, groups, most, mix_repeats(group, ord, n), want);
        /* another round (seed): another order, where there is more than one */
        calib_mix_order(group, n, (uint64_t)trial + 1000, ord2, work);
        if (n >= 8 && most <= n / 2) {
            bool same = true;
            for (int i = 0; i < n; i++) same = same && ord[i] == ord2[i];
            EXPECT(!same, "n %d, %d groups: seeds %d and %d gave the same order", n, groups, trial + 1, trial + 1000);
        }
        /* and the same seed the same order */
        calib_mix_order(group, n, (uint64_t)trial + 1, ord2, work);
        for (int i = 0; i < n && !cur_failed; i++)
            EXPECT(ord[i] == ord2[i], "n %d: seed %d gave two orders (at %d)", n, trial + 1, i);
    }
    end();
}

int main(void)
{
    test_f16_to_float_values();
    test_f16_round_trip();
    test_f16_ties();
    test_f16_overflow();
    test_f16_subnormals();
    test_f16_signed_zero();
    test_f16_isnan();

    test_cli_defaults();
    test_cli_sizes();
    test_cli_errors();
    test_cli_options();

    test_stage_plan();
    test_tmap();
    test_fast_divmod();
    test_tile_map();
    test_tile_order_width();
    test_scheduler();
    test_stream_k();
    test_umma_smem_desc();
    test_umma_idesc();
    test_matmul_pick();
    test_wait_limit();
    test_calib_mix_order();

    test_fill_exact();
    test_fill_random();
    test_check_bitwise();
    test_check_close();
    test_sample_indices();
    test_check_reference();

    fprintf(stderr, "host tests: %d passed, %d failed\n", n_pass, n_fail);
    return n_fail == 0 ? 0 : 1;
}
