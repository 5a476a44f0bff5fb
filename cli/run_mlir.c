/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * run_mlir.c - `iron run-mlir`: runs upstream MLIR-AIE (the
 * objectfifo-level module IRON's print(module) gives, or a test's
 * aie.mlir) on the emulator, its external kernels given as C files, on
 * inputs read from .npy files or made from a seed; writes and compares
 * the outputs as `iron run` does (run.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "iron/iron.h"

static const char usage_text[] =
    "usage: iron run-mlir FILE.mlir [--kernel NAME=FILE.c ...] "
    "[INPUT.npy ...] [options]\n"
    "  imports the module (docs/mlir.md lists what imports), runs it once\n"
    "  on the emulator, then --repeat N more times (warm), and prints the\n"
    "  times.  Its arguments are the runtime sequence's: names, types and\n"
    "  roles (in, out, inout) come from the module.\n"
    "  kernels   --kernel NAME=FILE.c: the C source of external function\n"
    "            @NAME (func.func private); one per function the cores "
    "call\n"
    "            (FILE.cc, .cpp, .cxx, .C or .c++: C++)\n"
    "  module    --device-name NAME: the aie.device @NAME of a module\n"
    "            holding several (an unnamed one is @main), as aiecc's\n"
    "            --device-name\n"
    "  device    --device D (default: the module's aie.device), --cols N\n"
    "  inputs    --in NAME=FILE.npy, or INPUT.npy files in argument order;\n"
    "            the others get seeded random data (--seed N, default 1)\n"
    "  outputs   --out NAME=FILE.npy, or --out DIR / -o DIR for\n"
    "            DIR/NAME.npy of every out and inout argument (DIR is\n"
    "            created if missing)\n"
    "  compare   --ref NAME=FILE.npy, --rtol R, --atol A (as iron run)\n"
    "  timing    --timing, --clock MHZ: the modelled NPU time too (as\n"
    "            iron run; docs/timing.md)\n"
    "  exit status: 0 ran (and matched), 1 failed or mismatched, 2 usage\n"
    "  example: iron run-mlir add_one.mlir --in arg0=x.npy -o /tmp/out\n";

/* The whole file in a NUL-terminated buffer (free it); NULL after
 * printing why. */
static char *read_file(const char *what, const char *path, size_t *len)
{
    struct stat sb;
    FILE *f = NULL;
    char *buf = NULL;
    errno = 0;
    if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode) ||
        sb.st_size > (64 << 20) || !(f = fopen(path, "rb"))) {
        fprintf(stderr, "iron run-mlir: %s '%s': %s\n", what, path,
                errno ? strerror(errno)
                      : (sb.st_size > (64 << 20) ? "larger than 64 MiB"
                                                 : "not a regular file"));
        return NULL;
    }
    buf = malloc((size_t)sb.st_size + 1);
    size_t n = buf ? fread(buf, 1, (size_t)sb.st_size, f) : 0;
    int bad = !buf || ferror(f);
    fclose(f);
    if (bad) {
        fprintf(stderr, "iron run-mlir: %s '%s': cannot read it\n", what,
                path);
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

typedef struct mlir_state {
    const char *file, *device, *cols, *device_name;
    cli_list kernels, outs;
    cli_run_io io;
    char *text;
    int nk;
    iron_mlir_kernel k[CLI_MAX_ITEMS];
    char *src[CLI_MAX_ITEMS];
    char names[CLI_MAX_ITEMS][128];
    iron_mlir *m;
    iron_jit *jit;
    int pushed;
} mlir_state;

static void release(mlir_state *st)
{
    iron_jit_free(st->jit);
    iron_mlir_free(st->m);
    if (st->pushed)
        iron_device_pop();
    for (int i = 0; i < st->nk; i++)
        free(st->src[i]);
    free(st->text);
}

/* --kernel NAME=FILE.c into st->k. */
static int read_kernels(mlir_state *st)
{
    for (int i = 0; i < st->kernels.n; i++) {
        const char *item = st->kernels.v[i], *eq = strchr(item, '=');
        if (!eq || eq == item || !eq[1] || eq - item >= 128) {
            fprintf(stderr, "iron run-mlir: --kernel '%s': expected "
                            "NAME=FILE.c\n", item);
            return EXIT_USAGE;
        }
        snprintf(st->names[i], sizeof st->names[i], "%.*s",
                 (int)(eq - item), item);
        size_t len;
        st->src[i] = read_file("--kernel", eq + 1, &len);
        if (!st->src[i])
            return 1;
        st->k[i].name = st->names[i];
        st->k[i].source = st->src[i];
        /* The library's rule for kernel files (iron_kernel_set_lang). */
        static const char *const cxx[] = { ".cc", ".cpp", ".cxx", ".C",
                                           ".c++" };
        size_t plen = strlen(eq + 1);
        for (size_t e = 0; e < sizeof cxx / sizeof cxx[0]; e++)
            if (plen > strlen(cxx[e]) &&
                strcmp(eq + 1 + plen - strlen(cxx[e]), cxx[e]) == 0)
                st->k[i].lang = IRON_KERNEL_LANG_CXX;
        st->nk = i + 1;
    }
    return 0;
}

/* --out DIR (a value without '=') is -o DIR; the others are --out
 * NAME=FILE. */
static int split_outs(mlir_state *st)
{
    for (int i = 0; i < st->outs.n; i++) {
        const char *v = st->outs.v[i];
        if (strchr(v, '=')) {
            st->io.out.v[st->io.out.n++] = v;
            continue;
        }
        if (st->io.outdir && strcmp(st->io.outdir, v) != 0) {
            fprintf(stderr, "iron run-mlir: two output folders, '%s' and "
                            "'%s'\n", st->io.outdir, v);
            return EXIT_USAGE;
        }
        st->io.outdir = v;
    }
    return 0;
}

static int run(mlir_state *st)
{
    iron_launch_config cfg = { .size = sizeof cfg };
    if (st->cols) {
        char *end;
        errno = 0;
        long v = strtol(st->cols, &end, 10);
        if (end == st->cols || *end || errno || v < 1 || v > 1024) {
            fprintf(stderr, "iron run-mlir: --cols '%s': expected a "
                            "positive number of columns\n", st->cols);
            return EXIT_USAGE;
        }
        cfg.cols = (int)v;
    }
    if (st->device && !cli_device_exists("run-mlir", st->device))
        return EXIT_USAGE;
    int rc = split_outs(st);
    if (rc == 0)
        rc = read_kernels(st);
    if (rc)
        return rc;
    size_t len = 0;
    st->text = read_file("the module", st->file, &len);
    if (!st->text)
        return 1;
    iron_mlir_import_options o = { .size = sizeof o,
                                   .device_name = st->device_name };
    if (iron_mlir_design_with(st->text, len, st->file, st->nk, st->k, &o,
                              &st->m) != IRON_OK) {
        fprintf(stderr, "iron run-mlir: %s\n", iron_last_error());
        return 1;
    }
    const char *device = st->device ? st->device : iron_mlir_device(st->m);
    st->pushed = 1;
    if (iron_device_push(device) != IRON_OK) {
        fprintf(stderr, "iron run-mlir: %s\n", iron_last_error());
        return 1;
    }
    /* Named after the file in messages and the cache. */
    const char *base = strrchr(st->file, '/');
    base = base ? base + 1 : st->file;
    if (iron_mlir_jit_create(st->m, base, &st->jit) != IRON_OK) {
        fprintf(stderr, "iron run-mlir: %s\n", iron_last_error());
        return 1;
    }
    return cli_run_jit("run-mlir", base, &st->io, st->jit, &cfg,
                       iron_mlir_args(st->m));
}

int cli_run_mlir(int argc, char **argv)
{
    static mlir_state st;
    memset(&st, 0, sizeof st);
    const cli_opt opts[] = {
        { "--kernel", CLI_LIST, &st.kernels },
        { "--in", CLI_LIST, &st.io.in },
        { "--out", CLI_LIST, &st.outs },
        { "--ref", CLI_LIST, &st.io.ref },
        { "--device", CLI_VALUE, &st.device },
        { "--device-name", CLI_VALUE, &st.device_name },
        { "--cols", CLI_VALUE, &st.cols },
        { "--seed", CLI_VALUE, &st.io.seed },
        { "--repeat", CLI_VALUE, &st.io.repeat },
        { "-o", CLI_VALUE, &st.io.outdir },
        { "--rtol", CLI_VALUE, &st.io.rtol },
        { "--atol", CLI_VALUE, &st.io.atol },
        { "--timing", CLI_FLAG, &st.io.timing },
        { "--clock", CLI_VALUE, &st.io.clock },
    };
    cli_list pos;
    int rc = cli_parse("run-mlir", argc, argv, 2, opts,
                       (int)(sizeof opts / sizeof opts[0]), &pos);
    if (rc == 1)
        return fputs(usage_text, stdout), 0;
    if (rc)
        return rc;
    if (pos.n < 1) {
        fputs("iron run-mlir: missing the module (FILE.mlir)\n\n", stderr);
        return fputs(usage_text, stderr), EXIT_USAGE;
    }
    st.file = pos.v[0];
    for (int i = 1; i < pos.n; i++)
        st.io.files.v[st.io.files.n++] = pos.v[i];
    rc = run(&st);
    release(&st);
    return rc;
}
