/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * grid.c - (dump layer) a text picture of the array as placed: one column
 * per array column, one line per row from the top compute row down to the
 * shim (row 0).  A compute cell names its worker, a memtile cell its
 * links, a shim cell the FIFOs its DMA channels move ("in" host to array,
 * "out" array to host, with the channel number).  Cells that hold more
 * than fits are listed in full under the picture.  Only the columns from
 * the first to the last the design uses are drawn (a one-column design on
 * an 8-column grant is one column wide), and the picture says which.
 */
#include <stdio.h>
#include <string.h>

#include "design/design.h"
#include "dump/dump.h"
#include "program/program.h"

#define CELL_MAX 18

/* The text of cell (col, row), whole. */
static void cell_text(const iron_design *d, const iron_program *p, int col,
                      int row, iron__str *c)
{
    static const char *const kinds[] = { "fwd", "split", "join" };
    if (row >= IRON__ROW_COMPUTE) {
        for (int i = 0; i < p->nworkers; i++)
            if (p->workers[i].tile.col == col && p->workers[i].tile.row == row)
                iron__str_printf(c, "%s%s", c->len ? " " : "",
                                 p->workers[i].name);
    }
    if (row != IRON__ROW_SHIM)
        for (int i = 0; i < p->nlinks; i++)
            if (p->links[i].tile.col == col && p->links[i].tile.row == row)
                iron__str_printf(c, "%slink%d:%s", c->len ? " " : "", i,
                                 kinds[d->links.v[i]->kind]);
    if (row == IRON__ROW_SHIM)
        for (int dir = 0; dir < 2; dir++)
            for (int i = 0; i < p->nmovers; i++) {
                const iron__mover *m = &p->movers[i];
                int in = m->src.pool < 0, out = m->ndst == 0;
                if (m->shim_col != col || !(dir == 0 ? in : out))
                    continue;
                iron__str_printf(c, "%s%s%d:%s", c->len ? " " : "",
                                 dir == 0 ? "in" : "out", m->shim_channel,
                                 p->fifos[m->fifo].name);
            }
}

static void rule(iron__str *s, int cols, int width)
{
    iron__str_append(s, "         +");
    for (int c = 0; c < cols; c++) {
        for (int k = 0; k < width + 2; k++)
            iron__str_append(s, "-");
        iron__str_append(s, "+");
    }
    iron__str_append(s, "\n");
}

iron_status iron__dump_grid(const iron_design *d,
                                   const iron_program *p,
                                   const char *signature, iron__str *s)
{
    int rows = p->dev.rows;
    /* The columns drawn: first to last used (all, should none be). */
    int first = -1, last = -1;
    for (int c = 0; c < p->cols; c++)
        if (iron__program_col_used(p, c)) {
            first = first < 0 ? c : first;
            last = c;
        }
    if (first < 0) {
        first = 0;
        last = p->cols - 1;
    }
    int cols = last - first + 1;
    iron__str cell = { 0 }, notes = { 0 };
    int width = 1;
    for (int r = 0; r < rows; r++)
        for (int c = first; c <= last; c++) {
            cell.len = 0;
            iron__str_append(&cell, "");
            cell_text(d, p, c, r, &cell);
            if ((int)cell.len > width)
                width = cell.len > CELL_MAX ? CELL_MAX : (int)cell.len;
        }
    iron__str_printf(s, "%s\n", signature);
    if (first == last)
        iron__str_printf(s, "column %d of %d", first, p->cols);
    else
        iron__str_printf(s, "columns %d-%d of %d", first, last, p->cols);
    iron__str_append(s, cols < p->cols ? " (the others are unused)\n"
                                       : "\n");
    iron__str_append(s, "         ");
    for (int c = first; c <= last; c++) {
        char head[16];
        snprintf(head, sizeof head, "col %d", c);
        if (c < last)
            iron__str_printf(s, "  %-*s ", width, head);
        else
            iron__str_printf(s, "  %s", head);   /* no trailing blanks */
    }
    iron__str_append(s, "\n");
    rule(s, cols, width);
    for (int r = rows - 1; r >= 0; r--) {
        const char *kind = r == IRON__ROW_SHIM      ? "shim"
                           : r == IRON__ROW_MEMTILE ? "mem"
                                                    : "row";
        iron__str_printf(s, "%-4s %2d  |", kind, r);
        for (int c = first; c <= last; c++) {
            cell.len = 0;
            iron__str_append(&cell, "");
            cell_text(d, p, c, r, &cell);
            const char *t = cell.len ? iron__str_get(&cell) : ".";
            if (cell.len > (size_t)width) {
                iron__str_printf(&notes, "  (%d,%d): %s\n", c, r, t);
                iron__str_printf(s, " %-*.*s~ |", width - 1, width - 1, t);
            } else {
                iron__str_printf(s, " %-*s |", width, t);
            }
        }
        iron__str_append(s, "\n");
        if (r == IRON__ROW_COMPUTE || r == IRON__ROW_MEMTILE)
            rule(s, cols, width);
    }
    rule(s, cols, width);
    if (notes.len)
        iron__str_printf(s, "cut short (~) above, in full:\n%s",
                         iron__str_get(&notes));
    iron__str_append(s, "shim: inN / outN = host-to-array (MM2S) / "
                        "array-to-host (S2MM) channel N\n");
    int oom = cell.oom || notes.oom;
    iron__str_free(&cell);
    iron__str_free(&notes);
    return s->oom || oom ? iron__fail(IRON_ENOMEM, "out of memory") : IRON_OK;
}
