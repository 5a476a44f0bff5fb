/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * shared.c - (kernel store) compiled kernel objects kept in memory for
 * the other specializations of one jit.  Many specializations differ
 * only in shapes or in values a kernel takes as arguments, not in any
 * kernel's text: they need no compile and no disk read.  An object
 * without writable static data is shared as it is (one more reference);
 * one with state gets each specialization a fresh instance loaded from
 * its image, as each core on hardware has its own data memory.
 *
 * An entry is found by an exact comparison of the kernel's identity (its
 * text in the keys, key.c) and used only while the files its source
 * included stat as they did when it was made (deps.h); a stale entry is
 * dropped and the caller looks further.  The table holds one reference
 * of its own, and sweep -- the one place kept objects are freed -- drops
 * entries nobody else uses once a specialization lets go of its objects
 * (iron__kstore_release).  Runs under the owner's serialisation (the
 * jit's build lock).
 */
#include <string.h>

#include "compile/compile.h"
#include "core/log.h"
#include "kstore/store.h"

typedef struct kstore_shared {
    char *identity;
    size_t len;
    iron__kobj *obj;
    int has_state;             /* read from its symbols once, when kept */
    iron__kstore_deps deps;
} kstore_shared;

static void drop(kstore_shared *e)
{
    iron__kobj_free(e->obj);
    iron__free(e->identity);
    iron__kstore_deps_free(&e->deps);
}

static int find(const iron__kstore *ks, const char *id, size_t len)
{
    for (int i = 0; i < ks->nshared; i++)
        if (ks->shared[i].len == len &&
            memcmp(ks->shared[i].identity, id, len) == 0)
            return i;
    return -1;
}

iron_status iron__kstore_shared_get(iron__kstore *ks, const char *id,
                                    size_t len, const char *label,
                                    iron__kobj **out)
{
    *out = NULL;
    int i = find(ks, id, len);
    if (i < 0)
        return IRON_OK;
    kstore_shared *e = &ks->shared[i];
    char changed[512];
    if (!iron__kstore_deps_unchanged(&e->deps, changed, sizeof changed)) {
        iron__log(IRON__LOG_CACHE, "%s: %s kept in memory is stale (%s "
                  "changed)", ks->name, label, changed);
        drop(e);
        ks->shared[i] = ks->shared[--ks->nshared];
        return IRON_OK;
    }
    if (!e->has_state) {
        iron__kobj_ref(e->obj);
        *out = e->obj;
        return IRON_OK;
    }
    return iron__kobj_clone(e->obj, label, out);
}

void iron__kstore_shared_put(iron__kstore *ks, const char *id, size_t len,
                             iron__kobj *o, iron__kstore_deps *deps)
{
    kstore_shared e = { .len = len, .obj = o, .deps = *deps };
    memset(deps, 0, sizeof *deps);
    if (find(ks, id, len) >= 0) {
        iron__kstore_deps_free(&e.deps);
        return;
    }
    /* Not keeping an object is only slower. */
    kstore_shared *v = iron__realloc(ks->shared, (size_t)(ks->nshared + 1) *
                                                     sizeof *v);
    if (v)
        ks->shared = v;
    e.identity = v ? iron__malloc(len ? len : 1) : NULL;
    if (!e.identity) {
        iron__kstore_deps_free(&e.deps);
        return;
    }
    memcpy(e.identity, id, len);
    e.has_state = iron__kobj_has_state(o);
    iron__kobj_ref(o);
    v[ks->nshared++] = e;
}

void iron__kstore_shared_sweep(iron__kstore *ks, int all)
{
    int n = 0;
    for (int i = 0; i < ks->nshared; i++) {
        kstore_shared *e = &ks->shared[i];
        if (all || iron__kobj_refs(e->obj) == 1)
            drop(e);
        else
            ks->shared[n++] = *e;
    }
    ks->nshared = n;
    if (all) {
        iron__free(ks->shared);
        ks->shared = NULL;
    }
}
