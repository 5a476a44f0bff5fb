/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * place.c - placement (place layer): workers onto compute tiles (pinned
 * ones where the user put them, the rest round-robin over the granted
 * columns), memtile links onto memtiles, FIFO endpoints into buffer pools,
 * DMA movers onto channels; then every tile's resources are checked
 * against the device model and an over-limit design is rejected with the
 * tile, the resource, the demand and the limit.  It reads the design and
 * writes only the program's tables (tiles in p->workers, p->links and the
 * FIFO endpoints p->fifos[].ends, shim columns in p->ops).
 */
#include <stdio.h>
#include <string.h>

#include "design/layout.h"
#include "place/place.h"

static uint32_t align_up(size_t n)
{
    return (uint32_t)((n + IRON__BUF_ALIGN - 1) &
                      ~(size_t)(IRON__BUF_ALIGN - 1));
}

static int same_tile(iron__tile a, iron__tile b)
{
    return a.col == b.col && a.row == b.row;
}

static iron__tile_use *use_tile(iron_program *p, iron__tile t)
{
    int i = iron__program_tile(p, t);
    if (i >= 0)
        return &p->tiles[i];
    IRON__ASSERT(p->ntiles < p->cap_tiles,
                 "only workers' and links' tiles hold anything, and "
                 "iron__place sized the table for one each");
    iron__tile_use *u = &p->tiles[p->ntiles++];
    memset(u, 0, sizeof *u);
    u->tile = t;
    u->worker = -1;
    return u;
}

/* --- workers ------------------------------------------------------------ */

/* The worker on tile t, or NULL. */
static const iron__prog_worker *worker_at(const iron_program *p,
                                          iron__tile t)
{
    for (int i = 0; i < p->nworkers; i++)
        if (same_tile(p->workers[i].tile, t))
            return &p->workers[i];
    return NULL;
}

/* Where worker w of the design was placed. */
static iron__tile tile_of(const iron_program *p, const iron_worker *w)
{
    return p->workers[w->index].tile;
}

/* The order workers are placed in: upstream's placer takes them in the
 * order the sequence starts them (creation order when it names none). */
static int placement_before(const iron_worker *a, const iron_worker *b)
{
    if (a->d->any_started && a->start_order != b->start_order)
        return a->start_order < b->start_order;
    return a->index < b->index;
}

/* The free compute tiles of the granted columns, for a message:
 * "(1,2), (1,3), ..." (at most a dozen, then how many more), or "none". */
static void free_tiles(const iron_program *p, iron__str *s)
{
    int rows = p->dev.compute_rows, n = 0;
    for (int c = 0; c < p->d->cols; c++)
        for (int r = 0; r < rows; r++) {
            iron__tile t = { c, IRON__ROW_COMPUTE + r };
            if (worker_at(p, t))
                continue;
            if (n < 12)
                iron__str_printf(s, "%s(%d,%d)", n ? ", " : "", t.col, t.row);
            n++;
        }
    if (n > 12)
        iron__str_printf(s, " and %d more", n - 12);
    if (n == 0)
        iron__str_append(s, "none");
}

/* The next worker to place among those `which` selects (unplaced ones
 * only), in placement order; NULL when none is left. */
static const iron_worker *next_worker(const iron_program *p,
                                      int (*which)(const iron_worker *))
{
    const iron_design *d = p->d;
    const iron_worker *w = NULL;
    for (int i = 0; i < d->workers.n; i++) {
        const iron_worker *c = d->workers.v[i];
        if (which(c) && tile_of(p, c).col < 0 &&
            (!w || placement_before(c, w)))
            w = c;
    }
    return w;
}

static int column_pinned(const iron_worker *w)
{
    return w->pinned && w->tile.row < 0;
}

static int unpinned(const iron_worker *w)
{
    return !w->pinned;
}

/* As upstream's SequentialPlacer: pinned workers keep their tiles; the
 * ones pinned to a column only take its free compute tiles from the
 * bottom (row 2 up), in start order, before the others are placed so that
 * their column is theirs; the others take the free compute tiles column
 * by column -- (0,2), (0,3), ... (0,5), (1,2), ... -- in start order.
 * So neighbours in a pipeline land in memory-adjacent tiles, as they
 * would on hardware. */
