/*
 * place.c - placement: workers onto compute tiles (pinned ones where the
 * user put them, the rest round-robin over the granted columns), memtile
 * links onto memtiles, FIFO endpoints into buffer pools, DMA movers onto
 * channels; then every tile's resources are checked against the device
 * model and an over-limit design is rejected with the tile, the resource,
 * the demand and the limit.
 */
#include <stdio.h>
#include <string.h>

#include "design/layout.h"
#include "verify/verify.h"

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
    iron__tile_use *u = &p->tiles[p->ntiles++];
    memset(u, 0, sizeof *u);
    u->tile = t;
    u->worker = -1;
    if (t.row >= IRON__ROW_COMPUTE)
        u->mem_used = p->dev.compute.stack_bytes;
    return u;
}

/* --- workers ------------------------------------------------------------ */

static int tile_taken(const iron_design *d, iron__tile t, int upto)
{
    for (int i = 0; i < upto; i++)
        if (d->workers.v[i]->tile.col == t.col &&
            d->workers.v[i]->tile.row == t.row)
            return 1;
    return 0;
}

/* Pinned workers keep their tiles; the others go round-robin over the
 * granted columns, then down the rows, skipping taken tiles, so that a
 * design with one worker per column spreads its shim traffic. */
static iron_status place_workers(iron_program *p)
{
    iron_design *d = p->d;
    int cols = d->cols, rows = p->dev.compute_rows;
    if (d->workers.n > cols * rows)
        return iron__fail(IRON_ERESOURCE,
                          "the design has %d workers; the launch grants %d "
                          "column%s x %d compute tiles = %d",
                          d->workers.n, cols, cols == 1 ? "" : "s", rows,
                          cols * rows);
    for (int i = 0; i < d->workers.n; i++) {
        iron_worker *w = d->workers.v[i];
        if (!w->pinned)
            continue;
        if (w->tile.col >= cols)
            return iron__fail(IRON_ERESOURCE,
                              "worker '%s' is pinned to column %d; the "
                              "launch grants %d column%s",
                              w->name, w->tile.col, cols,
                              cols == 1 ? "" : "s");
    }
    int next = 0;
    for (int i = 0; i < d->workers.n; i++) {
        iron_worker *w = d->workers.v[i];
        if (w->pinned)
            continue;
        for (;; next++) {
            iron__tile t = { next % cols, IRON__ROW_COMPUTE + next / cols };
            int clash = 0;
            for (int k = 0; k < d->workers.n && !clash; k++)
                clash = d->workers.v[k]->pinned &&
                        same_tile(d->workers.v[k]->tile, t);
            if (!clash && !tile_taken(d, t, i)) {
                w->tile = t;
                next++;
                break;
            }
        }
    }
    for (int i = 0; i < d->workers.n; i++)
        use_tile(p, d->workers.v[i]->tile)->worker = i;
    return IRON_OK;
}

/* --- pools and links ------------------------------------------------------ */

