/*
 * place.c - placement: workers onto compute tiles (users never give column
 * ids), FIFO endpoints into buffer pools in tile memory, DMA movers onto
 * shim channels; then every tile's resources are checked against the
 * device model and an over-limit design is rejected with the tile, the
 * resource, the demand and the limit.
 */
#include <stdio.h>
#include <string.h>

#include "verify/verify.h"

#define FIRST_COMPUTE_ROW 2

static uint32_t align_up(size_t n)
{
    return (uint32_t)((n + IRON__BUF_ALIGN - 1) & ~(size_t)(IRON__BUF_ALIGN - 1));
}

static iron__tile_use *tile_use(iron_program *p, iron__tile t)
{
    for (int i = 0; i < p->ntiles; i++)
        if (p->tiles[i].tile.col == t.col && p->tiles[i].tile.row == t.row)
            return &p->tiles[i];
    return NULL;
}

/* Workers go round-robin over the granted columns, then down the rows, so
 * that a design with one worker per column spreads its shim traffic. */
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
    p->tiles = iron__calloc((size_t)d->workers.n, sizeof *p->tiles);
    if (!p->tiles)
        return iron__fail(IRON_ENOMEM, "out of memory placing workers");
    for (int i = 0; i < d->workers.n; i++) {
        iron_worker *w = d->workers.v[i];
        w->tile.col = i % cols;
        w->tile.row = FIRST_COMPUTE_ROW + i / cols;
        iron__tile_use *u = &p->tiles[p->ntiles++];
        u->tile = w->tile;
        u->worker = i;
        u->mem_used = p->dev.compute.stack_bytes;
    }
    return IRON_OK;
}

static int add_pool(iron_program *p, const iron_handle *h, iron__tile t)
{
    iron__pool *pl = &p->pools[p->npools];
    memset(pl, 0, sizeof *pl);
    pl->tile = t;
    pl->fifo = h->fifo->index;
    pl->depth = h->depth;
    pl->obj_bytes = h->fifo->obj_bytes;
    iron__handle_label(h, pl->label, sizeof pl->label);
    return p->npools++;
}

static int worker_arg_slot(const iron_worker *w, const iron_handle *h)
{
    for (int a = 0; a < w->nargs; a++)
        if (w->args[a].kind == IRON_ARG_HANDLE && w->args[a].handle == h)
            return a;
    return -1;
}

/* Pools and movers for one FIFO.  A producer worker owns a pool on its
 * tile; a consumer worker on the same tile shares it (one memory, as on
 * hardware), one elsewhere gets its own pool fed by a mover.  Host
 * endpoints have no pool: the mover reads or writes the tensor. */
static void place_fifo(iron_program *p, iron_fifo *f)
{
    iron_handle *prod = &f->prod;
    int src = -1;
    if (prod->user == IRON__USER_WORKER) {
        prod->tile = prod->worker->tile;
        src = prod->pool = add_pool(p, prod, prod->tile);
        p->worker_pool[prod->worker->index][worker_arg_slot(prod->worker,
                                                            prod)] = src;
    }
    iron__mover m;
    memset(&m, 0, sizeof m);
    m.fifo = f->index;
    m.src_pool = src;
    m.shim_col = m.shim_channel = -1;
    int needs_mover = prod->user == IRON__USER_RUNTIME;
    for (int c = 0; c < f->ncons; c++) {
        iron_handle *h = f->cons[c];
        if (h->user == IRON__USER_RUNTIME) {
            needs_mover = 1;
            continue;
        }
        h->tile = h->worker->tile;
        if (src >= 0 && h->tile.col == prod->tile.col &&
            h->tile.row == prod->tile.row && f->ncons == 1) {
            h->pool = src;
        } else {
            h->pool = add_pool(p, h, h->tile);
            m.dst_pool[m.ndst++] = h->pool;
            needs_mover = 1;
        }
        p->worker_pool[h->worker->index][worker_arg_slot(h->worker, h)] =
            h->pool;
    }
    if (needs_mover) {
        f->mover = p->nmovers;
        p->movers[p->nmovers++] = m;
    }
}

/* Lays out each compute tile's buffers from address 0 and counts the
 * tile's locks, BDs and DMA channels. */
static void account_tiles(iron_program *p)
{
    for (int i = 0; i < p->npools; i++) {
        iron__pool *pl = &p->pools[i];
        iron__tile_use *u = tile_use(p, pl->tile);
        uint32_t base = u->mem_used - p->dev.compute.stack_bytes;
        for (int b = 0; b < pl->depth; b++)
            pl->addr[b] = base + (uint32_t)b * align_up(pl->obj_bytes);
        u->mem_used += (uint32_t)pl->depth * align_up(pl->obj_bytes);
        u->locks += 2;
    }
    for (int i = 0; i < p->nmovers; i++) {
        const iron__mover *m = &p->movers[i];
        if (m->src_pool >= 0) {
            iron__tile_use *u = tile_use(p, p->pools[m->src_pool].tile);
            u->dma_out++;
            u->bds += p->pools[m->src_pool].depth;
        }
        for (int k = 0; k < m->ndst; k++) {
            iron__tile_use *u = tile_use(p, p->pools[m->dst_pool[k]].tile);
            u->dma_in++;
            u->bds += p->pools[m->dst_pool[k]].depth;
        }
    }
}

