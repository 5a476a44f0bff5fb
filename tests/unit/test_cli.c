/*
 * test_cli.c - the `iron` command, run as a program: its path comes from
 * $IRON_CLI (set by `make test`).
 */
#include <sys/wait.h>

#include "test.h"

/* Runs `$IRON_CLI args` through the shell with stderr folded into stdout
 * (or dropped); returns the exit status and the output in out. */
static int run_cli(const char *args, int keep_stderr, char *out, size_t len)
{
    const char *cli = getenv("IRON_CLI");
    if (!cli || !cli[0])
        TEST_FAIL_("IRON_CLI is not set (run through `make test`)");
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' %s %s", cli, args,
             keep_stderr ? "2>&1" : "2>/dev/null");
    FILE *p = popen(cmd, "r");
    if (!p)
        TEST_FAIL_("popen(%s) failed", cmd);
    size_t n = fread(out, 1, len - 1, p);
    out[n] = '\0';
    int st = pclose(p);
    if (st == -1 || !WIFEXITED(st))
        TEST_FAIL_("%s did not exit normally (status %d)", cmd, st);
    return WEXITSTATUS(st);
}

static char out[65536];

TEST(cli_version)
{
    ASSERT_EQ(run_cli("version", 1, out, sizeof out), 0);
    ASSERT_STR_EQ(out, "iron 0.1.0\n");
}

TEST(cli_devices_lists_every_device)
{
    static const char *const names[] = {
        "npu1",      "npu1_1col", "npu1_2col", "npu1_3col",
        "npu2",      "npu2_1col", "npu2_2col", "npu2_3col",
        "npu2_4col", "npu2_5col", "npu2_6col", "npu2_7col",
    };
    unsetenv("IRON_DEVICE");
    ASSERT_EQ(run_cli("devices", 1, out, sizeof out), 0);
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
    ASSERT_EQ(run_cli("devices npu1_2col", 1, out, sizeof out), 0);
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
    ASSERT_EQ(run_cli("devices npu3", 1, out, sizeof out), 1);
    ASSERT_CONTAINS(out, "unknown device 'npu3'; known devices: npu1");
}

TEST(cli_devices_bad_env_warns)
{
    setenv("IRON_DEVICE", "gpu7", 1);
    ASSERT_EQ(run_cli("devices", 1, out, sizeof out), 0);
    ASSERT_CONTAINS(out, "warning: $IRON_DEVICE is 'gpu7'");
    setenv("IRON_DEVICE", "npu1_1col", 1);
    ASSERT_EQ(run_cli("devices", 1, out, sizeof out), 0);
    ASSERT_CONTAINS(out, "current device: npu1_1col");
}

TEST(cli_help)
{
    ASSERT_EQ(run_cli("help", 0, out, sizeof out), 0);
    ASSERT_CONTAINS(out, "usage: iron");
    ASSERT_CONTAINS(out, "devices");
    ASSERT_EQ(run_cli("--help", 0, out, sizeof out), 0);
    ASSERT_CONTAINS(out, "usage: iron");
}

TEST(cli_usage_errors_exit_2)
{
    ASSERT_EQ(run_cli("frobnicate", 0, out, sizeof out), 2);
    ASSERT_STR_EQ(out, "");   /* the usage goes to stderr */
    ASSERT_EQ(run_cli("frobnicate", 1, out, sizeof out), 2);
    ASSERT_CONTAINS(out, "unknown command 'frobnicate'");
    ASSERT_CONTAINS(out, "usage: iron");
    ASSERT_EQ(run_cli("", 1, out, sizeof out), 2);
    ASSERT_CONTAINS(out, "usage: iron");
    ASSERT_EQ(run_cli("version extra", 0, out, sizeof out), 2);
    ASSERT_EQ(run_cli("devices a b", 0, out, sizeof out), 2);
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
    ASSERT_EQ(run_cli(cmd, 0, out, sizeof out), 0);
    ASSERT_CONTAINS(out, "tile=32, op='-'; npu1, 2 columns");
    ASSERT_CONTAINS(out, "eltwise: kernel 'eltwise' x 128 on tile (0,2)");
    ASSERT_CONTAINS(out, "fifo 'c': compute tile (0,2) -> shim (0,0)");
    snprintf(cmd, sizeof cmd,
             "dump %s vector_op --args 'int32[4096], int32[4096], "
             "float32[4096]'", lib);
    ASSERT_EQ(run_cli(cmd, 1, out, sizeof out), 1);
    ASSERT_CONTAINS(out, "argument 2 ('c'): expected int32[4096], got "
                         "float32[4096]");
    snprintf(cmd, sizeof cmd, "dump %s no_such --args 'int32[4]'", lib);
    ASSERT_EQ(run_cli(cmd, 1, out, sizeof out), 1);
    ASSERT_CONTAINS(out, "exports no no_such_design");
    ASSERT_EQ(run_cli("dump", 1, out, sizeof out), 2);
}

TEST(cli_tap_draws_a_pattern)
{
    ASSERT_EQ(run_cli("tap --shape 4x4 --sizes 2,2,2,2 --strides 8,2,4,1 "
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
    ASSERT_EQ(run_cli("tap --shape 2x2 --sizes 5 --strides 1", 1, out,
                      sizeof out),
              1);
    ASSERT_CONTAINS(out, "iron tap: ");
    ASSERT_CONTAINS(out, "out of bounds");
    ASSERT_EQ(run_cli("tap --shape 4 --sizes 2 --strides 1", 1, out,
                      sizeof out),
              2);
    ASSERT_EQ(run_cli("tap --shape 4x4 --sizes 2,2 --strides 1", 1, out,
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
    ASSERT_EQ(run_cli(cmd, 1, out, sizeof out), 0);
    /* The fill reads the 4 x 8 input column by column. */
    ASSERT_CONTAINS(out, "4 x 8 tensor, tap offset 0 sizes [8, 4] strides "
                         "[1, 8]: 32 visits, 32 of 32 elements visited\n"
                         "    0  1  2  3  4  5  6  7\n"
                         "0:  0  4  8 12 16 20 24 28\n");
    ASSERT_CONTAINS(out, "1 drain fifo 'in_fwd' (consumer) into argument 2");
}
