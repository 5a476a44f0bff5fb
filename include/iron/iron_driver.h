/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * iron_driver.h - the device driver table: the one header for device
 * backends (the emulator, and later real hardware through XRT).  Users of
 * the jit never need it.
 *
 * A driver serves one or more named devices.  The JIT calls drivers only
 * through src/device/driver.c, so tracing and fault injection hook in there.
 */
#ifndef IRON_IRON_DRIVER_H
#define IRON_IRON_DRIVER_H

#include "iron/iron.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 2 since 0.4: a run's state (the run op's *state) has XRT's numbers
 * (enum iron_run_state); a driver of ABI 1 reported the old ones. */
#define IRON_DRIVER_ABI 2

/* A placed, compiled design, ready to load.  Opaque: a driver reads it
 * through the iron_program_* accessors below ("Reading a program"), which
 * are all an out-of-tree driver needs.  The library owns it; it outlives
 * every instance a driver loads from it. */
typedef struct iron_program iron_program;

/* Per-run inputs. */
typedef struct iron_run_args {
    size_t size IRON__ZERO;             /* sizeof(iron_run_args) */
    int nargs IRON__ZERO;
    void *const *host IRON__ZERO;       /* host pointer of each tensor
                                           argument */
    void *const *handle IRON__ZERO;     /* driver buffer handle of each
                                           argument */
    const size_t *nbytes IRON__ZERO;    /* size of each argument */
    int timeout_ms IRON__ZERO;          /* > 0 */
    int nscalars IRON__ZERO;            /* dispatch-time scalar values,
                                           declared order */
    const int64_t *scalars IRON__ZERO;
    /* Since ABI 1 with a larger size; read only when size covers them. */
    unsigned flags IRON__ZERO;          /* IRON_RUN_CHECK | IRON_RUN_PROFILE |
                                           IRON_RUN_TIMING */
    const char *trace_path IRON__ZERO;  /* write this run's trace here, or
                                           NULL */
    int threads IRON__ZERO;             /* host threads to use; 0 = the
                                           driver's default */
    const char *label IRON__ZERO;       /* what runs, for traces: the jit's
                                           specialization ("vadd (a:
                                           int32[4096], ...; npu2, 8
                                           columns)"), or NULL */
    double clock_mhz IRON__ZERO;        /* IRON_RUN_TIMING: the clock the
                                           model's seconds are at (> 0) */
} iron_run_args;

/* iron_run_args.flags */
#define IRON_RUN_CHECK   1u    /* checked mode (IRON_CHECK) */
#define IRON_RUN_PROFILE 2u    /* measure times for the counters */
#define IRON_RUN_TIMING  4u    /* model the device's time (docs/timing.md) */

typedef struct iron_driver iron_driver;

/*
 * Every op is called from src/device/driver.c with no library lock held.
 * A driver may be called from several threads at once for distinct loaded
 * programs and buffers; one loaded program is never run by two threads at
 * once (the jit serialises its own calls).
 */
struct iron_driver {
    int abi_version IRON__ZERO;   /* IRON_DRIVER_ABI */
    size_t size IRON__ZERO;       /* sizeof(iron_driver) */
    const char *name IRON__ZERO;  /* "emulator" */

    /* Host-visible device memory of nbytes, zeroed.  *host is what the user
     * reads and writes; *handle is the driver's own reference. */
    iron_status (*buf_alloc)(iron_driver *drv, size_t nbytes, void **host,
                             void **handle) IRON__ZERO;
    void (*buf_free)(iron_driver *drv, void *host, void *handle) IRON__ZERO;
    iron_status (*buf_sync)(iron_driver *drv, void *host, void *handle,
                            size_t nbytes, iron_sync_dir dir) IRON__ZERO;

