/* Fits v7's plan cost model (common/stream_k.h, sk_model) to measured times
 * of candidate plans, on the CPU:
 *
 *   build/tools/fit [--no-fit] [--before K] [--unswapped] [--kinds I,J,..] [--consts NAME,..]
 *                   L2_BYTES DRAM_GBPS:calib.csv...
 *                   [--held-out DRAM_GBPS:calib.csv...]
 *
 * Each CSV is tools/calib.c's output (M,N,K,cand,ms) on a GPU of 66 clusters
 * of every kernel (an H100 SXM or an H200), named with that GPU's peak DRAM
 * bandwidth (3352 GB/s on an H100 SXM, 4800 on an H200): one fit to both. The fit starts from
 * sk_model_sm90 and moves one constant at a time by a factor, keeping any
 * move that lowers the sum of squared log errors (modelled / measured time),
 * with ever finer factors until none helps. It prints the constants as C,
 * the error, and for every shape with several candidates measured the
 * model's pick against the fastest measured: the time lost by choosing by
 * the model. --kinds and --consts (launch, partial_byte, fixup, flag,
 * gather, dram_eff, l2_eff, overlap, stream) name the constants to move, the others
 * kept. Files after --held-out are not fitted to: the same summary of
 * the picks, on shapes the constants never saw, is printed for them apart.
 * --no-fit moves nothing: the error and the picks of sk_model_sm90 as it is.
 * --before K also compares the picks with the model's picks among tile
 * shapes 0 .. K - 1 alone, both by their measured times: what shapes added
 * after the first K are worth. --unswapped compares them with the picks
 * among the candidates that do not swap the operands' roles (tiles of C,
 * not C^T; with --before, of the first K shapes): what the swap is worth. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../common/stream_k.h"

#define MAX_ROWS 200000

typedef struct {
    int M, N, K;
    sk_plan plan;
    double ms;
    const sk_gpu *g; /* the GPU it was measured on */
} row;

static row rows[MAX_ROWS];
static int nrows, nfit; /* rows [0, nfit) are fitted to, [nfit, nrows) held out */

static double loss(const sk_model *m)
{
    double e = 0;
    for (int i = 0; i < nfit; i++) {
        const double d = log(sk_model_ns(&rows[i].plan, rows[i].M, rows[i].N, rows[i].K, rows[i].g, m) * 1e-6 /
                             rows[i].ms);
        e += d * d;
    }
    return e;
}

static const char *const scalar_names[] = {"launch", "partial_byte", "fixup", "flag",
                                           "gather", "dram_eff", "l2_eff", "overlap", "stream"};
#define SCALARS 9
static double *scalar(sk_model *m, int i)
{
    double *const at[SCALARS] = {&m->launch, &m->partial_byte, &m->fixup, &m->flag,
                                 &m->gather, &m->dram_eff, &m->l2_eff, &m->overlap, &m->stream};
    return at[i];
}

/* The constants the fit moves: every one, or (only or consts != 0) the
 * per-k-tile and per-piece costs of the tile shapes whose bit is set in
 * `only` and the scalars whose bit is set in `consts` (scalar_names' order),
 * the others kept as sk_model_sm90 has them (kernels changed since their fit). */
static int params(sk_model *m, double **p, uint64_t only, unsigned consts)
{
    const int all = !only && !consts;
    int n = 0;
    for (int k = 0; k < SK_KINDS; k++)
        if (all || only >> k & 1) p[n++] = &m->k_tile[k];
    for (int k = 0; k < SK_KINDS; k++)
        if (all || only >> k & 1) p[n++] = &m->piece[k];
    for (int i = 0; i < SCALARS; i++)
        if (all || consts >> i & 1) p[n++] = scalar(m, i);
    return n;
}

/* --before K: also the model's pick among the tile shapes 0 .. K - 1 alone
 * (what a new shape's kernels are measured against); 0: not asked. */
static int before;
static int unswapped; /* --unswapped: the old picks are among tiles of C alone */

/* May row r be picked: among all tile shapes (old = 0; sk_tile_fits), or
 * among those of --before (old = 1)? */
static int eligible(int r, int old)
{
    const int k = rows[r].plan.kind, sw = rows[r].plan.swap; /* fit on C^T's rows and columns */
    const int rm = sw ? rows[r].N : rows[r].M, rn = sw ? rows[r].M : rows[r].N;
    if (old)
        return k < before && !(unswapped && sw) && sk_tile_fits_among(k, rm, rn, before);
    return sk_tile_fits(k, rm, rn);
}

/* The model's pick among rows i .. j - 1 that are eligible, as sk_plan_make
 * picks (sk_better). -1: none. */
