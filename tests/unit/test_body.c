/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_body.c - the core-body IR's builder: MLIR's typing rules at each
 * op, every builder error (sticky, naming the body, the op and expected
 * vs got), value types, the MLIR text (iron_body_dump's placeholders and
 * the exporter's names), the C text's independence from object names,
 * the standard loop as a body, and allocation failures.
 */
#include "body/body.h"
#include "design/design.h"
#include "mlir/export.h"
#include "test.h"

/* --- a design to build in ------------------------------------------------ */

typedef struct fx {
    iron_design *d;
    iron_fifo *fi, *fo, *fu;  /* int32[16] in, int32[4x4] out, uint8[16] */
    iron_rtp *r;              /* float32[4] */
    iron_barrier *x;
    iron_kernel *k;           /* k(int32*, int32) */
    iron_body *b;
    iron_val in, out, rv, xv, kv;
} fx;

static iron_design *new_design(void)
{
    iron_design *d;
    ASSERT_OK(iron__design_new(&d, "t", 0, NULL, 0, NULL, 1,
                               test_npu2_info(), NULL, 0, NULL));
    return d;
}

static fx setup(void)
{
    fx f = { 0 };
    f.d = new_design();
    f.fi = iron_fifo_new(f.d, "in", IRON_INT32, IRON_SHAPE(16), 2);
    f.fo = iron_fifo_new(f.d, "out", IRON_INT32, IRON_SHAPE(4, 4), 3);
    f.fu = iron_fifo_new(f.d, "bytes", IRON_UINT8, IRON_SHAPE(16), 2);
    f.r = iron_rtp_new(f.d, "params", IRON_FLOAT32, 4);
    f.x = iron_barrier_new(f.d, "go");
    f.k = iron_kernel_new(f.d, "k", "void k(int32_t *a, int32_t n) {}",
                          "int32*, int32");
    f.b = iron_body_new(f.d, "b");
    f.in = iron_body_fifo(f.b, iron_fifo_cons(f.fi));
    f.out = iron_body_fifo(f.b, iron_fifo_prod(f.fo));
    f.rv = iron_body_rtp(f.b, f.r);
    f.xv = iron_body_barrier(f.b, f.x);
    f.kv = iron_body_kernel(f.b, f.k);
    ASSERT_OK(iron_design_status(f.d));
    return f;
}

static void teardown(fx *f)
{
    iron__design_free(f->d);
}

static iron_val ci(fx *f, iron_body_type t, int64_t v)
{
    return iron_body_const_int(f->b, t, v);
}

static iron_val cx(fx *f, int64_t v)
{
    return ci(f, IRON_BT_INDEX, v);
}

static iron_val cf(fx *f, iron_body_type t, double v)
{
    return iron_body_const_float(f->b, t, v);
}

/* The design failed with `s` and a message containing needle; later
 * builder calls do nothing. */
static void expect(fx *f, iron_status s, const char *needle)
{
    if (f->d->status != s)
        TEST_FAIL_("expected %s, got %s (%s)", iron_status_name(s),
                   iron_status_name(f->d->status),
                   f->d->error ? f->d->error : "");
    ASSERT_CONTAINS(f->d->error, needle);
    ASSERT_EQ(iron_body_const_int(f->b, IRON_BT_I32, 1), IRON_VAL_NONE);
    ASSERT_EQ(iron_body_release(f->b, f->in, 1), s);
}

/* One failing case on a fresh design: code, then the expectation. */
#define CASE(status, needle, ...)                                             \
    do {                                                                      \
        fx f_ = setup();                                                      \
        fx *f = &f_;                                                          \
        __VA_ARGS__;                                                          \
        expect(f, status, needle);                                            \
        teardown(f);                                                          \
    } while (0)

/* --- the body and its parameters ----------------------------------------- */

TEST(body_new_checks_design_and_name)
{
    ASSERT(iron_body_new(NULL, "x") == NULL);
    ASSERT_CONTAINS(iron_last_error(), "iron_body_new: design is NULL");
    const char *bad[] = { NULL, "", "1x", "a b", "int", "while",
                          "iron_x", "_x" };
    const char *why[] = { "NULL is not a C identifier",
                          "'' is not a C identifier",
                          "'1x' is not a C identifier",
                          "'a b' is not a C identifier",
                          "'int' is reserved", "'while' is reserved",
                          "'iron_x' is reserved", "'_x' is reserved" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        iron_design *d = new_design();
        ASSERT(iron_body_new(d, bad[i]) == NULL);
        ASSERT_EQ(d->status, IRON_EINVAL);
        ASSERT_CONTAINS(d->error, why[i]);
        ASSERT(iron_body_new(d, "fine") == NULL);   /* sticky */
        iron__design_free(d);
    }
}

TEST(body_calls_on_a_null_body_fail_without_a_design)
{
    ASSERT_EQ(iron_body_fifo(NULL, NULL), IRON_VAL_NONE);
    ASSERT_CONTAINS(iron_last_error(), "iron_body_fifo: body is NULL");
    ASSERT_EQ(iron_body_arith(NULL, IRON_ARITH_ADDI, 0, 0), IRON_VAL_NONE);
    ASSERT_CONTAINS(iron_last_error(), "iron_body_arith: body is NULL");
    ASSERT_FAILS(iron_body_end_for(NULL, 0, NULL, NULL), IRON_EINVAL,
                 "iron_body_end_for: body is NULL");
    ASSERT_FAILS(iron_body_barrier_wait(NULL, 0, 1), IRON_EINVAL,
                 "iron_body_barrier_wait: body is NULL");
    ASSERT_EQ(iron_body_value_type(NULL, 0), IRON_BT_COUNT_);
    static char x_[] = "x";
    char *text = x_;
    ASSERT_FAILS(iron_body_dump(NULL, &text), IRON_EINVAL,
                 "iron_body_dump: body is NULL");
    ASSERT(text == NULL);
    fx f = setup();
    ASSERT_FAILS(iron_body_dump(f.b, NULL), IRON_EINVAL, "out is NULL");
    teardown(&f);
}

TEST(body_naming_an_object_twice_gives_its_value)
{
    fx f = setup();
    ASSERT_EQ(iron_body_fifo(f.b, iron_fifo_cons(f.fi)) >= 0, 1);
    ASSERT_EQ(iron_body_rtp(f.b, f.r), f.rv);
    ASSERT_EQ(iron_body_barrier(f.b, f.x), f.xv);
    ASSERT_EQ(iron_body_kernel(f.b, f.k), f.kv);
    ASSERT_EQ(iron_body_fifo(f.b, iron_fifo_prod(f.fo)), f.out);
    ASSERT_EQ(iron__body_nparams(f.b), 6);  /* in, out, rtp, barrier, k,
                                               and the second consumer */
    ASSERT_EQ(iron__body_param_at(f.b, 2)->kind, IRON__BP_RTP);
    ASSERT(iron__body_param_at(f.b, 6) == NULL);
    ASSERT_STR_EQ(iron__body_name(f.b), "b");
    ASSERT_EQ(iron_body_value_type(f.b, f.in), IRON_BT_HANDLE);
    ASSERT_EQ(iron_body_value_type(f.b, f.rv), IRON_BT_MEMREF);
    ASSERT_EQ(iron_body_value_type(f.b, 999), IRON_BT_COUNT_);
    teardown(&f);
}

TEST(body_parameter_errors)
{
    CASE(IRON_EINVAL, "body 'b': iron_body_fifo: the handle is NULL",
         iron_body_fifo(f->b, NULL));
    iron_design *other = new_design();
    iron_fifo *of = iron_fifo_new(other, "x", IRON_INT32, IRON_SHAPE(4), 2);
    iron_rtp *orr = iron_rtp_new(other, "r", IRON_INT32, 4);
    iron_barrier *ob = iron_barrier_new(other, "g");
    iron_kernel *ok = iron_kernel_new(other, "k", "void k(void) {}", "");
    CASE(IRON_EINVAL, "iron_body_fifo: the handle belongs to another design",
         iron_body_fifo(f->b, iron_fifo_cons(of)));
    CASE(IRON_EINVAL, "iron_body_rtp: the buffer is NULL",
         iron_body_rtp(f->b, NULL));
    CASE(IRON_EINVAL, "iron_body_rtp: the buffer is of another design",
         iron_body_rtp(f->b, orr));
    CASE(IRON_EINVAL, "iron_body_barrier: the barrier is NULL",
         iron_body_barrier(f->b, NULL));
    CASE(IRON_EINVAL, "iron_body_barrier: the barrier is of another design",
         iron_body_barrier(f->b, ob));
    CASE(IRON_EINVAL, "iron_body_kernel: the kernel is NULL",
         iron_body_kernel(f->b, NULL));
    CASE(IRON_EINVAL, "iron_body_kernel: the kernel is of another design",
         iron_body_kernel(f->b, ok));
    iron__design_free(other);
    CASE(IRON_EDESIGN,
         "iron_body_kernel: 'core' is a core body; a body calls kernels "
         "made with iron_kernel_new",
         iron_body_kernel(f->b, iron_kernel_new_core(f->d, "core",
                                                     "void core(void) {}",
                                                     "")));
    /* A handle with a user already, or named by another body. */
    CASE(IRON_EDESIGN,
         "iron_body_fifo: fifo 'in' (producer) is already used by worker "
         "'p'; each handle has one user",
         iron_kernel *pk = iron_kernel_new_core(f->d, "pk",
                                                "void pk(iron_objfifo *f) "
                                                "{}",
                                                "fifo");
         iron_worker_new(f->d, "p", pk, 0,
                         IRON_ARGS(iron_arg_fifo(iron_fifo_prod(f->fi))));
         iron_body_fifo(f->b, iron_fifo_prod(f->fi)));
    CASE(IRON_EDESIGN,
         "body 'c': iron_body_fifo: fifo 'in' (consumer) is already "
         "named by body 'b'; each handle has one user",
         iron_body *c = iron_body_new(f->d, "c");
         iron_body_fifo(c, f->d->fifos.v[0]->cons[0]));
    CASE(IRON_EDESIGN,
         "names 16 objects already; its worker takes at most 16 arguments",
         for (int i = 0; i < 11; i++) {
             char nm[16];
             snprintf(nm, sizeof nm, "r%d", i);
             iron_body_rtp(f->b, iron_rtp_new(f->d, nm, IRON_INT8, 1));
         }
         iron_body_rtp(f->b, iron_rtp_new(f->d, "last", IRON_INT8, 1)));
}

/* --- arith --------------------------------------------------------------- */

TEST(body_constants_check_type_and_range)
{
    fx f = setup();
    ASSERT_EQ(iron_body_value_type(f.b, ci(&f, IRON_BT_I8, 255)), IRON_BT_I8);
    ASSERT(ci(&f, IRON_BT_I8, -128) >= 0);
    ASSERT(ci(&f, IRON_BT_I1, -1) >= 0);
    ASSERT(ci(&f, IRON_BT_I64, INT64_MIN) >= 0);
    ASSERT(ci(&f, IRON_BT_INDEX, INT64_MAX) >= 0);
    ASSERT_EQ(iron_body_value_type(f.b, cf(&f, IRON_BT_BF16, 0.1)),
              IRON_BT_BF16);
    ASSERT_OK(iron_design_status(f.d));
    teardown(&f);
}

TEST(body_constant_errors)
{
    CASE(IRON_EDTYPE,
         "body 'b': arith.constant: type f32 is not an integer or index "
         "type (floats: iron_body_const_float)",
         ci(f, IRON_BT_F32, 1));
    CASE(IRON_EDTYPE, "type memref is not an integer or index type",
         ci(f, IRON_BT_MEMREF, 1));
    CASE(IRON_EINVAL,
         "arith.constant: 256 does not fit i8 (expected -128 .. 255, read "
         "as signed or unsigned)",
         ci(f, IRON_BT_I8, 256));
    CASE(IRON_EINVAL, "-129 does not fit i8", ci(f, IRON_BT_I8, -129));
    CASE(IRON_EINVAL, "2 does not fit i1", ci(f, IRON_BT_I1, 2));
    CASE(IRON_EDTYPE,
         "arith.constant: type index is not a float type (integers: "
         "iron_body_const_int)",
         cf(f, IRON_BT_INDEX, 1.0));
}

TEST(body_arith_typing)
{
    fx f = setup();
    iron_val a = ci(&f, IRON_BT_I16, 3), c = ci(&f, IRON_BT_INDEX, 2);
    ASSERT_EQ(iron_body_value_type(
                  f.b, iron_body_arith(f.b, IRON_ARITH_SHRSI, a, a)),
              IRON_BT_I16);
    ASSERT_EQ(iron_body_value_type(
                  f.b, iron_body_arith(f.b, IRON_ARITH_CEILDIVSI, c, c)),
              IRON_BT_INDEX);
    iron_val h = cf(&f, IRON_BT_BF16, 1.5);
    ASSERT_EQ(iron_body_value_type(
                  f.b, iron_body_arith(f.b, IRON_ARITH_NEGF, h,
                                       IRON_VAL_NONE)),
              IRON_BT_BF16);
    ASSERT_OK(iron_design_status(f.d));
    teardown(&f);
}

TEST(body_arith_errors)
{
    CASE(IRON_EINVAL,
         "body 'b': arith.extsi: is a cast; make it with iron_body_cast",
         iron_body_arith(f->b, IRON_ARITH_EXTSI, ci(f, IRON_BT_I8, 1),
                         IRON_VAL_NONE));
    CASE(IRON_EINVAL, "arith: op 99 is not an arith op",
         iron_body_arith(f->b, (iron_arith)99, 0, 0));
    CASE(IRON_EINVAL,
         "arith.addi: operand y is 777, which is not a value of this body",
         iron_body_arith(f->b, IRON_ARITH_ADDI, ci(f, IRON_BT_I32, 1),
                         777));
    CASE(IRON_EINVAL, "operand x is -1, which is not a value of this body",
         iron_body_arith(f->b, IRON_ARITH_ADDI, IRON_VAL_NONE, 0));
    CASE(IRON_EDTYPE,
         "arith.addi: operand x is memref<4xf32>; expected an integer, "
         "index or float value",
         iron_body_arith(f->b, IRON_ARITH_ADDI, f->rv, f->rv));
    CASE(IRON_EDTYPE, "operand x is a fifo; expected",
         iron_body_arith(f->b, IRON_ARITH_ADDI, f->in, f->in));
    CASE(IRON_EINVAL,
         "arith.negf: takes one operand; pass IRON_VAL_NONE as y",
         iron_val x = cf(f, IRON_BT_F32, 1);
         iron_body_arith(f->b, IRON_ARITH_NEGF, x, x));
    CASE(IRON_EDTYPE,
         "arith.addi: operands of two types, i32 and i16; expected one",
         iron_body_arith(f->b, IRON_ARITH_ADDI, ci(f, IRON_BT_I32, 1),
                         ci(f, IRON_BT_I16, 1)));
    CASE(IRON_EDTYPE, "arith.addi: operands of two types, i64 and index",
         iron_body_arith(f->b, IRON_ARITH_ADDI, ci(f, IRON_BT_I64, 1),
                         cx(f, 1)));
    CASE(IRON_EDTYPE,
         "arith.addf: expected float (bf16, f32, f64) operands, got i32",
         iron_val x = ci(f, IRON_BT_I32, 1);
         iron_body_arith(f->b, IRON_ARITH_ADDF, x, x));
    CASE(IRON_EDTYPE,
         "arith.muli: expected integer or index operands, got f64",
         iron_val x = cf(f, IRON_BT_F64, 1);
         iron_body_arith(f->b, IRON_ARITH_MULI, x, x));
    CASE(IRON_EDTYPE, "arith.negf: expected float (bf16, f32, f64) "
                      "operands, got i8",
         iron_body_arith(f->b, IRON_ARITH_NEGF, ci(f, IRON_BT_I8, 1),
                         IRON_VAL_NONE));
}

TEST(body_cast_rules)
{
    static const struct {
        iron_arith op;
        iron_body_type from, to;
    } good[] = {
        { IRON_ARITH_EXTSI, IRON_BT_I1, IRON_BT_I64 },
        { IRON_ARITH_EXTUI, IRON_BT_I8, IRON_BT_I16 },
        { IRON_ARITH_TRUNCI, IRON_BT_I64, IRON_BT_I1 },
        { IRON_ARITH_SITOFP, IRON_BT_I64, IRON_BT_BF16 },
        { IRON_ARITH_UITOFP, IRON_BT_I1, IRON_BT_F64 },
        { IRON_ARITH_FPTOSI, IRON_BT_BF16, IRON_BT_I64 },
        { IRON_ARITH_FPTOUI, IRON_BT_F64, IRON_BT_I8 },
        { IRON_ARITH_EXTF, IRON_BT_BF16, IRON_BT_F64 },
        { IRON_ARITH_TRUNCF, IRON_BT_F64, IRON_BT_BF16 },
        { IRON_ARITH_INDEX_CAST, IRON_BT_I32, IRON_BT_INDEX },
        { IRON_ARITH_INDEX_CASTUI, IRON_BT_INDEX, IRON_BT_I1 },
        { IRON_ARITH_BITCAST, IRON_BT_I16, IRON_BT_BF16 },
        { IRON_ARITH_BITCAST, IRON_BT_F64, IRON_BT_I64 },
        { IRON_ARITH_BITCAST, IRON_BT_I32, IRON_BT_I32 },
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        fx f = setup();
        iron_val x = good[i].from <= IRON_BT_INDEX
                         ? ci(&f, good[i].from, 0)
                         : cf(&f, good[i].from, 0);
        iron_val r = iron_body_cast(f.b, good[i].op, x, good[i].to);
        if (r < 0)
            TEST_FAIL_("cast %zu: %s", i, f.d->error);
        ASSERT_EQ(iron_body_value_type(f.b, r), good[i].to);
        teardown(&f);
    }
    static const struct {
        iron_arith op;
        iron_body_type from, to;
        const char *msg;
    } bad[] = {
        { IRON_ARITH_EXTSI, IRON_BT_I32, IRON_BT_I32,
          "arith.extsi: expected an integer (not index) widened to a wider "
          "integer, got i32 to i32" },
        { IRON_ARITH_EXTUI, IRON_BT_INDEX, IRON_BT_I64,
          "arith.extui: expected an integer (not index) widened" },
        { IRON_ARITH_TRUNCI, IRON_BT_I8, IRON_BT_I16,
          "arith.trunci: expected an integer (not index) narrowed to a "
          "narrower integer, got i8 to i16" },
        { IRON_ARITH_SITOFP, IRON_BT_INDEX, IRON_BT_F32,
          "arith.sitofp: expected an integer (not index) to a float, got "
          "index to f32" },
        { IRON_ARITH_UITOFP, IRON_BT_F32, IRON_BT_F64,
          "arith.uitofp: expected an integer (not index) to a float" },
        { IRON_ARITH_FPTOSI, IRON_BT_F32, IRON_BT_INDEX,
          "arith.fptosi: expected a float to an integer (not index), got "
          "f32 to index" },
        { IRON_ARITH_FPTOUI, IRON_BT_I32, IRON_BT_I32,
          "arith.fptoui: expected a float to an integer" },
        { IRON_ARITH_EXTF, IRON_BT_F64, IRON_BT_F32,
          "arith.extf: expected a float widened to a wider float, got f64 "
          "to f32" },
        { IRON_ARITH_TRUNCF, IRON_BT_BF16, IRON_BT_F32,
          "arith.truncf: expected a float narrowed to a narrower float" },
        { IRON_ARITH_INDEX_CAST, IRON_BT_I32, IRON_BT_I64,
          "arith.index_cast: expected an integer to index or index to an "
          "integer, got i32 to i64" },
        { IRON_ARITH_INDEX_CASTUI, IRON_BT_INDEX, IRON_BT_F32,
          "arith.index_castui: expected an integer to index" },
        { IRON_ARITH_BITCAST, IRON_BT_I32, IRON_BT_F64,
          "arith.bitcast: expected an integer or float to one of the same "
          "width (not index), got i32 to f64" },
        { IRON_ARITH_BITCAST, IRON_BT_INDEX, IRON_BT_I64,
          "arith.bitcast: expected an integer or float to one of the same "
          "width" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CASE(IRON_EDTYPE, bad[i].msg,
             iron_val x = bad[i].from <= IRON_BT_INDEX
                              ? ci(f, bad[i].from, 0)
                              : cf(f, bad[i].from, 0);
             iron_body_cast(f->b, bad[i].op, x, bad[i].to));
    CASE(IRON_EINVAL,
         "arith.addi: is not a cast; make it with iron_body_arith",
         iron_body_cast(f->b, IRON_ARITH_ADDI, ci(f, IRON_BT_I8, 0),
                        IRON_BT_I16));
    CASE(IRON_EINVAL, "cast: op -3 is not an arith op",
         iron_body_cast(f->b, (iron_arith)-3, 0, IRON_BT_I16));
    CASE(IRON_EDTYPE,
         "arith.extsi: result type 9 is not an integer, index or float type",
         iron_body_cast(f->b, IRON_ARITH_EXTSI, ci(f, IRON_BT_I8, 0),
                        IRON_BT_MEMREF));
    CASE(IRON_EDTYPE, "arith.extsi: operand is memref<4xf32>",
         iron_body_cast(f->b, IRON_ARITH_EXTSI, f->rv, IRON_BT_I16));
}

TEST(body_cmp_and_select_typing)
{
    fx f = setup();
    iron_val a = ci(&f, IRON_BT_INDEX, 1), h = cf(&f, IRON_BT_BF16, 1);
    iron_val c = iron_body_cmp(f.b, IRON_CMP_ULE, a, a);
    ASSERT_EQ(iron_body_value_type(f.b, c), IRON_BT_I1);
    ASSERT_EQ(iron_body_value_type(f.b,
                                   iron_body_cmp(f.b, IRON_CMP_UNO, h, h)),
              IRON_BT_I1);
    ASSERT_EQ(iron_body_value_type(f.b, iron_body_select(f.b, c, h, h)),
              IRON_BT_BF16);
    ASSERT_OK(iron_design_status(f.d));
    teardown(&f);
}

TEST(body_cmp_and_select_errors)
{
    CASE(IRON_EINVAL, "arith.cmpi: predicate 24 is not an iron_cmp",
         iron_body_cmp(f->b, IRON_CMP_COUNT_, 0, 0));
    CASE(IRON_EDTYPE,
         "arith.cmpi: predicate slt compares integers or index (floats: oeq "
         ".. uno), got f32 operands",
         iron_val x = cf(f, IRON_BT_F32, 0);
         iron_body_cmp(f->b, IRON_CMP_SLT, x, x));
    CASE(IRON_EDTYPE,
         "arith.cmpf: predicate ugt compares floats (integers: eq .. uge), "
         "got i32 operands",
         iron_val x = ci(f, IRON_BT_I32, 0);
         iron_body_cmp(f->b, IRON_CMP_UGTF, x, x));
    CASE(IRON_EDTYPE, "arith.cmpi: operands of two types, i32 and i8",
         iron_body_cmp(f->b, IRON_CMP_EQ, ci(f, IRON_BT_I32, 0),
                       ci(f, IRON_BT_I8, 0)));
    CASE(IRON_EDTYPE, "arith.cmpf: operand y is a kernel",
         iron_body_cmp(f->b, IRON_CMP_OEQ, cf(f, IRON_BT_F32, 0), f->kv));
    CASE(IRON_EDTYPE, "arith.select: the condition is i8; expected i1",
         iron_val x = ci(f, IRON_BT_I8, 0);
         iron_body_select(f->b, x, x, x));
    CASE(IRON_EDTYPE,
         "arith.select: operands of two types, f32 and f64; expected one",
         iron_body_select(f->b, ci(f, IRON_BT_I1, 1), cf(f, IRON_BT_F32, 0),
                          cf(f, IRON_BT_F64, 0)));
    CASE(IRON_EDTYPE, "arith.select: operand x is memref<4xf32>",
         iron_body_select(f->b, ci(f, IRON_BT_I1, 1), f->rv, f->rv));
}

/* --- scf ----------------------------------------------------------------- */

TEST(body_regions_scope_their_values)
{
    CASE(IRON_EINVAL,
         "body 'b': arith.addi: operand x (value ",
         iron_val iv = iron_body_for(f->b, cx(f, 0), cx(f, 4), cx(f, 1), 0,
                                     NULL, NULL);
         iron_body_end_for(f->b, 0, NULL, NULL);
         iron_body_arith(f->b, IRON_ARITH_ADDI, iv, iv));
    CASE(IRON_EINVAL, "was made inside a region that is closed",
         iron_val a[1], c = ci(f, IRON_BT_I1, 1);
         iron_val i32 = ci(f, IRON_BT_I32, 0);
         iron_body_while(f->b, 1, &i32, a);
         iron_body_while_do(f->b, c, 0, NULL, NULL);
         iron_body_arith(f->b, IRON_ARITH_ADDI, a[0], a[0]));
    CASE(IRON_EINVAL, "not visible here",
         iron_body_if(f->b, ci(f, IRON_BT_I1, 1), 0);
         iron_val t = ci(f, IRON_BT_I32, 0);
         iron_body_else(f->b, 0, NULL);
         iron_body_arith(f->b, IRON_ARITH_ADDI, t, t));
}

TEST(body_for_errors)
{
    CASE(IRON_EDTYPE, "body 'b': scf.for: the lower bound is i32; expected "
                      "index",
         iron_body_for(f->b, ci(f, IRON_BT_I32, 0), cx(f, 1), cx(f, 1), 0,
                       NULL, NULL));
    CASE(IRON_EDTYPE, "scf.for: the upper bound is f32; expected index",
         iron_body_for(f->b, cx(f, 0), cf(f, IRON_BT_F32, 1), cx(f, 1), 0,
                       NULL, NULL));
    CASE(IRON_EDTYPE, "scf.for: the step is a fifo; expected index",
         iron_body_for(f->b, cx(f, 0), cx(f, 1), f->in, 0, NULL, NULL));
    CASE(IRON_EINVAL, "scf.for: constant step 0; expected a positive step",
         iron_body_for(f->b, cx(f, 0), cx(f, 1), cx(f, 0), 0, NULL, NULL));
    CASE(IRON_EINVAL, "constant step -2",
         iron_body_for(f->b, cx(f, 0), cx(f, 1), cx(f, -2), 0, NULL, NULL));
    CASE(IRON_EINVAL, "scf.for: -1 initial values",
         iron_body_for(f->b, cx(f, 0), cx(f, 1), cx(f, 1), -1, NULL, NULL));
    CASE(IRON_EINVAL,
         "scf.for: 2 initial values given, but the array is NULL",
         iron_val it[2];
         iron_body_for(f->b, cx(f, 0), cx(f, 1), cx(f, 1), 2, NULL, it));
    CASE(IRON_EINVAL, "scf.for: iter is NULL, but 1 value come out",
         iron_val i0 = cx(f, 0);
         iron_body_for(f->b, cx(f, 0), cx(f, 1), cx(f, 1), 1, &i0, NULL));
    CASE(IRON_EDTYPE,
         "scf.for: initial value 0 is memref<4xf32>; expected an integer, "
         "index or float value",
         iron_val it[1];
         iron_body_for(f->b, cx(f, 0), cx(f, 1), cx(f, 1), 1, &f->rv, it));
}

TEST(body_end_for_errors)
{
    CASE(IRON_EDESIGN,
         "body 'b': scf.yield: iron_body_end_for closes a for's body, but "
         "the innermost open region is the body's top level (nothing is "
         "open)",
         iron_body_end_for(f->b, 0, NULL, NULL));
    CASE(IRON_EDESIGN, "but the innermost open region is an if's then "
                       "region",
         iron_body_for(f->b, cx(f, 0), cx(f, 1), cx(f, 1), 0, NULL, NULL);
         iron_body_if(f->b, ci(f, IRON_BT_I1, 0), 0);
         iron_body_end_for(f->b, 0, NULL, NULL));
    CASE(IRON_EINVAL, "scf.yield: the for carries 1 value; 0 yielded",
         iron_val i0 = ci(f, IRON_BT_I32, 0), it[1];
         iron_body_for(f->b, cx(f, 0), cx(f, 1), cx(f, 1), 1, &i0, it);
         iron_body_end_for(f->b, 0, NULL, NULL));
    CASE(IRON_EDTYPE, "scf.yield: yielded value 0 is i64; expected i32",
         iron_val i0 = ci(f, IRON_BT_I32, 0), it[1], r[1];
         iron_body_for(f->b, cx(f, 0), cx(f, 1), cx(f, 1), 1, &i0, it);
         iron_val y = ci(f, IRON_BT_I64, 0);
         iron_body_end_for(f->b, 1, &y, r));
    CASE(IRON_EINVAL, "scf.yield: results is NULL, but 1 value come out",
         iron_val i0 = ci(f, IRON_BT_I32, 0), it[1];
         iron_body_for(f->b, cx(f, 0), cx(f, 1), cx(f, 1), 1, &i0, it);
         iron_body_end_for(f->b, 1, it, NULL));
}

TEST(body_while_errors)
{
    CASE(IRON_EINVAL, "scf.while: arg is NULL, but 1 value come out",
         iron_val i0 = ci(f, IRON_BT_I32, 0);
         iron_body_while(f->b, 1, &i0, NULL));
    CASE(IRON_EINVAL, "scf.while: 1 initial values given, but the array "
                      "is NULL",
         iron_val a[1];
         iron_body_while(f->b, 1, NULL, a));
    CASE(IRON_EDESIGN,
         "scf.condition: iron_body_while_do closes a while's condition "
         "region, but the innermost open region is the body's top level",
         iron_body_while_do(f->b, ci(f, IRON_BT_I1, 1), 0, NULL, NULL));
    CASE(IRON_EDTYPE, "scf.condition: the condition is i32; expected i1",
         iron_body_while(f->b, 0, NULL, NULL);
         iron_body_while_do(f->b, ci(f, IRON_BT_I32, 1), 0, NULL, NULL));
    CASE(IRON_EINVAL, "scf.condition: after is NULL, but 1 value come out",
         iron_body_while(f->b, 0, NULL, NULL);
         iron_val c = ci(f, IRON_BT_I1, 1);
         iron_body_while_do(f->b, c, 1, &c, NULL));
    CASE(IRON_EDESIGN,
         "scf.yield: iron_body_end_while closes a while's do region, but "
         "the innermost open region is a while's condition region",
         iron_body_while(f->b, 0, NULL, NULL);
         iron_body_end_while(f->b, 0, NULL, NULL));
    CASE(IRON_EINVAL, "scf.yield: the while carries 1 value; 2 yielded",
         iron_val i0 = ci(f, IRON_BT_I32, 0), a[1];
         iron_body_while(f->b, 1, &i0, a);
         iron_body_while_do(f->b, ci(f, IRON_BT_I1, 0), 0, NULL, NULL);
         iron_val y[2] = { i0, i0 };
         iron_body_end_while(f->b, 2, y, NULL));
    CASE(IRON_EDTYPE, "scf.yield: yielded value 0 is f32; expected i32",
         iron_val i0 = ci(f, IRON_BT_I32, 0), a[1];
         iron_body_while(f->b, 1, &i0, a);
         iron_body_while_do(f->b, ci(f, IRON_BT_I1, 0), 0, NULL, NULL);
         iron_val y = cf(f, IRON_BT_F32, 0);
         iron_body_end_while(f->b, 1, &y, NULL));
    CASE(IRON_EINVAL, "scf.yield: results is NULL, but 1 value come out",
         iron_body_while(f->b, 0, NULL, NULL);
         iron_val c = ci(f, IRON_BT_I1, 1), b1[1];
         iron_body_while_do(f->b, c, 1, &c, b1);
         iron_body_end_while(f->b, 0, NULL, NULL));
}

TEST(body_if_errors)
{
    CASE(IRON_EDTYPE, "scf.if: the condition is index; expected i1",
         iron_body_if(f->b, cx(f, 1), 0));
    CASE(IRON_EINVAL, "scf.if: -1 results",
         iron_body_if(f->b, ci(f, IRON_BT_I1, 1), -1));
    CASE(IRON_EDESIGN,
         "scf.yield: iron_body_else closes an if's then region, but the "
         "innermost open region is an if's else region",
         iron_body_if(f->b, ci(f, IRON_BT_I1, 1), 0);
         iron_body_else(f->b, 0, NULL);
         iron_body_else(f->b, 0, NULL));
    CASE(IRON_EINVAL, "scf.yield: the if has 1 result; 0 yielded",
         iron_body_if(f->b, ci(f, IRON_BT_I1, 1), 1);
         iron_body_else(f->b, 0, NULL));
    CASE(IRON_EDESIGN,
         "body 'b': scf.if: an if with results needs its else "
         "(iron_body_else)",
         iron_body_if(f->b, ci(f, IRON_BT_I1, 1), 1);
         iron_val r, y = ci(f, IRON_BT_I8, 1);
         iron_body_end_if(f->b, 1, &y, &r));
    CASE(IRON_EDTYPE, "scf.yield: yielded value 0 is i16; expected i8",
         iron_body_if(f->b, ci(f, IRON_BT_I1, 1), 1);
         iron_val r, y = ci(f, IRON_BT_I8, 1);
         iron_body_else(f->b, 1, &y);
         iron_val z = ci(f, IRON_BT_I16, 1);
         iron_body_end_if(f->b, 1, &z, &r));
    CASE(IRON_EINVAL, "scf.yield: results is NULL, but 1 value come out",
         iron_body_if(f->b, ci(f, IRON_BT_I1, 1), 1);
         iron_val y = ci(f, IRON_BT_I8, 1);
         iron_body_else(f->b, 1, &y);
         iron_val z = ci(f, IRON_BT_I8, 2);
         iron_body_end_if(f->b, 1, &z, NULL));
    CASE(IRON_EDESIGN,
         "iron_body_end_if closes an if's then region, but the innermost "
         "open region is a for's body",
         iron_body_for(f->b, cx(f, 0), cx(f, 1), cx(f, 1), 0, NULL, NULL);
         iron_body_end_if(f->b, 0, NULL, NULL));
}

/* --- ops on objects ------------------------------------------------------ */

TEST(body_fifo_op_errors)
{
    CASE(IRON_EDTYPE,
         "body 'b': aie.objectfifo.acquire: the operand is a barrier; "
         "expected a fifo (iron_body_fifo)",
         iron_body_acquire(f->b, f->xv, 1));
    CASE(IRON_EINVAL,
         "aie.objectfifo.acquire: acquires 3 objects of fifo 'in' "
         "(consumer); expected 1 to 2 (the endpoint's depth)",
         iron_body_acquire(f->b, f->in, 3));
    CASE(IRON_EINVAL, "acquires 0 objects", iron_body_acquire(f->b, f->in, 0));
    CASE(IRON_EDTYPE,
         "aie.objectfifo.subview.access: the operand is a fifo; expected an "
         "acquisition (iron_body_acquire)",
         iron_body_object(f->b, f->in, 0));
    CASE(IRON_EINVAL,
         "aie.objectfifo.subview.access: object 2 of an acquisition of 2; "
         "expected 0 to 1",
         iron_body_object(f->b, iron_body_acquire(f->b, f->in, 2), 2));
    CASE(IRON_EINVAL, "object -1 of an acquisition of 1",
         iron_body_object(f->b, iron_body_acquire(f->b, f->in, 1), -1));
    CASE(IRON_EDTYPE,
         "aie.objectfifo.release: the operand is memref<4xf32>; expected a "
         "fifo",
         iron_body_release(f->b, f->rv, 1));
    CASE(IRON_EINVAL,
         "aie.objectfifo.release: releases 4 objects of fifo 'out' "
         "(producer); expected 1 to 3",
         iron_body_release(f->b, f->out, 4));
}

TEST(body_load_store_errors)
{
    CASE(IRON_EDTYPE,
         "body 'b': memref.load: the memref operand is i32; expected a "
         "memref (iron_body_object, iron_body_rtp)",
         iron_val i = cx(f, 0);
         iron_body_load(f->b, ci(f, IRON_BT_I32, 0), 1, &i));
    CASE(IRON_EINVAL, "memref.load: 1 index for memref<4x4xi32>; expected 2",
         iron_val y = iron_body_object(f->b,
                                       iron_body_acquire(f->b, f->out, 1), 0);
         iron_val i = cx(f, 0);
         iron_body_load(f->b, y, 1, &i));
    CASE(IRON_EINVAL, "memref.load: the indexes are NULL",
         iron_body_load(f->b, f->rv, 1, NULL));
    CASE(IRON_EDTYPE, "memref.load: index 0 is i32; expected index",
         iron_val i = ci(f, IRON_BT_I32, 0);
         iron_body_load(f->b, f->rv, 1, &i));
    CASE(IRON_EINVAL, "memref.store: index 0 is 555",
         iron_val i = 555;
         iron_body_store(f->b, cf(f, IRON_BT_F32, 0), f->rv, 1, &i));
    CASE(IRON_EDTYPE,
         "memref.store: the stored value is f64; memref<4xf32> holds f32",
         iron_val i = cx(f, 0);
         iron_body_store(f->b, cf(f, IRON_BT_F64, 0), f->rv, 1, &i));
    CASE(IRON_EDTYPE, "memref.store: the memref operand is a kernel",
         iron_val i = cx(f, 0);
         iron_body_store(f->b, cf(f, IRON_BT_F32, 0), f->kv, 1, &i));
    /* uint8 elements load as i8 and store from i8 */
    fx g = setup();
    iron_val u = iron_body_fifo(g.b, iron_fifo_cons(g.fu));
    iron_val m = iron_body_object(g.b, iron_body_acquire(g.b, u, 1), 0);
    iron_val i = cx(&g, 1);
    iron_val v = iron_body_load(g.b, m, 1, &i);
    ASSERT_EQ(iron_body_value_type(g.b, v), IRON_BT_I8);
    ASSERT_OK(iron_body_store(g.b, v, m, 1, &i));
    teardown(&g);
}

TEST(body_call_errors)
{
    CASE(IRON_EDTYPE,
         "body 'b': func.call: the operand is a fifo; expected a kernel "
         "(iron_body_kernel)",
         iron_body_call(f->b, f->in, 0, NULL));
    CASE(IRON_EINVAL, "func.call: @k takes 2 arguments; 1 given",
         iron_val a = ci(f, IRON_BT_I32, 0);
         iron_body_call(f->b, f->kv, 1, &a));
    CASE(IRON_EINVAL, "func.call: the arguments are NULL",
         iron_body_call(f->b, f->kv, 2, NULL));
    CASE(IRON_EDTYPE,
         "func.call: @k argument 0 is memref<4xf32>; 'k' declares int32*, a "
         "memref of i32",
         iron_val a[2] = { f->rv, ci(f, IRON_BT_I32, 0) };
         iron_body_call(f->b, f->kv, 2, a));
    CASE(IRON_EDTYPE,
         "func.call: @k argument 1 is i64; 'k' declares a int32 scalar, "
         "passed as i32",
         iron_val y = iron_body_object(f->b,
                                       iron_body_acquire(f->b, f->out, 1), 0);
         iron_val a[2] = { y, ci(f, IRON_BT_I64, 0) };
         iron_body_call(f->b, f->kv, 2, a));
    CASE(IRON_EDTYPE,
         "func.call: @k argument 0 is memref<4x4xi32>, but an earlier call "
         "passed memref<16xi32> (the kernel's declaration takes one memref "
         "type)",
         iron_val x = iron_body_object(f->b,
                                       iron_body_acquire(f->b, f->in, 1), 0);
         iron_val y = iron_body_object(f->b,
                                       iron_body_acquire(f->b, f->out, 1), 0);
         iron_val a[2] = { x, ci(f, IRON_BT_I32, 0) };
         iron_body_call(f->b, f->kv, 2, a);
         a[0] = y;
         iron_body_call(f->b, f->kv, 2, a));
}

TEST(body_barrier_errors)
{
    CASE(IRON_EDTYPE,
         "body 'b': aie.use_lock: the operand is a kernel; expected a "
         "barrier (iron_body_barrier)",
         iron_body_barrier_wait(f->b, f->kv, 1));
    CASE(IRON_EINVAL,
         "aie.use_lock: wait for value 64; expected 0 to 63 (a lock's "
         "values)",
         iron_body_barrier_wait(f->b, f->xv, 64));
    CASE(IRON_EINVAL, "aie.use_lock: release of value 0; expected 1 to 63",
         iron_body_barrier_release(f->b, f->xv, 0));
    fx g = setup();
    ASSERT_OK(iron_body_barrier_wait(g.b, g.xv, 0));
    ASSERT_OK(iron_body_barrier_release(g.b, g.xv, 63));
    teardown(&g);
}

/* --- workers ------------------------------------------------------------- */

TEST(body_worker_errors)
{
    ASSERT(iron_worker_new_body(NULL, "w", NULL) == NULL);
    ASSERT_CONTAINS(iron_last_error(), "iron_worker_new_body: design is "
                                       "NULL");
    CASE(IRON_EINVAL,
         "worker 'w': the body is NULL (did iron_body_new fail?)",
         iron_worker_new_body(f->d, "w", NULL));
    iron_design *other = new_design();
    iron_body *ob = iron_body_new(other, "ob");
    CASE(IRON_EINVAL, "worker 'w': body 'ob' belongs to another design",
         iron_worker_new_body(f->d, "w", ob));
    iron__design_free(other);
    CASE(IRON_EDESIGN,
         "worker 'w': body 'b' has 2 open regions; close an if "
         "(iron_body_end_if) first",
         iron_body_for(f->b, cx(f, 0), cx(f, 1), cx(f, 1), 0, NULL, NULL);
         iron_body_if(f->b, ci(f, IRON_BT_I1, 0), 0);
         iron_worker_new_body(f->d, "w", f->b));
    CASE(IRON_EDESIGN, "has 1 open region; close a while's condition "
                       "(iron_body_while_do) first",
         iron_body_while(f->b, 0, NULL, NULL);
         iron_worker_new_body(f->d, "w", f->b));
    CASE(IRON_EDESIGN,
         "worker 'v': body 'b' already made worker 'w'; a body gives one "
         "worker (build another body)",
         iron_worker_new_body(f->d, "w", f->b);
         iron_worker_new_body(f->d, "v", f->b));
    CASE(IRON_EDESIGN,
         "body 'b': arith.constant: the body already made worker 'w'; a "
         "body is complete once it gives its worker",
         iron_worker_new_body(f->d, "w", f->b);
         ci(f, IRON_BT_I32, 1));
    /* The worker's own checks still apply (a taken handle). */
    CASE(IRON_EDESIGN,
         "worker 'w2': fifo 'in' (consumer) is already used by worker 'w'",
         iron_worker_new_body(f->d, "w", f->b);
         iron_kernel *k2 = iron_kernel_new_core(f->d, "k2",
                                                "void k2(iron_objfifo *f) "
                                                "{}",
                                                "fifo");
         iron_worker_new(f->d, "w2", k2, 0,
                         IRON_ARGS(iron_arg_fifo(
                             f->d->fifos.v[0]->cons[0]))));
}

TEST(body_worker_takes_the_parameters_in_order)
{
    fx f = setup();
    iron_val a = iron_body_acquire(f.b, f.out, 3);
    iron_body_acquire(f.b, f.out, 2);
    (void)a;
    iron_worker *w = iron_worker_new_body(f.d, "w", f.b);
    ASSERT_OK(iron_design_status(f.d));
    ASSERT(w->body == f.b);
    ASSERT(w->kernel->body == f.b);
    ASSERT_EQ(w->kernel->is_core, 1);
    ASSERT_STR_EQ(w->kernel->entry, "b");
    ASSERT_STR_EQ(w->kernel->cflags, "-ffp-contract=off -fno-fast-math");
    ASSERT_EQ(w->nargs, 5);
    ASSERT_EQ(w->args[0].kind, IRON_ARG_HANDLE);
    ASSERT_EQ(w->args[0].i, 1);             /* never acquired: 1 */
    ASSERT_EQ(w->args[1].i, 3);             /* the largest acquire */
    ASSERT_EQ(iron_fifo_prod(f.fo)->max_acquire, 3);
    ASSERT_EQ(w->args[2].kind, IRON_ARG_RTP);
    ASSERT_EQ(w->args[3].kind, IRON_ARG_BARRIER);
    ASSERT_EQ(w->args[4].kind, IRON_ARG_KERNEL);
    ASSERT_EQ(w->kernel->args[4].handle, IRON__KH_KERNEL);
    teardown(&f);
}

/* --- the C text ---------------------------------------------------------- */

/* The same ops on differently named objects: the same C. */
static char *c_of(const char *fifo, const char *rtp, const char *kname)
{
    iron_design *d = new_design();
    iron_fifo *fi = iron_fifo_new(d, fifo, IRON_INT32, IRON_SHAPE(16), 2);
    iron_rtp *r = iron_rtp_new(d, rtp, IRON_INT32, 16);
    char src[64];
    snprintf(src, sizeof src, "void %s(int32_t *a) {}", kname);
    iron_kernel *k = iron_kernel_new(d, kname, src, "int32*");
    iron_body *b = iron_body_new(d, "same");
    iron_val in = iron_body_fifo(b, iron_fifo_cons(fi));
    iron_val rv = iron_body_rtp(b, r), kv = iron_body_kernel(b, k);
    iron_val x = iron_body_object(b, iron_body_acquire(b, in, 1), 0);
    iron_body_call(b, kv, 1, &x);
    iron_body_call(b, kv, 1, &rv);
    iron_body_release(b, in, 1);
    ASSERT_OK(iron_design_status(d));
    iron_worker *w = iron_worker_new_body(d, "worker_name", b);
    ASSERT(w != NULL);
    char *text = strdup(w->kernel->source);
    ASSERT(strstr(text, fifo) == NULL);
    ASSERT(strstr(text, "worker_name") == NULL);
    ASSERT(strstr(text, kname) == NULL);
    ASSERT_CONTAINS(text, "void same(iron_objfifo *p0, int32_t *p1, "
                          "iron__kfn2 p2)");
    iron__design_free(d);
    return text;
}

TEST(body_c_text_names_no_object)
{
    char *a = c_of("alpha_fifo", "alpha_rtp", "alpha_kernel");
    char *b = c_of("beta_fifo", "beta_rtp", "beta_kernel");
    ASSERT_STR_EQ(a, b);
    free(a);
    free(b);
}

/* --- MLIR text ----------------------------------------------------------- */

/* Every kind of op, with the forms of constants MLIR prints. */
static void build_sample(fx *f)
{
    iron_body *b = f->b;
    iron_val u = iron_body_fifo(b, iron_fifo_cons(f->fu));
    iron_val lb = cx(f, 0), ub = cx(f, INT64_MAX), st = cx(f, 1);
    iron_body_for(b, lb, ub, st, 0, NULL, NULL);
    iron_body_barrier_wait(b, f->xv, 1);
    iron_val x = iron_body_object(b, iron_body_acquire(b, f->in, 1), 0);
    iron_val ya = iron_body_acquire(b, f->out, 2);
    iron_val y = iron_body_object(b, ya, 1);
    iron_val bytes = iron_body_object(b, iron_body_acquire(b, u, 1), 0);
    iron_val c3 = cx(f, 3);
    iron_val byte = iron_body_load(b, bytes, 1, &c3);
    iron_body_store(b, byte, bytes, 1, &c3);
    iron_val w = iron_body_cast(b, IRON_ARITH_EXTUI, byte, IRON_BT_I32);
    iron_val c0 = cx(f, 0);
    iron_val p = iron_body_load(b, f->rv, 1, &c0);
    iron_val pi = iron_body_cast(b, IRON_ARITH_FPTOSI, p, IRON_BT_I32);
    iron_val init[2] = { w, pi }, it[2], res[2];
    iron_val one = cx(f, 1);
    iron_body_for(b, c0, c3, one, 2, init, it);
    iron_val s = iron_body_arith(b, IRON_ARITH_ADDI, it[0], it[1]);
    iron_val lt = iron_body_cmp(b, IRON_CMP_SLT, s, ci(f, IRON_BT_I32, -7));
    iron_val yl[2] = { iron_body_select(b, lt, s, it[0]), s };
    iron_body_end_for(b, 2, yl, res);
    iron_val idx[2] = { cx(f, 1), c3 };
    iron_body_store(b, res[0], y, 2, idx);
    iron_val wa[1], wd[1], wr[1];
    iron_body_while(b, 1, &res[1], wa);
    iron_val cc = iron_body_cmp(b, IRON_CMP_ULT, wa[0],
                                ci(f, IRON_BT_I32, 100));
    iron_body_while_do(b, cc, 1, wa, wd);
    iron_val sq = iron_body_arith(b, IRON_ARITH_MULI, wd[0], wd[0]);
    iron_body_end_while(b, 1, &sq, wr);
    iron_val t = ci(f, IRON_BT_I1, 1);
    iron_body_if(b, t, 2);
    iron_val a1[2];
    a1[0] = cf(f, IRON_BT_F32, 1.5);
    a1[1] = cf(f, IRON_BT_F64, 0.1);
    iron_body_else(b, 2, a1);
    uint64_t nan_bits = 0x7ff8000000000000ULL;
    double nan;
    memcpy(&nan, &nan_bits, sizeof nan);
    iron_val a2[2];
    a2[0] = cf(f, IRON_BT_F32, 0.1);
    a2[1] = cf(f, IRON_BT_F64, nan);
    iron_val ir[2];
    iron_body_end_if(b, 2, a2, ir);
    iron_body_store(b, ir[0], f->rv, 1, &c0);
    iron_body_if(b, iron_body_cmp(b, IRON_CMP_NE, wr[0], wr[0]), 0);
    iron_val bf = cf(f, IRON_BT_BF16, -0.0);
    iron_val neg = iron_body_arith(b, IRON_ARITH_NEGF, bf, IRON_VAL_NONE);
    (void)neg;
    iron_body_end_if(b, 0, NULL, NULL);
    iron_val wide = ci(f, IRON_BT_I8, 200);
    iron_val args[2];
    args[0] = x;
    args[1] = iron_body_cast(b, IRON_ARITH_EXTSI, wide, IRON_BT_I32);
    iron_body_call(b, f->kv, 2, args);
    iron_body_release(b, f->in, 1);
    iron_body_release(b, f->out, 2);
    iron_body_release(b, u, 1);
    iron_body_barrier_release(b, f->xv, 2);
    iron_body_end_for(b, 0, NULL, NULL);
    ASSERT_OK(iron_design_status(f->d));
}

static const char sample_dump[] =
    "%c0 = arith.constant 0 : index\n"
    "%c9223372036854775807 = arith.constant 9223372036854775807 : index\n"
    "%c1 = arith.constant 1 : index\n"
    "scf.for %arg0 = %c0 to %c9223372036854775807 step %c1 {\n"
    "  aie.use_lock(%go, Acquire, 1)\n"
    "  %0 = aie.objectfifo.acquire @in(Consume, 1) : "
    "!aie.objectfifosubview<memref<16xi32>>\n"
    "  %1 = aie.objectfifo.subview.access %0[0] : "
    "!aie.objectfifosubview<memref<16xi32>> -> memref<16xi32>\n"
    "  %2 = aie.objectfifo.acquire @out(Produce, 2) : "
    "!aie.objectfifosubview<memref<4x4xi32>>\n"
    "  %3 = aie.objectfifo.subview.access %2[1] : "
    "!aie.objectfifosubview<memref<4x4xi32>> -> memref<4x4xi32>\n"
    "  %4 = aie.objectfifo.acquire @bytes(Consume, 1) : "
    "!aie.objectfifosubview<memref<16xui8>>\n"
    "  %5 = aie.objectfifo.subview.access %4[0] : "
    "!aie.objectfifosubview<memref<16xui8>> -> memref<16xui8>\n"
    "  %c3 = arith.constant 3 : index\n"
    "  %6 = memref.load %5[%c3] : memref<16xui8>\n"
    "  %7 = builtin.unrealized_conversion_cast %6 : ui8 to i8\n"
    "  %8 = builtin.unrealized_conversion_cast %7 : i8 to ui8\n"
    "  memref.store %8, %5[%c3] : memref<16xui8>\n"
    "  %9 = arith.extui %7 : i8 to i32\n"
    "  %c0_0 = arith.constant 0 : index\n"
    "  %10 = memref.load %params[%c0_0] : memref<4xf32>\n"
    "  %11 = arith.fptosi %10 : f32 to i32\n"
    "  %c1_1 = arith.constant 1 : index\n"
    "  %12:2 = scf.for %arg1 = %c0_0 to %c3 step %c1_1 iter_args(%arg2 = %9, "
    "%arg3 = %11) -> (i32, i32) {\n"
    "    %13 = arith.addi %arg2, %arg3 : i32\n"
    "    %c-7_i32 = arith.constant -7 : i32\n"
    "    %14 = arith.cmpi slt, %13, %c-7_i32 : i32\n"
    "    %15 = arith.select %14, %13, %arg2 : i32\n"
    "    scf.yield %15, %13 : i32, i32\n"
    "  }\n"
    "  %c1_2 = arith.constant 1 : index\n"
    "  memref.store %12#0, %3[%c1_2, %c3] : memref<4x4xi32>\n"
    "  %16 = scf.while (%arg4 = %12#1) : (i32) -> i32 {\n"
    "    %c100_i32 = arith.constant 100 : i32\n"
    "    %17 = arith.cmpi ult, %arg4, %c100_i32 : i32\n"
    "    scf.condition(%17) %arg4 : i32\n"
    "  } do {\n"
    "  ^bb0(%arg5: i32):\n"
    "    %18 = arith.muli %arg5, %arg5 : i32\n"
    "    scf.yield %18 : i32\n"
    "  }\n"
    "  %true = arith.constant true\n"
    "  %19:2 = scf.if %true -> (f32, f64) {\n"
    "    %cst = arith.constant 1.500000e+00 : f32\n"
    "    %cst_3 = arith.constant 1.000000e-01 : f64\n"
    "    scf.yield %cst, %cst_3 : f32, f64\n"
    "  } else {\n"
    "    %cst_4 = arith.constant 1.000000e-01 : f32\n"
    "    %cst_5 = arith.constant 0x7FF8000000000000 : f64\n"
    "    scf.yield %cst_4, %cst_5 : f32, f64\n"
    "  }\n"
    "  memref.store %19#0, %params[%c0_0] : memref<4xf32>\n"
    "  %20 = arith.cmpi ne, %16, %16 : i32\n"
    "  scf.if %20 {\n"
    "    %cst_6 = arith.constant -0.000000e+00 : bf16\n"
    "    %21 = arith.negf %cst_6 : bf16\n"
    "  }\n"
    "  %c-56_i8 = arith.constant -56 : i8\n"
    "  %22 = arith.extsi %c-56_i8 : i8 to i32\n"
    "  func.call @k(%1, %22) : (memref<16xi32>, i32) -> ()\n"
    "  aie.objectfifo.release @in(Consume, 1)\n"
    "  aie.objectfifo.release @out(Produce, 2)\n"
    "  aie.objectfifo.release @bytes(Consume, 1)\n"
    "  aie.use_lock(%go, Release, 2)\n"
    "}\n";

TEST(body_dump_prints_upstreams_pretty_form)
{
    fx f = setup();
    build_sample(&f);
    char *text = NULL;
    ASSERT_OK(iron_body_dump(f.b, &text));
    if (strcmp(text, sample_dump) != 0)
        TEST_FAIL_("dump differs; got:\n%s", text);
    iron_free(text);
    teardown(&f);
}

/* Buffers and locks named like placeholders (or alike once made SSA
 * names) keep every name distinct. */
TEST(body_dump_placeholder_names_never_collide)
{
    iron_design *d = new_design();
    iron_body *b = iron_body_new(d, "names");
    iron_val r1 = iron_body_rtp(b, iron_rtp_new(d, "c0", IRON_INT32, 2));
    iron_val r2 = iron_body_rtp(b, iron_rtp_new(d, "a b", IRON_INT32, 2));
    iron_val r3 = iron_body_rtp(b, iron_rtp_new(d, "a_b", IRON_INT32, 2));
    iron_val x1 = iron_body_barrier(b, iron_barrier_new(d, "arg0"));
    iron_val x2 = iron_body_barrier(b, iron_barrier_new(d, "7"));
    iron_val c0 = iron_body_const_int(b, IRON_BT_INDEX, 0);
    iron_val v = iron_body_load(b, r1, 1, &c0);
    iron_body_store(b, v, r2, 1, &c0);
    iron_body_store(b, v, r3, 1, &c0);
    iron_body_barrier_wait(b, x1, 1);
    iron_body_barrier_wait(b, x2, 1);
    ASSERT_OK(iron_design_status(d));
    char *text;
    ASSERT_OK(iron_body_dump(b, &text));
    ASSERT_STR_EQ(text, "%c0_1 = arith.constant 0 : index\n"
                        "%0 = memref.load %c0[%c0_1] : memref<2xi32>\n"
                        "memref.store %0, %a_b[%c0_1] : memref<2xi32>\n"
                        "memref.store %0, %a_b_0[%c0_1] : memref<2xi32>\n"
                        "aie.use_lock(%_arg0, Acquire, 1)\n"
                        "aie.use_lock(%_7, Acquire, 1)\n");
    iron_free(text);
    iron__design_free(d);
}

/* A body still being built dumps what it has: open regions end at the
 * last op so far (no terminator yet; an scf.for whose results do not
 * exist yet prints in the generic form, an scf.while still in its
 * condition has an empty "do" region). */
TEST(body_dump_while_regions_are_open)
{
    fx f = setup();
    iron_val i0 = ci(&f, IRON_BT_I32, 5), it[1], a[1];
    iron_val lb = cx(&f, 0), ub = cx(&f, 4), st = cx(&f, 1);
    iron_body_for(f.b, lb, ub, st, 1, &i0, it);
    iron_body_while(f.b, 1, it, a);
    iron_body_if(f.b, ci(&f, IRON_BT_I1, 1), 1);
    char *text;
    ASSERT_OK(iron_body_dump(f.b, &text));
    ASSERT_STR_EQ(text,
                  "%c5_i32 = arith.constant 5 : i32\n"
                  "%c0 = arith.constant 0 : index\n"
                  "%c4 = arith.constant 4 : index\n"
                  "%c1 = arith.constant 1 : index\n"
                  "\"scf.for\"(%c0, %c4, %c1, %c5_i32) ({\n"
                  "^bb0(%arg0: index, %arg1: i32):\n"
                  "  scf.while (%arg2 = %arg1) : (i32) -> () {\n"
                  "    %true = arith.constant true\n"
                  "    scf.if %true {\n"
                  "    }\n"
                  "  } do {\n"
                  "  }\n"
                  "}) : (index, index, index, i32) -> ()\n");
    iron_free(text);
    teardown(&f);
}

TEST(body_print_mlir_uses_the_exporters_names)
{
    fx f = setup();
    build_sample(&f);
    static const char *const names[] = { "of_in", "of_out", "%buf_4",
                                         "%lock_2", "kfn", "of_b" };
    iron__body_names nm = { names, "%c2_" };
    iron__str s = { 0 };
    ASSERT_OK(iron__mlx_body_text(f.b, &nm, 4, &s));
    const char *t = iron__str_get(&s);
    ASSERT_CONTAINS(t, "    %c2_0 = arith.constant 0 : index\n"
                       "    %c2_1 = arith.constant 9223372036854775807 : "
                       "index\n");
    ASSERT_CONTAINS(t, "    scf.for %c2_3 = %c2_0 to %c2_1 step %c2_2 {\n"
                       "      aie.use_lock(%lock_2, Acquire, 1)\n"
                       "      %c2_4 = aie.objectfifo.acquire @of_in(Consume, "
                       "1)");
    ASSERT_CONTAINS(t, "memref.load %buf_4[");
    ASSERT_CONTAINS(t, "aie.objectfifo.acquire @of_b(Consume, 1)");
    ASSERT_CONTAINS(t, "scf.for %c2_");
    ASSERT_CONTAINS(t, "func.call @kfn(");
    ASSERT(strstr(t, "%arg") == NULL);
    ASSERT(strstr(t, "%cst") == NULL);
    iron__str_free(&s);

    /* call types for the exporter's declarations */
    iron__str scratch = { 0 };
    ASSERT_STR_EQ(iron__body_call_type(f.b, f.k, 0, &scratch),
                  "memref<16xi32>");
    ASSERT_STR_EQ(iron__body_call_type(f.b, f.k, 1, &scratch), "i32");
    ASSERT(iron__body_call_type(f.b, f.k, 2, &scratch) == NULL);
    iron_kernel *other = iron_kernel_new(f.d, "o", "void o(void) {}", "");
    ASSERT(iron__body_call_type(f.b, other, 0, &scratch) == NULL);
    iron__str_free(&scratch);
    teardown(&f);
}

TEST(body_value_types_follow_the_ops)
{
    fx f = setup();
    iron_val a = iron_body_acquire(f.b, f.out, 2);
    ASSERT_EQ(iron_body_value_type(f.b, a), IRON_BT_HANDLE);
    iron_val y = iron_body_object(f.b, a, 0);
    ASSERT_EQ(iron_body_value_type(f.b, y), IRON_BT_MEMREF);
    iron_val idx[2];
    idx[0] = cx(&f, 0);
    idx[1] = cx(&f, 1);
    ASSERT_EQ(iron_body_value_type(f.b, iron_body_load(f.b, y, 2, idx)),
              IRON_BT_I32);
    ASSERT_EQ(iron_body_value_type(f.b, iron_body_load(f.b, f.rv, 1, idx)),
              IRON_BT_F32);
    iron_val iv = iron_body_for(f.b, idx[0], idx[1], idx[1], 0, NULL, NULL);
    ASSERT_EQ(iron_body_value_type(f.b, iv), IRON_BT_INDEX);
    ASSERT_OK(iron_body_end_for(f.b, 0, NULL, NULL));
    ASSERT_OK(iron_design_status(f.d));
    teardown(&f);
}

/* --- the standard loop as a body ----------------------------------------- */

TEST(body_standard_worker_as_a_body)
{
    iron_design *d = new_design();
    iron_fifo *fi = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(16), 2);
    iron_fifo *fo = iron_fifo_new(d, "out", IRON_BFLOAT16, IRON_SHAPE(8),
                                  2);
    iron_rtp *r = iron_rtp_new(d, "w8", IRON_INT8, 4);
    iron_kernel *k = iron_kernel_new(d, "f", "void f(void) {}",
                                     "int32*, uint32, bfloat16*, int8*, "
                                     "float32, bfloat16");
    iron_worker *w = iron_worker_new(
        d, "std", k, 7,
        IRON_ARGS(iron_arg_fifo(iron_fifo_cons(fi)), iron_arg_int(4000000000),
                  iron_arg_fifo(iron_fifo_prod(fo)), iron_arg_rtp(r),
                  iron_arg_float(0.1), iron_arg_int(3)));
    ASSERT_OK(iron_design_status(d));
    iron_body *b;
    ASSERT_OK(iron__body_for_standard_worker(d, w, &b));
    char *text;
    ASSERT_OK(iron_body_dump(b, &text));
    static const char want[] =
        "%c0 = arith.constant 0 : index\n"
        "%c9223372036854775807 = arith.constant 9223372036854775807 : "
        "index\n"
        "%c1 = arith.constant 1 : index\n"
        "scf.for %arg0 = %c0 to %c9223372036854775807 step %c1 {\n"
        "  %0 = aie.objectfifo.acquire @in(Consume, 1) : "
        "!aie.objectfifosubview<memref<16xi32>>\n"
        "  %1 = aie.objectfifo.subview.access %0[0] : "
        "!aie.objectfifosubview<memref<16xi32>> -> memref<16xi32>\n"
        "  %2 = aie.objectfifo.acquire @out(Produce, 1) : "
        "!aie.objectfifosubview<memref<8xbf16>>\n"
        "  %3 = aie.objectfifo.subview.access %2[0] : "
        "!aie.objectfifosubview<memref<8xbf16>> -> memref<8xbf16>\n"
        "  %c-294967296_i32 = arith.constant -294967296 : i32\n"
        "  %cst = arith.constant 1.000000e-01 : f32\n"
        "  %cst_0 = arith.constant 3.000000e+00 : bf16\n"
        "  func.call @f(%1, %c-294967296_i32, %3, %w8, %cst, %cst_0) : "
        "(memref<16xi32>, i32, memref<8xbf16>, memref<4xi8>, f32, bf16) -> "
        "()\n"
        "  aie.objectfifo.release @in(Consume, 1)\n"
        "  aie.objectfifo.release @out(Produce, 1)\n"
        "}\n";
    if (strcmp(text, want) != 0)
        TEST_FAIL_("got:\n%s", text);
    iron_free(text);
    /* parameters: the handles and the buffer in argument order, then the
     * kernel */
    ASSERT_EQ(iron__body_nparams(b), 4);
    ASSERT_EQ(iron__body_param_at(b, 0)->kind, IRON__BP_FIFO);
    ASSERT_EQ(iron__body_param_at(b, 1)->kind, IRON__BP_FIFO);
    ASSERT_EQ(iron__body_param_at(b, 2)->kind, IRON__BP_RTP);
    ASSERT_EQ(iron__body_param_at(b, 3)->kind, IRON__BP_KERNEL);
    ASSERT_EQ(iron__body_param_at(b, 0)->max_acquire, 1);
    iron__str scratch = { 0 };
    ASSERT_STR_EQ(iron__body_call_type(b, k, 3, &scratch), "memref<4xi8>");
    iron__str_free(&scratch);
    /* it makes no worker of its own */
    ASSERT(iron_worker_new_body(d, "again", b) == NULL);
    ASSERT_CONTAINS(d->error, "stands for a standard-loop worker");
    iron__design_free(d);
}

TEST(body_standard_worker_errors)
{
    iron_body *b = (iron_body *)1;
    ASSERT_FAILS(iron__body_for_standard_worker(NULL, NULL, &b), IRON_EINVAL,
                 "design is NULL");
    ASSERT(b == NULL);
    ASSERT_FAILS(iron__body_for_standard_worker(NULL, NULL, NULL),
                 IRON_EINVAL, "out is NULL");
    fx f = setup();
    ASSERT_FAILS(iron__body_for_standard_worker(f.d, NULL, &b), IRON_EINVAL,
                 "worker is NULL");
    iron_worker *w = iron_worker_new_body(f.d, "w", f.b);
    ASSERT_FAILS(iron__body_for_standard_worker(f.d, w, &b), IRON_EINVAL,
                 "worker 'w' runs described body 'b' already");
    iron_kernel *c = iron_kernel_new_core(f.d, "cb", "void cb(void) {}", "");
    iron_worker *cw = iron_worker_new(f.d, "cw", c, 0, 0, NULL);
    ASSERT(cw != NULL);
    ASSERT_FAILS(iron__body_for_standard_worker(f.d, cw, &b), IRON_ENOTSUP,
                 "worker 'cw' runs core body 'cb', given as C source");
    iron_design *other = new_design();
    ASSERT_FAILS(iron__body_for_standard_worker(other, cw, &b), IRON_EINVAL,
                 "the worker belongs to another design");
    iron__design_free(other);
    teardown(&f);
}

/* --- allocation failures ------------------------------------------------- */

/* Builds the sample, makes its worker, dumps it and prints it for the
 * exporter, failing allocation n; IRON_OK when nothing failed. */
static iron_status build_all(long n)
{
    fx f = setup();
    iron__alloc_fail_at(n);
    iron_body *b = f.b;
    iron_val u = iron_body_fifo(b, iron_fifo_cons(f.fu));
    iron_body_for(b, cx(&f, 0), cx(&f, 9), cx(&f, 1), 0, NULL, NULL);
    iron_val y = iron_body_object(b, iron_body_acquire(b, f.out, 1), 0);
    iron_val m = iron_body_object(b, iron_body_acquire(b, u, 1), 0);
    iron_val i2[2] = { cx(&f, 1), cx(&f, 2) };
    iron_val v = iron_body_load(b, m, 1, i2);
    iron_val w = iron_body_cast(b, IRON_ARITH_EXTSI, v, IRON_BT_I32);
    iron_val it[1], res[1];
    iron_body_for(b, i2[0], i2[1], i2[0], 1, &w, it);
    iron_val s = iron_body_arith(b, IRON_ARITH_ADDI, it[0], it[0]);
    iron_body_end_for(b, 1, &s, res);
    iron_body_if(b, iron_body_cmp(b, IRON_CMP_EQ, res[0], w), 1);
    iron_body_else(b, 1, &w);
    iron_body_end_if(b, 1, &w, res);
    iron_body_store(b, res[0], y, 2, i2);
    iron_val args[2] = { y, w };
    iron_body_call(b, f.kv, 2, args);
    iron_body_release(b, f.out, 1);
    iron_body_release(b, u, 1);
    iron_body_end_for(b, 0, NULL, NULL);
    iron_worker_new_body(f.d, "w", b);
    iron_status st = f.d->status;
    char *text = NULL;
    if (st == IRON_OK)
        st = iron_body_dump(b, &text);
    iron_free(text);
    iron__str s2 = { 0 };
    static const char *const names[] = { "a", "b", "%c", "%d", "e", "f" };
    iron__body_names nm = { names, "%p" };
    if (st == IRON_OK)
        st = iron__mlx_body_text(b, &nm, 0, &s2);
    iron__str_free(&s2);
    long made = iron__alloc_fail_at(0);
    teardown(&f);
    if (made < n && st != IRON_OK)
        TEST_FAIL_("failed with no allocation failure: %s",
                   iron_status_name(st));
    return made < n ? IRON_OK : st;
}

TEST_TIMEOUT(body_allocation_failures, 60)
{
    long n;
    for (n = 1;; n++) {
        iron_status s = build_all(n);
        if (s == IRON_OK)
            break;
        if (s != IRON_ENOMEM)
            TEST_FAIL_("allocation %ld: %s: %s", n, iron_status_name(s),
                       iron_last_error());
    }
    ASSERT_GT(n, 10);
    test_assert_no_leaks();
}
