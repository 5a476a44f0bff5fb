/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * program.c - the lifetime of a program (placed, compiled design) and the
 * program-level services drivers use instead of other modules' headers.
 */
#include <stdio.h>
#include <string.h>

#include "compile/srcline.h"
#include "design/design.h"
#include "program/program.h"
#include "tensor/tensor.h"

iron_status iron__program_new(iron_program **out, iron_design *d,
                              const iron_device_info *dev)
{
    *out = NULL;
    iron_program *p = iron__calloc(1, sizeof *p);
    if (!p) {
        iron__design_free(d);
        return iron__fail(IRON_ENOMEM, "out of memory creating a program");
    }
    p->abi_version = IRON_DRIVER_ABI;
    p->d = d;
    p->dev = *dev;
    *out = p;
    return IRON_OK;
}

int iron__kobjs_first(iron__kobj *const *kobjs, int k)
{
    for (int e = 0; e < k; e++)
        if (kobjs[e] == kobjs[k])
            return 0;
    return 1;
}

int iron__program_kobj_first(const iron_program *p, int k)
{
    return iron__kobjs_first(p->kobjs, k);
}

void iron__program_drop_kobjs(iron_program *p)
{
    for (int i = 0; p->kobjs && i < p->nkernels; i++)
        if (p->kobjs[i] && iron__program_kobj_first(p, i))
            iron__kobj_free(p->kobjs[i]);
    iron__free(p->kobjs);
    p->kobjs = NULL;
}

void iron__program_free(iron_program *p)
{
    if (!p)
        return;
    iron__program_drop_kobjs(p);
    for (int i = 0; p->wobjs && p->wclone && i < p->nworkers; i++)
        if (p->wclone[i])
            iron__kobj_free(p->wobjs[i]);
    for (int i = 0; i < p->nkclones; i++)
        iron__kobj_free(p->kclones[i]);
    iron__free(p->kclones);
    iron__free(p->wobjs);
    iron__free(p->wclone);
    iron__free(p->wfns);
    iron__free(p->pools);
    iron__free(p->movers);
    iron__free(p->tiles);
    iron__free(p->rtp_copies);
    iron__free(p->barrier_copies);
    for (int i = 0; p->wargs && i < p->nworkers; i++)
        for (int a = 0; a < p->workers[i].nargs; a++)
            iron__kexpr_free(p->wargs[i][a].cycles);
    iron__free(p->wargs);
    for (int i = 0; p->args && i < p->nargs; i++)
        iron__free(p->args[i].name);
    for (int i = 0; p->workers && i < p->nworkers; i++) {
        iron__free(p->workers[i].name);
        iron__free(p->workers[i].kernel_entry);
        iron__kexpr_free(p->workers[i].cycles);
    }
    for (int i = 0; p->fifos && i < p->nfifos; i++)
        iron__free(p->fifos[i].name);
    for (int i = 0; p->rtps && i < p->nrtps; i++) {
        iron__free(p->rtps[i].name);
        iron__free(p->rtps[i].initial);
    }
    for (int i = 0; p->barriers && i < p->nbarriers; i++)
        iron__free(p->barriers[i].name);
    iron__free(p->args);
    iron__free(p->workers);
    iron__free(p->fifos);
    iron__free(p->links);
    iron__free(p->ops);
    iron__free(p->rtps);
    iron__free(p->barriers);
    iron__design_free(p->d);
    iron__free(p);
}

int iron__program_tile(const iron_program *p, iron__tile t)
{
    for (int i = 0; i < p->ntiles; i++)
        if (p->tiles[i].tile.col == t.col && p->tiles[i].tile.row == t.row)
            return i;
    return -1;
}

int iron__program_col_used(const iron_program *p, int col)
{
    for (int i = 0; i < p->ntiles; i++)
        if (p->tiles[i].tile.col == col)
            return 1;
    for (int i = 0; i < p->nmovers; i++)
        if ((p->movers[i].src.pool < 0 || p->movers[i].ndst == 0) &&
            p->movers[i].shim_col == col)
            return 1;
    return 0;
}

const char *iron__tile_name(iron__tile t, char *buf, size_t len)
{
    snprintf(buf, len, "%s (%d,%d)",
             t.row == IRON__ROW_SHIM      ? "shim"
             : t.row == IRON__ROW_MEMTILE ? "memtile"
                                          : "compute tile",
             t.col, t.row);
    return buf;
}

iron_status iron__program_bind_core(const iron_program *p, int w,
                                    const iron__core_api *api)
{
    if (w < 0 || w >= p->nworkers || !p->wobjs || !p->wobjs[w])
        return iron__fail(IRON_ELOAD, "worker %d has no loaded kernel", w);
    return iron__kobj_bind_core(p->wobjs[w], api);
}

void iron__program_store(iron_dtype dt, void *at, double value)
{
    iron__dtype_store(dt, at, value);
}

int iron__program_srcline(const void *pc, char *buf, size_t len)
{
    return iron__srcline(pc, buf, len);
}