static iron_status place_workers(iron_program *p)
{
    const iron_design *d = p->d;
    int cols = d->cols, rows = p->dev.compute_rows;
    if (d->workers.n > cols * rows)
        return iron__fail(IRON_ERESOURCE,
                          "the design has %d workers; the launch grants %d "
                          "column%s x %d compute tiles = %d",
                          d->workers.n, cols, cols == 1 ? "" : "s", rows,
                          cols * rows);
    for (int i = 0; i < d->workers.n; i++) {
        iron__prog_worker *w = &p->workers[i];
        if (!w->pinned) {
            w->tile.col = w->tile.row = -1;
            continue;
        }
        if (w->tile.col >= cols)
            return iron__fail(IRON_ERESOURCE,
                              "worker '%s' is pinned to column %d; the "
                              "launch grants %d column%s",
                              w->name, w->tile.col, cols,
                              cols == 1 ? "" : "s");
        if (w->tile.row < 0)
            w->tile.col = -1;  /* its column is the design's */
    }
    for (const iron_worker *w; (w = next_worker(p, column_pinned)) != NULL;) {
        int col = w->tile.col, r = 0;
        while (r < rows &&
               worker_at(p, (iron__tile){ col, IRON__ROW_COMPUTE + r }))
            r++;
        if (r == rows) {
            iron__str freet = { 0 };
            free_tiles(p, &freet);
            iron_status s = iron__fail(
                IRON_ERESOURCE,
                "worker '%s' is pinned to column %d, whose %d compute tiles "
                "are taken; free compute tiles: %s",
                w->name, col, rows, iron__str_get(&freet));
            iron__str_free(&freet);
            return s;
        }
        p->workers[w->index].tile =
            (iron__tile){ col, IRON__ROW_COMPUTE + r };
    }
    int next = 0;
    for (const iron_worker *w; (w = next_worker(p, unpinned)) != NULL;) {
        for (;; next++) {
            iron__tile t = { next / rows, IRON__ROW_COMPUTE + next % rows };
            if (!worker_at(p, t)) {
                p->workers[w->index].tile = t;
                next++;
                break;
            }
        }
    }
    for (int i = 0; i < d->workers.n; i++) {
        iron__tile_use *u = use_tile(p, p->workers[i].tile);
        u->worker = i;
        u->stack = p->workers[i].stack_bytes ? p->workers[i].stack_bytes
                                             : p->dev.compute.stack_bytes;
    }
    return IRON_OK;
}

/* --- pools and links ------------------------------------------------------ */

static int add_pool(iron_program *p, iron__tile t, const iron_fifo *f,
                    int depth, size_t obj_bytes, const char *label,
                    const char *why)
{
    IRON__ASSERT(p->npools < p->cap_pools,
                 "iron__place sized the pools for every endpoint and link "
                 "before placing any");
    iron__pool *pl = &p->pools[p->npools];
    memset(pl, 0, sizeof *pl);
    pl->tile = t;
    pl->fifo = f->index;
    pl->depth = depth;
    pl->obj_bytes = obj_bytes;
    snprintf(pl->label, sizeof pl->label, "%s", label);
    snprintf(pl->why, sizeof pl->why, "%s", why);
    use_tile(p, t);
    return p->npools++;
}

static int add_reader(iron_program *p, int pool)
{
    return p->pools[pool].nreaders++;
}

static int add_writer(iron_program *p, int pool)
{
    return p->pools[pool].nwriters++;
}

/* Python's round(): halves go to the even neighbour. */
static int round_half_even(int sum, int n)
{
    int q = sum / n, r = sum % n;
    if (2 * r > n || (2 * r == n && (q & 1)))
        q++;
    return q;
}

/* Adds the columns of the workers using fifo f to *sum / *n. */
static void worker_cols(const iron_program *p, const iron_fifo *f, int *sum,
                        int *n)
{
    for (int c = -1; c < f->ncons; c++) {
        const iron_handle *h = c < 0 ? &f->prod : f->cons[c];
        if (h->user == IRON__USER_WORKER) {
            *sum += tile_of(p, h->worker).col;
            (*n)++;
        }
    }
}

/* The column upstream's placer starts from for a fifo's memtile or shim
 * end: the mean column of the compute tiles that use it (0 if none). */
static int fifo_home_col(const iron_program *p, const iron_fifo *f)
{
    int sum = 0, n = 0;
    worker_cols(p, f, &sum, &n);
    return n ? round_half_even(sum, n) : 0;
}

/* A link's home column: the mean over the workers of all its fifos. */
static int link_home_col(const iron_program *p, const iron__link *l)
{
    int sum = 0, n = 0;
    for (int i = 0; i < l->nin; i++)
        worker_cols(p, l->in[i]->fifo, &sum, &n);
    for (int i = 0; i < l->nout; i++)
        worker_cols(p, l->out[i]->fifo, &sum, &n);
    return n ? round_half_even(sum, n) : 0;
}

/* The first compute tile from column `home` eastwards (column by column,
 * as workers are placed) that no worker or earlier link uses, or col -1. */
static iron__tile free_compute_tile(const iron_program *p, int home)
{
    for (int c = home; c < p->cols; c++)
        for (int r = 0; r < p->dev.compute_rows; r++) {
            iron__tile t = { c, IRON__ROW_COMPUTE + r };
            int taken = worker_at(p, t) != NULL;
            for (int i = 0; i < p->nlinks && !taken; i++)
                taken = same_tile(p->links[i].tile, t);
            if (!taken)
                return t;
        }
    iron__tile none = { -1, -1 };
    return none;
}

/* Links go where the user placed them, else (upstream's placer) on the
 * first memtile from their home column eastwards whose DMA channels still
 * fit the link's streams (inputs in, outputs out), or on the first free
 * compute tile from there when asked for any compute tile. */
