/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * json.c - (dump layer) the placed design as JSON (jansson), for tools:
 * arguments, FIFOs with each endpoint's user, tile, depth and buffers,
 * links, workers with their tiles and kernels, the runtime sequence, the
 * DMA movers and the tiles' resource use.  Tiles are [col, row] pairs (row
 * 0 shim, 1 memtile, 2.. compute); null where nothing is placed.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "design/design.h"
#include "dump/dump.h"
#include "program/program.h"

/* jansson refuses invalid UTF-8; a name may be Latin-1: keep its ASCII. */
static json_t *jstr(const char *s)
{
    if (!s)
        return json_null();
    json_t *v = json_string(s);
    if (v)
        return v;
    char *c = iron__strdup(s);
    if (!c)
        return NULL;
    for (char *q = c; *q; q++)
        if ((unsigned char)*q >= 0x80)
            *q = '?';
    v = json_string(c);
    iron__free(c);
    return v;
}

static json_t *jtile(iron__tile t)
{
    if (t.col < 0)
        return json_null();
    return json_pack("[ii]", t.col, t.row);
}

static json_t *jshape(iron_shape sh)
{
    json_t *a = json_array();
    for (int i = 0; i < sh.ndim; i++)
        json_array_append_new(a, json_integer(sh.dims[i]));
    return a;
}

static json_t *jtap(const iron_tap *t)
{
    json_t *sz = json_array(), *st = json_array();
    for (int i = 0; i < t->ndim; i++) {
        json_array_append_new(sz, json_integer(t->sizes[i]));
        json_array_append_new(st, json_integer(t->strides[i]));
    }
    return json_pack("{s:I, s:o, s:o}", "offset", (json_int_t)t->offset,
                     "sizes", sz, "strides", st);
}

static const char *user_kind(iron__user u)
{
    switch (u) {
    case IRON__USER_WORKER: return "worker";
    case IRON__USER_RUNTIME: return "runtime";
    case IRON__USER_LINK: return "link";
    case IRON__USER_NONE: break;
    }
    return "none";
}

static json_t *jendpoint(const iron_program *p, const iron_handle *h)
{
    const iron__prog_end *e =
        iron__program_end(p, h->fifo->index, h->is_prod ? -1 : h->cons_index);
    json_t *o = json_object();
    json_object_set_new(o, "user", json_string(user_kind(h->user)));
    if (h->user == IRON__USER_WORKER)
        json_object_set_new(o, "worker", jstr(h->worker->name));
    if (h->user == IRON__USER_LINK)
        json_object_set_new(o, "link", json_integer(h->link->index));
    json_object_set_new(o, "tile", h->user == IRON__USER_RUNTIME
                                       ? json_null()
                                       : jtile(e->tile));
    json_object_set_new(o, "depth", json_integer(h->depth));
    json_object_set_new(o, "buffers", json_integer(e->buffers));
    if (e->why[0])
        json_object_set_new(o, "why", jstr(e->why));
    if (h->user == IRON__USER_WORKER)
        json_object_set_new(o, "max_acquire", json_integer(h->max_acquire));
    if (e->has_dims)
        json_object_set_new(o, "dims", jtap(&e->dims));
    return o;
}

static json_t *jfifos(const iron_design *d, const iron_program *p)
{
    json_t *a = json_array();
    for (int i = 0; i < d->fifos.n; i++) {
        const iron_fifo *f = d->fifos.v[i];
        json_t *cons = json_array();
        for (int c = 0; c < f->ncons; c++)
            json_array_append_new(cons, jendpoint(p, f->cons[c]));
        json_array_append_new(
            a, json_pack("{s:o, s:s, s:o, s:I, s:i, s:o, s:o}", "name",
                         jstr(f->name), "dtype", iron_dtype_name(f->dtype),
                         "object_shape", jshape(f->obj_shape), "object_bytes",
                         (json_int_t)f->obj_bytes, "depth", f->depth,
                         "producer", jendpoint(p, &f->prod), "consumers",
                         cons));
    }
    return a;
}

