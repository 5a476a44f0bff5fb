/*
 * kcache.c - where a specialization's kernel objects come from: a loaded
 * artifact, the disk cache, or the C compiler (whose result is then
 * published to the disk cache).
 *
 * Keys.  The spec key is the canonical text of everything that changes
 * the output but the compiler: the placed design's canonical text, every
 * kernel's source, entry, argument types, defines and flags, the device
 * model, the library version and the entry format.  Artifacts match on
 * it, so they load where no compiler exists.  The disk key is the same
 * text followed by the compiler's identity (command, version, target).
 * Neither involves file times.  The text is built once per build; its
 * XXH3-128 digest only names the entry (or indexes the artifacts), and
 * the entry holds the full text, which must equal ours byte for byte: a
 * digest collision is a miss ("key mismatch"), never another
 * specialization's kernel.  Headers a kernel includes are not known
 * before compiling, so an entry records each included file's size and
 * content hash, and a hit whose headers changed is a miss that rebuilds
 * ("header changed").  The library's own <iron/iron_kernel.h> is the
 * exception: its text is built in, so its hash is part of the key.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache/cache.h"
#include "compile/kheader.h"
#include "core/log.h"
#include "jit/jit.h"
#include "jit/payload.h"

XXH128_hash_t iron__jit_key_digest(const char *text, size_t len)
{
    if (iron__jit_test_digest) {
        XXH128_hash_t h = { iron__jit_test_digest, iron__jit_test_digest };
        return h;
    }
    return XXH3_128bits(len ? text : "", len);
}

/* Every variable-length field is preceded by its length, so that two
 * different kernels can never print the same text. */
void iron__jit_kernel_text(const iron_jit *j, const iron_kernel *k,
                           iron__str *s)
{
    const char *jf = j->cflags ? j->cflags : "-O2";
    const char *kf = k->cflags ? k->cflags : "";
    iron__str_printf(s, "%zu:%s core=%d flags %zu:%s %zu:%s args",
                     strlen(k->entry), k->entry, k->is_core, strlen(jf), jf,
                     strlen(kf), kf);
    for (int a = 0; a < k->nargs; a++)
        iron__str_printf(s, " %d/%d/%d", (int)k->args[a].dtype,
                         k->args[a].is_ptr, (int)k->args[a].handle);
    for (int m = 0; m < k->ndefines; m++)
        iron__str_printf(s, " -D%zu:%s=%zu:%s", strlen(k->defines[m].name),
                         k->defines[m].name, strlen(k->defines[m].value),
                         k->defines[m].value);
    iron__str_printf(s, "\n%zu\n", strlen(k->source));
    iron__str_append(s, k->source);
    iron__str_append(s, "\n");
}

/* Appends the spec key's text to s. */
static void spec_text(const iron_jit *j, const iron_program *p, iron__str *s)
{
    const iron_device_info *dv = &p->dev;
    /* The built-in <iron/iron_kernel.h> is not among a kernel's recorded
     * headers (it lives in the build's temporary folder): its hash is. */
    iron__str_printf(s, "iron-spec %s format %d kernel-header %016llx\n",
                     iron_version(), IRON__CACHE_FORMAT,
                     (unsigned long long)iron__kheader_hash());
    iron__str_printf(s,
                     "device %s %s cols %d rows %d compute %u/%u/%d/%d/%d/%d "
                     "memtile %u/%d/%d/%d/%d shim %d/%d/%d/%d locks %d\n",
                     dv->name, dv->arch, dv->columns, dv->rows,
                     dv->compute.memory_bytes, dv->compute.stack_bytes,
                     dv->compute.locks, dv->compute.buffer_descriptors,
                     dv->compute.dma_in, dv->compute.dma_out,
                     dv->memtile.memory_bytes, dv->memtile.locks,
                     dv->memtile.buffer_descriptors, dv->memtile.dma_in,
                     dv->memtile.dma_out, dv->shim.locks,
                     dv->shim.buffer_descriptors, dv->shim.dma_in,
                     dv->shim.dma_out, dv->lock_max_value);
    iron__design_dump(p->d, p, s);
    for (int i = 0; i < p->d->kernels.n; i++) {
        iron__str_printf(s, "kernel %d ", i);
        iron__jit_kernel_text(j, p->d->kernels.v[i], s);
    }
}

iron_status iron__jit_spec_key_make(const iron_jit *j, const iron_program *p,
                                    iron__str *buf, iron__jit_key *out)
{
    memset(out, 0, sizeof *out);
    spec_text(j, p, buf);
    if (buf->oom) {
        iron__str_free(buf);
        return iron__fail(IRON_ENOMEM, "%s: out of memory building the "
                                       "cache key", j->name);
    }
    out->text = iron__str_get(buf);
    out->len = buf->len;
    out->digest = iron__jit_key_digest(out->text, out->len);
    return IRON_OK;
}

