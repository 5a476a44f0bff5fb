/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_kernel_cycles.c - iron_kernel_set_cycles: a kernel's declared
 * cost per call, its errors as the design records them, the parameter
 * names a declaration may give, and the compiled cost the program
 * carries to the driver.  Designs are built on the internal API (no jit,
 * no compiler).
 */
#include "test.h"
#include "dump/dump.h"
#include "place/place.h"
#include "verify/verify.h"

static const char src[] = "void k(int *a, int *b, int n) { }";

static iron_device_info dev_info(void)
{
    iron_device *dev;
    iron_device_info info = { .size = sizeof info };
    if (iron_device_get("npu1_1col", &dev) != IRON_OK ||
        iron_device_get_info(dev, &info) != IRON_OK)
        TEST_FAIL_("device npu1_1col: %s", iron_last_error());
    return info;
}

static iron__argsig args[2];

static iron_design *new_design(const iron_device_info *info)
{
    args[0] = (iron__argsig){ "x", IRON__ROLE_IN, IRON_INT32, { 1, { 64 } },
                              64 };
    args[1] = (iron__argsig){ "y", IRON__ROLE_OUT, IRON_INT32, { 1, { 64 } },
                              64 };
    iron_design *d;
    if (iron__design_new(&d, "t", 2, args, 0, NULL, 1, info, NULL, 0,
                         NULL) != IRON_OK)
        TEST_FAIL_("iron__design_new: %s", iron_last_error());
    return d;
}

/* set_cycles(decl, text) on a fresh design must fail with needle, and
 * the design keep the failure. */
static void refused(const char *decl, const char *text, const char *needle)
{
    iron_device_info info = dev_info();
    iron_design *d = new_design(&info);
    iron_kernel *k = iron_kernel_new(d, "scale", src, decl);
    ASSERT(k != NULL);
    iron_status s = iron_kernel_set_cycles(k, text);
    if (s != IRON_EINVAL)
        TEST_FAIL_("\"%s\" on \"%s\": expected IRON_EINVAL, got %s (%s)",
                   text ? text : "NULL", decl, iron_status_name(s),
                   iron_last_error());
    ASSERT_CONTAINS(iron_last_error(), needle);
    ASSERT_EQ(iron_design_status(d), IRON_EINVAL);
    ASSERT(k->cycles == NULL);
    iron__design_free(d);
}

TEST(kernel_cycles_refused_with_named_errors)
{
    ASSERT_FAILS(iron_kernel_set_cycles(NULL, "5"), IRON_EINVAL,
                 "iron_kernel_set_cycles: kernel is NULL");
    const char *decl = "int32* in, int32* out, int32 n";
    refused(decl, NULL, "kernel 'scale': cycles is NULL");
    refused(decl, "", "kernel 'scale': cycles \"\": empty");
    refused(decl, "-5", "kernel 'scale': cycles \"-5\" is -5; a declared "
                        "cost is at least 0 cycles");
    refused(decl, "2 * m", "kernel 'scale': cycles \"2 * m\": column 5: "
                           "'m' is not an argument of kernel 'scale' (its "
                           "named arguments: in, out, n; did you mean "
                           "'n'?)");
    refused(decl, "in * 2", "column 1: argument 'in' ($0) is declared "
                            "'int32*', not a scalar");
    refused(decl, "n * (2 +", "column 9: expected a number, an argument, "
                              "'(' or min(a, b) / max(a, b), got the end");
    refused(decl, "n * 99999999999999999999", "column 5: the number "
                                              "overflows 64 bits");
    refused(decl, "n / (4 - 4)", "column 3: division by a constant zero");
    /* A declaration without names: positions, and a message saying so. */
    refused("int32*, int32*, int32", "n", "'n' is not an argument of "
            "kernel 'scale', whose declaration names none (name them "
            "there, as in \"int32* in, int32 n\", or write $0 .. $2 by "
            "position)");
    refused("int32*, int32*, int32", "$3", "$3: kernel 'scale' has 3 "
                                           "arguments ($0 .. $2)");
}