static json_t *jlinks(const iron_design *d, const iron_program *p)
{
    static const char *const kinds[] = { "forward", "split", "join" };
    json_t *a = json_array();
    for (int i = 0; i < d->links.n; i++) {
        const iron__link *l = d->links.v[i];
        json_t *in = json_array(), *out = json_array(), *off = json_array();
        for (int k = 0; k < l->nin; k++)
            json_array_append_new(in, jstr(l->in[k]->fifo->name));
        for (int k = 0; k < l->nout; k++)
            json_array_append_new(out, jstr(l->out[k]->fifo->name));
        int n = l->kind == IRON__LINK_SPLIT  ? l->nout
                : l->kind == IRON__LINK_JOIN ? l->nin
                                             : 0;
        for (int k = 0; k < n; k++)
            json_array_append_new(off, json_integer(l->offsets[k]));
        json_array_append_new(
            a, json_pack("{s:i, s:s, s:o, s:o, s:o, s:o}", "index", l->index,
                         "kind", kinds[l->kind], "tile",
                         jtile(p->links[l->index].tile), "inputs", in,
                         "outputs", out, "offsets", off));
    }
    return a;
}

static json_t *jworker_args(const iron_worker *w)
{
    json_t *a = json_array();
    for (int k = 0; k < w->nargs; k++) {
        const iron_arg *arg = &w->args[k];
        char hl[96];
        json_t *v = NULL;
        switch (arg->kind) {
        case IRON_ARG_HANDLE:
            v = json_pack("{s:s, s:o}", "kind", "fifo", "handle",
                          jstr(iron__handle_label(arg->handle, hl,
                                                  sizeof hl)));
            break;
        case IRON_ARG_INT:
            v = json_pack("{s:s, s:I}", "kind", "int", "value",
                          (json_int_t)arg->i);
            break;
        case IRON_ARG_FLOAT:
            v = json_pack("{s:s, s:f}", "kind", "float", "value", arg->f);
            break;
        case IRON_ARG_RTP:
            v = json_pack("{s:s, s:o}", "kind", "rtp", "name",
                          jstr(arg->rtp->name));
            break;
        case IRON_ARG_BARRIER:
            v = json_pack("{s:s, s:o}", "kind", "barrier", "name",
                          jstr(arg->barrier->name));
            break;
        case IRON_ARG_KERNEL:
            v = json_pack("{s:s, s:o}", "kind", "kernel", "entry",
                          jstr(arg->kernel->entry));
            break;
        }
        json_array_append_new(a, v);
    }
    return a;
}

static json_t *jworkers(const iron_design *d, const iron_program *p)
{
    json_t *a = json_array();
    for (int i = 0; i < d->workers.n; i++) {
        const iron_worker *w = d->workers.v[i];
        json_array_append_new(
            a, json_pack("{s:o, s:o, s:b, s:I, s:o, s:b, s:I, s:o}", "name",
                         jstr(w->name), "kernel", jstr(w->kernel->entry),
                         "core_body", w->kernel->is_core, "iterations",
                         (json_int_t)w->iterations, "tile",
                         jtile(p->workers[i].tile), "pinned", w->pinned,
                         "stack_bytes", (json_int_t)w->stack_bytes, "args",
                         jworker_args(w)));
    }
    return a;
}

