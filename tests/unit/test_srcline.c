/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_srcline.c - code address -> "function at file:line": kernels
 * compiled and loaded through the library (their files already deleted),
 * a shared object whose file is kept, the test binary's own code, and
 * addresses in no object.  These run the real system C compiler.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>

#include "compile/compile.h"
#include "compile/srcline.h"
#include "compile/wrapper.h"
#include "core/core.h"
#include "test.h"

/* ---- helpers ---------------------------------------------------------- */

/* Line 3 opens the kernel; line 5 takes a return address in it. */
static const char probe_source[] =
    "static void *probe_where(void) { return __builtin_return_address(0); }\n"
    "\n"
    "void probe_kernel(int64_t *out) {\n"
    "    out[0] = 1;\n"
    "    out[1] = (int64_t)(intptr_t)probe_where();\n"
    "}\n";

static iron__kobj *compile_kernel(const char *entry, const char *source,
                                  const char *cflags)
{
    iron__ktype types[4];
    iron__kernel_src src;
    memset(&src, 0, sizeof src);
    ASSERT_OK(iron__ktypes_parse("int64*", types, 4, &src.nargs));
    src.entry = entry;
    src.source = source;
    src.args = types;
    src.cflags = cflags;
    iron__kobj *o = NULL;
    ASSERT_OK(iron__kernel_compile(&src, &o));
    ASSERT(o != NULL);
    return o;
}

/* Function pointers as the addresses iron__srcline takes (a fault hands
 * it a pc, not a function). */
static const void *raw_entry_pc(const iron__kobj *o)
{
    void (*fn)(void) = iron__kobj_raw_entry(o);
    ASSERT(fn != NULL);
    const void *pc;
    memcpy(&pc, &fn, sizeof pc);
    return pc;
}

static const void *wrapper_pc(const iron__kobj *o)
{
    iron__kernel_fn fn = iron__kobj_entry(o);
    ASSERT(fn != NULL);
    const void *pc;
    memcpy(&pc, &fn, sizeof pc);
    return pc;
}

/* Whether this process may open /proc/self/map_files entries (root, or
 * CAP_CHECKPOINT_RESTORE): only then can the line of an object whose
 * file is deleted be found. */
static int map_files_readable(void)
{
    FILE *f = fopen("/proc/self/maps", "r");
    ASSERT(f != NULL);
    char line[512];
    unsigned long start = 0, end = 0;
    int ok = 0;
    while (!ok && fgets(line, sizeof line, f))
        if (sscanf(line, "%lx-%lx", &start, &end) == 2 && strchr(line, '/'))
            ok = 1;
    fclose(f);
    ASSERT(ok);
    char path[64];
    snprintf(path, sizeof path, "/proc/self/map_files/%lx-%lx", start, end);
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return 0;
    close(fd);
    return 1;
}

/* For a kernel whose file is gone: the loader remembered its bytes, so
 * the line is found whether or not this process may read map_files. */
static void expect_deleted(const void *pc, const char *fn, int line,
                           const char *file)
{
    char buf[256], want[256];
    int r = iron__srcline(pc, buf, sizeof buf);
    snprintf(want, sizeof want, "%s at %s:%d", fn, file, line);
    ASSERT_STR_EQ(buf, want);
    ASSERT_EQ(r, 1);
}

static int count_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    ASSERT(d != NULL);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

/* ---- kernels ---------------------------------------------------------- */

TEST(srcline_kernel_entry)
{
    iron__kobj *o = compile_kernel("probe_kernel", probe_source, "-O0 -g");
    /* At -O0 the entry address is the line that opens the function. */
    expect_deleted(raw_entry_pc(o), "probe_kernel", 3, "probe_kernel.c");
    iron__kobj_free(o);
}

TEST(srcline_kernel_return_address)
{
    iron__kobj *o = compile_kernel("probe_kernel", probe_source, "-O0 -g");
    int64_t out[2] = { 0, 0 };
    iron__kval args[1] = { { .p = out } };
    iron__kobj_entry(o)(args);
    ASSERT_EQ(out[0], 1);
    const void *ret = (const void *)(intptr_t)out[1];
    /* A return address in the middle of the kernel, after the call on
     * line 5; it still lies on that line at -O0. */
    ASSERT((uintptr_t)ret > (uintptr_t)raw_entry_pc(o));
    expect_deleted(ret, "probe_kernel", 5, "probe_kernel.c");
    iron__kobj_free(o);
}

