/*
 * test_place.c - placement: workers onto tiles, pools into tile memory,
 * shim channels, and the per-tile resource checks.  Designs are built
 * directly on the internal API (no jit, no compiler).
 */
#include "test.h"
#include "place/place.h"
#include "verify/verify.h"

static const char src[] = "void k(int *a, int *b) { (void)a; (void)b; }";

static iron_device_info dev_info(const char *name)
{
    iron_device *dev;
    iron_device_info info = { .size = sizeof info };
    if (iron_device_get(name, &dev) != IRON_OK ||
        iron_device_query(dev, &info) != IRON_OK)
        TEST_FAIL_("device %s: %s", name, iron_last_error());
    return info;
}

/* `workers` independent pipelines in<i> -> w<i> -> out<i>, objects of
 * obj int32, all filled from argument 0 and drained into argument 1. */
static iron_status build(iron_program **out, const iron_device_info *info,
                         int cols, int workers, int64_t obj)
{
    static iron__argsig args[2];
    args[0] = (iron__argsig){ "x", IRON__ROLE_IN, IRON_INT32,
                              { 1, { 1 << 20 } }, 1 << 20 };
    args[1] = (iron__argsig){ "y", IRON__ROLE_OUT, IRON_INT32,
                              { 1, { 1 << 20 } }, 1 << 20 };
    iron_design *d;
    ASSERT_OK(iron__design_new(&d, "t", 2, args, 0, NULL, cols, info, NULL,
                               0, NULL));
    iron_kernel *k = iron_kernel_new(d, "k", src, "int32*, int32*");
    for (int i = 0; i < workers; i++) {
        char a[16], b[16], w[16];
        snprintf(a, sizeof a, "in%d", i);
        snprintf(b, sizeof b, "out%d", i);
        snprintf(w, sizeof w, "w%d", i);
        iron_fifo *fi = iron_fifo_new(d, a, IRON_INT32, IRON_SHAPE(obj), 2);
        iron_fifo *fo = iron_fifo_new(d, b, IRON_INT32, IRON_SHAPE(obj), 2);
        iron_worker_new(d, w, k, 1,
                        IRON_ARGS(iron_use(iron_fifo_cons(fi)),
                                  iron_use(iron_fifo_prod(fo))));
        iron_rt_fill(d, iron_fifo_prod(fi), 0, iron_tap_linear(obj));
        iron_rt_drain(d, iron_fifo_cons(fo), 1, iron_tap_linear(obj),
                      IRON_WAIT);
    }
    ASSERT_OK(iron_design_status(d));
    ASSERT_OK(iron__verify(d));
    ASSERT_OK(iron__program_new(out, d, info));
    return iron__place(*out);
}

/* Upstream's SequentialPlacer: compute tiles column by column. */
TEST(place_workers_column_by_column)
{
    iron_device_info info = dev_info("npu2");
    iron_program *p;
    ASSERT_OK(build(&p, &info, 4, 6, 16));
    const iron_design *d = p->d;
    int want[6][2] = { { 0, 2 }, { 0, 3 }, { 0, 4 }, { 0, 5 }, { 1, 2 },
                       { 1, 3 } };
    ASSERT_EQ(p->nworkers, 6);
    for (int i = 0; i < 6; i++) {
        ASSERT_EQ(p->workers[i].tile.col, want[i][0]);
        ASSERT_EQ(p->workers[i].tile.row, want[i][1]);
        /* The placer leaves the design as the user built it. */
        ASSERT_EQ(d->workers.v[i]->tile.col, -1);
    }
    /* Column 0 hosts four workers: the shim search goes east from each
     * fifo's column (0, 0, 1, 1, then 2 for column 1's workers). */
    const int shim[6] = { 0, 0, 1, 1, 2, 2 };
    for (int i = 0; i < 6; i++) {
        ASSERT_EQ(p->movers[p->fifos[2 * i].ends[0].mover].shim_col,
                  shim[i]);
    }
    iron__program_free(p);
}

TEST(place_pools_are_laid_out_in_tile_memory)
{
    iron_device_info info = dev_info("npu1_1col");
    iron_program *p;
    ASSERT_OK(build(&p, &info, 1, 1, 10));  /* 40 B objects -> 64 B slots */
    ASSERT_EQ(p->npools, 2);
    /* The core's 1 KiB stack sits at the bottom of the tile's memory. */
    ASSERT_EQ(p->pools[0].addr[0], 1024);
    ASSERT_EQ(p->pools[0].addr[1], 1024 + 64);
    ASSERT_EQ(p->pools[1].addr[0], 1024 + 128);
    ASSERT_EQ(p->pools[1].addr[1], 1024 + 192);
    ASSERT_EQ(p->ntiles, 1);
    ASSERT_EQ(p->tiles[0].mem_used, 256 + 1024);
    ASSERT_EQ(p->tiles[0].locks, 4);
    ASSERT_EQ(p->tiles[0].dma_in, 1);
    ASSERT_EQ(p->tiles[0].dma_out, 1);
    iron__program_free(p);
}

TEST(place_shim_spills_to_the_nearest_free_column)
{
    iron_device_info info = dev_info("npu2");
    iron_program *p;
    /* 8 workers on 2 columns: 4 fills per column, 2 MM2S per shim. */
    iron_status s = build(&p, &info, 2, 8, 16);
    ASSERT_EQ(s, IRON_ERESOURCE);
    ASSERT_CONTAINS(iron_last_error(), "MM2S");
    ASSERT_CONTAINS(iron_last_error(), "the design needs 8");
    iron__program_free(p);
    /* 3 workers on 2 columns: column 0's two fills fit, the third worker
     * (column 0 again) spills to column 1. */
    ASSERT_OK(build(&p, &info, 2, 3, 16));
    int per_col[2] = { 0, 0 };
    for (int m = 0; m < p->nmovers; m++)
        if (p->movers[m].src.pool < 0)
            per_col[p->movers[m].shim_col]++;
    ASSERT_EQ(per_col[0], 2);
    ASSERT_EQ(per_col[1], 1);
    iron__program_free(p);
}

TEST(place_rejects_what_does_not_fit)
{
    iron_device_info info = dev_info("npu1_1col");
    iron_program *p;
    ASSERT_FAILS(build(&p, &info, 1, 5, 16), IRON_ERESOURCE,
                 "5 workers; the launch grants 1 column x 4 compute tiles");
    iron__program_free(p);
    /* 2 x 2 x 16 KiB buffers + stack > 64 KiB */
    ASSERT_FAILS(build(&p, &info, 1, 1, 4096), IRON_ERESOURCE,
                 "compute tile (0,2) (worker 'w0'): data memory needs 66560 "
                 "bytes, the tile has 65536 (1024 over)");
    iron__program_free(p);
    ASSERT_FAILS(build(&p, &info, 2, 1, 16), IRON_ERESOURCE,
                 "asks for 2 columns; device 'npu1_1col' has 1");
    iron__program_free(p);
}
