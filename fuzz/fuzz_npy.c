/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * fuzz_npy.c - libFuzzer target for .npy files (iron_tensor_load_npy).
 *
 * Each input is written to a temporary file and loaded.  A file that
 * loads is saved again and loaded back: the second load must give the
 * same dtype, shape and bytes (the save is the canonical form of what was
 * read, whatever version, byte order or memory order the input had), and
 * saving that again must give the same file byte for byte.
 * Properties: no crash, no undefined behaviour, no leak; a load is IRON_OK
 * or fails with a message, and a failed load gives no tensor.
 *
 * Seeds: fuzz/corpus/fuzz_npy holds one file per dtype as np.save writes
 * them (bfloat16 as '<V2'), written by FUZZ_WRITE_SEEDS=<folder>
 * build-fuzz/fuzz_npy, and five made by hand the way NumPy lays them out:
 * big-endian, Fortran order, 0-d, format 2.0 and 3.0.
 *
 * Run: make fuzz-npy.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "iron/iron.h"

static char in_path[256], out_path[256], again_path[256];

/* The whole of a small file (the saves here), malloc'd; *len its size. */
static unsigned char *read_all(const char *p, size_t *len)
{
    FILE *f = fopen(p, "rb");
    FUZZ_CHECK(f != NULL, "cannot read back %s", p);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    unsigned char *buf = malloc((size_t)n + 1);
    FUZZ_CHECK(buf && fread(buf, 1, (size_t)n, f) == (size_t)n,
               "cannot read back %s", p);
    fclose(f);
    *len = (size_t)n;
    return buf;
}

static int same_tensor(const iron_tensor *a, const iron_tensor *b)
{
    iron_shape sa = iron_tensor_shape(a), sb = iron_tensor_shape(b);
    if (iron_tensor_dtype(a) != iron_tensor_dtype(b) || sa.ndim != sb.ndim)
        return 0;
    for (int k = 0; k < sa.ndim; k++)
        if (sa.dims[k] != sb.dims[k])
            return 0;
    return memcmp(iron_tensor_data((iron_tensor *)(uintptr_t)a),
                  iron_tensor_data((iron_tensor *)(uintptr_t)b),
                  iron_tensor_nbytes(a)) == 0;
}

/* FUZZ_WRITE_SEEDS: one file per dtype and form, saved by the library
 * (byte for byte what np.save writes, as test_npy.c checks). */
static void write_seeds(const char *dir)
{
    static const iron_dtype dts[] = { IRON_INT8,    IRON_UINT8,  IRON_INT16,
                                      IRON_UINT16,  IRON_INT32,  IRON_UINT32,
                                      IRON_INT64,   IRON_UINT64, IRON_FLOAT32,
                                      IRON_FLOAT64, IRON_BFLOAT16 };
    for (size_t i = 0; i < sizeof dts / sizeof dts[0]; i++) {
        iron_tensor *flat, *t;
        char file[512];
        if (iron_tensor_arange(dts[i], 0, 6, 1, &flat) != IRON_OK)
            goto fail;
        iron_status rs = iron_tensor_reshape(flat, IRON_SHAPE(2, 3), &t);
        iron_tensor_free(flat);
        if (rs != IRON_OK)
            goto fail;
        snprintf(file, sizeof file, "%s/%s.npy", dir,
                 iron_dtype_name(dts[i]));
        if (iron_tensor_save_npy(t, file) != IRON_OK)
            goto fail;
        iron_tensor_free(t);
    }
    exit(0);
fail:
    fprintf(stderr, "fuzz_npy: writing seeds failed: %s\n",
            iron_last_error());
    exit(1);
}

static void cleanup(void)
{
    unlink(in_path);
    unlink(out_path);
    unlink(again_path);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    const char *seeds = getenv("FUZZ_WRITE_SEEDS");
    if (seeds && *seeds)
        write_seeds(seeds);
    const char *base = fuzz_scratch_base();
    long pid = (long)getpid();
    snprintf(in_path, sizeof in_path, "%s/iron-fuzz-npy-%ld.npy", base, pid);
    snprintf(out_path, sizeof out_path, "%s/iron-fuzz-npy-%ld-out.npy", base,
             pid);
    snprintf(again_path, sizeof again_path, "%s/iron-fuzz-npy-%ld-again.npy",
             base, pid);
    atexit(cleanup);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_write_file(in_path, data, size);
    iron_tensor *t = (iron_tensor *)(uintptr_t)1;  /* must become NULL */
    iron_status s = iron_tensor_load_npy(in_path, &t);
    FUZZ_FAILED_WITH_MESSAGE(s, "iron_tensor_load_npy");
    if (s != IRON_OK) {
        FUZZ_CHECK(t == NULL, "a failed load gave a tensor");
        return 0;
    }
    FUZZ_CHECK(iron_last_error()[0] == '\0', "a load succeeded with a message");
    /* The save is canonical: save, load, save again give the same. */
    FUZZ_CHECK(iron_tensor_save_npy(t, out_path) == IRON_OK,
               "saving a loaded tensor failed: %s", iron_last_error());
    iron_tensor *u = NULL;
    FUZZ_CHECK(iron_tensor_load_npy(out_path, &u) == IRON_OK,
               "loading a saved tensor failed: %s", iron_last_error());
    FUZZ_CHECK(same_tensor(t, u), "save then load changed the tensor");
    FUZZ_CHECK(iron_tensor_save_npy(u, again_path) == IRON_OK,
               "saving again failed: %s", iron_last_error());
    size_t n1, n2;
    unsigned char *f1 = read_all(out_path, &n1), *f2 = read_all(again_path, &n2);
    FUZZ_CHECK(n1 == n2 && memcmp(f1, f2, n1) == 0,
               "two saves of one tensor differ");
    free(f1);
    free(f2);
    iron_tensor_free(t);
    iron_tensor_free(u);
    return 0;
}
