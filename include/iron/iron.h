/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * iron.h - the one public header of libiron: IRON's jit for C, with an
 * emulated NPU tile array as the default device.  If a name is not declared
 * here, it is not API.
 *
 * Conventions (they hold for every function below unless its comment says
 * otherwise):
 *   - Names are noun-first: iron_<object>_<verb>, the object one of
 *     status, dtype, bf16, device, tensor, design, fifo, handle, kernel,
 *     arg, worker, body, rtp, barrier, tap, tiler2d, rt (the runtime
 *     sequence), param, scalar, jit, spec, run, log, output, cache, algo,
 *     mlir.  Macros are upper-case (IRON_SHAPE, IRON_CALL); the helpers
 *     that build values (iron_arg_int, iron_param_str) are exported
 *     functions like the others, so that FFI callers can use them.
 *     iron_version, iron_last_error and iron_free belong to no object.
 *     A name ending in _at takes an index (iron_device_at), nothing else.
 *   - Arguments: the object acted upon comes first; output parameters come
 *     last.
 *   - Status: functions that can fail return an iron_status.  On failure a
 *     message naming the argument, tile or FIFO and giving expected vs got
 *     is available from iron_last_error() on the same thread; after a
 *     successful call iron_last_error() is "".  Outputs are set to NULL /
 *     0 on failure, and nothing is half-written (files appear whole or not
 *     at all).
 *   - Getters: iron_<object>_<property>(obj) returns a value and cannot
 *     fail (a NULL object gives 0, NULL or the documented neutral value);
 *     iron_<object>_get_<property>(obj, ..., out) can fail or fills a
 *     caller's struct, and returns a status.  Setters are
 *     iron_<object>_set_<property>(obj, value) and return a status.
 *   - Ownership:
 *       * constructors (iron_<object>_new, _create, _start, the tensor
 *         factories, views, _load_*, _from_*) hand the caller an object
 *         it frees with the matching iron_<object>_free; destructors
 *         accept NULL;
 *       * objects a design function builds (fifos, handles, kernels,
 *         workers, rtps, barriers, task groups) belong to the design and
 *         live until the design function returns -- never free them;
 *       * text the library produces for the caller (dumps, printouts,
 *         descriptions, paths) is returned in a char ** freed with
 *         iron_free();
 *       * strings passed in are copied; strings returned by accessors
 *         (names, signatures, iron_design_param_str, iron_run_error) are
 *         borrowed: valid as long as the object they came from, or, for
 *         callbacks (cache-list entries, log and output lines), until the
 *         callback returns.
 *   - Versioned structs: a struct passed in begins with size_t size, set
 *     to sizeof by the caller (a designated initializer zeroes the rest).
 *     Any size at least that of the struct's first version is accepted:
 *     fields past the caller's size read as 0, and a struct that grew is
 *     still served to programs built against an older header.
 *   - Running a jit: iron_jit_launch (synchronous: returns when the run has
 *     finished), iron_jit_start + iron_run_wait (asynchronous; launch is
 *     start + wait), iron_spec_launch / iron_spec_start (a specialization
 *     built ahead, the fastest path), and the shorthands IRON_CALL and
 *     IRON_CALL_WITH.
 *   - Threads, object by object:
 *       iron_jit      thread-safe: any number of threads may call one jit
 *                     at once (launch, start, specialize, dump, bind,
 *                     stats).  Builds of one jit run one at a time; a call
 *                     of a built specialization never waits for a build.
 *                     Calls of one specialization take turns (its loaded
 *                     instance is one emulated array).  iron_jit_free must
 *                     not overlap any other use of the jit; it waits for
 *                     the jit's runs still in flight.
 *       iron_spec     thread-safe to run from several threads (they take
 *                     turns); valid until its jit is freed.
 *       iron_tensor   a tensor may be an input of concurrent calls; one that
 *                     a call writes must not be read or written elsewhere
 *                     meanwhile (views of one memory count as one
 *                     tensor where they overlap).  iron_tensor_free waits
 *                     for the calls that use the tensor to finish.
 *       iron_run      any thread may wait for a run or read its state;
 *                     iron_run_free must not overlap another use of it.
 *       iron_design   only on the thread running the design function.
 *       devices       the registry is thread-safe; scoped devices
 *                     (iron_device_push) belong to the calling thread.
 *       handlers      iron_log_set_handler / iron_output_set_handler swap
 *                     (function, context) as one pair; once they return,
 *                     no thread is still inside the old handler.
 *       errors        iron_last_error() is per thread.
 *     Pure functions (access patterns, dtypes, tilers) are thread-safe.
 *   - C++: the header is also C++ (C++11 on; tested as C++17 and C++20,
 *     docs/cpp.md): the same declarations, macros and helpers, used with
 *     the same spellings (the section "C++" below says how each macro
 *     does it).  C++ itself asks for casts from void * (iron_tensor_data,
 *     the `user` of a design function) and for designated initializers
 *     in declaration order.
 *   - fork(): the child may use the library (the emulator's thread pool,
 *     the launcher threads and the watchdog start afresh), provided no
 *     other thread of the parent was inside a call of the same jit at the
 *     moment of the fork.  Runs the parent had in flight belong to the
 *     parent: in the child they are ABORT (iron_run_wait says so).
 */
#ifndef IRON_IRON_H
#define IRON_IRON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
#include <initializer_list>
#endif

/* ------------------------------------------------------------------------
 * C++
 *
 * Where a C spelling is not C++, the C++ one below has the same meaning
 * and the same name, so a program reads alike in both languages:
 *   - IRON_ARGS, IRON_PARAMS, IRON_SCALARS and IRON_TENSORS keep their
 *     array in a std::initializer_list, which lives to the end of the full
 *     expression (the call they are arguments of; C's compound literal
 *     lives to the end of the block).  The count is taken without
 *     evaluating the elements, as C's sizeof does (IRON__LIST);
 *   - IRON_SHAPE is a function template: each dimension is converted to
 *     int64_t as C converts it, and 1 to IRON_MAX_DIMS of them are
 *     checked at compile time;
 *   - from C++14 on, every field of the versioned structs (those that begin
 *     with size_t size, and the driver table) has the default value zero
 *     (IRON__ZERO), so that a designated initializer that names some
 *     fields is as quiet under g++ -Wextra as in C (g++ warns of each
 *     field left out otherwise) and a declared struct starts zeroed.  The
 *     layout is C's and the structs stay aggregates; clear one with
 *     `= {}`, not memset (g++'s -Wclass-memaccess warns of that).
 * ------------------------------------------------------------------------ */
#if defined(__cplusplus) && __cplusplus >= 201402L
#define IRON__ZERO {}
#else
#define IRON__ZERO
#endif

#ifdef __cplusplus
extern "C++" {
/* T[] of a braced list is an array as long as the list: its sizeof counts
 * the elements without evaluating them. */
template <class T> using iron__array = T[];
}
#define IRON__LIST(T, ...)                                                    \
    static_cast<int>(sizeof(iron__array<T>{ __VA_ARGS__ }) / sizeof(T)),      \
        std::initializer_list<T>{ __VA_ARGS__ }.begin()
#endif