    /* Loads a program onto a device; *loaded is the driver's instance, kept
     * by the jit until unload.  The program outlives the instance. */
    iron_status (*load)(iron_driver *drv, const iron_device_info *dev,
                        const iron_program *prog, void **loaded) IRON__ZERO;
    /* Runs the loaded program's runtime sequence once with these tensors and
     * waits for it.  *state says how it ended; on IRON_RUN_ERROR or
     * IRON_RUN_TIMEOUT the status is not IRON_OK and the message says who
     * waited on what. */
    iron_status (*run)(iron_driver *drv, void *loaded,
                       const iron_run_args *args,
                       enum iron_run_state *state) IRON__ZERO;
    void (*unload)(iron_driver *drv, void *loaded) IRON__ZERO;
    /* The counters of the loaded program's last run, valid until its next
     * run or unload; NULL when the driver keeps none (or the op is NULL). */
    const iron_run_counters *(*counters)(iron_driver *drv,
                                         void *loaded) IRON__ZERO;

    /* Since ABI 1 with a larger size (IRON_DRIVER_SIZE_V1 is the size
     * without them); both or neither.  Caller memory used as a buffer
     * (iron_tensor_wrap): buf_wrap makes host .. host + nbytes usable as
     * buffer memory and gives the driver's reference in *handle, or
     * refuses (a device that cannot reach host memory); buf_unwrap drops
     * that reference, after the last run using it, and must not free the
     * memory.  Without them wrapping is refused.  The host pointer of a
     * run argument or sync may lie inside a buffer, past its start (a
     * view): the driver finds the offset from its handle's own start. */
    iron_status (*buf_wrap)(iron_driver *drv, void *host, size_t nbytes,
                            void **handle) IRON__ZERO;
    void (*buf_unwrap)(iron_driver *drv, void *host, void *handle) IRON__ZERO;
};

/* sizeof(iron_driver) before buf_wrap and buf_unwrap: drivers built then
 * register with this size and cannot wrap memory. */
#define IRON_DRIVER_SIZE_V1 offsetof(iron_driver, buf_wrap)

/* Adds a device served by drv (a copy of *info is kept, with info->driver
 * set to drv->name).  IRON_EINVAL if the name is taken or the table's ABI
 * or size does not match.  Thread-safe. */
IRON_API iron_status iron_driver_register(iron_driver *drv,
                                          const iron_device_info *info);

/* ------------------------------------------------------------------------
 * Reading a program (since 0.5)
 *
 * What load gets is the design as placed: its tensor arguments, FIFOs
 * with their placed endpoints, workers on compute tiles with their
 * arguments, the buffer pools laid out in tile memory, the DMA movers
 * between them, the runtime sequence, run-time parameter buffers and
 * barriers (each worker using one has its own copy on its tile), and the
 * tiles in use.  Every table is indexed from 0, and the indices in one
 * descriptor refer to the others (a pool's fifo, a mover's pools, an
 * op's mover ...).
 *
 * Each accessor fills a descriptor whose size field the caller sets to
 * its sizeof (like iron_device_get_info), so that descriptors can grow.
 * Each returns IRON_EINVAL naming the accessor and the argument when the
 * program or descriptor is NULL, when the size is below the descriptor's,
 * or when an index is outside its table (the message gives the range).
 * Strings and arrays they point to belong to the program and live as long
 * as it does.  All are thread-safe: the program is not changed after it
 * is handed to load.
 * ------------------------------------------------------------------------ */

/* The kernel calling convention.  A compiled kernel has one uniform entry
 * taking its declared arguments in order, each as one value: tensors,
 * FIFO objects and run-time parameter buffers as pointers (p), integers
 * as i, floats as f, a kernel passed to a core body as fp (a worker
 * argument's `kernel`). */
typedef union iron_kernel_value {
    void *p;
    int64_t i;
    double f;
    void (*fp)(void);
} iron_kernel_value;

typedef void (*iron_kernel_entry)(const iron_kernel_value *args);

/* What a core body calls back: its FIFO and barrier arguments are opaque
 * handles the driver passes in (p), and come back here.  acquire returns
 * n object pointers; the others return when done.  A driver binds one
 * table to each worker running a core body (iron_program_bind_core). */
typedef struct iron_core_api {
    void **(*acquire)(void *fifo, int n);
    void (*release)(void *fifo, int n);
    void (*barrier_wait)(void *barrier, int value);
    void (*barrier_release)(void *barrier, int value);
} iron_core_api;

