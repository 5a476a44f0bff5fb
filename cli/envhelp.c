/*
 * envhelp.c - the environment section of `iron --help`: every IRON_*
 * variable the library reads, what it does and its default.  (One place,
 * so that the table can later come from the library's own list.)
 */
#include <stdio.h>

#include "cli.h"

typedef struct env_row {
    const char *name, *meaning, *fallback;
} env_row;

static const env_row rows[] = {
    { "IRON_DEVICE", "the device used when no default or scope is set",
      "npu2" },
    { "IRON_TIMEOUT_MS", "how long a run may take before it is stopped, ms",
      "60000" },
    { "IRON_CC", "the C compiler for kernels (a command, may have words)",
      "cc" },
    { "IRON_CACHE", "0 bypasses the disk cache of compiled kernels",
      "on" },
    { "IRON_CACHE_DIR", "the disk cache folder",
      "$XDG_CACHE_HOME/iron, else ~/.cache/iron" },
    { "IRON_CACHE_MAX", "the disk cache's size cap (512K, 100M, 1G, bytes)",
      "256M" },
    { "IRON_THREADS", "host threads the emulated array runs on (1..1024)",
      "timed: CPU count or 1" },
    { "IRON_LOG", "debug log topics, comma-separated: jit, cache, emu, all",
      "none" },
    { "IRON_CHECK", "1 runs in checked mode (buffer, stack and poison "
                    "checks)", "off" },
    { "IRON_TRACE", "write each run's trace (Perfetto JSON) to this file",
      "none" },
    { "IRON_RESIDENT_MAX", "specializations a jit keeps loaded (1..)",
      "256" },
};

void cli_print_env_help(FILE *f)
{
    fputs("environment:\n", f);
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        fprintf(f, "  %-18s %s\n  %-18s (default: %s)\n", rows[i].name,
                rows[i].meaning, "", rows[i].fallback);
}
