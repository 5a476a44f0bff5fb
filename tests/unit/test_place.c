/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_place.c - placement: workers onto tiles, pools into tile memory,
 * shim channels, and the per-tile resource checks.  Designs are built
 * directly on the internal API (no jit, no compiler).
 */
#include "test.h"
#include "compile/rt.h"
#include "place/place.h"
#include "verify/verify.h"

static const char src[] = "void k(int *a, int *b) { (void)a; (void)b; }";

static iron_device_info dev_info(const char *name)
{
    iron_device *dev;
    iron_device_info info = { .size = sizeof info };
    if (iron_device_get(name, &dev) != IRON_OK ||
        iron_device_get_info(dev, &info) != IRON_OK)
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
                        IRON_ARGS(iron_arg_fifo(iron_fifo_cons(fi)),
                                  iron_arg_fifo(iron_fifo_prod(fo))));
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

/* The program is complete on its own: names, types, the sequence and the
 * placement are in its tables, owned by it, and the design is unchanged. */
TEST(place_program_tables_copy_the_design)
{
    iron_device_info info = dev_info("npu1_1col");
    iron_program *p;
    ASSERT_OK(build(&p, &info, 1, 2, 16));
    const iron_design *d = p->d;
    ASSERT_EQ(p->cols, 1);
    ASSERT_EQ(p->nargs, 2);
    ASSERT_STR_EQ(p->args[1].name, "y");
    ASSERT(p->args[1].name != d->args[1].name);
    ASSERT_EQ(p->args[1].dtype, IRON_INT32);
    ASSERT_EQ(p->nworkers, 2);
    ASSERT_STR_EQ(p->workers[1].name, "w1");
    ASSERT_STR_EQ(p->workers[1].kernel_entry, "k");
    ASSERT_EQ(p->workers[1].is_core, 0);
    ASSERT_EQ(p->workers[1].nargs, 2);
    ASSERT_EQ(p->wargs[1][0].kind, IRON_ARG_HANDLE);
    ASSERT_STR_EQ(p->wargs[1][0].label, "fifo 'in1' (consumer)");
    ASSERT_EQ(p->wargs[1][1].is_writer, 1);
    ASSERT_EQ(p->nfifos, 4);
    const iron__prog_fifo *f = &p->fifos[2];
    ASSERT_STR_EQ(f->name, "in1");
    ASSERT_EQ(f->obj_numel, 16);
    ASSERT_EQ(f->obj_bytes, 64);
    ASSERT_EQ(f->ncons, 1);
    /* in1: the runtime fills it, worker w1 on (0,3) consumes it. */
    ASSERT_EQ(f->ends[0].tile.col, -1);
    ASSERT_EQ(f->ends[1].tile.col, 0);
    ASSERT_EQ(f->ends[1].tile.row, 3);
    ASSERT_EQ(f->ends[1].pool, p->wargs[1][0].pool);
    ASSERT_EQ(f->ends[1].buffers, 2);
    ASSERT(iron__program_end(p, 2, 0) == &f->ends[1]);
    ASSERT_EQ(p->nops, 4);
    const iron__prog_op *fill = &p->ops[2], *drain = &p->ops[3];
    ASSERT_EQ(fill->kind, IRON__OP_FILL);
    ASSERT_EQ(fill->fifo, 2);
    ASSERT_STR_EQ(fill->subject, "in1");
    ASSERT_STR_EQ(fill->arg_name, "x");
    ASSERT_EQ(fill->mover, f->ends[0].mover);
    ASSERT_EQ(fill->shim_col, 0);
    ASSERT_EQ(drain->kind, IRON__OP_DRAIN);
    ASSERT_EQ(drain->wait, 1);
    ASSERT_EQ(drain->arg, 1);
    ASSERT_EQ(drain->rtp, -1);
    ASSERT_EQ(p->ngroups, 0);
    iron__program_free(p);
}

/* Every allocation of the tables and the placement may fail: each failure
 * is a clean IRON_ENOMEM, and the program frees what was made. */