static iron_status place_links(iron_program *p)
{
    const iron_design *d = p->d;
    int used_in[64] = { 0 }, used_out[64] = { 0 };
    for (int i = 0; i < d->links.n; i++) {
        const iron__link *l = d->links.v[i];
        if (l->place != IRON_LINK_TILE)
            continue;
        /* The tile is inside the grant (checked when the link was made). */
        const iron__prog_worker *w = worker_at(p, l->tile);
        if (l->tile.row == IRON__ROW_MEMTILE) {
            used_in[l->tile.col] += l->nin;
            used_out[l->tile.col] += l->nout;
        } else if (w) {
            return iron__fail(IRON_ERESOURCE,
                              "link %d is placed on compute tile (%d,%d), "
                              "which runs worker '%s'; a link there uses "
                              "the tile's memory and DMA, not its core, so "
                              "give it a tile of its own",
                              l->index, l->tile.col, l->tile.row, w->name);
        }
    }
    for (int i = 0; i < d->links.n; i++) {
        const iron__link *l = d->links.v[i];
        iron__prog_link *pl = &p->links[i];
        int home = link_home_col(p, l);
        if (l->place == IRON_LINK_ANY_MEMTILE) {
            int c = home;
            while (c < d->cols &&
                   (used_in[c] + l->nin > p->dev.memtile.dma_in ||
                    used_out[c] + l->nout > p->dev.memtile.dma_out))
                c++;
            if (c == d->cols)
                return iron__fail(IRON_ERESOURCE,
                                  "link %d (%d in, %d out): no memtile from "
                                  "column %d to %d has the DMA channels "
                                  "left (%d in + %d out each); grant more "
                                  "columns or place the link",
                                  l->index, l->nin, l->nout, home,
                                  d->cols - 1, p->dev.memtile.dma_in,
                                  p->dev.memtile.dma_out);
            pl->tile.col = c;
            pl->tile.row = IRON__ROW_MEMTILE;
            used_in[c] += l->nin;
            used_out[c] += l->nout;
        } else if (l->place == IRON_LINK_ANY_COMPUTE) {
            pl->tile = free_compute_tile(p, home);
            if (pl->tile.col < 0)
                return iron__fail(IRON_ERESOURCE,
                                  "link %d asks for any compute tile; none "
                                  "is free from column %d to %d",
                                  l->index, home, d->cols - 1);
        }
        const iron_handle *big = l->kind == IRON__LINK_JOIN ? l->out[0]
                                                            : l->in[0];
        char label[96], tn[48], why[80];
        snprintf(label, sizeof label, "link %d %s of fifo '%s'", l->index,
                 l->kind == IRON__LINK_FORWARD ? "forward"
                 : l->kind == IRON__LINK_SPLIT ? "split"
                                               : "join",
                 big->fifo->name);
        snprintf(why, sizeof why, "declared depth %d on the %s", big->depth,
                 iron__tile_name(pl->tile, tn, sizeof tn));
        pl->pool = add_pool(p, pl->tile, big->fifo, big->depth, l->big_bytes,
                            label, why);
    }
    return IRON_OK;
}

static int index_in(iron_handle *const *v, int n, const iron_handle *h)
{
    for (int i = 0; i < n; i++)
        if (v[i] == h)
            return i;
    return 0;
}

/* AIE2 memory affinity: a core reaches its own tile's memory, the memory
 * of the tile west of it and of the compute tiles north and south of it. */
static int core_reaches(iron__tile core, iron__tile mem)
{
    if (core.row < IRON__ROW_COMPUTE || mem.row < IRON__ROW_COMPUTE)
        return 0;
    if (mem.row == core.row)
        return mem.col == core.col || mem.col == core.col - 1;
    return mem.col == core.col &&
           (mem.row == core.row + 1 || mem.row == core.row - 1);
}

/* Whether fifo f needs no DMA (upstream's requiresDMAs is false): one
 * consumer, both ends workers, no layout transform, and one of the two
 * cores reaches the other's memory.  *where is the tile holding the
 * buffers: the producer's, unless only the producer reaches the
 * consumer's memory (a consumer west of its producer). */
static int shares_memory(const iron_program *p, const iron_fifo *f,
                         iron__tile *where)
{
    if (f->ncons != 1)
        return 0;
    const iron_handle *pr = &f->prod, *co = f->cons[0];
    if (pr->user != IRON__USER_WORKER || co->user != IRON__USER_WORKER ||
        pr->has_dims || co->has_dims)
        return 0;
    iron__tile pt = tile_of(p, pr->worker), ct = tile_of(p, co->worker);
    int right = core_reaches(pt, ct), left = core_reaches(ct, pt);
    if (!right && !left)
        return 0;
    *where = right && !left ? ct : pt;
    return 1;
}

/* A fifo's depth counts as one number (upstream: an int) when every
 * endpoint has the same; otherwise as per-endpoint depths (a list). */
static int depths_per_endpoint(const iron_fifo *f)
{
    for (int c = 0; c < f->ncons; c++)
        if (f->cons[c]->depth != f->prod.depth)
            return 1;
    return 0;
}

/* Buffers of a DMA end on a compute tile, as upstream's
 * findObjectFifoSize: per-endpoint depths exactly; one declared depth
 * gives max acquire + 1 (1 when both are 1), the max acquire being the
 * most any worker on that tile holds of this fifo at once. */
