#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../../common/stream_k.h"
typedef struct { char n[64]; double t; } ent;
int main(int argc, char **argv)
{
    sk_gpu g;
    for (int k = 0; k < SK_KINDS; k++) g.max_clusters[k] = sk_clusters_of(k, 66);
    g.dram_bytes_per_ns = argc > 1 ? atof(argv[1]) : 3352; g.l2_bytes = 50.0 * 1024 * 1024;
    int top = argc > 2 ? atoi(argv[2]) : 3;
    int M, N, K;
    while (scanf("%d %d %d", &M, &N, &K) == 3) {
        ent e[4096]; int ne = 0;
        for (int k = 39; k < SK_KINDS; k++) for (int swap = 0; swap < 2; swap++)
          for (int sh = 2; sh <= 3; sh++) for (int mode = 0; mode < SK_MODES; mode += 3)
            for (int w = mode == SK_SPLIT ? 2 : 0; w <= (mode == SK_SPLIT ? 15 : 0); w++) {
                sk_cand c = {k, mode, w, sh, swap}; sk_plan s;
                if (sk_plan_of(M, N, K, g.max_clusters, c, &s)) continue;
                if (2 * sk_cover(&s) > 3 * (int64_t)M * N) continue; /* at most 1.5x C */
                e[ne].t = sk_model_ns(&s, M, N, K, &g, &sk_model_sm90);
                sk_cand_name(c, e[ne].n, sizeof e[ne].n); ne++;
            }
        for (int i = 0; i < ne; i++) for (int j = i + 1; j < ne; j++) if (e[j].t < e[i].t) { ent x = e[i]; e[i] = e[j]; e[j] = x; }
        printf("%d %d %d", M, N, K);
        for (int i = 0; i < ne && i < top; i++) printf(" %s", e[i].n);
        printf("\n");
    }
}
