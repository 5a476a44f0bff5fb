/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * kstore.c - the kernel store's handle and its one question: where do a
 * placed program's kernel objects come from?  A loaded artifact holding
 * the whole specialization (artifact.c) first; else each distinct kernel
 * on its own: an object kept in memory for another specialization
 * (shared.c), the disk cache's entry for that kernel (disk.c), or the C
 * compiler (compiler.c), whose result is then published and kept.  So a
 * new shape or a new parameter value compiles only the kernels whose
 * text it changes.  Keys are in key.c.  Headers a kernel includes are
 * not known before compiling, so an entry records each included file's
 * size and content hash, and a hit whose headers changed is a miss that
 * rebuilds ("header changed").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compile/compile.h"
#include "design/design.h"
#include "core/log.h"
#include "kstore/payload.h"
#include "kstore/store.h"

iron_status iron__kstore_new(const iron__kstore_config *cfg,
                             iron__kstore **out)
{
    *out = NULL;
    iron__kstore *ks = iron__calloc(1, sizeof *ks);
    if (!ks)
        return iron__fail(IRON_ENOMEM, "out of memory creating the kernel "
                                       "store of '%s'", cfg->name);
    ks->name = cfg->name;
    ks->cflags = cfg->cflags;
    ks->stats = cfg->stats;
    iron__cache_settings_resolve(cfg->disk_cache, cfg->cache_dir,
                                 cfg->cache_max_bytes, &ks->cache_settings);
    pthread_mutex_init(&ks->artifacts_lock, NULL);
    *out = ks;
    return IRON_OK;
}

void iron__kstore_free(iron__kstore *ks)
{
    if (!ks)
        return;
    iron__kstore_shared_sweep(ks, 1);
    iron__cache_close(ks->cache);
    iron__kstore_artifacts_free(ks);
    pthread_mutex_destroy(&ks->artifacts_lock);
    iron__free(ks);
}

void iron__kstore_release(iron__kstore *ks, iron_program *p)
{
    if (p)
        iron__program_drop_kobjs(p);
    if (ks)
        iron__kstore_shared_sweep(ks, 0);
}

const struct iron__cache *iron__kstore_disk_cache(const iron__kstore *ks)
{
    return ks ? ks->cache : NULL;
}

/* Opens the cache at the first build that wants it; an unusable folder
 * falls back to memory with one warning. */
static iron__cache *cache_for(iron__kstore *ks)
{
    const iron__cache_settings *cs = &ks->cache_settings;
    if (!cs->enabled)
        return NULL;
    if (ks->cache_tried)
        return ks->cache;
    ks->cache_tried = 1;
    char msg[1024];
    iron_status s = IRON_EIO;
    if (cs->no_dir)
        snprintf(msg, sizeof msg, "%s", cs->no_dir);
    else if ((s = iron__cache_open(&ks->cache, cs->dir, cs->max_bytes)) !=
             IRON_OK)
        snprintf(msg, sizeof msg, "%s", iron_last_error());
    if (s != IRON_OK) {
        iron__warn("%s: disk cache disabled, keeping compiled kernels in "
                   "memory only: %s",
                   ks->name, msg);
        ks->cache = NULL;
    }
    return ks->cache;
}

/* An artifact holding exactly this specialization's kernels (1), which
 * then fill p->kobjs; 0 when none matches or it does not load. */
