/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * program.h - a placed, compiled design: what a driver loads, complete on
 * its own.  It holds plain, program-owned copies of everything a driver
 * needs (workers, FIFOs, the runtime sequence, arguments, run-time
 * parameters, barriers), the placer's results (src/place), the buffer
 * pools laid out in tile memory, the DMA movers, per-worker copies of
 * run-time parameter buffers and barriers, and the loaded kernel objects.
 *
 * The design it was built from stays with it (for dumps and kernel
 * compilation) behind an opaque pointer: drivers never dereference it, and
 * this header does not define it.  Drivers include only this header, the
 * driver header and the base utilities in src/core.
 */
#ifndef IRON_PROGRAM_PROGRAM_H
#define IRON_PROGRAM_PROGRAM_H

#include "compile/kabi.h"
#include "core/core.h"
#include "core/npu.h"
#include "iron/iron_driver.h"
#include "kexpr/kexpr.h"

/* Byte alignment of every buffer in tile memory (vector loads want 32). */
#define IRON__BUF_ALIGN 32u

/* --- what the design said, copied for drivers ----------------------------- */

/* A tensor argument of the runtime sequence. */
typedef struct iron__prog_arg {
    char *name;
    iron_dtype dtype;
} iron__prog_arg;

/* A run-time parameter buffer; each worker using it has its own copy. */
typedef struct iron__prog_rtp {
    char *name;
    iron_dtype dtype;
    int64_t count;
    void *initial;            /* count elements at load, or NULL: zeros */
} iron__prog_rtp;

/* A barrier; each worker using it has its own copy (a lock). */
typedef struct iron__prog_barrier {
    char *name;
    int initial;              /* the lock's value at load (0..63) */
} iron__prog_barrier;

/* One endpoint of a FIFO once placed. */
typedef struct iron__prog_end {
    iron__tile tile;          /* the tile of its user ({-1,-1}: the runtime
                                 sequence, or unused) */
    int pool;                 /* buffer pool index, or -1 */
    int slot;                 /* the user's writer/reader index there */
    int mover;                /* runtime endpoints: the mover serving them */
    int buffers;              /* buffers the lowering gave it (0: none) */
    char why[80];             /* and why that many, for dumps and messages */
    int has_dims;             /* dims_to_stream / dims_from_stream set */
    iron_tap dims;            /* the layout transform as the DMA runs it */
    int64_t dims_wrap;        /* >1 when a memtile pattern's outermost
                                 dimension was extended over the whole
                                 object (sizes[0] multiplied by it) */
} iron__prog_end;

typedef struct iron__prog_fifo {
    char *name;
    iron_dtype dtype;
    int64_t obj_numel;
    size_t obj_bytes;
    int depth;
    int mover;                /* the array-side mover, or -1 */
    int ncons;
    iron__prog_end ends[1 + IRON__MAX_CONS];  /* [0] the producer, [1 + c]
                                                 consumer c */
} iron__prog_fifo;

typedef struct iron__prog_worker {
    char *name;
    iron__tile tile;          /* placed */
    int pinned;               /* the design gave the tile, or its column
                                 only (the row is the placer's) */
    int is_core;              /* a core body; else the standard loop */
    int kernel;               /* kernel index (p->kobjs) */
    char *kernel_entry;       /* the kernel's C entry name */
    int64_t iterations;       /* standard loop: calls per run (0: forever) */
    uint32_t stack_bytes;     /* its core's stack (0: the device's) */
    int nargs;                /* arguments: p->wargs[worker][0 .. nargs) */
    iron__kexpr *cycles;      /* the kernel's declared cost per call
                                 (iron_kernel_set_cycles; owned), or NULL:
                                 the timing model estimates it.  A driver
                                 evaluates it for each call with the
                                 values it passes the kernel:
                                 iron__kexpr_eval(cycles, args, &c).
                                 Always NULL for a core body. */
} iron__prog_worker;

/* A memtile (or compute-tile) link once placed. */
typedef struct iron__prog_link {
    iron__tile tile;
    int pool;                 /* the pool holding the big object */
} iron__prog_link;