TEST(kernel_cycles_accepted_and_replaced)
{
    iron_device_info info = dev_info();
    iron_design *d = new_design(&info);
    iron_kernel *k = iron_kernel_new(d, "scale", src,
                                     "int32 *in,int32*out , int32 n");
    ASSERT(k != NULL);
    ASSERT_EQ(k->nargs, 3);
    ASSERT_STR_EQ(k->argnames[0], "in");
    ASSERT_STR_EQ(k->argnames[1], "out");
    ASSERT_STR_EQ(k->argnames[2], "n");
    ASSERT(k->args[0].is_ptr && k->args[1].is_ptr && !k->args[2].is_ptr);
    ASSERT_OK(iron_kernel_set_cycles(k, "5000"));
    int64_t v = 0;
    ASSERT(iron__kexpr_is_constant(k->cycles, &v));
    ASSERT_EQ(v, 5000);
    ASSERT_OK(iron_kernel_set_cycles(k, "64 + n / 32 * 9 + $2 % 32"));
    ASSERT_STR_EQ(iron__kexpr_text(k->cycles), "64 + n / 32 * 9 + $2 % 32");
    iron_kernel_value vals[3] = { { 0 } };
    vals[2].i = 100;
    ASSERT_OK(iron__kexpr_eval(k->cycles, vals, &v));
    ASSERT_EQ(v, 64 + 27 + 4);
    ASSERT_STR_EQ(iron_last_error(), "");
    /* Unnamed declarations keep working; names and none may mix. */
    iron_kernel *u = iron_kernel_new(d, "u", src, "int32*, int32* out, int32");
    ASSERT(u != NULL);
    ASSERT(u->argnames[0] == NULL && u->argnames[2] == NULL);
    ASSERT_STR_EQ(u->argnames[1], "out");
    ASSERT_OK(iron_kernel_set_cycles(u, "$2 * 3"));
    ASSERT_OK(iron_design_status(d));
    /* A core body is never called: no cost per call. */
    iron_kernel *c = iron_kernel_new_core(d, "body", "void body(void) {}",
                                          "");
    ASSERT_FAILS(iron_kernel_set_cycles(c, "5"), IRON_EINVAL,
                 "core body 'body': a core body runs once and is never "
                 "called");
    iron__design_free(d);
}

/* A declaration's names: what is refused, and the types unchanged. */
TEST(kernel_cycles_declaration_names)
{
    static const struct {
        const char *decl, *needle;
    } bad[] = {
        { "int32* a b, int32", "kernel 'k': arg_types \"int32* a b, int32\": "
                               "argument 1 'int32* a b': one name at most "
                               "after the type, as in 'int32 n'" },
        { "int32* n, int32 n", "arguments 1 and 2 are both named 'n'" },
        { "int32 5", "argument 1 'int32 5': unexpected '5' after the dtype" },
        { "n", "argument 1 'n': unknown dtype" },
    };
    iron_device_info info = dev_info();
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        iron_design *d = new_design(&info);
        ASSERT(iron_kernel_new(d, "k", src, bad[i].decl) == NULL);
        ASSERT_EQ(iron_design_status(d), IRON_EINVAL);
        ASSERT_CONTAINS(d->error, bad[i].needle);
        iron__design_free(d);
    }
    /* A core body's kernel(...) argument may be named after its ')'. */
    iron_design *d = new_design(&info);
    iron_kernel *c = iron_kernel_new_core(
        d, "body", "void body(void) {}",
        "fifo in, fifo out, kernel(int32*, int32*, int32) f, int32 n");
    ASSERT(c != NULL);
    ASSERT_EQ(c->nargs, 4);
    ASSERT_STR_EQ(c->argnames[2], "f");
    ASSERT_EQ(c->args[2].knargs, 3);
    iron__design_free(d);
}

/* The program carries each worker's declared cost, and a core body's
 * kernel argument carries that kernel's. */