TEST(place_allocation_failures_are_clean)
{
    iron_device_info info = dev_info("npu1_1col");
    iron_status s = IRON_ENOMEM;
    for (long n = 1; s == IRON_ENOMEM && n < 200; n++) {
        static iron__argsig args[1];
        args[0] = (iron__argsig){ "x", IRON__ROLE_INOUT, IRON_INT32,
                                  { 1, { 64 } }, 64 };
        iron_design *d;
        ASSERT_OK(iron__design_new(&d, "t", 1, args, 0, NULL, 1, &info,
                                   NULL, 0, NULL));
        iron_kernel *k = iron_kernel_new(d, "k", src, "int32*, int32*");
        iron_fifo *fi = iron_fifo_new(d, "a", IRON_INT32, IRON_SHAPE(16), 2);
        iron_fifo *fo = iron_fifo_new(d, "b", IRON_INT32, IRON_SHAPE(16), 2);
        iron_worker_new(d, "w", k, 1,
                        IRON_ARGS(iron_arg_fifo(iron_fifo_cons(fi)),
                                  iron_arg_fifo(iron_fifo_prod(fo))));
        iron_rt_fill(d, iron_fifo_prod(fi), 0, iron_tap_linear(64));
        iron_rt_drain(d, iron_fifo_cons(fo), 0, iron_tap_linear(64),
                      IRON_WAIT);
        ASSERT_OK(iron_design_status(d));
        iron_program *p;
        ASSERT_OK(iron__program_new(&p, d, &info));
        iron__alloc_fail_at(n);
        s = iron__place(p);
        iron__alloc_fail_at(0);
        if (s != IRON_OK) {
            ASSERT_EQ(s, IRON_ENOMEM);
            ASSERT_CONTAINS(iron_last_error(), "out of memory");
        }
        iron__program_free(p);
    }
    ASSERT_OK(s);
}

/* The program-level services a driver uses instead of other modules. */
TEST(place_program_services)
{
    iron_device_info info = dev_info("npu1_1col");
    iron_program *p;
    ASSERT_OK(build(&p, &info, 1, 1, 16));
    static const iron__core_api api;
    /* No kernels are loaded here: binding fails cleanly. */
    ASSERT_FAILS(iron__program_bind_core(p, 0, &api), IRON_ELOAD,
                 "worker 0 has no loaded kernel");
    ASSERT_FAILS(iron__program_bind_core(p, 5, &api), IRON_ELOAD,
                 "worker 5");
    int32_t v = 0;
    iron__program_store(IRON_INT32, &v, 41.0);
    ASSERT_EQ(v, 41);
    char buf[64];
    buf[0] = 'x';
    (void)iron__program_srcline(NULL, buf, sizeof buf);
    ASSERT(memchr(buf, '\0', sizeof buf) != NULL);
    iron__program_free(p);
}

/* The kernel runtime shim's host side goes through the hooks a driver
 * installs; a hook that declines (no kernel of its runs here) leaves the
 * shim to do what it does outside any driver. */
static char hook_text[64];
static int hook_stops, hook_take;

static int hook_write(int fd, const char *buf, size_t n)
{
    if (!hook_take)
        return 0;
    snprintf(hook_text, sizeof hook_text, "%d:%.*s", fd, (int)n, buf);
    return 1;
}

static int hook_stop(const char *msg)
{
    hook_stops++;
    snprintf(hook_text, sizeof hook_text, "%s", msg);
    return 1;
}

static unsigned hook_words[4];

static unsigned *hook_ctl(void)
{
    return hook_words;
}

static unsigned long long hook_counted[3];

static void hook_count(int kind, unsigned long long n)
{
    hook_counted[0] += (unsigned long long)kind * 1000 + n;
}

static void hook_region(int begin, int pipelined)
{
    hook_counted[begin ? 1 : 2] += 1 + (unsigned long long)pipelined;
}

static long long hook_call_sum;

static void hook_call(int end, int arg, int n, const long long *vals)
{
    hook_call_sum += end * 100 + arg;
    for (int i = 0; i < n; i++)
        hook_call_sum += vals[i] * 1000;
}

