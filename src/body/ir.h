/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * ir.h - the core-body IR's own data, shared by the files of src/body
 * only (others use body.h): values with their MLIR types, ops in
 * regions, the stack of open regions, and the helpers every builder
 * call uses (checking an operand, failing with the body's and the op's
 * names, adding a value or an op).
 */
#ifndef IRON_BODY_IR_H
#define IRON_BODY_IR_H

#include "body/body.h"
#include "design/design.h"

/* What a HANDLE value stands for. */
typedef enum iron__bh {
    IRON__BH_NONE,
    IRON__BH_FIFO,            /* a fifo parameter */
    IRON__BH_BARRIER,         /* a barrier parameter */
    IRON__BH_KERNEL,          /* a kernel parameter */
    IRON__BH_ACQ              /* the result of an acquire */
} iron__bh;

typedef struct iron__bval {
    iron_body_type t;
    iron__bh hkind;           /* HANDLE */
    int param;                /* the parameter it names (an acquisition:
                                 its fifo's), or -1 */
    int n;                    /* acquisition: objects acquired */
    iron_dtype dtype;         /* MEMREF and acquisition: element dtype */
    iron_shape shape;         /* MEMREF and acquisition: object shape */
    int region;               /* region it is defined in; -1: parameter */
    int op;                   /* defining op; -1: parameter or block arg */
} iron__bval;

typedef enum iron__bop_kind {
    IRON__BOP_CONST,
    IRON__BOP_ARITH,
    IRON__BOP_CAST,
    IRON__BOP_CMP,
    IRON__BOP_SELECT,
    IRON__BOP_FOR,
    IRON__BOP_WHILE,
    IRON__BOP_IF,
    IRON__BOP_ACQUIRE,
    IRON__BOP_OBJECT,
    IRON__BOP_RELEASE,
    IRON__BOP_LOAD,
    IRON__BOP_STORE,
    IRON__BOP_CALL,
    IRON__BOP_BARRIER_WAIT,
    IRON__BOP_BARRIER_RELEASE
} iron__bop_kind;

/* One op.  Operands and results are runs of the body's value pool:
 *   CONST    -                      result: the constant (imm or fimm)
 *   ARITH    x [, y]                CAST x (result type: the result's)
 *   CMP      x, y                   SELECT c, x, y
 *   FOR      lb, ub, step, inits... results: the carried values
 *   WHILE    inits...               results: the forwarded values
 *   IF       cond                   results: the yielded values
 *   ACQUIRE  - (param, imm = n)     result: the acquisition
 *   OBJECT   acq (imm = index)      result: a memref
 *   RELEASE  - (param, imm = n)
 *   LOAD     mem, idx...            STORE v, mem, idx...
 *   CALL     args... (param = the kernel)
 *   BARRIER_WAIT / _RELEASE - (param, imm = value) */
typedef struct iron__bop {
    iron__bop_kind kind;
    int sub;                  /* ARITH, CAST: iron_arith; CMP: iron_cmp */
    int in, nin;              /* operands */
    int out, nout;            /* results */
    int reg[2];               /* FOR: body; WHILE: before, after; IF: then,
                                 else (-1: none) */
    int64_t imm;
    double fimm;              /* CONST of a float type, already rounded */
    int param;
    int next;                 /* the next op of its region, or -1 */
} iron__bop;

typedef enum iron__breg_kind {
    IRON__BR_TOP,
    IRON__BR_FOR,
    IRON__BR_BEFORE,          /* scf.while's condition region */
    IRON__BR_AFTER,           /* scf.while's "do" region */
    IRON__BR_THEN,
    IRON__BR_ELSE
} iron__breg_kind;

typedef struct iron__breg {
    iron__breg_kind kind;
    int op;                   /* the op it belongs to; -1: the body's top */
    int args, nargs;          /* block arguments (FOR: iv, then carried) */
    int term, nterm;          /* scf.yield's or scf.condition's operands */
    iron_val cond;            /* BEFORE: scf.condition's operand */
    int first, last;          /* its ops, linked by next; -1: none */
    int open;
} iron__breg;

struct iron_body {
    iron_design *d;
    char *name;
    IRON__VEC(iron__body_param) params;
    IRON__VEC(iron_val) param_val;  /* the value naming each parameter */
    IRON__VEC(iron__bval) vals;
    IRON__VEC(iron__bop) ops;
    IRON__VEC(iron__breg) regs;     /* regs.v[0] is the top */
    IRON__VEC(iron_val) pool;       /* operand and result runs */
    IRON__VEC(int) open;            /* open regions, innermost last */
    iron_worker *worker;            /* the worker it gave, or NULL */
    int standard;                   /* made for a standard-loop worker:
                                       its fifos already have that user */
};

