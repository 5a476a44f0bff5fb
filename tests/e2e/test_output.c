/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_output.c - what kernels print: the runtime shim sends a kernel's
 * stdout and stderr (printf, puts, putchar, fprintf, fputs, fputc,
 * fwrite, write) to the output handler as lines tagged with the worker,
 * its tile and iteration; a file the kernel opens itself is left alone;
 * the default handler prints the tagged lines to the process's stdout;
 * and the shim compiles cleanly under a kernel's -Wall -Wextra -Werror.
 */
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <unistd.h>

#include "test.h"

enum { OBJ = 16, MAX_LINES = 256 };

/* ------------------------------------------------------------------------
 * Helpers
 * ------------------------------------------------------------------------ */

/* The lines the handler received, copied. */
typedef struct got_line {
    char worker[32];
    int col, row, fd;
    uint64_t iteration;
    char text[160];
} got_line;

typedef struct capture {
    got_line lines[MAX_LINES];
    int n;
    int calls;     /* handler calls, even past MAX_LINES */
} capture;

static void capture_line(const iron_output_line *l, void *ctx)
{
    capture *c = ctx;
    c->calls++;
    if (l->size != sizeof *l || c->n >= MAX_LINES)
        return;
    got_line *g = &c->lines[c->n++];
    snprintf(g->worker, sizeof g->worker, "%s", l->worker);
    snprintf(g->text, sizeof g->text, "%s", l->text);
    g->col = l->col;
    g->row = l->row;
    g->fd = l->fd;
    g->iteration = l->iteration;
}

static void expect_line(const capture *c, int i, int fd, uint64_t iteration,
                        const char *text)
{
    if (i >= c->n)
        TEST_FAIL_("line %d (\"%s\") missing: only %d lines arrived", i,
                   text, c->n);
    const got_line *g = &c->lines[i];
    if (g->fd != fd || g->iteration != iteration || strcmp(g->text, text))
        TEST_FAIL_("line %d: expected fd %d #%llu \"%s\", got fd %d #%llu "
                   "\"%s\"",
                   i, fd, (unsigned long long)iteration, text, g->fd,
                   (unsigned long long)g->iteration, g->text);
}

/* A one-worker design "printer" in -> kernel -> out on OBJ-element
 * objects; the kernel is `entry` (int32*, int32*, int32) from `src`. */
typedef struct printer {
    const char *entry;
    const char *src;
    const char *cflags;        /* iron_kernel_add_cflags, or NULL */
    const char *define_name;   /* one define, or NULL */
    const char *define_value;
} printer;