TEST(program_kernel_host_hooks)
{
    static const iron__kernel_host hooks = { hook_write, hook_stop,
                                             hook_ctl, hook_count,
                                             hook_region, hook_call };
    iron__program_kernel_host(&hooks);
    /* The driver's function is in the table itself. */
    ASSERT(iron__rt_table()->aie_ctl == hook_ctl);
    ASSERT(iron__rt_table()->aie_ctl() == hook_words);
    iron__rt_table()->aie_fault("aie::set_rounding: mode 9", "k.cc", 12);
    ASSERT_STR_EQ(hook_text, "aie::set_rounding: mode 9 at k.cc:12");
    ASSERT_EQ(hook_stops, 1);
    hook_stops = 0;
    hook_take = 1;
    iron__rt_table()->write(1, "hello", 5);
    ASSERT_STR_EQ(hook_text, "1:hello");
    iron__rt_table()->stop("exit(3)");
    ASSERT_EQ(hook_stops, 1);
    ASSERT_STR_EQ(hook_text, "the kernel called exit(3)");
    iron__rt_table()->assert_fail("x > 0", "k.c", 7, "k");
    ASSERT_STR_EQ(hook_text, "assertion 'x > 0' failed at k.c:7 in k()");
    /* A timed kernel's counts reach the driver as they are. */
    iron__rt_table()->count(4, 3);
    iron__rt_table()->count_region(1, 1);
    iron__rt_table()->count_region(0, 0);
    ASSERT_EQ(hook_counted[0], 4003);
    ASSERT_EQ(hook_counted[1], 2);
    ASSERT_EQ(hook_counted[2], 1);
    /* ... and a core body's kernel calls, with their integer arguments. */
    const long long vals[2] = { 5, 7 };
    iron__rt_table()->count_call(0, 3, 0, NULL);
    iron__rt_table()->count_call(1, 3, 2, vals);
    ASSERT_EQ(hook_call_sum, 3 + 103 + 12000);
    /* Declined: written to the fd instead (an empty write is harmless). */
    hook_take = 0;
    hook_text[0] = '\0';
    iron__rt_table()->write(1, "", 0);
    ASSERT_STR_EQ(hook_text, "");
    /* No hooks: stop returns, so the shim goes on to libc; each thread
     * has its own control words. */
    iron__program_kernel_host(NULL);
    iron__rt_table()->stop("exit(0)");
    ASSERT_EQ(hook_stops, 2);
    unsigned *mine = iron__rt_table()->aie_ctl();
    ASSERT(mine != NULL && mine != hook_words);
    ASSERT(mine == iron__program_aie_ctl_thread());
    /* Hooks without words of their own: the thread's. */
    static const iron__kernel_host plain = { hook_write, hook_stop, NULL,
                                             NULL, NULL, NULL };
    iron__program_kernel_host(&plain);
    ASSERT(iron__rt_table()->aie_ctl() == mine);
    /* Without count hooks (or with no hooks at all) counts are
     * dropped. */
    iron__rt_table()->count(4, 3);
    iron__rt_table()->count_region(1, 1);
    iron__rt_table()->count_call(1, 3, 2, vals);
    iron__program_kernel_host(NULL);
    iron__rt_table()->count(4, 3);
    iron__rt_table()->count_region(0, 1);
    iron__rt_table()->count_call(0, 3, 0, NULL);
    ASSERT_EQ(hook_counted[0], 4003);
    ASSERT_EQ(hook_counted[1], 2);
    ASSERT_EQ(hook_call_sum, 3 + 103 + 12000);
    iron__program_kernel_host(NULL);
}

/* --- the front of a build (pipeline.c): one function for the jit and the
 * MLIR importer ----------------------------------------------------------- */

typedef enum { PIPE_OK, PIPE_RETURNS_3, PIPE_RECORDS, PIPE_UNVERIFIED,
               PIPE_TOO_BIG } pipe_mode;

static int pipe_design(iron_design *d, void *user)
{
    pipe_mode mode = *(const pipe_mode *)user;
    if (mode == PIPE_RETURNS_3)
        return 3;
    if (mode == PIPE_RECORDS)
        return iron_design_fail(d, IRON_EDESIGN, "tile %d is taken", 7), 1;
    int64_t obj = mode == PIPE_TOO_BIG ? 1 << 16 : 16;
    iron_kernel *k = iron_kernel_new(d, "k", src, "int32*, int32*");
    iron_fifo *fi = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(obj), 2);
    iron_fifo *fo = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(obj), 2);
    iron_worker_new(d, "w", k, 1,
                    IRON_ARGS(iron_arg_fifo(iron_fifo_cons(fi)),
                              iron_arg_fifo(iron_fifo_prod(fo))));
    iron_rt_fill(d, iron_fifo_prod(fi), 0, iron_tap_linear(obj));
    if (mode != PIPE_UNVERIFIED)   /* nothing awaits a drain */
        iron_rt_drain(d, iron_fifo_cons(fo), 1, iron_tap_linear(obj),
                      IRON_WAIT);
    return 0;
}