TEST(srcline_kernel_wrapper)
{
    if (!map_files_readable())
        return;                /* the wrapper is exported: nothing new */
    iron__kobj *o = compile_kernel("probe_kernel", probe_source, "-O0 -g");
    char buf[256];
    ASSERT_EQ(iron__srcline(wrapper_pc(o), buf, sizeof buf), 1);
    ASSERT_CONTAINS(buf, IRON__KWRAP_SYMBOL " at probe_kernel-declared-"
                         "signature:");
    iron__kobj_free(o);
}

TEST(srcline_kernel_without_debug_info)
{
    /* No debug info (-g0 overrides any default -g): the symbol and the
     * object, no line. */
    iron__kobj *o = compile_kernel("probe_kernel", probe_source, "-O0 -g0");
    char buf[256];
    ASSERT_EQ(iron__srcline(raw_entry_pc(o), buf, sizeof buf), 0);
    ASSERT(strncmp(buf, "probe_kernel (+0x0) in k", 24) == 0);
    ASSERT_CONTAINS(buf, ".so");
    iron__kobj_free(o);
}

TEST(srcline_kernel_reloaded)
{
    /* Objects come and go, often at the addresses of the ones before:
     * each answer is about the object loaded now. */
    for (int i = 0; i < 3; i++) {
        char entry[32], source[256], file[40];
        snprintf(entry, sizeof entry, "reload%d", i);
        snprintf(file, sizeof file, "%s.c", entry);
        int pad = 2 + i * 3;
        snprintf(source, sizeof source, "%.*svoid %s(int64_t *out) {\n"
                 "    out[0] = %d;\n}\n", pad, "\n\n\n\n\n\n\n\n\n\n\n\n",
                 entry, i);
        iron__kobj *o = compile_kernel(entry, source, "-O0 -g");
        expect_deleted(raw_entry_pc(o), entry, pad + 1, file);
        iron__kobj_free(o);
    }
}

/* ---- a shared object whose file is kept -------------------------------- */

TEST(srcline_kept_file)
{
    const char *dir = test_temp_dir("srcline");
    char src[128], so[128], cmd[512];
    snprintf(src, sizeof src, "%s/kept.c", dir);
    snprintf(so, sizeof so, "%s/kept.so", dir);
    FILE *f = fopen(src, "w");
    ASSERT(f != NULL);
    fputs("int kept_other(int x);\n"
          "int kept_other(int x) { return x + 1; }\n"
          "\n"
          "int kept_fn(int x);\n"
          "int kept_fn(int x) {\n"
          "    return x * 2;\n"
          "}\n", f);
    ASSERT_EQ(fclose(f), 0);
    snprintf(cmd, sizeof cmd, "%s -O0 -g -fPIC -shared -o %s %s", iron__cc(),
             so, src);
    ASSERT_EQ(system(cmd), 0);

    void *dl = dlopen(so, RTLD_NOW | RTLD_LOCAL);
    ASSERT(dl != NULL);
    const void *pc = dlsym(dl, "kept_fn");
    ASSERT(pc != NULL);
    /* Found by its path, whoever runs the test. */
    char buf[256];
    ASSERT_EQ(iron__srcline(pc, buf, sizeof buf), 1);
    ASSERT_STR_EQ(buf, "kept_fn at kept.c:5");

    /* A different file at the same path is not taken for it. */
    ASSERT_EQ(unlink(so), 0);
    f = fopen(so, "w");
    ASSERT(f != NULL);
    fputs("not an ELF file\n", f);
    ASSERT_EQ(fclose(f), 0);
    /* No bytes were remembered for this object (it did not come through
     * the loader): the line needs map_files, else the symbol is named. */
    int r = iron__srcline(pc, buf, sizeof buf);
    if (map_files_readable()) {
        ASSERT_STR_EQ(buf, "kept_fn at kept.c:5");
        ASSERT_EQ(r, 1);
    } else {
        ASSERT(strncmp(buf, "kept_fn (+0x", 12) == 0);
        ASSERT_EQ(r, 0);
    }

    dlclose(dl);
    unlink(so);
    unlink(src);
    ASSERT_EQ(rmdir(dir), 0);
}