static int compute_end_depth(const iron_program *p, const iron_fifo *f,
                             const iron_handle *h, char *why, size_t len)
{
    if (depths_per_endpoint(f)) {
        snprintf(why, len, "per-endpoint depth %d", h->depth);
        return h->depth;
    }
    int acq = 0;
    for (int c = -1; c < f->ncons; c++) {
        const iron_handle *o = c < 0 ? &f->prod : f->cons[c];
        if (o->user == IRON__USER_WORKER &&
            same_tile(tile_of(p, o->worker), tile_of(p, h->worker)) &&
            o->max_acquire > acq)
            acq = o->max_acquire;
    }
    if (acq == 1 && f->depth == 1) {
        snprintf(why, len, "max acquire 1, declared depth 1");
        return 1;
    }
    snprintf(why, len, "max acquire %d + 1; declared depth %d", acq,
             f->depth);
    return acq + 1;
}

static void set_buffers(iron__prog_end *e, const iron__pool *pl)
{
    e->buffers = pl->depth;
    snprintf(e->why, sizeof e->why, "%s", pl->why);
}

/* The source end of a fifo's transfers: its producer's pool (or the
 * host), with the piece of a link's big object it covers. */
static iron__end source_end(iron_program *p, const iron_fifo *f, int shared,
                            iron__tile where)
{
    const iron_handle *prod = &f->prod;
    iron__prog_end *pe = iron__place_end(p, prod);
    iron__end e = { -1, 0, 0, pe->has_dims ? &pe->dims : NULL, 1 };
    switch (prod->user) {
    case IRON__USER_WORKER: {
        char label[96], why[80];
        pe->tile = tile_of(p, prod->worker);
        int depth;
        if (shared) {
            char tn[48];
            depth = prod->depth;
            snprintf(why, sizeof why, "declared depth %d, shared memory "
                     "on %s", depth, iron__tile_name(where, tn, sizeof tn));
        } else {
            where = pe->tile;
            depth = compute_end_depth(p, f, prod, why, sizeof why);
        }
        pe->pool = add_pool(p, where, f, depth, f->obj_bytes,
                            iron__handle_label(prod, label, sizeof label),
                            why);
        pe->slot = add_writer(p, pe->pool);
        set_buffers(pe, &p->pools[pe->pool]);
        e.pool = pe->pool;
        break;
    }
    case IRON__USER_LINK: {
        const iron__link *l = prod->link;
        const iron__prog_link *pl = &p->links[l->index];
        pe->tile = pl->tile;
        pe->pool = pl->pool;
        if (l->kind == IRON__LINK_SPLIT)
            e.offset = l->offsets[index_in(l->out, l->nout, prod)];
        e.pieces = l->out_pieces;
        e.pool = pl->pool;
        set_buffers(pe, &p->pools[pl->pool]);
        break;
    }
    case IRON__USER_RUNTIME:
    case IRON__USER_NONE:
        snprintf(pe->why, sizeof pe->why, "host memory");
        break;
    }
    return e;
}

static int push_mover(iron_program *p, const iron_fifo *f, iron__end src)
{
    IRON__ASSERT(p->nmovers < p->cap_movers,
                 "a fifo has at most one mover per consumer, and "
                 "iron__place sized the movers for every endpoint");
    iron__mover *m = &p->movers[p->nmovers];
    memset(m, 0, sizeof *m);
    m->fifo = f->index;
    m->src = src;
    if (src.pool >= 0)
        m->src.slot = add_reader(p, src.pool);
    m->shim_col = m->shim_channel = -1;
    return p->nmovers++;
}

/* Pools and movers for one FIFO.  A fifo whose two cores share memory
 * has one pool and no DMA, as on hardware; otherwise consumers get pools
 * fed by one broadcasting mover; link inputs write their piece of the
 * link's pool; each drain is a mover of its own reading the producer's
 * pool. */
static void place_fifo(iron_program *p, const iron_fifo *f)
{
    iron__tile where = { 0, 0 };
    int shared = shares_memory(p, f, &where);
    iron__end src = source_end(p, f, shared, where);
    iron__mover m;
    memset(&m, 0, sizeof m);
    for (int c = 0; c < f->ncons; c++) {
        const iron_handle *h = f->cons[c];
        iron__prog_end *he = iron__place_end(p, h);
        iron__end dst = { -1, 0, 0, he->has_dims ? &he->dims : NULL, 1 };
        char label[96], why[80];
        if (h->user == IRON__USER_WORKER) {
            he->tile = tile_of(p, h->worker);
            if (shared) {
                he->pool = src.pool;
                he->slot = add_reader(p, src.pool);
                set_buffers(he, &p->pools[src.pool]);
                continue;
            }
            int depth = compute_end_depth(p, f, h, why, sizeof why);
            he->pool = add_pool(p, he->tile, f, depth, f->obj_bytes,
                                iron__handle_label(h, label, sizeof label),
                                why);
            he->slot = add_reader(p, he->pool);
            dst.pool = he->pool;
        } else if (h->user == IRON__USER_LINK) {
            const iron__link *l = h->link;
            const iron__prog_link *pl = &p->links[l->index];
            he->tile = pl->tile;
            he->pool = pl->pool;
            dst.pool = pl->pool;
            if (l->kind == IRON__LINK_JOIN)
                dst.offset = l->offsets[index_in(l->in, l->nin, h)];
            dst.pieces = l->in_pieces;
        } else {
            snprintf(he->why, sizeof he->why, "host memory");
            continue;  /* drains: below */
        }
        set_buffers(he, &p->pools[he->pool]);
        dst.slot = add_writer(p, dst.pool);
        m.dst[m.ndst++] = dst;
    }
    if (m.ndst > 0) {
        int mi = push_mover(p, f, src);
        p->movers[mi].ndst = m.ndst;
        memcpy(p->movers[mi].dst, m.dst, sizeof m.dst);
        p->fifos[f->index].mover = mi;
        if (f->prod.user == IRON__USER_RUNTIME)
            iron__place_end(p, &f->prod)->mover = mi;
    }
    for (int c = 0; c < f->ncons; c++) {
        const iron_handle *h = f->cons[c];
        if (h->user != IRON__USER_RUNTIME)
            continue;
        iron__place_end(p, h)->mover = push_mover(p, f, src);
    }
}

