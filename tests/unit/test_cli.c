/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_cli.c - the `iron` command, run as a program: its path comes from
 * $IRON_CLI (set by `make test`).
 */
#include <sys/stat.h>
#include <sys/wait.h>

#include <jansson.h>

#include "core/env.h"
#include "test.h"

static char out[65536];

TEST(cli_version)
{
    ASSERT_EQ(test_run_cli("version", 1, out, sizeof out), 0);
    ASSERT_STR_EQ(out, "iron 0.4.0\n");
}

TEST(cli_devices_lists_every_device)
{
    static const char *const names[] = {
        "npu1",      "npu1_1col", "npu1_2col", "npu1_3col",
        "npu2",      "npu2_1col", "npu2_2col", "npu2_3col",
        "npu2_4col", "npu2_5col", "npu2_6col", "npu2_7col",
    };
    unsetenv("IRON_DEVICE");
    ASSERT_EQ(test_run_cli("devices", 1, out, sizeof out), 0);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char row[32];
        /* Each name starts a row. */
        snprintf(row, sizeof row, "\n%s ", names[i]);
        ASSERT_CONTAINS(out, row);
    }
    ASSERT_CONTAINS(out, "compute tile");
    ASSERT_CONTAINS(out, "memtile");
    ASSERT_CONTAINS(out, "shim tile");
    ASSERT_CONTAINS(out, "64 KiB");
    ASSERT_CONTAINS(out, "512 KiB");
    ASSERT_CONTAINS(out, "emulator");
    ASSERT_CONTAINS(out, "current device: npu2");
}

TEST(cli_devices_one)
{
    ASSERT_EQ(test_run_cli("devices npu1_2col", 1, out, sizeof out), 0);
    ASSERT_CONTAINS(out, "npu1_2col\n");
    ASSERT_CONTAINS(out, "aie2\n");
    ASSERT_CONTAINS(out, "columns         2\n");
    ASSERT_CONTAINS(out, "compute tiles   8 (4 per column)");
    ASSERT_CONTAINS(out, "64 KiB data memory (incl. 1 KiB stack), 16 locks, "
                         "16 buffer descriptors, DMA 2 in + 2 out");
    ASSERT_CONTAINS(out, "512 KiB data memory, 64 locks, 48 buffer "
                         "descriptors, DMA 6 in + 6 out");
    ASSERT_CONTAINS(out, "no data memory");
    ASSERT_CONTAINS(out, "0 .. 63");
}

TEST(cli_devices_unknown)
{
    ASSERT_EQ(test_run_cli("devices npu3", 1, out, sizeof out), 1);
    ASSERT_CONTAINS(out, "unknown device 'npu3'; known devices: npu1");
}

TEST(cli_devices_bad_env_warns)
{
    setenv("IRON_DEVICE", "gpu7", 1);
    ASSERT_EQ(test_run_cli("devices", 1, out, sizeof out), 0);
    ASSERT_CONTAINS(out, "warning: $IRON_DEVICE is 'gpu7'");
    setenv("IRON_DEVICE", "npu1_1col", 1);
    ASSERT_EQ(test_run_cli("devices", 1, out, sizeof out), 0);
    ASSERT_CONTAINS(out, "current device: npu1_1col");
}

TEST(cli_help)
{
    ASSERT_EQ(test_run_cli("help", 0, out, sizeof out), 0);
    ASSERT_CONTAINS(out, "usage: iron");
    ASSERT_CONTAINS(out, "devices");
    ASSERT_EQ(test_run_cli("--help", 0, out, sizeof out), 0);
    ASSERT_CONTAINS(out, "usage: iron");
}

/* The help's environment section is the library's table, every name in
 * a column of its own (a name longer than the others once ran into its
 * text: "IRON_LAUNCH_THREADSat most ..."), and no line is wider than 79
 * columns. */
TEST(cli_help_lists_the_environment)
{
    ASSERT_EQ(test_run_cli("--help", 0, out, sizeof out), 0);
    ASSERT_CONTAINS(out, "\nenvironment (");
    for (int i = 0; i < IRON__ENV_COUNT; i++) {
        const char *name = iron__env_var_of((iron__env_id)i)->name;
        char row[64];
        snprintf(row, sizeof row, "\n  %s  ", name);
        ASSERT_CONTAINS(out, row);
    }
    for (const char *p = out; *p;) {
        size_t n = strcspn(p, "\n");
        if (n > 79)
            TEST_FAIL_("a help line of %zu columns: '%.*s'", n, (int)n, p);
        p += n + (p[n] != '\0');
    }
    ASSERT_CONTAINS(out, "default npu2;");
    ASSERT_CONTAINS(out, "default 60000;");
    ASSERT_CONTAINS(out, "jit, cache, emu");
    ASSERT_CONTAINS(out, "check LIB NAME");
    ASSERT_CONTAINS(out, "run LIB NAME");
    /* Every format iron dump takes. */
    ASSERT_CONTAINS(out, "text, json, dot, grid, mlir, mlir-generic\n");
}

/* Every misuse names the offending word and, where one is close, the
 * word that was probably meant. */
