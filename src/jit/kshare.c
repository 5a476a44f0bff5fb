/*
 * kshare.c - compiled kernel objects shared between the specializations
 * of one jit.  Many specializations differ only in shapes or in values a
 * kernel takes as arguments, not in any kernel's text: they need no
 * compile, no disk read and no new mapping, just a reference to the
 * object already loaded.  Only objects without writable static data are
 * shared (a kernel with state needs fresh state in every specialization).
 *
 * An entry is found by an exact comparison of the kernel's identity
 * (entry, source, argument types, defines, flags, core or not); the table
 * holds one reference of its own and drops entries nobody else uses when
 * specializations are unloaded.  Runs under the jit's build lock.
 */
#include <string.h>

#include "jit/jit.h"

typedef struct kshare_entry {
    char *identity;
    size_t len;
    iron__kobj *obj;
} kshare_entry;

/* The kernel's identity: its text in the cache key (kcache.c).  NULL on
 * allocation failure. */
static char *identity_of(const iron_jit *j, const iron_kernel *k,
                         size_t *len)
{
    iron__str s = { 0 };
    iron__jit_kernel_text(j, k, &s);
    *len = s.len;
    return iron__str_take(&s);
}

static kshare_entry *find(const iron_jit *j, const char *id, size_t len)
{
    for (int i = 0; i < j->nkshare; i++)
        if (j->kshare[i].len == len &&
            memcmp(j->kshare[i].identity, id, len) == 0)
            return &j->kshare[i];
    return NULL;
}

int iron__jit_kshare_fill(iron_jit *j, iron_program *p)
{
    const iron_design *d = p->d;
    if (!j->nkshare || d->kernels.n == 0)
        return 0;
    iron__kobj **objs = iron__calloc((size_t)d->kernels.n + 1, sizeof *objs);
    if (!objs)
        return 0;
    int i;
    for (i = 0; i < d->kernels.n; i++) {
        size_t len;
        char *id = identity_of(j, d->kernels.v[i], &len);
        kshare_entry *e = id ? find(j, id, len) : NULL;
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

void iron__jit_kshare_add(iron_jit *j, const iron_program *p)
{
    const iron_design *d = p->d;
    for (int i = 0; i < p->nkernels; i++) {
        iron__kobj *o = p->kobjs[i];
        if (!o || iron__kobj_has_state(o))
            continue;
        size_t len;
        char *id = identity_of(j, d->kernels.v[i], &len);
        if (!id)
            return;
        if (find(j, id, len)) {
            iron__free(id);
            continue;
        }
        kshare_entry *v = iron__realloc(j->kshare, (size_t)(j->nkshare + 1) *
                                                       sizeof *v);
        if (!v) {
            iron__free(id);
            return;  /* not sharing is only slower */
        }
        j->kshare = v;
        v[j->nkshare++] = (kshare_entry){ id, len, o };
        iron__kobj_ref(o);
    }
}

void iron__jit_kshare_sweep(iron_jit *j, int all)
{
    int n = 0;
    for (int i = 0; i < j->nkshare; i++) {
        kshare_entry *e = &j->kshare[i];
        if (all || iron__kobj_refs(e->obj) == 1) {
            iron__kobj_free(e->obj);
            iron__free(e->identity);
        } else {
            j->kshare[n++] = *e;
        }
    }
    j->nkshare = n;
    if (all) {
        iron__free(j->kshare);
        j->kshare = NULL;
    }
}
