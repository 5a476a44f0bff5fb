/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * cli.h - the `iron` command's subcommands (each in its own file) and
 * what they share: option parsing with "did you mean" hints (opts.c),
 * loading a design from a shared library (design.c), the environment
 * table of the help (envhelp.c), output folders (paths.c), the designs a
 * library exports (exports.c).
 */
#ifndef IRON_CLI_CLI_H
#define IRON_CLI_CLI_H

#include <stdio.h>

#include "iron/iron.h"

#define EXIT_USAGE 2
#define CLI_MAX_ITEMS 32

#if defined(__GNUC__)
#define CLI_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define CLI_PRINTF(f, a)
#endif

/* `iron dump LIB.so NAME ...`: prints a design's placed form. */
int cli_dump(int argc, char **argv);

/* The formats of `iron dump --format`, for its checks and the top-level
 * help (dump.c). */
extern const char *const cli_dump_formats[];
extern const int cli_dump_nformats;

/* `iron check LIB.so NAME ...`: design, verify, place; no compiler. */
int cli_check(int argc, char **argv);

/* `iron run LIB.so NAME ...`: runs a design on .npy or random data. */
int cli_run(int argc, char **argv);

/* `iron export LIB.so NAME ... -o DIR`: writes a design as MLIR-AIE with
 * its kernels, Makefile, README and XRT host program. */
int cli_export(int argc, char **argv);

/* `iron run-mlir FILE.mlir --kernel NAME=FILE.c ...`: runs upstream's
 * objectfifo-level MLIR on .npy or random data (run_mlir.c). */
int cli_run_mlir(int argc, char **argv);

/* `iron cache list|info|clear|prune [--dir DIR]`: the disk cache. */
int cli_cache(int argc, char **argv);

/* `iron tap --shape RxC --sizes .. --strides ..`: draws a pattern. */
int cli_tap(int argc, char **argv);

/* For `iron dump --taps`: draws each fill and drain of a dump's sequence
 * whose tensor (shapes[arg]) is 2-D.  0, or 1 after an error message. */
int cli_dump_taps(const char *text, int nargs, const iron_shape *shapes);

/* The help's "environment:" section: every IRON_* variable, its meaning
 * and default. */
void cli_print_env_help(FILE *f);

/* ---- opts.c: options ---------------------------------------------------- */

typedef enum cli_opt_kind {
    CLI_FLAG,     /* int *: set to 1 */
    CLI_VALUE,    /* const char **: the value (the last one given wins) */
    CLI_LIST      /* cli_list *: every value given, in order */
} cli_opt_kind;

typedef struct cli_list {
    const char *v[CLI_MAX_ITEMS];
    int n;
} cli_list;

typedef struct cli_opt {
    const char *name;     /* "--args", or a short "-o" */
    cli_opt_kind kind;
    void *dest;
} cli_opt;

/* Parses argv[first..] into the options' destinations and the other
 * words into *positional ("--name value" and "--name=value").  Returns 0;
 * 1 when -h or --help was given; EXIT_USAGE after printing "iron CMD:
 * unknown option '--fromat'; did you mean '--format'?" or "option '--x'
 * needs a value". */
int cli_parse(const char *cmd, int argc, char **argv, int first,
              const cli_opt *opts, int nopts, cli_list *positional);

/* The closest of names to word: a case-insensitive match, else the
 * library's edit-distance choice; NULL when none is close. */
const char *cli_closest(const char *word, const char *const *names, int n);

/* Prints "; did you mean 'X'?" (or nothing) and a newline. */
void cli_suggest(FILE *f, const char *word, const char *const *names, int n);

/* ---- exports.c: the designs a library offers ----------------------- */

/* The NAMEs for which the shared library at path defines a function
 * NAME_design and an object NAME_options (its dynamic symbols, read from
 * the file, which is not loaded), sorted, in *names (free with
 * cli_free_names).  The count, or -1 when the file is not a readable ELF
 * file (*names NULL). */
int cli_library_designs(const char *path, char ***names);
void cli_free_names(char **names, int n);

/* ---- paths.c: output folders ------------------------------------------- */

/* dir + "/" + name into buf, without a doubled slash when dir ends in one
 * ("out/" + "c.npy" is "out/c.npy").  0, or -1 when buf is too small. */
int cli_path_join(char *buf, size_t len, const char *dir, const char *name);

/* Creates folder dir and its missing parents, as `mkdir -p` does (the
 * user's umask applies).  0, or 1 after printing "iron CMD: OPT 'DIR':
 * cannot create the folder 'X': <reason>" (a file in the way, no
 * permission). */
int cli_make_folder(const char *cmd, const char *opt, const char *dir);

/* ---- run.c: running a jit on .npy files or seeded data ------------------ */

/* What `iron run` and `iron run-mlir` share: the inputs (--in NAME=FILE,
 * positional files for the in and inout arguments in order, otherwise
 * seeded random data), the outputs (--out NAME=FILE, -o DIR), the
 * references (--ref NAME=FILE, --rtol, --atol) and --repeat. */
typedef struct cli_run_io {
    cli_list in, out, ref, files;
    const char *seed, *repeat, *outdir, *rtol, *atol;
    int timing;                   /* --timing */
    const char *clock;            /* --clock MHZ */
} cli_run_io;

/* Runs jit j, whose arguments are declared `decl` (its args text), once
 * and --repeat more times as `iron run` does: messages begin "iron CMD: ",
 * the summary "NAME: ".  0 ran (and matched), 1 failed or mismatched,
 * EXIT_USAGE for a usage error. */
int cli_run_jit(const char *cmd, const char *name, const cli_run_io *io,
                iron_jit *j, const iron_launch_config *cfg,
                const char *decl);

/* ---- design.c: a design from a shared library -------------------------- */

typedef struct cli_design {
    const char *cmd;              /* "dump", "check", "run": for messages */
    iron_design_fn fn;
    const iron_jit_options *opts;
    iron_jit *jit;
    int nparams;
    iron_param params[CLI_MAX_ITEMS];
    int pushed;                   /* a device scope to pop */
    iron_launch_config cfg;
} cli_design;

/* Loads LIB (a name without a slash is a file in the current folder, not
 * a search of the library path), finds NAME_design and NAME_options,
 * creates the jit, parses the parameters (may be NULL), pushes the device
 * (may be NULL) and sets the columns (0: all; the text must be a positive
 * number).  1 after printing the error; 2 for a usage error (an unknown
 * NAME: the message lists the library's designs). */
int cli_design_open(cli_design *cd, const char *cmd, const char *lib,
                    const char *name, char *params, const char *device,
                    const char *cols);
void cli_design_close(cli_design *cd);

/* 1 when the device exists; else 0 after printing "iron CMD: unknown
 * device 'X'; did you mean 'Y'?". */
int cli_device_exists(const char *cmd, const char *name);

/* "int32[64, 64], float32[8]" -> zeroed tensors.  0, or after printing
 * the error EXIT_USAGE (text that is not a list of types, a shape the
 * library refuses) or 1 (out of memory). */
int cli_make_tensors(const char *cmd, char *types, iron_tensor **out,
                     int *n);

/* Splits at top-level commas (not inside brackets or quotes); the count,
 * or -1 when there are more than max. */
int cli_split_items(char *text, char **items, int max);
char *cli_trim(char *s);

/* "int32[64, 64]" -> dtype and shape; 0, or EXIT_USAGE after printing. */
int cli_parse_type(const char *cmd, char *spec, iron_dtype *dt,
                   iron_shape *shape);

#endif