static int printer_design(iron_design *d, void *user)
{
    const printer *p = user;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_kernel *k = iron_kernel_new(d, p->entry, p->src,
                                     "int32*, int32*, int32");
    if (p->cflags)
        iron_kernel_add_cflags(k, p->cflags);
    if (p->define_name)
        iron_kernel_define(k, p->define_name, p->define_value);
    iron_worker_new(d, "printer", k, n / OBJ,
                    IRON_ARGS(iron_arg_fifo(iron_fifo_cons(in)),
                              iron_arg_fifo(iron_fifo_prod(out)),
                              iron_arg_int(OBJ)));
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

static iron_jit *printer_jit(printer *p, const char *jit_cflags)
{
    iron_jit_options o = { .size = sizeof o, .name = "printer",
                           .args = "in a, out b", .cflags = jit_cflags,
                           .user = p };
    return test_new_jit(printer_design, &o);
}

/* One call on `objects` objects of arange(offset, ...); checks that the
 * kernel copied (scaled by `scale`) the data through. */
static void run_printer(iron_jit *j, int objects, int offset, int scale)
{
    iron_tensor *a, *b;
    ASSERT_OK(iron_tensor_arange(IRON_INT32, offset, offset + objects * OBJ, 1,
                                 &a));
    b = test_zeros(IRON_INT32, objects * OBJ);
    ASSERT_OK(test_launch(j, 1, IRON_TENSORS(a, b)));
    const int32_t *pb = iron_tensor_data(b);
    for (int i = 0; i < objects * OBJ; i++)
        ASSERT_EQ(pb[i], scale * (offset + i));
    iron_tensor_free(a);
    iron_tensor_free(b);
}

/* ------------------------------------------------------------------------
 * Every output function, tagged, in order
 * ------------------------------------------------------------------------ */

/* Some of these gcc and clang turn into other calls: printf("plain\n")
 * into puts, printf("a") into putchar, fprintf(stderr, "lit\n") into
 * fwrite; all of them must land in the handler. */
static const char chatty_src[] =
    "#include <stdint.h>\n"
    "#include <stdio.h>\n"
    "#include <unistd.h>\n"
    "void chatty(const int32_t *in, int32_t *out, int32_t n)\n"
    "{\n"
    "    for (int32_t i = 0; i < n; i++)\n"
    "        out[i] = 2 * in[i];\n"
    "    printf(\"first %d\\n\", (int)in[0]);\n"
    "    printf(\"plain\\n\");\n"
    "    putchar('c');\n"
    "    putchar('\\n');\n"
    "    fprintf(stderr, \"err %d\\n\", (int)in[0]);\n"
    "    fprintf(stderr, \"lit\\n\");\n"
    "    fputs(\"fputs \", stdout);\n"
    "    fputc('!', stdout);\n"
    "    putc('\\n', stdout);\n"
    "    fwrite(\"fw\\n\", 1, 3, stdout);\n"
    "    if (write(2, \"wr\\n\", 3) != 3)\n"
    "        out[0] = -1;\n"
    "    printf(\"a\");\n"
    "    printf(\"%s\", \"b\");\n"
    "    printf(\"\\n\");\n"
    "    puts(\"\");\n"
    "}\n";

static printer chatty = { "chatty", chatty_src, NULL, NULL, NULL };

/* The lines one call of chatty prints, at iteration `it`. */
static int expect_chatty(const capture *c, int at, uint64_t it)
{
    char first[32], err[32];
    snprintf(first, sizeof first, "first %d", (int)it * OBJ);
    snprintf(err, sizeof err, "err %d", (int)it * OBJ);
    expect_line(c, at++, 1, it, first);
    expect_line(c, at++, 1, it, "plain");
    expect_line(c, at++, 1, it, "c");
    expect_line(c, at++, 2, it, err);
    expect_line(c, at++, 2, it, "lit");
    expect_line(c, at++, 1, it, "fputs !");
    expect_line(c, at++, 1, it, "fw");
    expect_line(c, at++, 2, it, "wr");
    expect_line(c, at++, 1, it, "ab");
    expect_line(c, at++, 1, it, "");
    return at;
}

TEST(output_every_function_is_tagged_in_order)
{
    static capture c;
    iron_output_set_handler(capture_line, &c);
    iron_jit *j = printer_jit(&chatty, NULL);
    run_printer(j, 3, 0, 2);
    ASSERT_EQ(c.n, 30);
    int at = 0;
    for (uint64_t it = 0; it < 3; it++)
        at = expect_chatty(&c, at, it);
    for (int i = 0; i < c.n; i++) {
        ASSERT_STR_EQ(c.lines[i].worker, "printer");
        ASSERT_EQ(c.lines[i].col, c.lines[0].col);
        ASSERT_EQ(c.lines[i].row, c.lines[0].row);
    }
    /* A compute tile: row 2 and up. */
    ASSERT_GE(c.lines[0].row, 2);
    ASSERT_GE(c.lines[0].col, 0);
    /* Cores keep running between calls: the next call's iterations
     * follow on. */
    c.n = 0;
    run_printer(j, 3, 3 * OBJ, 2);
    ASSERT_EQ(c.n, 30);
    at = 0;
    for (uint64_t it = 3; it < 6; it++)
        at = expect_chatty(&c, at, it);
    iron_jit_free(j);
    iron_output_set_handler(NULL, NULL);
}

/* ------------------------------------------------------------------------
 * Partial lines: joined across calls of printf, and across iterations;
 * a last line without a newline arrives at the end of the call
 * ------------------------------------------------------------------------ */

static const char ticker_src[] =
    "#include <stdint.h>\n"
    "#include <stdio.h>\n"
    "void ticker(const int32_t *in, int32_t *out, int32_t n)\n"
    "{\n"
    "    for (int32_t i = 0; i < n; i++)\n"
    "        out[i] = in[i];\n"
    "    printf(\"tick %d;\", (int)in[0] / 16);\n"
    "    fprintf(stderr, \"[%d]\", (int)in[0] / 16);\n"
    "    if (in[0] / 16 % 2 == 1)\n"
    "        fputc('\\n', stderr);\n"
    "}\n";

TEST(output_partial_last_line_arrives_at_end_of_call)
{
    static printer ticker = { "ticker", ticker_src, NULL, NULL,
                                    NULL };
    static capture c;
    iron_output_set_handler(capture_line, &c);
    iron_jit *j = printer_jit(&ticker, NULL);
    run_printer(j, 3, 0, 1);
    /* stderr's lines end in iteration 1 (begun in 0); "[2]" and stdout's
     * never-ended line are flushed when the call ends: stdout first.
     * Each line is tagged with the iteration it began in. */
    ASSERT_EQ(c.n, 3);
    expect_line(&c, 0, 2, 0, "[0][1]");
    expect_line(&c, 1, 1, 0, "tick 0;tick 1;tick 2;");
    expect_line(&c, 2, 2, 2, "[2]");
    /* Nothing is left over for the next call. */
    c.n = 0;
    run_printer(j, 3, 3 * OBJ, 1);
    ASSERT_EQ(c.n, 3);
    expect_line(&c, 0, 2, 3, "[3]");
    expect_line(&c, 1, 2, 4, "[4][5]");
    expect_line(&c, 2, 1, 3, "tick 3;tick 4;tick 5;");
    iron_jit_free(j);
    iron_output_set_handler(NULL, NULL);
}

/* A line far longer than the line buffer goes out in 4 KiB pieces, and
 * a long printf is formatted whole (past the shim's stack buffer). */
static const char longline_src[] =
    "#include <stdint.h>\n"
    "#include <stdio.h>\n"
    "#include <string.h>\n"
    "static char big[10001];\n"
    "void longline(const int32_t *in, int32_t *out, int32_t n)\n"
    "{\n"
    "    for (int32_t i = 0; i < n; i++)\n"
    "        out[i] = in[i];\n"
    "    memset(big, 'x', 10000);\n"
    "    printf(\"<%s>\\n\", big);\n"
    "}\n";

static int count_x(const char *s)
{
    int n = 0;
    while (*s == 'x') {
        s++;
        n++;
    }
    return n;
}

/* A handler that keeps only lengths and first/last bytes (the lines are
 * longer than got_line.text). */
typedef struct lens {
    size_t len[8];
    char first[8], last[8];
    int xs[8];
    int n;
} lens;

static void capture_len(const iron_output_line *l, void *ctx)
{
    lens *c = ctx;
    if (c->n >= 8)
        return;
    size_t len = strlen(l->text);
    c->len[c->n] = len;
    c->first[c->n] = l->text[0];
    c->last[c->n] = len ? l->text[len - 1] : '\0';
    c->xs[c->n] = count_x(l->text[0] == '<' ? l->text + 1 : l->text);
    c->n++;
}

TEST(output_long_line_in_chunks)
{
    static printer longline = { "longline", longline_src, NULL, NULL,
                                      NULL };
    static lens c;
    iron_output_set_handler(capture_len, &c);
    iron_jit *j = printer_jit(&longline, NULL);
    run_printer(j, 1, 0, 1);
    /* "<" + 10000 x + ">" = 10002 bytes: 4096 + 4096 + 1810. */
    ASSERT_EQ(c.n, 3);
    ASSERT_EQ(c.len[0], 4096);
    ASSERT_EQ(c.len[1], 4096);
    ASSERT_EQ(c.len[2], 10002 - 2 * 4096);
    ASSERT_EQ(c.first[0], '<');
    ASSERT_EQ(c.last[2], '>');
    ASSERT_EQ(c.xs[0] + c.xs[1] + c.xs[2], 10000);
    iron_jit_free(j);
    iron_output_set_handler(NULL, NULL);
}

/* ------------------------------------------------------------------------
 * Core bodies print through the same shim; their iteration is the count
 * of acquires made
 * ------------------------------------------------------------------------ */

static const char core_src[] =
    "#include <stdint.h>\n"
    "#include <stdio.h>\n"
    "void body(iron_objfifo *in, iron_objfifo *out)\n"
    "{\n"
    "    for (;;) {\n"
    "        int32_t *o = iron_acquire(out, 1)[0];\n"
    "        int32_t *i = iron_acquire(in, 1)[0];\n"
    "        for (int k = 0; k < 16; k++)\n"
    "            o[k] = i[k] + 1;\n"
    "        printf(\"core saw %d\\n\", (int)i[0]);\n"
    "        iron_release(in, 1);\n"
    "        iron_release(out, 1);\n"
    "    }\n"
    "}\n";

static int core_design(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_kernel *k = iron_kernel_new_core(d, "body", core_src, "fifo, fifo");
    iron_worker_new(d, "corer", k, 1,
                    IRON_ARGS(iron_arg_fifo(iron_fifo_cons(in)),
                              iron_arg_fifo(iron_fifo_prod(out))));
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

TEST(output_from_core_body)
{
    static capture c;
    iron_output_set_handler(capture_line, &c);
    iron_jit_options o = { .size = sizeof o, .name = "corer",
                           .args = "in a, out b" };
    iron_jit *j = test_new_jit(core_design, &o);
    iron_tensor *a = test_arange(IRON_INT32, 3 * OBJ);
    iron_tensor *b = test_zeros(IRON_INT32, 3 * OBJ);
    ASSERT_OK(test_launch(j, 1, IRON_TENSORS(a, b)));
    ASSERT_EQ(c.n, 3);
    for (int k = 0; k < 3; k++) {
        char want[32];
        snprintf(want, sizeof want, "core saw %d", k * OBJ);
        expect_line(&c, k, 1, 2u * (uint64_t)(k + 1), want);
        ASSERT_STR_EQ(c.lines[k].worker, "corer");
    }
    ASSERT_EQ(((int32_t *)iron_tensor_data(b))[5], 6);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_jit_free(j);
    iron_output_set_handler(NULL, NULL);
}

/* ------------------------------------------------------------------------
 * The default handler: tagged lines on the process's stdout and stderr
 * ------------------------------------------------------------------------ */

/* Runs `p` once (two objects) with stdout and stderr redirected into
 * temporary files; out and err receive what was written there. */
static int redirect(int fd)
{
    char path[] = "/tmp/iron-output-XXXXXX";
    int tmp = mkstemp(path);
    ASSERT(tmp >= 0);
    unlink(path);
    int saved = dup(fd);
    ASSERT(saved >= 0);
    ASSERT(dup2(tmp, fd) == fd);
    close(tmp);
    return saved;
}

static void restore(int fd, int saved, char *text, size_t cap)
{
    ssize_t n = pread(fd, text, cap - 1, 0);
    ASSERT(n >= 0);
    text[n] = '\0';
    ASSERT(dup2(saved, fd) == fd);
    close(saved);
}

static void run_redirected(printer *p, char *out, char *err, size_t cap)
{
    fflush(stdout);
    fflush(stderr);
    int saved_out = redirect(1), saved_err = redirect(2);
    iron_jit *j = printer_jit(p, NULL);
    run_printer(j, 2, 0, 1);
    iron_jit_free(j);
    fflush(stdout);
    fflush(stderr);
    restore(2, saved_err, err, cap);
    restore(1, saved_out, out, cap);
}

static const char hello_src[] =
    "#include <stdint.h>\n"
    "#include <stdio.h>\n"
    "void hello(const int32_t *in, int32_t *out, int32_t n)\n"
    "{\n"
    "    for (int32_t i = 0; i < n; i++)\n"
    "        out[i] = in[i];\n"
    "    printf(\"hello %d\\n\", (int)in[0]);\n"
    "    fprintf(stderr, \"oops %d\\n\", (int)in[0]);\n"
    "    printf(\"no newline\");\n"
    "}\n";

TEST(output_default_handler_prints_tagged_lines)
{
    static printer hello = { "hello", hello_src, NULL, NULL, NULL };
    static capture c;
    /* The tile, as the handler sees it. */
    iron_output_set_handler(capture_line, &c);
    iron_jit *j = printer_jit(&hello, NULL);
    run_printer(j, 1, 0, 1);
    iron_jit_free(j);
    ASSERT_GE(c.n, 1);
    iron_output_set_handler(NULL, NULL);

    /* "no newline" joins the next line; the last one, begun in
     * iteration 1, arrives at the end of the call. */
    int col = c.lines[0].col, row = c.lines[0].row;
    char out[1024], err[1024], want[256];
    run_redirected(&hello, out, err, sizeof out);
    snprintf(want, sizeof want,
             "[printer (%d,%d) #0] hello 0\n"
             "[printer (%d,%d) #0] no newlinehello 16\n"
             "[printer (%d,%d) #1] no newline\n",
             col, row, col, row, col, row);
    ASSERT_STR_EQ(out, want);
    snprintf(want, sizeof want,
             "[printer (%d,%d) #0] oops 0\n"
             "[printer (%d,%d) #1] oops 16\n",
             col, row, col, row);
    ASSERT_STR_EQ(err, want);
}

/* ------------------------------------------------------------------------
 * The handler and its context swap together, even while lines arrive
 * ------------------------------------------------------------------------ */

typedef struct tagged {
    int tag;
    int mismatches;
    int lines;
} tagged;

static tagged ctx_a = { 1, 0, 0 }, ctx_b = { 2, 0, 0 };

static void handler_a(const iron_output_line *l, void *ctx)
{
    (void)l;
    tagged *t = ctx;
    t->mismatches += t->tag != 1;
    t->lines++;
}

static void handler_b(const iron_output_line *l, void *ctx)
{
    (void)l;
    tagged *t = ctx;
    t->mismatches += t->tag != 2;
    t->lines++;
}

static _Atomic int swapping;

static void *swapper(void *arg)
{
    (void)arg;
    for (unsigned i = 0; atomic_load(&swapping); i++) {
        if (i % 2)
            iron_output_set_handler(handler_a, &ctx_a);
        else
            iron_output_set_handler(handler_b, &ctx_b);
        sched_yield();
    }
    return NULL;
}

/* A handler that swaps itself for another from inside: no deadlock. */
static void handler_self_swap(const iron_output_line *l, void *ctx)
{
    (void)l;
    (void)ctx;
    iron_output_set_handler(handler_a, &ctx_a);
}

TEST(output_handler_swaps_fn_and_ctx_together)
{
    static printer hello = { "hello", hello_src, NULL, NULL, NULL };
    iron_jit *j = printer_jit(&hello, NULL);
    iron_output_set_handler(handler_a, &ctx_a);
    atomic_store(&swapping, 1);
    pthread_t th;
    ASSERT_EQ(pthread_create(&th, NULL, swapper, NULL), 0);
    for (int k = 0; k < 20; k++)
        run_printer(j, 8, 0, 1);
    atomic_store(&swapping, 0);
    pthread_join(th, NULL);
    ASSERT_EQ(ctx_a.mismatches + ctx_b.mismatches, 0);
    /* Per call: 8 stdout lines, 8 stderr lines, one flushed. */
    ASSERT_EQ(ctx_a.lines + ctx_b.lines, 20 * 17);

    ctx_a.lines = 0;
    iron_output_set_handler(handler_self_swap, NULL);
    run_printer(j, 2, 0, 1);
    /* The first line swapped; the other four went to handler_a. */
    ASSERT_EQ(ctx_a.lines, 4);
    iron_jit_free(j);
    iron_output_set_handler(NULL, NULL);
}

/* ------------------------------------------------------------------------
 * A file the kernel opened itself is not the host's
 * ------------------------------------------------------------------------ */

static const char tofile_src[] =
    "#include <stdint.h>\n"
    "#include <stdio.h>\n"
    "#include <unistd.h>\n"
    "void tofile(const int32_t *in, int32_t *out, int32_t n)\n"
    "{\n"
    "    for (int32_t i = 0; i < n; i++)\n"
    "        out[i] = in[i];\n"
    "    FILE *f = fopen(OUT_PATH, \"a\");\n"
    "    if (!f) {\n"
    "        out[0] = -1;\n"
    "        return;\n"
    "    }\n"
    "    fprintf(f, \"file %d\\n\", (int)in[0]);\n"
    "    fprintf(f, \"lit\\n\");\n"
    "    fputs(\"fputs\", f);\n"
    "    fputc('!', f);\n"
    "    putc('\\n', f);\n"
    "    fwrite(\"fw\\n\", 1, 3, f);\n"
    "    fflush(f);\n"
    "    if (write(fileno(f), \"raw\\n\", 4) != 4)\n"
    "        out[0] = -2;\n"
    "    fclose(f);\n"
    "    printf(\"to the handler %d\\n\", (int)in[0]);\n"
    "}\n";

TEST(output_kernel_file_is_not_captured)
{
    const char *dir = test_temp_dir("outfile");
    char path[128], quoted[160];
    snprintf(path, sizeof path, "%s/kernel.txt", dir);
    snprintf(quoted, sizeof quoted, "\"%s\"", path);
    printer tofile = { "tofile", tofile_src, NULL, "OUT_PATH", quoted };
    static capture c;
    iron_output_set_handler(capture_line, &c);
    iron_jit *j = printer_jit(&tofile, NULL);
    run_printer(j, 2, 0, 1);
    iron_jit_free(j);
    iron_output_set_handler(NULL, NULL);

    ASSERT_EQ(c.n, 2);
    expect_line(&c, 0, 1, 0, "to the handler 0");
    expect_line(&c, 1, 1, 1, "to the handler 16");
    char text[512] = "";
    FILE *f = fopen(path, "r");
    ASSERT(f != NULL);
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    ASSERT_STR_EQ(text, "file 0\nlit\nfputs!\nfw\nraw\n"
                        "file 16\nlit\nfputs!\nfw\nraw\n");
    unlink(path);
    rmdir(dir);
}

/* ------------------------------------------------------------------------
 * The shim under the kernel's own strict warnings
 * ------------------------------------------------------------------------ */

static const char strict_src[] =
    "#include <assert.h>\n"
    "#include <stdint.h>\n"
    "#include <stdio.h>\n"
    "#include <stdlib.h>\n"
    "void strict(const int32_t *in, int32_t *out, int32_t n);\n"
    "void strict(const int32_t *in, int32_t *out, int32_t n)\n"
    "{\n"
    "    assert(n > 0);\n"
    "    if (n > 1000)\n"
    "        exit(2);\n"
    "    for (int32_t i = 0; i < n; i++)\n"
    "        out[i] = 3 * in[i];\n"
    "    printf(\"strict %d of %d\\n\", (int)in[0], (int)n);\n"
    "}\n";

static void run_strict(const char *jit_cflags, const char *kernel_cflags)
{
    printer strict = { "strict", strict_src, kernel_cflags, NULL, NULL };
    static capture c;
    c.n = 0;
    iron_output_set_handler(capture_line, &c);
    iron_jit *j = printer_jit(&strict, jit_cflags);
    run_printer(j, 2, 0, 3);
    iron_jit_free(j);
    iron_output_set_handler(NULL, NULL);
    if (c.n != 2)
        TEST_FAIL_("cflags \"%s\" + \"%s\": %d lines", jit_cflags,
                   kernel_cflags ? kernel_cflags : "", c.n);
    expect_line(&c, 0, 1, 0, "strict 0 of 16");
    expect_line(&c, 1, 1, 1, "strict 16 of 16");
}

TEST(output_kernel_with_strict_warnings_compiles)
{
    run_strict("-O2 -Wall -Wextra -Werror", NULL);
    /* The fortified printf (__printf_chk), a strict standard (signal and
     * friends under other names), and the shim's own extra warnings. */
    run_strict("-O2 -Wall -Wextra -Werror", "-D_FORTIFY_SOURCE=2");
    run_strict("-O2 -Wall -Wextra -Werror -std=c11 -pedantic", NULL);
    run_strict("-O0 -Wall -Wextra -Werror -Wformat=2 -Wshadow "
               "-Wmissing-prototypes -Wstrict-prototypes -Wcast-qual "
               "-Wconversion",
               NULL);
    /* -g0 after the library's -g wins. */
    run_strict("-O2 -g0 -Wall -Wextra -Werror", NULL);
    /* Link-time optimisation sees no caller of the shim's functions. */
    run_strict("-O2 -flto -Wall -Wextra -Werror", NULL);
}

/* The same with clang, when it is installed. */
TEST(output_kernel_with_strict_warnings_compiles_with_clang)
{
    if (system("command -v clang >/dev/null 2>&1") != 0) {
        printf("clang not found: skipped\n");
        return;
    }
    setenv("IRON_CC", "clang", 1);
    run_strict("-O2 -Wall -Wextra -Werror", NULL);
    run_strict("-O2 -Wall -Wextra -Werror", "-D_FORTIFY_SOURCE=2");
    run_strict("-O2 -Wall -Wextra -Werror -std=c11 -pedantic", NULL);
    run_strict("-O2 -flto -Wall -Wextra -Werror", NULL);
}
