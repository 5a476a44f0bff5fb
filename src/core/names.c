/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * names.c - "did you mean": the name a user most likely meant, by edit
 * distance (base layer).  One rule for every hint -- parameter and scalar
 * names, log topics, the command's subcommands, options and devices --
 * and the public iron_closest_name for tools built on the library.
 */
#include <string.h>

#include "core/core.h"

/* Names are short; longer ones are never close to anything. */
#define LONGEST 63

size_t iron__edit_distance(const char *a, size_t na, const char *b,
                           size_t nb)
{
    if (na > LONGEST || nb > LONGEST)
        return (size_t)-1;
    size_t row[LONGEST + 1];
    for (size_t j = 0; j <= nb; j++)
        row[j] = j;
    for (size_t i = 1; i <= na; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= nb; j++) {
            size_t up = row[j];
            size_t best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[nb];
}

const char *iron__closest_name(const char *name, const char *const *names,
                               int n)
{
    if (!name || !names)
        return NULL;
    const char *best = NULL;
    size_t best_d = 3;   /* two edits at most: a typo, not another name */
    for (int i = 0; i < n; i++) {
        if (!names[i])
            continue;
        size_t d = iron__edit_distance(name, strlen(name), names[i],
                                       strlen(names[i]));
        if (d < best_d) {
            best_d = d;
            best = names[i];
        }
    }
    return best;
}

IRON_API const char *iron_closest_name(const char *word,
                                       const char *const *names, int n)
{
    return iron__closest_name(word, names, n);
}
