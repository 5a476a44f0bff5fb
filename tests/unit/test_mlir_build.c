/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_mlir_build.c - the MLIR tree builder (src/mlir/build.c) and tree
 * equality (iron__mlir_module_equal): a module holding every attribute
 * kind, every type kind, regions with block arguments and values used
 * across them prints in both forms to text that parses back to an equal
 * tree; equality names the first difference; a bad spec and every
 * allocation failure leave the builder failed, with nothing leaked.
 */
#include "core/core.h"
#include "mlir/ast.h"
#include "mlir/build.h"
#include "test.h"

typedef iron__mlir_op O;

static iron__mlir_type *memref(iron__mlir_b *b, int64_t n, const char *elem)
{
    return iron__mlir_b_shaped(b, IRON__MT_MEMREF,
                               iron__mlir_b_scalar(b, elem), 1, &n);
}

/* A module using everything the builder makes: attributes of every
 * kind on an op of no known dialect (generic form) and on known ops
 * (enums as keywords), every type, nested regions with arguments. */
static iron__mlir_b build_sample(void)
{
    iron__mlir_b b;
    if (iron__mlir_b_start(&b) != IRON_OK)
        return b;
    iron__mlir_type *index = iron__mlir_b_scalar(&b, "index");
    iron__mlir_type *i32 = iron__mlir_b_scalar(&b, "i32");
    int64_t dims[2] = { 2, 3 };
    iron__mlir_type *tensor = iron__mlir_b_shaped(
        &b, IRON__MT_TENSOR, iron__mlir_b_scalar(&b, "f32"), 2, dims);
    iron__mlir_type *types[] = {
        iron__mlir_b_scalar(&b, "si8"), iron__mlir_b_scalar(&b, "ui16"),
        iron__mlir_b_scalar(&b, "bf16"), iron__mlir_b_scalar(&b, "f64"),
        iron__mlir_b_shaped(&b, IRON__MT_VECTOR, i32, 2, dims),
        iron__mlir_b_dialect(&b, "aie", "objectfifo", memref(&b, 16, "ui8")),
    };
    O *dev = iron__mlir_b_op(&b, NULL, "aie.device", "device:kw", "npu1_1col");
    iron__mlir_b_region(&b, dev, 1);
    O *tile = iron__mlir_b_op(&b, dev, "aie.tile", "col:i32 row:i32 =",
                              (int64_t)0, (int64_t)2, index, "%tile_0_2");
    int t = tile ? tile->results[0] : -1;
    O *lock = iron__mlir_b_op(&b, dev, "aie.lock", "% ?init:i32 ?lockID:i32 =",
                              t, (int64_t)1, (int64_t)0, index, "%lock");

    /* every attribute kind, discardable, on an unknown op */
    iron__mlir_attr *array = iron__mlir_b_attr(&b, IRON__MA_ARRAY, 0, NULL);
    iron__mlir_b_item(&b, array, NULL,
                      iron__mlir_b_attr(&b, IRON__MA_INT, 7, i32));
    iron__mlir_b_item(&b, array, NULL,
                      iron__mlir_b_text(&b, IRON__MA_STR, "x y"));
    iron__mlir_attr *dense_array =
        iron__mlir_b_attr(&b, IRON__MA_DENSE_ARRAY, 0,
                          iron__mlir_b_scalar(&b, "i64"));
    iron__mlir_attr *dense = iron__mlir_b_attr(&b, IRON__MA_DENSE, 0, tensor);
    iron__mlir_attr *splat = iron__mlir_b_attr(
        &b, IRON__MA_DENSE, 0, iron__mlir_b_shaped(&b, IRON__MT_TENSOR, i32, 2,
                                                   dims));
    iron__mlir_b_item(&b, splat, NULL,
                      iron__mlir_b_attr(&b, IRON__MA_INT, -5, NULL));
    for (int i = 0; i < 6; i++) {
        iron__mlir_b_item(&b, dense_array, NULL,
                          iron__mlir_b_attr(&b, IRON__MA_INT, i - 2, NULL));
        iron__mlir_b_item(&b, dense, NULL,
                          iron__mlir_b_float(&b, i * 0.5 - 1, NULL));
    }
    iron__mlir_attr *dict = iron__mlir_b_attr(&b, IRON__MA_DICT, 0, NULL);
    iron__mlir_b_item(&b, dict, "k", iron__mlir_b_attr(&b, IRON__MA_BOOL, 1,
                                                       NULL));
    iron__mlir_b_item(&b, dict, "odd key",
                      iron__mlir_b_attr(&b, IRON__MA_UNIT, 0, NULL));
    iron__mlir_attr *dimlist = iron__mlir_b_attr(&b, IRON__MA_ARRAY, 0, NULL);
    iron__mlir_b_item(&b, dimlist, NULL, iron__mlir_b_dim(&b, 4, 1));
    iron__mlir_b_item(&b, dimlist, NULL, iron__mlir_b_dim(&b, 2, 16));
    iron__mlir_type *ft = iron__mlir_b_functype(&b, 6, types, 1, &index);
    iron__mlir_b_op(&b, dev, "test.every",
                    "% int:i64 uint:ui32 untyped:int flag:bool s:str sym:sym "
                    "ty:type a:attr da:attr d:attr sp:attr dict:attr "
                    "dim:attr dims:attr opaque:attr unit:attr f:attr "
                    "nested:attr ?absent:str =",
                    t, (int64_t)-3, (int64_t)4000000000, (int64_t)9, 0,
                    "quote \" and \\ and \n", "a::@b", ft, array, dense_array,
                    dense, splat, dict, iron__mlir_b_dim(&b, 8, 2), dimlist,
                    iron__mlir_b_text(&b, IRON__MA_OPAQUE, "#foo.bar<1, 2>"),
                    iron__mlir_b_attr(&b, IRON__MA_UNIT, 0, NULL),
                    iron__mlir_b_float(&b, 0.1, iron__mlir_b_scalar(&b,
                                                                    "f32")),
                    iron__mlir_b_text(&b, IRON__MA_SYMREF, "nested sym"),
                    (const char *)NULL, types[5], "%fifo");

    /* a core: enums as keywords, a loop with block arguments and a value
     * defined outside it */
    O *core = iron__mlir_b_op(&b, dev, "aie.core", "% stack_size:i32 =", t,
                              (int64_t)2048, index, "%core");
    iron__mlir_b_region(&b, core, 1);
    iron__mlir_b_op(&b, core, "aie.use_lock", "% action:kw value:i32",
                    lock ? lock->results[0] : -1, "AcquireGreaterEqual",
                    (int64_t)1);
    O *c0 = iron__mlir_b_op(&b, core, "arith.constant", "value:attr =",
                            iron__mlir_b_attr(&b, IRON__MA_INT, 0, index),
                            index, "%c0");
    int zero = c0 ? c0->results[0] : -1;
    O *loop = iron__mlir_b_op(&b, core, "scf.for", "% % % % =", zero, zero,
                              zero, zero, index, "%r");
    iron__mlir_block *body = iron__mlir_b_region(&b, loop, 1);
    int iv = iron__mlir_b_arg(&b, body, index, "%iv");
    int acc = iron__mlir_b_arg(&b, body, index, "%acc");
    O *cmp = iron__mlir_b_op(&b, loop, "arith.cmpi", "% % predicate:kw =", iv,
                             acc, "ult", iron__mlir_b_scalar(&b, "i1"), "%lt");
    O *sel = iron__mlir_b_op(&b, loop, "arith.select", "% % % =",
                             cmp ? cmp->results[0] : -1, iv, zero, index,
                             "%s");
    iron__mlir_b_op(&b, loop, "scf.yield", "%", sel ? sel->results[0] : -1);
    iron__mlir_b_op(&b, core, "aie.end", NULL);
    O *f = iron__mlir_b_op(
        &b, dev, "func.func",
        "sym_name:str sym_visibility:str function_type:type", "k", "private",
        ft);
    iron__mlir_b_region(&b, f, 0);
    /* the device's implicit terminator, as the parser makes it */
    iron__mlir_b_op(&b, dev, "aie.end", NULL);
    return b;
}