static iron_status pipe_run(pipe_mode mode, iron_program **p,
                            iron__place_outcome *how)
{
    static iron_device_info info;
    static iron__argsig args[2];
    info = dev_info("npu2");
    args[0] = (iron__argsig){ "x", IRON__ROLE_IN, IRON_INT32,
                              { 1, { 1 << 16 } }, 1 << 16 };
    args[1] = (iron__argsig){ "y", IRON__ROLE_OUT, IRON_INT32,
                              { 1, { 1 << 16 } }, 1 << 16 };
    static pipe_mode m;
    m = mode;
    iron__place_request rq = { .name = "pipe", .nargs = 2, .args = args,
                               .cols = 1, .dev = &info, .fn = pipe_design,
                               .user = &m };
    return iron__place_design(&rq, p, how);
}

TEST(place_design_runs_design_verify_place)
{
    iron_program *p = (iron_program *)&p;
    iron__place_outcome how;
    ASSERT_OK(pipe_run(PIPE_OK, &p, &how));
    ASSERT(p != NULL);
    ASSERT_STR_EQ(how.stage, "place");
    ASSERT_EQ(how.design_ran, 1);
    ASSERT(how.ms[0] >= 0 && how.ms[1] >= 0 && how.ms[2] >= 0);
    ASSERT_EQ(p->nworkers, 1);
    ASSERT_EQ(p->workers[0].tile.row, IRON__ROW_COMPUTE);
    iron__program_free(p);
}

/* Each stage's failure is named, its message is the stage's own, and
 * nothing is left behind (the asan build checks the frees). */
TEST(place_design_names_the_stage_that_failed)
{
    static const struct {
        pipe_mode mode;
        const char *stage;
        iron_status status;
        const char *text;
    } cases[] = {
        { PIPE_RETURNS_3, "design", IRON_EDESIGN,
          "the design function returned 3 without recording an error" },
        { PIPE_RECORDS, "design", IRON_EDESIGN, "tile 7 is taken" },
        { PIPE_UNVERIFIED, "verify", IRON_EDESIGN, "fifo 'out'" },
        { PIPE_TOO_BIG, "place", IRON_ERESOURCE, "compute tile (0,2)" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        iron_program *p = (iron_program *)&p;
        iron__place_outcome how;
        ASSERT_FAILS(pipe_run(cases[i].mode, &p, &how), cases[i].status,
                     cases[i].text);
        ASSERT(p == NULL);
        ASSERT_STR_EQ(how.stage, cases[i].stage);
        ASSERT_EQ(how.design_ran, 1);
    }
}

/* A core body fed by DMA gets max acquire + 1 buffers; holding all 16 of
 * a depth-16 fifo would need 17, more than an endpoint has.  It was laid
 * out anyway, writing past the pool's 16 buffer addresses, before the
 * buffer-descriptor check refused the tile. */
static int deep_design(iron_design *d, void *user)
{
    int take = *(const int *)user;
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(16), 16);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(16), 2);
    iron_kernel *k = iron_kernel_new_core(
        d, "deep", "void deep(void *a, void *b) { (void)a; (void)b; }",
        "fifo, fifo");
    iron_worker_new(d, "deep", k, 0,
                    IRON_ARGS(iron_arg_fifo_acquire(iron_fifo_cons(in), take),
                              iron_arg_fifo(iron_fifo_prod(out))));
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(256));
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(256),
                  IRON_WAIT);
    return 0;
}

TEST(place_refuses_more_buffers_than_an_endpoint_has)
{
    iron_device_info info = dev_info("npu2");
    iron__argsig args[2] = {
        { "x", IRON__ROLE_IN, IRON_INT32, { 1, { 256 } }, 256 },
        { "y", IRON__ROLE_OUT, IRON_INT32, { 1, { 256 } }, 256 }
    };
    int take = 16;
    iron__place_request rq = { .name = "deep", .nargs = 2, .args = args,
                               .cols = 1, .dev = &info, .fn = deep_design,
                               .user = &take };
    iron__place_outcome how;
    iron_program *p;
    ASSERT_FAILS(iron__place_design(&rq, &p, &how), IRON_ERESOURCE,
                 "compute tile (0,2): fifo 'in' (consumer) needs 17 buffers "
                 "(max acquire 16 + 1; declared depth 16); an endpoint has "
                 "at most 16");
    ASSERT_STR_EQ(how.stage, "place");
    /* 14 buffers and the output's 2 fill the tile's 16 descriptors. */
    take = 13;
    ASSERT_OK(iron__place_design(&rq, &p, &how));
    iron_program_endpoint e = { .size = sizeof e };
    ASSERT_OK(iron_program_get_endpoint(p, 0, 0, &e));
    ASSERT_EQ(p->pools[e.pool].depth, 14);
    iron__program_free(p);
}

