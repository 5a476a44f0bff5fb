/*
 * iron.c - the `iron` command: version, the device table, design dumps,
 * help.  It uses
 * only the public header, the way lua.c uses only lua.h -- and, for the
 * help's environment section, the library's table of IRON_* variables.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "core/env.h"
#include "iron/iron.h"

static const char usage_text[] =
    "usage: iron <command> [arguments]\n"
    "\n"
    "commands:\n"
    "  version          print the library version\n"
    "  devices          list the devices: columns, cores and per-tile\n"
    "                   resources (compute tile, memtile, shim tile)\n"
    "  devices NAME     show one device in detail\n"
    "  dump LIB NAME --args TYPES [--params P] [--device D] [--cols N]\n"
    "                   print a design's placed form without running it\n"
    "                   (iron dump --help for details)\n"
    "  tap --shape RxC --sizes A,B,.. --strides A,B,.. [--offset O] [--order]\n"
    "                   draw an access pattern over a 2-D tensor\n"
    "  cache list|info|verify|clear|prune [--max-size SIZE] [--dir DIR]\n"
    "                   inspect or trim the disk cache of compiled\n"
    "                   specializations (iron cache --help for details)\n"
    "  help             show this text\n";

static void cli_print_env_help(FILE *f);

static int usage(FILE *f, int code)
{
    fputs(usage_text, f);
    cli_print_env_help(f);
    return code;
}

/* "64 KiB", "512 KiB", "host" for shim tiles (no data memory). */
static const char *memory_text(uint32_t bytes, char *buf, size_t len)
{
    if (bytes == 0)
        snprintf(buf, len, "host");
    else if (bytes % (1024 * 1024) == 0)
        snprintf(buf, len, "%u MiB", (unsigned)(bytes / (1024 * 1024)));
    else if (bytes % 1024 == 0)
        snprintf(buf, len, "%u KiB", (unsigned)(bytes / 1024));
    else
        snprintf(buf, len, "%u B", (unsigned)bytes);
    return buf;
}

/* One tile kind as table cells: memory, locks, BDs, DMA in+out. */
static void print_tile_cells(const iron_tile_info *t)
{
    char mem[32], dma[16];
    snprintf(dma, sizeof dma, "%d+%d", t->dma_in, t->dma_out);
    printf("  %7s %5d %4d %5s", memory_text(t->memory_bytes, mem, sizeof mem),
           t->locks, t->buffer_descriptors, dma);
}

static int query(const iron_device *dev, iron_device_info *info)
{
    memset(info, 0, sizeof *info);
    info->size = sizeof *info;
    if (iron_device_query(dev, info) != IRON_OK) {
        fprintf(stderr, "iron: %s\n", iron_last_error());
        return 0;
    }
    return 1;
}

static int list_devices(void)
{
    int n = iron_device_count();
    /* Group titles over the 24-column groups of four tile cells. */
    printf("%30s  %-24s  %-24s  %s\n", "", "compute tile", "memtile",
           "shim tile");
    printf("%-12s %-6s %4s %5s", "device", "arch", "cols", "cores");
    for (int k = 0; k < 3; k++)
        printf("  %7s %5s %4s %5s", "memory", "locks", "BDs", "DMA");
    printf("  %s\n", "driver");
    for (int i = 0; i < n; i++) {
        iron_device_info info;
        if (!query(iron_device_at(i), &info))
            return 1;
        printf("%-12s %-6s %4d %5d", info.name, info.arch, info.columns,
               info.compute_tiles);
        print_tile_cells(&info.compute);
        print_tile_cells(&info.memtile);
        print_tile_cells(&info.shim);
        printf("  %s\n", info.driver);
    }
    printf("\nDMA is input + output channels; BDs are buffer descriptors.\n");

    /* Which device a call would use right now, so that a bad $IRON_DEVICE
     * shows up here rather than at the first launch. */
    iron_device *cur = NULL;
    if (iron_current_device(&cur) == IRON_OK)
        printf("current device: %s\n", iron_device_name(cur));
    else
        fprintf(stderr, "iron: warning: %s\n", iron_last_error());
    return 0;
}