/* The public kinds (iron_driver.h), under the names the library uses. */
typedef enum iron__op_kind {
    IRON__OP_FILL = IRON_PROGRAM_OP_FILL,
    IRON__OP_DRAIN = IRON_PROGRAM_OP_DRAIN,
    IRON__OP_SET_RTP = IRON_PROGRAM_OP_SET_RTP,
    IRON__OP_SET_BARRIER = IRON_PROGRAM_OP_SET_BARRIER,
    IRON__OP_GROUP_START = IRON_PROGRAM_OP_GROUP_START,
    IRON__OP_GROUP_FINISH = IRON_PROGRAM_OP_GROUP_FINISH
} iron__op_kind;

/* One op of the runtime sequence. */
typedef struct iron__prog_op {
    iron__op_kind kind;
    int arg;                  /* FILL, DRAIN: tensor argument, else -1 */
    const char *arg_name;     /* ... its name (owned by p->args) */
    iron_dtype arg_dtype;     /* ... and its dtype */
    iron_tap tap;             /* FILL, DRAIN */
    int wait;                 /* DRAIN: awaited */
    int group;                /* task group it belongs to (0: none);
                                 GROUP_START/FINISH: the group */
    int scalar;               /* SET_RTP value / FILL, DRAIN offset from
                                 this dispatch-time scalar, or -1 */
    int64_t index;            /* SET_RTP: element */
    double value;             /* SET_RTP, SET_BARRIER */
    int fifo;                 /* FILL, DRAIN: the fifo, else -1 */
    int rtp;                  /* SET_RTP: p->rtps index, else -1 */
    int barrier;              /* SET_BARRIER: p->barriers index, else -1 */
    const char *subject;      /* the fifo's, rtp's or barrier's name, or
                                 NULL (owned by p) */
    int mover;                /* FILL, DRAIN: the mover serving it */
    int shim_col;             /* FILL, DRAIN: its shim column */
} iron__prog_op;

/* --- what placement made --------------------------------------------------- */

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

/* A worker's argument: what the design gave and where it lives once
 * placed. */
typedef struct iron__warg {
    iron_arg_kind kind;
    iron_dtype dtype;         /* the kernel's declared type for it */
    int64_t i;                /* IRON_ARG_INT */
    double f;                 /* IRON_ARG_FLOAT */
    int max_acquire;          /* handles: objects held at once */
    char label[96];           /* handles: "fifo 'a' (consumer)" */
    int pool, slot;           /* handle arguments */
    int is_writer;
    int copy;                 /* rtp or barrier copy index */
    void (*kfn)(void);        /* kernel arguments: the entry to call */
    iron__kexpr *cycles;      /* kernel arguments: that kernel's declared
                                 cost (owned), or NULL.  The core body
                                 calls kfn itself, unseen by the driver:
                                 for a driver that learns of such a call
                                 and its arguments (as iron__kval). */
} iron__warg;

