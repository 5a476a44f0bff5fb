/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * fuzz_kexpr.c - libFuzzer target for a kernel's declared cost
 * (src/kexpr): the formula's compiler and its per-call evaluation.
 *
 * Input: the formula, then optionally a NUL byte and up to 8 bytes per
 * argument value (little-endian int64, missing bytes 0).  The kernel is
 * declared "int16* in, int16* out, int32 n, int16 k, float32 f, uint8,
 * int64 big".
 * Properties: no crash, no undefined behaviour, no leak; compile and
 * evaluate each succeed or fail with a message; a compiled formula's
 * copy evaluates to the same value and status as the formula; a result
 * is never negative.
 *
 * Run: make fuzz-kexpr (or build-fuzz/fuzz_kexpr).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "kexpr/kexpr.h"

static const iron__kexpr_param params[] = {
    { "in", IRON_INT16, 1, NULL },  { "out", IRON_INT16, 1, NULL },
    { "n", IRON_INT32, 0, NULL },   { "k", IRON_INT16, 0, NULL },
    { "f", IRON_FLOAT32, 0, NULL }, { NULL, IRON_UINT8, 0, NULL },
    { "big", IRON_INT64, 0, NULL },
};
#define NPARAMS 7

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    size_t tlen = strlen(text);
    iron_kernel_value vals[NPARAMS];
    memset(vals, 0, sizeof vals);
    const uint8_t *v = data + tlen + 1;
    size_t left = tlen < size ? size - tlen - 1 : 0;
    for (int a = 0; a < NPARAMS && left > 0; a++) {
        uint64_t u = 0;
        for (int b = 0; b < 8 && left > 0; b++, left--)
            u |= (uint64_t)*v++ << (8 * b);
        vals[a].i = (int64_t)u;
    }

    iron__kexpr *e = (iron__kexpr *)(uintptr_t)1;
    iron_status st = iron__kexpr_compile(text, "fuzz", NPARAMS, params, &e);
    FUZZ_FAILED_WITH_MESSAGE(st, "iron__kexpr_compile");
    FUZZ_CHECK((st == IRON_OK) == (e != NULL),
               "iron__kexpr_compile returned %s with expression %p",
               iron_status_name(st), (void *)e);
    if (e) {
        int64_t c = -1, c2 = -1;
        st = iron__kexpr_eval(e, vals, &c);
        FUZZ_FAILED_WITH_MESSAGE(st, "iron__kexpr_eval");
        FUZZ_CHECK(c >= 0, "cycles %lld", (long long)c);
        FUZZ_CHECK(st == IRON_OK || c == 0, "failed with cycles %lld",
                   (long long)c);
        iron__kexpr *copy = iron__kexpr_copy(e);
        if (copy) {
            iron_status st2 = iron__kexpr_eval(copy, vals, &c2);
            FUZZ_CHECK(st2 == st && c2 == c, "the copy gives %s %lld, the "
                       "original %s %lld", iron_status_name(st2),
                       (long long)c2, iron_status_name(st), (long long)c);
            FUZZ_CHECK(strcmp(iron__kexpr_text(copy), text) == 0,
                       "the copy's text differs");
        }
        iron__kexpr_free(copy);
        iron__kexpr_free(e);
    }
    free(text);
    return 0;
}
