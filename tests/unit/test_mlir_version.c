/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_mlir_version.c - upstream's syntax by version (src/mlir/version.c):
 * each target prints what upstream accepted at that version (checked
 * against the spellings upstream's dialect definitions and tests give
 * for it), in both forms, and every target's text reads back into the
 * tree it was printed from.
 */
#include "core/core.h"
#include "mlir/ast.h"
#include "mlir/version.h"
#include "test.h"

/* The newest spelling of everything a target changes. */
static const char design[] =
    "module {\n"
    "  aie.device(npu1) {\n"
    "    %t = aie.tile(0, 2)\n"
    "    %s = aie.tile(0, 0)\n"
    "    %l = aie.lock(%t, 0) {init = 0 : i32}\n"
    "    %b = aie.buffer(%t) {sym_name = \"rtp\"} : memref<4xi32>\n"
    "    aie.objectfifo @in(%s, {%t}, 2 : i32) : "
    "!aie.objectfifo<memref<16xi32>>\n"
    "    %c = aie.core(%t) {\n"
    "      aie.use_lock(%l, AcquireGreaterEqual, 1)\n"
    "      aie.end\n"
    "    }\n"
    "    aie.runtime_sequence(%a: memref<64xi32>) {\n"
    "      aiex.npu.rtp_write(@rtp, 0, 5)\n"
    "      %0 = aiex.dma_configure_task_for @in {\n"
    "        aie.dma_bd(%a : memref<64xi32>, 0, 64, [<size = 4, stride = "
    "16>, <size = 16, stride = 1>]) {burst_length = 0 : i32}\n"
    "        aie.end\n"
    "      } {issue_token = true}\n"
    "      aiex.dma_start_task(%0)\n"
    "      aiex.dma_await_task(%0)\n"
    "    }\n"
    "  }\n"
    "}\n";

static char *lowered(const char *target, int generic)
{
    const iron__mlir_target *t;
    iron__mlir_module *m = NULL;
    iron__str s = { 0 };
    ASSERT_OK(iron__mlir_target_find(target, &t));
    ASSERT_OK(iron__mlir_parse(design, sizeof design - 1, "d.mlir", &m));
    ASSERT_OK(iron__mlir_lower(m, t, generic));
    ASSERT_OK(iron__mlir_print(m, generic, &s));
    iron__mlir_module_free(m);
    return iron__str_take(&s);
}

/* text, read back, printed in the tree's own (newest) spelling. */
static char *canonical(const char *text)
{
    iron__mlir_module *m = NULL;
    iron__str s = { 0 };
    iron_status st = iron__mlir_parse(text, strlen(text), "t.mlir", &m);
    if (st != IRON_OK)
        TEST_FAIL_("does not parse: %s\n%s", iron_last_error(), text);
    ASSERT_OK(iron__mlir_print(m, 0, &s));
    iron__mlir_module_free(m);
    return iron__str_take(&s);
}

#define ASSERT_HAS(text, part)                                              \
    do {                                                                    \
        if (!strstr(text, part))                                            \
            TEST_FAIL_("expected %s in:\n%s", part, text);                  \
    } while (0)
#define ASSERT_LACKS(text, part)                                            \
    do {                                                                    \
        if (strstr(text, part))                                             \
            TEST_FAIL_("did not expect %s in:\n%s", part, text);            \
    } while (0)

/* AIEDevice before #2397 (AIEAttrs.td at aee9cc2f: npu1_4col = 8,
 * npu2 = 9) and after (npu2 = 8). */
TEST(mlir_version_device_enum_by_target)
{
    char *old = lowered("2025-04", 0), *oldg = lowered("2025-04", 1);
    ASSERT_HAS(old, "aie.device(npu1_4col)");
    ASSERT_HAS(oldg, "device = 8 : i32");
    char *now = lowered("2025-06", 1);
    ASSERT_HAS(now, "device = 4 : i32");
    const iron__mlir_target *t;
    ASSERT_OK(iron__mlir_target_find("2025-04", &t));
    ASSERT_EQ(iron__mlir_target_device_value(t, "npu2"), 9);
    ASSERT_EQ(iron__mlir_target_device_value(t, "npu2_4col"), 13);
    ASSERT_OK(iron__mlir_target_find("2025-06", &t));
    ASSERT_EQ(iron__mlir_target_device_value(t, "npu2"), -1);
    free(old);
    free(oldg);
    free(now);
}

/* aiex.runtime_sequence until #2708 (2025-11-18). */
TEST(mlir_version_runtime_sequence_dialect)
{
    char *a = lowered("2025-06", 0), *b = lowered("2025-11", 0);
    ASSERT_HAS(a, "aiex.runtime_sequence(%a: memref<64xi32>)");
    ASSERT_HAS(b, "    aie.runtime_sequence(%a: memref<64xi32>)");
    free(a);
    free(b);
}

