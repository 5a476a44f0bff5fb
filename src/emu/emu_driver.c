/*
 * emu_driver.c - the emulator's driver table: host buffers, loading a
 * program into emulated tile memory, and running its runtime sequence.
 */
#include <string.h>

#include "device/device.h"
#include "emu/emu.h"

static iron_status emu_buf_alloc(iron_driver *drv, size_t nbytes, void **host,
                                 void **handle)
{
    (void)drv;
    /* 64-byte alignment: whole cache lines, and any vector type a kernel
     * might use on the host. */
    size_t n = (nbytes + 63) & ~(size_t)63;
    void *p = iron__aligned_alloc(64, n ? n : 64);
    if (!p)
        return iron__fail(IRON_ENOMEM,
                          "emulator: out of memory allocating %zu bytes",
                          nbytes);
    memset(p, 0, n ? n : 64);
    *host = p;
    *handle = p;
    return IRON_OK;
}

static void emu_buf_free(iron_driver *drv, void *host, void *handle)
{
    (void)drv;
    (void)handle;
    iron__free_aligned(host);
}

/* Host and device share memory in the emulator: syncing is free. */
static iron_status emu_buf_sync(iron_driver *drv, void *host, void *handle,
                                size_t nbytes, iron_sync_dir dir)
{
    (void)drv;
    (void)host;
    (void)handle;
    (void)nbytes;
    (void)dir;
    return IRON_OK;
}

/* (Re)initialises every lock, buffer position and task: the state of a
 * freshly loaded program. */
static iron_status reset(emu_inst *in)
{
    const iron_program *p = in->prog;
    uint32_t tm = iron__tile_mem(p);
    memset(in->mem, 0, (size_t)p->ntiles * tm);
    for (int i = 0; i < p->npools; i++) {
        emu_pool *ep = &in->pools[i];
        const iron__pool *pl = &p->pools[i];
        int t = 0;
        while (p->tiles[t].tile.col != pl->tile.col ||
               p->tiles[t].tile.row != pl->tile.row)
            t++;
        memset(ep, 0, sizeof *ep);
        ep->def = pl;
        ep->depth = pl->depth;
        ep->free = pl->depth;
        for (int b = 0; b < pl->depth; b++)
            ep->buf[b] = in->mem + (size_t)t * tm + pl->addr[b];
    }
    for (int i = 0; i < in->nworkers; i++)
        iron__emu_worker_init(in, &in->workers[i], p->d->workers.v[i], i);
    for (int i = 0; i < in->nmovers; i++)
        iron__emu_mover_init(in, &in->movers[i], &p->movers[i]);
    in->started = 0;
    in->broken = 0;
    return iron__emu_lanes_assign(in);
}

static void emu_unload(iron_driver *drv, void *loaded)
{
    (void)drv;
    emu_inst *in = loaded;
    if (!in)
        return;
    for (int i = 0; in->movers && i < in->nmovers; i++)
        iron__free(in->movers[i].ops);
    iron__free_aligned(in->mem);
    iron__free(in->pools);
    iron__free(in->workers);
    iron__free(in->movers);
    if (in->lanes)
        for (int l = 0; l < in->nlanes_cap; l++)
            iron__free(in->lanes[l].ready);
    iron__free(in->lanes);
    iron__free(in);
}

static iron_status emu_load(iron_driver *drv, const iron_device_info *dev,
                            const iron_program *prog, void **loaded)
{
    *loaded = NULL;
    if (prog->abi_version != IRON_DRIVER_ABI)
        return iron__fail(IRON_ELOAD,
                          "emulator: program format %d, expected %d",
                          prog->abi_version, IRON_DRIVER_ABI);
    if (strcmp(dev->name, prog->dev.name) != 0)
        return iron__fail(IRON_ELOAD,
                          "emulator: program was placed for '%s', not '%s'",
                          prog->dev.name, dev->name);
    emu_inst *in = iron__calloc(1, sizeof *in);
    if (!in)
        return iron__fail(IRON_ENOMEM, "emulator: out of memory loading");
    in->prog = prog;
    in->nworkers = prog->d->workers.n;
    in->nmovers = prog->nmovers;
    in->ntasks = in->nworkers + in->nmovers;
    in->mem = iron__aligned_alloc(64, (size_t)(prog->ntiles ? prog->ntiles : 1) *
                                          iron__tile_mem(prog));
    in->pools = iron__calloc((size_t)prog->npools + 1, sizeof *in->pools);
    in->workers = iron__calloc((size_t)in->nworkers + 1, sizeof *in->workers);
    in->movers = iron__calloc((size_t)in->nmovers + 1, sizeof *in->movers);
    /* One lane per task at most; each lane's ring can hold every task. */
    in->nlanes_cap = in->ntasks ? in->ntasks : 1;
    in->lanes = iron__calloc((size_t)in->nlanes_cap, sizeof *in->lanes);
    int ok = in->mem && in->pools && in->workers && in->movers && in->lanes;
    for (int l = 0; ok && l < in->nlanes_cap; l++)
        ok = (in->lanes[l].ready = iron__calloc((size_t)in->ntasks + 1,
                                                sizeof(emu_task *))) != NULL;
    if (!ok) {
        emu_unload(drv, in);
        return iron__fail(IRON_ENOMEM, "emulator: out of memory loading");
    }
    iron_status s = reset(in);
    if (s != IRON_OK) {
        emu_unload(drv, in);
        return s;
    }
    *loaded = in;
    return IRON_OK;
}

static iron_status emu_run(iron_driver *drv, void *loaded,
                           const iron_run_args *args, iron_run_state *state)
{
    (void)drv;
    emu_inst *in = loaded;
    const iron_design *d = in->prog->d;
    *state = IRON_RUN_ERROR;
    if (in->broken) {
        iron_status s = reset(in);
        if (s != IRON_OK)
            return s;
    }
    in->timeout_ms = args->timeout_ms;
    for (int i = 0; i < in->nmovers; i++)
        in->movers[i].nops = in->movers[i].head = 0;
    /* The runtime sequence issues its ops in order onto their movers'
     * queues; each mover then serves its queue in order, as a DMA channel
     * serves its task queue. */
    for (int i = 0; i < d->ops.n; i++) {
        const iron__rt_op *op = &d->ops.v[i];
        emu_mover *em = &in->movers[op->h->fifo->mover];
        iron_status s = iron__emu_mover_push(em, op, args->host[op->arg]);
        if (s != IRON_OK) {
            in->broken = 1;
            return s;
        }
        em->task.lane->ops_left++;
        em->task.lane->awaited_left += op->wait;
    }
    if (!in->started) {
        for (int i = 0; i < in->nworkers; i++)
            iron__emu_wake(&in->workers[i].task);
        in->started = 1;
    }
    for (int i = 0; i < in->nmovers; i++)
        if (in->movers[i].nops > 0)
            iron__emu_wake(&in->movers[i].task);
    iron_status s = iron__emu_lanes_run(in, state);
    if (s != IRON_OK)
        in->broken = 1;
    return s;
}

iron_driver iron__emu_driver = {
    .abi_version = IRON_DRIVER_ABI,
    .size = sizeof(iron_driver),
    .name = "emulator",
    .buf_alloc = emu_buf_alloc,
    .buf_free = emu_buf_free,
    .buf_sync = emu_buf_sync,
    .load = emu_load,
    .run = emu_run,
    .unload = emu_unload,
};