static json_t *jsequence(const iron_design *d, const iron_program *p)
{
    json_t *a = json_array();
    for (int i = 0; i < d->ops.n; i++) {
        const iron__rt_op *op = &d->ops.v[i];
        json_t *o = json_pack("{s:i, s:s, s:i}", "index", i, "op",
                              iron__rt_kind_name(op->kind), "group", op->group);
        char hl[96];
        switch (op->kind) {
        case IRON__RT_FILL:
        case IRON__RT_DRAIN:
            json_object_set_new(o, "fifo", jstr(op->h->fifo->name));
            json_object_set_new(o, "endpoint",
                                jstr(iron__handle_label(op->h, hl,
                                                        sizeof hl)));
            json_object_set_new(o, "argument", json_integer(op->arg));
            json_object_set_new(o, "argument_name",
                                jstr(d->args[op->arg].name));
            json_object_set_new(o, "tap", jtap(&op->tap));
            json_object_set_new(o, "shim_column",
                                json_integer(p->ops[i].shim_col));
            if (op->kind == IRON__RT_DRAIN)
                json_object_set_new(o, "wait", json_boolean(op->wait));
            break;
        case IRON__RT_SET_RTP:
            json_object_set_new(o, "rtp", jstr(op->rtp->name));
            json_object_set_new(o, "element", json_integer(op->index));
            json_object_set_new(o, "value", json_real(op->value));
            break;
        case IRON__RT_SET_BARRIER:
            json_object_set_new(o, "barrier", jstr(op->barrier->name));
            json_object_set_new(o, "value", json_real(op->value));
            break;
        case IRON__RT_GROUP_START:
        case IRON__RT_GROUP_FINISH:
            break;
        }
        json_array_append_new(a, o);
    }
    return a;
}

static json_t *jdma(const iron_program *p)
{
    json_t *a = json_array();
    for (int i = 0; i < p->nmovers; i++) {
        const iron__mover *m = &p->movers[i];
        const char *dir = m->src.pool < 0 ? "in"
                          : m->ndst == 0  ? "out"
                                          : "array";
        json_t *o = json_pack("{s:o, s:s, s:o}", "fifo",
                              jstr(p->fifos[m->fifo].name), "direction", dir,
                              "label", jstr(m->label));
        if (m->shim_col >= 0) {
            json_object_set_new(o, "shim_column", json_integer(m->shim_col));
            json_object_set_new(o, "shim_channel",
                                json_integer(m->shim_channel));
        }
        json_array_append_new(a, o);
    }
    return a;
}

static json_t *jtiles(const iron_program *p)
{
    json_t *a = json_array();
    for (int i = 0; i < p->ntiles; i++) {
        const iron__tile_use *u = &p->tiles[i];
        json_t *o = json_pack(
            "{s:o, s:s, s:I, s:i, s:i, s:i, s:i}", "tile", jtile(u->tile),
            "kind", u->tile.row == IRON__ROW_MEMTILE ? "memtile" : "compute",
            "memory_used", (json_int_t)u->mem_used, "locks", u->locks, "bds",
            u->bds, "dma_in", u->dma_in, "dma_out", u->dma_out);
        if (u->worker >= 0)
            json_object_set_new(o, "worker",
                                jstr(p->workers[u->worker].name));
        json_array_append_new(a, o);
    }
    return a;
}

iron_status iron__dump_json(const iron_design *d,
                                   const iron_program *p,
                                   const char *signature, iron__str *s)
{
    json_t *args = json_array();
    for (int i = 0; i < d->nargs; i++)
        json_array_append_new(
            args, json_pack("{s:i, s:o, s:s, s:s, s:o}", "index", i, "name",
                            jstr(d->args[i].name), "role",
                            iron__role_name(d->args[i].role), "dtype",
                            iron_dtype_name(d->args[i].dtype), "shape",
                            jshape(d->args[i].shape)));
    json_t *root = json_pack(
        "{s:o, s:o, s:s, s:i, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
        "signature", jstr(signature), "design", jstr(d->jit_name), "device",
        d->dev ? d->dev->name : "?", "columns", d->cols, "arguments", args,
        "fifos", jfifos(d, p), "links", jlinks(d, p), "workers",
        jworkers(d, p), "sequence", jsequence(d, p), "dma", jdma(p), "tiles",
        jtiles(p));
    char *text = root ? json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER)
                      : NULL;
    json_decref(root);
    if (!text)
        return iron__fail(IRON_ENOMEM, "out of memory writing the design "
                                       "as JSON");
    iron__str_append(s, text);
    iron__str_append(s, "\n");
    free(text);
    return s->oom ? iron__fail(IRON_ENOMEM, "out of memory") : IRON_OK;
}
