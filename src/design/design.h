/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * design.h - the design IR: what a design function builds (FIFOs, kernels,
 * workers, the runtime sequence), plus the fields verify and place fill in.
 * The builder (src/design) writes it and verify checks it; the placer
 * (src/place) reads it and writes its results into the program's own
 * tables, never back here.  The program owns it; drivers never see it.
 */
#ifndef IRON_DESIGN_DESIGN_H
#define IRON_DESIGN_DESIGN_H

#include "compile/compile.h"
#include "core/core.h"
#include "core/npu.h"
#include "iron/iron.h"
#include "kexpr/kexpr.h"

typedef enum iron__role {
    IRON__ROLE_IN,
    IRON__ROLE_OUT,
    IRON__ROLE_INOUT
} iron__role;

/* What the design function may learn about one tensor argument. */
typedef struct iron__argsig {
    const char *name;
    iron__role role;
    iron_dtype dtype;
    iron_shape shape;
    int64_t numel;
} iron__argsig;

/* A resolved compile-time parameter value (declared type, given or
 * default value).  Strings are owned by the jit's specialization. */
typedef struct iron__pval {
    const char *name;
    iron_param_type type;
    int64_t i;
    double f;
    const char *s;
    iron_dtype dtype;
    iron_kernel_ref kernel;   /* strings owned like s */
} iron__pval;

typedef enum iron__user {
    IRON__USER_NONE,
    IRON__USER_WORKER,
    IRON__USER_RUNTIME,
    IRON__USER_LINK           /* a memtile link's input or output */
} iron__user;

typedef struct iron__link iron__link;

struct iron_handle {
    iron_fifo *fifo;
    int is_prod;
    int cons_index;           /* consumers: 0 .. ncons-1; producer: -1 */
    int depth;                /* declared buffers on this endpoint */
    int max_acquire;          /* worker handles: the most objects the
                                 worker holds at once (standard loop: 1;
                                 core bodies: iron_arg_fifo_acquire) */
    int has_dims;             /* dims_to_stream / dims_from_stream set */
    iron_tap dims;            /* offset 0 */
    iron__user user;
    iron_worker *worker;      /* user == IRON__USER_WORKER */
    iron__link *link;         /* user == IRON__USER_LINK */
    int shim_pinned;          /* iron_handle_set_shim gave the column */
    int shim_col;
};

typedef enum iron__link_kind {
    IRON__LINK_FORWARD,
    IRON__LINK_SPLIT,
    IRON__LINK_JOIN
} iron__link_kind;

/* A link through a memtile: forward and split have one input and n
 * outputs, join n inputs and one output.  offsets are per output (split)
 * or per input (join), in elements of the one big object. */
struct iron__link {
    iron__link_kind kind;
    int index;
    int nin, nout;
    iron_handle *in[IRON__MAX_CONS];    /* consumer handles on the memtile */
    iron_handle *out[IRON__MAX_CONS];   /* producer handles on the memtile */
    int64_t offsets[IRON__MAX_CONS];
    iron_link_place place;    /* where the user wants it */
    /* forward with a new object type: objects of the smaller side per
     * object of the larger (the pool's); 1 otherwise */
    int in_pieces, out_pieces;
    size_t big_bytes;         /* bytes of one object of the link's pool */
    iron__tile tile;          /* place == IRON_LINK_TILE: where (placement
                                 results live in the program) */
};

/* A run-time parameter buffer or a barrier; each worker using one gets its
 * own copy on its tile. */
struct iron_rtp {
    iron_design *d;
    int index;
    char *name;
    iron_dtype dtype;
    int64_t count;
    void *initial;            /* count elements at load, or NULL: zeros */
};

struct iron_barrier {
    iron_design *d;
    int index;
    char *name;
    int initial;              /* the lock's value at load (0..63) */
};

/* A task group of the runtime sequence (index 1..; 0 is the sequence's
 * own group, finished when the sequence ends). */
struct iron_task_group {
    iron_design *d;
    int index;
    int open_op;              /* the op that opened it */
    int finished;
};

struct iron_fifo {
    iron_design *d;
    int index;
    char *name;
    iron_dtype dtype;
    iron_shape obj_shape;
    int64_t obj_numel;
    size_t obj_bytes;
    int depth;
    iron_handle prod;
    int ncons;
    iron_handle *cons[IRON__MAX_CONS];
};

typedef struct iron__define {
    char *name, *value;
} iron__define;

struct iron_kernel {
    iron_design *d;
    int index;
    int is_core;              /* a custom core body (iron_kernel_new_core) */
    char *entry;
    char *source;
    char *cflags;             /* per-kernel extra flags, or NULL */
    iron_kernel_lang lang;    /* as set (iron_kernel_set_lang); AUTO until
                                 then: iron__kernel_is_cxx decides */
    /* iron_kernel_new_file: the source file and its folder (searched by
     * #include "..."), absolute, and the include folders given with it
     * (absolute, searched by both #include forms); NULL and 0 for a
     * kernel given as text. */
    char *path, *path_dir;
    int nincdirs;
    char **incdirs;
    int nargs;
    iron__ktype args[IRON__MAX_KARGS];
    char *argnames[IRON__MAX_KARGS];  /* the names the declaration gives
                                         them ("int32 n"), or NULL */
    iron__kexpr *cycles;      /* the declared cost per call
                                 (iron_kernel_set_cycles), or NULL */
    int ndefines;
    iron__define *defines;
    struct iron_body *body;   /* the described body this core body was
                                 translated from, or NULL (src/body) */
};