/* --- types (body.c) ------------------------------------------------------ */

int iron__body_is_int(iron_body_type t);       /* i1 .. i64 */
int iron__body_is_intlike(iron_body_type t);   /* i1 .. i64, index */
int iron__body_is_float(iron_body_type t);     /* bf16, f32, f64 */
int iron__body_is_scalar(iron_body_type t);
int iron__body_width(iron_body_type t);        /* bits; index: 64 */
/* iron_body_type_name(t) ("i32", "index", "bf16" ...), "?" outside the
 * enum: never NULL, for messages. */
const char *iron__body_scalar_text(iron_body_type t);
/* The value type of a dtype's elements: int8 and uint8 -> i8 ... */
iron_body_type iron__body_elem_type(iron_dtype dt);
/* "memref<16x4xi32>" into buf. */
const char *iron__body_memref_text(iron_dtype dt, const iron_shape *sh,
                                   char *buf, size_t len);
/* Value v's type for messages and MLIR: "i32", "memref<16xi32>",
 * "!aie.objectfifosubview<memref<16xi32>>", "a fifo" ... into buf. */
const char *iron__body_val_text(const iron_body *b, iron_val v, char *buf,
                                size_t len);

/* --- building (body.c) --------------------------------------------------- */

/* A new body on d (owned by d) named `name`, which is not checked (the
 * standard loop's body is named after its worker).  NULL on OOM (sticky).
 */
iron_body *iron__body_create(iron_design *d, const char *name);

/* The sticky failure of op `op` ("arith.addi") of body b:
 * "body 'NAME': OP: ...".  Returns s. */
iron_status iron__body_fail(iron_body *b, iron_status s, const char *op,
                            const char *fmt, ...) IRON__PRINTF(4, 5);
/* Whether builder calls on b may go on: b not NULL (else a non-sticky
 * EINVAL naming `fn`), its design without error, no worker made of it
 * yet (else a sticky error naming op). */
iron_status iron__body_ready(iron_body *b, const char *fn, const char *op);
/* Checks operand `what` of op: a value of b, visible here (its region
 * still open).  IRON_OK or the sticky error. */
iron_status iron__body_use(iron_body *b, const char *op, const char *what,
                           iron_val v);
/* A new value of type t in the current region; -1 on OOM (sticky). */
iron_val iron__body_new_val(iron_body *b, iron_body_type t);
/* Appends n values to the pool; the run's offset, or -1 on OOM. */
int iron__body_pool_add(iron_body *b, const iron_val *v, int n);
/* A new op of `kind` at the end of the current region; its index, or -1
 * on OOM (sticky).  Operands are copied from in[0 .. nin). */
int iron__body_add_op(iron_body *b, iron__bop_kind kind, const iron_val *in,
                      int nin);
/* A new value of type t as op i's only result; IRON_VAL_NONE on OOM
 * (sticky). */
iron_val iron__body_result(iron_body *b, int i, iron_body_type t);
/* A new region (not yet open) of op; its index or -1 on OOM. */
int iron__body_add_region(iron_body *b, iron__breg_kind kind, int op);
/* Opens / closes the innermost region. */
iron_status iron__body_push_region(iron_body *b, int reg);
void iron__body_pop_region(iron_body *b);
/* The innermost open region. */
iron__breg *iron__body_cur(iron_body *b);
/* Names a fifo endpoint without the "no other user" check (the standard
 * loop's body names the handles its worker already has). */
iron_val iron__body_fifo_param(iron_body *b, iron_handle *h);

/* Names of ops and predicates as MLIR spells them (arith.c). */
/* iron_arith_name and iron_cmp_name, never NULL ("arith.?", "?"). */
const char *iron__body_arith_name(iron_arith op);   /* "arith.addi" */
const char *iron__body_cmp_name(iron_cmp pred);     /* "slt", "oeq" */

/* The C source of a body (to_c.c): deterministic, with parameters
 * p0, p1, ... in parameter order, and its declared argument types
 * ("fifo, int32*, kernel(int32*, int32)"). */
iron_status iron__body_to_c(const iron_body *b, iron__str *src,
                            iron__str *arg_types);
/* The helpers every generated body starts with (to_c_prelude.c). */
extern const char iron__body_c_prelude[];

#endif