/* --- worker arguments: run-time parameters and barriers ------------------- */

static void place_worker_args(iron_program *p)
{
    const iron_design *d = p->d;
    for (int w = 0; w < d->workers.n; w++) {
        const iron_worker *wk = d->workers.v[w];
        for (int a = 0; a < wk->nargs; a++) {
            iron__warg *wa = &p->wargs[w][a];
            const iron_arg *arg = &wk->args[a];
            wa->pool = wa->slot = wa->copy = -1;
            if (arg->kind == IRON_ARG_HANDLE) {
                const iron__prog_end *e = iron__place_end(p, arg->handle);
                wa->pool = e->pool;
                wa->slot = e->slot;
                wa->is_writer = arg->handle->is_prod;
            } else if (arg->kind == IRON_ARG_RTP) {
                iron__rtp_copy *c = &p->rtp_copies[p->nrtp_copies];
                c->rtp = arg->rtp->index;
                c->worker = w;
                c->arg = a;
                wa->copy = p->nrtp_copies++;
            } else if (arg->kind == IRON_ARG_BARRIER) {
                iron__barrier_copy *c = &p->barrier_copies[p->nbarrier_copies];
                c->barrier = arg->barrier->index;
                c->worker = w;
                c->arg = a;
                wa->copy = p->nbarrier_copies++;
            }
        }
    }
}

/* --- layout transforms ----------------------------------------------------- */

static iron_status check_dims(const iron_program *p)
{
    const iron_design *d = p->d;
    for (int i = 0; i < d->fifos.n; i++) {
        const iron_fifo *f = d->fifos.v[i];
        for (int c = -1; c < f->ncons; c++) {
            const iron_handle *h = c < 0 ? &f->prod : f->cons[c];
            iron__prog_end *e = iron__place_end(p, h);
            if (!h->has_dims)
                continue;
            char hl[96], tl[48], label[160];
            iron__handle_label(h, hl, sizeof hl);
            if (h->user == IRON__USER_RUNTIME)
                return iron__fail(IRON_EDESIGN,
                                  "%s: a layout transform on an endpoint "
                                  "the runtime sequence uses; give the "
                                  "order with the %s's access pattern",
                                  hl, h->is_prod ? "fill" : "drain");
            int max = e->tile.row == IRON__ROW_MEMTILE ? IRON__DIMS_MEMTILE
                                                       : IRON__DIMS_COMPUTE;
            snprintf(label, sizeof label, "%s on %s", hl,
                     iron__tile_name(e->tile, tl, sizeof tl));
            /* A memtile buffer descriptor encodes no wrap for its
             * outermost dimension: a pattern describing part of the
             * object (one tile of a joined object, say) keeps counting
             * that dimension until the object's length is moved, which
             * walks over the rest.  Upstream's whole-array matmul relies
             * on it. */
            int64_t count = iron_tap_count(&e->dims);
            e->dims_wrap = 1;
            if (e->tile.row == IRON__ROW_MEMTILE && count > 0 &&
                count < f->obj_numel && f->obj_numel % count == 0) {
                e->dims_wrap = f->obj_numel / count;
                e->dims.sizes[0] *= e->dims_wrap;
            }
            iron_status s = iron__dims_check(&e->dims, max, f->dtype,
                                             f->obj_numel, label);
            if (s != IRON_OK)
                return s;
        }
    }
    return IRON_OK;
}

/* --- memory, locks, BDs, channels ----------------------------------------- */

/* A DMA-fed compute endpoint gets max acquire + 1 buffers, so a core body
 * holding all 16 objects of a depth-16 fifo at once would need 17: more
 * than an endpoint's locks count (and than a pool has room for).  Refused
 * before anything is laid out, naming the endpoint. */
static iron_status check_depths(const iron_program *p)
{
    for (int i = 0; i < p->npools; i++) {
        const iron__pool *pl = &p->pools[i];
        char tn[48];
        if (pl->depth > IRON__MAX_DEPTH)
            return iron__fail(IRON_ERESOURCE,
                              "%s: %s needs %d buffers (%s); an endpoint has "
                              "at most %d",
                              iron__tile_name(pl->tile, tn, sizeof tn),
                              pl->label, pl->depth, pl->why,
                              IRON__MAX_DEPTH);
    }
    return IRON_OK;
}

/* Lays out each tile's buffers from address 0 and counts the tile's
 * locks, BDs and DMA channels. */