static iron__mlir_module *parse(const char *text)
{
    iron__mlir_module *m = NULL;
    iron_status st = iron__mlir_parse(text, strlen(text), "b.mlir", &m);
    if (st != IRON_OK)
        TEST_FAIL_("parse failed: %s\n--- text ---\n%s", iron_last_error(),
                   text);
    return m;
}

TEST(mlir_build_every_kind_round_trips_in_both_forms)
{
    iron__mlir_b b = build_sample();
    ASSERT_OK(iron__mlir_b_status(&b, "the sample"));
    for (int generic = 0; generic < 2; generic++) {
        iron__str s = { 0 }, why = { 0 };
        ASSERT_OK(iron__mlir_print(b.m, generic, &s));
        iron__mlir_module *m = parse(iron__str_get(&s));
        if (!iron__mlir_module_equal(b.m, m, &why))
            TEST_FAIL_("%s form: %s\n--- text ---\n%s",
                       generic ? "generic" : "custom", iron__str_get(&why),
                       iron__str_get(&s));
        iron__str_free(&why);
        iron__mlir_module_free(m);
        iron__str_free(&s);
    }
    iron__mlir_module_free(b.m);
}

TEST(mlir_build_prints_as_written)
{
    iron__mlir_b b = build_sample();
    iron__str s = { 0 };
    ASSERT_OK(iron__mlir_print(b.m, 0, &s));
    const char *t = iron__str_get(&s);
    ASSERT_CONTAINS(t, "%tile_0_2 = aie.tile(0, 2)\n");
    ASSERT_CONTAINS(t, "%lock = aie.lock(%tile_0_2) {init = 1 : i32}\n");
    ASSERT_CONTAINS(t, "aie.use_lock(%lock, AcquireGreaterEqual, 1)");
    ASSERT_CONTAINS(t, "%r = scf.for %iv = %c0 to %c0 step %c0 "
                       "iter_args(%acc = %c0) -> (index) {");
    ASSERT_CONTAINS(t, "} {stack_size = 2048 : i32}");
    ASSERT_CONTAINS(t, "func.func private @k(si8, ui16, bf16, f64, "
                       "vector<2x3xi32>, !aie.objectfifo<memref<16xui8>>) -> "
                       "index\n");
    ASSERT_CONTAINS(t, "da = array<i64: -2, -1, 0, 1, 2, 3>");
    ASSERT_CONTAINS(t, "sp = dense<-5> : tensor<2x3xi32>");
    ASSERT(strstr(t, "absent") == NULL);
    iron__str_free(&s);
    iron__mlir_module_free(b.m);
}

