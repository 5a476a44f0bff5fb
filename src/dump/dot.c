/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * dot.c - (dump layer) the placed design's FIFO graph in Graphviz dot: a
 * node per worker (with its kernel and tile), per shim tile that moves
 * host data and per link (memtile or compute tile); an edge per FIFO
 * producer -> consumer, labelled with the FIFO's name, object type and
 * depth.  `dot -Tsvg` draws it.
 */
#include <stdio.h>
#include <string.h>

#include "design/design.h"
#include "dump/dump.h"
#include "program/program.h"

/* A dot string literal's contents: quotes and backslashes escaped. */
static void quoted(iron__str *s, const char *text)
{
    iron__str_append(s, "\"");
    for (const char *c = text; *c; c++) {
        char one[3] = { *c, 0, 0 };
        if (*c == '"' || *c == '\\') {
            one[0] = '\\';
            one[1] = *c;
        } else if (*c == '\n') {
            one[0] = '\\';
            one[1] = 'n';
        }
        iron__str_append(s, one);
    }
    iron__str_append(s, "\"");
}

/* The shim column that serves runtime endpoint h (-1 if none found). */
static int runtime_shim(const iron_design *d, const iron_program *p,
                        const iron_handle *h)
{
    for (int i = 0; i < d->ops.n; i++)
        if ((d->ops.v[i].kind == IRON__RT_FILL ||
             d->ops.v[i].kind == IRON__RT_DRAIN) &&
            d->ops.v[i].h == h && p->ops[i].shim_col >= 0)
            return p->ops[i].shim_col;
    for (int i = 0; i < p->nmovers; i++) {
        const iron__mover *m = &p->movers[i];
        if (m->fifo == h->fifo->index && m->shim_col >= 0 &&
            (h->is_prod ? m->src.pool < 0 : m->ndst == 0))
            return m->shim_col;
    }
    return -1;
}

/* The node id of handle h's user. */
static void node_of(iron__str *s, const iron_design *d, const iron_program *p,
                    const iron_handle *h)
{
    switch (h->user) {
    case IRON__USER_WORKER:
        iron__str_printf(s, "w%d", h->worker->index);
        break;
    case IRON__USER_LINK:
        iron__str_printf(s, "l%d", h->link->index);
        break;
    case IRON__USER_RUNTIME: {
        int c = runtime_shim(d, p, h);
        if (c >= 0)
            iron__str_printf(s, "shim%d", c);
        else
            iron__str_append(s, "host");
        break;
    }
    case IRON__USER_NONE:
        iron__str_printf(s, "unused_%d_%d", h->fifo->index, h->cons_index);
        break;
    }
}

static void node(iron__str *s, const char *id, const char *shape,
                 const char *label)
{
    iron__str_printf(s, "  %s [shape=%s, label=", id, shape);
    quoted(s, label);
    iron__str_append(s, "];\n");
}

iron_status iron__dump_dot(const iron_design *d,
                                  const iron_program *p,
                                  const char *signature, iron__str *s)
{
    char id[32], tn[48];
    iron__str label = { 0 };
    iron__str_append(s, "digraph design {\n  rankdir=LR;\n  label=");
    quoted(s, signature);
    iron__str_append(s, ";\n  node [fontname=\"monospace\"];\n");
    for (int i = 0; i < d->workers.n; i++) {
        const iron_worker *w = d->workers.v[i];
        label.len = 0;
        iron__str_printf(&label, "%s\n%s '%s'\n%s", w->name,
                         w->kernel->is_core ? "core body" : "kernel",
                         w->kernel->entry,
                         iron__tile_name(p->workers[i].tile, tn, sizeof tn));
        snprintf(id, sizeof id, "w%d", i);
        node(s, id, "box", iron__str_get(&label));
    }
    for (int i = 0; i < d->links.n; i++) {
        static const char *const kinds[] = { "forward", "split", "join" };
        const iron__link *l = d->links.v[i];
        label.len = 0;
        iron__str_printf(&label, "link %d (%s)\n%s", i, kinds[l->kind],
                         iron__tile_name(p->links[i].tile, tn, sizeof tn));
        snprintf(id, sizeof id, "l%d", i);
        node(s, id, "diamond", iron__str_get(&label));
    }
    int shim_seen[64] = { 0 }, host = 0;
    for (int f = 0; f < d->fifos.n; f++) {
        const iron_fifo *fi = d->fifos.v[f];
        for (int c = -1; c < fi->ncons; c++) {
            const iron_handle *h = c < 0 ? &fi->prod : fi->cons[c];
            if (h->user != IRON__USER_RUNTIME)
                continue;
            int col = runtime_shim(d, p, h);
            if (col < 0 && !host++) {
                node(s, "host", "cylinder", "host (no shim placed)");
            } else if (col >= 0 && col < 64 && !shim_seen[col]++) {
                label.len = 0;
                iron__str_printf(&label, "shim DMA (%d,0)", col);
                snprintf(id, sizeof id, "shim%d", col);
                node(s, id, "cylinder", iron__str_get(&label));
            }
        }
    }
    for (int f = 0; f < d->fifos.n; f++) {
        const iron_fifo *fi = d->fifos.v[f];
        label.len = 0;
        iron__str_printf(&label, "%s\n", fi->name);
        iron__design_type_text(&label, fi->dtype, fi->obj_shape);
        iron__str_printf(&label, " x %d", fi->depth);
        for (int c = 0; c < fi->ncons; c++) {
            iron__str_append(s, "  ");
            node_of(s, d, p, &fi->prod);
            iron__str_append(s, " -> ");
            node_of(s, d, p, fi->cons[c]);
            iron__str_append(s, " [label=");
            quoted(s, iron__str_get(&label));
            iron__str_append(s, "];\n");
        }
    }
    iron__str_append(s, "}\n");
    int oom = label.oom;
    iron__str_free(&label);
    return s->oom || oom ? iron__fail(IRON_ENOMEM, "out of memory") : IRON_OK;
}
