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
} iron__cc_job;

/*
 * Runs "<iron__cc() words> -g [-I<include_dir>] <cflags words>
 * -fstack-clash-protection
 * -Wl,--wrap=<each function the runtime shim replaces> -fPIC -shared
 * -o so src" with
 * posix_spawnp, stdin from /dev/null and stdout+stderr into the log, and
 * waits for it.  Words are split on blanks; quoting is not supported.
 * IRON_ECOMPILE when the compiler cannot be started (the message mentions
 * IRON_CC) or does not exit with 0 (the message has the label, the command
 * and the first few KiB of diagnostics); IRON_ENOMEM.  Thread-safe.
 */
iron_status iron__compile_cc(const iron__cc_job *job);

/* Runs the compiler with -dumpfullversion -dumpmachine, its output into
 * out_path.  0 on success, -1 when it cannot run or fails. */
int iron__cc_probe(const char *out_path);

#endif