struct iron_program {
    int abi_version;          /* IRON_DRIVER_ABI */
    iron_design *d;           /* owned; opaque to drivers */
    iron_device_info dev;
    int cols;                 /* columns the launch grants */
    /* The design's contents (owned copies; index = the design's index). */
    int nargs;
    iron__prog_arg *args;
    int nworkers;
    iron__prog_worker *workers;
    int nfifos;
    iron__prog_fifo *fifos;
    int nlinks;
    iron__prog_link *links;
    int nops;
    iron__prog_op *ops;
    int nrtps;
    iron__prog_rtp *rtps;
    int nbarriers;
    iron__prog_barrier *barriers;
    int ngroups;              /* task groups 1 .. ngroups (0: the
                                 sequence's own) */
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
    /* Kernels built for the timing model (timed builds, which count
     * their operations; compile.h's iron__kernel_src.timed): set before
     * the kernel store loads kobjs. */
    int timed;
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

/* Takes ownership of d (freed by iron__program_free even on failure).
 * The tables are empty until the placer fills them (iron__place). */
iron_status iron__program_new(iron_program **out, iron_design *d,
                              const iron_device_info *dev);
void iron__program_free(iron_program *p);
/* Identical kernels share one object: whether kernel k is the first to
 * use its object (the one that owns a reference to it), in p or in an
 * array of kernel objects. */
int iron__program_kobj_first(const iron_program *p, int k);
int iron__kobjs_first(iron__kobj *const *kobjs, int k);
/* Drops p's kernel objects (each distinct one once) and the array. */
void iron__program_drop_kobjs(iron_program *p);

/* The index of tile t in p->tiles, or -1. */
int iron__program_tile(const iron_program *p, iron__tile t);

/* Whether column col of the grant is used: a tile of it is in use (a
 * worker, a link, a buffer) or its shim moves host data.  The one
 * definition behind iron_jit_check's "columns used" and the grid dump's
 * columns. */
int iron__program_col_used(const iron_program *p, int col);

/* Memory of a tile of the program's device: compute or memtile. */
static inline uint32_t iron__tile_mem_of(const iron_program *p, iron__tile t)
{
    return t.row == IRON__ROW_MEMTILE ? p->dev.memtile.memory_bytes
                                      : p->dev.compute.memory_bytes;
}

/* "compute tile (0,2)", "memtile (1,1)", "shim (0,0)" */
const char *iron__tile_name(iron__tile t, char *buf, size_t len);

/* --- services for drivers --------------------------------------------------
 * What a driver needs from the rest of the library, at the program's level,
 * so that it includes no other module's header. */

/* The endpoint of fifo f that handle h of the design is: producer (cons
 * -1) or consumer cons. */
static inline iron__prog_end *iron__program_end(const iron_program *p, int f,
                                                int cons)
{
    IRON__ASSERT(f >= 0 && f < p->nfifos && cons >= -1 &&
                     cons < p->fifos[f].ncons,
                 "handles index their design's fifos and consumers, which "
                 "the program's tables copy one for one");
    return (iron__prog_end *)&p->fifos[f].ends[cons + 1];
}

/* Gives worker w's loaded core body its API table (each instance needs
 * its own call).  IRON_ELOAD if w does not run a core body. */
iron_status iron__program_bind_core(const iron_program *p, int w,
                                    const iron__core_api *api);

/* Stores value into one element of type dt at `at` (a run-time parameter
 * set by the sequence), converted as the dtype's own store does. */
void iron__program_store(iron_dtype dt, void *at, double value);

/* Describes code address pc of this process for a fault message (see
 * compile/srcline.h); 1 when file:line was found.  Thread-safe. */
int iron__program_srcline(const void *pc, char *buf, size_t len);

/* The host side of the kernel runtime shim (what a kernel's printf, exit,
 * failed assert and signal() turn into).  A driver that runs kernels on
 * its own threads installs these hooks; each returns 0 when no kernel of
 * that driver runs on the calling thread, and the shim then does what it
 * does outside any driver (writes to the fd, or lets libc act). */
typedef struct iron__kernel_host {
    /* What the running kernel wrote to fd 1 or 2. */
    int (*write)(int fd, const char *buf, size_t n);
    /* Ends the running kernel's call with this message; does not return
     * when a kernel runs on this thread. */
    int (*stop)(const char *msg);
    /* The AIE API's control words (4 unsigned, rounding and saturation
     * modes first) of the worker running on this thread, its own and
     * seen by no other; iron__program_aie_ctl_thread() when none runs
     * here.  Never NULL.  May be NULL itself: every thread then has its
     * own words. */
    unsigned *(*aie_ctl)(void);
    /* What a timed kernel running on this thread counts
     * (<iron/kernel/iron_count.h>, src/timing/kernel.h): n operations of
     * `kind`, and pipelined regions opening and closing.  Called very
     * often (once per basic block of scalar code); NULL drops them. */
    void (*count)(int kind, unsigned long long n);
    void (*count_region)(int begin, int pipelined);
    /* A core body's call of the kernel in its argument `arg` begins (end
     * 0, n 0, vals NULL) or ends (end 1; vals[i] for i < n the call's
     * i-th argument when an integer, else 0): the driver charges that
     * kernel's declared cost (iron__warg.cycles) instead of the call's
     * counts. */
    void (*count_call)(int end, int arg, int n, const long long *vals);
} iron__kernel_host;

/* Installs the hooks (NULL: none).  Thread-safe; the table must stay
 * valid for the life of the process. */
void iron__program_kernel_host(const iron__kernel_host *h);

/* The calling thread's own control words (4 unsigned), for a kernel that
 * runs on no driver's worker. */
unsigned *iron__program_aie_ctl_thread(void);

#endif