static int add_pool(iron_program *p, iron__tile t, const iron_fifo *f,
                    int depth, size_t obj_bytes, const char *label)
{
    iron__pool *pl = &p->pools[p->npools];
    memset(pl, 0, sizeof *pl);
    pl->tile = t;
    pl->fifo = f->index;
    pl->depth = depth;
    pl->obj_bytes = obj_bytes;
    snprintf(pl->label, sizeof pl->label, "%s", label);
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

/* The column of the first worker a link serves, so its memtile sits
 * beside the compute tiles it feeds or drains. */
static int link_home_col(const iron__link *l)
{
    for (int i = 0; i < l->nout; i++) {
        const iron_fifo *f = l->out[i]->fifo;
        for (int c = 0; c < f->ncons; c++)
            if (f->cons[c]->user == IRON__USER_WORKER)
                return f->cons[c]->worker->tile.col;
    }
    for (int i = 0; i < l->nin; i++) {
        const iron_handle *pr = &l->in[i]->fifo->prod;
        if (pr->user == IRON__USER_WORKER)
            return pr->worker->tile.col;
    }
    return 0;
}

static void place_links(iron_program *p)
{
    iron_design *d = p->d;
    for (int i = 0; i < d->links.n; i++) {
        iron__link *l = d->links.v[i];
        l->tile.col = link_home_col(l);
        l->tile.row = IRON__ROW_MEMTILE;
        const iron_handle *big = l->kind == IRON__LINK_JOIN ? l->out[0]
                                                            : l->in[0];
        char label[96];
        snprintf(label, sizeof label, "memtile %s of fifo '%s'",
                 l->kind == IRON__LINK_FORWARD ? "forward"
                 : l->kind == IRON__LINK_SPLIT ? "split"
                                               : "join",
                 big->fifo->name);
        l->pool = add_pool(p, l->tile, big->fifo, big->depth,
                           big->fifo->obj_bytes, label);
    }
}

static int index_in(iron_handle *const *v, int n, const iron_handle *h)
{
    for (int i = 0; i < n; i++)
        if (v[i] == h)
            return i;
    return 0;
}

/* The source end of a fifo's transfers: its producer's pool (or the
 * host), with the piece of a link's big object it covers. */
static iron__end source_end(iron_program *p, iron_fifo *f)
{
    iron_handle *prod = &f->prod;
    iron__end e = { -1, 0, 0, prod->has_dims ? &prod->dims : NULL };
    switch (prod->user) {
    case IRON__USER_WORKER: {
        char label[96];
        prod->tile = prod->worker->tile;
        prod->pool = add_pool(p, prod->tile, f, prod->depth, f->obj_bytes,
                              iron__handle_label(prod, label, sizeof label));
        prod->slot = add_writer(p, prod->pool);
        e.pool = prod->pool;
        break;
    }
    case IRON__USER_LINK: {
        iron__link *l = prod->link;
        prod->tile = l->tile;
        prod->pool = l->pool;
        if (l->kind == IRON__LINK_SPLIT)
            e.offset = l->offsets[index_in(l->out, l->nout, prod)];
        e.pool = l->pool;
        break;
    }
    case IRON__USER_RUNTIME:
    case IRON__USER_NONE:
        break;
    }
    return e;
}

static int push_mover(iron_program *p, const iron_fifo *f, iron__end src)
{
    iron__mover *m = &p->movers[p->nmovers];
    memset(m, 0, sizeof *m);
    m->fifo = f->index;
    m->src = src;
    if (src.pool >= 0)
        m->src.slot = add_reader(p, src.pool);
    m->shim_col = m->shim_channel = -1;
    return p->nmovers++;
}

/* Pools and movers for one FIFO.  A consumer worker on the producer's
 * tile reads the producer's pool (one memory, no DMA, as on hardware);
 * consumers elsewhere get pools fed by one broadcasting mover; link inputs
 * write their piece of the link's pool; each drain is a mover of its own
 * reading the producer's pool. */
static void place_fifo(iron_program *p, iron_fifo *f)
{
    iron__end src = source_end(p, f);
    iron__mover m;
    memset(&m, 0, sizeof m);
    for (int c = 0; c < f->ncons; c++) {
        iron_handle *h = f->cons[c];
        iron__end dst = { -1, 0, 0, h->has_dims ? &h->dims : NULL };
        char label[96];
        if (h->user == IRON__USER_WORKER) {
            h->tile = h->worker->tile;
            if (src.pool >= 0 && f->prod.user == IRON__USER_WORKER &&
                same_tile(h->tile, f->prod.tile)) {
                h->pool = src.pool;
                h->slot = add_reader(p, src.pool);
                continue;
            }
            h->pool = add_pool(p, h->tile, f, h->depth, f->obj_bytes,
                               iron__handle_label(h, label, sizeof label));
            h->slot = add_reader(p, h->pool);
            dst.pool = h->pool;
        } else if (h->user == IRON__USER_LINK) {
            iron__link *l = h->link;
            h->tile = l->tile;
            h->pool = l->pool;
            dst.pool = l->pool;
            if (l->kind == IRON__LINK_JOIN)
                dst.offset = l->offsets[index_in(l->in, l->nin, h)];
        } else {
            continue;  /* drains: below */
        }
        dst.slot = add_writer(p, dst.pool);
        m.dst[m.ndst++] = dst;
    }
    if (m.ndst > 0) {
        int mi = push_mover(p, f, src);
        p->movers[mi].ndst = m.ndst;
        memcpy(p->movers[mi].dst, m.dst, sizeof m.dst);
        f->mover = mi;
        if (f->prod.user == IRON__USER_RUNTIME)
            f->prod.mover = mi;
    }
    for (int c = 0; c < f->ncons; c++) {
        iron_handle *h = f->cons[c];
        if (h->user != IRON__USER_RUNTIME)
            continue;
        h->mover = push_mover(p, f, src);
    }
}

/* --- worker arguments: run-time parameters and barriers ------------------- */

static void place_worker_args(iron_program *p)
{
    iron_design *d = p->d;
    for (int w = 0; w < d->workers.n; w++) {
        const iron_worker *wk = d->workers.v[w];
        for (int a = 0; a < wk->nargs; a++) {
            iron__warg *wa = &p->wargs[w][a];
            const iron_arg *arg = &wk->args[a];
            wa->pool = wa->slot = wa->copy = -1;
            if (arg->kind == IRON_ARG_HANDLE) {
                wa->pool = arg->handle->pool;
                wa->slot = arg->handle->slot;
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
        iron_fifo *f = d->fifos.v[i];
        for (int c = -1; c < f->ncons; c++) {
            iron_handle *h = c < 0 ? &f->prod : f->cons[c];
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
            if (!h->is_prod && h->user == IRON__USER_WORKER &&
                f->prod.user == IRON__USER_WORKER &&
                h->pool == f->prod.pool)
                return iron__fail(IRON_EDESIGN,
                                  "%s: dims_from_stream needs a DMA, but the "
                                  "consumer shares the producer's tile "
                                  "(%d,%d) and its memory",
                                  hl, h->tile.col, h->tile.row);
            /* Likewise the producer's dims_to_stream: a consumer reading
             * the producer's own buffers would see the objects untouched. */
            for (int k = 0; h->is_prod && h->user == IRON__USER_WORKER &&
                            k < f->ncons;
                 k++)
                if (f->cons[k]->user == IRON__USER_WORKER &&
                    f->cons[k]->pool == h->pool)
                    return iron__fail(IRON_EDESIGN,
                                      "%s: dims_to_stream needs a DMA, but "
                                      "consumer %d (worker '%s') shares the "
                                      "producer's tile (%d,%d) and its "
                                      "memory",
                                      hl, k, f->cons[k]->worker->name,
                                      h->tile.col, h->tile.row);
            int max = h->tile.row == IRON__ROW_MEMTILE ? IRON__DIMS_MEMTILE
                                                       : IRON__DIMS_COMPUTE;
            snprintf(label, sizeof label, "%s on %s", hl,
                     iron__tile_name(h->tile, tl, sizeof tl));
            iron_status s = iron__dims_check(&h->dims, max, f->dtype,
                                             f->obj_numel, label);
            if (s != IRON_OK)
                return s;
        }
    }
    return IRON_OK;
}

/* A consumer on its producer's tile reads the producer's buffers: it
 * cannot have a depth of its own. */
static iron_status check_shared_depths(const iron_program *p)
{
    const iron_design *d = p->d;
    for (int i = 0; i < d->fifos.n; i++) {
        const iron_fifo *f = d->fifos.v[i];
        for (int c = 0; c < f->ncons; c++) {
            const iron_handle *h = f->cons[c];
            char hl[96];
            if (h->user == IRON__USER_WORKER && f->prod.pool >= 0 &&
                h->pool == f->prod.pool && h->depth != f->prod.depth)
                return iron__fail(IRON_EDESIGN,
                                  "%s shares the producer's tile (%d,%d) and "
                                  "its %d buffers; its own depth %d cannot "
                                  "apply (set the fifo's depth instead)",
                                  iron__handle_label(h, hl, sizeof hl),
                                  h->tile.col, h->tile.row, f->prod.depth,
                                  h->depth);
        }
    }
    return IRON_OK;
}

/* --- memory, locks, BDs, channels ----------------------------------------- */

/* Lays out each tile's buffers from address 0 and counts the tile's
 * locks, BDs and DMA channels. */
static void account_tiles(iron_program *p)
{
    const iron_design *d = p->d;
    for (int i = 0; i < p->ntiles; i++)
        p->tiles[i].mem_used =
            p->tiles[i].tile.row >= IRON__ROW_COMPUTE
                ? p->dev.compute.stack_bytes
                : 0;
    for (int i = 0; i < p->npools; i++) {
        iron__pool *pl = &p->pools[i];
        iron__tile_use *u = use_tile(p, pl->tile);
        uint32_t base = u->mem_used;
        for (int b = 0; b < pl->depth; b++)
            pl->addr[b] = base + (uint32_t)b * align_up(pl->obj_bytes);
        u->mem_used += (uint32_t)pl->depth * align_up(pl->obj_bytes);
        u->locks += 2;
    }
    for (int i = 0; i < p->nrtp_copies; i++) {
        iron__rtp_copy *c = &p->rtp_copies[i];
        const iron_rtp *r = d->rtps.v[c->rtp];
        iron__tile_use *u = use_tile(p, d->workers.v[c->worker]->tile);
        c->addr = u->mem_used;
        u->mem_used += align_up((size_t)r->count * iron_dtype_size(r->dtype));
    }
    for (int i = 0; i < p->nbarrier_copies; i++)
        use_tile(p, d->workers.v[p->barrier_copies[i].worker]->tile)->locks++;
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
            iron__str_printf(s, "%s %d x %u B, ", pl->label, pl->depth,
                             align_up(pl->obj_bytes));
    }
    for (int i = 0; i < p->nrtp_copies; i++) {
        const iron__rtp_copy *c = &p->rtp_copies[i];
        const iron_rtp *r = p->d->rtps.v[c->rtp];
        if (same_tile(p->d->workers.v[c->worker]->tile, u->tile))
            iron__str_printf(s, "rtp '%s' %u B, ", r->name,
                             align_up((size_t)r->count *
                                      iron_dtype_size(r->dtype)));
    }
    if (u->tile.row >= IRON__ROW_COMPUTE)
        iron__str_printf(s, "stack %u B", p->dev.compute.stack_bytes);
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
                     p->d->workers.v[u->worker]->name);
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

/* The column of the array-side end of a host mover. */
static int mover_home_col(const iron_program *p, const iron__mover *m)
{
    if (m->src.pool >= 0)
        return p->pools[m->src.pool].tile.col;
    return m->ndst > 0 ? p->pools[m->dst[0].pool].tile.col : 0;
}

/* Each host mover takes a shim channel: fills an MM2S (out of the shim into
 * the array), drains an S2MM.  The home column's shim first, then the
 * nearest column with a free channel. */
static iron_status place_shim(iron_program *p)
{
    int cols = p->d->cols;
    int used_out[64] = { 0 }, used_in[64] = { 0 };
    int need_out = 0, need_in = 0;
    for (int i = 0; i < p->nmovers; i++) {
        need_out += p->movers[i].src.pool < 0;
        need_in += p->movers[i].src.pool >= 0 && p->movers[i].ndst == 0;
    }
    for (int i = 0; i < p->nmovers; i++) {
        iron__mover *m = &p->movers[i];
        int from_host = m->src.pool < 0, to_host = m->ndst == 0;
        if (!from_host && !to_host)
            continue;
        int *used = from_host ? used_out : used_in;
        int limit = from_host ? p->dev.shim.dma_out : p->dev.shim.dma_in;
        int home = mover_home_col(p, m);
        for (int dist = 0; dist < cols && m->shim_col < 0; dist++)
            for (int sign = -1; sign <= 1 && m->shim_col < 0; sign += 2) {
                int c = home + sign * dist;
                if (c < 0 || c >= cols || used[c] >= limit)
                    continue;
                m->shim_col = c;
                m->shim_channel = used[c]++;
            }
        if (m->shim_col < 0)
            return iron__fail(IRON_ERESOURCE,
                              "shim DMA: fifo '%s' needs an %s channel; the "
                              "design needs %d, the %d granted column%s %s "
                              "%d x %d",
                              p->d->fifos.v[m->fifo]->name,
                              from_host ? "MM2S (host-to-array)"
                                        : "S2MM (array-to-host)",
                              from_host ? need_out : need_in, cols,
                              cols == 1 ? "" : "s", cols == 1 ? "has" : "have",
                              cols, limit);
    }
    return IRON_OK;
}

/* Maps each fill/drain to its mover and checks that no stretch of the
 * sequence between task-group waits issues more DMA tasks on one shim
 * than it has buffer descriptors. */
static iron_status map_ops(iron_program *p)
{
    iron_design *d = p->d;
    int per_col[64] = { 0 };
    for (int i = 0; i < d->ops.n; i++) {
        iron__rt_op *op = &d->ops.v[i];
        if (op->kind == IRON__RT_GROUP_FINISH)
            memset(per_col, 0, sizeof per_col);
        if (op->kind != IRON__RT_FILL && op->kind != IRON__RT_DRAIN)
            continue;
        int mi = op->h->mover;
        p->op_mover[i] = mi;
        op->shim_col = p->movers[mi].shim_col;
        if (++per_col[op->shim_col] <= p->dev.shim.buffer_descriptors)
            continue;
        /* Over: count the whole stretch, to say how many it needs. */
        int need = per_col[op->shim_col];
        for (int k = i + 1;
             k < d->ops.n && d->ops.v[k].kind != IRON__RT_GROUP_FINISH; k++) {
            const iron__rt_op *o = &d->ops.v[k];
            need += (o->kind == IRON__RT_FILL || o->kind == IRON__RT_DRAIN) &&
                    p->movers[o->h->mover].shim_col == op->shim_col;
        }
        return iron__fail(IRON_ERESOURCE,
                          "shim (%d,0): the sequence issues %d DMA tasks on "
                          "it without finishing a task group; the tile has "
                          "%d buffer descriptors",
                          op->shim_col, need, p->dev.shim.buffer_descriptors);
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
        iron__str_printf(&s, "fifo '%s': ", p->d->fifos.v[m->fifo]->name);
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
    iron_design *d = p->d;
    if (d->cols < 1 || d->cols > p->dev.columns || d->cols > 64)
        return iron__fail(IRON_ERESOURCE,
                          "the launch asks for %d columns; device '%s' has %d",
                          d->cols, p->dev.name, p->dev.columns);
    int max_pools = d->links.n + 1, max_args = 1;
    for (int i = 0; i < d->fifos.n; i++)
        max_pools += 1 + d->fifos.v[i]->ncons;
    for (int i = 0; i < d->workers.n; i++)
        max_args += d->workers.v[i]->nargs;
    int max_tiles = d->workers.n + d->links.n + 1;
    p->tiles = iron__calloc((size_t)max_tiles, sizeof *p->tiles);
    p->pools = iron__calloc((size_t)max_pools, sizeof *p->pools);
    p->movers = iron__calloc((size_t)max_pools, sizeof *p->movers);
    p->wargs = iron__calloc((size_t)d->workers.n + 1, sizeof *p->wargs);
    p->rtp_copies = iron__calloc((size_t)max_args, sizeof *p->rtp_copies);
    p->barrier_copies =
        iron__calloc((size_t)max_args, sizeof *p->barrier_copies);
    p->op_mover = iron__calloc((size_t)d->ops.n + 1, sizeof *p->op_mover);
    if (!p->tiles || !p->pools || !p->movers || !p->wargs ||
        !p->rtp_copies || !p->barrier_copies || !p->op_mover)
        return iron__fail(IRON_ENOMEM, "out of memory placing the design");
    iron_status s = place_workers(p);
    if (s != IRON_OK)
        return s;
    place_links(p);
    for (int i = 0; i < d->fifos.n; i++)
        place_fifo(p, d->fifos.v[i]);
    place_worker_args(p);
    if ((s = check_dims(p)) != IRON_OK)
        return s;
    if ((s = check_shared_depths(p)) != IRON_OK)
        return s;
    account_tiles(p);
    if ((s = check_tiles(p)) != IRON_OK)
        return s;
    if ((s = place_shim(p)) != IRON_OK)
        return s;
    label_movers(p);
    return map_ops(p);
}