typedef struct iron_program_info {
    size_t size IRON__ZERO;        /* set to sizeof(iron_program_info) */
    int abi_version IRON__ZERO;    /* the IRON_DRIVER_ABI it was built for */
    const iron_device_info *device IRON__ZERO;  /* the device it was placed
                                                   for (compare its name
                                                   with load's dev) */
    int columns IRON__ZERO;        /* columns the launch grants */
    int nargs IRON__ZERO;          /* tensor arguments */
    int nfifos IRON__ZERO;
    int nworkers IRON__ZERO;
    int npools IRON__ZERO;
    int nmovers IRON__ZERO;
    int nops IRON__ZERO;           /* runtime sequence */
    int ngroups IRON__ZERO;        /* task groups 1 .. ngroups */
    int nrtps IRON__ZERO;
    int nbarriers IRON__ZERO;
    int nrtp_copies IRON__ZERO;
    int nbarrier_copies IRON__ZERO;
    int ntiles IRON__ZERO;         /* compute tiles and memtiles in use */
} iron_program_info;

IRON_API iron_status iron_program_get_info(const iron_program *p,
                                           iron_program_info *out);

/* Tensor argument i of the runtime sequence. */
typedef struct iron_program_arg {
    size_t size IRON__ZERO;
    const char *name IRON__ZERO;
    iron_dtype dtype IRON__ZERO;
} iron_program_arg;

IRON_API iron_status iron_program_get_arg(const iron_program *p, int i,
                                          iron_program_arg *out);

/* A FIFO: objects of obj_numel elements (obj_bytes), depth as declared. */
typedef struct iron_program_fifo {
    size_t size IRON__ZERO;
    const char *name IRON__ZERO;
    iron_dtype dtype IRON__ZERO;
    int64_t obj_numel IRON__ZERO;
    size_t obj_bytes IRON__ZERO;
    int depth IRON__ZERO;
    int nconsumers IRON__ZERO;
    int mover IRON__ZERO;          /* the mover feeding its consumers, or
                                      -1 (no DMA: shared memory) */
} iron_program_fifo;

IRON_API iron_status iron_program_get_fifo(const iron_program *p, int i,
                                           iron_program_fifo *out);

/* One endpoint of FIFO f once placed: its producer (cons -1) or
 * consumer cons. */
typedef struct iron_program_endpoint {
    size_t size IRON__ZERO;
    int col IRON__ZERO, row IRON__ZERO;  /* its user's tile; -1, -1 for
                                            the runtime sequence */
    int pool IRON__ZERO;           /* the pool it reads or writes, or -1
                                      (host memory) */
    int slot IRON__ZERO;           /* its reader or writer index there */
    int mover IRON__ZERO;          /* runtime endpoints: their mover, -1 */
    int buffers IRON__ZERO;        /* buffers placement gave it (0: none) */
} iron_program_endpoint;

IRON_API iron_status iron_program_get_endpoint(const iron_program *p, int f,
                                               int cons,
                                               iron_program_endpoint *out);

/* Worker i: a kernel called in a loop (standard) or a core body. */
typedef struct iron_program_worker {
    size_t size IRON__ZERO;
    const char *name IRON__ZERO;
    int col IRON__ZERO, row IRON__ZERO;  /* its compute tile */
    int is_core IRON__ZERO;        /* 1: a core body, called once with its
                                      arguments and running until it
                                      returns; 0: the standard loop */
    const char *kernel_entry IRON__ZERO;  /* the kernel's C name */
    int64_t iterations IRON__ZERO; /* standard loop: calls per run (0:
                                      until the sequence ends) */
    uint32_t stack_bytes IRON__ZERO;  /* its core's stack (0: the
                                         device's default) */
    int nargs IRON__ZERO;
    iron_kernel_entry entry IRON__ZERO;  /* this worker's own instance of
                                            its kernel (each worker has its
                                            own static data), or NULL when
                                            the kernels are not loaded */
} iron_program_worker;

IRON_API iron_status iron_program_get_worker(const iron_program *p, int i,
                                             iron_program_worker *out);

