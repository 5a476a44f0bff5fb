/*
 * cli.h - the `iron` command's subcommands (each in its own file).
 */
#ifndef IRON_CLI_CLI_H
#define IRON_CLI_CLI_H

/* `iron dump LIB.so NAME ...`: prints a design's placed form. */
int cli_dump(int argc, char **argv);

/* `iron cache list|info|clear|prune [--dir DIR]`: the disk cache. */
int cli_cache(int argc, char **argv);

#define EXIT_USAGE 2

#endif
