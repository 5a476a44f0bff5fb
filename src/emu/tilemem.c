/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * tilemem.c - where emulated tile memory lives, apart from the emulator's
 * own state, and how a faulting address is described against it.
 *
 * Ordinary runs: one address-space reservation holding every used tile's
 * memory, each tile between inaccessible guards of GUARD_BYTES.  A kernel
 * that writes past its tile hits a guard (a contained fault) instead of
 * the emulator's arrays, which are ordinary heap allocations elsewhere.
 *
 * Checked runs (IRON_CHECK=1): every pool buffer also gets pages of its
 * own, in a memory file mapped twice.  The emulator's view is always
 * writable (DMA movers fill and drain through it); the kernels' view maps
 * each buffer right-aligned to the end of its pages, with a guard page
 * between buffers, and is inaccessible except while the running worker
 * holds the buffer (iron__emu_mem_protect).  So a kernel that touches a
 * buffer outside its acquired window, after releasing it, or past its
 * end faults at that instruction.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "emu/emu.h"

/* Guards around each tile: larger than any tile (a memtile is 512 KiB),
 * so a stray index past an object lands in a guard, not a neighbour. */
#define GUARD_BYTES ((size_t)1 << 20)

/* Fills checked-mode memory: recognisable in a debugger, and unlikely as
 * real data, so an object released unwritten can be noticed. */
#define POISON_WORD 0xA5EFBEADu

static size_t page_size(void)
{
    long ps = sysconf(_SC_PAGESIZE);
    return ps > 0 ? (size_t)ps : 4096;
}

static size_t round_up(size_t n, size_t to)
{
    return (n + to - 1) / to * to;
}

/* --- ordinary layout: tiles between guards -------------------------------- */

static iron_status map_tiles(emu_inst *in)
{
    const iron_program *p = in->prog;
    size_t page = page_size();
    size_t total = GUARD_BYTES;
    for (int t = 0; t < p->ntiles; t++)
        total += round_up(iron__tile_mem_of(p, p->tiles[t].tile), page) +
                 GUARD_BYTES;
    void *m = mmap(NULL, total, PROT_NONE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED)
        return iron__fail(IRON_ENOMEM, "emulator: cannot reserve %zu bytes "
                          "of tile memory: %s", total, strerror(errno));
    in->map = m;
    in->map_bytes = total;
    uint8_t *at = (uint8_t *)m + GUARD_BYTES;
    for (int t = 0; t < p->ntiles; t++) {
        size_t n = round_up(iron__tile_mem_of(p, p->tiles[t].tile), page);
        if (mprotect(at, n, PROT_READ | PROT_WRITE) != 0)
            return iron__fail(IRON_ENOMEM, "emulator: cannot map tile "
                              "memory: %s", strerror(errno));
        in->tile_mem[t] = at;
        at += n + GUARD_BYTES;
    }
    return IRON_OK;
}

/* --- checked layout: every buffer in pages of its own, mapped twice ------- */

/* Bytes of the memory file a buffer of obj_bytes takes: whole pages. */
static size_t buf_span(size_t obj_bytes, size_t page)
{
    return round_up(obj_bytes ? obj_bytes : 1, page);
}

