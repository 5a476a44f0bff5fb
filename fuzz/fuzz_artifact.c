/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * fuzz_artifact.c - libFuzzer target for loading ahead-of-time artifacts.
 *
 * One jit (a passthrough design with one copy kernel, named
 * "fuzz_artifact", disk cache off) is made in LLVMFuzzerInitialize.  Each
 * input is written to a temporary file and loaded with
 * iron_jit_load_artifact; inputs that start with the kernel payload's
 * magic ("IRONPAY1") are also given straight to the payload decoder
 * (iron__kstore_payload_decode), which a file only reaches with valid
 * checksums.
 * Properties: no crash, no undefined behaviour, no leak; a load is
 * IRON_OK or fails with a message.  The jit is remade after 64 successful
 * loads so that its artifact list stays short.
 *
 * Seeds: FUZZ_WRITE_SEEDS=<folder> build-fuzz/fuzz_artifact compiles the
 * design, saves a real artifact with iron_jit_save_artifact and writes it
 * (and its payload and a truncated copy) into the folder, then exits.
 * fuzz/corpus/fuzz_artifact was made that way.
 *
 * FUZZ_ARTIFACT_VERBOSE=1 prints each outcome.
 *
 * Run: make fuzz-artifact.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/core.h"
#include "fuzz.h"
#include "iron/iron.h"
#include "kstore/payload.h"

static const char copy_src[] =
    "#include <stdint.h>\n"
    "#include <string.h>\n"
    "void fuzz_copy(const uint8_t *in, uint8_t *out, int32_t n)\n"
    "{\n"
    "    memcpy(out, in, (size_t)n);\n"
    "}\n";

#define OBJ 64

static int passthrough(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_fifo *in = iron_fifo_new(d, "in", IRON_UINT8, IRON_SHAPE(OBJ), 2);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_UINT8, IRON_SHAPE(OBJ), 2);
    iron_kernel *k = iron_kernel_new(d, "fuzz_copy", copy_src,
                                     "uint8*, uint8*, int32");
    iron_worker *w = iron_worker_new(
        d, "copy", k, n / OBJ,
        IRON_ARGS(iron_arg_fifo(iron_fifo_cons(in)),
                  iron_arg_fifo(iron_fifo_prod(out)), iron_arg_int(OBJ)));
    iron_rt_start(d, w);
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

static iron_jit *jit;
static int verbose;   /* FUZZ_ARTIFACT_VERBOSE=1: print each outcome */
static int loaded;
static char path[256];

static void make_jit(void)
{
    iron_jit_options o;
    memset(&o, 0, sizeof o);
    o.size = sizeof o;
    o.name = "fuzz_artifact";
    o.args = "in input: uint8[N], out output: uint8[N]";
    o.disk_cache = -1;
    if (iron_jit_create(passthrough, &o, &jit) != IRON_OK) {
        fprintf(stderr, "fuzz_artifact: %s\n", iron_last_error());
        exit(1);
    }
    loaded = 0;
}

/* FUZZ_WRITE_SEEDS: a real artifact, its payload, and a truncated one. */
static void write_seeds(const char *dir)
{
    iron_tensor *a, *b;
    if (iron_tensor_zeros(IRON_UINT8, IRON_SHAPE(4 * OBJ), &a) != IRON_OK ||
        iron_tensor_zeros(IRON_UINT8, IRON_SHAPE(4 * OBJ), &b) != IRON_OK)
        goto fail;
    char file[512];
    snprintf(file, sizeof file, "%s/real.artifact", dir);
    if (iron_jit_save_artifact(jit, NULL, IRON_NO_PARAMS, IRON_TENSORS(a, b),
                               file) != IRON_OK)
        goto fail;
    iron_tensor_free(a);
    iron_tensor_free(b);
    FILE *f = fopen(file, "rb");
    if (!f)
        goto fail;
    static unsigned char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    fprintf(stderr, "fuzz_artifact: %s is %zu bytes\n", file, n);
    /* The payload starts at its magic (a heuristic that is good enough
     * for a seed; the target itself knows no layout). */
    const unsigned char *pay = memmem(buf, n, IRON__KSTORE_PAYLOAD_MAGIC, 8);
    if (pay) {
        snprintf(file, sizeof file, "%s/payload", dir);
        fuzz_write_file(file, pay, n - (size_t)(pay - buf));
    }
    snprintf(file, sizeof file, "%s/truncated.artifact", dir);
    fuzz_write_file(file, buf, n / 2);
    exit(0);
fail:
    fprintf(stderr, "fuzz_artifact: writing seeds failed: %s\n",
            iron_last_error());
    exit(1);
}

static void cleanup(void)
{
    unlink(path);
    iron_jit_free(jit);
    jit = NULL;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    const char *v = getenv("FUZZ_ARTIFACT_VERBOSE");
    verbose = v && *v && strcmp(v, "0") != 0;
    make_jit();
    const char *seeds = getenv("FUZZ_WRITE_SEEDS");
    if (seeds && *seeds)
        write_seeds(seeds);
    const char *base = fuzz_scratch_base();
    snprintf(path, sizeof path, "%s/iron-fuzz-artifact-%ld", base,
             (long)getpid());
    atexit(cleanup);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_write_file(path, data, size);
    iron_status st = iron_jit_load_artifact(jit, path);
    FUZZ_FAILED_WITH_MESSAGE(st, "iron_jit_load_artifact");
    if (verbose)
        fprintf(stderr, "fuzz_artifact: load: %s\n",
                st == IRON_OK ? "ok" : iron_last_error());
    if (st == IRON_OK && ++loaded >= 64) {
        iron_jit_free(jit);
        make_jit();
    }

    if (size >= 8 && memcmp(data, IRON__KSTORE_PAYLOAD_MAGIC, 8) == 0) {
        /* A copy of exactly size bytes, so that ASan sees any overread. */
        unsigned char *copy = malloc(size);
        FUZZ_CHECK(copy, "out of memory");
        memcpy(copy, data, size);
        iron__kstore_payload pl;
        const char *why = NULL;
        iron_status sp = iron__kstore_payload_decode(copy, size, &pl, &why);
        FUZZ_FAILED_WITH_MESSAGE(sp, "iron__kstore_payload_decode");
        if (verbose)
            fprintf(stderr, "fuzz_artifact: decode: %s\n",
                    sp == IRON_OK ? "ok" : why);
        if (sp != IRON_OK)
            FUZZ_CHECK(why && why[0], "the payload decoder failed without "
                                      "a reason");
        else
            FUZZ_CHECK(pl.nobjs >= 0 && pl.nobjs <= pl.nkernels,
                       "decoded %d objects for %d kernels", pl.nobjs,
                       pl.nkernels);
        iron__kstore_payload_free(&pl);
        free(copy);
    }
    return 0;
}
