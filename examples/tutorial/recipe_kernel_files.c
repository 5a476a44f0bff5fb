/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * recipe_kernel_files.c - cookbook: a kernel kept in its own .c file with a
 * header beside it, given to the design with iron_kernel_new_file, and the
 * disk cache noticing when the header changes: the cache key covers the
 * content of every header the kernel includes.
 *
 * usage: recipe_kernel_files [KERNEL_DIR]
 *        (default KERNEL_DIR: examples/tutorial/kernels)
 * It works on copies in a fresh temporary folder, with a private cache.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

#include <iron/iron.h>

#include "tutorial.h"

/* A whole file as a string (malloc'd), or NULL. */
static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = (char *)malloc(65536);
    size_t n = buf ? fread(buf, 1, 65535, f) : 0;
    fclose(f);
    if (buf)
        buf[n] = '\0';
    return buf;
}

static int write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    int good = fputs(text, f) >= 0;
    return fclose(f) == 0 && good;
}

/* What the design needs to find the kernel: its folder. */
typedef struct kernel_dir {
    char path[512];
} kernel_dir;

static int scale_design(iron_design *d, void *user)
{
    const kernel_dir *dir = (const kernel_dir *)user;
    char file[600];
    snprintf(file, sizeof file, "%s/scale.c", dir->path);
    int64_t n = iron_design_arg_numel(d, 0);
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(64), 2);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(64), 2);
    /* Read at every build; "scale.h" is found beside the file.  No
     * include folders: pass them as the last two arguments. */
    iron_kernel *k = iron_kernel_new_file(d, "scale", file,
                                          "int32*, int32*, int32", 0, NULL);
    iron_worker *w = iron_worker_new(
        d, "scale", k, n / 64,
        IRON_ARGS(iron_arg_fifo(iron_fifo_cons(in)),
                  iron_arg_fifo(iron_fifo_prod(out)), iron_arg_int(64)));
    iron_rt_start(d, w);
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

/* A fresh jit (as a new process would have) with the private cache: one
 * call; prints where the kernel came from; returns y[1]. */
static double run_once(kernel_dir *dir, const char *cache, const char *label)
{
    iron_jit *j = NULL;
    iron_jit_options opts = {
        .size = sizeof(iron_jit_options),
        .name = "scale",
        .args = "in x: int32[N], out y: int32[N]",
        .user = dir,
        .disk_cache = 1, /* on even under IRON_CACHE=0 */
        .cache_dir = cache,
    };
    ok(iron_jit_create(scale_design, &opts, &j), "iron_jit_create");
    iron_tensor *x = NULL, *y = NULL;
    ok(iron_tensor_arange(IRON_INT32, 0, 256, 1, &x),
       "iron_tensor_arange");
    ok(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(256), &y),
       "iron_tensor_zeros");
    ok(IRON_CALL(j, x, y), label);
    iron_jit_stats st = jit_stats(j);
    double y1 = 0;
    ok(iron_tensor_get_element(y, 1, &y1), "iron_tensor_get_element");
    printf("%-15s y[1] = %g, kernels compiled %llu, disk cache hits %llu\n",
           label, y1, (unsigned long long)st.kernel_compiles,
           (unsigned long long)st.disk_hits);
    iron_tensor_free(x);
    iron_tensor_free(y);
    iron_jit_free(j);
    return y1;
}

static int remove_one(const char *path, const struct stat *st, int flag,
                      struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

int main(int argc, char **argv)
{
    const char *src_dir = argc > 1 ? argv[1] : "examples/tutorial/kernels";
    char tmpl[] = "/tmp/iron-tutorial-XXXXXX";
    if (!mkdtemp(tmpl)) {
        perror("mkdtemp");
        return 1;
    }
    kernel_dir dir = { .path = "" };
    char cache[600], path[600], header_path[600];
    snprintf(dir.path, sizeof dir.path, "%s/kernels", tmpl);
    snprintf(cache, sizeof cache, "%s/cache", tmpl);
    snprintf(header_path, sizeof header_path, "%s/scale.h", dir.path);
    if (mkdir(dir.path, 0700) != 0)
        return 1;

    /* Copies of the kernel and its header, which the program edits. */
    const char *names[2] = { "scale.c", "scale.h" };
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%s", src_dir, names[i]);
        char *text = read_text(path);
        if (!text) {
            fprintf(stderr, "cannot read %s (give the kernels' folder as "
                            "the first argument)\n", path);
            return 1;
        }
        snprintf(path, sizeof path, "%s/%s", dir.path, names[i]);
        if (!write_text(path, text))
            return 1;
        free(text);
    }

    double first = run_once(&dir, cache, "first run:");
    double again = run_once(&dir, cache, "same files:");

    /* Edit the header only: SCALE_FACTOR 3 -> 5. */
    char *header = read_text(header_path);
    char *at = header ? strstr(header, "SCALE_FACTOR 3") : NULL;
    if (!at)
        return 1;
    at[strlen("SCALE_FACTOR ")] = '5';
    if (!write_text(header_path, header))
        return 1;
    free(header);
    double edited = run_once(&dir, cache, "header edited:");

    /* A header that is not there: the compiler's message names the
     * file and the line. */
    if (remove(header_path) != 0)
        return 1;
    iron_jit *j = NULL;
    iron_jit_options opts = {
        .size = sizeof(iron_jit_options),
        .name = "scale",
        .args = "in x: int32[N], out y: int32[N]",
        .user = &dir,
        .disk_cache = -1,
    };
    ok(iron_jit_create(scale_design, &opts, &j), "iron_jit_create");
    iron_tensor *x = NULL, *y = NULL;
    ok(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(256), &x), "zeros");
    ok(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(256), &y), "zeros");
    iron_status s = IRON_CALL(j, x, y);
    printf("without scale.h: %s: %s\n", iron_status_name(s),
           iron_last_error());
    iron_tensor_free(x);
    iron_tensor_free(y);
    iron_jit_free(j);

    nftw(tmpl, remove_one, 16, FTW_DEPTH | FTW_PHYS);
    return first == 3 && again == 3 && edited == 5 && s == IRON_ECOMPILE
               ? 0
               : 1;
}