static int from_artifact(iron__kstore *ks, iron_program *p)
{
    iron__str text = { 0 };
    iron__kstore_key spec;
    if (iron__kstore_spec_key(ks, p, &text, &spec) != IRON_OK) {
        iron__log(IRON__LOG_CACHE, "%s: %s; not using artifacts", ks->name,
                  iron_last_error());
        return 0;
    }
    const void *art;
    size_t art_len;
    const char *collided = NULL;
    int found = iron__kstore_artifact_match(ks, &spec, &art, &art_len,
                                            &collided);
    iron__str_free(&text);
    if (!found) {
        if (collided)
            iron__log(IRON__LOG_CACHE, "%s: artifact '%s' has this "
                      "specialization's digest but another key text (key "
                      "mismatch): not used", ks->name, collided);
        return 0;
    }
    iron__kstore_payload pl;
    const char *why = "";
    iron__kobj **objs = NULL;
    if (iron__kstore_payload_decode(art, art_len, &pl, &why) == IRON_OK) {
        if (iron__kstore_payload_load(&pl, p->d->kernels.n, "cached kernel",
                                      &objs) != IRON_OK)
            why = "kernel image does not load";
        iron__kstore_payload_free(&pl);
    }
    if (!objs) {
        iron__log(IRON__LOG_CACHE, "%s: artifact unusable (%s), compiling",
                  ks->name, why);
        return 0;
    }
    iron__free(p->kobjs);
    p->kobjs = objs;
    return 1;
}

/* Where one build's kernels came from. */
typedef struct origin {
    int shared, disk, compiled, misses, unusable;
} origin;

/* The object of kernel k: kept in memory, from the disk cache, or
 * compiled (then published and kept). */
static iron_status kernel_object(iron__kstore *ks, const iron_kernel *k,
                                 int aie_arch, int timed, iron__kobj **out,
                                 origin *o)
{
    *out = NULL;
    iron__str id = { 0 }, label = { 0 };
    iron__kstore_kernel_text(ks, k, aie_arch, timed, &id);
    iron__str_printf(&label, "%s '%s'", k->is_core ? "core body" : "kernel",
                     k->entry);
    if (id.oom || label.oom) {
        iron__str_free(&id);
        iron__str_free(&label);
        return iron__fail(IRON_ENOMEM, "%s: out of memory naming kernel "
                                       "'%s'", ks->name, k->entry);
    }
    const char *lb = iron__str_get(&label);
    iron_status s = iron__kstore_shared_get(ks, id.p, id.len, lb, out);
    if (s != IRON_OK || *out) {
        o->shared += s == IRON_OK;
        goto done;
    }

    /* The disk cache, when there is one and a compiler to name. */
    iron__cache *c = cache_for(ks);
    char identity[512];
    if (c && iron__compiler_identity(iron__kernel_is_cxx(k), identity,
                                     sizeof identity) != IRON_OK)
        c = NULL;  /* no compiler: the compile below reports it */
    iron__str ktext = { 0 };
    iron__kstore_key key;
    if (c && iron__kstore_kernel_key(ks, k, iron__str_get(&id), identity,
                                     &ktext, &key) != IRON_OK) {
        iron__log(IRON__LOG_CACHE, "%s: %s; not using the disk cache",
                  ks->name, iron_last_error());
        c = NULL;
    }
    iron__kstore_deps deps;
    if (c) {
        char why[1200], hex[40];
        iron__cache_key ck = { key.digest.high64, key.digest.low64 };
        iron__cache_key_hex(ck, hex);
        if (iron__kstore_disk_get(ks, c, &key, lb, out, &deps, why,
                                  sizeof why)) {
            o->disk++;
            iron__log(IRON__LOG_CACHE, "%s: hit %s in %s: %s", ks->name, hex,
                      iron__cache_dir(c), lb);
            iron__kstore_shared_put(ks, id.p, id.len, *out, &deps);
            goto done_key;
        }
        ks->stats->disk_misses++;
        o->misses++;
        o->unusable += strcmp(why, "absent") != 0;
        iron__log(IRON__LOG_CACHE, "%s: miss %s (%s), compiling %s",
                  ks->name, hex, why, lb);
    }

    s = iron__kstore_compile(ks, k, lb, aie_arch, timed, out);
    if (s == IRON_OK) {
        o->compiled++;
        if (c)
            iron__kstore_disk_put(ks, c, &key, k, *out);
        int ndeps;
        const char *const *paths = iron__kobj_deps(*out, &ndeps);
        if (iron__kstore_deps_snapshot(paths, NULL, ndeps, &deps) == IRON_OK)
            iron__kstore_shared_put(ks, id.p, id.len, *out, &deps);
    }
done_key:
    iron__str_free(&ktext);
done:
    iron__str_free(&id);
    iron__str_free(&label);
    return s;
}