/* Argument a of worker w, as the kernel receives it. */
typedef struct iron_program_worker_arg {
    size_t size IRON__ZERO;
    iron_arg_kind kind IRON__ZERO;
    iron_dtype dtype IRON__ZERO;   /* the kernel's declared type for it */
    int64_t i IRON__ZERO;          /* IRON_ARG_INT */
    double f IRON__ZERO;           /* IRON_ARG_FLOAT */
    int pool IRON__ZERO;           /* IRON_ARG_HANDLE: the pool, -1 else */
    int slot IRON__ZERO;           /* ... its reader or writer index */
    int is_writer IRON__ZERO;      /* ... 1 for a producer handle */
    int max_acquire IRON__ZERO;    /* ... objects it holds at once */
    int copy IRON__ZERO;           /* IRON_ARG_RTP / _BARRIER: its copy
                                      (iron_program_get_rtp_copy, _barrier_
                                      copy), -1 else */
    void (*kernel)(void) IRON__ZERO;  /* IRON_ARG_KERNEL: the raw entry a
                                         core body calls */
    const char *label IRON__ZERO;  /* "fifo 'a' (consumer)", for messages */
} iron_program_worker_arg;

IRON_API iron_status iron_program_get_worker_arg(const iron_program *p,
                                                 int w, int a,
                                                 iron_program_worker_arg *out);

/* A ring of depth object buffers in one tile's memory.  Writers take free
 * buffers and readers filled ones, in order; a buffer is filled when every
 * writer has released it and free when every reader has. */
typedef struct iron_program_pool {
    size_t size IRON__ZERO;
    int col IRON__ZERO, row IRON__ZERO;  /* its tile */
    int tile IRON__ZERO;           /* that tile's index (iron_program_get_
                                      tile) */
    int fifo IRON__ZERO;           /* whose objects it holds */
    int depth IRON__ZERO;
    size_t obj_bytes IRON__ZERO;
    const uint32_t *addr IRON__ZERO;  /* depth byte offsets in the tile's
                                         memory */
    int nwriters IRON__ZERO, nreaders IRON__ZERO;
    const char *label IRON__ZERO;  /* "fifo 'a' (consumer)" */
} iron_program_pool;

IRON_API iron_status iron_program_get_pool(const iron_program *p, int i,
                                           iron_program_pool *out);

/* One side of a DMA mover: a pool, or the host (pool -1: a runtime fill
 * or drain, whose tensor and pattern come with the op). */
typedef struct iron_program_dma_end {
    size_t size IRON__ZERO;
    int pool IRON__ZERO;
    int slot IRON__ZERO;           /* reader index (source) or writer index
                                      (destination) in the pool */
    int64_t offset IRON__ZERO;     /* elements into the pool's object */
    const iron_tap *dims IRON__ZERO;  /* the layout transform, or NULL: in
                                         order */
    int pieces IRON__ZERO;         /* >1: this many objects pass through
                                      each of the pool's buffers */
} iron_program_dma_end;

/* A DMA path moving one FIFO's objects from its source to every
 * destination (broadcast).  Its ends: iron_program_get_mover_end with end
 * -1 (the source) or 0 .. ndst - 1. */
typedef struct iron_program_mover {
    size_t size IRON__ZERO;
    int fifo IRON__ZERO;
    int ndst IRON__ZERO;
    int shim_col IRON__ZERO;       /* the shim used when an end is the
                                      host, or -1 */
    int shim_channel IRON__ZERO;
    const char *label IRON__ZERO;  /* "fifo 'a': shim (0,0) -> tile (0,2)" */
} iron_program_mover;

IRON_API iron_status iron_program_get_mover(const iron_program *p, int i,
                                            iron_program_mover *out);
IRON_API iron_status iron_program_get_mover_end(const iron_program *p, int m,
                                                int end,
                                                iron_program_dma_end *out);

/* The runtime sequence's ops, run in order by the driver's run. */
typedef enum iron_program_op_kind {
    IRON_PROGRAM_OP_FILL,          /* host tensor arg -> fifo, by tap */
    IRON_PROGRAM_OP_DRAIN,         /* fifo -> host tensor arg, by tap */
    IRON_PROGRAM_OP_SET_RTP,       /* rtp[index] = value in every copy */
    IRON_PROGRAM_OP_SET_BARRIER,   /* barrier = value in every copy */
    IRON_PROGRAM_OP_GROUP_START,   /* task group `group` opens */
    IRON_PROGRAM_OP_GROUP_FINISH   /* waits for group `group`'s awaited
                                      drains, then frees its tasks */
} iron_program_op_kind;

