/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * iron.c - the `iron` command: version, the device table, and the
 * dispatch to the subcommands (each in its own file), with a usage error
 * that names the offending word and suggests the closest command, device
 * or option.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "iron/iron.h"

static const char usage_text[] =
    "usage: iron <command> [arguments]\n"
    "\n"
    "commands:\n"
    "  version          print the library version\n"
    "  devices [--json] list the devices: columns, cores and per-tile\n"
    "                   resources (compute tile, memtile, shim tile)\n"
    "  devices NAME     show one device in detail\n"
    "  check LIB NAME --args TYPES [--params P] [--device D] [--cols N]\n"
    "                   run a design's function, verification and\n"
    "                   placement (no compiler) and say whether it fits\n"
    "  dump LIB NAME --args TYPES [--format F] [--taps] ...\n"
    "                   print a design's placed form without running it\n"
    "                   (iron dump --help for details); F is one of\n"
    "                   %s\n"
    "  run LIB NAME [--in a=x.npy] [--out c=y.npy] [--ref c=z.npy] ...\n"
    "                   run a design on .npy files or seeded random data,\n"
    "                   save and compare its outputs (iron run --help)\n"
    "  run-mlir FILE.mlir [--kernel NAME=FILE.c] [--in a=x.npy] ...\n"
    "                   run upstream MLIR-AIE (objectfifo level) on the\n"
    "                   emulator (iron run-mlir --help)\n"
    "  export LIB NAME --args TYPES [--upstream VERSION] [--generic] -o DIR\n"
    "                   write a design as MLIR-AIE for upstream's aiecc.py\n"
    "                   and Peano, with a Makefile and an XRT host program\n"
    "                   (iron export --help)\n"
    "  tap --shape RxC --sizes A,B,.. --strides A,B,.. [--offset O] "
    "[--order]\n"
    "                   draw an access pattern over a 2-D tensor\n"
    "  cache list|info|verify|clear|prune [--max-size SIZE] [--dir DIR]\n"
    "                   [--json] inspect or trim the disk cache of compiled\n"
    "                   specializations (iron cache --help for details)\n"
    "  help             show this text\n"
    "\n"
    "Exit status: 0 success, 1 failure (or a mismatch for run), 2 a usage\n"
    "error.\n"
    "\n";

static const char *const commands[] = {
    "version", "devices", "check", "dump", "run", "run-mlir", "export",
    "tap", "cache", "help"
};
#define NCOMMANDS ((int)(sizeof commands / sizeof commands[0]))

/* The text, with the dump formats from dump.c's table. */
static int usage(FILE *f, int code)
{
    char formats[256];
    size_t n = 0;
    formats[0] = '\0';
    for (int i = 0; i < cli_dump_nformats && n < sizeof formats; i++)
        n += (size_t)snprintf(formats + n, sizeof formats - n, "%s%s",
                              i ? ", " : "", cli_dump_formats[i]);
    fprintf(f, usage_text, formats);
    cli_print_env_help(f);
    return code;
}

static int unexpected(const char *word, const char *cmd)
{
    fprintf(stderr, "iron: unexpected argument '%s' to '%s'\n", word, cmd);
    return EXIT_USAGE;
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
    if (iron_device_get_info(dev, info) != IRON_OK) {
        fprintf(stderr, "iron: %s\n", iron_last_error());
        return 0;
    }
    return 1;
}

static json_t *tile_json(const iron_tile_info *t)
{
    return json_pack("{s:i, s:i, s:i, s:i, s:i, s:i}", "memory_bytes",
                     (int)t->memory_bytes, "stack_bytes", (int)t->stack_bytes,
                     "locks", t->locks, "buffer_descriptors",
                     t->buffer_descriptors, "dma_in", t->dma_in, "dma_out",
                     t->dma_out);
}

/* `iron devices --json`: every device, and the current one (null when
 * $IRON_DEVICE names no device). */