static void account_tiles(iron_program *p)
{
    for (int i = 0; i < p->ntiles; i++) {
        iron__tile_use *u = &p->tiles[i];
        u->mem_used = u->stack + u->kdata;
        u->locks = u->bds = u->dma_in = u->dma_out = 0;
    }
    for (int i = 0; i < p->npools; i++) {
        iron__pool *pl = &p->pools[i];
        iron__tile_use *u = use_tile(p, pl->tile);
        uint32_t base = u->mem_used;
        IRON__ASSERT(pl->depth >= 1 && pl->depth <= IRON__MAX_DEPTH,
                     "check_depths refused deeper pools: addr[] holds "
                     "IRON__MAX_DEPTH buffers");
        for (int b = 0; b < pl->depth; b++)
            pl->addr[b] = base + (uint32_t)b * align_up(pl->obj_bytes);
        u->mem_used += (uint32_t)pl->depth * align_up(pl->obj_bytes);
        u->locks += 2;
    }
    for (int i = 0; i < p->nrtp_copies; i++) {
        iron__rtp_copy *c = &p->rtp_copies[i];
        const iron__prog_rtp *r = &p->rtps[c->rtp];
        iron__tile_use *u = use_tile(p, p->workers[c->worker].tile);
        c->addr = u->mem_used;
        u->mem_used += align_up((size_t)r->count * iron_dtype_size(r->dtype));
    }
    for (int i = 0; i < p->nbarrier_copies; i++)
        use_tile(p, p->workers[p->barrier_copies[i].worker].tile)->locks++;
    for (int i = 0; i < p->nmovers; i++) {
        const iron__mover *m = &p->movers[i];
        /* Movers of one fifo reading one pool (its array-side broadcast
         * and its drains) are one stream out of the tile, broadcast by the
         * switch: one channel, one set of BDs. */
        int seen = 0;
        for (int e = 0; e < i && !seen; e++)
            seen = p->movers[e].fifo == m->fifo &&
                   p->movers[e].src.pool == m->src.pool;
        if (m->src.pool >= 0 && !seen) {
            iron__tile_use *u = use_tile(p, p->pools[m->src.pool].tile);
            u->dma_out++;
            u->bds += p->pools[m->src.pool].depth;
        }
        for (int k = 0; k < m->ndst; k++) {
            iron__tile_use *u = use_tile(p, p->pools[m->dst[k].pool].tile);
            u->dma_in++;
            u->bds += p->pools[m->dst[k].pool].depth;
        }
    }
}

static void tile_inventory(const iron_program *p, const iron__tile_use *u,
                           iron__str *s)
{
    for (int i = 0; i < p->npools; i++) {
        const iron__pool *pl = &p->pools[i];
        if (same_tile(pl->tile, u->tile))
            iron__str_printf(s, "%s %d x %u B (%s), ", pl->label, pl->depth,
                             align_up(pl->obj_bytes), pl->why);
    }
    for (int i = 0; i < p->nrtp_copies; i++) {
        const iron__rtp_copy *c = &p->rtp_copies[i];
        const iron__prog_rtp *r = &p->rtps[c->rtp];
        if (same_tile(p->workers[c->worker].tile, u->tile))
            iron__str_printf(s, "rtp '%s' %u B, ", r->name,
                             align_up((size_t)r->count *
                                      iron_dtype_size(r->dtype)));
    }
    if (u->kdata)
        iron__str_printf(s, "kernel static data %u B, ", u->kdata);
    if (u->stack)
        iron__str_printf(s, "stack %u B", u->stack);
    else if (s->len >= 2)
        s->p[s->len -= 2] = '\0';
}

static iron_status check_tiles(const iron_program *p)
{
    for (int i = 0; i < p->ntiles; i++) {
        const iron__tile_use *u = &p->tiles[i];
        const iron_tile_info *ti = u->tile.row == IRON__ROW_MEMTILE
                                       ? &p->dev.memtile
                                       : &p->dev.compute;
        char who[128], tn[48];
        iron__tile_name(u->tile, tn, sizeof tn);
        if (u->worker >= 0)
            snprintf(who, sizeof who, "%s (worker '%s')", tn,
                     p->workers[u->worker].name);
        else
            snprintf(who, sizeof who, "%s", tn);
        if (u->mem_used > ti->memory_bytes) {
            iron__str inv = { 0 };
            tile_inventory(p, u, &inv);
            iron_status s = iron__fail(
                IRON_ERESOURCE,
                "%s: data memory needs %u bytes, the tile has %u (%u over): "
                "%s",
                who, u->mem_used, ti->memory_bytes,
                u->mem_used - ti->memory_bytes, iron__str_get(&inv));
            iron__str_free(&inv);
            return s;
        }
        const struct {
            int need, have;
            const char *what;
        } limits[] = {
            { u->locks, ti->locks,
              "locks (2 per buffer pool, 1 per barrier)" },
            { u->bds, ti->buffer_descriptors,
              "buffer descriptors (1 per buffer a DMA touches)" },
            { u->dma_in, ti->dma_in,
              "input (S2MM) DMA channels (1 per stream into the tile)" },
            { u->dma_out, ti->dma_out,
              "output (MM2S) DMA channels (1 per stream out of the tile)" },
        };
        for (size_t k = 0; k < IRON__COUNT_OF(limits); k++)
            if (limits[k].need > limits[k].have)
                return iron__fail(IRON_ERESOURCE,
                                  "%s: needs %d %s, the tile has %d", who,
                                  limits[k].need, limits[k].what,
                                  limits[k].have);
    }
    return IRON_OK;
}