/* --- compiling ------------------------------------------------------------ */

static int same_kernel(const iron_kernel *a, const iron_kernel *b)
{
    if (a->is_core != b->is_core || strcmp(a->entry, b->entry) ||
        strcmp(a->source, b->source) ||
        a->nargs != b->nargs || a->ndefines != b->ndefines ||
        (a->cflags == NULL) != (b->cflags == NULL) ||
        (a->cflags && strcmp(a->cflags, b->cflags)))
        return 0;
    if (memcmp(a->args, b->args, (size_t)a->nargs * sizeof a->args[0]))
        return 0;
    for (int i = 0; i < a->ndefines; i++)
        if (strcmp(a->defines[i].name, b->defines[i].name) ||
            strcmp(a->defines[i].value, b->defines[i].value))
            return 0;
    return 1;
}

static iron_status compile_kernels(iron_jit *j, iron_program *p)
{
    const iron_design *d = p->d;
    p->nkernels = d->kernels.n;
    p->kobjs = iron__calloc((size_t)d->kernels.n + 1, sizeof *p->kobjs);
    if (!p->kobjs)
        return iron__fail(IRON_ENOMEM, "out of memory compiling kernels");
    for (int i = 0; i < d->kernels.n; i++) {
        const iron_kernel *k = d->kernels.v[i];
        for (int e = 0; e < i && !p->kobjs[i]; e++)
            if (same_kernel(k, d->kernels.v[e]))
                p->kobjs[i] = p->kobjs[e];
        if (!p->kobjs[i]) {
            const char *names[64], *values[64];
            if (k->ndefines > 64)
                return iron__fail(IRON_EINVAL,
                                  "kernel '%s': more than 64 defines",
                                  k->entry);
            for (int m = 0; m < k->ndefines; m++) {
                names[m] = k->defines[m].name;
                values[m] = k->defines[m].value;
            }
            iron__str flags = { 0 }, label = { 0 };
            iron__str_printf(&flags, "%s %s", j->cflags ? j->cflags : "-O2",
                             k->cflags ? k->cflags : "");
            iron__str_printf(&label, "%s '%s'",
                             k->is_core ? "core body" : "kernel", k->entry);
            iron__kernel_src src = {
                .label = iron__str_get(&label),
                .entry = k->entry,
                .source = k->source,
                .nargs = k->nargs,
                .args = k->args,
                .ndefines = k->ndefines,
                .define_names = names,
                .define_values = values,
                .cflags = iron__str_get(&flags),
                .is_core = k->is_core,
            };
            iron_status s = flags.oom || label.oom
                                ? iron__fail(IRON_ENOMEM, "out of memory")
                                : iron__kernel_compile(&src, &p->kobjs[i]);
            iron__str_free(&flags);
            iron__str_free(&label);
            if (s != IRON_OK)
                return s;
            j->stats.kernel_compiles++;
        }
    }
    return IRON_OK;
}


/* --- the disk cache --------------------------------------------------------- */

/* Opens the cache at the first build that wants it; an unusable folder
 * falls back to memory with one warning. */
static iron__cache *cache_for(iron_jit *j)
{
    if (!j->cache_mode)
        return NULL;
    if (j->cache_tried)
        return j->cache;
    j->cache_tried = 1;
    uint64_t max = j->cache_max ? j->cache_max : iron__cache_env_max_bytes();
    iron_status s = iron__cache_open(&j->cache, j->cache_dir, max);
    if (s != IRON_OK) {
        char msg[1024];
        snprintf(msg, sizeof msg, "%s", iron_last_error());
        iron__warn("%s: disk cache disabled, keeping compiled kernels in "
                   "memory only: %s",
                   j->name, msg);
        j->cache = NULL;
    }
    return j->cache;
}

void iron__jit_cache_close(iron_jit *j)
{
    iron__cache_close(j->cache);
    j->cache = NULL;
}

/* Tries to fill p->kobjs from a payload; IRON_EIO with *why on a payload
 * that is unusable (the caller rebuilds). */
static iron_status from_payload(iron_program *p, const void *buf, size_t len,
                                int check_deps, const char **why,
                                char *changed, size_t changed_len)
{
    iron__payload pl;
    iron_status s = iron__payload_decode(buf, len, &pl, why);
    if (s != IRON_OK)
        return s;
    if (check_deps && !iron__payload_deps_fresh(&pl, changed, changed_len)) {
        iron__payload_free(&pl);
        *why = "header changed";
        return iron__fail(IRON_EIO, "included file %s changed", changed);
    }
    s = iron__payload_load(&pl, p);
    iron__payload_free(&pl);
    if (s != IRON_OK)
        *why = "kernel image does not load";
    return s;
}