static iron_status map_buffers(emu_inst *in)
{
    const iron_program *p = in->prog;
    size_t page = page_size();
    size_t file = 0;
    int nbufs = 0;
    for (int i = 0; i < p->npools; i++) {
        file += (size_t)p->pools[i].depth * buf_span(p->pools[i].obj_bytes,
                                                     page);
        nbufs += p->pools[i].depth;
    }
    if (file == 0)
        return IRON_OK;
    int fd = memfd_create("iron-checked-buffers", MFD_CLOEXEC);
    if (fd < 0 || ftruncate(fd, (off_t)file) != 0) {
        int e = errno;
        if (fd >= 0)
            close(fd);
        return iron__fail(IRON_ENOMEM, "checked mode: cannot make a memory "
                          "file of %zu bytes for the buffers: %s", file,
                          strerror(e));
    }
    size_t kview = file + (size_t)(nbufs + 1) * page;
    void *ev = mmap(NULL, file, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    void *kv = mmap(NULL, kview, PROT_NONE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (ev == MAP_FAILED || kv == MAP_FAILED) {
        int e = errno;
        if (ev != MAP_FAILED)
            munmap(ev, file);
        if (kv != MAP_FAILED)
            munmap(kv, kview);
        close(fd);
        return iron__fail(IRON_ENOMEM, "checked mode: cannot map %zu bytes "
                          "of buffers: %s", file, strerror(e));
    }
    in->bufs_view = ev;
    in->bufs_bytes = file;
    in->kview = kv;
    in->kview_bytes = kview;
    /* Each buffer's pages, in pool order, a guard page before each. */
    size_t off = 0;
    uint8_t *k = (uint8_t *)kv + page;
    for (int i = 0; i < p->npools; i++) {
        size_t span = buf_span(p->pools[i].obj_bytes, page);
        for (int b = 0; b < p->pools[i].depth; b++) {
            if (mmap(k, span, PROT_NONE, MAP_SHARED | MAP_FIXED, fd,
                     (off_t)off) == MAP_FAILED) {
                int e = errno;
                close(fd);
                return iron__fail(IRON_ENOMEM, "checked mode: cannot map a "
                                  "buffer's pages: %s", strerror(e));
            }
            off += span;
            k += span + page;
        }
    }
    close(fd);  /* the mappings keep the file */
    return IRON_OK;
}

iron_status iron__emu_mem_map(emu_inst *in, int checked)
{
    in->checked = checked;
    iron_status s = map_tiles(in);
    if (s == IRON_OK && checked)
        s = map_buffers(in);
    return s;
}

void iron__emu_mem_unmap(emu_inst *in)
{
    if (in->map)
        munmap(in->map, in->map_bytes);
    if (in->bufs_view)
        munmap(in->bufs_view, in->bufs_bytes);
    if (in->kview)
        munmap(in->kview, in->kview_bytes);
    in->map = in->bufs_view = in->kview = NULL;
    in->map_bytes = in->bufs_bytes = in->kview_bytes = 0;
}

/* The pattern repeats every 4 bytes from the start of the region, so a
 * region is always checked from the start it was poisoned from. */
static const uint64_t poison8 = (uint64_t)POISON_WORD << 32 | POISON_WORD;

void iron__emu_mem_poison_at(void *base, size_t from, size_t n)
{
    /* The same bytes as poisoning from base, written from base + from. */
    uint8_t *b = (uint8_t *)base + from;
    size_t i = 0;
    for (; (from + i) % 8 && i < n; i++)
        b[i] = ((const uint8_t *)&poison8)[(from + i) & 7];
    for (; i + 8 <= n; i += 8)
        memcpy(b + i, &poison8, 8);
    for (; i < n; i++)
        b[i] = ((const uint8_t *)&poison8)[(from + i) & 7];
}

void iron__emu_mem_poison(void *at, size_t n)
{
    iron__emu_mem_poison_at(at, 0, n);
}

size_t iron__emu_mem_poison_run(const void *at, size_t n)
{
    const uint8_t *b = at;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t v;
        memcpy(&v, b + i, 8);
        if (v != poison8)
            break;
    }
    for (; i < n; i++)
        if (b[i] != ((const uint8_t *)&poison8)[i & 7])
            break;
    return i;
}

int iron__emu_mem_is_poison(const void *at, size_t n)
{
    return iron__emu_mem_poison_run(at, n) == n;
}

/* Clears every tile (zeros, or poison in checked mode) and points each
 * pool's buffers at their memory: the state of a freshly loaded program. */
void iron__emu_mem_reset(emu_inst *in)
{
    const iron_program *p = in->prog;
    size_t page = page_size();
    for (int t = 0; t < p->ntiles; t++) {
        size_t n = iron__tile_mem_of(p, p->tiles[t].tile);
        if (in->checked)
            iron__emu_mem_poison(in->tile_mem[t], n);
        else if (madvise(in->tile_mem[t], round_up(n, page), MADV_DONTNEED))
            memset(in->tile_mem[t], 0, n);
        /* (Dropping the pages zeroes them, and a page no buffer touches
         * never takes memory: a 64-byte FIFO costs its tile one page,
         * not 64 KiB, which is what lets thousands of loaded instances
         * stay small.) */
    }
    if (in->checked && in->bufs_view)
        iron__emu_mem_poison(in->bufs_view, in->bufs_bytes);
    size_t off = 0;
    uint8_t *k = in->kview ? in->kview + page : NULL;
    for (int i = 0; i < p->npools; i++) {
        const iron__pool *pl = &p->pools[i];
        emu_pool *ep = &in->pools[i];
        uint8_t *base = in->tile_mem[iron__program_tile(p, pl->tile)];
        size_t span = buf_span(pl->obj_bytes, page);
        for (int b = 0; b < pl->depth; b++) {
            if (in->checked && in->bufs_view) {
                /* Right-aligned: the first byte past the object is the
                 * first byte of the guard page. */
                size_t pad = span - pl->obj_bytes;
                ep->buf[b] = in->bufs_view + off + pad;
                ep->kbuf[b] = k + pad;
                ep->kpage[b] = k;
                off += span;
                k += span + page;
            } else {
                ep->buf[b] = base + pl->addr[b];
                ep->kbuf[b] = ep->buf[b];
                ep->kpage[b] = NULL;
            }
        }
        ep->kspan = span;
    }
}

void iron__emu_mem_protect(emu_pool *p, int b, int writable)
{
    if (p->kpage[b])
        mprotect(p->kpage[b], p->kspan,
                 writable ? PROT_READ | PROT_WRITE : PROT_NONE);
}

/* --- describing an address ------------------------------------------------ */

/* Says where `a` is relative to pool buffer b when it is inside it or
 * within `slack` bytes past or before it; 0 when it is not near. */
static int near_buffer(const emu_pool *p, int b, const uint8_t *bufp,
                       uintptr_t a, size_t slack, char *out, size_t n)
{
    char tn[48];
    uintptr_t lo = (uintptr_t)bufp, hi = lo + p->def->obj_bytes;
    iron__tile_name(p->def->tile, tn, sizeof tn);
    if (a >= lo && a < hi)
        snprintf(out, n, "byte %zu of object %d of %s on %s",
                 (size_t)(a - lo), b, p->def->label, tn);
    else if (a == hi)
        snprintf(out, n, "the first byte past object %d of %s on %s", b,
                 p->def->label, tn);
    else if (a > hi && a - hi < slack)
        snprintf(out, n, "%zu byte%s past the end of object %d of %s on %s",
                 (size_t)(a - hi), a - hi == 1 ? "" : "s", b, p->def->label,
                 tn);
    else if (a < lo && lo - a <= slack)
        snprintf(out, n, "%zu byte%s before object %d of %s on %s",
                 (size_t)(lo - a), lo - a == 1 ? "" : "s", b, p->def->label,
                 tn);
    else
        return 0;
    return 1;
}

/* The buffer an address is named against: the nearest one (inside it,
 * else the fewest bytes before or past it), on a tie one the faulting
 * worker holds: a stray write is meant for an object of the kernel's,
 * and "4092 bytes past object 1 of fifo 'a'" is no help when the address
 * is 4 bytes before the kernel's object 0 of fifo 'b'. */
typedef struct nearest {
    const emu_pool *p;
    int b;
    const uint8_t *bufp;
    size_t dist;
    int held;
} nearest;

static int holds(const emu_worker *ew, const emu_pool *p, int b)
{
    for (int a = 0; ew && a < ew->nargs; a++) {
        const emu_hstate *h = &ew->h[a];
        if (h->pool != p)
            continue;
        int n = iron__pool_held(p, h->writer, h->slot);
        for (int k = 0; k < n; k++)
            if (iron__pool_index(p, h->writer, h->slot, k) == b)
                return 1;
    }
    return 0;
}

static void consider(nearest *best, const emu_worker *ew, const emu_pool *p,
                     int b, const uint8_t *bufp, uintptr_t a)
{
    uintptr_t lo = (uintptr_t)bufp, hi = lo + p->def->obj_bytes;
    /* The first byte past an object is one byte off, as is the last byte
     * before it. */
    size_t dist = a < lo ? lo - a : a >= hi ? a - hi + 1 : 0;
    int held = holds(ew, p, b);
    if (best->p && (dist > best->dist ||
                    (dist == best->dist && held <= best->held)))
        return;
    *best = (nearest){ p, b, bufp, dist, held };
}

/* The buffer of tile t's memory (emulator addresses) that `a` falls in or
 * lies nearest to. */
static int describe_in_tiles(const emu_inst *in, const emu_worker *ew,
                             uintptr_t a, char *out, size_t n)
{
    const iron_program *p = in->prog;
    for (int t = 0; t < p->ntiles; t++) {
        uintptr_t lo = (uintptr_t)in->tile_mem[t];
        size_t size = iron__tile_mem_of(p, p->tiles[t].tile);
        if (a < lo - GUARD_BYTES || a >= lo + size + GUARD_BYTES)
            continue;
        nearest best = { 0 };
        for (int i = 0; i < p->npools; i++) {
            const emu_pool *ep = &in->pools[i];
            if (iron__program_tile(p, ep->def->tile) != t)
                continue;
            for (int b = 0; b < ep->depth; b++)
                consider(&best, ew, ep, b,
                         in->tile_mem[t] + ep->def->addr[b], a);
        }
        char tn[48];
        iron__tile_name(p->tiles[t].tile, tn, sizeof tn);
        if (best.p && near_buffer(best.p, best.b, best.bufp, a,
                                  GUARD_BYTES + size, out, n)) {
            size_t k = strlen(out);
            if (a >= lo + size)
                snprintf(out + k, n - k, ", beyond the tile's %zu bytes of "
                         "memory", size);
            else if (a < lo)
                snprintf(out + k, n - k, ", before the tile's memory");
            return 1;
        }
        if (a < lo)
            snprintf(out, n, "%zu bytes before the memory of %s",
                     (size_t)(lo - a), tn);
        else if (a >= lo + size)
            snprintf(out, n, "%zu bytes past the end of the memory of %s "
                     "(%zu bytes)", (size_t)(a - lo - size) + 1, tn, size);
        else
            snprintf(out, n, "byte %zu of the memory of %s (no buffer)",
                     (size_t)(a - lo), tn);
        return 1;
    }
    return 0;
}

/* Checked mode: the kernels' view of the buffers. */
static int describe_in_kview(const emu_inst *in, const emu_worker *ew,
                             uintptr_t a, char *out, size_t n)
{
    if (!in->kview || a < (uintptr_t)in->kview ||
        a >= (uintptr_t)in->kview + in->kview_bytes)
        return 0;
    size_t page = page_size();
    nearest best = { 0 };
    for (int i = 0; i < in->prog->npools; i++) {
        const emu_pool *ep = &in->pools[i];
        for (int b = 0; b < ep->depth; b++)
            consider(&best, ew, ep, b, ep->kbuf[b], a);
    }
    if (!best.p || !near_buffer(best.p, best.b, best.bufp, a, page, out, n)) {
        snprintf(out, n, "between checked-mode buffers");
        return 1;
    }
    /* Inside a buffer yet faulting: the pages were closed. */
    if (best.dist == 0) {
        size_t k = strlen(out);
        snprintf(out + k, n - k, ", which the worker does not hold "
                 "(not acquired, or already released)");
    }
    return 1;
}

void iron__emu_describe_addr(const emu_inst *in, const emu_worker *ew,
                             const void *addr, char *out, size_t n)
{
    uintptr_t a = (uintptr_t)addr;
    if (a < page_size()) {
        if (a == 0)
            snprintf(out, n, "NULL");
        else
            snprintf(out, n, "NULL + %zu (a member or element of a NULL "
                     "pointer)", (size_t)a);
        return;
    }
    if (describe_in_kview(in, ew, a, out, n) ||
        describe_in_tiles(in, ew, a, out, n))
        return;
    snprintf(out, n, "%p, outside any tile's memory", addr);
}
