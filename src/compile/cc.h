/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * cc.h - runs the system C compiler on one generated source file, turning
 * a failure into an IRON_ECOMPILE message that carries its diagnostics.
 */
#ifndef IRON_COMPILE_CC_H
#define IRON_COMPILE_CC_H

#include "iron/iron.h"

typedef struct iron__cc_job {
    const char *label;         /* "kernel 'vadd'", starts every message */
    const char *cflags;        /* space-separated; NULL = "-O2" */
    const char *src_path;      /* the C file to compile */
    const char *so_path;       /* the shared object to write */
    const char *log_path;      /* receives the compiler's stdout+stderr */
    const char *deps_path;     /* receives the included files (-MD), or
                                  NULL */
    const char *include_dir;   /* searched first for #include (-I), or
                                  NULL */
    const char *obj_path;      /* an object linked in after the source
                                  (the runtime shim's), or NULL */
    int lean_libs;             /* leave the C library's shared object out
                                  of the link (cc.c says why); only for
                                  the library's own target */
    const char *quote_dir;     /* -iquote, or NULL */
    int ninclude_dirs;         /* -I, each one word */
    const char *const *include_dirs;
    int is_cxx;                /* C++: iron__cxx() with the C++ flags (cc.c),
                                  and libstdc++ when the kernel uses it */
    int aie_arch;              /* -D__AIE_ARCH__=<it>; 0: not defined */
    int timed;                 /* a timed build: cc.c's timed_flags after
                                  the cflags */
} iron__cc_job;

/*
 * Runs "<iron__cc() words> -g [-D__AIE_ARCH__=<aie_arch>]
 * [-I<include_dir>] [-iquote <quote_dir>] [-I <include_dirs[i]> ...]
 * <cflags words> [the timed flags, for a timed job]
 * -fstack-clash-protection -Wl,--wrap=<each function the runtime shim
 * replaces> [-nodefaultlibs] [-MD -MF deps] -fPIC -shared -o so src [obj]
 * [-l:libc_nonshared.a -lgcc]" (the bracketed parts as the job asks; a
 * C++ job runs iron__cxx() with -std=c++20 -fno-exceptions -fno-rtti
 * before the cflags and libstdc++ as needed at the end) with
 * posix_spawnp, stdin from /dev/null and stdout+stderr into the log, and
 * waits for it.  Words are split on blanks; quoting is not supported.
 * IRON_ECOMPILE when the compiler cannot be started (the message mentions
 * IRON_CC, or IRON_CXX) or does not exit with 0 (the message has the
 * label, "C compiler failed" or "C++ compiler failed", the command and the
 * first few KiB of diagnostics); IRON_ENOMEM.  Thread-safe.
 */
iron_status iron__compile_cc(const iron__cc_job *job);

/* Runs the C compiler (is_cxx: the C++ compiler) with -v (its version,
 * target and configuration), its output into out_path.  IRON_ECOMPILE
 * when it cannot run or fails (naming IRON_CC or IRON_CXX), IRON_ENOMEM. */
iron_status iron__cc_probe(int is_cxx, const char *out_path);

#endif