/* --- shim ------------------------------------------------------------------ */

/* The column a host mover's shim search starts from: as upstream's
 * placer, the mean column of the workers using its fifo (0 if none). */
static int mover_home_col(const iron_program *p, const iron__mover *m)
{
    return fifo_home_col(p, p->d->fifos.v[m->fifo]);
}

/* The runtime handle a host mover serves: the fill's producer or the
 * drain's consumer; NULL for array-side movers. */
static const iron_handle *runtime_handle(const iron_program *p, int mi)
{
    const iron__mover *m = &p->movers[mi];
    const iron_fifo *f = p->d->fifos.v[m->fifo];
    if (m->src.pool < 0)
        return &f->prod;
    if (m->ndst > 0)
        return NULL;
    for (int c = 0; c < f->ncons; c++)
        if (f->cons[c]->user == IRON__USER_RUNTIME &&
            iron__place_end(p, f->cons[c])->mover == mi)
            return f->cons[c];
    return NULL;
}

/* Each host mover takes a shim channel: fills an MM2S (out of the shim into
 * the array), drains an S2MM.  As upstream's placer: the first shim from
 * the home column eastwards with a free channel. */
static iron_status place_shim(iron_program *p)
{
    int cols = p->cols;
    int used_out[64] = { 0 }, used_in[64] = { 0 };
    int need_out = 0, need_in = 0;
    for (int i = 0; i < p->nmovers; i++) {
        need_out += p->movers[i].src.pool < 0;
        need_in += p->movers[i].src.pool >= 0 && p->movers[i].ndst == 0;
    }
    /* Endpoints the design placed (iron_handle_set_shim) first. */
    for (int i = 0; i < p->nmovers; i++) {
        iron__mover *m = &p->movers[i];
        const iron_handle *h = runtime_handle(p, i);
        if (!h || !h->shim_pinned)
            continue;
        int from_host = m->src.pool < 0;
        int *used = from_host ? used_out : used_in;
        int limit = from_host ? p->dev.shim.dma_out : p->dev.shim.dma_in;
        char hl[96];
        /* The column is inside the grant (iron_handle_set_shim checks). */
        if (used[h->shim_col] >= limit)
            return iron__fail(IRON_ERESOURCE,
                              "%s is placed on shim (%d,0), whose %d %s "
                              "channels are taken by endpoints placed there "
                              "before it",
                              iron__handle_label(h, hl, sizeof hl),
                              h->shim_col, limit,
                              from_host ? "MM2S (host-to-array)"
                                        : "S2MM (array-to-host)");
        m->shim_col = h->shim_col;
        m->shim_channel = used[h->shim_col]++;
    }
    for (int i = 0; i < p->nmovers; i++) {
        iron__mover *m = &p->movers[i];
        int from_host = m->src.pool < 0, to_host = m->ndst == 0;
        if ((!from_host && !to_host) || m->shim_col >= 0)
            continue;
        int *used = from_host ? used_out : used_in;
        int limit = from_host ? p->dev.shim.dma_out : p->dev.shim.dma_in;
        int home = mover_home_col(p, m);
        for (int c = home; c < cols && m->shim_col < 0; c++)
            if (used[c] < limit) {
                m->shim_col = c;
                m->shim_channel = used[c]++;
            }
        if (m->shim_col < 0)
            return iron__fail(IRON_ERESOURCE,
                              "shim DMA: fifo '%s' needs an %s channel on a "
                              "shim from column %d eastwards, and none is "
                              "left; the design needs %d, the %d granted "
                              "column%s %s %d x %d",
                              p->fifos[m->fifo].name,
                              from_host ? "MM2S (host-to-array)"
                                        : "S2MM (array-to-host)",
                              home, from_host ? need_out : need_in, cols,
                              cols == 1 ? "" : "s", cols == 1 ? "has" : "have",
                              cols, limit);
    }
    return IRON_OK;
}

/* Maps each fill/drain to its mover and checks that no shim ever has more
 * DMA tasks in flight than buffer descriptors: a task holds one from its
 * issue until its task group is finished (the sequence's own group, at
 * the end of the sequence). */
static int is_dma_task(const iron__prog_op *op)
{
    return op->kind == IRON__OP_FILL || op->kind == IRON__OP_DRAIN;
}