/* "disk cache hit", "2 shared, 1 compiled", ...: the log's words for
 * where a build's kernels came from. */
static void describe_origin(iron__kstore *ks, const origin *o)
{
    int total = o->shared + o->disk + o->compiled;
    const char *single =
        total == 0                            ? "no kernels"
        : o->shared == total                  ? "shared with a resident "
                                                "specialization"
        : o->disk == total                    ? "disk cache hit"
        : o->compiled == total && !o->misses  ? "compiled"
        : o->compiled == total && !o->unusable ? "disk cache miss, compiled"
        : o->compiled == total                ? "disk cache entry unusable, "
                                                "recompiled"
                                              : NULL;
    if (single) {
        snprintf(ks->how, sizeof ks->how, "%s", single);
        return;
    }
    snprintf(ks->how, sizeof ks->how, "%d shared, %d from the disk cache, "
             "%d compiled", o->shared, o->disk, o->compiled);
}

iron_status iron__kstore_kernels(iron__kstore *ks, iron_program *p,
                                 const char *signature, const char **how)
{
    (void)signature;
    const iron_design *d = p->d;
    int arch = iron__kstore_aie_arch(&p->dev);
    *how = ks->how;
    p->nkernels = d->kernels.n;
    p->kobjs = iron__calloc((size_t)d->kernels.n + 1, sizeof *p->kobjs);
    if (!p->kobjs)
        return iron__fail(IRON_ENOMEM, "out of memory loading kernels");

    /* Artifacts first: a hit there needs neither the cache nor a
     * compiler. */
    if (iron__kstore_has_artifacts(ks) && from_artifact(ks, p)) {
        ks->stats->artifact_hits++;
        snprintf(ks->how, sizeof ks->how, "from an artifact");
        /* Kept for other specializations as compiled objects are (an
         * artifact records no headers: it is trusted as it is). */
        for (int i = 0; i < d->kernels.n; i++) {
            iron__str id = { 0 };
            iron__kstore_kernel_text(ks, d->kernels.v[i], arch,
                                     iron__kstore_kernel_timed(p, d->kernels.v[i]), &id);
            iron__kstore_deps none = { 0 };
            if (!id.oom && iron__program_kobj_first(p, i))
                iron__kstore_shared_put(ks, id.p, id.len, p->kobjs[i], &none);
            iron__str_free(&id);
        }
        return IRON_OK;
    }
    origin o = { 0 };
    for (int i = 0; i < d->kernels.n; i++) {
        const iron_kernel *k = d->kernels.v[i];
        for (int e = 0; e < i && !p->kobjs[i]; e++)
            if (iron__kstore_same_kernel(k, d->kernels.v[e]))
                p->kobjs[i] = p->kobjs[e];
        if (p->kobjs[i])
            continue;
        iron_status s =
            kernel_object(ks, k, arch, iron__kstore_kernel_timed(p, k),
                          &p->kobjs[i], &o);
        if (s != IRON_OK) {
            if (iron__kstore_has_artifacts(ks)) {
                /* Without a compiler, an artifact that does not fit is
                 * the real problem: say which were loaded and what they
                 * were made for. */
                iron__str a = { 0 };
                iron__kstore_artifacts_describe(ks, &a);
                iron__fail_context(s, "no loaded artifact matches this "
                                      "specialization (%s)",
                                   iron__str_get(&a));
                iron__str_free(&a);
            }
            iron__program_drop_kobjs(p);
            iron__kstore_shared_sweep(ks, 0);
            return s;
        }
    }
    if (o.shared && o.shared == o.shared + o.disk + o.compiled)
        ks->stats->kernel_shares++;
    if (o.disk && !o.compiled)
        ks->stats->disk_hits++;
    describe_origin(ks, &o);
    return IRON_OK;
}
