/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * artifact.c - the public artifact calls of a jit: argument checks, the
 * specialization to save, then the kernel store (src/kstore/artifact.c),
 * which writes, reads and checks the files.
 */
#include <ctype.h>
#include <string.h>

#include "jit/jit.h"

IRON_API iron_status iron_jit_save_artifact(iron_jit *j,
                                            const iron_launch_config *config,
                                            int nparams,
                                            const iron_param *params,
                                            int nargs,
                                            iron_tensor *const *args,
                                            const char *path)
{
    if (!j || !path || !*path)
        return iron__fail(IRON_EINVAL, "iron_jit_save_artifact: %s is %s",
                          j ? "path" : "jit", j && path ? "empty" : "NULL");
    iron_spec *sp;
    iron_status s = iron_jit_specialize(j, config, nparams, params, nargs,
                                        args, &sp);
    if (s != IRON_OK)
        return s;
    return iron__public_result(
        iron__kstore_artifact_save(j->kstore, sp->prog, sp->signature, path));
}

/* sha_hex as 64 lower-case hex digits into out; -1 when it is not 64 hex
 * digits (either case, nothing else). */
static int normalize_pin(const char *sha_hex, char *out)
{
    size_t n = strlen(sha_hex);
    if (n != 64)
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (!isxdigit((unsigned char)sha_hex[i]))
            return -1;
        out[i] = (char)tolower((unsigned char)sha_hex[i]);
    }
    out[64] = '\0';
    return 0;
}

IRON_API iron_status iron_jit_load_artifact(iron_jit *j, const char *path)
{
    if (!j || !path)
        return iron__fail(IRON_EINVAL, "iron_jit_load_artifact: %s is NULL",
                          j ? "path" : "jit");
    return iron__public_result(
        iron__kstore_artifact_load(j->kstore, path, NULL));
}

IRON_API iron_status iron_jit_load_artifact_pinned(iron_jit *j,
                                                   const char *path,
                                                   const char *sha256_hex)
{
    if (!j || !path || !sha256_hex)
        return iron__fail(IRON_EINVAL,
                          "iron_jit_load_artifact_pinned: %s is NULL",
                          !j ? "jit" : !path ? "path" : "sha256_hex");
    char pin[65];
    if (normalize_pin(sha256_hex, pin) != 0)
        return iron__fail(IRON_EINVAL,
                          "iron_jit_load_artifact_pinned: '%s' is not a "
                          "SHA-256 digest (64 hex digits, as sha256sum "
                          "prints)", sha256_hex);
    return iron__public_result(
        iron__kstore_artifact_load(j->kstore, path, pin));
}