TEST(kernel_cycles_reach_the_program)
{
    iron_device_info info = dev_info();
    iron_design *d = new_design(&info);
    iron_kernel *k = iron_kernel_new(d, "k", src,
                                     "int32* a, int32* b, int32 n");
    ASSERT_OK(iron_kernel_set_cycles(k, "10 * n"));
    iron_kernel *plain = iron_kernel_new(d, "p", src, "int32*, int32*, int32");
    iron_fifo *f0 = iron_fifo_new(d, "f0", IRON_INT32, IRON_SHAPE(16), 2);
    iron_fifo *f1 = iron_fifo_new(d, "f1", IRON_INT32, IRON_SHAPE(16), 2);
    iron_fifo *f2 = iron_fifo_new(d, "f2", IRON_INT32, IRON_SHAPE(16), 2);
    iron_worker_new(d, "w0", k, 1,
                    IRON_ARGS(iron_arg_fifo(iron_fifo_cons(f0)),
                              iron_arg_fifo(iron_fifo_prod(f1)),
                              iron_arg_int(7)));
    iron_kernel *body = iron_kernel_new_core(
        d, "body", "void body(void) {}",
        "fifo, fifo, kernel(int32*, int32*, int32), kernel(int32*, int32*, "
        "int32)");
    iron_worker_new(d, "w1", body, 0,
                    IRON_ARGS(iron_arg_fifo(iron_fifo_cons(f1)),
                              iron_arg_fifo(iron_fifo_prod(f2)),
                              iron_arg_kernel(k), iron_arg_kernel(plain)));
    iron_rt_fill(d, iron_fifo_prod(f0), 0, iron_tap_linear(16));
    iron_rt_drain(d, iron_fifo_cons(f2), 1, iron_tap_linear(16), IRON_WAIT);
    ASSERT_OK(iron_design_status(d));
    ASSERT_OK(iron__verify(d));
    iron_program *p;
    ASSERT_OK(iron__program_new(&p, d, &info));
    ASSERT_OK(iron__place(p));
    ASSERT_EQ(p->nworkers, 2);
    ASSERT(p->workers[0].cycles != NULL);
    ASSERT(p->workers[0].cycles != k->cycles);   /* the program's own */
    ASSERT(p->workers[1].cycles == NULL);
    iron_kernel_value vals[3] = { { 0 } };
    vals[2].i = p->wargs[0][2].i;
    int64_t c = 0;
    ASSERT_OK(iron__kexpr_eval(p->workers[0].cycles, vals, &c));
    ASSERT_EQ(c, 70);
    ASSERT(p->wargs[1][2].cycles != NULL);
    ASSERT_STR_EQ(iron__kexpr_text(p->wargs[1][2].cycles), "10 * n");
    ASSERT(p->wargs[1][3].cycles == NULL);
    ASSERT(p->wargs[1][0].cycles == NULL);
    /* The dumps show it, for the worker and for the body's argument. */
    iron__str text = { 0 };
    iron__dump_text(p->d, p, &text);
    ASSERT_CONTAINS(iron__str_get(&text), "w0: kernel 'k' x 1 (declared "
                                          "cycles \"10 * n\")");
    ASSERT_CONTAINS(iron__str_get(&text), "kernel 'k' (kernel 0) (declared "
                                          "cycles \"10 * n\")");
    iron__str_free(&text);
    iron__program_free(p);
}

/* Out of memory at every allocation of declaring a cost and of copying
 * it into the program: a clean error, nothing leaked (ASan checks). */
TEST(kernel_cycles_out_of_memory)
{
    iron_device_info info = dev_info();
    for (long n = 1;; n++) {
        iron_design *d = new_design(&info);
        iron_kernel *k = iron_kernel_new(d, "k", src,
                                         "int32* a, int32* b, int32 n");
        ASSERT(k != NULL);
        iron__alloc_fail_at(n);
        iron_status s = iron_kernel_set_cycles(k, "3 * n + 1");
        iron__alloc_fail_at(0);
        iron__design_free(d);
        if (s == IRON_OK)
            break;
        ASSERT_EQ(s, IRON_ENOMEM);
        ASSERT_LT(n, 50);
    }
}