TEST(cli_usage_errors_name_the_word)
{
    ASSERT_EQ(test_run_cli("version extra", 1, out, sizeof out), 2);
    ASSERT_STR_EQ(out, "iron: unexpected argument 'extra' to 'version'\n");
    ASSERT_EQ(test_run_cli("help me", 1, out, sizeof out), 2);
    ASSERT_CONTAINS(out, "unexpected argument 'me' to 'help'");
    ASSERT_EQ(test_run_cli("devics", 1, out, sizeof out), 2);
    ASSERT_CONTAINS(out, "unknown command 'devics'; did you mean 'devices'?");
    ASSERT_EQ(test_run_cli("dupm", 1, out, sizeof out), 2);
    ASSERT_CONTAINS(out, "did you mean 'dump'?");
    ASSERT_EQ(test_run_cli("zzzzzzzz", 1, out, sizeof out), 2);
    ASSERT(strstr(out, "did you mean") == NULL);
    ASSERT_EQ(test_run_cli("devices NPU1", 1, out, sizeof out), 1);
    ASSERT_CONTAINS(out, "unknown device 'NPU1'");
    ASSERT_CONTAINS(out, "did you mean 'npu1'?");
    ASSERT_EQ(test_run_cli("devices npu2_4cl", 1, out, sizeof out), 1);
    ASSERT_CONTAINS(out, "did you mean 'npu2_4col'?");
    ASSERT_EQ(test_run_cli("devices npu1 x", 1, out, sizeof out), 2);
    ASSERT_CONTAINS(out, "unexpected argument 'x' to 'devices'");
    ASSERT_EQ(test_run_cli("devices --jsn", 1, out, sizeof out), 2);
    ASSERT_CONTAINS(out, "unknown option '--jsn'; did you mean '--json'?");
    ASSERT_EQ(test_run_cli("devices --json npu1", 1, out, sizeof out), 2);
    ASSERT_CONTAINS(out, "--json lists every device");
    ASSERT_EQ(test_run_cli("tap --shape 4x4 --sizes 2 --strides 1 --ordr",
                           1, out, sizeof out), 2);
    ASSERT_CONTAINS(out, "iron tap: unknown option '--ordr'; did you mean "
                         "'--order'?");
    ASSERT_EQ(test_run_cli("tap --shape 4y4 --sizes 2 --strides 1", 1, out,
                           sizeof out), 2);
    ASSERT_CONTAINS(out, "--shape '4y4': expected RxC");
    ASSERT_EQ(test_run_cli("tap --shape 4x4 --sizes 2,x --strides 1", 1, out,
                           sizeof out), 2);
    ASSERT_CONTAINS(out, "--sizes '2,x'");
    ASSERT_EQ(test_run_cli("tap --shape 4x4 --sizes 2 --strides 1 extra",
                           1, out, sizeof out), 2);
    ASSERT_CONTAINS(out, "iron tap: unexpected argument 'extra'");
}

TEST(cli_devices_json)
{
    unsetenv("IRON_DEVICE");
    ASSERT_EQ(test_run_cli("devices --json", 0, out, sizeof out), 0);
    json_error_t err;
    json_t *root = json_loads(out, 0, &err);
    if (!root)
        TEST_FAIL_("not JSON (%s): %s", err.text, out);
    json_t *devs = json_object_get(root, "devices");
    ASSERT_EQ(json_array_size(devs), iron_device_count());
    json_t *d0 = json_array_get(devs, 0);
    ASSERT_STR_EQ(json_string_value(json_object_get(d0, "name")), "npu1");
    ASSERT_STR_EQ(json_string_value(json_object_get(d0, "arch")), "aie2");
    ASSERT_EQ(json_integer_value(json_object_get(d0, "columns")), 4);
    ASSERT_EQ(json_integer_value(json_object_get(
                  json_object_get(d0, "memtile"), "memory_bytes")),
              512 * 1024);
    ASSERT_STR_EQ(json_string_value(json_object_get(root, "current")),
                  "npu2");
    json_decref(root);
    setenv("IRON_DEVICE", "gpu7", 1);
    ASSERT_EQ(test_run_cli("devices --json", 0, out, sizeof out), 0);
    root = json_loads(out, 0, &err);
    ASSERT(root != NULL);
    ASSERT(json_is_null(json_object_get(root, "current")));
    json_decref(root);
}

TEST(cli_usage_errors_exit_2)
{
    ASSERT_EQ(test_run_cli("frobnicate", 0, out, sizeof out), 2);
    ASSERT_STR_EQ(out, "");   /* the message goes to stderr */
    /* A mistyped command: the suggestion and where the help is, not the
     * whole help. */
    ASSERT_EQ(test_run_cli("frobnicate", 1, out, sizeof out), 2);
    ASSERT_STR_EQ(out, "iron: unknown command 'frobnicate'\n"
                       "(iron --help lists the commands)\n");
    ASSERT_EQ(test_run_cli("devics", 1, out, sizeof out), 2);
    ASSERT_STR_EQ(out, "iron: unknown command 'devics'; did you mean "
                       "'devices'?\n(iron --help lists the commands)\n");
    ASSERT_EQ(test_run_cli("", 1, out, sizeof out), 2);
    ASSERT_CONTAINS(out, "usage: iron");
    ASSERT_EQ(test_run_cli("version extra", 0, out, sizeof out), 2);
    ASSERT_EQ(test_run_cli("devices a b", 0, out, sizeof out), 2);
}

/* `iron dump` of a reference design from the examples plugin. */
TEST(cli_dump_reference_design)
{
    const char *lib = getenv("IRON_EXLIB");
    if (!lib)
        TEST_FAIL_("IRON_EXLIB is not set (run through make test)");
    char cmd[512];
    snprintf(cmd, sizeof cmd,
             "dump %s vector_op --args 'int32[4096], int32[4096], "
             "int32[4096]' --params \"op='-', tile=32\" --device npu1 "
             "--cols 2",
             lib);
    ASSERT_EQ(test_run_cli(cmd, 0, out, sizeof out), 0);
    ASSERT_CONTAINS(out, "tile=32, op='-', kernel_file='', kernel_entry='eltwise'; npu1, 2 columns");
    ASSERT_CONTAINS(out, "eltwise: kernel 'eltwise' x 128 on tile (0,2)");
    ASSERT_CONTAINS(out, "fifo 'c': compute tile (0,2) -> shim (0,0)");
    snprintf(cmd, sizeof cmd,
             "dump %s vector_op --args 'int32[4096], int32[4096], "
             "float32[4096]'", lib);
    ASSERT_EQ(test_run_cli(cmd, 1, out, sizeof out), 1);
    ASSERT_CONTAINS(out, "argument 2 ('c'): expected int32[4096], got "
                         "float32[4096]");
    snprintf(cmd, sizeof cmd, "dump %s no_such --args 'int32[4]'", lib);
    ASSERT_EQ(test_run_cli(cmd, 1, out, sizeof out), 2);
    ASSERT_CONTAINS(out, "exports no no_such_design");
    ASSERT_EQ(test_run_cli("dump", 1, out, sizeof out), 2);
}

TEST(cli_tap_draws_a_pattern)
{
    ASSERT_EQ(test_run_cli("tap --shape 4x4 --sizes 2,2,2,2 --strides 8,2,4,1 "
                           "--order",
                           1, out, sizeof out),
              0);
    ASSERT_STR_EQ(out,
                  "4 x 4 tensor, tap offset 0 sizes [2, 2, 2, 2] strides "
                  "[8, 2, 4, 1]: 16 visits, 16 of 16 elements visited\n"
                  "    0  1  2  3\n"
                  "0:  0  1  4  5\n"
                  "1:  2  3  6  7\n"
                  "2:  8  9 12 13\n"
                  "3: 10 11 14 15\n"
                  "access order: 0 1 4 5 2 3 6 7 8 9 12 13 10 11 14 15\n");
    /* Out of the tensor: the library's sentence, exit 1. */
    ASSERT_EQ(test_run_cli("tap --shape 2x2 --sizes 5 --strides 1", 1, out,
                           sizeof out),
              1);
    ASSERT_CONTAINS(out, "iron tap: ");
    ASSERT_CONTAINS(out, "out of bounds");
    ASSERT_EQ(test_run_cli("tap --shape 4 --sizes 2 --strides 1", 1, out,
                           sizeof out),
              2);
    ASSERT_EQ(test_run_cli("tap --shape 4x4 --sizes 2,2 --strides 1", 1, out,
                           sizeof out),
              2);
}

