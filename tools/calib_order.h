/* The order of a round's calls in `calib_v7 --mix` (tools/calib.c), kept apart
 * so that host tests can check it without a GPU.
 *
 * Why: a call that follows a different kernel ran slower than one that
 * follows its own kernel (up to ~0.5 us on 8 us shapes; plots/NOTES.md,
 * nineteenth session). calib's default order only rotates, so each candidate
 * follows the same neighbour in almost every round, and the candidates that
 * open a kernel's block in the list pay that cost where the others do not.
 * The driver (common/driver.c) alternates v7 with cuBLAS, so there every call
 * follows another kernel. --mix orders each round so that, wherever the group
 * sizes allow it, no call follows a call of its own group (group: the kernel
 * a candidate runs, its tile shape and whether it tiles C^T). */
#ifndef CALIB_ORDER_H
#define CALIB_ORDER_H

#include <stdint.h>
#include "../common/verify.h" /* rng_next: splitmix64, the same orders on every machine */

/* ord[0 .. n-1]: a permutation of 0 .. n-1 in which as few neighbours as
 * possible share a group (group[i] in 0 .. n-1). Each step takes a member of
 * the group with the most members left, among the groups other than the
 * last one taken (ties: a key drawn from `seed`), and within a group the
 * members go in an order drawn from `seed`. Where no group has more than
 * (n + 1) / 2 members, no two neighbours share a group; else the largest
 * group's surplus lands at the end, neighbours of one another. `work` holds
 * 4n ints. Different seeds give different orders (a round's seed: its
 * number). */
static inline void calib_mix_order(const int *group, int n, uint64_t seed, int *ord, int *work)
{
    int *left = work;          /* [g]: members of group g not yet placed */
    int *member = work + n;    /* members sorted by group, each group shuffled */
    int *start = work + 2 * n; /* [g]: group g's first slot in member[] */
    int *fill = work + 3 * n;  /* [g]: group g's next free slot in member[] */
    uint64_t s = seed;
    for (int g = 0; g < n; g++) left[g] = 0;
    for (int i = 0; i < n; i++) left[group[i]]++;
    for (int g = 0, at = 0; g < n; g++) {
        start[g] = at;
        at += left[g];
    }
    for (int g = 0; g < n; g++) fill[g] = start[g];
    for (int i = 0; i < n; i++) member[fill[group[i]]++] = i;
    for (int g = 0; g < n; g++) /* Fisher-Yates within each group */
        for (int k = left[g] - 1; k > 0; k--) {
            const int j = (int)(rng_next(&s) % (uint64_t)(k + 1));
            const int t = member[start[g] + k];
            member[start[g] + k] = member[start[g] + j];
            member[start[g] + j] = t;
        }
    int last = -1;
    for (int i = 0; i < n; i++) {
        int best = -1;
        uint64_t best_key = 0;
        for (int pass = 0; pass < 2 && best < 0; pass++) /* pass 1: only the last group is left */
            for (int g = 0; g < n; g++) {
                if (!left[g] || (pass == 0 && g == last)) continue;
                const uint64_t key = rng_next(&s);
                if (best < 0 || left[g] > left[best] || (left[g] == left[best] && key < best_key))
                    best = g, best_key = key;
            }
        ord[i] = member[start[best] + --left[best]];
        last = best;
    }
}

#endif
