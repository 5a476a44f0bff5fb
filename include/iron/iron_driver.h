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

/* A placed, compiled design, ready to load.  In-tree drivers see its layout
 * in src/program/program.h; its form is versioned with IRON_DRIVER_ABI. */
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
    unsigned flags IRON__ZERO;          /* IRON_RUN_CHECK | IRON_RUN_PROFILE */
    const char *trace_path IRON__ZERO;  /* write this run's trace here, or
                                           NULL */
    int threads IRON__ZERO;             /* host threads to use; 0 = the
                                           driver's default */
    const char *label IRON__ZERO;       /* what runs, for traces: the jit's
                                           specialization ("vadd (a:
                                           int32[4096], ...; npu2, 8
                                           columns)"), or NULL */
} iron_run_args;

/* iron_run_args.flags */
#define IRON_RUN_CHECK   1u    /* checked mode (IRON_CHECK) */
#define IRON_RUN_PROFILE 2u    /* measure times for the counters */

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

#ifdef __cplusplus
}
#endif

#endif