/* --- the program as drivers read it (iron_driver.h accessors) ------------ */

/* Every accessor copies its row of the program's tables. */
TEST(place_program_accessors_copy_the_tables)
{
    iron_device_info info = dev_info("npu2");
    iron_program *p;
    ASSERT_OK(build(&p, &info, 2, 2, 16));
    iron_program_info pi = { .size = sizeof pi };
    ASSERT_OK(iron_program_get_info(p, &pi));
    ASSERT_EQ(pi.abi_version, IRON_DRIVER_ABI);
    ASSERT_STR_EQ(pi.device->name, "npu2");
    ASSERT_EQ(pi.columns, 2);
    ASSERT_EQ(pi.nargs, 2);
    ASSERT_EQ(pi.nfifos, 4);
    ASSERT_EQ(pi.nworkers, 2);
    ASSERT_EQ(pi.npools, p->npools);
    ASSERT_EQ(pi.nmovers, p->nmovers);
    ASSERT_EQ(pi.nops, 4);
    ASSERT_EQ(pi.ntiles, p->ntiles);
    for (int i = 0; i < pi.nfifos; i++) {
        iron_program_fifo f = { .size = sizeof f };
        ASSERT_OK(iron_program_get_fifo(p, i, &f));
        ASSERT_STR_EQ(f.name, p->fifos[i].name);
        ASSERT_EQ(f.obj_bytes, 64);
        ASSERT_EQ(f.nconsumers, 1);
        iron_program_endpoint e = { .size = sizeof e };
        ASSERT_OK(iron_program_get_endpoint(p, i, 0, &e));
        ASSERT_EQ(e.pool, p->fifos[i].ends[1].pool);
        ASSERT_EQ(e.col, p->fifos[i].ends[1].tile.col);
    }
    for (int w = 0; w < pi.nworkers; w++) {
        iron_program_worker wk = { .size = sizeof wk };
        ASSERT_OK(iron_program_get_worker(p, w, &wk));
        ASSERT_STR_EQ(wk.name, p->workers[w].name);
        ASSERT_EQ(wk.col, p->workers[w].tile.col);
        ASSERT_EQ(wk.row, p->workers[w].tile.row);
        ASSERT(wk.entry == NULL);   /* not compiled: placed only */
        ASSERT_EQ(wk.nargs, 2);
        iron_program_worker_arg a = { .size = sizeof a };
        ASSERT_OK(iron_program_get_worker_arg(p, w, 1, &a));
        ASSERT_EQ(a.kind, IRON_ARG_HANDLE);
        ASSERT_EQ(a.is_writer, 1);
        ASSERT_EQ(a.pool, p->wargs[w][1].pool);
        ASSERT_EQ(a.copy, -1);
        ASSERT_CONTAINS(a.label, "(producer)");
    }
    for (int i = 0; i < pi.npools; i++) {
        iron_program_pool pl = { .size = sizeof pl };
        ASSERT_OK(iron_program_get_pool(p, i, &pl));
        ASSERT(pl.addr == p->pools[i].addr);
        ASSERT_EQ(pl.depth, p->pools[i].depth);
        ASSERT_EQ(pl.tile, iron__program_tile(p, p->pools[i].tile));
        iron_program_tile t = { .size = sizeof t };
        ASSERT_OK(iron_program_get_tile(p, pl.tile, &t));
        ASSERT_EQ(t.col, pl.col);
        ASSERT_EQ(t.row, pl.row);
        ASSERT_EQ(t.memory_bytes, info.compute.memory_bytes);
    }
    for (int i = 0; i < pi.nops; i++) {
        iron_program_op op = { .size = sizeof op };
        ASSERT_OK(iron_program_get_op(p, i, &op));
        ASSERT_EQ(op.kind, i % 2 ? IRON_PROGRAM_OP_DRAIN
                                 : IRON_PROGRAM_OP_FILL);
        ASSERT_EQ(op.arg, i % 2);
        ASSERT_EQ(op.mover, p->ops[i].mover);
        iron_program_mover m = { .size = sizeof m };
        iron_program_dma_end from = { .size = sizeof from };
        ASSERT_OK(iron_program_get_mover(p, op.mover, &m));
        ASSERT_OK(iron_program_get_mover_end(p, op.mover, -1, &from));
        ASSERT_EQ(from.pool, i % 2 ? p->movers[op.mover].src.pool : -1);
        ASSERT_EQ(m.shim_col, op.shim_col);
    }
    /* A descriptor from a newer header, larger than this one, gets zeros
     * past what the library knows and keeps its size. */
    struct {
        iron_program_arg a;
        int later;
    } big;
    memset(&big, 0xff, sizeof big);
    big.a.size = sizeof big;
    ASSERT_OK(iron_program_get_arg(p, 1, &big.a));
    ASSERT_STR_EQ(big.a.name, "y");
    ASSERT_EQ(big.a.size, sizeof big);
    iron__program_free(p);
}

