/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * cc.c - runs the C or C++ compiler as a child process (compile layer):
 * builds its argument vector, spawns it, waits, and reports its
 * diagnostics.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "compile/cc.h"
#include "compile/compile.h"
#include "core/core.h"
#include "core/env.h"

/* The status message is 4 KiB per thread and outer layers prefix it with
 * context, so the diagnostics get about 2.5 KiB and the command line a few
 * hundred bytes; the first errors are the useful ones. */
#define DIAG_MAX 2560
#define CMD_SHOW_MAX 400

/* The libc functions the kernel runtime shim replaces (shim/kernel_rt.c defines
 * a hidden __wrap_<name> for each and calls __real_<name> for what it
 * passes through): the linker's --wrap sends the kernel's own calls to
 * the shim.  Both lists must name the same functions; a name missing here
 * leaves the shim's __real_<name> undefined, and every kernel then fails
 * to load, so a mismatch cannot go unnoticed. */
#define WRAP_PREFIX "-Wl,--wrap="
static const char wrap_word[] =
    WRAP_PREFIX "printf,--wrap=vprintf,--wrap=puts,--wrap=putchar,"
    "--wrap=fprintf,--wrap=vfprintf,--wrap=fputs,--wrap=fputc,--wrap=putc,"
    "--wrap=fwrite,--wrap=write,"
    "--wrap=__printf_chk,--wrap=__fprintf_chk,--wrap=__vprintf_chk,"
    "--wrap=__vfprintf_chk,"
    "--wrap=exit,--wrap=_exit,--wrap=_Exit,--wrap=quick_exit,--wrap=abort,"
    "--wrap=__assert_fail,--wrap=signal,--wrap=__sysv_signal,"
    "--wrap=sigaction";

/* Around the user's flags: -g before them, so that a -g0 of theirs wins
 * (debug info names the kernel's lines in a fault report); after them what
 * the shim needs, so that no user flag can take it away.  Stack clash
 * protection probes every page of a large stack frame, so a kernel that
 * overruns its core's stack hits the guard page instead of jumping over
 * it into other memory. */
static const char *const flags_before[] = { "-g" };
static const char *const flags_after[] = { "-fstack-clash-protection",
                                           wrap_word };
/* A timed build (compile.h): the AIE API counts its operations
 * (IRON_COUNT), the compiler calls __sanitizer_cov_trace_pc at every
 * basic block (the runtime shim counts them), and the host compiler
 * neither vectorizes nor unrolls, so that a block of the host's code is
 * one pass of the kernel's own scalar loop, as the AIE core runs it.
 * After the user's flags: an -O3 of theirs cannot turn them back on.
 * gcc and clang spell all of them alike. */
static const char *const timed_flags[] = { "-DIRON_COUNT=1",
                                           "-fsanitize-coverage=trace-pc",
                                           "-fno-tree-vectorize",
                                           "-fno-tree-slp-vectorize",
                                           "-fno-unroll-loops" };
/* C++ kernels: the language upstream's kernels are written in, and what
 * the AIE API header assumes (no exceptions, no RTTI, as on the AIE
 * compilers).  Before the user's flags, so that their -std wins. */
static const char *const cxx_flags_before[] = { "-std=c++20",
                                               "-fno-exceptions",
                                               "-fno-rtti" };

const char *iron__cc(void)
{
    return iron__env_get_text(IRON__ENV_CC);
}

const char *iron__cxx(void)
{
    return iron__env_get_text(IRON__ENV_CXX);
}

static const char *compiler_of(int is_cxx)
{
    return is_cxx ? iron__cxx() : iron__cc();
}

static size_t count_words(const char *s)
{
    size_t n = 0;
    while (*s) {
        while (isspace((unsigned char)*s))
            s++;
        if (!*s)
            break;
        n++;
        while (*s && !isspace((unsigned char)*s))
            s++;
    }
    return n;
}

/* Copies the blank-separated words of src into the arena at dst, each
 * NUL-terminated, and appends pointers to them to argv.  Returns the next
 * free byte of the arena. */
static char *split_words(char **argv, int *argc, char *dst, const char *src)
{
    while (*src) {
        while (isspace((unsigned char)*src))
            src++;
        if (!*src)
            break;
        argv[(*argc)++] = dst;
        while (*src && !isspace((unsigned char)*src))
            *dst++ = *src++;
        *dst++ = '\0';
    }
    return dst;
}

static char *copy_word(char **argv, int *argc, char *dst, const char *src)
{
    size_t n = strlen(src) + 1;
    memcpy(dst, src, n);
    argv[(*argc)++] = dst;
    return dst + n;
}

