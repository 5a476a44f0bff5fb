/*
 * program.c - the lifetime of a program (placed, compiled design).
 */
#include <stdio.h>
#include <string.h>

#include "program/program.h"

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

int iron__program_kobj_first(const iron_program *p, int k)
{
    for (int e = 0; e < k; e++)
        if (p->kobjs[e] == p->kobjs[k])
            return 0;
    return 1;
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
    for (int i = 0; p->wobjs && p->wclone && i < p->d->workers.n; i++)
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
    iron__free(p->wargs);
    iron__free(p->op_mover);
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

const char *iron__tile_name(iron__tile t, char *buf, size_t len)
{
    snprintf(buf, len, "%s (%d,%d)",
             t.row == IRON__ROW_SHIM      ? "shim"
             : t.row == IRON__ROW_MEMTILE ? "memtile"
                                          : "compute tile",
             t.col, t.row);
    return buf;
}