TEST(cli_dump_draws_the_sequence_taps)
{
    const char *lib = getenv("IRON_EXLIB");
    if (!lib)
        TEST_FAIL_("IRON_EXLIB is not set (run through make test)");
    char cmd[512];
    snprintf(cmd, sizeof cmd,
             "dump %s dma_transpose --args 'int32[4, 8], int32[4, 8], "
             "int32[4, 8]' --taps",
             lib);
    ASSERT_EQ(test_run_cli(cmd, 1, out, sizeof out), 0);
    /* The fill reads the 4 x 8 input column by column. */
    ASSERT_CONTAINS(out, "4 x 8 tensor, tap offset 0 sizes [8, 4] strides "
                         "[1, 8]: 32 visits, 32 of 32 elements visited\n"
                         "    0  1  2  3  4  5  6  7\n"
                         "0:  0  4  8 12 16 20 24 28\n");
    ASSERT_CONTAINS(out, "1 drain fifo 'in_fwd' (consumer) into argument 2");
}

static const char *exlib(void)
{
    const char *lib = getenv("IRON_EXLIB");
    if (!lib)
        TEST_FAIL_("IRON_EXLIB is not set (run through make test)");
    return lib;
}

#define VOP_ARGS "--args 'int32[4096], int32[4096], int32[4096]'"

/* check: design, verify, place -- and no compiler: it passes with a
 * compiler that always fails, where a text dump (a full build) does
 * not. */
TEST(cli_check_places_without_compiling)
{
    char cmd[512];
    setenv("IRON_CC", "false", 1);
    setenv("IRON_CACHE", "0", 1);
    snprintf(cmd, sizeof cmd, "check %s vector_op " VOP_ARGS
             " --device npu1 --cols 2", exlib());
    ASSERT_EQ(test_run_cli(cmd, 1, out, sizeof out), 0);
    ASSERT_STR_EQ(out, "vector_op (a: int32[4096], b: int32[4096], c: "
                       "int32[4096]; tile=16, op='+', kernel_file='', "
                       "kernel_entry='eltwise'; npu1, 2 columns): ok: "
                       "1 worker, 3 fifos, 0 links, 1 tile (1 compute, 0 "
                       "memtiles), 3 shim DMA channels, columns used 1 of "
                       "2\n");
    snprintf(cmd, sizeof cmd, "dump %s vector_op " VOP_ARGS, exlib());
    ASSERT_EQ(test_run_cli(cmd, 1, out, sizeof out), 1);
    ASSERT_CONTAINS(out, "compile");
    /* The other formats stop after placement too. */
    snprintf(cmd, sizeof cmd, "dump %s vector_op " VOP_ARGS
             " --format grid", exlib());
    ASSERT_EQ(test_run_cli(cmd, 1, out, sizeof out), 0);
    /* A design that does not fit, and a bad argument: exit 1, the
     * library's message. */
    snprintf(cmd, sizeof cmd, "check %s matmul_whole --args 'int16[256, 64], "
             "int16[64, 128], int32[256, 128]' --device npu1", exlib());
    ASSERT_EQ(test_run_cli(cmd, 1, out, sizeof out), 0);
    ASSERT_CONTAINS(out, "16 workers, 29 fifos, 5 links, 20 tiles (16 "
                         "compute, 4 memtiles)");
    ASSERT_CONTAINS(out, "columns used 4 of 4");
    snprintf(cmd, sizeof cmd, "check %s matmul_whole --args 'int16[64, 64], "
             "int16[64, 32], int32[64, 32]'", exlib());
    ASSERT_EQ(test_run_cli(cmd, 1, out, sizeof out), 1);
    ASSERT_CONTAINS(out, "iron check: matmul_whole (");
    ASSERT_CONTAINS(out, "design: matmul_whole: 64 x 64 x 32 does not split");
    snprintf(cmd, sizeof cmd, "check %s vector_op --args 'int32[4096], "
             "int32[4096], float32[4096]'", exlib());
    ASSERT_EQ(test_run_cli(cmd, 1, out, sizeof out), 1);
    ASSERT_CONTAINS(out, "expected int32[4096], got float32[4096]");
    snprintf(cmd, sizeof cmd, "check %s vector_op " VOP_ARGS " --cols 9 "
             "--device npu1", exlib());
    ASSERT_EQ(test_run_cli(cmd, 1, out, sizeof out), 1);
    ASSERT_CONTAINS(out, "asks for 9 columns; device 'npu1' has 4");
    /* Usage errors. */
    snprintf(cmd, sizeof cmd, "check %s", exlib());
    ASSERT_EQ(test_run_cli(cmd, 1, out, sizeof out), 2);
    ASSERT_CONTAINS(out, "missing the design's NAME");
    snprintf(cmd, sizeof cmd, "check %s vector_op", exlib());
    ASSERT_EQ(test_run_cli(cmd, 1, out, sizeof out), 2);
    ASSERT_CONTAINS(out, "missing --args");
    snprintf(cmd, sizeof cmd, "check %s vector_op " VOP_ARGS " extra",
             exlib());
    ASSERT_EQ(test_run_cli(cmd, 1, out, sizeof out), 2);
    ASSERT_CONTAINS(out, "iron check: unexpected argument 'extra'");
    snprintf(cmd, sizeof cmd, "check %s vector_op " VOP_ARGS " --format json",
             exlib());
    ASSERT_EQ(test_run_cli(cmd, 1, out, sizeof out), 2);
    ASSERT_CONTAINS(out, "unknown option '--format'");
    snprintf(cmd, sizeof cmd, "check %s vector_op " VOP_ARGS " --devic npu1",
             exlib());
    ASSERT_EQ(test_run_cli(cmd, 1, out, sizeof out), 2);
    ASSERT_CONTAINS(out, "unknown option '--devic'; did you mean '--device'?");
    snprintf(cmd, sizeof cmd, "check %s vector_op " VOP_ARGS " --device NPU2",
             exlib());
    ASSERT_EQ(test_run_cli(cmd, 1, out, sizeof out), 2);
    ASSERT_CONTAINS(out, "unknown device 'NPU2'; did you mean 'npu2'?");
    snprintf(cmd, sizeof cmd, "check %s vector_op " VOP_ARGS " --cols x",
             exlib());
    ASSERT_EQ(test_run_cli(cmd, 1, out, sizeof out), 2);
    ASSERT_CONTAINS(out, "--cols 'x': expected a positive number");
    ASSERT_EQ(test_run_cli("check --help", 0, out, sizeof out), 0);
    ASSERT_CONTAINS(out, "usage: iron check");
}