static iron_status map_ops(iron_program *p)
{
    const iron_design *d = p->d;
    int live[64] = { 0 };
    int free_from = 0;   /* tasks outside groups not yet freed start here */
    for (int i = 0; i < p->nops; i++) {
        iron__prog_op *op = &p->ops[i];
        if (op->kind == IRON__OP_GROUP_FINISH) {
            for (int k = 0; k < i; k++) {
                const iron__prog_op *o = &p->ops[k];
                if (is_dma_task(o) && o->group == op->group)
                    live[o->shim_col]--;
            }
            continue;
        }
        if (!is_dma_task(op))
            continue;
        int mi = iron__place_end(p, d->ops.v[i].h)->mover;
        IRON__ASSERT(mi >= 0 && mi < p->nmovers,
                     "place_fifo gave every runtime endpoint a mover");
        op->mover = mi;
        op->shim_col = p->movers[mi].shim_col;
        if (++live[op->shim_col] <= p->dev.shim.buffer_descriptors) {
            /* An awaited drain outside groups is waited for where it
             * stands, which frees the tasks issued outside groups so
             * far, itself included. */
            if (op->kind == IRON__OP_DRAIN && op->wait && op->group == 0) {
                for (int k = free_from; k <= i; k++) {
                    const iron__prog_op *o = &p->ops[k];
                    if (is_dma_task(o) && o->group == 0)
                        live[o->shim_col]--;
                }
                free_from = i + 1;
            }
            continue;
        }
        return iron__fail(IRON_ERESOURCE,
                          "shim (%d,0): sequence op %d (%s of fifo '%s') is "
                          "the %dth DMA task in flight on it; the tile has "
                          "%d buffer descriptors (finish a task group to "
                          "free its tasks' descriptors)",
                          op->shim_col, i,
                          op->kind == IRON__OP_FILL ? "fill" : "drain",
                          op->subject, live[op->shim_col],
                          p->dev.shim.buffer_descriptors);
    }
    return IRON_OK;
}

/* Writes the movers' labels for reports and dumps. */
static void label_movers(iron_program *p)
{
    for (int i = 0; i < p->nmovers; i++) {
        iron__mover *m = &p->movers[i];
        iron__str s = { 0 };
        char tn[48];
        iron__str_printf(&s, "fifo '%s': ", p->fifos[m->fifo].name);
        if (m->src.pool < 0)
            iron__str_printf(&s, "shim (%d,0)", m->shim_col);
        else
            iron__str_append(&s, iron__tile_name(p->pools[m->src.pool].tile,
                                                 tn, sizeof tn));
        iron__str_append(&s, " ->");
        if (m->ndst == 0)
            iron__str_printf(&s, " shim (%d,0)", m->shim_col);
        for (int k = 0; k < m->ndst; k++)
            iron__str_printf(&s, "%s %s", k ? "," : "",
                             iron__tile_name(p->pools[m->dst[k].pool].tile,
                                             tn, sizeof tn));
        snprintf(m->label, sizeof m->label, "%s", iron__str_get(&s));
        iron__str_free(&s);
    }
}

iron_status iron__place(iron_program *p)
{
    const iron_design *d = p->d;
    if (d->cols < 1 || d->cols > p->dev.columns || d->cols > 64)
        return iron__fail(IRON_ERESOURCE,
                          "the launch asks for %d columns; device '%s' has %d",
                          d->cols, p->dev.name, p->dev.columns);
    iron_status s = iron__place_tables(p);
    if (s != IRON_OK)
        return s;
    int max_pools = d->links.n + 1, max_args = 1;
    for (int i = 0; i < d->fifos.n; i++)
        max_pools += 1 + d->fifos.v[i]->ncons;
    for (int i = 0; i < d->workers.n; i++)
        max_args += d->workers.v[i]->nargs;
    int max_tiles = d->workers.n + d->links.n + 1;
    p->tiles = iron__calloc((size_t)max_tiles, sizeof *p->tiles);
    p->pools = iron__calloc((size_t)max_pools, sizeof *p->pools);
    p->movers = iron__calloc((size_t)max_pools, sizeof *p->movers);
    p->cap_pools = p->cap_movers = max_pools;
    p->cap_tiles = max_tiles;
    p->rtp_copies = iron__calloc((size_t)max_args, sizeof *p->rtp_copies);
    p->barrier_copies =
        iron__calloc((size_t)max_args, sizeof *p->barrier_copies);
    if (!p->tiles || !p->pools || !p->movers || !p->rtp_copies ||
        !p->barrier_copies)
        return iron__fail(IRON_ENOMEM, "out of memory placing the design");
    if ((s = place_workers(p)) != IRON_OK)
        return s;
    if ((s = place_links(p)) != IRON_OK)
        return s;
    for (int i = 0; i < d->fifos.n; i++)
        place_fifo(p, d->fifos.v[i]);
    place_worker_args(p);
    if ((s = check_depths(p)) != IRON_OK)
        return s;
    if ((s = check_dims(p)) != IRON_OK)
        return s;
    account_tiles(p);
    if ((s = check_tiles(p)) != IRON_OK)
        return s;
    if ((s = place_shim(p)) != IRON_OK)
        return s;
    label_movers(p);
    return map_ops(p);
}

/* Once the kernels are compiled: each worker's tile also holds its
 * kernels' static data (its own kernel's and those its core body calls),
 * as a core's variables and tables live in its data memory.  The buffers
 * are laid out again after it and every tile checked anew. */
iron_status iron__place_kernel_data(iron_program *p)
{
    const iron_design *d = p->d;
    for (int i = 0; i < d->workers.n; i++) {
        const iron_worker *w = d->workers.v[i];
        size_t bytes = iron__kobj_data_bytes(p->kobjs[w->kernel->index]);
        for (int a = 0; a < w->nargs; a++)
            if (w->args[a].kind == IRON_ARG_KERNEL)
                bytes += iron__kobj_data_bytes(
                    p->kobjs[w->args[a].kernel->index]);
        use_tile(p, p->workers[i].tile)->kdata = align_up(bytes);
    }
    account_tiles(p);
    return check_tiles(p);
}
