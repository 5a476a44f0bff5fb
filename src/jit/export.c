/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * export.c - iron_jit_export_mlir: the specialization a launch with these
 * arguments would use, built up to placement (design, verify, place; no C
 * compiler: check.c's front), written as an MLIR-AIE project for
 * upstream's toolchain (src/mlir/export*.c makes the files in memory).
 * The folder is created if missing and each file replaced atomically
 * (src/core/atomic.h): a reader never sees half of one, and nothing is
 * written unless every file was made.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <string.h>
#include <sys/stat.h>

#include "core/atomic.h"
#include "jit/jit.h"
#include "mlir/export.h"

#define FN "iron_jit_export_mlir"

typedef struct export_ctx {
    const iron__mlir_target *target;
    int generic;
    iron__mlir_bundle files;
} export_ctx;

static iron_status make_files(const iron_program *p, const char *signature,
                              void *ctx)
{
    export_ctx *c = ctx;
    return iron__mlir_export_bundle(p, signature, c->target, c->generic,
                                    &c->files);
}

/* mkdir -p (mode 0777, the umask applies: these are the user's files). */
static iron_status make_dirs(const char *path)
{
    char buf[4096];
    size_t n = strlen(path);
    if (n >= sizeof buf)
        return iron__fail(IRON_EINVAL, "%s: folder '%.64s...' is too long",
                          FN, path);
    memcpy(buf, path, n + 1);
    for (size_t i = 1; i <= n; i++) {
        if (buf[i] != '/' && buf[i] != '\0')
            continue;
        char c = buf[i];
        buf[i] = '\0';
        if (mkdir(buf, 0777) != 0 && errno != EEXIST)
            return iron__fail(IRON_EIO, "%s: cannot create folder '%s': %s",
                              FN, buf, strerror(errno));
        buf[i] = c;
    }
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
        return iron__fail(IRON_EIO, "%s: '%s' is not a folder", FN, path);
    return IRON_OK;
}

static iron_status file_body(iron__atomic_out *o, void *ctx)
{
    iron__atomic_puts(o, ctx);
    return IRON_OK;
}

static iron_status write_all(const char *dir, const iron__mlir_bundle *b)
{
    iron_status s = make_dirs(dir);
    /* "out/" names its files "out/aie.mlir", not "out//aie.mlir" (in the
     * messages too); "/" stays "/". */
    int dlen = (int)strlen(dir);
    while (dlen > 1 && dir[dlen - 1] == '/')
        dlen--;
    const char *sep = dlen == 1 && dir[0] == '/' ? "" : "/";
    for (int i = 0; i < b->n && s == IRON_OK; i++) {
        iron__str path = { 0 };
        iron__str_printf(&path, "%.*s%s%s", dlen, dir, sep, b->files[i].path);
        if (path.oom) {
            s = iron__fail(IRON_ENOMEM, "%s: out of memory", FN);
            break;
        }
        /* The file's own folder (kernels/, include/iron/). */
        char *slash = strrchr(path.p, '/');
        if (slash && slash > path.p + dlen) {
            *slash = '\0';
            s = make_dirs(path.p);
            *slash = '/';
        }
        if (s == IRON_OK) {
            iron__atomic_file a = { .dirfd = AT_FDCWD,
                                     .name = path.p,
                                     .what = "exported file",
                                     .mode = 0666 };
            s = iron__atomic_write(&a, file_body, b->files[i].text);
            if (s != IRON_OK)
                iron__fail_context(s, "%s", FN);
        }
        iron__str_free(&path);
    }
    return s;
}

IRON_API iron_status iron_jit_export_mlir(iron_jit *j,
                                          const iron_launch_config *config,
                                          int nparams,
                                          const iron_param *params,
                                          int nargs, iron_tensor *const *args,
                                          const iron_mlir_options *opts,
                                          const char *dir)
{
    if (!j)
        return iron__fail(IRON_EINVAL, "%s: jit is NULL", FN);
    if (!dir || !dir[0])
        return iron__fail(IRON_EINVAL, "%s: dir is %s", FN,
                          dir ? "empty" : "NULL");
    export_ctx c = { NULL, 0, { 0 } };
    const char *upstream = NULL;
    if (opts) {
        if (opts->size < sizeof(size_t))
            return iron__fail(IRON_EINVAL, "%s: opts.size is %zu; set it "
                                           "to sizeof(iron_mlir_options)",
                              FN, opts->size);
        if (opts->size >=
            offsetof(iron_mlir_options, upstream) + sizeof opts->upstream)
            upstream = opts->upstream;
        if (opts->size >=
            offsetof(iron_mlir_options, generic) + sizeof opts->generic)
            c.generic = opts->generic != 0;
    }
    iron_status s = iron__mlir_target_find(upstream, &c.target);
    if (s != IRON_OK)
        return iron__public_result(iron__fail_context(s, "%s", FN));
    s = iron__jit_place_only(j, config, nparams, params, nargs, args,
                             make_files, &c);
    if (s == IRON_OK)
        s = write_all(dir, &c.files);
    iron__mlir_bundle_free(&c.files);
    return iron__public_result(s);
}