static json_t *jget(json_t *o, const char *path)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *k = strtok(buf, "."); k && o; k = strtok(NULL, "."))
        o = *k >= '0' && *k <= '9' ? json_array_get(o, (size_t)atoi(k))
                                   : json_object_get(o, k);
    if (!o)
        TEST_FAIL_("no %s in the JSON", path);
    return o;
}

TEST(cli_dump_json)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "dump %s vector_op " VOP_ARGS
             " --format json --device npu1 --cols 2", exlib());
    ASSERT_EQ(test_run_cli(cmd, 0, out, sizeof out), 0);
    json_error_t err;
    json_t *r = json_loads(out, 0, &err);
    if (!r)
        TEST_FAIL_("not JSON (%s): %s", err.text, out);
    ASSERT_STR_EQ(json_string_value(jget(r, "device")), "npu1");
    ASSERT_EQ(json_integer_value(jget(r, "columns")), 2);
    ASSERT_STR_EQ(json_string_value(jget(r, "arguments.2.role")), "out");
    ASSERT_EQ(json_array_size(jget(r, "fifos")), 3);
    ASSERT_STR_EQ(json_string_value(jget(r, "fifos.0.name")), "a");
    ASSERT_STR_EQ(json_string_value(jget(r, "fifos.0.dtype")), "int32");
    ASSERT_EQ(json_integer_value(jget(r, "fifos.0.object_shape.0")), 16);
    ASSERT_EQ(json_integer_value(jget(r, "fifos.0.depth")), 2);
    ASSERT_STR_EQ(json_string_value(jget(r, "fifos.0.producer.user")),
                  "runtime");
    ASSERT_STR_EQ(json_string_value(jget(r, "fifos.0.consumers.0.worker")),
                  "eltwise");
    ASSERT_EQ(json_integer_value(jget(r, "fifos.0.consumers.0.tile.1")), 2);
    ASSERT_STR_EQ(json_string_value(jget(r, "workers.0.kernel")), "eltwise");
    ASSERT_EQ(json_integer_value(jget(r, "workers.0.iterations")), 256);
    ASSERT_EQ(json_integer_value(jget(r, "workers.0.tile.0")), 0);
    ASSERT_STR_EQ(json_string_value(jget(r, "sequence.0.op")), "fill");
    ASSERT_STR_EQ(json_string_value(jget(r, "sequence.0.fifo")), "a");
    ASSERT_EQ(json_integer_value(jget(r, "sequence.0.tap.sizes.0")), 4096);
    ASSERT_EQ(json_integer_value(jget(r, "sequence.0.shim_column")), 0);
    ASSERT_STR_EQ(json_string_value(jget(r, "dma.0.direction")), "in");
    ASSERT_STR_EQ(json_string_value(jget(r, "tiles.0.worker")), "eltwise");
    json_decref(r);
    /* Links: a split and joins on memtiles. */
    snprintf(cmd, sizeof cmd, "dump %s matmul_whole --args 'int16[256, 64], "
             "int16[64, 128], int32[256, 128]' --device npu1 --format json",
             exlib());
    ASSERT_EQ(test_run_cli(cmd, 0, out, sizeof out), 0);
    r = json_loads(out, 0, &err);
    ASSERT(r != NULL);
    ASSERT_EQ(json_array_size(jget(r, "links")), 5);
    ASSERT_STR_EQ(json_string_value(jget(r, "links.0.kind")), "split");
    ASSERT_EQ(json_integer_value(jget(r, "links.0.tile.1")), 1);
    ASSERT_EQ(json_array_size(jget(r, "workers")), 16);
    json_decref(r);
}

TEST(cli_dump_dot_and_grid)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "dump %s vector_op " VOP_ARGS
             " --format dot --cols 1", exlib());
    ASSERT_EQ(test_run_cli(cmd, 1, out, sizeof out), 0);
    ASSERT_CONTAINS(out, "digraph design {\n");
    ASSERT_CONTAINS(out, "  w0 [shape=box, label=\"eltwise\\nkernel "
                         "'eltwise'\\ncompute tile (0,2)\"];\n");
    ASSERT_CONTAINS(out, "  shim0 [shape=cylinder, label=\"shim DMA "
                         "(0,0)\"];\n");
    ASSERT_CONTAINS(out, "  shim0 -> w0 [label=\"a\\nint32[16] x 2\"];\n");
    ASSERT_CONTAINS(out, "  w0 -> shim0 [label=\"c\\nint32[16] x 2\"];\n");
    ASSERT_CONTAINS(out, "\n}\n");

    snprintf(cmd, sizeof cmd, "dump %s vector_op " VOP_ARGS
             " --format grid --device npu1 --cols 2", exlib());
    ASSERT_EQ(test_run_cli(cmd, 1, out, sizeof out), 0);
    /* Only the column the design uses, named. */
    ASSERT_CONTAINS(out, "column 0 of 2 (the others are unused)\n"
                         "           col 0\n");
    ASSERT(strstr(out, "col 1") == NULL);
    ASSERT_CONTAINS(out, "row   5  | .                  |\n");
    ASSERT_CONTAINS(out, "row   2  | eltwise            |\n");
    ASSERT_CONTAINS(out, "mem   1  | .                  |\n");
    ASSERT_CONTAINS(out, "shim  0  | in0:a in1:b out0:c |\n");
    /* Memtile links; cells too long for the picture listed in full. */
    snprintf(cmd, sizeof cmd, "dump %s matmul_whole --args 'int16[256, 64], "
             "int16[64, 128], int32[256, 128]' --device npu1 --format grid",
             exlib());
    ASSERT_EQ(test_run_cli(cmd, 1, out, sizeof out), 0);
    ASSERT_CONTAINS(out, "columns 0-3 of 4\n");
    ASSERT_CONTAINS(out, "row   5  | mm3_0 ");
    ASSERT_CONTAINS(out, "mem   1  | link1:join ");
    ASSERT_CONTAINS(out, "  (2,1): link0:split link3:join\n");
    /* Format errors. */
    snprintf(cmd, sizeof cmd, "dump %s vector_op " VOP_ARGS " --format jsn",
             exlib());
    ASSERT_EQ(test_run_cli(cmd, 1, out, sizeof out), 2);
    ASSERT_CONTAINS(out, "unknown format 'jsn'");
    ASSERT_CONTAINS(out, "did you mean 'json'?");
    snprintf(cmd, sizeof cmd, "dump %s vector_op " VOP_ARGS " --fromat=dot",
             exlib());
    ASSERT_EQ(test_run_cli(cmd, 1, out, sizeof out), 2);
    ASSERT_CONTAINS(out, "unknown option '--fromat'; did you mean "
                         "'--format'?");
    snprintf(cmd, sizeof cmd, "dump %s vector_op " VOP_ARGS
             " --format json --taps", exlib());
    ASSERT_EQ(test_run_cli(cmd, 1, out, sizeof out), 2);
    ASSERT_CONTAINS(out, "--taps goes with --format text");
    snprintf(cmd, sizeof cmd, "dump %s vector_op --args", exlib());
    ASSERT_EQ(test_run_cli(cmd, 1, out, sizeof out), 2);
    ASSERT_CONTAINS(out, "option '--args' needs a value");
}