struct iron_worker {
    iron_design *d;
    int index;
    char *name;
    iron_kernel *kernel;
    int64_t iterations;
    int nargs;
    iron_arg args[IRON__MAX_KARGS];
    int started;
    int start_order;          /* position among iron_rt_start calls */
    int pinned;               /* iron_worker_place gave the tile, or its
                                 column only (tile.row -1) */
    uint32_t stack_bytes;     /* its core's stack in tile memory */
    iron__tile tile;          /* pinned: where (placement results live in
                                 the program) */
    struct iron_body *body;   /* a described body (iron_worker_new_body),
                                 or NULL */
};

typedef enum iron__rt_kind {
    IRON__RT_FILL,
    IRON__RT_DRAIN,
    IRON__RT_SET_RTP,
    IRON__RT_SET_BARRIER,
    IRON__RT_GROUP_START,
    IRON__RT_GROUP_FINISH
} iron__rt_kind;

/* design.c: "int32[16, 4]" -- a dtype and shape as every dump and message
 * writes them. */
void iron__design_type_text(iron__str *s, iron_dtype dt, iron_shape sh);

/* "fill", "drain", ...: the name dumps give an op (runtime.c). */
const char *iron__rt_kind_name(iron__rt_kind k);

typedef struct iron__rt_op {
    iron__rt_kind kind;
    iron_handle *h;           /* FILL, DRAIN */
    int arg;                  /* FILL, DRAIN */
    iron_tap tap;             /* FILL, DRAIN */
    int wait;                 /* DRAIN */
    iron_rtp *rtp;            /* SET_RTP */
    iron_barrier *barrier;    /* SET_BARRIER */
    int64_t index;            /* SET_RTP: element */
    double value;             /* SET_RTP, SET_BARRIER */
    int scalar;               /* SET_RTP value / FILL, DRAIN offset from
                                 this dispatch-time scalar, or -1 */
    int group;                /* the task group it belongs to (0: none);
                                 GROUP_START/FINISH: the group opened or
                                 finished */
} iron__rt_op;

/* A growable array of pointers or ops. */
#define IRON__VEC(type) struct { type *v; int n, cap; }

struct iron_design {
    /* What the design function sees. */
    const char *jit_name;
    int nargs;
    const iron__argsig *args;
    int nparams;
    const iron__pval *params;
    int cols;
    const iron_device_info *dev;
    const char *jit_cflags;
    int nscalars;
    const char *const *scalar_names;

    /* Sticky error: the first failure. */
    iron_status status;
    char *error;

    /* Built. */
    IRON__VEC(iron_fifo *) fifos;
    IRON__VEC(iron_kernel *) kernels;
    IRON__VEC(iron_worker *) workers;
    IRON__VEC(iron__rt_op) ops;
    IRON__VEC(iron__link *) links;
    IRON__VEC(iron_rtp *) rtps;
    IRON__VEC(iron_barrier *) barriers;
    IRON__VEC(iron_task_group *) groups;   /* groups.v[i] has index i + 1 */
    IRON__VEC(struct iron_body *) bodies;  /* described bodies (owned) */
    /* How iron__design_free frees them: src/body sets it with the first
     * body it adds.  The design sits below the body module (a body names
     * the design's fifos and kernels), so it calls back rather than
     * include body.h. */
    void (*body_free)(struct iron_body *b);
    IRON__VEC(iron_handle *) merged;       /* runtime consumers folded
                                              into another (owned) */
    int any_started;          /* iron_rt_start named at least one worker */
    int nstarted;
    iron_task_group *current; /* the group new ops join, or NULL */
};

/* Creates an empty design for one specialization; the pointed-to inputs
 * must outlive it. */
iron_status iron__design_new(iron_design **out, const char *jit_name,
                             int nargs, const iron__argsig *args, int nparams,
                             const iron__pval *params, int cols,
                             const iron_device_info *dev,
                             const char *jit_cflags, int nscalars,
                             const char *const *scalar_names);
void iron__design_free(iron_design *d);

/* Records the first failure on the design; returns its status. */
iron_status iron__design_fail(iron_design *d, iron_status s, const char *fmt,
                              ...) IRON__PRINTF(3, 4);

/* Whether k's source is C++: set so (iron_kernel_set_lang), or AUTO and
 * read from a file named *.cc, *.cpp, *.cxx, *.C or *.c++. */
int iron__kernel_is_cxx(const iron_kernel *k);

/* kernel.c: a declaration's parameter names taken off.  *types = decl
 * without them (iron__malloc'd), the list the type parser reads;
 * names[i] = item i's name (iron__malloc'd) or NULL.  An item is a type,
 * then optionally a name after a blank, '*' or ')'.  Errors (IRON_EINVAL,
 * naming the 1-based item): two words after the type, a name given
 * twice; a type that is not one is left for the type parser to report.
 * On failure nothing is left allocated and *types is NULL. */
iron_status iron__kernel_split_names(const char *decl, char **types,
                                     char *names[IRON__MAX_KARGS]);

/* "int", "float", "bool", "str", "dtype", "kernel" */
const char *iron__param_type_name(iron_param_type t);

/* "in", "out", "inout" */
const char *iron__role_name(iron__role r);

/* "fifo 'a' (consumer 1)", "fifo 'c' (producer)" into buf. */
const char *iron__handle_label(const iron_handle *h, char *buf, size_t len);

/* Who uses a handle, for messages: "worker 'w'", "a memtile link",
 * "the runtime sequence". */
const char *iron__handle_user(const iron_handle *h, char *buf, size_t len);

#endif