TEST(mlir_equal_names_the_first_difference)
{
    iron__mlir_b a = build_sample(), b = build_sample();
    iron__str why = { 0 };
    ASSERT(iron__mlir_module_equal(a.m, b.m, &why));
    ASSERT_STR_EQ(iron__str_get(&why), "");
    /* names do not matter */
    b.m->values[0].name[1] = 'T';
    ASSERT(iron__mlir_module_equal(a.m, b.m, NULL));
    /* an attribute's value does */
    O *dev = b.m->top->regions[0]->blocks[0]->ops[0];
    O *tile = dev->regions[0]->blocks[0]->ops[0];
    tile->attrs[1].attr->i = 3;
    ASSERT(!iron__mlir_module_equal(a.m, b.m, &why));
    ASSERT_STR_EQ(iron__str_get(&why), "builtin.module/aie.device#0/"
                                       "aie.tile#0: attribute row differs");
    tile->attrs[1].attr->i = 2;
    /* so does which value an operand is */
    O *core = dev->regions[0]->blocks[0]->ops[3];
    O *loop = core->regions[0]->blocks[0]->ops[2];
    O *sel = loop->regions[0]->blocks[0]->ops[1];
    sel->operands[1] = sel->operands[2];
    why.len = 0;
    ASSERT(!iron__mlir_module_equal(a.m, b.m, &why));
    ASSERT_CONTAINS(iron__str_get(&why), "/scf.for#2/arith.select#1: an "
                                         "operand is another value");
    ASSERT(!iron__mlir_module_equal(a.m, NULL, NULL));
    iron__str_free(&why);
    iron__mlir_module_free(a.m);
    iron__mlir_module_free(b.m);
}

TEST(mlir_build_failures_are_sticky)
{
    iron__mlir_b b;
    ASSERT_OK(iron__mlir_b_start(&b));
    /* a spec kind that does not exist, a type name that is none */
    iron__mlir_b_op(&b, NULL, "x.y", "a:float", (int64_t)1);
    ASSERT_FAILS(iron__mlir_b_status(&b, "a test"), IRON_EINVAL,
                 "building a test: a spec or type name the builder does not "
                 "know");
    ASSERT(iron__mlir_b_op(&b, NULL, "x.z", NULL) == NULL);
    iron__mlir_module_free(b.m);
    ASSERT_OK(iron__mlir_b_start(&b));
    ASSERT(iron__mlir_b_scalar(&b, "q7") == NULL);
    ASSERT_FAILS(iron__mlir_b_status(&b, "a type"), IRON_EINVAL, "a bug");
    iron__mlir_module_free(b.m);
}

TEST_TIMEOUT(mlir_build_allocation_failures_are_clean, 60)
{
    long n;
    for (n = 1;; n++) {
        iron__alloc_fail_at(n);
        iron__mlir_b b = build_sample();
        iron_status st = b.m ? iron__mlir_b_status(&b, "the sample")
                             : IRON_ENOMEM;
        long made = iron__alloc_fail_at(0);
        iron__mlir_module_free(b.m);
        if (made < n) {
            ASSERT_OK(st);
            break;
        }
        ASSERT_EQ(st, IRON_ENOMEM);
    }
    ASSERT_GT(n, 2);
    test_assert_no_leaks();
}