/* ---- other addresses -------------------------------------------------- */

__attribute__((noinline)) static int own_function(int x)
{
    return x * 3 + 1;
}

TEST(srcline_own_code)
{
    int (*fn)(int) = own_function;
    ASSERT_EQ(fn(1), 4);
    const void *pc;
    memcpy(&pc, &fn, sizeof pc);
    char buf[256];
    int r = iron__srcline(pc, buf, sizeof buf);
    /* The test binary keeps its symbol table; its line table depends on
     * the build's flags. */
    ASSERT_CONTAINS(buf, "own_function");
    if (r == 1)
        ASSERT_CONTAINS(buf, "test_srcline.c:");
    else
        ASSERT_EQ(r, 0);
}

TEST(srcline_no_object)
{
    char buf[64];
    int local = 0;
    void *heap = malloc(16);
    ASSERT(heap != NULL);
    const void *none[] = { NULL, (const void *)16, &local, heap };
    for (size_t i = 0; i < IRON__COUNT_OF(none); i++) {
        memset(buf, 'x', sizeof buf);
        ASSERT_EQ(iron__srcline(none[i], buf, sizeof buf), 0);
        ASSERT_STR_EQ(buf, "");
    }
    free(heap);
}

TEST(srcline_buffer_sizes)
{
    iron__kobj *o = compile_kernel("probe_kernel", probe_source, "-O0 -g");
    const void *pc = raw_entry_pc(o);
    int full = iron__srcline(pc, NULL, 0);
    char buf[8];
    memset(buf, 'x', sizeof buf);
    /* Truncated text, same answer. */
    ASSERT_EQ(iron__srcline(pc, buf, sizeof buf), full);
    ASSERT_EQ(strlen(buf), 7);
    ASSERT(strncmp(buf, "probe_k", 7) == 0);
    memset(buf, 'x', sizeof buf);
    ASSERT_EQ(iron__srcline(pc, buf, 1), full);
    ASSERT_EQ(buf[0], '\0');
    ASSERT_EQ(buf[1], 'x');
    iron__kobj_free(o);
}

TEST(srcline_releases_everything)
{
    iron__kobj *o = compile_kernel("probe_kernel", probe_source, "-O0 -g");
    const void *pc = raw_entry_pc(o);
    char buf[128];
    int first = iron__srcline(pc, buf, sizeof buf);
    int fds = count_fds();
    for (int i = 0; i < 50; i++)
        ASSERT_EQ(iron__srcline(pc, buf, sizeof buf), first);
    ASSERT_EQ(count_fds(), fds);
    iron__kobj_free(o);
    test_assert_no_leaks();
}

typedef struct srcline_job {
    const void *pc;
    int fails;
} srcline_job;

static void *srcline_thread(void *arg)
{
    srcline_job *job = arg;
    char first[128], buf[128];
    int r0 = iron__srcline(job->pc, first, sizeof first);
    for (int i = 0; i < 20; i++)
        if (iron__srcline(job->pc, buf, sizeof buf) != r0 ||
            strcmp(buf, first) != 0 || !first[0])
            job->fails++;
    return NULL;
}

TEST(srcline_threads)
{
    iron__kobj *o = compile_kernel("probe_kernel", probe_source, "-O0 -g");
    srcline_job jobs[4];
    pthread_t th[4];
    for (int i = 0; i < 4; i++) {
        jobs[i].pc = raw_entry_pc(o);
        jobs[i].fails = 0;
        ASSERT_EQ(pthread_create(&th[i], NULL, srcline_thread, &jobs[i]), 0);
    }
    for (int i = 0; i < 4; i++) {
        ASSERT_EQ(pthread_join(th[i], NULL), 0);
        ASSERT_EQ(jobs[i].fails, 0);
    }
    iron__kobj_free(o);
}