static void print_tile_detail(const char *label, const iron_tile_info *t)
{
    char mem[32], stack[32];
    memory_text(t->memory_bytes, mem, sizeof mem);
    memory_text(t->stack_bytes, stack, sizeof stack);
    printf("  %-15s ", label);
    if (t->memory_bytes == 0)
        printf("no data memory (moves host memory)");
    else if (t->stack_bytes)
        printf("%s data memory (incl. %s stack)", mem, stack);
    else
        printf("%s data memory", mem);
    printf(", %d locks, %d buffer descriptors, DMA %d in + %d out\n",
           t->locks, t->buffer_descriptors, t->dma_in, t->dma_out);
}

static int show_device(const char *name)
{
    iron_device *dev;
    iron_device_info info;
    if (iron_device_get(name, &dev) != IRON_OK) {
        fprintf(stderr, "iron: %s\n", iron_last_error());
        return 1;
    }
    if (!query(dev, &info))
        return 1;
    printf("%s\n", info.name);
    printf("  %-15s %s\n", "arch", info.arch);
    printf("  %-15s %s\n", "family", info.family);
    printf("  %-15s %s\n", "driver", info.driver);
    printf("  %-15s %d\n", "columns", info.columns);
    if (info.rows == info.compute_rows + 2)
        printf("  %-15s %d (row 0 shim, row 1 memtile, rows 2-%d compute)\n",
               "rows", info.rows, info.rows - 1);
    else
        printf("  %-15s %d (%d compute)\n", "rows", info.rows,
               info.compute_rows);
    printf("  %-15s %d (%d per column)\n", "compute tiles",
           info.compute_tiles, info.compute_rows);
    printf("  %-15s 0 .. %d\n", "lock values", info.lock_max_value);
    print_tile_detail("compute tile", &info.compute);
    print_tile_detail("memtile", &info.memtile);
    print_tile_detail("shim tile", &info.shim);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return usage(stderr, EXIT_USAGE);
    const char *cmd = argv[1];
    if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0 ||
        strcmp(cmd, "-h") == 0)
        return argc == 2 ? usage(stdout, 0) : usage(stderr, EXIT_USAGE);
    if (strcmp(cmd, "version") == 0 || strcmp(cmd, "--version") == 0) {
        if (argc != 2)
            return usage(stderr, EXIT_USAGE);
        printf("iron %s\n", iron_version());
        return 0;
    }
    if (strcmp(cmd, "devices") == 0) {
        if (argc == 2)
            return list_devices();
        if (argc == 3)
            return show_device(argv[2]);
        return usage(stderr, EXIT_USAGE);
    }
    if (strcmp(cmd, "dump") == 0)
        return cli_dump(argc, argv);
    if (strcmp(cmd, "cache") == 0)
        return cli_cache(argc, argv);
    if (strcmp(cmd, "tap") == 0)
        return cli_tap(argc, argv);
    fprintf(stderr, "iron: unknown command '%s'\n\n", cmd);
    return usage(stderr, EXIT_USAGE);
}

/* Prints words wrapped before column 79, continuing at column `indent`;
 * the cursor is at column `at`. */
static void print_wrapped(FILE *f, const char *words, int at, int indent)
{
    int col = at, first = 1;
    for (const char *p = words; *p; first = 0) {
        size_t n = strcspn(p, " ");
        if (!first && col + 1 + (int)n > 79) {
            fprintf(f, "\n%*s", indent, "");
            col = indent;
        } else if (!first) {
            fputc(' ', f);
            col++;
        }
        fprintf(f, "%.*s", (int)n, p);
        col += (int)n;
        p += n;
        while (*p == ' ')
            p++;
    }
    fputc('\n', f);
}

/* The environment section of the help: the library's table of IRON_*
 * variables (src/core/env.c), so the help cannot drift from it. */
static void cli_print_env_help(FILE *f)
{
    fputs("\nenvironment (a value a variable does not accept is a warning, "
          "and the\ndefault applies; empty means unset):\n", f);
    for (int i = 0; i < IRON__ENV_COUNT; i++) {
        const iron__env_var *v = iron__env_var_of((iron__env_id)i);
        char more[512];
        fprintf(f, "  %-18s", v->name);
        print_wrapped(f, v->meaning, 20, 20);
        snprintf(more, sizeof more, "default %s; accepts %s; read %s",
                 v->def, v->accepts, v->read);
        fprintf(f, "%20s", "");
        print_wrapped(f, more, 20, 20);
    }
}