/* The command for messages, with the temporary files shown by their base
 * names: the directory is gone by the time anyone reads the message. */
static void show_command(char *buf, size_t cap, char *const *argv,
                         int argc, const iron__cc_job *job,
                         const char *include_word)
{
    size_t len = 0;
    buf[0] = '\0';
    const char *temporary[] = { job->src_path, job->so_path, job->deps_path,
                                job->obj_path };
    for (int i = 0; i < argc && len + 1 < cap; i++) {
        const char *w = argv[i];
        const char *slash = strrchr(w, '/');
        int is_temporary = 0;
        for (size_t t = 0; t < IRON__COUNT_OF(temporary); t++)
            is_temporary |= temporary[t] && strcmp(w, temporary[t]) == 0;
        /* the source, the output, the dependency file, the shim */
        if (slash && is_temporary)
            w = slash + 1;
        /* A few hundred bytes of symbol names would crowd out the rest. */
        else if (strcmp(w, wrap_word) == 0)
            w = WRAP_PREFIX "printf,...";
        /* The kernel header's folder, inside the temporary directory. */
        else if (include_word && strcmp(w, include_word) == 0)
            w = "-I<tmp>/include";
        int n = snprintf(buf + len, cap - len, "%s%s", i ? " " : "", w);
        if (n < 0)
            break;
        len += (size_t)n;
    }
    if (len >= cap && cap > 4)
        memcpy(buf + cap - 4, "...", 4);
}

/* Reads the first DIAG_MAX-1 bytes of the log into buf, cut at a line end
 * when there is more, and returns how many bytes were left out. */
