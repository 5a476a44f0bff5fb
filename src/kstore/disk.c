/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * disk.c - (kernel store) kernel objects in the disk cache: one entry
 * per compiled kernel object, named by its kernel key (key.c), holding
 * the object's image and the files its source included with their
 * contents' hashes (payload.h).  A hit loads a fresh instance without a
 * compiler; an entry whose headers changed, that is damaged, foreign or
 * made for another key text is a miss with its reason, never a wrong
 * kernel.  Entries are listed under the jit that made them, with the
 * kernel's description as their signature.
 */
#include <stdio.h>
#include <string.h>

#include "core/log.h"
#include "design/design.h"
#include "kstore/payload.h"
#include "kstore/store.h"

/* "kernel eltwise(int32*, int32*, int32*, int32) -DOP=+": what `iron
 * cache list` shows of an entry. */
static void describe(const iron_kernel *k, iron__str *s)
{
    iron__str_printf(s, "%s %s(", k->is_core ? "core body" : "kernel",
                     k->entry);
    iron__ktypes_format(k->args, k->nargs, s);
    iron__str_append(s, ")");
    for (int m = 0; m < k->ndefines; m++)
        iron__str_printf(s, " -D%s%s%s", k->defines[m].name,
                         k->defines[m].value[0] ? "=" : "",
                         k->defines[m].value);
    if (k->cflags && k->cflags[0])
        iron__str_printf(s, " %s", k->cflags);
}

/* What stat says now of the files the payload's one object records, for
 * keeping it in memory (deps.h). */
static iron_status snapshot(const iron__kstore_payload *pl,
                            iron__kstore_deps *deps)
{
    const iron__kstore_payload_obj *ob = &pl->objs[0];
    if (ob->ndeps == 0)
        return iron__kstore_deps_snapshot(NULL, NULL, 0, deps);
    const char **paths = iron__calloc((size_t)ob->ndeps, sizeof *paths);
    uint32_t *lens = iron__calloc((size_t)ob->ndeps, sizeof *lens);
    iron_status s = IRON_ENOMEM;
    if (paths && lens) {
        for (int d = 0; d < ob->ndeps; d++) {
            paths[d] = ob->deps[d].path;
            lens[d] = ob->deps[d].path_len;
        }
        s = iron__kstore_deps_snapshot(paths, lens, ob->ndeps, deps);
    }
    iron__free(paths);
    iron__free(lens);
    return s;
}

int iron__kstore_disk_get(iron__kstore *ks, iron__cache *c,
                          const iron__kstore_key *key, const char *label,
                          iron__kobj **out, iron__kstore_deps *deps,
                          char *why, size_t why_len)
{
    *out = NULL;
    memset(deps, 0, sizeof *deps);
    iron__cache_key ck = { key->digest.high64, key->digest.low64 };
    void *buf = NULL;
    size_t len = 0;
    const char *w = "absent";
    if (iron__cache_get(c, ck, key->text, key->len, &buf, &len, &w) !=
        IRON_OK) {
        snprintf(why, why_len, "%s", w);
        return 0;
    }
    iron__kstore_payload pl;
    char changed[1024] = "";
    iron__kobj **objs = NULL;
    int hit = 0;
    if (iron__kstore_payload_decode(buf, len, &pl, &w) != IRON_OK) {
        snprintf(why, why_len, "%s", w);
    } else {
        if (!iron__kstore_payload_deps_fresh(&pl, changed, sizeof changed))
            snprintf(why, why_len, "header changed: %s", changed);
        else if (iron__kstore_payload_load(&pl, 1, label, &objs) != IRON_OK)
            snprintf(why, why_len, "kernel image does not load: %s",
                     iron_last_error());
        else if (snapshot(&pl, deps) != IRON_OK) {
            snprintf(why, why_len, "out of memory");
            iron__kobj_free(objs[0]);
        } else {
            *out = objs[0];
            hit = 1;
        }
        iron__free(objs);
        iron__kstore_payload_free(&pl);
    }
    iron__free(buf);
    (void)ks;
    return hit;
}

void iron__kstore_disk_put(iron__kstore *ks, iron__cache *c,
                           const iron__kstore_key *key, const iron_kernel *k,
                           iron__kobj *o)
{
    iron__cache_key ck = { key->digest.high64, key->digest.low64 };
    char hex[40];
    iron__cache_key_hex(ck, hex);
    void *payload;
    size_t plen;
    if (iron__kstore_payload_encode(&o, 1, &payload, &plen) != IRON_OK) {
        iron__log(IRON__LOG_CACHE, "%s: could not store kernel '%s': %s",
                  ks->name, k->entry, iron_last_error());
        return;
    }
    iron__str sig = { 0 };
    describe(k, &sig);
    if (!sig.oom &&
        iron__cache_put(c, ck, key->text, key->len, ks->name,
                        iron__str_get(&sig), payload, plen) == IRON_OK) {
        ks->stats->disk_writes++;
        iron__log(IRON__LOG_CACHE, "%s: stored kernel '%s' as %s (%zu bytes)",
                  ks->name, k->entry, hex, plen);
    } else {
        iron__log(IRON__LOG_CACHE, "%s: could not store kernel '%s' as %s: %s",
                  ks->name, k->entry, hex,
                  sig.oom ? "out of memory" : iron_last_error());
    }
    iron__str_free(&sig);
    iron__free(payload);
}
