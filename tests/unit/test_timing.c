/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_timing.c - the timing model's tables and words (src/timing): the
 * data-movement constants as docs/timing.md lists them, the clock and its
 * errors, and the bottleneck sentence for each kind of bound.
 */
#include <stdio.h>
#include <string.h>

#include "core/env.h"
#include "test.h"
#include "timing/timing.h"

/* The cell of `row` (its first cell) in column `col` (1: AIE2, 2: AIE2P)
 * of docs/timing.md's constants table, into out. */
static void doc_cell(const char *doc, const char *row, int col, char *out,
                     size_t n)
{
    char head[160];
    snprintf(head, sizeof head, "\n| %s |", row);
    const char *p = strstr(doc, head);
    if (!p)
        TEST_FAIL_("docs/timing.md has no row '%s'", row);
    p += 1;
    for (int c = 0; c < col; c++)
        p = strchr(p + 1, '|');
    const char *end = strchr(p + 1, '|');
    while (*++p == ' ')
        ;
    size_t len = (size_t)(end - p);
    while (len && p[len - 1] == ' ')
        len--;
    snprintf(out, n, "%.*s", (int)len, p);
}

TEST(timing_rates_docs_table_is_the_code)
{
    char *doc = (char *)test_slurp("docs/timing.md", NULL);
    int n;
    const iron__timing_rates *r = iron__timing_rates_all(&n);
    ASSERT_EQ(n, 2);
    for (int g = 0; g < n; g++) {
        char want[96], got[96];
        const iron__timing_rates *x = &r[g];
        ASSERT(iron__timing_rates_for(x->arch) == x);
#define CELL(row, ...)                                                        \
    do {                                                                      \
        snprintf(want, sizeof want, __VA_ARGS__);                             \
        doc_cell(doc, row, g + 1, got, sizeof got);                           \
        if (strcmp(want, got) != 0)                                           \
            TEST_FAIL_("docs/timing.md '%s' for %s: \"%s\"; the code: "       \
                       "\"%s\"", row, x->arch, got, want);                    \
    } while (0)
        CELL("default clock", "%g MHz", x->clock_mhz);
        CELL("clock range", "%g to %g MHz", x->clock_min_mhz,
             x->clock_max_mhz);
        ASSERT_DBL_NEAR(x->stream_bytes[IRON__TT_SHIM],
                        x->stream_bytes[IRON__TT_COMPUTE], 0);
        ASSERT_DBL_NEAR(x->stream_bytes[IRON__TT_MEMTILE],
                        x->stream_bytes[IRON__TT_COMPUTE], 0);
        CELL("DMA stream, per channel, every tile kind", "%g bytes/cycle",
             x->stream_bytes[IRON__TT_COMPUTE]);
        CELL("DDR bandwidth, all shims", "%g GB/s", x->ddr_bytes_per_ns);
        CELL("shim task overhead, reading / writing DDR", "%d / %d cycles",
             x->shim_mm2s_task, x->shim_s2mm_task);
        CELL("stream switch hop", "%d cycles", x->hop_cycles);
        CELL("DMA start (BD fetch, channel start, memory)", "%d cycles",
             x->dma_start_cycles);
        CELL("lock acquire or release (a core's)", "%d cycle%s",
             x->lock_cycles, x->lock_cycles == 1 ? "" : "s");
#undef CELL
    }
    ASSERT(iron__timing_rates_for("aie1") == NULL);
    ASSERT(iron__timing_rates_for(NULL) == NULL);
    free(doc);
}

TEST(timing_clock_choice_and_range)
{
    const iron__timing_rates *r = iron__timing_rates_for("aie2");
    double mhz = 0;
    unsetenv("IRON_CLOCK_MHZ");
    ASSERT_OK(iron__timing_clock(r, 0, "npu1", &mhz));
    ASSERT_DBL_NEAR(mhz, 1000, 0);
    ASSERT_OK(iron__timing_clock(r, 1600, "npu1", &mhz));
    ASSERT_DBL_NEAR(mhz, 1600, 0);
    ASSERT_FAILS(iron__timing_clock(r, 1601, "npu1_2col", &mhz), IRON_EINVAL,
                 "the launch configuration's clock_mhz: 1601 MHz is outside "
                 "device 'npu1_2col''s clock range (Phoenix, Hawk Point "
                 "(npu1): 800 to 1600 MHz)");
    setenv("IRON_CLOCK_MHZ", "900", 1);
    ASSERT_OK(iron__timing_clock(r, 0, "npu1", &mhz));
    ASSERT_DBL_NEAR(mhz, 900, 0);
    ASSERT_OK(iron__timing_clock(r, 1200, "npu1", &mhz));   /* asked wins */
    ASSERT_DBL_NEAR(mhz, 1200, 0);
    setenv("IRON_CLOCK_MHZ", "100", 1);
    ASSERT_FAILS(iron__timing_clock(r, 0, "npu1", &mhz), IRON_EINVAL,
                 "IRON_CLOCK_MHZ: 100 MHz is outside");
    unsetenv("IRON_CLOCK_MHZ");
}

TEST(timing_bottleneck_sentences)
{
    char out[512];
    iron__timing_row rows[3] = {
        { .kind = "worker", .name = "'mm' compute tile (0,2)", .busy = 910,
          .stall_in = 10, .worst_fifo = "A", .worst_is_input = 1,
          .worst_cycles = 0, .kernel_source = "counted" },
        { .kind = "DMA", .name = "fifo 'A': shim (0,0) -> compute tile (0,2)",
          .busy = 400 },
        { .kind = "DMA", .name = "fifo 'C': compute tile (0,2) -> shim (0,0)",
          .busy = 300 },
    };
    iron__timing_bottleneck(rows, 3, 1000, out, sizeof out);
    ASSERT_STR_EQ(out, "worker 'mm' compute tile (0,2) is busy 91% of the "
                       "time: its kernel bounds the design; its input fifo "
                       "'A' is never empty");
    rows[0].worst_cycles = 50;
    iron__timing_bottleneck(rows, 3, 1000, out, sizeof out);
    ASSERT_STR_EQ(out, "worker 'mm' compute tile (0,2) is busy 91% of the "
                       "time: its kernel bounds the design; it waits on its "
                       "input fifo 'A' 5% of the time");
    rows[0].busy = 100;
    rows[1].busy = 970;
    iron__timing_bottleneck(rows, 3, 1000, out, sizeof out);
    ASSERT_STR_EQ(out, "DMA fifo 'A': shim (0,0) -> compute tile (0,2) is "
                       "busy 97% of the time: data movement bounds the "
                       "design");
    rows[1].busy = 300;
    iron__timing_bottleneck(rows, 3, 1000, out, sizeof out);
    ASSERT_CONTAINS(out, "nothing is busy most of the time (the busiest, DMA "
                         "fifo 'A': shim (0,0) -> compute tile (0,2), 30%)");
    iron__timing_bottleneck(rows, 3, 0, out, sizeof out);
    ASSERT_STR_EQ(out, "nothing ran in modelled time");
}
