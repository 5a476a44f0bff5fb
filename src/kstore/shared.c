/*
 * shared.c - (kernel store) compiled kernel objects shared between the
 * specializations of one jit.  Many specializations differ only in
 * shapes or in values a kernel takes as arguments, not in any kernel's
 * text: they need no compile, no disk read and no new mapping, just a
 * reference to the object already loaded.  Only objects without writable
 * static data are shared (a kernel with state needs fresh state in every
 * specialization).
 *
 * An entry is found by an exact comparison of the kernel's identity
 * (entry, source, argument types, defines, flags, core or not); the table
 * holds one reference of its own, and sweep -- the one place shared
 * objects are freed -- drops entries nobody else uses once a
 * specialization lets go of its objects (iron__kstore_release).  Runs
 * under the owner's serialisation (the jit's build lock).
 */
#include <string.h>

#include "design/design.h"
#include "kstore/store.h"

typedef struct kstore_shared {
    char *identity;
    size_t len;
    iron__kobj *obj;
} kstore_shared;

/* The kernel's identity: its text in the spec key (key.c).  NULL on
 * allocation failure. */
static char *identity_of(const iron__kstore *ks, const iron_kernel *k,
                         size_t *len)
{
    iron__str s = { 0 };
    iron__kstore_kernel_text(ks, k, &s);
    *len = s.len;
    return iron__str_take(&s);
}

static kstore_shared *find(const iron__kstore *ks, const char *id,
                           size_t len)
{
    for (int i = 0; i < ks->nshared; i++)
        if (ks->shared[i].len == len &&
            memcmp(ks->shared[i].identity, id, len) == 0)
            return &ks->shared[i];
    return NULL;
}

int iron__kstore_shared_fill(iron__kstore *ks, iron_program *p)
{
    const iron_design *d = p->d;
    if (!ks->nshared || d->kernels.n == 0)
        return 0;
    iron__kobj **objs = iron__calloc((size_t)d->kernels.n + 1, sizeof *objs);
    if (!objs)
        return 0;
    int i;
    for (i = 0; i < d->kernels.n; i++) {
        size_t len;
        char *id = identity_of(ks, d->kernels.v[i], &len);
        kstore_shared *e = id ? find(ks, id, len) : NULL;
        iron__free(id);
        if (!e)
            break;
        objs[i] = e->obj;
    }
    if (i < d->kernels.n) {
        iron__free(objs);
        return 0;
    }
    /* One reference per distinct object, as the program frees them. */
    p->kobjs = objs;
    p->nkernels = d->kernels.n;
    for (i = 0; i < d->kernels.n; i++)
        if (iron__program_kobj_first(p, i))
            iron__kobj_ref(objs[i]);
    return 1;
}

void iron__kstore_shared_add(iron__kstore *ks, const iron_program *p)
{
    const iron_design *d = p->d;
    for (int i = 0; i < p->nkernels; i++) {
        iron__kobj *o = p->kobjs[i];
        if (!o || iron__kobj_has_state(o))
            continue;
        size_t len;
        char *id = identity_of(ks, d->kernels.v[i], &len);
        if (!id)
            return;
        if (find(ks, id, len)) {
            iron__free(id);
            continue;
        }
        kstore_shared *v = iron__realloc(ks->shared,
                                         (size_t)(ks->nshared + 1) *
                                             sizeof *v);
        if (!v) {
            iron__free(id);
            return;  /* not sharing is only slower */
        }
        ks->shared = v;
        v[ks->nshared++] = (kstore_shared){ id, len, o };
        iron__kobj_ref(o);
    }
}

void iron__kstore_shared_sweep(iron__kstore *ks, int all)
{
    int n = 0;
    for (int i = 0; i < ks->nshared; i++) {
        kstore_shared *e = &ks->shared[i];
        if (all || iron__kobj_refs(e->obj) == 1) {
            iron__kobj_free(e->obj);
            iron__free(e->identity);
        } else {
            ks->shared[n++] = *e;
        }
    }
    ks->nshared = n;
    if (all) {
        iron__free(ks->shared);
        ks->shared = NULL;
    }
}