/* Each accessor names what is wrong: a NULL program or descriptor, a size
 * below the descriptor's, an index outside its table (with the range). */
TEST(place_program_accessors_refuse_bad_input)
{
    iron_device_info info = dev_info("npu2");
    iron_program *p;
    ASSERT_OK(build(&p, &info, 1, 1, 16));
    iron_program_info pi = { .size = sizeof pi };
    ASSERT_FAILS(iron_program_get_info(NULL, &pi), IRON_EINVAL,
                 "iron_program_get_info: program is NULL");
    ASSERT_FAILS(iron_program_get_info(p, NULL), IRON_EINVAL,
                 "iron_program_get_info: out is NULL");
    pi.size = 4;
    ASSERT_FAILS(iron_program_get_info(p, &pi), IRON_EINVAL,
                 "iron_program_get_info: out->size is 4; expected at least");
    iron_program_fifo f = { .size = sizeof f };
    ASSERT_FAILS(iron_program_get_fifo(p, 2, &f), IRON_EINVAL,
                 "iron_program_get_fifo: fifo 2; expected 0 .. 1");
    ASSERT_FAILS(iron_program_get_fifo(p, -1, &f), IRON_EINVAL,
                 "fifo -1; expected 0 .. 1");
    iron_program_endpoint e = { .size = sizeof e };
    ASSERT_FAILS(iron_program_get_endpoint(p, 0, 1, &e), IRON_EINVAL,
                 "iron_program_get_endpoint: consumer 1 of fifo 'in0'; "
                 "expected -1 (the producer) .. 0");
    ASSERT_OK(iron_program_get_endpoint(p, 0, -1, &e));
    iron_program_worker_arg a = { .size = sizeof a };
    ASSERT_FAILS(iron_program_get_worker_arg(p, 0, 2, &a), IRON_EINVAL,
                 "argument 2 of worker 'w0'; expected 0 .. 1");
    ASSERT_FAILS(iron_program_get_worker_arg(p, 1, 0, &a), IRON_EINVAL,
                 "worker 1; expected 0 .. 0");
    iron_program_dma_end end = { .size = sizeof end };
    ASSERT_FAILS(iron_program_get_mover_end(p, 0, 5, &end), IRON_EINVAL,
                 "iron_program_get_mover_end: end 5 of mover 0");
    iron_program_rtp r = { .size = sizeof r };
    ASSERT_FAILS(iron_program_get_rtp(p, 0, &r), IRON_EINVAL,
                 "iron_program_get_rtp: rtp 0; the program has none");
    iron_program_copy c = { .size = sizeof c };
    ASSERT_FAILS(iron_program_get_barrier_copy(p, 0, &c), IRON_EINVAL,
                 "barrier copy 0; the program has none");
    iron_core_api api = { 0 };
    ASSERT_FAILS(iron_program_bind_core(p, 0, NULL), IRON_EINVAL,
                 "iron_program_bind_core: api is NULL");
    ASSERT_FAILS(iron_program_bind_core(p, 3, &api), IRON_EINVAL,
                 "worker 3; expected 0 .. 0");
    ASSERT_FAILS(iron_program_bind_core(p, 0, &api), IRON_ELOAD,
                 "worker 'w0' runs the standard loop, not a core body");
    iron__program_free(p);
}
