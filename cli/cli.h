/*
 * cli.h - the `iron` command's subcommands (each in its own file).
 */
#ifndef IRON_CLI_CLI_H
#define IRON_CLI_CLI_H

#include "iron/iron.h"

/* `iron dump LIB.so NAME ...`: prints a design's placed form. */
int cli_dump(int argc, char **argv);

/* `iron cache list|info|clear|prune [--dir DIR]`: the disk cache. */
int cli_cache(int argc, char **argv);

/* `iron tap --shape RxC --sizes .. --strides ..`: draws a pattern. */
int cli_tap(int argc, char **argv);

/* For `iron dump --taps`: draws each fill and drain of a dump's sequence
 * whose tensor (shapes[arg]) is 2-D.  0, or 1 after an error message. */
int cli_dump_taps(const char *text, int nargs, const iron_shape *shapes);

#define EXIT_USAGE 2

#endif