/* ---- iron run ----------------------------------------------------------- */

static void save(iron_tensor *t, const char *dir, const char *name)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    ASSERT_OK(iron_tensor_save_npy(t, p));
}

TEST_TIMEOUT(cli_run_files_outputs_and_references, 120)
{
    const char *dir = test_temp_dir("cli-run");
    char d[128], cmd[1024];
    snprintf(d, sizeof d, "%s", dir);
    setenv("IRON_CACHE_DIR", d, 1);
    iron_tensor *a = test_arange(IRON_INT32, 4096);
    iron_tensor *b = test_randint(IRON_INT32, IRON_SHAPE(4096), -50, 50, 9);
    iron_tensor *c = test_zeros(IRON_INT32, 4096);
    for (int i = 0; i < 4096; i++)
        ASSERT_OK(
            iron_tensor_set_element(c, i, test_at(a, i) + test_at(b, i)));
    save(a, d, "a.npy");
    save(b, d, "b.npy");
    save(c, d, "ref.npy");
    ASSERT_OK(iron_tensor_set_element(c, 7, test_at(c, 7) + 1));
    ASSERT_OK(iron_tensor_set_element(c, 4000, -1));
    save(c, d, "bad.npy");

    /* Positional and named inputs; a reference that matches. */
    snprintf(cmd, sizeof cmd, "run %s vector_op %s/a.npy --in b=%s/b.npy "
             "--ref c=%s/ref.npy --out c=%s/c.npy --repeat 2", exlib(), d, d,
             d, d);
    ASSERT_EQ(test_run_cli(cmd, 1, out, sizeof out), 0);
    ASSERT_CONTAINS(out, "vector_op: a int32[4096] (");
    ASSERT_CONTAINS(out, "/a.npy), b int32[4096] (");
    ASSERT_CONTAINS(out, "c int32[4096] (zeros)");
    ASSERT_CONTAINS(out, "first call ");
    ASSERT_CONTAINS(out, " ms (with the build); 2 warm calls: mean ");
    ASSERT_CONTAINS(out, "c: matches '");
    ASSERT_CONTAINS(out, "(4096 elements, exact)");
    char p[512];
    snprintf(p, sizeof p, "%s/c.npy", d);
    iron_tensor *got = NULL;
    ASSERT_OK(iron_tensor_load_npy(p, &got));
    for (int i = 0; i < 4096; i += 97)
        ASSERT_EQ(test_at(got, i), test_at(a, i) + test_at(b, i));
    iron_tensor_free(got);

    /* A mismatch: exit 1, the first differing indices and values. */
    snprintf(cmd, sizeof cmd, "run %s vector_op %s/a.npy %s/b.npy --ref "
             "c=%s/bad.npy", exlib(), d, d, d);
    ASSERT_EQ(test_run_cli(cmd, 1, out, sizeof out), 1);
    /* iron_tensor_allclose's report, whole. */
    ASSERT_CONTAINS(out, "c: MISMATCH against '");
    ASSERT_CONTAINS(out, "/bad.npy': 2 of 4096 elements differ (exact):\n");
    char line[128];
    snprintf(line, sizeof line, "  [7]: actual %.0f, expected %.0f, "
             "difference -1\n", test_at(a, 7) + test_at(b, 7),
             test_at(a, 7) + test_at(b, 7) + 1);
    ASSERT_CONTAINS(out, line);
    snprintf(line, sizeof line, "  [4000]: actual %.0f, expected -1, "
             "difference %.0f\n", test_at(a, 4000) + test_at(b, 4000),
             test_at(a, 4000) + test_at(b, 4000) + 1);
    ASSERT_CONTAINS(out, line);
    ASSERT_CONTAINS(out, "largest differences: absolute ");
    /* A reference of another type. */
    snprintf(cmd, sizeof cmd, "run %s vector_op %s/a.npy %s/b.npy --ref "
             "c=%s/a.npy --ref c=%s/missing.npy", exlib(), d, d, d, d);
    ASSERT_EQ(test_run_cli(cmd, 1, out, sizeof out), 1);
    snprintf(cmd, sizeof cmd, "run %s vector_op %s/a.npy %s/b.npy --ref "
             "c=%s/missing.npy", exlib(), d, d, d);
    ASSERT_EQ(test_run_cli(cmd, 1, out, sizeof out), 1);
    ASSERT_CONTAINS(out, "cannot open");
    ASSERT_CONTAINS(out, "missing.npy");

    /* Seeded random inputs: the same seed gives the same output file. */
    char o1[300], o2[300];
    snprintf(o1, sizeof o1, "%s/o1", d);
    snprintf(o2, sizeof o2, "%s/o2", d);
    ASSERT_EQ(mkdir(o1, 0700), 0);
    ASSERT_EQ(mkdir(o2, 0700), 0);
    snprintf(cmd, sizeof cmd, "run %s vector_op --shape N=256 --seed 5 -o %s",
             exlib(), o1);
    ASSERT_EQ(test_run_cli(cmd, 1, out, sizeof out), 0);
    ASSERT_CONTAINS(out, "a int32[256] (random), b int32[256] (random)");
    snprintf(cmd, sizeof cmd, "run %s vector_op --args 'int32[256], "
             "int32[256], int32[256]' --seed 5 -o %s", exlib(), o2);
    ASSERT_EQ(test_run_cli(cmd, 1, out, sizeof out), 0);
    size_t n1, n2;
    snprintf(p, sizeof p, "%s/c.npy", o1);
    unsigned char *f1 = test_slurp(p, &n1);
    snprintf(p, sizeof p, "%s/c.npy", o2);
    unsigned char *f2 = test_slurp(p, &n2);
    ASSERT_EQ(n1, n2);
    ASSERT(memcmp(f1, f2, n1) == 0);
    free(f1);
    free(f2);
    snprintf(cmd, sizeof cmd, "run %s vector_op --shape c=256 --shape a=256 "
             "--shape b=256 --seed 6 -o %s", exlib(), o2);
    ASSERT_EQ(test_run_cli(cmd, 1, out, sizeof out), 0);
    snprintf(p, sizeof p, "%s/c.npy", o2);
    f2 = test_slurp(p, &n2);
    snprintf(p, sizeof p, "%s/c.npy", o1);
    f1 = test_slurp(p, &n1);
    ASSERT(memcmp(f1, f2, n1) != 0);
    free(f1);
    free(f2);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
    test_remove_dir(d);
}