#ifdef __cplusplus
extern "C" {
#endif

#if defined(IRON_BUILDING) && defined(__GNUC__)
#define IRON_API __attribute__((visibility("default")))
#else
#define IRON_API
#endif

/* ------------------------------------------------------------------------
 * Version
 * ------------------------------------------------------------------------ */

#define IRON_VERSION_MAJOR 0
#define IRON_VERSION_MINOR 4
#define IRON_VERSION_PATCH 0
#define IRON_VERSION_STRING "0.4.0"

/* The library's version as "MAJOR.MINOR.PATCH"; may differ from the header's
 * IRON_VERSION_STRING when linked against another build.  Thread-safe. */
IRON_API const char *iron_version(void);

/* ------------------------------------------------------------------------
 * Status codes and errors
 * ------------------------------------------------------------------------ */

/* One table yields the enum, iron_status_name() and iron_status_message(). */
#define IRON_STATUS_MAP(XX)                                                   \
    XX(OK,        0, "success")                                               \
    XX(EINVAL,    1, "invalid argument")                                      \
    XX(ENOMEM,    2, "out of memory")                                         \
    XX(EDTYPE,    3, "wrong or unsupported dtype")                            \
    XX(ESHAPE,    4, "wrong or unsupported shape")                            \
    XX(EDEVICE,   5, "unknown or unusable device")                            \
    XX(EPARAM,    6, "bad compile-time parameter")                            \
    XX(EARG,      7, "call arguments do not match the design")                \
    XX(EDESIGN,   8, "malformed design")                                      \
    XX(EBOUNDS,   9, "access pattern goes out of bounds")                     \
    XX(ERESOURCE, 10, "design does not fit the device")                       \
    XX(ECOMPILE,  11, "kernel compilation failed")                            \
    XX(ELOAD,     12, "loading a compiled object failed")                     \
    XX(EDEADLOCK, 13, "the design stopped making progress")                   \
    XX(ETIMEOUT,  14, "the run did not finish in time")                       \
    XX(ERUNTIME,  15, "run-time error on the device")                         \
    XX(EIO,       16, "input/output error")                                   \
    XX(ESTATE,    17, "call not valid in this state")                         \
    XX(ENOTSUP,   18, "not supported")                                      \
    XX(EKERNEL,   19, "a kernel or core body faulted")                      \
    XX(EPENDING,  20, "the run is still going on")                        \
    XX(ESYNTAX,   21, "the text does not parse")

typedef enum iron_status {
#define IRON__STATUS_ENUM(name, code, text) IRON_##name = code,
    IRON_STATUS_MAP(IRON__STATUS_ENUM)
#undef IRON__STATUS_ENUM
    IRON_STATUS_COUNT_
} iron_status;

/* "IRON_EINVAL" for IRON_EINVAL; "IRON_UNKNOWN" for values outside the
 * table.  Thread-safe; the string is static. */
IRON_API const char *iron_status_name(iron_status s);

/* The table's one-line description of a status.  Thread-safe; static. */
IRON_API const char *iron_status_message(iron_status s);

/* The message of the last failed call on this thread; "" after a call that
 * returned IRON_OK (and before any call).  Owned by the library, valid
 * until the next iron_* call on this thread.  These leave it untouched:
 * iron_last_error itself, the name and description functions
 * (iron_status_name, iron_status_message, iron_run_state_name,
 * iron_dtype_name, iron_body_type_name, iron_arith_name, iron_cmp_name,
 * iron_version), the destructors (iron_tensor_free,
 * iron_jit_free, iron_run_free, iron_mlir_free, iron_free), and
 * iron_device_pop when it succeeds -- so the message of the last call in
 * an IRON_WITH_DEVICE block is still there after the block. */
IRON_API const char *iron_last_error(void);

/* ------------------------------------------------------------------------
 * Element types
 * ------------------------------------------------------------------------ */

typedef enum iron_dtype {
    IRON_INT8,
    IRON_UINT8,
    IRON_INT16,
    IRON_UINT16,
    IRON_INT32,
    IRON_UINT32,
    IRON_INT64,
    IRON_UINT64,
    IRON_FLOAT32,
    IRON_FLOAT64,
    IRON_BFLOAT16,
    IRON_DTYPE_COUNT_
} iron_dtype;

/* "int32", "bfloat16", ...; NULL for values outside the enum. */
IRON_API const char *iron_dtype_name(iron_dtype dt);

/* Size of one element in bytes; 0 for values outside the enum. */
IRON_API size_t iron_dtype_size(iron_dtype dt);

/* Parses a dtype name ("int32", also "i32", "f32", "bf16" ...). */
IRON_API iron_status iron_dtype_parse(const char *name, iron_dtype *out);

/* bfloat16 is stored as the upper 16 bits of an IEEE float32.  Conversion
 * to bfloat16 rounds to nearest even; NaN stays NaN. */
#ifndef IRON_BF16_DEFINED   /* iron_kernel.h has the same typedef */
#define IRON_BF16_DEFINED
typedef uint16_t iron_bf16;
#endif
IRON_API iron_bf16 iron_bf16_from_float(float f);
IRON_API float iron_bf16_to_float(iron_bf16 b);
/* A double to bfloat16 rounded once, to nearest even (as tensors store
 * doubles: iron_tensor_full, iron_tensor_set_element); not the same as
 * iron_bf16_from_float((float)d), whose two roundings can land on a tie
 * the double was above or below.  Beyond the largest bfloat16's halfway
 * point to 2^128 it gives the infinity of d's sign; NaN stays NaN.
 * Thread-safe. */
IRON_API iron_bf16 iron_bf16_from_double(double d);

/* ------------------------------------------------------------------------
 * Shapes
 * ------------------------------------------------------------------------ */

#define IRON_MAX_DIMS 6

typedef struct iron_shape {
    int ndim;                     /* 1 .. IRON_MAX_DIMS */
    int64_t dims[IRON_MAX_DIMS];  /* each >= 1 */
} iron_shape;

/* IRON_SHAPE(64, 32) is the 2-D shape 64 x 32. */
#ifndef __cplusplus
#define IRON_SHAPE(...)                                                       \
    ((iron_shape){ .ndim = (int)(sizeof((int64_t[]){ __VA_ARGS__ }) /         \
                                 sizeof(int64_t)),                            \
                   .dims = { __VA_ARGS__ } })
#else
extern "C++" {
template <class... D>
static inline iron_shape iron__shape(D... dims)
{
    static_assert(sizeof...(D) >= 1 && sizeof...(D) <= IRON_MAX_DIMS,
                  "IRON_SHAPE takes 1 to IRON_MAX_DIMS dimensions");
    iron_shape s = { static_cast<int>(sizeof...(D)),
                     { static_cast<int64_t>(dims)... } };
    return s;
}
}
#define IRON_SHAPE(...) iron__shape(__VA_ARGS__)
#endif

/* ------------------------------------------------------------------------
 * Devices
 *
 * Devices are owned by the library and live until the process exits; the
 * pointers below are never freed by the user.  Names: npu1, npu1_1col ..
 * npu1_3col (AIE2, Phoenix), npu2, npu2_1col .. npu2_7col (AIE2P, Strix).
 * ------------------------------------------------------------------------ */

typedef struct iron_device iron_device;

/* Resources of one kind of tile. */
typedef struct iron_tile_info {
    uint32_t memory_bytes;  /* data memory; 0 for shim tiles (host memory) */
    uint32_t stack_bytes;   /* default core stack, inside memory_bytes */
    int locks;
    int buffer_descriptors;
    int dma_in;             /* S2MM channels: streams into the tile */
    int dma_out;            /* MM2S channels: streams out of the tile */
} iron_tile_info;

typedef struct iron_device_info {
    size_t size IRON__ZERO;         /* set to sizeof(iron_device_info) by the
                                       caller */
    const char *name IRON__ZERO;    /* "npu2_4col" */
    const char *arch IRON__ZERO;    /* "aie2" or "aie2p" */
    const char *family IRON__ZERO;  /* "npu1" or "npu2" */
    const char *driver IRON__ZERO;  /* the driver's name, "emulator" */
    int columns IRON__ZERO;
    int rows IRON__ZERO;            /* shim + memtile + compute rows */
    int compute_rows IRON__ZERO;    /* compute tiles per column */
    int compute_tiles IRON__ZERO;   /* columns * compute_rows */
    int lock_max_value IRON__ZERO;  /* a lock counts 0 .. lock_max_value */
    iron_tile_info compute IRON__ZERO, memtile IRON__ZERO, shim IRON__ZERO;
} iron_device_info;

/* Looks a device up by name.  Thread-safe.  IRON_EDEVICE for unknown names;
 * the message lists the known ones. */
IRON_API iron_status iron_device_get(const char *name, iron_device **out);

/* Number of devices known, and the i-th (0-based; NULL when out of range).
 * Thread-safe. */
IRON_API int iron_device_count(void);
IRON_API iron_device *iron_device_at(int i);

IRON_API const char *iron_device_name(const iron_device *dev);

/* Fills *info (info->size must be set).  Thread-safe. */
IRON_API iron_status iron_device_get_info(const iron_device *dev,
                                          iron_device_info *info);

/* The process-wide default device.  Thread-safe.  set: IRON_EDEVICE for an
 * unknown name (the default is then unchanged); NULL clears the default.
 * get: the device set, else $IRON_DEVICE's, else npu2 -- scopes aside;
 * NULL when $IRON_DEVICE names an unknown device. */
IRON_API iron_status iron_device_set_default(const char *name);
IRON_API iron_device *iron_device_default(void);

/* A scoped device for the calling thread only.  push always pushes, so that
 * every push can be paired with a pop: when the name is unknown it returns
 * IRON_EDEVICE and the scope is marked bad, and calls made inside it fail
 * with a message naming the bad device instead of silently running
 * elsewhere.  Scopes nest up to 16 deep.  pop: IRON_ESTATE without a
 * push; a pop that succeeds leaves iron_last_error() as it was. */
IRON_API iron_status iron_device_push(const char *name);
IRON_API iron_status iron_device_pop(void);

/* The device calls on this thread use: the innermost scoped device, else the
 * default set with iron_device_set_default(), else $IRON_DEVICE, else npu2.
 * Fails (IRON_EDEVICE) when the scope is bad or $IRON_DEVICE is unknown. */
IRON_API iron_status iron_device_get_current(iron_device **out);

/* The C form of `with iron.device("npu1"):` -- the block runs with the device
 * pushed and pops it on the way out (do not jump out with goto/return).
 * Blocks nest; the loop variable is named per line so that nesting does not
 * shadow it. */
#define IRON__CAT2(a, b) a##b
#define IRON__CAT(a, b) IRON__CAT2(a, b)
#define IRON__WITH_VAR IRON__CAT(iron__with_once_, __LINE__)
#define IRON_WITH_DEVICE(name)                                                \
    for (int IRON__WITH_VAR = (iron_device_push(name), 1); IRON__WITH_VAR;    \
         IRON__WITH_VAR = (iron_device_pop(), 0))

/* ------------------------------------------------------------------------
 * Tensors
 *
 * A tensor is host-visible memory allocated through the current device's
 * driver, or the caller's memory wrapped for it (iron_tensor_wrap).  Data
 * of the factories is row-major and contiguous.
 * ------------------------------------------------------------------------ */

typedef struct iron_tensor iron_tensor;

/* Element contents undefined (zero on the emulator). */
IRON_API iron_status iron_tensor_empty(iron_dtype dt,
                                       iron_shape shape, iron_tensor **out);
IRON_API iron_status iron_tensor_zeros(iron_dtype dt,
                                       iron_shape shape, iron_tensor **out);
IRON_API iron_status iron_tensor_ones(iron_dtype dt,
                                      iron_shape shape, iron_tensor **out);
/* Every element is value converted to dt: integers truncate toward zero and
 * saturate (NaN gives 0); float32 and bfloat16 round to nearest even. */
IRON_API iron_status iron_tensor_full(iron_dtype dt, iron_shape shape,
                                      double value, iron_tensor **out);
/* numpy's np.arange(start, stop, step): a 1-D tensor of
 * ceil((stop - start) / step) elements, element i being start + i * step
 * converted to dt as iron_tensor_full converts (0, 10, 3 gives 0 3 6 9;
 * 5, 0, -2 gives 5 3 1).  Another shape: iron_tensor_reshape of it.
 * IRON_EINVAL for a step of 0 or a start, stop or step that is not
 * finite; IRON_ESHAPE for an empty range (a tensor has at least one
 * element) or more than 2^63-1 elements; IRON_EDTYPE for an unknown dt. */
IRON_API iron_status iron_tensor_arange(iron_dtype dt, double start,
                                        double stop, double step,
                                        iron_tensor **out);
/* Uniform in [0, 1) for float dtypes (IRON_EDTYPE for integers).  The same
 * seed gives the same data on every machine (xoshiro256** seeded by
 * splitmix64); each value is k * 2^-b with b the dtype's significand bits
 * (53, 24, 8), so it is exact and never rounds up to 1. */
IRON_API iron_status iron_tensor_rand(iron_dtype dt, iron_shape shape,
                                      uint64_t seed, iron_tensor **out);
/* Uniform integers in [low, high), without modulo bias; low < high, and
 * low and high - 1 must fit dt (so uint8 takes [0, 256)).  Float dtypes
 * take ranges whose integers they hold exactly (|v| <= 2^24 for float32,
 * 256 for bfloat16).  IRON_EINVAL otherwise, naming the values. */
IRON_API iron_status iron_tensor_randint(iron_dtype dt, iron_shape shape,
                                         int64_t low, int64_t high,
                                         uint64_t seed, iron_tensor **out);

/* Frees t.  Waits first for the calls using t to finish.  The memory goes
 * back when the last tensor sharing it (views, reshapes, DLPack exports)
 * is freed, and wrapped memory's release callback runs then. */
IRON_API void iron_tensor_free(iron_tensor *t);

/* Wrapping caller memory.
 *
 * Called exactly once when wrapped memory is no longer used: by the
 * iron_tensor_free that drops the last tensor on it (a wrapped tensor's
 * views and DLPack exports share it), after every call using those
 * tensors has finished.  data is the pointer given to iron_tensor_wrap;
 * the callback may free it.  It runs on the freeing thread, with no
 * library lock held. */
typedef void (*iron_tensor_release_fn)(void *ctx, void *data);

/* The alignment iron_tensor_wrap recommends (and the library's own
 * tensors have): whole cache lines, and the 16-byte alignment the
 * emulator's streaming stores need for large outputs.  Only the dtype's
 * size is required. */
#define IRON_TENSOR_ALIGN 64

/* A tensor of dt x shape over the caller's memory at data, without
 * copying: the device sees and writes data itself.  Row-major and
 * contiguous, so element i is at data + i * iron_dtype_size(dt).
 *   - data must be aligned to iron_dtype_size(dt) (what typed access to
 *     the elements needs; the emulator's DMA needs no more).  Misaligned
 *     data is IRON_EINVAL naming the address and the alignment; prefer
 *     IRON_TENSOR_ALIGN for speed.
 *   - bytes (the memory's size) must be at least numel x the dtype's size
 *     (more is accepted and ignored); smaller is IRON_ESHAPE giving both.
 *   - The current device's driver must accept host memory (its buf_wrap
 *     op); the emulator does; a driver without it gives IRON_ENOTSUP
 *     naming the driver.
 *   - Lifetime: the caller keeps data alive and does not free it until
 *     release runs (or, with release NULL, until every tensor on it is
 *     freed).  release is not called when the wrap fails: the memory is
 *     still the caller's then. */
IRON_API iron_status iron_tensor_wrap(void *data, size_t bytes, iron_dtype dt,
                                      iron_shape shape,
                                      iron_tensor_release_fn release,
                                      void *release_ctx, iron_tensor **out);
/* 1 when t wraps caller memory (iron_tensor_wrap, iron_tensor_from_dlpack
 * or a view of such a tensor); 0 otherwise and for NULL. */
IRON_API int iron_tensor_is_wrapped(const iron_tensor *t);

/* Host pointer to the elements (a view's element 0: its base's data +
 * its offset); NULL for NULL.  The other accessors return
 * IRON_DTYPE_COUNT_, ndim 0, 0 or NULL for a NULL tensor. */
IRON_API void *iron_tensor_data(iron_tensor *t);
IRON_API iron_dtype iron_tensor_dtype(const iron_tensor *t);
IRON_API iron_shape iron_tensor_shape(const iron_tensor *t);
IRON_API int64_t iron_tensor_numel(const iron_tensor *t);
IRON_API size_t iron_tensor_nbytes(const iron_tensor *t);
/* The device whose driver holds the memory. */
IRON_API iron_device *iron_tensor_device(const iron_tensor *t);

/* Element i (row-major, through a view's strides) as a double, and set
 * from a double (converted as in iron_tensor_full).  IRON_EBOUNDS when i
 * is outside 0 .. numel-1.  For tests and examples, not for speed. */
IRON_API iron_status iron_tensor_get_element(const iron_tensor *t, int64_t i,
                                             double *out);
IRON_API iron_status iron_tensor_set_element(iron_tensor *t, int64_t i,
                                             double v);

/* "int32[16, 4]" in *out (free with iron_free). */
IRON_API iron_status iron_tensor_describe(const iron_tensor *t, char **out);

/* Views: tensors sharing another tensor's memory.
 *
 * A view, reshape or slice shares the memory of the tensor it came from
 * (writes through one show in the other) and keeps that memory alive: the
 * tensors may be freed in any order, and the memory goes (with a wrapped
 * tensor's release callback) when the last of them is freed.  Each must
 * be freed with iron_tensor_free.  The element accessors, copies and
 * printing follow a view's strides; a jit call takes only contiguous
 * tensors (IRON_EARG naming the argument otherwise: pass iron_tensor_copy
 * or iron_tensor_contiguous of it). */

/* The same elements in another shape of the same element count: one dim
 * may be -1, inferred from the others as in numpy.  t must be contiguous
 * (IRON_ESHAPE otherwise, as for a count that differs). */
IRON_API iron_status iron_tensor_reshape(iron_tensor *t, iron_shape shape,
                                         iron_tensor **out);
/* A view of shape whose element (i0, i1, ...) is element offset + i0 *
 * strides[0] + i1 * strides[1] + ... counted from t's first element, in
 * elements of t's dtype.  strides NULL means row-major for shape; strides
 * may be negative or zero.  Every element the view reaches must lie in
 * t's memory (IRON_EBOUNDS naming the element and the range otherwise).
 * Strides are absolute: a view of a view does not compose them with its
 * base's (read them with iron_tensor_strides). */
IRON_API iron_status iron_tensor_view(iron_tensor *t, int64_t offset,
                                      iron_shape shape,
                                      const int64_t *strides,
                                      iron_tensor **out);
/* numpy's t[..., start:stop:step, ...] along dim: 0 <= start < stop <=
 * dims[dim], step >= 1 (IRON_EBOUNDS otherwise). */
IRON_API iron_status iron_tensor_slice(iron_tensor *t, int dim,
                                       int64_t start, int64_t stop,
                                       int64_t step, iron_tensor **out);
/* 1 when t's elements lie in row-major order without gaps (the strides
 * are the row-major ones; dims of extent 1 may have any); 0 for NULL. */
IRON_API int iron_tensor_is_contiguous(const iron_tensor *t);
/* t's strides in elements, one per dim (shape.ndim of them); NULL for
 * NULL.  Borrowed: valid as long as t. */
IRON_API const int64_t *iron_tensor_strides(const iron_tensor *t);

/* Tensors like t: its dtype and shape, contiguous, on its device.  empty
 * and zeros give zeros (the driver contract), ones ones, full value
 * converted as in iron_tensor_full. */
IRON_API iron_status iron_tensor_empty_like(const iron_tensor *t,
                                            iron_tensor **out);
IRON_API iron_status iron_tensor_zeros_like(const iron_tensor *t,
                                            iron_tensor **out);
IRON_API iron_status iron_tensor_ones_like(const iron_tensor *t,
                                           iron_tensor **out);
IRON_API iron_status iron_tensor_full_like(const iron_tensor *t,
                                           double value, iron_tensor **out);

/* Copies between t and the caller's row-major contiguous memory: bytes
 * must be exactly iron_tensor_nbytes(t) (IRON_ESHAPE giving both
 * otherwise).  A strided view is filled or read in row-major order. */
IRON_API iron_status iron_tensor_copy_from(iron_tensor *t, const void *src,
                                           size_t bytes);
IRON_API iron_status iron_tensor_copy_to(const iron_tensor *t, void *dst,
                                         size_t bytes);
/* A new contiguous tensor with src's elements (a clone; from a strided
 * view, its elements in row-major order), on src's device. */
IRON_API iron_status iron_tensor_copy(const iron_tensor *src,
                                      iron_tensor **out);
/* t itself as a new reference (a reshape to its own shape) when it is
 * contiguous, else iron_tensor_copy of it: what a jit call can take.
 * Free *out either way. */
IRON_API iron_status iron_tensor_contiguous(iron_tensor *t,
                                            iron_tensor **out);
/* dst's elements set to src's (numpy's dst[...] = src): same dtype
 * (IRON_EDTYPE) and shape (IRON_ESHAPE), either may be a view; correct
 * when the two overlap. */
IRON_API iron_status iron_tensor_assign(iron_tensor *dst,
                                        const iron_tensor *src);

/* Comparing tensors: numpy's allclose, with a report of what differs.
 *
 * Element a of actual is close to element e of expected when
 *     |a - e| <= atol + rtol * |e|
 * (numpy's rule: asymmetric, e scales the tolerance).  Infinities are
 * close only to the same infinity; NaN is close to nothing (numpy's
 * default), or to NaN with opts->equal_nan.  Integer tensors compare
 * their exact values (64-bit, no rounding through double): with rtol =
 * atol = 0 that is equality.  bfloat16, float32 and float64 values compare
 * as doubles (every one converts exactly).
 *
 * Both tensors are integer or both are float: their dtypes may differ
 * within a kind (int16 against int64, bfloat16 against a float32
 * reference); an integer tensor against a float one is IRON_EDTYPE.
 * expected has actual's shape or broadcasts to it by numpy's rules (dims
 * aligned from the right, each equal to actual's or 1, missing leading
 * dims count as 1: a 1-element expected compares every element with one
 * value); actual is never broadcast.  Either may be a strided view. */
typedef struct iron_allclose_options {
    size_t size;        /* sizeof(iron_allclose_options) */
    int equal_nan;      /* 1: NaN is close to NaN; 0 (numpy's default):
                           NaN is close to nothing */
    int max_listed;     /* mismatches the report lists; 0: 10 */
} iron_allclose_options;

typedef struct iron_allclose_result {
    size_t size;            /* sizeof(iron_allclose_result), set by the
                               caller */
    int all_close;          /* 1 when every element is close */
    int64_t count;          /* elements compared: actual's element count */
    int64_t mismatches;     /* elements that are not close */
    double max_abs_diff;    /* the largest |a - e| (NaN pairs left out; inf
                               when an infinity meets another value) */
    double max_rel_diff;    /* the largest |a - e| / |e| (inf where e is 0
                               and a is not) */
    char *report;           /* NULL when all_close; otherwise text for a
                               message, the caller's to iron_free: "2 of
                               4096 elements differ (exact):\n  [0, 7]:
                               actual 8, expected 9, difference -1\n...",
                               each mismatch with its index per dim, then
                               the largest differences */
} iron_allclose_result;

/* Compares actual with expected (numpy's np.allclose(actual, expected,
 * rtol, atol), see above) and fills *result; the call succeeds whether
 * or not the tensors are close (result->all_close says).  opts NULL gives
 * the defaults.  Fails, with result->report NULL and all_close 0, with
 * IRON_EINVAL for a NULL tensor or result, a result or opts whose size is
 * too small, an rtol or atol that is negative, NaN or infinite, or a
 * negative max_listed; IRON_EDTYPE for an integer tensor against a float
 * one; IRON_ESHAPE when expected does not broadcast to actual's shape
 * (the message gives both types); IRON_ENOMEM for the report. */
IRON_API iron_status iron_tensor_allclose(const iron_tensor *actual,
                                          const iron_tensor *expected,
                                          double rtol, double atol,
                                          const iron_allclose_options *opts,
                                          iron_allclose_result *result);

/* Printing tensors the way numpy prints arrays.
 *
 * The text is what numpy's repr() of the same array gives (numpy 1.x and
 * 2.0 with default print options): "array([[1, 2],\n       [3, 4]],
 * dtype=int32)" -- nested brackets, columns of equal width, lines wrapped
 * at 75 characters, the dtype named unless numpy's default (int64,
 * float64).  With plain set it is str() instead: "[[1 2]\n [3 4]]".
 * Tensors of more than threshold elements are summarised: along each axis
 * longer than 2 x edgeitems, only the first and last edgeitems appear,
 * with "..." between.  Floats take numpy's 'maxprec' style: each value
 * with the fewest digits that read back as the same value of its dtype,
 * at most precision digits after the point, the points aligned ("1.5 ",
 * "2.25"); scientific notation ("1.0e+10") when the largest magnitude is
 * >= 1e8 or the smallest non-zero one < 1e-4 or their ratio > 1000.
 * bfloat16 prints as a float, with the digits that identify it as a
 * bfloat16 (0.1 prints "0.1", not 0.10009765625). */
typedef struct iron_print_options {
    size_t size IRON__ZERO;        /* sizeof(iron_print_options) */
    int precision IRON__ZERO;      /* digits after the point at most; 0: 8 */
    int64_t threshold IRON__ZERO;  /* summarise above this many elements; 0:
                                      1000, < 0: never */
    int edgeitems IRON__ZERO;      /* elements kept at each end; 0: 3 */
    int linewidth IRON__ZERO;      /* characters per line; 0: 75 */
    int plain IRON__ZERO;          /* 1: str() style, no "array(" nor commas */
} iron_print_options;

/* t as text in *out (free with iron_free).  opts NULL gives the defaults;
 * opts->size smaller than the struct is IRON_EINVAL. */
IRON_API iron_status iron_tensor_format(const iron_tensor *t,
                                        const iron_print_options *opts,
                                        char **out);
/* iron_tensor_format with the defaults, and a newline, to f. */
IRON_API iron_status iron_tensor_print(const iron_tensor *t, FILE *f);

/* DLPack interchange (version 0.6 and later's DLManagedTensor; the
 * declarations need <dlpack/dlpack.h> only where the struct is used).
 *
 * iron_tensor_from_dlpack: a tensor on the producer's memory, without
 * copying, on the current device (whose driver must accept host memory,
 * as for iron_tensor_wrap).  On success it owns m: m->deleter (when not
 * NULL) is called once, when the last tensor on that memory is freed
 * (after the calls using it finish); on failure m stays the caller's.
 * Accepted: device kDLCPU (IRON_EDEVICE naming any other), one lane
 * (IRON_EDTYPE otherwise), kDLInt/kDLUInt of 8..64 bits, kDLFloat of 32
 * and 64, kDLBfloat of 16 (IRON_EDTYPE naming code and bits otherwise),
 * ndim 1..IRON_MAX_DIMS with dims >= 1 (IRON_ESHAPE), data + byte_offset
 * aligned to the element size (IRON_EINVAL naming the address).  Strides
 * (NULL: row-major) may be anything the views take, negative and zero
 * included: a strided tensor arrives as a view (iron_tensor_is_contiguous
 * tells).
 *
 * iron_tensor_to_dlpack: t lent out as kDLCPU memory (device_id 0) with
 * its shape and strides (always given) and byte_offset 0.  The memory
 * stays alive until the consumer calls (*out)->deleter(*out), even if t
 * is freed first; the consumer must call it exactly once.  The export
 * shares t's elements: writes through either show in the other. */
struct DLManagedTensor;
IRON_API iron_status iron_tensor_from_dlpack(struct DLManagedTensor *m,
                                             iron_tensor **out);
IRON_API iron_status iron_tensor_to_dlpack(iron_tensor *t,
                                           struct DLManagedTensor **out);

typedef enum iron_sync_dir {
    IRON_SYNC_TO_DEVICE,
    IRON_SYNC_TO_HOST
} iron_sync_dir;

/* Makes host writes visible to the device, or device writes visible to the
 * host, as XRT's bo.sync does.  A jit call syncs its arguments itself (in
 * before, out after); call this when touching data between calls through
 * other means.  Free on the emulator. */
IRON_API iron_status iron_tensor_sync(iron_tensor *t, iron_sync_dir dir);

/* --- .npy files ----------------------------------------------------------
 * NumPy's .npy format, every iron dtype.  load reads versions 1.0, 2.0 and
 * 3.0 into a new tensor on the current device: big-endian data is
 * byte-swapped, Fortran-order data reordered to row-major, a 0-d array
 * becomes a 1-element 1-d tensor; bfloat16 is descr '<V2' (what np.save
 * writes for ml_dtypes.bfloat16) or 'bfloat16'.  It fails naming the file
 * and the reason: IRON_EIO (missing, truncated, data longer or shorter
 * than the shape), IRON_EINVAL (wrong magic, malformed header), IRON_ENOTSUP
 * (format version), IRON_EDTYPE (unsupported or object descr, named),
 * IRON_ESHAPE (more than IRON_MAX_DIMS dims, a 0 dim, overflow).
 * save writes the bytes np.save writes for the same array (version 1.0,
 * little-endian, '<V2' for bfloat16) to a temporary beside path renamed
 * over it: on failure path is untouched and nothing is left behind. */
IRON_API iron_status iron_tensor_load_npy(const char *path,
                                          iron_tensor **out);
IRON_API iron_status iron_tensor_save_npy(const iron_tensor *t,
                                          const char *path);

/* ------------------------------------------------------------------------
 * Designs
 *
 * A design function builds the dataflow program for one specialization.  It
 * runs once per signature (first call with new dtypes/shapes/parameters/
 * launch configuration), never per call, and sees only types, shapes,
 * compile-time values and the launch configuration -- never tensor data.
 *
 * The builder calls below have sticky errors: the first failure is recorded
 * on the design, later builder calls on it do nothing and return NULL or the
 * same status, and the jit reports the first failure.  So a design function
 * may build straight through and check once (or not at all).
 * ------------------------------------------------------------------------ */

typedef struct iron_design iron_design;
typedef struct iron_fifo iron_fifo;     /* an ObjectFifo */
typedef struct iron_handle iron_handle; /* one endpoint of an ObjectFifo */
typedef struct iron_kernel iron_kernel; /* a compute kernel (C source) */
typedef struct iron_worker iron_worker; /* a core program on a compute tile */

typedef int (*iron_design_fn)(iron_design *d, void *user);

/* A kernel passed as a compile-time parameter (the seed's "jit functions
 * passed to other functions"): a generic design takes it and builds it
 * with iron_kernel_new(d, k->entry, k->source, k->arg_types).  The strings
 * are copied when the value is bound or used; each distinct kernel (entry,
 * source, types) is its own specialization. */
typedef struct iron_kernel_ref {
    const char *entry;
    const char *source;
    const char *arg_types;
} iron_kernel_ref;

/* What the design may learn about its call.  Arguments are numbered in the
 * order of the jit's argument list, which is the runtime sequence's order. */
IRON_API int iron_design_nargs(const iron_design *d);
IRON_API iron_dtype iron_design_arg_dtype(const iron_design *d, int arg);
IRON_API iron_shape iron_design_arg_shape(const iron_design *d, int arg);
IRON_API int64_t iron_design_arg_numel(const iron_design *d, int arg);
/* Compile-time parameter values, by declared name.  A wrong name or type is
 * recorded as the design's (sticky) error and 0 / "" is returned. */
IRON_API int64_t iron_design_param_int(iron_design *d, const char *name);
IRON_API double iron_design_param_float(iron_design *d, const char *name);
IRON_API int iron_design_param_bool(iron_design *d, const char *name);
IRON_API const char *iron_design_param_str(iron_design *d, const char *name);
IRON_API iron_dtype iron_design_param_dtype(iron_design *d, const char *name);
/* A kernel parameter's value (never NULL: a wrong name or type gives an
 * empty reference and the sticky error). */
IRON_API const iron_kernel_ref *iron_design_param_kernel(iron_design *d,
                                                         const char *name);
/* Columns the launch configuration grants. */
IRON_API int iron_design_cols(const iron_design *d);
/* The target device's resources. */
IRON_API const iron_device_info *iron_design_device(const iron_design *d);

/* Records a failure of the design's own (sticky); returns status. */
IRON_API iron_status iron_design_fail(iron_design *d, iron_status status,
                                      const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* The first recorded failure, IRON_OK if none. */
IRON_API iron_status iron_design_status(const iron_design *d);

/* --- ObjectFifos ---------------------------------------------------------
 * An ObjectFifo carries objects of obj_shape x dtype with `depth` buffers
 * (2 = double buffering).  Names must be unique within the design. */
IRON_API iron_fifo *iron_fifo_new(iron_design *d, const char *name,
                                  iron_dtype dtype, iron_shape obj_shape,
                                  int depth);
/* The one producer handle (the same handle on every call). */
IRON_API iron_handle *iron_fifo_prod(iron_fifo *f);
/* A new consumer handle on every call; several consumers see every object
 * (broadcast). */
IRON_API iron_handle *iron_fifo_cons(iron_fifo *f);
/* The fifo's name: the one given, or the default a link gave it
 * ("<fifo>_fwd", "<fifo>_split<i>", "<fifo>_join<i>").  Borrowed: valid
 * as long as the design.  NULL for NULL. */
IRON_API const char *iron_fifo_name(const iron_fifo *f);

/* Buffers of one endpoint's pool, 1..16 (default: the fifo's depth).  Each
 * endpoint's pool lives on its own tile, so producer and consumers may
 * differ: depth 1 on a crowded compute tile, 4 on a memtile. */
IRON_API iron_status iron_handle_set_depth(iron_handle *h, int depth);

/* A data layout transform on an endpoint, as (size, stride) pairs
 * outermost first, strides in elements: elements are visited as nested
 * loops, index = sum(i_k * stride_k), within one object.  On a producer
 * handle it is dims_to_stream (the order in which the producer's DMA reads
 * an object); on a consumer handle, dims_from_stream (where the receiving
 * DMA writes the in-order stream).  At most 3 dimensions on compute and
 * shim tiles, 4 on memtiles; the pattern must visit exactly one object's
 * worth of elements, each inside the object; with 1- and 2-byte dtypes the
 * innermost stride must be 1 and the innermost run a whole number of 4-byte
 * words (DMA addresses count 32-bit words).  Checked at verification, where
 * the endpoint's tile is known. */
IRON_API iron_status iron_handle_set_dims(iron_handle *h, int ndim,
                                          const int64_t *sizes,
                                          const int64_t *strides);

/* The shim column through which the runtime fills or drains this handle
 * (upstream's fill/drain placement=Tile(col, 0)); otherwise the placer
 * picks the first shim from the fifo's home column eastwards with a free
 * channel.  Only for handles the runtime sequence uses: a handle given to
 * a worker or a link is an error at placement.  col within the granted
 * columns (checked at placement, where they are known). */
IRON_API iron_status iron_handle_set_shim(iron_handle *h, int col);

/* --- Links through a memtile ----------------------------------------------
 * forward: a new fifo `name` whose objects are those arriving on `cons`,
 * passed through a memtile (typically to change layout with
 * iron_handle_set_dims on the new fifo's producer).  depth 0: cons's. */
IRON_API iron_fifo *iron_fifo_forward(iron_design *d, iron_handle *cons,
                                      const char *name, int depth);
/* split: each object arriving on `cons` is cut into n objects: output i
 * gets elements [offsets[i], offsets[i] + numel(shapes[i])) and goes to a
 * new fifo names[i] (same dtype) with depths[i] buffers (depths NULL or 0:
 * cons's depth).  The outputs must tile the input object exactly.  outs[i]
 * receives the new fifos. */
IRON_API iron_status iron_fifo_split(iron_design *d, iron_handle *cons, int n,
                                     const char *const *names,
                                     const int64_t *offsets,
                                     const iron_shape *shapes,
                                     const int *depths, iron_fifo **outs);
/* join: one object from each of n new fifos ins[i] (their consumers on the
 * memtile) is assembled into one object of the fifo whose producer handle
 * is `prod`, input i at elements [offsets[i], offsets[i] + numel).  The
 * inputs must tile the output object exactly. */
IRON_API iron_status iron_fifo_join(iron_design *d, iron_handle *prod, int n,
                                    const char *const *names,
                                    const int64_t *offsets,
                                    const iron_shape *shapes,
                                    const int *depths, iron_fifo **ins);

/* Where a link goes and, for forward, the new fifo's object type (the
 * keyword arguments of upstream's forward/split/join).  Names may be NULL
 * in every link call: they default to "<fifo>_fwd", "<fifo>_split<i>" and
 * "<fifo>_join<i>" as upstream's. */
typedef enum iron_link_place {
    IRON_LINK_ANY_MEMTILE,    /* a memtile the placer picks (default) */
    IRON_LINK_ANY_COMPUTE,    /* a free compute tile the placer picks */
    IRON_LINK_TILE            /* tile (col, row): a memtile (row 1) or a
                                 compute tile no worker uses */
} iron_link_place;

typedef struct iron_link_options {
    size_t size IRON__ZERO;              /* sizeof(iron_link_options) */
    iron_link_place place IRON__ZERO;
    int col IRON__ZERO, row IRON__ZERO;  /* IRON_LINK_TILE */
    /* forward only: the new fifo's object type (obj_shape.ndim 0: the
     * input's).  The byte sizes of the two objects must divide each other:
     * a larger input object is sent as several output objects, in order,
     * and several smaller ones are gathered into one. */
    iron_dtype dtype IRON__ZERO;
    iron_shape obj_shape IRON__ZERO;
} iron_link_options;

/* The link calls with options (NULL: the defaults above). */
IRON_API iron_fifo *iron_fifo_forward_with(iron_design *d, iron_handle *cons,
                                           const char *name, int depth,
                                           const iron_link_options *opts);
IRON_API iron_status iron_fifo_split_with(iron_design *d, iron_handle *cons,
                                          int n, const char *const *names,
                                          const int64_t *offsets,
                                          const iron_shape *shapes,
                                          const int *depths,
                                          iron_fifo **outs,
                                          const iron_link_options *opts);
IRON_API iron_status iron_fifo_join_with(iron_design *d, iron_handle *prod,
                                         int n, const char *const *names,
                                         const int64_t *offsets,
                                         const iron_shape *shapes,
                                         const int *depths, iron_fifo **ins,
                                         const iron_link_options *opts);

/* --- Kernels -------------------------------------------------------------
 * A kernel is C source with an entry function `entry`; arg_types declares
 * the entry's parameters in order, comma-separated: a dtype name followed by
 * '*' for an object pointer ("int32*"), or a plain dtype for a scalar passed
 * by value ("int32"), each optionally followed by the parameter's name as
 * in C ("int16* in, int16* out, int32 n"; a name is what a declared cost,
 * iron_kernel_set_cycles, calls the argument, and nothing else reads it).
 * The JIT checks the declaration against the source with the C compiler.
 * Errors, recorded on the design: entry not a C identifier, source NULL
 * or empty, arg_types NULL, a type that is not one (naming the 1-based
 * item and the known dtypes), more than 16 arguments, two words after a
 * type, one name given twice (IRON_EINVAL); a "fifo" or "barrier" argument,
 * which only core bodies take (IRON_EDESIGN). */
IRON_API iron_kernel *iron_kernel_new(iron_design *d, const char *entry,
                                      const char *source,
                                      const char *arg_types);
/* A kernel whose C source is the file at `path` (upstream's
 * ExternalFunction(source_file=..., include_dirs=...)).  The file is read
 * now, when the design function runs, so each new specialization sees it
 * as it is then.  #include "..." looks in the file's own folder, then in
 * include_dirs[0 .. ninclude_dirs) (which #include <...> searches too,
 * before the system's).  Compiler messages and fault reports name the
 * file and its lines.  The file and every header it includes belong to
 * the kernel's cache key: an edit to any of them is compiled again by
 * the next build that needs the kernel -- a new specialization in this
 * process, or any in the next (a specialization already built keeps its
 * kernel).  Errors, recorded on the design as every builder's: path
 * NULL, not a readable regular file (IRON_EIO with the system's reason),
 * empty, over 16 MiB or holding a NUL byte (IRON_EINVAL); more than 64
 * include folders, or one that is not a folder (IRON_EINVAL); and those
 * of iron_kernel_new. */
IRON_API iron_kernel *iron_kernel_new_file(iron_design *d, const char *entry,
                                           const char *path,
                                           const char *arg_types,
                                           int ninclude_dirs,
                                           const char *const *include_dirs);
/* Compile-time defines (-DNAME=VALUE) seen by this kernel only. */
IRON_API iron_status iron_kernel_define(iron_kernel *k, const char *name,
                                        const char *value);
IRON_API iron_status iron_kernel_define_int(iron_kernel *k, const char *name,
                                            int64_t value);
/* Extra compiler flags for this kernel (after the jit's flags); each
 * call appends to the flags of the calls before it.  Words are split on
 * blanks (no quoting): an include folder with a blank in its name goes
 * to iron_kernel_new_file instead. */
IRON_API iron_status iron_kernel_add_cflags(iron_kernel *k, const char *flags);

/* The language of a kernel's source.  IRON_KERNEL_LANG_AUTO (every
 * kernel's until it is set): C++ for a kernel read from a file whose
 * name ends in .cc, .cpp, .cxx, .C or .c++, else C.  A C++ kernel is
 * compiled as C++20 (-std=c++20 -fno-exceptions -fno-rtti before the
 * jit's and the kernel's flags, so a -std of theirs wins) by the C++
 * compiler ($IRON_CXX, else c++) and may include the AIE API
 * (<aie_api/aie.hpp>); its entry is usually written inside
 * extern "C" { ... }, as upstream's kernels are (docs/kernels.md, "C++
 * kernels").  Errors, recorded on the design: k NULL (IRON_EINVAL,
 * returned only), a lang outside the enum (IRON_EINVAL naming the
 * value), IRON_KERNEL_LANG_CXX for a core body, whose source is always C
 * (IRON_EINVAL). */
typedef enum iron_kernel_lang {
    IRON_KERNEL_LANG_AUTO = 0,
    IRON_KERNEL_LANG_C = 1,
    IRON_KERNEL_LANG_CXX = 2
} iron_kernel_lang;
IRON_API iron_status iron_kernel_set_lang(iron_kernel *k,
                                          iron_kernel_lang lang);

/* The cycles one call of kernel k costs the modelled core, declared by
 * the user for the timing model (docs/kernels.md, "Declared cost"): it
 * takes the place of the model's own estimate for this kernel (counted
 * AIE API operations, or a per-operation guess for scalar C).  `cycles`
 * is a count ("5000") or an integer formula of the kernel's scalar
 * arguments, evaluated for every call with that call's values: decimal
 * integers; an argument by the name its declaration gives it
 * ("int16* in, int32 n" -> "n") or by its 0-based position ("$2");
 * + - * / % with C's precedence and truncating division; unary minus;
 * parentheses; min(a, b) and max(a, b).  Arithmetic is 64-bit signed;
 * an argument reads as its declared type does (an int16 given 70000 is
 * 4464).  Example: iron_kernel_set_cycles(k, "64 + n / 32 * 9").
 *
 * The text is compiled now and copied: the caller keeps it.  A later call
 * replaces the cost.  Thread safety: as every builder call, on the thread
 * running the design function.  The functional results never depend on
 * it; untimed runs do not read it.
 *
 * Errors: k NULL (IRON_EINVAL, returned only).  Recorded on the design
 * (IRON_EINVAL, the message naming the kernel and quoting the text):
 * cycles NULL or blank; over 1024 characters or a line break; a syntax
 * error (its 1-based column, what was expected and what was found); a
 * name that is not one of the kernel's arguments (listing its named
 * arguments and the closest one, or saying the declaration names none);
 * $N past the last argument; an argument that is not an integer scalar
 * (a pointer, a float, a fifo, barrier or kernel); a literal or constant
 * part that overflows 64 bits; a division or remainder by a constant
 * zero; a constant cost below 0; nesting deeper than 32; k a core body
 * (iron_kernel_new_core), which is never called.  At run time a call
 * whose cost comes out below 0, overflows 64 bits or divides by zero
 * stops the timed run with IRON_EINVAL naming the kernel, the formula,
 * the argument values and the value. */
IRON_API iron_status iron_kernel_set_cycles(iron_kernel *k,
                                            const char *cycles);

/* A custom core body: C source whose entry runs once on the worker's tile
 * (it usually loops forever, as a core does) and moves data itself.
 * arg_types as for kernels, plus "fifo" for an endpoint handle (pass
 * iron_arg_fifo(h)) and "barrier" (pass iron_arg_barrier(b)); a "dtype*"
 * argument takes a run-time parameter buffer (iron_arg_rtp(r)).  The JIT
 * declares for the source:
 *
 *   typedef struct iron_objfifo iron_objfifo;
 *   typedef struct iron_barrier iron_barrier;
 *   void **iron_acquire(iron_objfifo *f, int n);
 *       1 <= n <= the endpoint's depth.  Cumulative: holding k, it waits
 *       for n - k more; the array (index 0 = oldest held) stays valid until
 *       the next acquire or release on f.
 *   void iron_release(iron_objfifo *f, int n);   the n oldest held
 *   void iron_barrier_wait(iron_barrier *b, int value);
 *       waits until the barrier's lock holds exactly value and leaves it
 *       unchanged (upstream's wait_for_value: an AIE2 acquire-equal), so
 *       a worker may wait every iteration after one set_barrier
 *   void iron_barrier_release(iron_barrier *b, int value);
 *       adds value to the lock (upstream's release_with_value)
 *
 * Blocking in these suspends the tile's task, not an OS thread.  Misuse
 * (acquiring more than the depth, releasing more than held) stops the run
 * with an error naming the worker and the FIFO. */
IRON_API iron_kernel *iron_kernel_new_core(iron_design *d, const char *entry,
                                           const char *source,
                                           const char *arg_types);

/* --- Workers -------------------------------------------------------------
 * Arguments to a kernel in the standard loop: an endpoint handle (the
 * acquired object's pointer is passed) or a scalar. */
typedef struct iron_rtp iron_rtp;         /* run-time parameter buffer */
typedef struct iron_barrier iron_barrier; /* runtime-to-worker barrier */

typedef enum iron_arg_kind {
    IRON_ARG_HANDLE,
    IRON_ARG_INT,
    IRON_ARG_FLOAT,
    IRON_ARG_RTP,
    IRON_ARG_BARRIER,
    IRON_ARG_KERNEL
} iron_arg_kind;

typedef struct iron_arg {
    iron_arg_kind kind;
    iron_handle *handle;
    int64_t i;
    double f;
    iron_rtp *rtp;
    iron_barrier *barrier;
    iron_kernel *kernel;
} iron_arg;

/* The helpers below build an iron_arg (for IRON_ARGS / iron_worker_new).
 * They are exported functions (not inline), so that callers through an
 * FFI (ctypes, other languages) can use them as C does.  Pure: they
 * check nothing and cannot fail; a bad handle or kernel is reported by
 * the builder call the argument is given to.  Thread-safe. */

/* An endpoint handle: the standard loop passes its acquired object's
 * pointer; a core body receives the endpoint ("fifo"). */
IRON_API iron_arg iron_arg_fifo(iron_handle *h);
/* A handle given to a core body that holds up to max_acquire of its
 * objects at once (its largest iron_acquire).  Upstream reads this from
 * the core's code; here it is declared, because it decides how many
 * buffers the endpoint gets (max acquire + 1 on a DMA-fed compute tile).
 * Acquiring more at run time is an error naming the worker and fifo.
 * 1 <= max_acquire <= the endpoint's declared depth. */
IRON_API iron_arg iron_arg_fifo_acquire(iron_handle *h, int max_acquire);
/* Scalars passed by value (converted to the kernel's declared type). */
IRON_API iron_arg iron_arg_int(int64_t v);
IRON_API iron_arg iron_arg_float(double v);
/* A run-time parameter buffer (iron_rtp_new) and a barrier
 * (iron_barrier_new), each worker getting its own copy on its tile. */
IRON_API iron_arg iron_arg_rtp(iron_rtp *r);
IRON_API iron_arg iron_arg_barrier(iron_barrier *b);

/* A kernel (iron_kernel_new) passed to a core body, which calls it as
 * upstream core functions call their Kernel arguments: the body declares
 * "kernel(TYPES)" with the kernel's argument types and receives a pointer
 * to its entry, typed void (*)(T1, T2, ...) with exactly those types. */
IRON_API iron_arg iron_arg_kernel(iron_kernel *k);

/* IRON_ARGS(x, y, z) expands to: 3, (iron_arg[]){ x, y, z } */
#ifndef __cplusplus
#define IRON_ARGS(...)                                                        \
    (int)(sizeof((iron_arg[]){ __VA_ARGS__ }) / sizeof(iron_arg)),            \
        (iron_arg[]){ __VA_ARGS__ }
#else
#define IRON_ARGS(...) IRON__LIST(iron_arg, __VA_ARGS__)
#endif

/* A worker running the standard loop on a compute tile chosen by the
 * placer: each iteration acquires one object from every handle argument,
 * calls the kernel with the objects' pointers and the scalars, in argument
 * order, and releases them.  Like upstream's Worker(while_true=True) it
 * runs forever, persisting across calls and keeping its position in every
 * FIFO; `iterations` is informative (0: not given).  A core body is called
 * once and loops itself. */
IRON_API iron_worker *iron_worker_new(iron_design *d, const char *name,
                                      iron_kernel *k, int64_t iterations,
                                      int nargs, const iron_arg *args);

/* Pins a worker to compute tile (col, row): col within the granted
 * columns, row 2..5 (row 0 is the shim, row 1 the memtile) -- or, with
 * row -1, to column col only: the placer gives it the lowest compute tile
 * of that column that no other worker holds (row 2 up, in start order),
 * before it places the unpinned workers, as upstream's placement of a
 * tile given by its column alone does.  Unpinned workers are placed
 * around pinned ones.  IRON_ERESOURCE (sticky on the design) naming the
 * worker: a tile outside the granted array, two workers on one tile
 * (naming both), a column outside the array (naming the granted
 * columns), or a column whose compute tiles are all held by workers
 * pinned to it (naming them and the columns with tiles free).  A core
 * body worker ignores `iterations`. */
IRON_API iron_status iron_worker_place(iron_worker *w, int col, int row);

/* The worker core's stack in its tile's data memory (upstream's
 * stack_size; default the device's, 1 KiB), counted in the tile's memory
 * budget: 16 .. the tile's memory, a multiple of 16 bytes. */
IRON_API iron_status iron_worker_set_stack(iron_worker *w, uint32_t bytes);

/* A tile-local buffer of `count` elements (upstream's Buffer) on the tile
 * of each worker it is given to (iron_arg_rtp; each worker has its own
 * copy): the worker's kernel or core body reads and writes it, and the
 * runtime sequence may write it (iron_rt_set_rtp: upstream's
 * use_write_rtp).  It starts zeroed, or with the initial values set by
 * iron_rtp_set_initial, at load. */
IRON_API iron_rtp *iron_rtp_new(iron_design *d, const char *name,
                                iron_dtype dtype, int64_t count);

/* A barrier (upstream's WorkerRuntimeBarrier): a lock on the tile of each
 * worker that takes it (values 0..63, starting at 0 or at the initial
 * value) that the runtime sequence sets (iron_rt_set_barrier) and a core
 * body waits on (iron_barrier_wait: until it holds exactly a value). */
IRON_API iron_barrier *iron_barrier_new(iron_design *d, const char *name);

/* The buffer's contents at load (upstream's Buffer(initial_value=...)):
 * `count` elements of its dtype copied from values (not NULL). */
IRON_API iron_status iron_rtp_set_initial(iron_rtp *r,
                                          const void *values);
/* The lock's value when the design is loaded (upstream's initial_value),
 * 0..63; IRON_EINVAL naming the barrier otherwise (sticky). */
IRON_API iron_status iron_barrier_set_initial(iron_barrier *b, int value);

/* --- Described core bodies (the core-body IR) -----------------------------
 * A core body described op by op instead of written as C source: what an
 * upstream IRON core function is (loops, acquire / release on FIFO
 * endpoints, element loads and stores, kernel calls, barrier waits,
 * integer and float arithmetic).  A described body runs on the emulator
 * (it is translated to C and compiled like a C core body) and can be
 * exported as MLIR-AIE (iron_jit_export_mlir); a body given only as C
 * source (iron_kernel_new_core) runs on the emulator only.  The MLIR
 * importer (iron_mlir_design) builds bodies with these calls, and a
 * standard-loop worker is exported as the body it amounts to.
 *
 * As in upstream, where a core function is traced once per Worker, one
 * body belongs to one worker: build it, then give it to
 * iron_worker_new_body.  Its operands are the design's objects the body
 * names (iron_body_fifo, _rtp, _barrier, _kernel) and the values the ops
 * make.  Values are typed as MLIR types them (signless integers, index,
 * floats; memrefs for objects and buffers) and every op checks its
 * operands' types when it is added.  Ops are appended at the current
 * insertion point: the body's top level, or the innermost open for /
 * while / if region.
 *
 * Errors are sticky on the design, as for every builder call: a failing
 * op returns IRON_VAL_NONE (or its status), records a message naming the
 * body, the op and expected vs got, and later calls do nothing.  The
 * body belongs to the design.
 *
 * On the emulator, integers wrap, and where MLIR leaves a result
 * undefined the body gets a defined one: x / 0 is -1 (all ones) for
 * divsi, divui, ceildivsi and floordivsi, and x % 0 is x; MIN / -1 wraps
 * to MIN (MIN % -1 is 0); a shift by the width or more gives 0 (shrsi:
 * the sign); fptosi / fptoui saturate to the result's range and give 0
 * for NaN.  bf16 arithmetic is done in float and rounded to nearest
 * even; maximumf / minimumf propagate NaN and order -0 below +0.  A
 * memref index out of bounds, or an scf.for step <= 0, stops the run
 * with an error naming the op. */
typedef struct iron_body iron_body;
typedef int32_t iron_val;          /* a value of a body; >= 0 when valid */
#define IRON_VAL_NONE ((iron_val)-1)

/* Value types (MLIR's builtin types).  Integers are signless: the op
 * decides signedness (divsi / divui), and a memref of uint8 elements
 * loads i8. */
typedef enum iron_body_type {
    IRON_BT_I1,
    IRON_BT_I8,
    IRON_BT_I16,
    IRON_BT_I32,
    IRON_BT_I64,
    IRON_BT_INDEX,
    IRON_BT_BF16,
    IRON_BT_F32,
    IRON_BT_F64,
    IRON_BT_MEMREF,     /* an object or buffer (iron_body_object, _rtp) */
    IRON_BT_HANDLE,     /* a fifo, barrier, kernel or acquisition */
    IRON_BT_COUNT_
} iron_body_type;

/* arith ops, by their MLIR names.  Binary: two operands of one type,
 * the result of that type (integer ops on integers or index, float ops
 * on floats).  Unary: NEGF.  Casts (iron_body_cast): EXTSI .. BITCAST. */
typedef enum iron_arith {
    IRON_ARITH_ADDI, IRON_ARITH_SUBI, IRON_ARITH_MULI,
    IRON_ARITH_DIVSI, IRON_ARITH_DIVUI, IRON_ARITH_CEILDIVSI,
    IRON_ARITH_FLOORDIVSI, IRON_ARITH_REMSI, IRON_ARITH_REMUI,
    IRON_ARITH_ANDI, IRON_ARITH_ORI, IRON_ARITH_XORI,
    IRON_ARITH_SHLI, IRON_ARITH_SHRSI, IRON_ARITH_SHRUI,
    IRON_ARITH_MAXSI, IRON_ARITH_MINSI, IRON_ARITH_MAXUI, IRON_ARITH_MINUI,
    IRON_ARITH_ADDF, IRON_ARITH_SUBF, IRON_ARITH_MULF, IRON_ARITH_DIVF,
    IRON_ARITH_MAXIMUMF, IRON_ARITH_MINIMUMF,
    IRON_ARITH_NEGF,
    IRON_ARITH_EXTSI, IRON_ARITH_EXTUI, IRON_ARITH_TRUNCI,
    IRON_ARITH_SITOFP, IRON_ARITH_UITOFP, IRON_ARITH_FPTOSI,
    IRON_ARITH_FPTOUI, IRON_ARITH_EXTF, IRON_ARITH_TRUNCF,
    IRON_ARITH_INDEX_CAST, IRON_ARITH_INDEX_CASTUI, IRON_ARITH_BITCAST,
    IRON_ARITH_COUNT_
} iron_arith;

/* arith.cmpi / arith.cmpf predicates (the result is i1). */
typedef enum iron_cmp {
    IRON_CMP_EQ, IRON_CMP_NE, IRON_CMP_SLT, IRON_CMP_SLE, IRON_CMP_SGT,
    IRON_CMP_SGE, IRON_CMP_ULT, IRON_CMP_ULE, IRON_CMP_UGT, IRON_CMP_UGE,
    IRON_CMP_OEQ, IRON_CMP_OGT, IRON_CMP_OGE, IRON_CMP_OLT, IRON_CMP_OLE,
    IRON_CMP_ONE, IRON_CMP_ORD, IRON_CMP_UEQ, IRON_CMP_UGTF,
    IRON_CMP_UGEF, IRON_CMP_ULTF, IRON_CMP_ULEF, IRON_CMP_UNE,
    IRON_CMP_UNO,
    IRON_CMP_COUNT_
} iron_cmp;

/* The MLIR names of the enums above, from the table the library prints
 * MLIR with: iron_body_type_name gives the type ("i32", "index", "bf16";
 * "memref" and "handle" for the two kinds of non-scalar value),
 * iron_arith_name the op ("arith.addi", "arith.index_cast"), and
 * iron_cmp_name the predicate as arith.cmpi / arith.cmpf write it ("slt",
 * "oeq"; IRON_CMP_UGTF .. IRON_CMP_ULEF are "ugt", "uge", "ult", "ule",
 * like their integer namesakes, the op telling them apart).  NULL for a
 * value outside the enum.  Static strings; thread-safe; they leave
 * iron_last_error() untouched. */
IRON_API const char *iron_body_type_name(iron_body_type t);
IRON_API const char *iron_arith_name(iron_arith op);
IRON_API const char *iron_cmp_name(iron_cmp pred);

/* A new, empty body called `name` in messages and in the C it becomes
 * (a C identifier; not a C keyword, and not starting with '_' or
 * "iron_", which the generated C uses).  NULL on failure (sticky). */
IRON_API iron_body *iron_body_new(iron_design *d, const char *name);

/* The design objects a body uses; each call gives a value naming it.
 * fifo: an endpoint (producer or consumer handle) the body acquires
 * from and releases to; it must not already have a user.  rtp: the
 * worker's copy of a buffer, a 1-D memref of its count and dtype.
 * barrier: the worker's copy of a barrier.  kernel: a kernel
 * (iron_kernel_new) the body calls.  Naming one object twice gives the
 * same value. */
IRON_API iron_val iron_body_fifo(iron_body *b, iron_handle *h);
IRON_API iron_val iron_body_rtp(iron_body *b, iron_rtp *r);
IRON_API iron_val iron_body_barrier(iron_body *b, iron_barrier *x);
IRON_API iron_val iron_body_kernel(iron_body *b, iron_kernel *k);

/* Constants: an integer of an integer or index type, a float of a float
 * type (rounded to it). */
IRON_API iron_val iron_body_const_int(iron_body *b, iron_body_type t,
                                      int64_t v);
IRON_API iron_val iron_body_const_float(iron_body *b, iron_body_type t,
                                        double v);
/* A binary or unary (y = IRON_VAL_NONE) arith op. */
IRON_API iron_val iron_body_arith(iron_body *b, iron_arith op, iron_val x,
                                  iron_val y);
/* A cast (EXTSI .. BITCAST) of x to type `to`, with MLIR's rules
 * (extensions widen, truncations narrow, bitcast keeps the width). */
IRON_API iron_val iron_body_cast(iron_body *b, iron_arith op, iron_val x,
                                 iron_body_type to);
IRON_API iron_val iron_body_cmp(iron_body *b, iron_cmp pred, iron_val x,
                                iron_val y);
/* c ? x : y (arith.select); c is i1, x and y of one scalar type. */
IRON_API iron_val iron_body_select(iron_body *b, iron_val c, iron_val x,
                                   iron_val y);
/* The type of a value (IRON_BT_COUNT_ for an invalid one). */
IRON_API iron_body_type iron_body_value_type(const iron_body *b, iron_val v);

/* scf.for: opens a loop from lb to ub (exclusive) by step (index
 * values, step > 0 at run time) carrying ninit values (iter_args,
 * initialised from init).  Returns the induction variable; iter[i]
 * receives the loop-carried values inside the loop (may be NULL when
 * ninit is 0).  Upstream's Worker(while_true=True) loop is a for from 0
 * to INT64_MAX step 1. */
IRON_API iron_val iron_body_for(iron_body *b, iron_val lb, iron_val ub,
                                iron_val step, int ninit,
                                const iron_val *init, iron_val *iter);
/* Closes the innermost open for with scf.yield of nyield values (as
 * many as it carries, of their types); results[i] receives the values
 * after the loop (may be NULL when nyield is 0). */
IRON_API iron_status iron_body_end_for(iron_body *b, int nyield,
                                       const iron_val *yield,
                                       iron_val *results);
/* scf.while: iron_body_while opens the "before" region with ninit
 * carried values (arg[i] inside it); iron_body_while_do ends it with
 * scf.condition(cond) forwarding nfwd values and opens the "do" region
 * (after[i] receives them); iron_body_end_while closes it with
 * scf.yield of as many values as init (the next iteration's arg);
 * results[i] receives the forwarded values when the loop ends. */
IRON_API iron_status iron_body_while(iron_body *b, int ninit,
                                     const iron_val *init, iron_val *arg);
IRON_API iron_status iron_body_while_do(iron_body *b, iron_val cond,
                                        int nfwd, const iron_val *fwd,
                                        iron_val *after);
IRON_API iron_status iron_body_end_while(iron_body *b, int nyield,
                                         const iron_val *yield,
                                         iron_val *results);
/* scf.if on an i1: opens the then region; iron_body_else closes it
 * with scf.yield of nresults values and opens the else region;
 * iron_body_end_if closes the open region with its yield and gives the
 * if's results.  An if with results needs its else. */
IRON_API iron_status iron_body_if(iron_body *b, iron_val cond,
                                  int nresults);
IRON_API iron_status iron_body_else(iron_body *b, int nyield,
                                    const iron_val *yield);
IRON_API iron_status iron_body_end_if(iron_body *b, int nyield,
                                      const iron_val *yield,
                                      iron_val *results);

/* aie.objectfifo.acquire: n objects of a fifo value (cumulative, as
 * iron_acquire); the result is an acquisition, read with
 * iron_body_object.  n is 1 .. the endpoint's depth; the largest n of
 * a body's acquires on a fifo is its max acquire (as upstream reads it
 * from the core's code). */
IRON_API iron_val iron_body_acquire(iron_body *b, iron_val fifo, int n);
/* aie.objectfifo.subview.access: object i (0 = oldest held) of an
 * acquisition, a memref of the fifo's object shape and dtype. */
IRON_API iron_val iron_body_object(iron_body *b, iron_val acq, int i);
/* aie.objectfifo.release of the n oldest held objects. */
IRON_API iron_status iron_body_release(iron_body *b, iron_val fifo, int n);
/* memref.load / memref.store of one element; one index value per
 * dimension of the memref (index typed). */
IRON_API iron_val iron_body_load(iron_body *b, iron_val mem, int nidx,
                                 const iron_val *idx);
IRON_API iron_status iron_body_store(iron_body *b, iron_val v, iron_val mem,
                                     int nidx, const iron_val *idx);
/* func.call of a kernel value: one argument per declared parameter, a
 * memref of the declared dtype for "T*", a scalar of T's width for "T"
 * (i32 for int32 and uint32, f32 for float32, bf16 for bfloat16). */
IRON_API iron_status iron_body_call(iron_body *b, iron_val kernel, int nargs,
                                    const iron_val *args);
/* A barrier's wait and release (upstream's wait_for_value /
 * release_with_value; see iron_kernel_new_core). */
IRON_API iron_status iron_body_barrier_wait(iron_body *b, iron_val barrier,
                                            int value);
IRON_API iron_status iron_body_barrier_release(iron_body *b,
                                               iron_val barrier, int value);

/* The body's text as MLIR ops (for debugging; returned in *out, free
 * with iron_free).  IRON_EINVAL for NULL arguments. */
IRON_API iron_status iron_body_dump(const iron_body *b, char **out);

/* A worker running a described body on a compute tile chosen by the
 * placer (pin it with iron_worker_place).  Every open region must be
 * closed.  The body's fifos, buffers and barriers become the worker's;
 * each fifo endpoint's max acquire is the body's largest acquire on it.
 * A body gives one worker. */
IRON_API iron_worker *iron_worker_new_body(iron_design *d, const char *name,
                                           iron_body *b);

/* --- Runtime sequence ----------------------------------------------------
 * A tensor access pattern: starting at element `offset` of the tensor seen
 * as flat, visit sizes[0] x ... x sizes[ndim-1] elements in nested loops
 * (outermost first); element index = offset + sum(i_k * strides[k]).
 * A fill or drain also holds its pattern to the shim DMA's limits, as
 * upstream's verifier does, reading the pattern as upstream's runtime
 * does: as written, right-aligned on the DMA's four dimensions (d3 ..
 * d0), the missing outer ones of size 1 -- [a, b] is [1, 1, a, b].
 * Leading size-1 dimensions are dropped first, and an outermost stride-0
 * dimension (a repeat) is d3 however many dimensions there are.  d0
 * holds at most 1023 32-bit words and d1 at most 1023 elements (unless
 * d0..d2 are one contiguous run), d2 is unlimited and d3, the iteration
 * count, is at most 64 and the only one that may have stride 0.  So a
 * [2, 1024] int32 pattern with strides [2048, 1] is refused (its d0 is
 * 1024 words), while [2, 1, 1, 1024] with strides [2048, 0, 0, 1] fits
 * (2 iterations of a linear run).  Strides are at most 2^20 words; the
 * offset, strides and the innermost run are whole 32-bit words.
 * IRON_EBOUNDS names the dimension, value, limit and the reading, and a
 * way to write the pattern with size-1 dimensions that fits, if any. */
#define IRON_TAP_MAX_DIMS 4

typedef struct iron_tap {
    int64_t offset;
    int ndim;
    int64_t sizes[IRON_TAP_MAX_DIMS];
    int64_t strides[IRON_TAP_MAX_DIMS];
} iron_tap;

/* Every element of a tensor of n elements, in order: offset 0, one
 * dimension of size n and stride 1.  Not checked here (validated when
 * used).  Exported, not inline, for FFI callers; pure and thread-safe. */
IRON_API iron_tap iron_tap_linear(int64_t n);

/* A general pattern; ndim 1 .. IRON_TAP_MAX_DIMS.  Validated when used. */
IRON_API iron_tap iron_tap_make(int64_t offset, int ndim,
                                const int64_t *sizes, const int64_t *strides);

/* Number of elements a pattern visits (product of sizes).  0 for a NULL
 * or malformed pattern (ndim outside 1..IRON_TAP_MAX_DIMS, a size below
 * 1); -1 when the product does not fit int64_t (iron_tap_check rejects
 * such a pattern). */
IRON_API int64_t iron_tap_count(const iron_tap *tap);

/* Checks a pattern against a tensor of `numel` elements: offset >= 0,
 * sizes 1 to 2^40, strides 0 to 2^40, at most 2^40 visits, and the
 * furthest element inside the tensor.  IRON_EBOUNDS with the dimension and
 * the reach otherwise; a visit count, (size - 1) x stride or offset +
 * reach that would overflow 64 bits is IRON_EBOUNDS naming the dimension,
 * never a wrapped value. */
IRON_API iron_status iron_tap_check(const iron_tap *tap, int64_t numel);

/* Upstream taplib's access_order: for each element of a tensor of `numel`
 * elements (seen as flat), the step (0, 1, ...) at which the pattern
 * visits it; -1 if never; the last step if visited more than once.  The
 * caller owns `order`, an array of numel elements, overwritten whole.
 * IRON_EINVAL for a NULL tap or order or numel outside 1..2^40; the
 * statuses of iron_tap_check (IRON_EBOUNDS) for a pattern that does not
 * fit the tensor; nothing is written then.  Takes time in the pattern's
 * visits plus numel.  Pure: thread-safe on distinct arrays. */
IRON_API iron_status iron_tap_access_order(const iron_tap *tap, int64_t numel,
                                           int64_t *order);
/* Upstream taplib's access_count: for each element, how many times the
 * pattern visits it (0 if never).  Arguments and errors as for
 * iron_tap_access_order. */
IRON_API iron_status iron_tap_access_count(const iron_tap *tap, int64_t numel,
                                           int64_t *count);
/* A text picture of a pattern over a row-major rows x cols tensor, for
 * debugging (upstream taplib's visualize, in text): a title line (the
 * pattern, its visits, how many elements it reaches), then a grid with
 * column and row indexes.  Up to 32 x 32 each cell is an element showing
 * the step of its last visit, '.' if never visited and a '*' in front if
 * visited more than once; a bigger tensor is cut into blocks (at most 16 x
 * 16 of them) and each cell shows its block's rank in the order the
 * pattern first reaches the blocks.  Lines end in '\n'; a legend follows
 * when '.' or '*' appear.  For example (4 x 4, 2 x 2 tiles in order):
 *
 *   4 x 4 tensor, tap offset 0 sizes [2, 2, 2, 2] strides [8, 2, 4, 1]:
 *   16 visits, 16 of 16 elements visited        (one line)
 *       0  1  2  3
 *   0:  0  1  4  5
 *   1:  2  3  6  7
 *   2:  8  9 12 13
 *   3: 10 11 14 15
 *
 * The text is returned in *out (free with iron_free).  IRON_EINVAL
 * naming the bad argument: NULL tap or out, rows or cols outside
 * 1..2^40, a pattern out of the tensor's bounds; IRON_ENOMEM.  Pure:
 * thread-safe. */
IRON_API iron_status iron_tap_visualize(const iron_tap *tap, int64_t rows,
                                        int64_t cols, char **out);

/* Marks workers to start (all workers are started when none is named). */
IRON_API iron_status iron_rt_start(iron_design *d, iron_worker *w);
/* Streams argument `arg` into the FIFO through `prod` (a producer handle),
 * visiting the tensor in tap order; the elements moved must be a whole
 * number of objects. */
IRON_API iron_status iron_rt_fill(iron_design *d, iron_handle *prod, int arg,
                                  iron_tap tap);
/* Streams objects from `cons` (a consumer handle) into argument `arg` in
 * tap order.  With wait set, the call completes only when this drain is
 * done; a call must wait for at least one drain. */
IRON_API iron_status iron_rt_drain(iron_design *d, iron_handle *cons, int arg,
                                   iron_tap tap, int wait);
#define IRON_WAIT 1
#define IRON_NOWAIT 0

/* Writes element `index` of a run-time parameter buffer (value converted
 * to its dtype) at this point of the sequence. */
IRON_API iron_status iron_rt_set_rtp(iron_design *d, iron_rtp *r,
                                     int64_t index, double value);
/* Dispatch-time scalars: integer values given per call (declared in
 * iron_jit_options.scalars, passed with iron_jit_launch) that change what a
 * compiled design does without recompiling it -- as upstream patches them
 * into the instruction stream.  iron_design_scalar_index gives the index of a
 * declared scalar (-1 and the sticky error for an unknown name). */
IRON_API int iron_design_scalar_index(iron_design *d, const char *name);
/* set_rtp with the value of dispatch-time scalar `scalar` at each call. */
IRON_API iron_status iron_rt_set_rtp_scalar(iron_design *d, iron_rtp *r,
                                            int64_t index, int scalar);
/* fill / drain whose pattern's offset is moved by the value of scalar
 * `scalar` (in elements) at each call; the moved pattern is bounds-checked
 * at every call, before anything runs. */
IRON_API iron_status iron_rt_fill_offset_scalar(iron_design *d,
                                                iron_handle *prod, int arg,
                                                iron_tap tap, int scalar);
IRON_API iron_status iron_rt_drain_offset_scalar(iron_design *d,
                                                 iron_handle *cons, int arg,
                                                 iron_tap tap, int scalar,
                                                 int wait);
/* Sets a barrier's lock to value (0..63) at this point of the sequence. */
IRON_API iron_status iron_rt_set_barrier(iron_design *d, iron_barrier *b,
                                         int value);
/* Task groups (upstream's rt.task_group() / rt.finish_task_group(tg)).
 * Opening a group makes it current: the fills, drains, set_rtp and
 * set_barrier recorded next join it, until another group is opened or it
 * is finished (then the last opened, unfinished group is current again,
 * or none).  Finishing a group waits, at that point of the sequence,
 * until the group's awaited drains are done, and frees its DMA tasks'
 * buffer descriptors.  Several groups may be open at once, and finished
 * in any order (ping-pong: open group n, finish group n-1).  Ops outside
 * every group belong to the sequence, which waits for them at its end.
 * A group left unfinished, or finished twice, is an error.  The group is
 * owned by the design. */
typedef struct iron_task_group iron_task_group;
IRON_API iron_task_group *iron_rt_task_group_new(iron_design *d);
IRON_API iron_status iron_rt_task_group_finish(iron_design *d,
                                               iron_task_group *g);
/* The same without a handle: open a group / finish the current one. */
IRON_API iron_status iron_rt_task_group_begin(iron_design *d);
IRON_API iron_status iron_rt_task_group_end(iron_design *d);
/* Makes an open group current (NULL: none -- the ops that follow belong
 * to the sequence, which waits for them at its end), for programs that
 * name each op's group (upstream's fill(..., task_group=tg)).
 * IRON_EDESIGN for a finished group, IRON_EINVAL for another design's;
 * both sticky. */
IRON_API iron_status iron_rt_task_group_use(iron_design *d,
                                            iron_task_group *g);

/* A 2-D tiler (upstream IRON's TensorTiler2D): cuts a row-major rows x
 * cols tensor into tile_rows x tile_cols tiles and gives one access
 * pattern per group of tiles.  A group is group_rows x group_cols tiles
 * spaced step_rows x step_cols tiles apart (step 1: adjacent tiles);
 * successive patterns move one tile within a step, then a whole block of
 * group x step tiles, so the patterns together visit every element once
 * (`repeat` times with a repeat).
 *   tile_col_major:  elements inside a tile column by column
 *   group_col_major: tiles inside a group column by column
 *   iter_col_major:  patterns (groups) in column-major order
 *   repeat:          each pattern visits its group `repeat` times (0 = 1;
 *                    at most 64, the shim DMA's iteration count, and at
 *                    most 2^40 visits in all)
 *   allow_partial:   the last groups along a dimension may be smaller when
 *                    group x step does not divide the tile count
 *   no_prune_step:   keep every loop as its own dimension (size-1 loops
 *                    dropped) instead of merging loops that continue each
 *                    other -- upstream's prune_step=False; merging changes
 *                    the form of a pattern, never the order it visits.
 *                    Nothing merges into the innermost loop unless the
 *                    whole pattern becomes one run: the shim DMA reads
 *                    the innermost dimension as its d0 (at most 1023
 *                    words), so a full-width tile keeps its rows apart
 *                    from its columns, as upstream's tiler does.
 * A repeat is the pattern's first dimension (stride 0), which the shim
 * reads as its iteration count however many dimensions follow.
 * Tiles must divide the tensor; without allow_partial, group x step must
 * divide the tiles along each dimension.
 *
 * Upstream's three factories map to one struct:
 *   simple_tiler(tensor_dims, tile_dims, tile_col_major, iter_col_major,
 *     pattern_repeat, prune_step): rows, cols, tile_rows, tile_cols (the
 *     whole tensor when upstream's tile_dims is None), tile_col_major,
 *     iter_col_major, repeat, no_prune_step -- one pattern per tile;
 *   group_tiler(..., tile_group_dims, tile_group_col_major, allow_partial):
 *     also group_rows, group_cols, group_col_major, allow_partial;
 *   step_tiler(..., tile_group_repeats, tile_group_steps): group_rows and
 *     group_cols are the repeats, step_rows and step_cols the steps.
 * The struct may grow at its end: set size = sizeof(iron_tiler2d) and
 * zero what you do not use (a designated initializer does both); a caller
 * built against the first version (ending at `repeat`) keeps working. */
typedef struct iron_tiler2d {
    size_t size IRON__ZERO;                  /* sizeof(iron_tiler2d) */
    int64_t rows IRON__ZERO, cols IRON__ZERO;
    int64_t tile_rows IRON__ZERO, tile_cols IRON__ZERO;
    int64_t group_rows IRON__ZERO, group_cols IRON__ZERO;   /* 0 = 1 */
    int tile_col_major IRON__ZERO;
    int group_col_major IRON__ZERO;
    int iter_col_major IRON__ZERO;
    int64_t repeat IRON__ZERO;               /* 0 = 1 */
    /* -- second version: a size ending at `repeat` means all zero -- */
    int64_t step_rows IRON__ZERO, step_cols IRON__ZERO;     /* 0 = 1 */
    int allow_partial IRON__ZERO;
    int no_prune_step IRON__ZERO;
} iron_tiler2d;

/* Number of patterns (groups), in *count (0 on failure).  IRON_EINVAL
 * naming the field and its value for invalid input.  Pure: thread-safe. */
IRON_API iron_status iron_tiler2d_count(const iron_tiler2d *t,
                                        int64_t *count);
/* The access pattern of group `index` (0-based, in iteration order), in
 * *out; with allow_partial the patterns of the last groups are smaller.
 * IRON_EINVAL for invalid fields or an index outside 0..count-1;
 * IRON_ENOTSUP, listing the loops, if the pattern needs more than
 * IRON_TAP_MAX_DIMS dimensions.  Every pattern given is inside the tensor;
 * the shim's limits are checked when it is used.  Pure: thread-safe. */
IRON_API iron_status iron_tiler2d_tap(const iron_tiler2d *t, int64_t index,
                                      iron_tap *out);

/* A readable dump of the design built so far (FIFOs, links, workers and,
 * once placed, their tiles; the runtime sequence) in *out (free with
 * iron_free).  For use inside the design function. */
IRON_API iron_status iron_design_dump(const iron_design *d, char **out);

/* ------------------------------------------------------------------------
 * Compile-time parameter values (per call)
 * ------------------------------------------------------------------------ */

typedef enum iron_param_type {
    IRON_PARAM_INT,
    IRON_PARAM_FLOAT,
    IRON_PARAM_BOOL,
    IRON_PARAM_STR,
    IRON_PARAM_DTYPE,
    IRON_PARAM_KERNEL
} iron_param_type;


typedef struct iron_param {
    const char *name;
    iron_param_type type;
    int64_t i;          /* INT, BOOL */
    double f;           /* FLOAT */
    const char *s;      /* STR */
    iron_dtype dtype;   /* DTYPE */
    const iron_kernel_ref *kernel;  /* KERNEL */
} iron_param;

/* The helpers below build an iron_param (for IRON_PARAMS, iron_jit_bind
 * and the launch calls).  They are exported functions (not inline), so
 * that callers through an FFI can use them as C does.  Pure: strings and
 * kernel references are borrowed, not copied (the call they are given to
 * copies what it keeps), and nothing is checked until that call.
 * Thread-safe. */
IRON_API iron_param iron_param_int(const char *name, int64_t v);
IRON_API iron_param iron_param_float(const char *name, double v);
/* v != 0 is true. */
IRON_API iron_param iron_param_bool(const char *name, int v);
IRON_API iron_param iron_param_str(const char *name, const char *v);
IRON_API iron_param iron_param_dtype(const char *name, iron_dtype v);
IRON_API iron_param iron_param_kernel(const char *name,
                                      const iron_kernel_ref *k);

/* IRON_PARAMS(p, q) expands to: 2, (const iron_param[]){ p, q } */
#ifndef __cplusplus
#define IRON_PARAMS(...)                                                      \
    (int)(sizeof((iron_param[]){ __VA_ARGS__ }) / sizeof(iron_param)),        \
        (const iron_param[]){ __VA_ARGS__ }
#else
#define IRON_PARAMS(...) IRON__LIST(iron_param, __VA_ARGS__)
#endif
#define IRON_NO_PARAMS 0, (const iron_param *)NULL

/* ------------------------------------------------------------------------
 * JIT
 * ------------------------------------------------------------------------ */

typedef struct iron_jit iron_jit;

/* Compile-time attributes of a jit object.  Zero-initialise, set size. */
typedef struct iron_jit_options {
    size_t size IRON__ZERO;         /* sizeof(iron_jit_options) */
    const char *name IRON__ZERO;    /* used in messages; required */
    /* The tensor arguments in runtime-sequence order, comma-separated:
     *   "in a, in b, out c"                     roles only
     *   "in a: T[N], in b: T[N], out c: T[N]"   with constraints
     * Roles: in, out, inout.  A type is a dtype name or a type variable
     * (an identifier bound by the first argument using it); dims are
     * integers or size variables, bound the same way. */
    const char *args IRON__ZERO;
    /* Compile-time parameters with types and defaults, comma-separated:
     *   "tile: int = 16, op: str = '+', scale: float = 1.5,
     *    relu: bool = false, OT: dtype = int32, n: int, f: kernel"
     * A parameter without a default must be given at every call (or bound
     * with iron_jit_bind); kernel parameters take no default.  Names must
     * differ from the type and size variables of `args` (and scalars from
     * both): the design would see two things with one name.  Defaults
     * must be in range (finite floats, integers within 64 bits). */
    const char *params IRON__ZERO;
    const char *cflags IRON__ZERO;  /* flags for every kernel, e.g. "-O3"
                                       (default -O2) */
    void *user IRON__ZERO;          /* passed to the design function */
    /* Dispatch-time scalars, comma-separated, with optional defaults:
     *   "count, offset = 0"
     * Their values are given per call (iron_jit_launch) and never cause a
     * rebuild.  NULL: none. */
    const char *scalars IRON__ZERO;
    /* The disk cache: 0 = on unless IRON_CACHE is off (0, no, false or
     * off), 1 = on, -1 = off. */
    int disk_cache IRON__ZERO;
    /* Its folder (NULL: $IRON_CACHE_DIR, $XDG_CACHE_HOME/iron or
     * ~/.cache/iron) and size cap in bytes (0: $IRON_CACHE_MAX, else
     * 256 MiB).  An unusable folder falls back to memory with a warning. */
    const char *cache_dir IRON__ZERO;
    uint64_t cache_max_bytes IRON__ZERO;
    /* How many specializations stay loaded (0: $IRON_RESIDENT_MAX, else
     * 256).  Beyond it the least recently used is unloaded and a later
     * call rebuilds it, from the disk cache when it is on.  Specializations
     * handed out by iron_jit_specialize stay loaded. */
    int max_resident IRON__ZERO;
} iron_jit_options;

/* Creates a jit object.  The option strings are parsed now; a syntax error
 * is IRON_EINVAL naming the offending item.  Thread-safe to call; the jit
 * itself is used by one thread at a time. */
IRON_API iron_status iron_jit_create(iron_design_fn design,
                                     const iron_jit_options *opts,
                                     iron_jit **out);
/* Frees the jit and every specialization it holds (unloading them from
 * their devices). */
IRON_API void iron_jit_free(iron_jit *j);

/* Pre-binds compile-time parameter values on the jit object; values given
 * per call win over these.  Checked like call values. */
IRON_API iron_status iron_jit_bind(iron_jit *j, int nparams,
                                   const iron_param *params);

/* Launch configuration: apart from the tensors. */
typedef struct iron_launch_config {
    size_t size IRON__ZERO;     /* sizeof(iron_launch_config); a program built
                                   against an older header, with fewer fields,
                                   gets the defaults of the missing ones */
    int cols IRON__ZERO;        /* columns to use; 0 = every column of the
                                   device */
    int timeout_ms IRON__ZERO;  /* 0 = default (IRON_TIMEOUT_MS or 60000) */
    /* Checked mode: kernels may touch only the buffers they hold, stacks
     * are measured against the worker's stack size, memory starts
     * poisoned (docs/emulator.md).  0 = IRON_CHECK (off unless set to
     * 1, yes, true or on), 1 = on, -1 = off. */
    int check IRON__ZERO;
    /* Add the call's trace (trace-event JSON for Perfetto and
     * chrome://tracing) to this file, and write a deadlock's wait-for
     * graph to FILE.dot.  Every call a process traces to one path goes
     * into that one file, each call its own group of tracks ("call N:"
     * and the jit's signature): the process's first call to the path
     * replaces any file there, later ones are added to it.  NULL =
     * IRON_TRACE, if set. */
    const char *trace IRON__ZERO;
    /* Measure times for iron_jit_get_counters (kernel, blocked, DMA busy):
     * 0 = only when IRON_LOG has "emu" or a trace is written, 1 = on,
     * -1 = off. */
    int profile IRON__ZERO;
    /* Host threads the emulated array may run on (its columns are dealt
     * onto them): 0 = IRON_THREADS, or when that is unset the emulator
     * times a specialization's first calls on the CPU count and on one
     * thread and keeps the faster.  Results are bit-identical whatever
     * the count (docs/emulator.md, "Threads"); < 0 is refused. */
    int threads IRON__ZERO;
    /* The timing model (docs/timing.md): the call also gets a modelled
     * NPU time, in cycles and seconds, with busy and stalled cycles per
     * worker, DMA channel and fifo endpoint (iron_run_counters.timed and
     * what follows it).  0 = IRON_TIMING (off unless set to 1, yes, true
     * or on), 1 = on, -1 = off.  What the call computes never depends on
     * it.  A timed call uses a specialization of its own, whose kernels
     * are built to count the operations they issue (the first timed call
     * of a design compiles them again). */
    int timing IRON__ZERO;
    /* The clock the model turns cycles into seconds at, in MHz: 0 =
     * IRON_CLOCK_MHZ, else the device's default (npu1 1000, npu2 1800).
     * A timed call with a clock outside the device's range (npu1 800 to
     * 1600, npu2 792 to 1800) fails with IRON_EINVAL naming the value;
     * < 0 is refused. */
    double clock_mhz IRON__ZERO;
} iron_launch_config;

/* The state of a run, with the numbers of XRT's ert_cmd_state (a
 * program that handles both maps one to the other as is; XRT's SUBMITTED,
 * NORESPONSE and the soft-kernel states have no counterpart here).  One
 * table yields the enum and iron_run_state_name().
 *   NEW        being prepared by iron_jit_start (never seen after it
 *              returns)
 *   QUEUED     started, not on the device yet: waiting for a launcher
 *              thread, for its build (a first call), or for its turn on
 *              its specialization (runs of one specialization take turns)
 *   RUNNING    on the device
 *   COMPLETED  finished successfully
 *   ERROR      failed: a deadlock on the device, or a build or sync that
 *              failed (iron_run_error says why)
 *   ABORT      cancelled before it ran (iron_run_free of a queued run; in a
 *              forked child, a run its parent had in flight)
 *   TIMEOUT    the launch configuration's timeout fired
 * The type is spelled `enum iron_run_state`, as `struct stat` beside
 * stat(): iron_run_state(r) is the accessor below. */
#define IRON_RUN_STATE_MAP(XX)                                                \
    XX(NEW,       1)                                                          \
    XX(QUEUED,    2)                                                          \
    XX(RUNNING,   3)                                                          \
    XX(COMPLETED, 4)                                                          \
    XX(ERROR,     5)                                                          \
    XX(ABORT,     6)                                                          \
    XX(TIMEOUT,   8)

enum iron_run_state {
#define IRON__RUN_STATE_ENUM(name, code) IRON_RUN_##name = code,
    IRON_RUN_STATE_MAP(IRON__RUN_STATE_ENUM)
#undef IRON__RUN_STATE_ENUM
};

/* "IRON_RUN_COMPLETED" for IRON_RUN_COMPLETED; "IRON_RUN_UNKNOWN" for a
 * value outside the table (7, or anything a driver made up), never NULL.
 * Thread-safe; the string is static. */
IRON_API const char *iron_run_state_name(enum iron_run_state s);

/* A dispatch-time scalar's value for one call. */
typedef struct iron_scalar {
    const char *name;
    int64_t value;
} iron_scalar;

/* A scalar's value for one call; name borrowed.  Exported, not inline,
 * for FFI callers; pure and thread-safe. */
IRON_API iron_scalar iron_scalar_value(const char *name, int64_t v);

/* IRON_SCALARS(x, y) expands to: 2, (const iron_scalar[]){ x, y } */
#ifndef __cplusplus
#define IRON_SCALARS(...)                                                     \
    (int)(sizeof((iron_scalar[]){ __VA_ARGS__ }) / sizeof(iron_scalar)),      \
        (const iron_scalar[]){ __VA_ARGS__ }
#else
#define IRON_SCALARS(...) IRON__LIST(iron_scalar, __VA_ARGS__)
#endif
#define IRON_NO_SCALARS 0, (const iron_scalar *)NULL

/* IRON_TENSORS(a, b) expands to: 2, (iron_tensor *const[]){ a, b } */
#ifndef __cplusplus
#define IRON_TENSORS(...)                                                     \
    (int)(sizeof((iron_tensor *[]){ __VA_ARGS__ }) / sizeof(iron_tensor *)),  \
        (iron_tensor *const[]){ __VA_ARGS__ }
#else
#define IRON_TENSORS(...) IRON__LIST(iron_tensor *, __VA_ARGS__)
#endif

/* The call, synchronous: the launch configuration (NULL = default),
 * compile-time parameter values by name, dispatch-time scalar values by
 * name (every declared scalar without a default must be given; an unknown
 * name is IRON_EPARAM with the declared ones and the closest name), and
 * the tensors positionally.  Specialises on the first call of each
 * signature; later calls go straight to the device.  The device is
 * iron_device_get_current().  It is iron_jit_start followed by iron_run_wait,
 * done on the calling thread without a handle or another thread. */
IRON_API iron_status iron_jit_launch(iron_jit *j,
                                     const iron_launch_config *config,
                                     int nparams, const iron_param *params,
                                     int nscalars, const iron_scalar *scalars,
                                     int nargs, iron_tensor *const *args);

/* IRON_CALL(jit, a, b, c): tensors only, default configuration. */
#define IRON_CALL(j, ...)                                                     \
    iron_jit_launch((j), NULL, IRON_NO_PARAMS, IRON_NO_SCALARS,               \
                    IRON_TENSORS(__VA_ARGS__))
/* IRON_CALL_WITH(jit, IRON_PARAMS(...), a, b, c) */
#define IRON_CALL_WITH(j, params, ...)                                        \
    iron_jit_launch((j), NULL, params, IRON_NO_SCALARS,                       \
                    IRON_TENSORS(__VA_ARGS__))

/* --- Asynchronous runs ----------------------------------------------------
 * iron_jit_start checks the call as iron_jit_launch does -- configuration,
 * parameters, scalars, tensors: a bad call fails here, with its message --
 * and returns a run in *out that executes on a launcher thread (a small
 * process-wide pool, made on demand: at most IRON_LAUNCH_THREADS, default
 * the CPU count and at least 4) while the caller goes on.  A first
 * call's build happens in the run.  Runs of different jits, or of
 * different specializations of one jit, overlap; runs of one
 * specialization take turns, in the order they were started (a wait that
 * executes a queued run itself lets it go ahead).  The device is the
 * calling thread's current one, taken at the start.  The tensors are held
 * from the start until the run ends: iron_tensor_free of one waits for it;
 * one the run writes must not be read or written meanwhile. */
typedef struct iron_run iron_run;

IRON_API iron_status iron_jit_start(iron_jit *j,
                                    const iron_launch_config *config,
                                    int nparams, const iron_param *params,
                                    int nscalars, const iron_scalar *scalars,
                                    int nargs, iron_tensor *const *args,
                                    iron_run **out);

/* Waits for the run to end, at most timeout_ms milliseconds (-1: as long
 * as it takes, 0: just look), and returns its status: IRON_OK, or its
 * failure, whose message is also iron_last_error() on this thread.
 * IRON_EPENDING when the time is up first; the run goes on, and may be
 * waited for again.  A run no launcher thread has taken yet is executed
 * by a wait without a limit on the calling thread.  Waiting again for an
 * ended run returns the same status.  Any thread may wait. */
IRON_API iron_status iron_run_wait(iron_run *r, int64_t timeout_ms);

/* The run's state now (IRON_RUN_ERROR for NULL). */
IRON_API enum iron_run_state iron_run_state(const iron_run *r);

/* The message of a run that ended in failure, "" otherwise (and for NULL):
 * what iron_last_error() said on the thread that executed it.  Valid
 * until iron_run_free. */
IRON_API const char *iron_run_error(const iron_run *r);

/* Frees a run.  One that has not ended is not waited for: a queued run is
 * cancelled (ABORT) and lets its tensors go; a running one completes in
 * the background and then releases everything.  Not while another thread
 * waits for r.  iron_jit_free waits for the runs of its jit still in
 * flight. */
IRON_API void iron_run_free(iron_run *r);

/* How the jit's last launch ended on the device: IRON_RUN_COMPLETED, or
 * IRON_RUN_ERROR (deadlock) / IRON_RUN_TIMEOUT when it failed there.
 * Launches that fail before reaching the device leave it unchanged. With
 * several runs in flight: the last one to leave the device. */
IRON_API enum iron_run_state iron_jit_last_state(const iron_jit *j);

/* --- Counters of the last call on the emulator ---------------------------
 * Counts are always kept; times (the *_ns fields) only when the call was
 * profiled (iron_launch_config.profile, IRON_LOG=emu, or a trace). */
typedef struct iron_worker_counters {
    const char *worker;
    int col, row;             /* its tile */
    uint64_t iterations;      /* kernel calls (standard loop) or acquires
                                 (core body) in this call */
    uint64_t kernel_ns;       /* running its kernel or core body */
    uint64_t blocked_ns;      /* waiting to acquire, all fifos */
} iron_worker_counters;

/* One user of one endpoint's buffers: the endpoint's own worker, or the
 * DMA channel filling or draining them. */
typedef struct iron_endpoint_counters {
    const char *fifo;         /* the fifo's name */
    const char *endpoint;     /* "fifo 'a' (consumer)": whose buffers */
    const char *by;           /* the worker, or the DMA channel, using it */
    int writes;               /* 1: it fills the buffers; 0: it drains them */
    int col, row;             /* the tile holding the buffers */
    int depth;                /* its buffers */
    uint64_t objects, bytes;  /* released through it in this call */
    int peak;                 /* most buffers in use at once (<= depth) */
    uint64_t blocked_ns;      /* its worker's time waiting on it */
} iron_endpoint_counters;

typedef struct iron_dma_counters {
    const char *channel;      /* "fifo 'a': shim (0,0) -> compute (0,2)" */
    const char *fifo;
    uint64_t objects, bytes;  /* moved in this call */
    uint64_t busy_ns;         /* copying */
} iron_dma_counters;

/* One participant's modelled time in a timed call, in cycles of the
 * call's span.
 *   worker:   busy running its kernel (or core body) and its lock
 *             operations; stall_in waiting for an input object,
 *             stall_out for a free output buffer; idle the rest (busy +
 *             stall_in + stall_out + idle = the span).
 *   DMA:      busy moving (and a shim channel's overhead per task);
 *             stall_in waiting for a filled source buffer, stall_out for
 *             a free destination buffer; idle the rest (waiting for the
 *             sequence to issue an op among it); the four add up too.
 *   endpoint: only the cycles its user waited on it: stall_in when the
 *             user reads it (it was empty), stall_out when it writes it
 *             (it was full); the other fields 0.
 * `kernel_time` (workers): how its kernel's cycles were found:
 * "counted" (the operations it issued through the AIE API), "declared"
 * (iron_kernel_set_cycles), "guess" (its scalar code's basic blocks at a
 * default cost), "none" (no way to tell: counted as 0); NULL otherwise.
 * `kernel` (workers): the part of busy its kernel (or core body) ran, the
 * rest being lock operations; `calls`: a standard loop's kernel calls
 * (0 for a core body and for the rest). */
typedef struct iron_time_counters {
    uint64_t busy, stall_in, stall_out, idle;
    const char *kernel_time;
    uint64_t kernel, calls;
} iron_time_counters;

typedef struct iron_run_counters {
    size_t size IRON__ZERO;       /* sizeof(iron_run_counters) */
    int profiled IRON__ZERO;      /* whether the *_ns fields were measured */
    uint64_t wall_ns IRON__ZERO;  /* the run on the device */
    int nworkers IRON__ZERO, nendpoints IRON__ZERO, ndma IRON__ZERO;
    const iron_worker_counters *workers IRON__ZERO;
    const iron_endpoint_counters *endpoints IRON__ZERO;
    const iron_dma_counters *dma IRON__ZERO;
    /* When the call stalled (IRON_EDEADLOCK) or the scheduler stopped it
     * at its timeout: the whole report of who waits on what, a line saying
     * why and then one line per waiting worker or DMA channel, of any
     * length (the call's message keeps only its first lines when they do
     * not all fit); else NULL.  Read it when size > offsetof(
     * iron_run_counters, report): a driver built before it fills less. */
    const char *report IRON__ZERO;
    /* Timed calls (iron_launch_config.timing; read these when size >
     * offsetof(iron_run_counters, timed)).  The call's modelled time runs
     * from its first runtime op to its last op done; `cycles` at
     * `clock_mhz` is `seconds`.  Per worker, DMA channel and endpoint (in
     * the order of workers, dma and endpoints) the cycles of that span it
     * was busy, stalled and idle.  `unbounded`: a worker still runs when
     * the sequence completes (one that loops forever); its time is
     * counted to that point.  `summary` is what `iron run --timing`
     * prints: the time, the sentence naming what bounds it
     * (`bottleneck`), and a line per worker and DMA channel.  timed == 0
     * leaves the rest zero / NULL. */
    int timed IRON__ZERO;
    uint64_t cycles IRON__ZERO;
    double clock_mhz IRON__ZERO;
    double seconds IRON__ZERO;
    int unbounded IRON__ZERO;
    const iron_time_counters *worker_time IRON__ZERO;
    const iron_time_counters *dma_time IRON__ZERO;
    const iron_time_counters *endpoint_time IRON__ZERO;
    const char *bottleneck IRON__ZERO;
    const char *summary IRON__ZERO;
} iron_run_counters;

/* The counters of j's last call (*out valid until j's next call or
 * iron_jit_free).  IRON_ESTATE when j has not run yet; IRON_ENOTSUP when
 * its device keeps none. */
IRON_API iron_status iron_jit_get_counters(const iron_jit *j,
                                           const iron_run_counters **out);

/* Counters since creation.  Thread-unsafe like the jit itself. */
typedef struct iron_jit_stats {
    size_t size IRON__ZERO;               /* sizeof(iron_jit_stats) */
    uint64_t calls IRON__ZERO;            /* launches attempted */
    uint64_t memory_hits IRON__ZERO;      /* launches that found their
                                             specialization */
    uint64_t builds IRON__ZERO;           /* specializations built
                                             (design+compile) */
    uint64_t design_runs IRON__ZERO;      /* times the design function ran */
    uint64_t kernel_compiles IRON__ZERO;  /* kernels the C compiler built */
    uint64_t specializations IRON__ZERO;  /* held now */
    double last_build_ms IRON__ZERO;      /* wall time of the most recent
                                             build */
    uint64_t disk_hits IRON__ZERO;        /* builds whose kernels came from the
                                             disk */
    uint64_t disk_misses IRON__ZERO;      /* lookups that found no usable
                                             entry */
    uint64_t disk_writes IRON__ZERO;      /* entries published */
    uint64_t artifact_hits IRON__ZERO;    /* builds whose kernels came from an
                                             artifact */
    uint64_t kernel_shares IRON__ZERO;    /* builds whose kernels were all
                                             loaded already for another
                                             specialization of the jit */
    uint64_t evictions IRON__ZERO;        /* specializations unloaded by the
                                             resident cap */
} iron_jit_stats;

IRON_API iron_status iron_jit_get_stats(const iron_jit *j,
                                        iron_jit_stats *stats);

/* A compiled specialization, owned by its jit (valid until iron_jit_free).
 * iron_jit_specialize builds it ahead of the first call (warm-up) or finds
 * it; iron_spec_launch runs it directly, checking only the tensors'
 * count, dtypes and shapes against its signature -- the fastest path --
 * and iron_spec_start is its asynchronous form (see iron_jit_start). */
typedef struct iron_spec iron_spec;
IRON_API iron_status iron_jit_specialize(iron_jit *j,
                                         const iron_launch_config *config,
                                         int nparams, const iron_param *params,
                                         int nargs, iron_tensor *const *args,
                                         iron_spec **out);
IRON_API iron_status iron_spec_launch(iron_spec *s, int nscalars,
                                      const iron_scalar *scalars, int nargs,
                                      iron_tensor *const *args);
IRON_API iron_status iron_spec_start(iron_spec *s, int nscalars,
                                     const iron_scalar *scalars, int nargs,
                                     iron_tensor *const *args, iron_run **out);
/* "vadd (a: int32[4096], ...; tile=16; npu2, 8 columns)" */
IRON_API const char *iron_spec_signature(const iron_spec *s);

/* Builds (or finds) the specialization a launch with these arguments would
 * use, without running it, and returns its placed design as text in *text
 * (free with iron_free). */
IRON_API iron_status iron_jit_dump(iron_jit *j,
                                   const iron_launch_config *config,
                                   int nparams, const iron_param *params,
                                   int nargs, iron_tensor *const *args,
                                   char **text);

/* The placed design in another form (*text: free with iron_free):
 * format "text" is iron_jit_dump; "json" (every FIFO with its endpoints,
 * depths and tiles, links, workers with tiles and kernels, the runtime
 * sequence, DMA channels, tile use), "dot" (the FIFO graph for Graphviz),
 * "grid" (a text picture of the array's tiles), "mlir" and "mlir-generic"
 * (the MLIR-AIE text iron_jit_export_mlir writes as aie.mlir for upstream
 * "latest", pretty or generic) stop after placement and need no C compiler.
 * IRON_EINVAL for another format. */
IRON_API iron_status iron_jit_dump_as(iron_jit *j,
                                      const iron_launch_config *config,
                                      int nparams, const iron_param *params,
                                      int nargs, iron_tensor *const *args,
                                      const char *format, char **text);

/* Runs the design function, verification and placement for a launch with
 * these arguments -- no C compiler, nothing cached or loaded -- and
 * returns a one-line summary in *summary (free with iron_free): "NAME
 * (SIGNATURE): ok: 2 workers, 3 fifos, ... columns used 1 of 4".  On
 * failure the status and message of the stage that failed. */
IRON_API iron_status iron_jit_check(iron_jit *j,
                                    const iron_launch_config *config,
                                    int nparams, const iron_param *params,
                                    int nargs, iron_tensor *const *args,
                                    char **summary);

/* The debug log.  IRON_LOG=jit,cache (or all) prints each build with its
 * reason and per-stage times, and each disk-cache hit or miss, to stderr.
 * A handler set here receives every line instead (topic "jit", "cache" or
 * "emu"; the line without a newline), whatever IRON_LOG says; NULL
 * restores stderr.  Thread-safe; the handler may be called from any
 * thread that uses the library. */
typedef void (*iron_log_fn)(const char *topic, const char *line, void *ctx);
IRON_API void iron_log_set_handler(iron_log_fn fn, void *ctx);

/* One line a kernel or core body printed (printf, puts, fwrite or write to
 * stdout or stderr), tagged with who printed it.  Lines of one worker
 * arrive in order; a last line without a newline arrives at the end of the
 * call. */
typedef struct iron_output_line {
    size_t size IRON__ZERO;              /* sizeof(iron_output_line) */
    const char *worker IRON__ZERO;       /* the worker's name */
    int col IRON__ZERO, row IRON__ZERO;  /* its tile */
    uint64_t iteration IRON__ZERO;       /* standard loop: the kernel call
                                            (from 0); core body: the acquires
                                            it had made */
    int fd IRON__ZERO;                   /* 1: stdout, 2: stderr */
    const char *text IRON__ZERO;         /* the line without its newline */
} iron_output_line;

/* Where kernel output goes.  By default each line is printed to the
 * kernel's stdout or stderr as "[worker (col,row) #iteration] text".  A
 * handler set here receives every line instead; NULL restores the
 * default.  The function and its context are swapped together.
 * Thread-safe; the handler may be called from any thread that runs the
 * emulator, one line at a time. */
typedef void (*iron_output_fn)(const iron_output_line *line, void *ctx);
IRON_API void iron_output_set_handler(iron_output_fn fn, void *ctx);

/* Ahead-of-time artifacts.  save builds (or finds) the specialization a
 * launch with these arguments would use and writes its compiled kernels,
 * with the full text of its key (everything but the compiler), to one
 * self-contained file (written atomically, not writable by group or
 * others).  load reads one into a jit; a later build whose design,
 * kernels and device match -- whose key text is the artifact's byte for
 * byte -- uses it instead of the C compiler, so it runs where no compiler
 * is installed.  A build no artifact matches compiles as usual, and if
 * that fails the message names what each loaded artifact was made for.
 *
 * An artifact is native code loaded into this process.  load fails
 * (IRON_EIO, naming the path and the reason) at once for anything but a
 * regular file (a FIFO or device is never waited on), a file owned by
 * neither this user nor root, one group or others may write, one over
 * 256 MiB, a damaged one (format, library version, checksums) or one made
 * by another jit (IRON_EINVAL).  Its checksums detect damage, not
 * tampering: they are no signature. */
IRON_API iron_status iron_jit_save_artifact(iron_jit *j,
                                            const iron_launch_config *config,
                                            int nparams,
                                            const iron_param *params,
                                            int nargs,
                                            iron_tensor *const *args,
                                            const char *path);
IRON_API iron_status iron_jit_load_artifact(iron_jit *j, const char *path);
/* load, only if the file's SHA-256 is sha256_hex (64 hex digits, as
 * `sha256sum FILE` prints them): pins the exact file the caller reviewed
 * or built, so that a file replaced since is refused (IRON_EIO naming
 * both digests).  The digest is of the bytes actually loaded.  IRON_EINVAL
 * when sha256_hex is not 64 hex digits. */
IRON_API iron_status iron_jit_load_artifact_pinned(iron_jit *j,
                                                   const char *path,
                                                   const char *sha256_hex);

/* Frees memory the library returned to the caller (iron_jit_dump). */
IRON_API void iron_free(void *p);

/* ------------------------------------------------------------------------
 * The disk cache (tools)
 *
 * Compiled specializations are kept on disk under $IRON_CACHE_DIR, else
 * $XDG_CACHE_HOME/iron, else ~/.cache/iron; IRON_CACHE=0 bypasses it.
 * These functions inspect and trim a cache folder (dir NULL: the default).
 * They are safe to run while other processes use the cache.
 * ------------------------------------------------------------------------ */

typedef struct iron_cache_entry_info {
    char key[33];              /* 32 hex digits */
    char name[64];             /* the jit's name */
    char signature[512];       /* the specialization's signature */
    uint64_t bytes;
    int64_t last_use;          /* seconds since the epoch */
    int valid;                 /* 1: header, key text and payload all check
                                  (checksums and decoding); 0: damaged or
                                  foreign (a miss if read) */
    /* Since 0.5. */
    int foreign;               /* invalid because another format or library
                                  version wrote it: not damage, and prune
                                  leaves it for that version */
    char why[256];             /* when invalid, what is wrong ("checksum
                                  mismatch", "library 0.3.0, expected
                                  0.5.0"); "" when valid */
} iron_cache_entry_info;

typedef void (*iron_cache_entry_fn)(const iron_cache_entry_info *e,
                                    void *ctx);

/* The folder in force for dir (NULL: the default) in *out (free with
 * iron_free).  IRON_EIO when there is none (no IRON_CACHE_DIR,
 * XDG_CACHE_HOME or HOME). */
IRON_API iron_status iron_cache_get_path(const char *dir, char **out);
/* Calls fn for every entry, valid or not, each checked whole (header,
 * key text and payload checksums, the payload's structure), in no
 * particular order; e is valid during the call.  A folder that does not
 * exist has no entries.  IRON_EINVAL when fn is NULL; IRON_EIO naming the
 * folder when it cannot be read. */
IRON_API iron_status iron_cache_list(const char *dir, iron_cache_entry_fn fn,
                                     void *ctx);
/* Number of entries and their total size. */
IRON_API iron_status iron_cache_get_usage(const char *dir, uint64_t *entries,
                                          uint64_t *bytes);
/* Removes every entry. */
IRON_API iron_status iron_cache_clear(const char *dir);
/* Removes damaged entries, then least-recently-used ones until at most
 * max_bytes remain. */
IRON_API iron_status iron_cache_prune(const char *dir, uint64_t max_bytes,
                                      uint64_t *removed);
/* iron_cache_prune, also counting in *damaged (may be NULL) the entries
 * removed because they were damaged; *removed (may be NULL) counts all.
 * Entries of another format or library version are not damage and stay
 * unless the size cap evicts them.  Since 0.5. */
IRON_API iron_status iron_cache_prune_v2(const char *dir, uint64_t max_bytes,
                                         uint64_t *removed,
                                         uint64_t *damaged);
/* The size cap a program uses when its jit gives none (the jit option
 * cache_max_bytes): $IRON_CACHE_MAX, else 256 MiB.  *source, if not
 * NULL, gets "IRON_CACHE_MAX" or "default" (static text).  A value of
 * IRON_CACHE_MAX that is not a byte count is a warning (once per process)
 * and the default applies, as in a program.  IRON_EINVAL when max_bytes
 * is NULL.  Since 0.5. */
IRON_API iron_status iron_cache_get_max_size(uint64_t *max_bytes,
                                             const char **source);

/* ------------------------------------------------------------------------
 * Tools: the environment's table and name hints
 *
 * What a tool built on the library (the `iron` command is one) needs to
 * describe the library's settings and suggest the name a user meant,
 * from the same tables the library's own messages use.
 * ------------------------------------------------------------------------ */

/* One IRON_* variable the library reads, as `iron --help` and
 * docs/architecture.md's table describe it.  Every text is static. */
typedef struct iron_env_info {
    size_t size IRON__ZERO;           /* set to sizeof(iron_env_info) by the
                                         caller */
    const char *name IRON__ZERO;      /* "IRON_TIMEOUT_MS" */
    const char *meaning IRON__ZERO;   /* one sentence */
    const char *default_value IRON__ZERO;  /* as text: "60000", "npu2" */
    const char *accepts IRON__ZERO;   /* what values it takes */
    const char *read IRON__ZERO;      /* when the library reads it ("once per
                                         process, at the first run") */
} iron_env_info;

/* How many variables the table has; they are 0 .. count - 1, in the
 * table's order.  Thread-safe. */
IRON_API int iron_env_count(void);
/* Fills *info with variable i.  IRON_EINVAL when info is NULL, when
 * info->size is below sizeof(iron_env_info) (the message gives both) or
 * when i is outside 0 .. iron_env_count() - 1 (the message gives the
 * range).  Thread-safe. */
IRON_API iron_status iron_env_get_info(int i, iron_env_info *info);

/* The one of names[0 .. n) nearest to word by edit distance when it is
 * close enough to be a typo of it (at most two edits), the first such
 * on a tie; else NULL (also when word or names is NULL or n <= 0; NULL
 * entries of names are skipped).  The rule behind the library's "did you
 * mean" in messages.  Returns one of the given pointers; thread-safe;
 * leaves iron_last_error() as it is. */
IRON_API const char *iron_closest_name(const char *word,
                                       const char *const *names, int n);

/* ------------------------------------------------------------------------
 * Algorithms
 *
 * Generic designs, as upstream IRON's aie.iron.algorithms: the design
 * decides the dataflow, the caller's kernel (the `f: kernel` parameter,
 * an iron_kernel_ref) decides the operation.  Each distinct kernel is its
 * own specialization.  Create a jit running one with
 * iron_algo_jit_create, or with iron_jit_create(iron_algo_design(k),
 * &opts, out) and opts.args / opts.params set to iron_algo_args(k) /
 * iron_algo_params(k) when other options (cache, cflags) are wanted; then
 * call it with the kernel:
 *
 *   iron_jit *j;
 *   iron_algo_jit_create(IRON_ALGO_TRANSFORM, "relu", &j);
 *   IRON_CALL_WITH(j, IRON_PARAMS(iron_param_kernel("f", &relu)), x, y);
 *
 * Arguments, parameters and the kernel's calling convention (T is the
 * tensors' dtype; the kernel's arg_types must say exactly these types,
 * e.g. "float32*, float32*, int32" for a float32 transform):
 *
 *   transform                 args "in x: T, out y: T"
 *                             params "f: kernel, tile: int = 64"
 *                             void f(const T *in, T *out, int32_t n)
 *     y = f(x) elementwise: x and y (same dtype and shape, any shape,
 *     seen flat) stream through one worker in objects of `tile` elements;
 *     f is called once per object with n = tile.
 *   transform_binary          args "in a: T, in b: T, out c: T"
 *                             params "f: kernel, tile: int = 64"
 *                             void f(const T *a, const T *b, T *out,
 *                                    int32_t n)
 *     c = f(a, b) elementwise, as transform.
 *   transform_parallel        args as transform
 *   transform_parallel_binary args as transform_binary
 *                             params "f: kernel, tile: int = 64,
 *                                     workers: int = 0"
 *     The same spread over `workers` workers, one per column from column
 *     0 (0: every column the launch configuration grants), each taking a
 *     contiguous slice of numel / workers elements; the columns run side
 *     by side.
 *   for_each                  args "inout x: T"
 *                             params "f: kernel, tile: int = 64"
 *                             void f(const T *in, T *out, int32_t n)
 *     x = f(x) in place: x is read through one fifo and written back
 *     through another, so f sees separate input and output objects (as
 *     upstream's for_each) and may read `in` after writing `out`.
 *   reduce                    args "in x: T, out y: U"
 *                             params "f: kernel"
 *                             void f(const T *in, U *out, int32_t n)
 *     One call of f per launch with the whole input (n = numel(x)) and
 *     the whole output (any dtype U and shape, typically one element):
 *     a reduction keeps state across every element, so nothing is tiled.
 *
 * Errors, reported by the call that specializes (design errors carry
 * the algorithm's name and the argument or parameter):
 *   IRON_EARG       a tensor whose dtype differs from the first's (the
 *                   declarations' T; from the jit, before the design
 *                   runs);
 *   IRON_EPARAM     f missing or not a kernel (from the jit); f's
 *                   arg_types are not the convention above for these
 *                   dtypes; tile outside 1 .. INT32_MAX; workers outside
 *                   0 .. the granted columns;
 *   IRON_ESHAPE     the tensors' shapes differ; numel not a multiple of
 *                   tile (tile x workers for the parallel forms); a
 *                   transfer (a worker's slice, reduce's tensors) that is
 *                   not whole 4-byte words, as the shim DMA moves;
 *   IRON_EDTYPE     dtypes differ (when the jit was declared without T);
 *   IRON_ERESOURCE  a worker's buffers do not fit its compute tile's data
 *                   memory beside its stack: 2 buffers of each fifo (the
 *                   message gives the largest tile that fits), or for
 *                   reduce the whole input plus the output;
 *   IRON_EDESIGN    the jit declares another number of tensors.
 * ------------------------------------------------------------------------ */

typedef enum iron_algo {
    IRON_ALGO_TRANSFORM,
    IRON_ALGO_TRANSFORM_BINARY,
    IRON_ALGO_TRANSFORM_PARALLEL,
    IRON_ALGO_TRANSFORM_PARALLEL_BINARY,
    IRON_ALGO_FOR_EACH,
    IRON_ALGO_REDUCE,
    IRON_ALGO_COUNT_
} iron_algo;

/* The design functions, for iron_jit_create; `user` is unused.  They
 * run on the thread building the specialization, as every design. */
IRON_API int iron_algo_transform(iron_design *d, void *user);
IRON_API int iron_algo_transform_binary(iron_design *d, void *user);
IRON_API int iron_algo_transform_parallel(iron_design *d, void *user);
IRON_API int iron_algo_transform_parallel_binary(iron_design *d, void *user);
IRON_API int iron_algo_for_each(iron_design *d, void *user);
IRON_API int iron_algo_reduce(iron_design *d, void *user);

/* An algorithm's name ("transform_binary"), design function, and the
 * iron_jit_options.args and .params strings it expects (static strings).
 * NULL for a kind outside the enum.  Thread-safe. */
IRON_API const char *iron_algo_name(iron_algo kind);
IRON_API iron_design_fn iron_algo_design(iron_algo kind);
IRON_API const char *iron_algo_args(iron_algo kind);
IRON_API const char *iron_algo_params(iron_algo kind);

/* Creates a jit running algorithm `kind`, named `name` in messages and
 * the cache (NULL: the algorithm's name), with the default options
 * otherwise.  IRON_EINVAL for a NULL out or a kind outside the enum.
 * Thread-safe to call, as iron_jit_create. */
IRON_API iron_status iron_algo_jit_create(iron_algo kind, const char *name,
                                          iron_jit **out);

/* ------------------------------------------------------------------------
 * MLIR-AIE: the bridge to upstream's toolchain (docs/mlir.md)
 *
 * Export writes a design as the objectfifo-level MLIR that upstream IRON
 * emits, for upstream's aiecc and the Peano compiler; import runs
 * upstream's objectfifo-level MLIR on the emulator.
 * ------------------------------------------------------------------------ */

typedef struct iron_mlir_options {
    size_t size IRON__ZERO;   /* sizeof(iron_mlir_options) */
    /* The upstream mlir-aie version whose syntax to write, so that its
     * aiecc reads the text as it is: "2025-04" (aiex.runtime_sequence,
     * npu1_4col, link_with on aie.core), "2025-06" (npu1 is the 4-column
     * device), "2025-11" (aie.runtime_sequence), "2026-03" (link_with on
     * func.func) or "latest" (use_lock's and rtp_write's values as i32
     * operands, dma_bd's keyword form).  NULL: "latest".  Another name is
     * IRON_EINVAL listing these.  docs/mlir.md has what each prints. */
    const char *upstream IRON__ZERO;
    int generic IRON__ZERO;   /* 1: every op in MLIR's generic form */
} iron_mlir_options;

/* The name of export target i for iron_mlir_options.upstream, oldest
 * first ("2025-04"; the last is "latest", the default), or NULL for i
 * out of range (a static string).  Thread-safe. */
IRON_API const char *iron_mlir_upstream(int i);

/* Builds the specialization a launch with these arguments would use
 * (design, verification, placement; no C compiler) and writes into
 * folder `dir` (created if missing; files replaced atomically):
 *   aie.mlir         the design (opts NULL: the defaults above);
 *   kernels/NAME.c   each kernel's source with its defines applied;
 *   Makefile         aiecc + Peano recipe for the device's architecture;
 *   README.md        how to build and run it on an NPU;
 *   host.cpp         an XRT host program skeleton: the xclbin, the
 *                    instruction stream and one buffer per argument in
 *                    runtime-sequence order.
 * A worker whose core body is C source only (iron_kernel_new_core) cannot
 * be exported: IRON_ENOTSUP naming the worker.  The text alone is
 * iron_jit_dump_as with format "mlir" (or "mlir-generic"). */
IRON_API iron_status iron_jit_export_mlir(iron_jit *j,
                                          const iron_launch_config *config,
                                          int nparams,
                                          const iron_param *params,
                                          int nargs, iron_tensor *const *args,
                                          const iron_mlir_options *opts,
                                          const char *dir);

/* An external function a module declares (func.func private) and its C
 * (or C++) source, which defines a function of that name with the
 * parameters the declaration gives (memref<..xT> as T*, iN / fN by
 * value). */
typedef struct iron_mlir_kernel {
    const char *name;         /* the func.func symbol, without '@' */
    const char *source;       /* C source, or C++ when lang says so */
    /* IRON_KERNEL_LANG_AUTO (0, what an initializer without it gives) and
     * _C: C; _CXX: C++ (iron_kernel_set_lang).  `iron run-mlir --kernel`
     * sets C++ for a .cc, .cpp, .cxx, .C or .c++ file. */
    iron_kernel_lang lang;
} iron_mlir_kernel;

typedef struct iron_mlir iron_mlir;   /* an imported module */

/* Parses and checks upstream objectfifo-level MLIR (pretty or generic
 * form, the syntax of any upstream version since 2024; docs/mlir.md,
 * "The imported subset", lists the ops) into a design: its tiles are pinned as written and
 * checked against the device at placement, core bodies become described
 * bodies, external functions are bound to the kernels given.  `file`
 * names the text in messages (NULL: "<mlir>").  A module with one
 * aie.device runs it; one with several needs iron_mlir_design_with's
 * device_name.  func.func declarations beside the device are read as if
 * declared in it.  Errors carry FILE:LINE:COL and the op: IRON_ESYNTAX
 * for text that does not parse, IRON_ENOTSUP for an op or form outside
 * the subset -- the same message whether the op is written in the
 * generic form or in a custom form the parser does not know (aie.flow,
 * memref.global, ...) --, IRON_EDESIGN for undefined symbols and wrong
 * types, IRON_EINVAL for an external function with no source given (or a
 * source given for no function) and for a module with several devices
 * and no device_name (the message lists their names).  Nothing is run.
 * text and kernels are copied; free the result with iron_mlir_free.
 * Thread-safe (no shared state). */
IRON_API iron_status iron_mlir_design(const char *text, size_t len,
                                      const char *file, int nkernels,
                                      const iron_mlir_kernel *kernels,
                                      iron_mlir **out);

/* Options of iron_mlir_design_with; zero-initialise and set size. */
typedef struct iron_mlir_import_options {
    size_t size IRON__ZERO;   /* sizeof(iron_mlir_import_options) */
    /* The aie.device to run, by its symbol name without '@' (`aie.device(
     * npu1) @NAME {`; an unnamed device is "main", upstream's default),
     * as aiecc's --device-name chooses it.  NULL or "": the module's only
     * device.  The other devices are not read at all: ops outside the
     * subset in them are no error. */
    const char *device_name IRON__ZERO;
} iron_mlir_import_options;

/* iron_mlir_design with options (opts NULL: the defaults above).  Beyond
 * iron_mlir_design's errors: IRON_EINVAL when device_name names no
 * device of the module (the message lists the names it has) or opts->size
 * is not a size this version knows; IRON_EDESIGN when it names several
 * devices. */
IRON_API iron_status iron_mlir_design_with(
    const char *text, size_t len, const char *file, int nkernels,
    const iron_mlir_kernel *kernels, const iron_mlir_import_options *opts,
    iron_mlir **out);
IRON_API void iron_mlir_free(iron_mlir *m);
/* The design function (pass the module as `user`) and the argument
 * declaration its runtime sequence makes ("inout arg0: int32[64], ..."),
 * for iron_jit_create; the device the selected aie.device names
 * ("npu1_1col").  Borrowed from m. */
IRON_API int iron_mlir_design_fn(iron_design *d, void *user);
IRON_API const char *iron_mlir_args(const iron_mlir *m);
IRON_API const char *iron_mlir_device(const iron_mlir *m);
/* A jit running the module (name NULL: the module's device symbol or
 * "mlir").  m must outlive the jit. */
IRON_API iron_status iron_mlir_jit_create(iron_mlir *m, const char *name,
                                          iron_jit **out);

#ifdef __cplusplus
}
#endif

#endif /* IRON_IRON_H */