/* latest: #3225 rtp_write(@rtp, 0, %v) : i32, #3308 use_lock(%l, A, %v),
 * #3306 dma_bd's keyword form; 2026-03 still the attribute forms. */
TEST(mlir_version_latest_forms)
{
    char *old = lowered("2026-03", 0);
    ASSERT_HAS(old, "aiex.npu.rtp_write(@rtp, 0, 5)");
    ASSERT_HAS(old, "aie.use_lock(%l, AcquireGreaterEqual, 1)");
    ASSERT_HAS(old, "aie.dma_bd(%a : memref<64xi32>, 0, 64, [<size = 4");
    char *now = lowered("latest", 0);
    ASSERT_HAS(now, "= arith.constant 5 : i32");
    ASSERT_HAS(now, "aiex.npu.rtp_write(@rtp, 0, %_c");
    ASSERT_HAS(now, ") : i32");
    ASSERT_HAS(now, "aie.use_lock(%l, AcquireGreaterEqual, %_c");
    ASSERT_HAS(now, "aie.dma_bd(%a : memref<64xi32> offset = 0 len = 64 "
                    "sizes = [4, 16] strides = [16, 1]) {burst_length = 0 "
                    ": i32}");
    ASSERT_LACKS(now, "aiex.runtime_sequence");
    char *gen = lowered("latest", 1);
    ASSERT_HAS(gen, "operandSegmentSizes = array<i32: 1, 0, 0, 0, 0>");
    ASSERT_HAS(gen, "static_sizes = array<i64: 4, 16>");
    free(old);
    free(now);
    free(gen);
}

/* Every target's text, in both forms, reads back into the tree it was
 * printed from (the newest spelling; latest's value constants stay as
 * the ops they are). */
TEST(mlir_version_every_target_reads_back)
{
    static const char *const targets[] = { "2025-04", "2025-06", "2025-11",
                                           "2026-03" };
    char *want = canonical(design);
    for (size_t i = 0; i < IRON__COUNT_OF(targets); i++)
        for (int generic = 0; generic < 2; generic++) {
            /* a generic text says its device by number only, and the
             * importer numbers by the newest enum (docs/mlir.md) */
            if (generic && i == 0)
                continue;
            char *text = lowered(targets[i], generic);
            char *back = canonical(text);
            /* the device name is the one upstream gave that device then */
            if (strcmp(targets[i], "2025-04") == 0) {
                char *at = strstr(back, "npu1_4col");
                ASSERT_NE(at, NULL);
                memmove(at + 4, at + 9, strlen(at + 9) + 1);
            }
            if (strcmp(want, back) != 0)
                TEST_FAIL_("target %s (%s) reads back differently:\n%s\n"
                           "-- want --\n%s",
                           targets[i], generic ? "generic" : "custom", back,
                           want);
            free(text);
            free(back);
        }
    char *latest = lowered("latest", 0), *lg = lowered("latest", 1);
    char *b1 = canonical(latest), *b2 = canonical(lg);
    ASSERT_STR_EQ(b1, b2);
    ASSERT_HAS(b1, "aiex.npu.rtp_write(@rtp, 0, 5)");
    ASSERT_HAS(b1, "aie.use_lock(%l, AcquireGreaterEqual, 1)");
    ASSERT_HAS(b1, "aie.dma_bd(%a : memref<64xi32>, 0, 64, [<size = 4");
    free(latest);
    free(lg);
    free(b1);
    free(b2);
    free(want);
}

TEST(mlir_version_unknown_target_lists_them)
{
    const iron__mlir_target *t;
    ASSERT_FAILS(iron__mlir_target_find("2024", &t), IRON_EINVAL,
                 "'2024' is not a target; expected one of 2025-04, 2025-06, "
                 "2025-11, 2026-03, latest");
    ASSERT_OK(iron__mlir_target_find(NULL, &t));
    ASSERT_STR_EQ(t->name, "latest");
}

/* docs/mlir.md lists every syntax change of version.c's table. */
TEST(mlir_version_docs_list_every_change)
{
    size_t len;
    char *doc = (char *)test_slurp("docs/mlir.md", &len);
    const char *date, *pr, *what;
    for (int i = 0; iron__mlir_syntax_change(i, &date, &pr, &what); i++) {
        char row[64];
        snprintf(row, sizeof row, "| %s | %s |", date, pr);
        if (!strstr(doc, row))
            TEST_FAIL_("docs/mlir.md has no row \"%s\" (%s)", row, what);
    }
    free(doc);
}
