/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * ast.h - MLIR text as a tree: what the parser (parse.c) makes of a
 * module in either form (pretty/custom or generic), what the printers
 * (print.c) write back in either form, and what the importer
 * (import*.c) reads.  Custom-form ops are normalised on parsing to the
 * operands and attributes their generic form has, so the importer never
 * cares which form, or which upstream era, a file was written in.
 *
 * Everything of one module lives in one arena (iron__mlir_module) and is
 * freed at once.  Strings are NUL-terminated copies.
 *
 * Normalised ops (attribute names are upstream's generic names; "kw" is a
 * keyword attribute, IRON__MA_KEYWORD):
 *
 *   builtin.module          region 0: the module's ops (an implicit
 *                           module around a bare aie.device is made
 *                           explicit)
 *   aie.device              device (kw: npu1_1col ...), sym_name (str,
 *                           optional); region 0
 *   aie.tile                col, row (int); result: index
 *   aie.objectfifo          operands: producer tile, consumer tiles...;
 *                           sym_name (str), elemNumber (int, or array of
 *                           ints: producer's then each consumer's depth),
 *                           elemType (type: !aie.objectfifo<memref<..>>),
 *                           dimensionsToStream (array of DIM; the parser
 *                           makes it, empty, when not given),
 *                           dimensionsFromStreamPerConsumer (array of
 *                           arrays of DIM, one per consumer, made as
 *                           well), initValues (array of DENSE, optional),
 *                           via_DMA,
 *                           disable_synchronization, plio (bool,
 *                           optional), repeat_count (int, optional)
 *   aie.objectfifo.link     fifoIns, fifoOuts (arrays of SYMREF),
 *                           src_offsets, dst_offsets (arrays of int,
 *                           empty when the text has none)
 *   aie.objectfifo.acquire  objFifo_name (SYMREF), port (kw: Produce or
 *                           Consume), size (int); result: the subview
 *                           (!aie.objectfifosubview<memref<..>>), or in
 *                           the newest era `size` memrefs (port may then
 *                           be missing)
 *   aie.objectfifo.subview.access  operand: the subview; index (int);
 *                           result: memref
 *   aie.objectfifo.release  objFifo_name, port, size
 *   aie.core                operand: tile; region 0; link_with (str),
 *                           stack_size (int), optional; result: index
 *   aie.buffer              operand: tile; sym_name (str, optional),
 *                           initial_value (DENSE, optional), address
 *                           (int, optional); result: memref
 *   aie.lock                operand: tile; lockID (int, optional), init
 *                           (int, optional), sym_name (str, optional);
 *                           result: index
 *   aie.use_lock            operand: lock; action (kw: Acquire,
 *                           AcquireGreaterEqual, Release), value (int,
 *                           default 1), blocking (kw, optional)
 *   aie.end                 -
 *   aie.runtime_sequence    sym_name (str, optional); region 0 whose
 *                           block arguments are the tensors (aiex's,
 *                           upstream's name before 2025-11, reads as
 *                           this)
 *   aiex.npu.dma_memcpy_nd  operand: the memref (a sequence argument);
 *                           static_offsets, static_sizes, static_strides
 *                           (DENSE_ARRAY of 4, outermost first),
 *                           metadata (SYMREF), id (int), issue_token
 *                           (bool, optional); the old form's x, y (int)
 *                           are kept as attributes x, y when given
 *   aiex.npu.dma_wait       symbol (SYMREF)
 *   aiex.npu.rtp_write      buffer_sym_name (SYMREF: upstream's generic
 *                           form calls it `buffer`; the 2024 form's
 *                           string becomes a SYMREF), index (int), value
 *                           (int or float); the 2024 form's col, row
 *                           (int) are kept when given
 *   aiex.set_lock           operand: lock; value (int)
 *   aiex.dma_configure_task_for  tile (SYMREF: the fifo; upstream's
 *                           generic form calls it `alloc`), issue_token
 *                           (bool, optional), repeat_count (int,
 *                           optional); region 0 holding aie.dma_bd ops
 *                           and aie.end; result: the task (index)
 *   aie.dma_bd              operand: the buffer (sequence argument);
 *                           offset, len (int), dimensions (array of DIM,
 *                           optional, outermost first; the newest form's
 *                           sizes = [..] strides = [..] become these),
 *                           burst_length (int, optional)
 *   aiex.dma_start_task, aiex.dma_await_task, aiex.dma_free_task
 *                           operand: the task
 *   func.func               sym_name (str), function_type (TYPE of kind
 *                           FUNCTION), sym_visibility (str, optional),
 *                           link_with (str, optional); region 0 (empty for
 *                           a declaration) whose entry block arguments
 *                           are the parameters
 *   func.call               callee (SYMREF); operands; results
 *   func.return             operands
 *   arith.constant          value (INT or FLOAT, typed); one result
 *   arith.cmpi, arith.cmpf  predicate (kw: slt, oeq, ...); 2 operands
 *   other arith.*           operands, one result (casts: result type is
 *                           the target type)
 *   memref.load             operands: memref, indices...; one result
 *   memref.store            operands: value, memref, indices...
 *   scf.for                 operands: lb, ub, step, inits...; region 0
 *                           (block args: iv, iter args); results
 *   scf.while               operands: inits; regions 0 (before), 1
 *                           (after); results
 *   scf.condition           operands: cond, forwarded values
 *   scf.if                  operand: cond; regions 0 (then), 1 (else,
 *                           may be empty); results
 *   scf.yield               operands
 *
 * Enum attributes (device, port, action, blocking, predicate) are
 * keywords whether the text has them as words, strings or the integers
 * of the generic form.  Terminators the custom forms leave out (scf.yield
 * of an scf.for / scf.if without results, aie.device's aie.end) are made
 * explicit, in either form.  Results the text does not name get values
 * without a name.  Values must be defined before they are used (no
 * forward references).
 *
 * Any other op is parsed and kept, so that the importer can name it in
 * its error: in the generic form whole, in a custom form the parser does
 * not know as an *opaque* op (opaque = 1): its tokens are skipped --
 * balanced over (), [], {} and <>, up to the end of the line where the
 * balance returns to zero, so a region it opens ends at its matching '}'
 * and a trailing attribute dictionary or type on that line goes with it
 * -- and it keeps its name, its loc and the results written before '='
 * (typed IRON__MT_OPAQUE with no text: the unknown type, which any later
 * use's stated type is accepted for), but no operands, attributes or
 * regions.  Its name must be dialect.op (a bare word without a dot is a
 * syntax error), and the text it covers must still lex and balance.
 * The printers refuse a module holding an opaque op (IRON_ENOTSUP
 * naming it): there is nothing to print it from.
 */
#ifndef IRON_MLIR_AST_H
#define IRON_MLIR_AST_H

#include <stddef.h>
#include <stdint.h>

#include "core/core.h"
#include "iron/iron.h"

/* Where a token starts, 1-based. */
typedef struct iron__mlir_loc {
    int line, col;
} iron__mlir_loc;

typedef enum iron__mlir_tkind {
    IRON__MT_INT,             /* width; sign: 0 signless, 1 si, 2 ui */
    IRON__MT_INDEX,
    IRON__MT_FLOAT,           /* width 16 (f16, or bf16 when bf), 32, 64 */
    IRON__MT_MEMREF,          /* rank, dims (-1: ?), elem */
    IRON__MT_TENSOR,          /* as memref (dense attributes' types) */
    IRON__MT_FUNCTION,        /* nin inputs -> nout results */
    IRON__MT_DIALECT,         /* !dialect.name<params>: elem = the one
                                 type parameter (objectfifo,
                                 objectfifosubview), or NULL */
    IRON__MT_NONE,
    IRON__MT_VECTOR,          /* as memref (fixed-size vectors) */
    IRON__MT_OPAQUE           /* any other type: text = as written
                                 ("complex<f32>", "memref<*xf32>");
                                 text NULL: the unknown type of an
                                 opaque op's results */
} iron__mlir_tkind;

#define IRON__MLIR_MAX_RANK 8

typedef struct iron__mlir_type iron__mlir_type;
struct iron__mlir_type {
    iron__mlir_tkind kind;
    int width, sign, bf;
    int rank;
    int64_t dims[IRON__MLIR_MAX_RANK];
    iron__mlir_type *elem;
    int nin, nout;
    iron__mlir_type **in, **out;
    char *dialect, *name;     /* IRON__MT_DIALECT: "aie", "objectfifo";
                                 name NULL for !dialect<...> */
    char *text;               /* text kept as written, else NULL:
                                 DIALECT: the parameters inside <...>
                                 when they are not one type; MEMREF,
                                 TENSOR: what follows the element type
                                 (", 2 : i32": layout, memory space,
                                 encoding); OPAQUE: the whole type */
};

typedef enum iron__mlir_akind {
    IRON__MA_INT,             /* i (type: NULL when untyped, e.g. in an
                                 array of a custom form) */
    IRON__MA_FLOAT,           /* f, type */
    IRON__MA_BOOL,            /* i: 0 / 1 */
    IRON__MA_STR,             /* s */
    IRON__MA_SYMREF,          /* s: the name without '@' */
    IRON__MA_KEYWORD,         /* s: a bare word (enum case) */
    IRON__MA_UNIT,
    IRON__MA_TYPE,            /* type */
    IRON__MA_ARRAY,           /* n items */
    IRON__MA_DENSE_ARRAY,     /* array<i64: 1, 2>: n items (INT), type =
                                 the element type */
    IRON__MA_DENSE,           /* dense<...> : tensor<..>: n items (INT or
                                 FLOAT, row-major; one item = a splat),
                                 type = the tensor type */
    IRON__MA_DICT,            /* n items with keys */
    IRON__MA_DIM,             /* <size = s, stride = t> / #aie.bd_dim_
                                 layout<...>: i = size, stride */
    IRON__MA_OPAQUE           /* any other #dialect<...>: s = the text */
} iron__mlir_akind;

typedef struct iron__mlir_attr iron__mlir_attr;
struct iron__mlir_attr {
    iron__mlir_akind kind;
    int64_t i;
    int64_t stride;           /* IRON__MA_DIM */
    double f;
    char *s;
    iron__mlir_type *type;
    int n;
    iron__mlir_attr **items;
    char **keys;              /* IRON__MA_DICT */
    iron__mlir_loc loc;
};

/* A named attribute of an op (properties and attributes alike). */
typedef struct iron__mlir_named {
    char *name;
    iron__mlir_attr *attr;
    int prop;                 /* 1: an inherent attribute (MLIR's
                                 properties, <{...}> in the generic
                                 form).  The parser sets it from the op's
                                 definition for the ops above and from
                                 the text for others; the generic printer
                                 follows the definition for the ops above
                                 and this flag for others */
} iron__mlir_named;

/* An SSA value: an op result or a block argument, numbered per module. */
typedef struct iron__mlir_value {
    char *name;               /* as written: "%0", "%arg1", "%tile_0_2" */
    iron__mlir_type *type;
    struct iron__mlir_op *def;  /* defining op, NULL for block args */
    int result;               /* index among def's results, or the block
                                 argument's index */
    iron__mlir_loc loc;
} iron__mlir_value;

typedef struct iron__mlir_op iron__mlir_op;

typedef struct iron__mlir_block {
    char *label;              /* "^bb0" or NULL */
    int nargs;
    int *args;                /* value ids */
    int nops;
    iron__mlir_op **ops;
} iron__mlir_block;

typedef struct iron__mlir_region {
    int nblocks;
    iron__mlir_block **blocks;
} iron__mlir_region;

struct iron__mlir_op {
    char *name;               /* "aie.objectfifo" */
    iron__mlir_loc loc;       /* of the op's name (or its first result) */
    int nresults;
    int *results;             /* value ids */
    int noperands;
    int *operands;            /* value ids */
    int nattrs;
    iron__mlir_named *attrs;
    int nregions;
    iron__mlir_region **regions;
    iron__mlir_op *parent;    /* NULL for the module */
    int nsucc;                /* successor blocks (generic form only):  */
    char **succ;              /* their labels, "^bb1" */
    int opaque;               /* 1: a custom form the parser does not
                                 know, skipped (see the top of this
                                 file): name, loc and results only */
};

typedef struct iron__mlir_module {
    iron__mlir_op *top;       /* builtin.module */
    int nvalues;
    iron__mlir_value *values;
    int cap_values;           /* allocated entries of values */
    void *arena;              /* owned */
} iron__mlir_module;

/* Limits the parser enforces (each overflow is a named error). */
#define IRON__MLIR_MAX_TEXT (64u << 20)   /* bytes of text */
#define IRON__MLIR_MAX_DEPTH 200          /* nesting of regions, types,
                                             attributes */
#define IRON__MLIR_MAX_OPS 1000000
#define IRON__MLIR_MAX_VALUES (1 << 22)   /* op results, block arguments */
#define IRON__MLIR_MAX_ITEMS (1 << 22)    /* attribute items of a module:
                                             array, dense, dictionary
                                             elements */

/* Parses text (len bytes, need not be NUL-terminated) in either form.
 * `file` names the text in messages ("add.mlir:12:5: ..."; NULL:
 * "<mlir>").  IRON_ESYNTAX with "FILE:LINE:COL: what was expected, what
 * was found" (and the op being parsed) for a syntax error, an undefined
 * or redefined value, a value used with two types, binary garbage, or a
 * limit broken (size, nesting, op count); IRON_ENOMEM.  *out is NULL on
 * failure. */
iron_status iron__mlir_parse(const char *text, size_t len, const char *file,
                             iron__mlir_module **out);
void iron__mlir_module_free(iron__mlir_module *m);

/* Printing (print.c).  pretty: the custom forms above for the ops this
 * file lists (as upstream prints them; an op that does not fit its form
 * prints in the generic one), the generic form for any other; generic:
 * every op in the generic form, as `mlir-opt --mlir-print-op-generic`
 * prints (custom-form attributes become the generic attributes above:
 * an enum keyword is the integer upstream's enum prints as, typed
 * (`device = 5 : i32`, `port = 1 : i32`, `predicate = 2 : i64`; a
 * keyword of no known enum is a string), DIM lists are
 * #aie<bd_dim_layout_array[<size = s, stride = t>, ...]> (array of
 * arrays: #aie<bd_dim_layout_array_array[...]>), a lone DIM is
 * #aie.bd_dim_layout<size = s, stride = t>).  Appends to s; IRON_ENOMEM
 * only (IRON_EINVAL for NULL arguments); IRON_ENOTSUP naming the
 * first opaque op m holds (iron__mlir_find_opaque). */
iron_status iron__mlir_print(const iron__mlir_module *m, int generic,
                             iron__str *s);

/* Lookups for the importer. */
const iron__mlir_attr *iron__mlir_attr_get(const iron__mlir_op *op,
                                           const char *name);
const iron__mlir_value *iron__mlir_value_at(const iron__mlir_module *m,
                                            int id);
/* The first opaque op at or under op (depth first, in text order), or
 * NULL. */
const iron__mlir_op *iron__mlir_find_opaque(const iron__mlir_op *op);
/* "i32", "memref<16xi32>", "!aie.objectfifo<memref<16xi32>>" into s (the
 * unknown type: "<unknown>"). */
void iron__mlir_type_text(const iron__mlir_type *t, iron__str *s);
/* 1 when two types are the same type. */
int iron__mlir_type_equal(const iron__mlir_type *a, const iron__mlir_type *b);

/* 1 when two modules are the same tree: the same ops in the same order
 * (names, attributes in any order with their inherent flags, regions,
 * blocks, successors by the block they name), values and blocks matched
 * by where they are defined and used rather than by their names, types
 * equal; 0 otherwise, with the first difference and where it is (the
 * path of ops from the top, "builtin.module/aie.device#0/aie.tile#2")
 * appended to why when not NULL.  Locations are not compared.  For the
 * round-trip checks: parse(print(m)) is m. */
int iron__mlir_module_equal(const iron__mlir_module *a,
                            const iron__mlir_module *b, iron__str *why);

/* Building a tree (ast.c; the parser builds with these, and a writer
 * with mlir/build.h on top of them).  A new module has no top op and no
 * values.  Allocations come from the module's arena, zeroed, and live
 * until the module is freed; each returns NULL (or -1) when memory runs
 * out, with nothing set. */
iron__mlir_module *iron__mlir_module_new(void);
void *iron__mlir_alloc(iron__mlir_module *m, size_t n);
/* n bytes of s, NUL-terminated. */
char *iron__mlir_strndup(iron__mlir_module *m, const char *s, size_t n);
char *iron__mlir_strdup(iron__mlir_module *m, const char *s);
/* A new value (name copied; type and def kept as given); its id, or -1
 * (out of memory, or IRON__MLIR_MAX_VALUES reached). */
int iron__mlir_value_new(iron__mlir_module *m, const char *name,
                         iron__mlir_type *type, iron__mlir_op *def,
                         int result, iron__mlir_loc loc);

/* For tests that verify the generic text with mlir-opt (print.c): a
 * plain module holding every func.func the module's devices declare and,
 * for each aie.core, a func.func @core_<col>_<row>_<n> whose body is the
 * core's region (its trailing aie.end a func.return) and whose
 * parameters are the values the region uses from outside it (tiles,
 * buffers, locks), all in the generic form.  IRON_ENOMEM only. */
iron_status iron__mlir_print_cores_as_funcs(const iron__mlir_module *m,
                                            iron__str *s);

#endif
