/*
 * program.h - a placed, compiled design: what a driver loads.  It owns the
 * design IR (annotated by verify/place), the buffer pools laid out in tile
 * memory, the DMA movers, per-worker copies of run-time parameter buffers
 * and barriers, and the loaded kernel objects.
 */
#ifndef IRON_PROGRAM_PROGRAM_H
#define IRON_PROGRAM_PROGRAM_H

#include "compile/compile.h"
#include "design/design.h"
#include "iron/iron_driver.h"

/* Byte alignment of every buffer in tile memory (vector loads want 32). */
#define IRON__BUF_ALIGN 32u

/* Rows of the array: 0 the shim, 1 the memtile, 2.. compute tiles. */
#define IRON__ROW_SHIM 0
#define IRON__ROW_MEMTILE 1
#define IRON__ROW_COMPUTE 2

/* A ring of `depth` object buffers in one tile's memory, guarded as on
 * hardware by locks that count free buffers (taken by writers) and filled
 * buffers (taken by readers).  A pool may have several writers (the inputs
 * of a join, each writing its part of every object) and several readers
 * (consumers sharing the producer's tile, the outputs of a split, a drain
 * beside a broadcast): a buffer is filled when every writer has released
 * it and free when every reader has. */
typedef struct iron__pool {
    iron__tile tile;
    int fifo;                 /* the fifo whose objects it holds */
    int depth;
    size_t obj_bytes;
    uint32_t addr[IRON__MAX_DEPTH];  /* byte offset of each buffer */
    int nwriters, nreaders;
    char label[96];           /* "fifo 'a' (consumer)" for messages */
    char why[80];             /* why `depth` buffers: "max acquire 1 + 1" */
} iron__pool;

/* One side of a DMA transfer. */
typedef struct iron__end {
    int pool;                 /* -1: the host (a runtime fill or drain) */
    int slot;                 /* reader (source) / writer (dest) index */
    int64_t offset;           /* elements into the pool's object */
    const iron_tap *dims;     /* layout transform, or NULL: in order */
    int pieces;               /* >1: this end moves that many objects
                                 through each pool buffer, in order (a
                                 forward that changes the object size) */
} iron__end;

/* A DMA path moving one FIFO's objects from one source to one or more
 * destinations (every destination gets every object: broadcast). */
typedef struct iron__mover {
    int fifo;
    iron__end src;
    int ndst;
    iron__end dst[IRON__MAX_CONS];
    int shim_col;             /* shim tile used when an end is the host */
    int shim_channel;
    char label[128];          /* "fifo 'a': shim (0,0) -> tile (0,2)" */
} iron__mover;

/* Per tile in use (compute tiles and memtiles). */
typedef struct iron__tile_use {
    iron__tile tile;
    uint32_t mem_used;        /* buffers, stack, kernel data */
    uint32_t stack;           /* the worker's stack (compute tiles) */
    uint32_t kdata;           /* its kernels' static data */
    int locks, bds, dma_in, dma_out;
    int worker;               /* worker on it (compute), or -1 */
} iron__tile_use;

/* A worker's copy of a run-time parameter buffer, on the worker's tile. */
typedef struct iron__rtp_copy {
    int rtp;
    int worker, arg;
    uint32_t addr;
} iron__rtp_copy;

/* A worker's copy of a barrier (one lock on the worker's tile). */
typedef struct iron__barrier_copy {
    int barrier;
    int worker, arg;
} iron__barrier_copy;

/* Where a worker's argument lives once placed. */
typedef struct iron__warg {
    int pool, slot;           /* handle arguments */
    int is_writer;
    int copy;                 /* rtp or barrier copy index */
    void (*kfn)(void);        /* kernel arguments: the entry to call */
} iron__warg;

struct iron_program {
    int abi_version;          /* IRON_DRIVER_ABI */
    iron_design *d;           /* owned */
    iron_device_info dev;
    int npools, cap_pools;
    iron__pool *pools;
    int nmovers, cap_movers;
    iron__mover *movers;
    int ntiles, cap_tiles;
    iron__tile_use *tiles;
    int nrtp_copies;
    iron__rtp_copy *rtp_copies;
    int nbarrier_copies;
    iron__barrier_copy *barrier_copies;
    /* Per worker, per argument. */
    iron__warg (*wargs)[IRON__MAX_KARGS];
    /* Per runtime op (FILL/DRAIN): the mover serving it. */
    int *op_mover;
    /* Per kernel: its compiled object (identical kernels share one). */
    iron__kobj **kobjs;
    int nkernels;
    /* Per worker: its own loaded instance of its kernel's object, so each
     * core has its own static data as on hardware (the first worker of a
     * kernel uses the kernel's object, later ones a clone: wclone[i]). */
    iron__kobj **wobjs;
    unsigned char *wclone;
    iron__kernel_fn *wfns;
    /* Instances of kernels with state that core bodies call, one per
     * calling worker beyond the first (owned). */
    iron__kobj **kclones;
    int nkclones;
};

/* Takes ownership of d (freed by iron__program_free even on failure). */
iron_status iron__program_new(iron_program **out, iron_design *d,
                              const iron_device_info *dev);
void iron__program_free(iron_program *p);
/* Identical kernels share one object: whether kernel k is the first to
 * use its object (the one that owns a reference to it). */
int iron__program_kobj_first(const iron_program *p, int k);
/* Drops p's kernel objects (each distinct one once) and the array. */
void iron__program_drop_kobjs(iron_program *p);

/* The index of tile t in p->tiles, or -1. */
int iron__program_tile(const iron_program *p, iron__tile t);

/* Memory of a tile of the program's device: compute or memtile. */
static inline uint32_t iron__tile_mem_of(const iron_program *p, iron__tile t)
{
    return t.row == IRON__ROW_MEMTILE ? p->dev.memtile.memory_bytes
                                      : p->dev.compute.memory_bytes;
}

/* "compute tile (0,2)", "memtile (1,1)", "shim (0,0)" */
const char *iron__tile_name(iron__tile t, char *buf, size_t len);

#endif