typedef struct iron_program_op {
    size_t size IRON__ZERO;
    iron_program_op_kind kind IRON__ZERO;
    int arg IRON__ZERO;            /* FILL, DRAIN: the tensor argument */
    iron_tap tap IRON__ZERO;       /* FILL, DRAIN: elements of the tensor,
                                      in order */
    int wait IRON__ZERO;           /* DRAIN: awaited */
    int group IRON__ZERO;          /* its task group (0: the sequence's
                                      own); GROUP_*: the group */
    int scalar IRON__ZERO;         /* the dispatch-time scalar that gives
                                      SET_RTP's value or FILL/DRAIN's
                                      offset, or -1 */
    int64_t index IRON__ZERO;      /* SET_RTP: the element */
    double value IRON__ZERO;       /* SET_RTP, SET_BARRIER */
    int fifo IRON__ZERO;           /* FILL, DRAIN, else -1 */
    int rtp IRON__ZERO;            /* SET_RTP, else -1 */
    int barrier IRON__ZERO;        /* SET_BARRIER, else -1 */
    int mover IRON__ZERO;          /* FILL, DRAIN: the mover serving it */
    int shim_col IRON__ZERO;       /* FILL, DRAIN: its shim column */
} iron_program_op;

IRON_API iron_status iron_program_get_op(const iron_program *p, int i,
                                         iron_program_op *out);

/* A run-time parameter buffer: count elements, initial (count elements)
 * at load or zeros when NULL. */
typedef struct iron_program_rtp {
    size_t size IRON__ZERO;
    const char *name IRON__ZERO;
    iron_dtype dtype IRON__ZERO;
    int64_t count IRON__ZERO;
    const void *initial IRON__ZERO;
} iron_program_rtp;

IRON_API iron_status iron_program_get_rtp(const iron_program *p, int i,
                                          iron_program_rtp *out);

/* A barrier: a lock whose value is `initial` at load (0 .. 63). */
typedef struct iron_program_barrier {
    size_t size IRON__ZERO;
    const char *name IRON__ZERO;
    int initial IRON__ZERO;
} iron_program_barrier;

IRON_API iron_status iron_program_get_barrier(const iron_program *p, int i,
                                              iron_program_barrier *out);

/* A worker's own copy of a run-time parameter buffer (at addr in the
 * memory of its tile) or of a barrier, and the argument it is. */
typedef struct iron_program_copy {
    size_t size IRON__ZERO;
    int of IRON__ZERO;             /* the rtp or barrier */
    int worker IRON__ZERO, arg IRON__ZERO;
    int tile IRON__ZERO;           /* the worker's tile (iron_program_get_
                                      tile) */
    uint32_t addr IRON__ZERO;      /* rtp copies: byte offset there */
} iron_program_copy;

IRON_API iron_status iron_program_get_rtp_copy(const iron_program *p, int i,
                                               iron_program_copy *out);
IRON_API iron_status iron_program_get_barrier_copy(const iron_program *p,
                                                   int i,
                                                   iron_program_copy *out);

/* A compute tile or memtile in use, and how much of its memory: buffers,
 * the worker's stack and its kernels' static data (mem_used bytes from
 * address 0; the rest is free). */
typedef struct iron_program_tile {
    size_t size IRON__ZERO;
    int col IRON__ZERO, row IRON__ZERO;
    uint32_t mem_used IRON__ZERO;
    uint32_t memory_bytes IRON__ZERO;  /* the tile's whole data memory */
    int worker IRON__ZERO;         /* the worker on it, or -1 */
} iron_program_tile;

IRON_API iron_status iron_program_get_tile(const iron_program *p, int i,
                                           iron_program_tile *out);

/* Hands worker w's loaded core body the table it calls back through
 * (once per loaded instance, before it runs).  IRON_EINVAL for a NULL
 * program or api or a w out of range; IRON_ELOAD when w does not run a
 * core body or its kernel is not loaded. */
IRON_API iron_status iron_program_bind_core(const iron_program *p, int w,
                                            const iron_core_api *api);

#ifdef __cplusplus
}
#endif

#endif
