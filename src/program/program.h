/*
 * program.h - a placed, compiled design: what a driver loads.  It owns the
 * design IR (annotated by verify/place), the buffer pools laid out in tile
 * memory, the DMA movers, and the loaded kernel objects.
 */
#ifndef IRON_PROGRAM_PROGRAM_H
#define IRON_PROGRAM_PROGRAM_H

#include "compile/compile.h"
#include "design/design.h"
#include "iron/iron_driver.h"

/* Byte alignment of every buffer in tile memory (vector loads want 32). */
#define IRON__BUF_ALIGN 32u

/* One endpoint's ring of `depth` object buffers in a tile's memory, guarded
 * by two counting locks as on hardware: one counts free buffers (the
 * producer side acquires it), one counts filled buffers (the consumer side
 * acquires it).  Exactly one task writes a pool and one task reads it. */
typedef struct iron__pool {
    iron__tile tile;
    int fifo;                 /* fifo index in the design */
    int depth;
    size_t obj_bytes;
    uint32_t addr[IRON__MAX_DEPTH];  /* byte offset of each buffer */
    char label[96];           /* "fifo 'a' (consumer)" for messages */
} iron__pool;

/* A DMA path that moves one FIFO's objects: from the host (runtime fills)
 * or a producer pool, into consumer pools or the host (runtime drains). */
typedef struct iron__mover {
    int fifo;
    int src_pool;             /* -1: from the host */
    int ndst;                 /* 0: into the host */
    int dst_pool[IRON__MAX_CONS];
    int shim_col;             /* column of the shim tile used, or -1 */
    int shim_channel;         /* channel on that shim, or -1 */
} iron__mover;

/* Per compute tile in use. */
typedef struct iron__tile_use {
    iron__tile tile;
    uint32_t mem_used;        /* buffers + stack */
    int locks, bds, dma_in, dma_out;
    int worker;               /* worker index on it, or -1 */
} iron__tile_use;

struct iron_program {
    int abi_version;          /* IRON_DRIVER_ABI */
    iron_design *d;           /* owned */
    iron_device_info dev;
    int npools;
    iron__pool *pools;
    int nmovers;
    iron__mover *movers;
    int ntiles;
    iron__tile_use *tiles;
    /* Per worker: the pool each handle argument uses (-1 for scalars). */
    int (*worker_pool)[IRON__MAX_KARGS];
    /* Per kernel: its compiled object (identical kernels share one). */
    iron__kobj **kobjs;
    int nkernels;
    /* Per worker: its own loaded instance of its kernel's object, so each
     * core has its own static data as on hardware (the first worker of a
     * kernel uses the kernel's object, later ones a clone: wclone[i]). */
    iron__kobj **wobjs;
    unsigned char *wclone;
    iron__kernel_fn *wfns;
};

/* Takes ownership of d (freed by iron__program_free even on failure). */
iron_status iron__program_new(iron_program **out, iron_design *d,
                              const iron_device_info *dev);
void iron__program_free(iron_program *p);

/* Tile memory size in bytes for compute tiles of the program's device. */
static inline uint32_t iron__tile_mem(const iron_program *p)
{
    return p->dev.compute.memory_bytes;
}

#endif