/* Floats compare within a tolerance: bfloat16 sums against references
 * nudged by less and by more than it. */
TEST_TIMEOUT(cli_run_float_tolerance, 120)
{
    const char *dir = test_temp_dir("cli-run");
    char d[128], cmd[1024];
    snprintf(d, sizeof d, "%s", dir);
    setenv("IRON_CACHE_DIR", d, 1);
    iron_tensor *a = NULL, *b = NULL, *c = NULL;
    ASSERT_OK(iron_tensor_full(IRON_BFLOAT16, IRON_SHAPE(4096), 1.5, &a));
    ASSERT_OK(iron_tensor_full(IRON_BFLOAT16, IRON_SHAPE(4096), 0.25, &b));
    ASSERT_OK(iron_tensor_full(IRON_BFLOAT16, IRON_SHAPE(4096), 1.75, &c));
    save(a, d, "a.npy");
    save(b, d, "b.npy");
    save(c, d, "exact.npy");
    ASSERT_OK(iron_tensor_set_element(c, 3, 1.78125));   /* 0.03 off */
    save(c, d, "near.npy");
    snprintf(cmd, sizeof cmd, "run %s upstream_eltwise_add %s/a.npy %s/b.npy "
             "--ref C=%s/exact.npy", exlib(), d, d, d);
    ASSERT_EQ(test_run_cli(cmd, 1, out, sizeof out), 0);
    ASSERT_CONTAINS(out, "C: matches '");
    ASSERT_CONTAINS(out, "(4096 elements, atol 0.01, rtol 0.01)");
    snprintf(cmd, sizeof cmd, "run %s upstream_eltwise_add %s/a.npy %s/b.npy "
             "--ref C=%s/near.npy", exlib(), d, d, d);
    ASSERT_EQ(test_run_cli(cmd, 1, out, sizeof out), 1);
    ASSERT_CONTAINS(out, "C: MISMATCH against '");
    ASSERT_CONTAINS(out, "/near.npy': 1 of 4096 elements differs (rtol "
                         "0.01, atol 0.01, NaN equal to NaN):\n"
                         "  [3]: actual 1.75, expected 1.78125, difference "
                         "-0.03125\n");
    snprintf(cmd, sizeof cmd, "run %s upstream_eltwise_add %s/a.npy %s/b.npy "
             "--ref C=%s/near.npy --atol 0.05", exlib(), d, d, d);
    ASSERT_EQ(test_run_cli(cmd, 1, out, sizeof out), 0);
    ASSERT_CONTAINS(out, "atol 0.05");
    /* A float32 reference for a bfloat16 output, and one value for all
     * (broadcast): iron_tensor_allclose's rules. */
    iron_tensor *f = NULL, *one = NULL, *i = NULL;
    ASSERT_OK(iron_tensor_full(IRON_FLOAT32, IRON_SHAPE(4096), 1.75, &f));
    ASSERT_OK(iron_tensor_full(IRON_FLOAT64, IRON_SHAPE(1), 1.75, &one));
    ASSERT_OK(iron_tensor_full(IRON_INT32, IRON_SHAPE(4096), 2, &i));
    save(f, d, "f32.npy");
    save(one, d, "one.npy");
    save(i, d, "int.npy");
    snprintf(cmd, sizeof cmd, "run %s upstream_eltwise_add %s/a.npy %s/b.npy "
             "--ref C=%s/f32.npy --ref C=%s/one.npy", exlib(), d, d, d, d);
    ASSERT_EQ(test_run_cli(cmd, 1, out, sizeof out), 0);
    ASSERT_CONTAINS(out, "/f32.npy' (4096 elements, atol 0.01, rtol 0.01)");
    ASSERT_CONTAINS(out, "/one.npy' (4096 elements, atol 0.01, rtol 0.01)");
    /* An integer reference for a float output: the library's reason. */
    snprintf(cmd, sizeof cmd, "run %s upstream_eltwise_add %s/a.npy %s/b.npy "
             "--ref C=%s/int.npy", exlib(), d, d, d);
    ASSERT_EQ(test_run_cli(cmd, 1, out, sizeof out), 1);
    ASSERT_CONTAINS(out, "/int.npy': iron_tensor_allclose: actual is "
                         "bfloat16[4096] and expected int32[4096]: integers "
                         "compare with integers and floats with floats");
    iron_tensor_free(f);
    iron_tensor_free(one);
    iron_tensor_free(i);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
    test_remove_dir(d);
}

/* -o DIR makes the folder (and its parents) when missing, and names the
 * files in it without a doubled slash however DIR is written. */