static size_t read_diagnostics(const char *path, char *buf)
{
    buf[0] = '\0';
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    struct stat st;
    size_t total = fstat(fd, &st) == 0 ? (size_t)st.st_size : 0;
    size_t len = 0;
    while (len < DIAG_MAX - 1) {
        ssize_t n = read(fd, buf + len, DIAG_MAX - 1 - len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        len += (size_t)n;
    }
    close(fd);
    buf[len] = '\0';
    if (total > len) {
        char *nl = strrchr(buf, '\n');
        if (nl)
            len = (size_t)(nl - buf);
    }
    size_t kept = len;
    while (len > 0 && isspace((unsigned char)buf[len - 1]))
        len--;
    buf[len] = '\0';
    return total > kept ? total - kept : 0;
}

static iron_status cannot_run(const iron__cc_job *job, const char *cc,
                              int err)
{
    iron__env_value env;
    int set = iron__env_get(job->is_cxx ? IRON__ENV_CXX : IRON__ENV_CC, &env);
    const char *var = job->is_cxx ? "IRON_CXX" : "IRON_CC";
    return iron__fail(IRON_ECOMPILE,
                      "%.200s: cannot run %s compiler '%.200s': %s (the "
                      "command comes from %s%s; set %s to a working "
                      "compiler such as %s)",
                      job->label, job->is_cxx ? "C++" : "C", cc,
                      strerror(err), var,
                      set ? ""
                      : job->is_cxx ? ", which is unset, so 'c++' on PATH"
                                    : ", which is unset, so 'cc' on PATH",
                      var, job->is_cxx ? "g++ or clang++" : "gcc or clang");
}

/* Spawns argv with the log as stdout and stderr.  Returns 0 or an errno
 * value.  The child gets an empty signal mask and default SIGPIPE, so a
 * host program's signal setup does not leak into the compiler. */
static int spawn(pid_t *pid, char *const *argv, const char *log_path)
{
    extern char **environ;
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t attr;
    sigset_t none, def;
    int rc = posix_spawn_file_actions_init(&fa);
    if (rc)
        return rc;
    rc = posix_spawnattr_init(&attr);
    if (rc) {
        posix_spawn_file_actions_destroy(&fa);
        return rc;
    }
    sigemptyset(&none);
    sigemptyset(&def);
    sigaddset(&def, SIGPIPE);
    rc = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    if (!rc)
        rc = posix_spawn_file_actions_addopen(
            &fa, 1, log_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (!rc)
        rc = posix_spawn_file_actions_adddup2(&fa, 1, 2);
    if (!rc)
        rc = posix_spawnattr_setsigmask(&attr, &none);
    if (!rc)
        rc = posix_spawnattr_setsigdefault(&attr, &def);
    if (!rc)
        rc = posix_spawnattr_setflags(
            &attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    if (!rc)
        rc = posix_spawnp(pid, argv[0], &fa, &attr, argv, environ);
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&fa);
    return rc;
}

static iron_status wait_child(const iron__cc_job *job, pid_t pid,
                              int *wstatus)
{
    for (;;) {
        if (waitpid(pid, wstatus, 0) == pid)
            return IRON_OK;
        if (errno != EINTR)
            return iron__fail(IRON_ECOMPILE,
                              "%.200s: cannot wait for the %s compiler: %s "
                              "(is SIGCHLD ignored?)", job->label,
                              job->is_cxx ? "C++" : "C", strerror(errno));
    }
}

static iron_status compiler_failed(const iron__cc_job *job, int wstatus,
                                   char *const *argv, int argc,
                                   const char *include_word)
{
    char cmd[CMD_SHOW_MAX], how[64], diag[DIAG_MAX];
    show_command(cmd, sizeof cmd, argv, argc, job, include_word);
    size_t more = read_diagnostics(job->log_path, diag);

    if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 127 && !diag[0])
        return cannot_run(job, compiler_of(job->is_cxx), ENOENT);
    if (WIFEXITED(wstatus))
        snprintf(how, sizeof how, "exit status %d", WEXITSTATUS(wstatus));
    else if (WIFSIGNALED(wstatus))
        snprintf(how, sizeof how, "killed by signal %d", WTERMSIG(wstatus));
    else
        snprintf(how, sizeof how, "wait status 0x%x", (unsigned)wstatus);

    char tail[64] = "";
    if (more)
        snprintf(tail, sizeof tail, "\n[... %zu more bytes of diagnostics]",
                 more);
    return iron__fail(IRON_ECOMPILE,
                      "%.200s: %s compiler failed (%s)\ncommand: %s\n%s%s",
                      job->label, job->is_cxx ? "C++" : "C", how, cmd,
                      diag[0] ? diag : "(the compiler printed nothing)",
                      tail);
}

/* One part of a command line: a single word, or (split) words separated
 * by blanks. */
typedef struct cmd_part {
    const char *text;
    int split;
} cmd_part;

/* With the runtime shim's prebuilt object the C library is not linked
 * in: a kernel object is only ever loaded into a process that has it, so
 * its references resolve there at load time, as they would through the
 * library's entry in the object, and the linker need not read libc.so's
 * symbol table -- a third of a small kernel's compile.  The parts of the
 * C library that live in static archives are linked as usual. */
static const char *const lean_libs_before[] = { "-nodefaultlibs" };
static const char *const lean_libs_after[] = { "-l:libc_nonshared.a",
                                               "-lgcc" };
/* -nodefaultlibs drops libstdc++ too, and a C host process has none
 * loaded to resolve against, so a C++ kernel that uses it (std::string,
 * operator new) links it; --as-needed records it only then, so a
 * header-only kernel loads nothing more.  Reading its symbol table costs
 * about 7 ms of a 70 ms header-only kernel compile (g++ 12, measured),
 * which buys kernels that load wherever they compile. */
static const char *const cxx_libs_after[] = { "-Wl,--as-needed",
                                              "-lstdc++",
                                              "-Wl,--no-as-needed" };

iron_status iron__compile_cc(const iron__cc_job *job)
{
    const char *cc = compiler_of(job->is_cxx);
    const char *cflags = job->cflags ? job->cflags : "-O2";
    iron_status st = IRON_OK;
    char *include_word = NULL;
    if (job->include_dir) {
        /* Before the user's flags: their -I cannot put another copy of
         * <iron/iron_kernel.h> (an older install) in front of the
         * library's. */
        include_word = iron__malloc(strlen(job->include_dir) + 3);
        if (!include_word)
            return iron__fail(IRON_ENOMEM, "%.200s: out of memory preparing "
                              "the compiler command", job->label);
        sprintf(include_word, "-I%s", job->include_dir);
    }

    /* The fixed parts and at most IRON__KSRC_INCLUDE_MAX include folders. */
    cmd_part parts[64 + 2 * IRON__KSRC_INCLUDE_MAX];
    size_t np = 0;
#define PART(t, sp) (parts[np++] = (cmd_part){ (t), (sp) })
    PART(cc, 1);
    for (size_t i = 0; i < IRON__COUNT_OF(flags_before); i++)
        PART(flags_before[i], 0);
    for (size_t i = 0; job->is_cxx && i < IRON__COUNT_OF(cxx_flags_before);
         i++)
        PART(cxx_flags_before[i], 0);
    char arch_word[32];
    if (job->aie_arch) {
        snprintf(arch_word, sizeof arch_word, "-D__AIE_ARCH__=%d",
                 job->aie_arch);
        PART(arch_word, 0);
    }
    if (include_word)
        PART(include_word, 0);
    if (job->quote_dir) {
        PART("-iquote", 0);
        PART(job->quote_dir, 0);
    }
    for (int i = 0; i < job->ninclude_dirs && i < IRON__KSRC_INCLUDE_MAX;
         i++) {
        PART("-I", 0);
        PART(job->include_dirs[i], 0);
    }
    PART(cflags, 1);
    for (size_t i = 0; job->timed && i < IRON__COUNT_OF(timed_flags); i++)
        PART(timed_flags[i], 0);
    for (size_t i = 0; i < IRON__COUNT_OF(flags_after); i++)
        PART(flags_after[i], 0);
    if (job->lean_libs)
        for (size_t i = 0; i < IRON__COUNT_OF(lean_libs_before); i++)
            PART(lean_libs_before[i], 0);
    /* -MD -MF: the headers the kernel includes, so a cache can notice an
     * edited header.  Paths are single words even when TMPDIR holds
     * blanks. */
    if (job->deps_path) {
        PART("-MD", 0);
        PART("-MF", 0);
        PART(job->deps_path, 0);
    }
    PART("-fPIC", 0);
    PART("-shared", 0);
    PART("-o", 0);
    PART(job->so_path, 0);
    PART(job->src_path, 0);
    if (job->obj_path)
        PART(job->obj_path, 0);
    if (job->lean_libs)
        for (size_t i = 0; i < IRON__COUNT_OF(lean_libs_after); i++)
            PART(lean_libs_after[i], 0);
    for (size_t i = 0;
         job->lean_libs && job->is_cxx && i < IRON__COUNT_OF(cxx_libs_after);
         i++)
        PART(cxx_libs_after[i], 0);
#undef PART

    size_t nwords = 1, bytes = 0;
    for (size_t i = 0; i < np; i++) {
        nwords += parts[i].split ? count_words(parts[i].text) : 1;
        bytes += strlen(parts[i].text) + 1;
    }
    char **argv = iron__calloc(nwords, sizeof *argv);
    char *arena = argv ? iron__malloc(bytes) : NULL;
    if (!arena) {
        st = iron__fail(IRON_ENOMEM, "%.200s: out of memory preparing the "
                        "compiler command", job->label);
        goto done;
    }
    int argc = 0;
    char *p = arena;
    for (size_t i = 0; i < np; i++)
        p = parts[i].split ? split_words(argv, &argc, p, parts[i].text)
                           : copy_word(argv, &argc, p, parts[i].text);
    argv[argc] = NULL;

    pid_t pid;
    int err = spawn(&pid, argv, job->log_path);
    if (err) {
        st = cannot_run(job, cc, err);
        goto done;
    }
    int wstatus = 0;
    st = wait_child(job, pid, &wstatus);
    if (st == IRON_OK && !(WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0))
        st = compiler_failed(job, wstatus, argv, argc, include_word);

done:
    iron__free(arena);
    iron__free(argv);
    iron__free(include_word);
    return st;
}

/* Runs "<cc words> -v" with its output in out_path; 0 on a clean exit.
 * gcc and clang both print their version and target there (the -dump
 * options differ between them, and gcc answers only the first of
 * several), which name the compiler for cache keys: its path alone would
 * miss an upgrade in place. */
iron_status iron__cc_probe(int is_cxx, const char *out_path)
{
    const char *cc = compiler_of(is_cxx);
    size_t nwords = count_words(cc) + 1;
    char **argv = iron__calloc(nwords + 1, sizeof *argv);
    char *arena = argv ? iron__malloc(strlen(cc) + 64) : NULL;
    iron_status st = IRON_OK;
    if (!arena) {
        st = iron__fail(IRON_ENOMEM, "out of memory asking the %s compiler "
                        "for its version", is_cxx ? "C++" : "C");
    } else {
        int argc = 0;
        char *p = split_words(argv, &argc, arena, cc);
        copy_word(argv, &argc, p, "-v");
        argv[argc] = NULL;
        pid_t pid;
        int wstatus = 0;
        iron__cc_job job = { .label = "compiler probe",
                             .log_path = out_path, .is_cxx = is_cxx };
        if (spawn(&pid, argv, out_path) != 0 ||
            wait_child(&job, pid, &wstatus) != IRON_OK ||
            !WIFEXITED(wstatus) || WEXITSTATUS(wstatus) != 0)
            st = iron__fail(IRON_ECOMPILE,
                            "cannot ask the %s compiler '%s' for its version "
                            "(set %s to a working compiler)",
                            is_cxx ? "C++" : "C", cc,
                            is_cxx ? "IRON_CXX" : "IRON_CC");
    }
    iron__free(arena);
    iron__free(argv);
    return st;
}