static int list_devices_json(void)
{
    json_t *list = json_array();
    for (int i = 0; i < iron_device_count(); i++) {
        iron_device_info info;
        if (!query(iron_device_at(i), &info)) {
            json_decref(list);
            return 1;
        }
        json_array_append_new(
            list,
            json_pack("{s:s, s:s, s:s, s:s, s:i, s:i, s:i, s:i, s:i, s:o, "
                      "s:o, s:o}",
                      "name", info.name, "arch", info.arch, "family",
                      info.family, "driver", info.driver, "columns",
                      info.columns, "rows", info.rows, "compute_rows",
                      info.compute_rows, "compute_tiles", info.compute_tiles,
                      "lock_max_value", info.lock_max_value, "compute",
                      tile_json(&info.compute), "memtile",
                      tile_json(&info.memtile), "shim",
                      tile_json(&info.shim)));
    }
    iron_device *cur = NULL;
    json_t *root = json_pack(
        "{s:o, s:o}", "devices", list, "current",
        iron_device_get_current(&cur) == IRON_OK
            ? json_string(iron_device_name(cur))
            : json_null());
    char *text = root ? json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER)
                      : NULL;
    json_decref(root);
    if (!text) {
        fputs("iron: out of memory\n", stderr);
        return 1;
    }
    puts(text);
    free(text);
    return 0;
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
    if (iron_device_get_current(&cur) == IRON_OK)
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
        const char *names[64];
        int n = iron_device_count();
        for (int i = 0; i < n && i < 64; i++)
            names[i] = iron_device_name(iron_device_at(i));
        fprintf(stderr, "iron: %s", iron_last_error());
        cli_suggest(stderr, name, names, n < 64 ? n : 64);
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

static int cmd_devices(int argc, char **argv)
{
    int json = 0;
    const cli_opt opts[] = { { "--json", CLI_FLAG, &json } };
    cli_list pos;
    int rc = cli_parse("devices", argc, argv, 2, opts, 1, &pos);
    if (rc == 1) {
        puts("usage: iron devices [--json] | iron devices NAME");
        return 0;
    }
    if (rc)
        return rc;
    if (pos.n > 1)
        return unexpected(pos.v[1], "devices");
    if (pos.n == 1) {
        if (json)
            return fputs("iron devices: --json lists every device; give no "
                         "NAME\n", stderr), EXIT_USAGE;
        return show_device(pos.v[0]);
    }
    return json ? list_devices_json() : list_devices();
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return usage(stderr, EXIT_USAGE);
    const char *cmd = argv[1];
    if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0 ||
        strcmp(cmd, "-h") == 0)
        return argc == 2 ? usage(stdout, 0) : unexpected(argv[2], cmd);
    if (strcmp(cmd, "version") == 0 || strcmp(cmd, "--version") == 0) {
        if (argc != 2)
            return unexpected(argv[2], cmd);
        printf("iron %s\n", iron_version());
        return 0;
    }
    if (strcmp(cmd, "devices") == 0)
        return cmd_devices(argc, argv);
    if (strcmp(cmd, "dump") == 0)
        return cli_dump(argc, argv);
    if (strcmp(cmd, "check") == 0)
        return cli_check(argc, argv);
    if (strcmp(cmd, "run") == 0)
        return cli_run(argc, argv);
    if (strcmp(cmd, "run-mlir") == 0)
        return cli_run_mlir(argc, argv);
    if (strcmp(cmd, "export") == 0)
        return cli_export(argc, argv);
    if (strcmp(cmd, "cache") == 0)
        return cli_cache(argc, argv);
    if (strcmp(cmd, "tap") == 0)
        return cli_tap(argc, argv);
    /* The suggestion and a pointer to the help: the whole help would
     * bury the one line that matters. */
    fprintf(stderr, "iron: unknown command '%s'", cmd);
    cli_suggest(stderr, cmd, commands, NCOMMANDS);
    fputs("(iron --help lists the commands)\n", stderr);
    return EXIT_USAGE;
}