static void tile_inventory(const iron_program *p, const iron__tile_use *u,
                           iron__str *s)
{
    for (int i = 0; i < p->npools; i++) {
        const iron__pool *pl = &p->pools[i];
        if (pl->tile.col != u->tile.col || pl->tile.row != u->tile.row)
            continue;
        iron__str_printf(s, "%s %d x %u B, ", pl->label, pl->depth,
                         align_up(pl->obj_bytes));
    }
    iron__str_printf(s, "stack %u B", p->dev.compute.stack_bytes);
}

static iron_status check_tiles(const iron_program *p)
{
    const iron_tile_info *ct = &p->dev.compute;
    for (int i = 0; i < p->ntiles; i++) {
        const iron__tile_use *u = &p->tiles[i];
        const char *wn = p->d->workers.v[u->worker]->name;
        if (u->mem_used > ct->memory_bytes) {
            iron__str inv = { 0 };
            tile_inventory(p, u, &inv);
            iron_status s = iron__fail(
                IRON_ERESOURCE,
                "compute tile (%d,%d) (worker '%s'): data memory needs %u "
                "bytes, the tile has %u (%u over): %s",
                u->tile.col, u->tile.row, wn, u->mem_used, ct->memory_bytes,
                u->mem_used - ct->memory_bytes, iron__str_get(&inv));
            iron__str_free(&inv);
            return s;
        }
        const struct {
            int need, have;
            const char *what;
        } limits[] = {
            { u->locks, ct->locks, "locks (2 per buffer pool)" },
            { u->bds, ct->buffer_descriptors,
              "buffer descriptors (1 per buffer a DMA touches)" },
            { u->dma_in, ct->dma_in,
              "input (S2MM) DMA channels (1 per fifo streaming in)" },
            { u->dma_out, ct->dma_out,
              "output (MM2S) DMA channels (1 per fifo streaming out)" },
        };
        for (size_t k = 0; k < IRON__COUNT_OF(limits); k++)
            if (limits[k].need > limits[k].have)
                return iron__fail(IRON_ERESOURCE,
                                  "compute tile (%d,%d) (worker '%s'): needs "
                                  "%d %s, the tile has %d",
                                  u->tile.col, u->tile.row, wn,
                                  limits[k].need, limits[k].what,
                                  limits[k].have);
    }
    return IRON_OK;
}

/* The column whose array-side endpoint a host mover serves. */
static int mover_home_col(const iron_program *p, const iron__mover *m)
{
    if (m->src_pool >= 0)
        return p->pools[m->src_pool].tile.col;
    return m->ndst > 0 ? p->pools[m->dst_pool[0]].tile.col : 0;
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
        need_out += p->movers[i].src_pool < 0;
        need_in += p->movers[i].ndst == 0;
    }
    for (int i = 0; i < p->nmovers; i++) {
        iron__mover *m = &p->movers[i];
        int from_host = m->src_pool < 0, to_host = m->ndst == 0;
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
                              "design needs %d, the %d granted column%s "
                              "%d x %d",
                              p->d->fifos.v[m->fifo]->name,
                              from_host ? "MM2S (host-to-array)"
                                        : "S2MM (array-to-host)",
                              from_host ? need_out : need_in, cols,
                              cols == 1 ? " has" : "s have", cols, limit);
    }
    return IRON_OK;
}

iron_status iron__place(iron_program *p)
{
    iron_design *d = p->d;
    if (d->cols < 1 || d->cols > p->dev.columns || d->cols > 64)
        return iron__fail(IRON_ERESOURCE,
                          "the launch asks for %d columns; device '%s' has %d",
                          d->cols, p->dev.name, p->dev.columns);
    iron_status s = place_workers(p);
    if (s != IRON_OK)
        return s;
    int max_pools = 0;
    for (int i = 0; i < d->fifos.n; i++)
        max_pools += 1 + d->fifos.v[i]->ncons;
    p->pools = iron__calloc((size_t)max_pools, sizeof *p->pools);
    p->movers = iron__calloc((size_t)d->fifos.n + 1, sizeof *p->movers);
    p->worker_pool =
        iron__calloc((size_t)d->workers.n, sizeof *p->worker_pool);
    if (!p->pools || !p->movers || !p->worker_pool)
        return iron__fail(IRON_ENOMEM, "out of memory placing the design");
    for (int w = 0; w < d->workers.n; w++)
        for (int a = 0; a < IRON__MAX_KARGS; a++)
            p->worker_pool[w][a] = -1;
    for (int i = 0; i < d->fifos.n; i++)
        place_fifo(p, d->fifos.v[i]);
    account_tiles(p);
    s = check_tiles(p);
    if (s != IRON_OK)
        return s;
    return place_shim(p);
}