static int pick_among(const sk_model *m, int i, int j, int old)
{
    int pick = -1;
    double pt = 1e300;
    for (int r = i; r < j; r++) {
        const double t = sk_model_ns(&rows[r].plan, rows[r].M, rows[r].N, rows[r].K, rows[r].g, m);
        if (eligible(r, old) && (pick < 0 || sk_better(t, &rows[r].plan, pt, &rows[pick].plan, rows[r].M, rows[r].N))) {
            pt = t < pt ? t : pt;
            pick = r;
        }
    }
    return pick;
}

/* Per shape (rows from .. to - 1, grouped by shape and GPU): the model's
 * pick among the measured candidates, and the fastest. */
static void picks(const sk_model *m, int from, int to, const char *label)
{
    double lost = 0, gained = 0;
    int shapes = 0, changed = 0;
    for (int i = from; i < to;) {
        int j = i;
        while (j < to && rows[j].M == rows[i].M && rows[j].N == rows[i].N && rows[j].K == rows[i].K &&
               rows[j].g == rows[i].g)
            j++;
        if (j - i >= 2) {
            int pick = pick_among(m, i, j, 0), fast = i;
            const int old = before ? pick_among(m, i, j, 1) : -1;
            if (pick < 0) pick = i;
            for (int r = i; r < j; r++)
                if (eligible(r, 0) && rows[r].ms < rows[fast].ms) fast = r;
            if (old >= 0) {
                gained += log(rows[old].ms / rows[pick].ms);
                changed += old != pick;
            }
            char a[256], b[256];
            sk_plan_describe(&rows[pick].plan, rows[i].M, rows[i].N, rows[i].K, a, sizeof a);
            sk_plan_describe(&rows[fast].plan, rows[i].M, rows[i].N, rows[i].K, b, sizeof b);
            printf("%4.0f GB/s %5d x %5d x %5d: pick %.1f us, fastest %.1f us (%.3f)\n", rows[i].g->dram_bytes_per_ns,
                   rows[i].M, rows[i].N, rows[i].K, rows[pick].ms * 1e3, rows[fast].ms * 1e3,
                   rows[fast].ms / rows[pick].ms);
            if (pick != fast) printf("      pick    %s\n      fastest %s\n", a, b);
            lost += log(rows[fast].ms / rows[pick].ms);
            shapes++;
        }
        i = j;
    }
    printf("%s, %d shapes: the picks run %.3f of the fastest measured (geometric mean)\n", label, shapes,
           exp(lost / (shapes ? shapes : 1)));
    if (before)
        printf("%s: against the picks among tile shapes 0 .. %d%s, the picks run %.4f times as fast "
               "(geometric mean), %d shapes changed\n", label, before - 1, unswapped ? ", unswapped" : "",
               exp(gained / (shapes ? shapes : 1)), changed);
}

