/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_ext_driver.c - a driver can be written outside src/: the test
 * compiles tests/driver/ext_driver.c with the public headers alone (`-I
 * include`, no src/ on the path) against the library this `make test`
 * built, runs it, and checks what its driver read of the program through
 * the iron_program_* accessors (iron_driver.h) -- every table, against
 * the add-one design it runs -- and that the run on its device gave the
 * right result.  Run by `make test` (IRON_BUILD, IRON_TEST_CC, IRON_LIBS
 * and IRON_SAN name the library, the compiler and what to link).
 */
#include <stdlib.h>

#include "test.h"

TEST_TIMEOUT(ext_driver_reads_the_program_through_the_accessors, 120)
{
    const char *build = getenv("IRON_BUILD"), *cc = getenv("IRON_TEST_CC"),
               *libs = getenv("IRON_LIBS"), *san = getenv("IRON_SAN");
    if (!build || !cc || !libs)
        TEST_FAIL_("IRON_BUILD, IRON_TEST_CC or IRON_LIBS is not set (run "
                   "through `make test`)");
    /* Public headers only: no include of a file of the library's own. */
    size_t len;
    char *src = (char *)test_slurp("tests/driver/ext_driver.c", &len);
    for (const char *p = src; (p = strstr(p, "#include")) != NULL; p++) {
        const char *eol = strchr(p, '\n');
        if (p[9] != '<' || (strncmp(p + 10, "iron/", 5) != 0 &&
                            memchr(p, '/', (size_t)(eol - p)) != NULL))
            TEST_FAIL_("ext_driver.c: %.*s: only the C library's and "
                       "<iron/...> headers", (int)(eol - p), p);
    }
    free(src);

    char *tmp = test_cache_temp_dir("iron-test", "ext-driver");
    char cmd[2048], out[16384];
    snprintf(cmd, sizeof cmd,
             "%s -std=c11 -Wall -Wextra -Wstrict-prototypes "
             "-Wmissing-prototypes -Werror %s -D_GNU_SOURCE -I include "
             "-o '%s/ext_driver' tests/driver/ext_driver.c '%s/libiron.a' "
             "%s 2>&1",
             cc, san ? san : "", tmp, build, libs);
    if (test_run_shell(cmd, out, sizeof out) != 0)
        TEST_FAIL_("%s\n%s", cmd, out);
    snprintf(cmd, sizeof cmd,
             "ASAN_OPTIONS=\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0\" "
             "'%s/ext_driver' 2>&1", tmp);
    int st = test_run_shell(cmd, out, sizeof out);
    printf("%s", out);
    ASSERT_EQ(st, 0);
    /* Bad input is named. */
    ASSERT_CONTAINS(out, "refused: iron_program_get_info: program is NULL");
    /* What it read: the design's two arguments, fifos, the worker with
     * its loaded kernel and arguments, the placed pools and movers, the
     * sequence, the one tile in use. */
    ASSERT_CONTAINS(out, "program for ext_npu2: 2 args, 2 fifos, 1 workers, "
                         "2 pools, 2 movers, 2 ops, 1 tiles\n");
    ASSERT_CONTAINS(out, "arg 0 x int32\narg 1 y int32\n");
    ASSERT_CONTAINS(out, "fifo in int32[16] depth 2 consumers 1 producer "
                         "(-1,-1)\n");
    ASSERT_CONTAINS(out, "fifo out int32[16] depth 2 consumers 1 producer "
                         "(0,2)\n");
    ASSERT_CONTAINS(out, "worker w on (0,2) kernel add_one (loaded) args "
                         "fifo 'in' (consumer) fifo 'out' (producer) "
                         "int 16\n");
    ASSERT_CONTAINS(out, "pool 0 fifo 'in' (consumer) on (0,2): 2 x 64 "
                         "bytes at ");
    ASSERT_CONTAINS(out, "pool 1 fifo 'out' (producer) on (0,2): 2 x 64 "
                         "bytes at ");
    ASSERT_CONTAINS(out, "mover 0 fifo 'in': shim (0,0) -> compute tile "
                         "(0,2) (source pool -1, 1 destination)\n");
    ASSERT_CONTAINS(out, "mover 1 fifo 'out': compute tile (0,2) -> shim "
                         "(0,0) (source pool 1, 0 destinations)\n");
    ASSERT_CONTAINS(out, "op 0 fill arg 0 -> fifo 0\n"
                         "op 1 drain fifo 1 -> arg 1 (wait)\n");
    ASSERT_CONTAINS(out, "tile (0,2) uses ");
    ASSERT_CONTAINS(out, " of 65536 bytes\n");
    /* It ran the kernel through the program's entry: 64 elements in
     * objects of 16, each plus one. */
    ASSERT_CONTAINS(out, "add_one on ext_npu2: ok\n");
    ASSERT_CONTAINS(out, "unloaded after 4 kernel calls\n");
    test_drop_dir(tmp);
}