TEST_TIMEOUT(cli_run_creates_the_output_folder, 120)
{
    const char *dir = test_temp_dir("cli-run");
    char d[128], cmd[1024], p[512];
    snprintf(d, sizeof d, "%s", dir);
    setenv("IRON_CACHE_DIR", d, 1);
    snprintf(cmd, sizeof cmd, "run %s vector_op --shape N=64 -o %s/new/sub/",
             exlib(), d);
    ASSERT_EQ(test_run_cli(cmd, 1, out, sizeof out), 0);
    char line[512];
    snprintf(line, sizeof line, "c: saved to '%s/new/sub/c.npy'\n", d);
    ASSERT_CONTAINS(out, line);
    ASSERT(strstr(out, "//") == NULL);
    snprintf(p, sizeof p, "%s/new/sub/c.npy", d);
    iron_tensor *t = NULL;
    ASSERT_OK(iron_tensor_load_npy(p, &t));
    ASSERT_EQ(iron_tensor_numel(t), 64);
    iron_tensor_free(t);
    /* An existing folder, with several trailing slashes. */
    snprintf(cmd, sizeof cmd, "run %s vector_op --shape N=64 -o %s/new///",
             exlib(), d);
    ASSERT_EQ(test_run_cli(cmd, 1, out, sizeof out), 0);
    snprintf(line, sizeof line, "c: saved to '%s/new/c.npy'\n", d);
    ASSERT_CONTAINS(out, line);
    /* A file where the folder should be. */
    snprintf(cmd, sizeof cmd, "run %s vector_op --shape N=64 -o %s/new/c.npy",
             exlib(), d);
    ASSERT_EQ(test_run_cli(cmd, 1, out, sizeof out), 1);
    ASSERT_CONTAINS(out, "c.npy': not a folder");
    test_remove_dir(d);
}

/* --timing prints the modelled time after the run; --clock sets the
 * clock, and one outside the device's range fails the run. */
TEST_TIMEOUT(cli_run_timing, 120)
{
    const char *dir = test_temp_dir("cli-timing");
    char d[128], cmd[1024];
    snprintf(d, sizeof d, "%s", dir);
    setenv("IRON_CACHE_DIR", d, 1);
    snprintf(cmd, sizeof cmd, "run %s vector_op --shape N=4096 --timing "
             "--device npu1", exlib());
    ASSERT_EQ(test_run_cli(cmd, 1, out, sizeof out), 0);
    ASSERT_CONTAINS(out, "modelled NPU time: ");
    ASSERT_CONTAINS(out, " us at 1000 MHz (Phoenix, Hawk Point (npu1))");
    ASSERT_CONTAINS(out, "bottleneck: ");
    ASSERT_CONTAINS(out, "  worker 'eltwise' compute tile (0,2)");
    snprintf(cmd, sizeof cmd, "run %s vector_op --shape N=4096 --clock 1200 "
             "--device npu1", exlib());
    ASSERT_EQ(test_run_cli(cmd, 1, out, sizeof out), 0);
    ASSERT_CONTAINS(out, " us at 1200 MHz");
    snprintf(cmd, sizeof cmd, "run %s vector_op --shape N=4096 --timing "
             "--clock 2000 --device npu1", exlib());
    ASSERT_EQ(test_run_cli(cmd, 1, out, sizeof out), 1);
    ASSERT_CONTAINS(out, "2000 MHz is outside device 'npu1''s clock range");
    snprintf(cmd, sizeof cmd, "run %s vector_op --shape N=64 --clock fast",
             exlib());
    ASSERT_EQ(test_run_cli(cmd, 1, out, sizeof out), 2);
    ASSERT_CONTAINS(out, "--clock 'fast': expected a number >= 0");
    test_remove_dir(d);
}