int main(int argc, char **argv)
{
    uint64_t only = 0;   /* --kinds 2,4,5: fit those tile shapes' costs alone */
    unsigned consts = 0; /* --consts gather,fixup: and those scalars */
    int no_fit = 0;
    if (argc > 1 && !strcmp(argv[1], "--no-fit")) {
        no_fit = 1;
        argv++;
        argc--;
    }
    if (argc > 2 && !strcmp(argv[1], "--before")) {
        char *end;
        const long k = strtol(argv[2], &end, 10);
        if (*end || k < 1 || k > SK_KINDS) {
            fprintf(stderr, "fit: error: --before takes a number of tile shapes, 1 .. %d\n", SK_KINDS);
            return 2;
        }
        before = (int)k;
        argv += 2;
        argc -= 2;
    }
    if (argc > 1 && !strcmp(argv[1], "--unswapped")) {
        unswapped = 1;
        if (!before)
            before = SK_KINDS;
        argv++;
        argc--;
    }
    if (argc > 2 && !strcmp(argv[1], "--kinds")) {
        int bad = 0;
        for (const char *c = argv[2]; *c;) {
            char *end;
            const long k = strtol(c, &end, 10);
            if (end == c || k < 0 || k >= SK_KINDS || (*end && *end != ',')) {
                bad = 1;
                break;
            }
            only |= (uint64_t)1 << k;
            c = *end ? end + 1 : end;
        }
        if (bad || !only) {
            fprintf(stderr, "fit: error: --kinds takes tile shape indices 0 .. %d, e.g. 2,4,5\n", SK_KINDS - 1);
            return 2;
        }
        argv += 2;
        argc -= 2;
    }
    if (argc > 2 && !strcmp(argv[1], "--consts")) {
        char names[256];
        snprintf(names, sizeof names, "%s", argv[2]);
        for (char *c = strtok(names, ","); c; c = strtok(NULL, ",")) {
            int i = 0;
            while (i < SCALARS && strcmp(c, scalar_names[i])) i++;
            if (i == SCALARS) {
                fprintf(stderr, "fit: error: --consts: '%s' is none of", c);
                for (int k = 0; k < SCALARS; k++) fprintf(stderr, " %s", scalar_names[k]);
                fprintf(stderr, "\n");
                return 2;
            }
            consts |= 1u << i;
        }
        argv += 2;
        argc -= 2;
    }
    if (argc < 3) {
        fprintf(stderr, "fit: error: usage: %s [--no-fit] [--before K] [--unswapped] [--kinds I,J,..] [--consts NAME,..] L2_BYTES DRAM_GBPS:calib.csv... [--held-out DRAM_GBPS:calib.csv...]\n", argv[0]);
        return 2;
    }
    static sk_gpu gpus[64];
    nfit = -1;
    for (int a = 2; a < argc && a - 2 < 64; a++) {
        if (!strcmp(argv[a], "--held-out")) {
            if (nfit >= 0) {
                fprintf(stderr, "fit: error: --held-out given twice\n");
                return 2;
            }
            nfit = nrows;
            continue;
        }
        sk_gpu *g = &gpus[a - 2];
        for (int k = 0; k < SK_KINDS; k++) g->max_clusters[k] = sk_clusters_of(k, 66);
        g->l2_bytes = atof(argv[1]);
        char *colon = strchr(argv[a], ':');
        g->dram_bytes_per_ns = colon ? atof(argv[a]) : 0;
        if (!colon || g->dram_bytes_per_ns <= 0) {
            fprintf(stderr, "fit: error: '%s' is not DRAM_GBPS:file\n", argv[a]);
            return 2;
        }
        FILE *f = fopen(colon + 1, "r");
        if (!f) {
            fprintf(stderr, "fit: error: cannot open %s\n", colon + 1);
            return 1;
        }
        char line[512];
        while (fgets(line, sizeof line, f)) {
            if (nrows == MAX_ROWS) {
                fprintf(stderr, "fit: error: more than %d timings\n", MAX_ROWS);
                return 1;
            }
            row r;
            char cand[64];
            if (sscanf(line, "%d,%d,%d,%63[^,],%lf", &r.M, &r.N, &r.K, cand, &r.ms) != 5) continue;
            sk_cand c;
            if (sk_cand_parse(cand, &c) != 0 || c.mode < 0) continue; /* "auto": no candidate */
            if (sk_plan_of(r.M, r.N, r.K, g->max_clusters, c, &r.plan) != 0) continue;
            r.g = g;
            rows[nrows++] = r;
        }
        fclose(f);
    }
    if (nfit < 0)
        nfit = nrows;
    if (nfit == 0) {
        fprintf(stderr, "fit: error: no timings to fit to\n");
        return 1;
    }
    sk_model m = sk_model_sm90;
    double *p[2 * SK_KINDS + SCALARS];
    const int np = params(&m, p, only, consts);
    double best = loss(&m);
    for (double step = 0.5; !no_fit && step > 0.002; step /= 2) {
        int moved = 1;
        for (int round = 0; moved && round < 200; round++) {
            moved = 0;
            for (int i = 0; i < np; i++)
                for (int dir = -1; dir <= 1; dir += 2) {
                    const double keep = *p[i];
                    *p[i] = keep * (dir > 0 ? 1 + step : 1 / (1 + step));
                    if (p[i] == &m.dram_eff && *p[i] > 1) *p[i] = 1;
                    if (p[i] == &m.l2_eff && *p[i] > 1) *p[i] = 1;
                    if (p[i] == &m.overlap && *p[i] < 1) *p[i] = 1;
                    const double e = loss(&m);
                    if (e < best - 1e-12) {
                        best = e;
                        moved = 1;
                    } else
                        *p[i] = keep;
                }
        }
    }
    printf("rows %d, rms log error %.4f\n", nfit, sqrt(best / nfit));
    for (int f = 0; f < 2; f++) {
        const double *v = f ? m.piece : m.k_tile;
        printf("%s", f ? " {" : "{{");
        for (int k = 0; k < SK_KINDS; k++) printf("%.1f%s", v[k], k + 1 < SK_KINDS ? ", " : "");
        printf("}, /* %s */\n", f ? "piece" : "k_tile");
    }
    printf(" %.1f, %.5f, %.1f, %.1f, %.1f, %.3f, %.3f, %.3f, %.3f}\n", m.launch, m.partial_byte, m.fixup, m.flag,
           m.gather, m.dram_eff, m.l2_eff, m.overlap, m.stream);

    picks(&m, 0, nfit, "fitted");
    if (nrows > nfit)
        picks(&m, nfit, nrows, "held out");
    return 0;
}