iron_status iron__jit_kernels(iron_jit *j, iron_program *p,
                              const char *signature, const char **how)
{
    char hex[40];
    *how = "compiled";
    /* The key needs the whole design as text: only worth building when
     * there is somewhere to look it up.  One buffer holds the spec text
     * and, once the disk cache is wanted, the compiler's identity after
     * it: the spec key is its start, the disk key all of it. */
    iron__str text = { 0 };
    iron__jit_key spec = { 0 }, disk = { 0 };
    int have_key = 0;

    /* Artifacts first: a hit there never touches the cache folder. */
    if (j->artifacts) {
        if (iron__jit_spec_key_make(j, p, &text, &spec) == IRON_OK) {
            have_key = 1;
            const void *art;
            size_t art_len;
            const char *collided = NULL;
            if (iron__jit_artifact_match(j, &spec, &art, &art_len,
                                         &collided)) {
                const char *why = "";
                char changed[256];
                if (from_payload(p, art, art_len, 0, &why, changed,
                                 sizeof changed) == IRON_OK) {
                    iron__str_free(&text);
                    j->stats.artifact_hits++;
                    *how = "from an artifact";
                    return IRON_OK;
                }
                iron__log(IRON__LOG_CACHE, "%s: artifact unusable (%s), "
                          "compiling", j->name, why);
            } else if (collided) {
                iron__log(IRON__LOG_CACHE, "%s: artifact '%s' has this "
                          "specialization's digest but another key text "
                          "(key mismatch): not used", j->name, collided);
            }
        } else {
            iron__log(IRON__LOG_CACHE, "%s: %s; not using artifacts",
                      j->name, iron_last_error());
        }
    }

    iron__cache *c = cache_for(j);
    char identity[512];
    if (c && iron__cc_identity(identity, sizeof identity) != IRON_OK)
        c = NULL;  /* no compiler: the compile below reports it */
    if (c && !have_key) {
        if (iron__jit_spec_key_make(j, p, &text, &spec) == IRON_OK) {
            have_key = 1;
        } else {
            iron__log(IRON__LOG_CACHE, "%s: %s; not using the disk cache",
                      j->name, iron_last_error());
            c = NULL;
        }
    }
    if (c) {
        iron__str_printf(&text, "compiler %zu:%s\n", strlen(identity),
                         identity);
        if (text.oom) {
            iron__log(IRON__LOG_CACHE, "%s: out of memory building the disk "
                      "key; not using the disk cache", j->name);
            c = NULL;
        } else {
            disk.text = iron__str_get(&text);
            disk.len = text.len;
            disk.digest = iron__jit_key_digest(disk.text, disk.len);
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
                j->stats.disk_hits++;
                *how = "disk cache hit";
                iron__log(IRON__LOG_CACHE, "%s: hit %s in %s", j->name, hex,
                          iron__cache_dir(c));
                return IRON_OK;
            }
            iron__program_drop_kobjs(p);
        }
        j->stats.disk_misses++;
        iron__log(IRON__LOG_CACHE, "%s: miss %s (%s%s%s), compiling", j->name,
                  hex, why, changed[0] ? ": " : "", changed);
        *how = strcmp(why, "absent") == 0 ? "disk cache miss, compiled"
                                          : "disk cache entry unusable, "
                                            "recompiled";
    }

    iron_status s = compile_kernels(j, p);
    if (s != IRON_OK && j->artifacts) {
        /* Without a compiler, an artifact that does not fit is the real
         * problem: say which were loaded and what they were made for. */
        iron__str a = { 0 };
        iron__jit_artifacts_describe(j, &a);
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
    if (iron__payload_encode(p, &payload, &plen) != IRON_OK) {
        iron__str_free(&text);
        return IRON_OK;  /* the build itself succeeded */
    }
    if (iron__cache_put(c, key, disk.text, disk.len, j->name, signature,
                        payload, plen) == IRON_OK) {
        j->stats.disk_writes++;
        iron__log(IRON__LOG_CACHE, "%s: stored %s (%zu bytes)", j->name, hex,
                  plen);
    } else {
        iron__log(IRON__LOG_CACHE, "%s: could not store %s: %s", j->name,
                  hex, iron_last_error());
    }
    iron__free(payload);
    iron__str_free(&text);
    return IRON_OK;
}