TEST(cli_run_usage_errors)
{
    char cmd[1024];
    const char *lib = exlib();
    struct {
        const char *args, *needle;
        int code;
    } cases[] = {
        { "--in d=x.npy", "--in 'd=x.npy': the design has no argument 'd'",
          2 },
        { "--in c=x.npy", "'c' is an output argument", 2 },
        { "--in a", "--in 'a': expected NAME=FILE.npy", 2 },
        { "--ref q=x.npy --shape N=8", "no argument 'q'", 2 },
        { "", "cannot tell the type of argument 0 ('a': int32[N])", 2 },
        { "--shape N=8 x.npy y.npy z.npy", "unexpected argument 'z.npy'", 2 },
        { "--shape N=0", "--shape 'N=0': expected NAME=DIMS", 2 },
        { "--shape Q=4x4", "'Q' is neither an argument nor a size variable",
          2 },
        { "--shape N=8 --seed x", "--seed 'x': expected a number >= 0", 2 },
        { "--shape N=8 --repeat 1.5", "whole numbers", 2 },
        { "--shape N=8 --rtol -1", "--rtol '-1': expected a number >= 0", 2 },
        { "--shape N=8 --sed 3", "unknown option '--sed'; did you mean "
                                 "'--seed'?", 2 },
        { "--args 'int32[8]'", "--args gives 1 tensors; the design declares "
                               "3", 2 },
        /* A folder that cannot be made (a file is in the way) is a
         * failure, not a usage error. */
        { "--shape N=8 -o /dev/null/out", "-o '/dev/null/out': cannot "
          "create the folder '/dev/null/out': Not a directory", 1 },
        /* --args text that is not a list of types is a usage error. */
        { "--args 'int32[x], int32[8], int32[8]'",
          "dimension 'x' is not a number", 2 },
        { "--args 'int33[8], int32[8], int32[8]'", "int33", 2 },
        { "--args 'int32, int32[8], int32[8]'", "expected DTYPE[DIMS]", 2 },
        { "--args 'int32[0], int32[8], int32[8]'", "int32[0]", 2 },
        { "/no/such/a.npy --shape N=8", "cannot open '/no/such/a.npy'", 1 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(cmd, sizeof cmd, "run %s vector_op %s", lib, cases[i].args);
        int rc = test_run_cli(cmd, 1, out, sizeof out);
        if (rc != cases[i].code || !strstr(out, cases[i].needle))
            TEST_FAIL_("%s: exit %d, expected %d with \"%s\": %s", cmd, rc,
                       cases[i].code, cases[i].needle, out);
    }
    snprintf(cmd, sizeof cmd, "run %s", lib);
    ASSERT_EQ(test_run_cli(cmd, 1, out, sizeof out), 2);
    ASSERT_CONTAINS(out, "missing the design's NAME");
    ASSERT_EQ(test_run_cli("run --help", 0, out, sizeof out), 0);
    ASSERT_CONTAINS(out, "usage: iron run");
}

/* ---- a design library of one's own (docs/cli.md) ------------------------ */

/* `cd dir && cmd 2>&1` into out; the exit status. */
static int sh_in(const char *dir, const char *cmd)
{
    char line[8192];
    snprintf(line, sizeof line, "cd '%s' && %s 2>&1", dir, cmd);
    FILE *p = popen(line, "r");
    if (!p)
        TEST_FAIL_("popen(%s) failed", line);
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = '\0';
    int st = pclose(p);
    if (st == -1 || !WIFEXITED(st))
        TEST_FAIL_("%s did not exit normally (status %d)", line, st);
    return WEXITSTATUS(st);
}

/* The fenced block of `lang` that follows `heading` in text, as a new
 * string. */
static char *fenced_after(const char *text, const char *heading,
                          const char *lang)
{
    const char *h = strstr(text, heading);
    char fence[32];
    snprintf(fence, sizeof fence, "\n```%s\n", lang);
    const char *b = h ? strstr(h, fence) : NULL;
    const char *e = b ? strstr(b + strlen(fence), "\n```\n") : NULL;
    if (!e)
        TEST_FAIL_("docs/cli.md: no ```%s block after '%s'", lang, heading);
    b += strlen(fence);
    return strndup(b, (size_t)(e - b) + 1);
}

/* docs/cli.md's own design library, built from the text of the document
 * with cc and run with the document's commands, in a folder where the
 * library is named without a slash (which once made dlopen search the
 * library path: "No such file"). */
TEST_TIMEOUT(cli_own_design_library, 120)
{
    char dir[256], cli[4096], inc[4096], path[512];
    snprintf(dir, sizeof dir, "%s", test_temp_dir("cli-lib"));
    setenv("IRON_CACHE_DIR", dir, 1);
    if (!realpath(getenv("IRON_CLI"), cli) || !realpath("include", inc))
        TEST_FAIL_("IRON_CLI or include/ not found (run through make test)");
    size_t len;
    char *doc = (char *)test_slurp("docs/cli.md", &len);
    ASSERT(doc != NULL);
    char *src = fenced_after(doc, "### Your own design library", "c");
    char *cmds = fenced_after(doc, "### Your own design library", "sh");
    free(doc);
    snprintf(path, sizeof path, "%s/scale.c", dir);
    FILE *f = fopen(path, "w");
    ASSERT(f != NULL);
    fputs(src, f);
    fclose(f);
    free(src);
    /* The inputs the last command names. */
    iron_tensor *x = test_arange(IRON_INT32, 1024), *ref = NULL;
    ASSERT_OK(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(1024), &ref));
    for (int i = 0; i < 1024; i++)
        ASSERT_OK(iron_tensor_set_element(ref, i, 5.0 * i));
    snprintf(path, sizeof path, "%s/x.npy", dir);
    ASSERT_OK(iron_tensor_save_npy(x, path));
    snprintf(path, sizeof path, "%s/y_ref.npy", dir);
    ASSERT_OK(iron_tensor_save_npy(ref, path));
    iron_tensor_free(x);
    iron_tensor_free(ref);
    /* Each command as written, with this tree's header and program. */
    int ncmds = 0;
    for (char *line = strtok(cmds, "\n"); line; line = strtok(NULL, "\n")) {
        char cmd[8192], *pc = strstr(line, "$(pkg-config --cflags iron)");
        if (pc)
            snprintf(cmd, sizeof cmd, "%.*s-I'%s'%s -std=c11 -Wall -Wextra "
                     "-Werror", (int)(pc - line), line, inc,
                     pc + strlen("$(pkg-config --cflags iron)"));
        else if (strncmp(line, "iron ", 5) == 0)
            snprintf(cmd, sizeof cmd, "'%s' %s", cli, line + 5);
        else
            snprintf(cmd, sizeof cmd, "%s", line);
        if (sh_in(dir, cmd) != 0)
            TEST_FAIL_("docs/cli.md's '%s' failed: %s", line, out);
        ncmds++;
        if (strstr(line, " check "))
            ASSERT_CONTAINS(out, "scale (x: int32[1024], y: int32[1024]; "
                                 "tile=64, k=3; npu2, 8 columns): ok: 1 "
                                 "worker, 2 fifos, ");
        if (strstr(line, "--ref"))
            ASSERT_CONTAINS(out, "y: matches 'y_ref.npy' (1024 elements, "
                                 "exact)");
    }
    free(cmds);
    ASSERT_EQ(ncmds, 4);
    snprintf(path, sizeof path, "%s/out/y.npy", dir);
    iron_tensor *y = NULL;
    ASSERT_OK(iron_tensor_load_npy(path, &y));
    ASSERT_EQ(iron_tensor_numel(y), 1024);
    iron_tensor_free(y);
    /* A NAME the library does not define: the designs it does. */
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "'%s' check libscale.so scal --args "
             "'int32[64], int32[64]'", cli);
    ASSERT_EQ(sh_in(dir, cmd), 2);
    ASSERT_STR_EQ(out, "iron check: 'libscale.so' has no design 'scal' (it "
                       "exports no scal_design and scal_options); did you "
                       "mean 'scale'?\niron check: its designs: scale\n");
    /* A library in the current folder that is not there is named as
     * given, not searched for. */
    snprintf(cmd, sizeof cmd, "'%s' check libnone.so scale --args "
             "'int32[64], int32[64]'", cli);
    ASSERT_EQ(sh_in(dir, cmd), 1);
    ASSERT_CONTAINS(out, "cannot load 'libnone.so': ./libnone.so: ");
    test_remove_dir(dir);
}

/* A library's designs, from its dynamic symbols: the examples library
 * has every reference design, each NAME once. */
TEST(cli_unknown_design_lists_the_library)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "check %s vectr_op " VOP_ARGS, exlib());
    ASSERT_EQ(test_run_cli(cmd, 1, out, sizeof out), 2);
    ASSERT_CONTAINS(out, "has no design 'vectr_op' (it exports no "
                         "vectr_op_design and vectr_op_options); did you "
                         "mean 'vector_op'?\n");
    ASSERT_CONTAINS(out, "iron check: its designs: add_constant, ");
    ASSERT_CONTAINS(out, " matmul_whole,");
    ASSERT_CONTAINS(out, " matmul_whole_f32,");
    ASSERT_CONTAINS(out, " vision_passthrough\n");
    ASSERT(strstr(out, "vector_op, vector_op") == NULL);
    for (const char *p = out; *p;) {
        size_t n = strcspn(p, "\n");
        if (n > 79 && strncmp(p, "iron check: '", 13) != 0)
            TEST_FAIL_("a line of %zu columns: '%.*s'", n, (int)n, p);
        p += n + (p[n] != '\0');
    }
}
