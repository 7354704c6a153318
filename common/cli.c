#include "cli.h"
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cli_usage(FILE *f, const char *prog)
{
    fprintf(f,
            "usage: %s [M N K] [options]\n"
            "  C[M,N] = A[M,K] * B[N,K]^T in fp16 with fp32 accumulation; default %d %d %d\n"
            "  --check MODE   exact | random | both | none   (default both)\n"
            "  --baseline B   cuBLAS to compare with: default (cublasGemmEx's default algorithm),\n"
            "                 best (fastest of cuBLASLt's heuristic candidates), both (default), or\n"
            "                 none (no cuBLAS: checked against fp64 on samples and itself only)\n"
            "  --reps N       timed runs of the step and of cuBLAS, interleaved (default 30; 0 = no timing)\n"
            "  --warmup N     untimed runs of each first (default 5), then more until 0.2 s have passed\n"
            "  --seed N       seed of the input data (default 1)\n"
            "  --csv FILE     append one result row to FILE (header written if FILE is new)\n"
            "  --energy E     on (default): after timing, each kernel alone for 1 s between two\n"
            "                 readings of the board's energy counter; off: skip it (sweeps)\n"
            "  --time-limit S seconds any one wait for the GPU may take before the run is\n"
            "                 abandoned (exit 1); default: from the problem size (see README)\n"
            "  -h, --help     this text\n",
            prog, DEFAULT_SIZE, DEFAULT_SIZE, DEFAULT_SIZE);
}

/* Whole-string decimal integer in [lo, hi]; 0 on success. */
static int parse_ll(const char *s, long long lo, long long hi, long long *out)
{
    if (!s || !*s) return -1;
    errno = 0;
    char *end;
    long long v = strtoll(s, &end, 10);
    if (*end != '\0' || errno == ERANGE) return errno == ERANGE ? -2 : -1;
    if (v < lo || v > hi) return -2;
    *out = v;
    return 0;
}

static int parse_size(const char *name, const char *s, int *out, char *err, size_t errlen)
{
    long long v;
    int r = parse_ll(s, LLONG_MIN, LLONG_MAX, &v);
    if (r == -1) {
        snprintf(err, errlen, "%s must be a whole number, got '%s'", name, s);
        return -1;
    }
    if (r == -2 && s[0] == '-') v = -1; /* below LLONG_MIN: reported as too small */
    else if (r == -2 || v > MAX_SIZE) {
        snprintf(err, errlen, "%s = %s is too large (at most %d)", name, s, MAX_SIZE);
        return -1;
    }
    if (v < 1) {
        snprintf(err, errlen, "%s must be at least 1, got %lld", name, v);
        return -1;
    }
    *out = (int)v;
    return 0;
}

int cli_parse(int argc, char **argv, options *o, char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    o->M = o->N = o->K = DEFAULT_SIZE;
    o->reps = 30;
    o->warmup = 5;
    o->check = CHECK_BOTH;
    o->baseline = BASELINE_BOTH;
    o->time_limit = 0;
    o->seed = 1;
    o->energy = true;

    const char *sizes[3];
    int nsizes = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        long long v;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            o->help = true;
        } else if (!strcmp(a, "--reps") || !strcmp(a, "--warmup")) {
            if (parse_ll(val, 0, 1000000, &v) != 0) {
                snprintf(err, errlen, "%s needs a whole number from 0 to 1000000", a);
                return -1;
            }
            *(a[2] == 'r' ? &o->reps : &o->warmup) = (int)v;
            i++;
        } else if (!strcmp(a, "--seed")) {
            if (parse_ll(val, 0, LLONG_MAX, &v) != 0) {
                snprintf(err, errlen, "--seed needs a whole number >= 0");
                return -1;
            }
            o->seed = (uint64_t)v;
            i++;
        } else if (!strcmp(a, "--check")) {
            if (!val) {
                snprintf(err, errlen, "--check needs exact, random, both or none");
                return -1;
            }
            if (!strcmp(val, "exact")) o->check = CHECK_EXACT;
            else if (!strcmp(val, "random")) o->check = CHECK_RANDOM;
            else if (!strcmp(val, "both")) o->check = CHECK_BOTH;
            else if (!strcmp(val, "none")) o->check = CHECK_NONE;
            else {
                snprintf(err, errlen, "--check needs exact, random, both or none, got '%s'", val);
                return -1;
            }
            i++;
        } else if (!strcmp(a, "--baseline")) {
            if (!val) {
                snprintf(err, errlen, "--baseline needs default, best, both or none");
                return -1;
            }
            if (!strcmp(val, "default")) o->baseline = BASELINE_DEFAULT;
            else if (!strcmp(val, "best")) o->baseline = BASELINE_BEST;
            else if (!strcmp(val, "both")) o->baseline = BASELINE_BOTH;
            else if (!strcmp(val, "none")) o->baseline = BASELINE_NONE;
            else {
                snprintf(err, errlen, "--baseline needs default, best, both or none, got '%s'", val);
                return -1;
            }
            i++;
        } else if (!strcmp(a, "--energy")) {
            if (!val || (strcmp(val, "on") && strcmp(val, "off"))) {
                snprintf(err, errlen, "--energy needs on or off%s%s%s", val ? ", got '" : "",
                         val ? val : "", val ? "'" : "");
                return -1;
            }
            o->energy = !strcmp(val, "on");
            i++;
        } else if (!strcmp(a, "--time-limit")) {
            /* Whole seconds: a fraction of a second is no use against a hang. */
            if (parse_ll(val, 1, 1000000, &v) != 0) {
                snprintf(err, errlen, "--time-limit needs a whole number of seconds from 1 to 1000000");
                return -1;
            }
            o->time_limit = (double)v;
            i++;
        } else if (!strcmp(a, "--csv")) {
            if (!val || !*val) {
                snprintf(err, errlen, "--csv needs a file name");
                return -1;
            }
            o->csv = val;
            i++;
        } else if (a[0] == '-' && a[1] != '\0' && !(a[1] >= '0' && a[1] <= '9')) {
            snprintf(err, errlen, "unknown option '%s'", a);
            return -1;
        } else {
            if (nsizes == 3) {
                snprintf(err, errlen, "too many sizes: expected M N K, got another '%s'", a);
                return -1;
            }
            sizes[nsizes++] = a;
        }
    }
    if (nsizes != 0 && nsizes != 3) {
        snprintf(err, errlen, "expected three sizes M N K (or none for %d^3), got %d",
                 DEFAULT_SIZE, nsizes);
        return -1;
    }
    if (nsizes == 3) {
        const char *names[3] = {"M", "N", "K"};
        int *dst[3] = {&o->M, &o->N, &o->K};
        for (int i = 0; i < 3; i++)
            if (parse_size(names[i], sizes[i], dst[i], err, errlen) != 0) return -1;
    }
    return 0;
}
