/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * key.c - the kernel store's keys.  Two texts, both built once per use:
 *
 * - The kernel key names one compiled kernel object in the disk cache:
 *   the kernel's text (entry, language, source, argument types, defines,
 *   flags, core body or not, the AIE architecture, a timed build or
 *   not; for C++ the hash of
 *   the built-in AIE API headers), the library version, the entry
 *   format, the hash of the built-in <iron/iron_kernel.h> and the
 *   identity of the compiler of its language (cc or c++).
 *   Nothing of the design around the kernel is in it, so every
 *   specialization, jit and process that needs the same kernel finds the
 *   same entry.  The headers the source includes cannot be known before
 *   compiling: the entry records them (payload.h) and a hit checks them.
 * - The spec key names a whole specialization's kernels for artifacts,
 *   which load where no compiler exists: the placed design's canonical
 *   text, every kernel's text, the device model, the library version,
 *   the entry format and the kernel header's hash -- no compiler.
 *
 * Neither involves file times.  A key's XXH3-128 digest only names the
 * entry (or indexes the artifacts); the entry holds the full text, which
 * must equal ours byte for byte: a digest collision is a miss ("key
 * mismatch"), never another kernel.
 */
#include <string.h>

#include "compile/kheader.h"
#include "design/design.h"
#include "dump/dump.h"
#include "kstore/store.h"

uint64_t iron__kstore_test_digest;

XXH128_hash_t iron__kstore_key_digest(const char *text, size_t len)
{
    if (iron__kstore_test_digest) {
        XXH128_hash_t h = { iron__kstore_test_digest,
                            iron__kstore_test_digest };
        return h;
    }
    return XXH3_128bits(len ? text : "", len);
}

/* Every variable-length field is preceded by its length, so that two
 * different kernels can never print the same text. */
int iron__kstore_aie_arch(const iron_device_info *dev)
{
    const char *f = dev && dev->family ? dev->family
                    : dev && dev->name ? dev->name
                                       : "";
    return strncmp(f, "npu1", 4) == 0   ? 20
           : strncmp(f, "npu2", 4) == 0 ? 21
                                        : 0;
}

void iron__kstore_kernel_text(const iron__kstore *ks, const iron_kernel *k,
                              int aie_arch, int timed, iron__str *s)
{
    const char *jf = ks->cflags ? ks->cflags : "-O2";
    const char *kf = k->cflags ? k->cflags : "";
    /* The language, and for C++ the built-in headers only C++ kernels
     * get (in the build's temporary folder, so not among the recorded
     * headers): their hash.  The architecture is on the command line
     * (__AIE_ARCH__). */
    int cxx = iron__kernel_is_cxx(k);
    iron__str_printf(s, "%zu:%s lang %s", strlen(k->entry), k->entry,
                     cxx ? "c++" : "c");
    if (cxx)
        iron__str_printf(s, " headers %016llx",
                         (unsigned long long)iron__kheader_cxx_hash());
    iron__str_printf(s, " aie-arch %d core=%d flags %zu:%s %zu:%s args",
                     aie_arch, k->is_core, strlen(jf), jf, strlen(kf), kf);
    for (int a = 0; a < k->nargs; a++)
        iron__str_printf(s, " %d/%d/%d", (int)k->args[a].dtype,
                         k->args[a].is_ptr, (int)k->args[a].handle);
    for (int m = 0; m < k->ndefines; m++)
        iron__str_printf(s, " -D%zu:%s=%zu:%s", strlen(k->defines[m].name),
                         k->defines[m].name, strlen(k->defines[m].value),
                         k->defines[m].value);
    if (k->path)
        iron__str_printf(s, " file %zu:%s", strlen(k->path), k->path);
    for (int i = 0; i < k->nincdirs; i++)
        iron__str_printf(s, " -I%zu:%s", strlen(k->incdirs[i]),
                         k->incdirs[i]);
    /* Only when timed: an untimed kernel's text, and so its cache entry,
     * stays what it was. */
    if (timed)
        iron__str_append(s, " timed");
    iron__str_printf(s, "\n%zu\n", strlen(k->source));
    iron__str_append(s, k->source);
    iron__str_append(s, "\n");
}

/* Appends the spec key's text to s. */
static void spec_text(const iron__kstore *ks, const iron_program *p,
                      iron__str *s)
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
    iron__dump_text(p->d, p, s);
    for (int i = 0; i < p->d->kernels.n; i++) {
        iron__str_printf(s, "kernel %d ", i);
        iron__kstore_kernel_text(
            ks, p->d->kernels.v[i], iron__kstore_aie_arch(&p->dev),
            iron__kstore_kernel_timed(p, p->d->kernels.v[i]), s);
    }
}

int iron__kstore_kernel_timed(const iron_program *p, const iron_kernel *k)
{
    return p->timed && !k->cycles;
}

iron_status iron__kstore_kernel_key(const iron__kstore *ks,
                                    const iron_kernel *k, const char *text,
                                    const char *identity, iron__str *buf,
                                    iron__kstore_key *out)
{
    memset(out, 0, sizeof *out);
    iron__str_printf(buf, "iron-kobj %s format %d kernel-header %016llx\n",
                     iron_version(), IRON__CACHE_FORMAT,
                     (unsigned long long)iron__kheader_hash());
    iron__str_append(buf, text);
    iron__str_printf(buf, "compiler %zu:%s\n", strlen(identity), identity);
    if (buf->oom) {
        iron__str_free(buf);
        return iron__fail(IRON_ENOMEM, "%s: out of memory building the "
                                       "cache key of kernel '%s'",
                          ks->name, k->entry);
    }
    out->text = iron__str_get(buf);
    out->len = buf->len;
    out->digest = iron__kstore_key_digest(out->text, out->len);
    return IRON_OK;
}

iron_status iron__kstore_spec_key(const iron__kstore *ks,
                                  const iron_program *p, iron__str *buf,
                                  iron__kstore_key *out)
{
    memset(out, 0, sizeof *out);
    spec_text(ks, p, buf);
    if (buf->oom) {
        iron__str_free(buf);
        return iron__fail(IRON_ENOMEM, "%s: out of memory building the "
                                       "cache key", ks->name);
    }
    out->text = iron__str_get(buf);
    out->len = buf->len;
    out->digest = iron__kstore_key_digest(out->text, out->len);
    return IRON_OK;
}
