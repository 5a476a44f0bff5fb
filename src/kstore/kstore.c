/*
 * kstore.c - the kernel store's handle and its one question: where do a
 * placed program's kernel objects come from?  In order: objects already
 * loaded for another specialization (shared.c), a loaded artifact
 * (artifact.c), the disk cache, or the C compiler (compiler.c), whose
 * result is then published to the disk cache.  Keys are in key.c.
 * Headers a kernel includes are not known before compiling, so an entry
 * records each included file's size and content hash, and a hit whose
 * headers changed is a miss that rebuilds ("header changed").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compile/compile.h"
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

/* Tries to fill p->kobjs from a payload; IRON_EIO with *why on a payload
 * that is unusable (the caller rebuilds). */
static iron_status from_payload(iron_program *p, const void *buf, size_t len,
                                int check_deps, const char **why,
                                char *changed, size_t changed_len)
{
    iron__kstore_payload pl;
    iron_status s = iron__kstore_payload_decode(buf, len, &pl, why);
    if (s != IRON_OK)
        return s;
    if (check_deps &&
        !iron__kstore_payload_deps_fresh(&pl, changed, changed_len)) {
        iron__kstore_payload_free(&pl);
        *why = "header changed";
        return iron__fail(IRON_EIO, "included file %s changed", changed);
    }
    s = iron__kstore_payload_load(&pl, p);
    iron__kstore_payload_free(&pl);
    if (s != IRON_OK)
        *why = "kernel image does not load";
    return s;
}

/* Artifact, disk cache or compiler (then stored). */
static iron_status find_or_compile(iron__kstore *ks, iron_program *p,
                                   const char *signature, const char **how)
{
    char hex[40];
    *how = "compiled";
    /* The key needs the whole design as text: only worth building when
     * there is somewhere to look it up.  One buffer holds the spec text
     * and, once the disk cache is wanted, the compiler's identity after
     * it: the spec key is its start, the disk key all of it. */
    iron__str text = { 0 };
    iron__kstore_key spec = { 0 }, disk = { 0 };
    int have_key = 0;

    /* Artifacts first: a hit there never touches the cache folder. */
    if (iron__kstore_has_artifacts(ks)) {
        if (iron__kstore_spec_key(ks, p, &text, &spec) == IRON_OK) {
            have_key = 1;
            const void *art;
            size_t art_len;
            const char *collided = NULL;
            if (iron__kstore_artifact_match(ks, &spec, &art, &art_len,
                                            &collided)) {
                const char *why = "";
                char changed[256];
                if (from_payload(p, art, art_len, 0, &why, changed,
                                 sizeof changed) == IRON_OK) {
                    iron__str_free(&text);
                    ks->stats->artifact_hits++;
                    *how = "from an artifact";
                    return IRON_OK;
                }
                iron__log(IRON__LOG_CACHE, "%s: artifact unusable (%s), "
                          "compiling", ks->name, why);
            } else if (collided) {
                iron__log(IRON__LOG_CACHE, "%s: artifact '%s' has this "
                          "specialization's digest but another key text "
                          "(key mismatch): not used", ks->name, collided);
            }
        } else {
            iron__log(IRON__LOG_CACHE, "%s: %s; not using artifacts",
                      ks->name, iron_last_error());
        }
    }

    iron__cache *c = cache_for(ks);
    char identity[512];
    if (c && iron__cc_identity(identity, sizeof identity) != IRON_OK)
        c = NULL;  /* no compiler: the compile below reports it */
    if (c && !have_key) {
        if (iron__kstore_spec_key(ks, p, &text, &spec) == IRON_OK) {
            have_key = 1;
        } else {
            iron__log(IRON__LOG_CACHE, "%s: %s; not using the disk cache",
                      ks->name, iron_last_error());
            c = NULL;
        }
    }
    if (c) {
        iron__str_printf(&text, "compiler %zu:%s\n", strlen(identity),
                         identity);
        if (text.oom) {
            iron__log(IRON__LOG_CACHE, "%s: out of memory building the disk "
                      "key; not using the disk cache", ks->name);
            c = NULL;
        } else {
            disk.text = iron__str_get(&text);
            disk.len = text.len;
            disk.digest = iron__kstore_key_digest(disk.text, disk.len);
        }
    }

    iron__cache_key key = { disk.digest.high64, disk.digest.low64 };
    if (c) {
        iron__cache_key_hex(key, hex);
        void *buf = NULL;
        size_t len = 0;
        const char *why = "absent";
        char changed[1024] = "";
        if (iron__cache_get(c, key, disk.text, disk.len, &buf, &len, &why) ==
            IRON_OK) {
            iron_status s = from_payload(p, buf, len, 1, &why, changed,
                                         sizeof changed);
            iron__free(buf);
            if (s == IRON_OK) {
                iron__str_free(&text);
                ks->stats->disk_hits++;
                *how = "disk cache hit";
                iron__log(IRON__LOG_CACHE, "%s: hit %s in %s", ks->name, hex,
                          iron__cache_dir(c));
                return IRON_OK;
            }
            iron__program_drop_kobjs(p);
        }
        ks->stats->disk_misses++;
        iron__log(IRON__LOG_CACHE, "%s: miss %s (%s%s%s), compiling", ks->name,
                  hex, why, changed[0] ? ": " : "", changed);
        *how = strcmp(why, "absent") == 0 ? "disk cache miss, compiled"
                                          : "disk cache entry unusable, "
                                            "recompiled";
    }

    iron_status s = iron__kstore_compile(ks, p);
    if (s != IRON_OK && iron__kstore_has_artifacts(ks)) {
        /* Without a compiler, an artifact that does not fit is the real
         * problem: say which were loaded and what they were made for. */
        iron__str a = { 0 };
        iron__kstore_artifacts_describe(ks, &a);
        iron__fail_context(s, "no loaded artifact matches this "
                              "specialization (%s)", iron__str_get(&a));
        iron__str_free(&a);
    }
    if (s != IRON_OK || !c) {
        iron__str_free(&text);
        return s;
    }
    void *payload;
    size_t plen;
    if (iron__kstore_payload_encode(p, &payload, &plen) != IRON_OK) {
        iron__str_free(&text);
        return IRON_OK;  /* the build itself succeeded */
    }
    if (iron__cache_put(c, key, disk.text, disk.len, ks->name, signature,
                        payload, plen) == IRON_OK) {
        ks->stats->disk_writes++;
        iron__log(IRON__LOG_CACHE, "%s: stored %s (%zu bytes)", ks->name, hex,
                  plen);
    } else {
        iron__log(IRON__LOG_CACHE, "%s: could not store %s: %s", ks->name,
                  hex, iron_last_error());
    }
    iron__free(payload);
    iron__str_free(&text);
    return IRON_OK;
}

iron_status iron__kstore_kernels(iron__kstore *ks, iron_program *p,
                                 const char *signature, const char **how)
{
    *how = "shared with a resident specialization";
    if (iron__kstore_shared_fill(ks, p)) {
        ks->stats->kernel_shares++;
        return IRON_OK;
    }
    iron_status s = find_or_compile(ks, p, signature, how);
    if (s == IRON_OK)
        iron__kstore_shared_add(ks, p);
    return s;
}
