/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_mlir_parse.c - the MLIR lexer and parser (src/mlir/lex.c,
 * parse*.c): the syntax fixtures (tests/fixtures/mlir/syntax) parse into
 * the normalised tree ast.h describes, every era and form of an op gives
 * the same tree, each kind of error names its line and column, limits
 * hold, and allocation failures are clean.
 */
#include <dirent.h>

#include "core/core.h"
#include "mlir/ast.h"
#include "mlir/lex.h"
#include "test.h"

#define FIXTURES "tests/fixtures/mlir/syntax"

static iron__mlir_module *parse_text(const char *text)
{
    iron__mlir_module *m = (iron__mlir_module *)1;
    iron_status st = iron__mlir_parse(text, strlen(text), "t.mlir", &m);
    if (st != IRON_OK)
        TEST_FAIL_("parse failed: %s: %s", iron_status_name(st),
                   iron_last_error());
    ASSERT(m != NULL);
    return m;
}

static iron__mlir_module *parse_fixture(const char *name)
{
    char path[256];
    snprintf(path, sizeof path, FIXTURES "/%s", name);
    size_t len;
    char *text = (char *)test_slurp(path, &len);
    iron__mlir_module *m = NULL;
    iron_status st = iron__mlir_parse(text, len, name, &m);
    if (st != IRON_OK)
        TEST_FAIL_("%s: %s: %s", name, iron_status_name(st),
                   iron_last_error());
    free(text);
    return m;
}

/* The n-th op called name in the tree (depth first), or NULL. */
static const iron__mlir_op *find_in(const iron__mlir_op *op,
                                    const char *name, int *n)
{
    if (strcmp(op->name, name) == 0 && (*n)-- == 0)
        return op;
    for (int r = 0; r < op->nregions; r++)
        for (int b = 0; b < op->regions[r]->nblocks; b++) {
            const iron__mlir_block *blk = op->regions[r]->blocks[b];
            for (int i = 0; i < blk->nops; i++) {
                const iron__mlir_op *f = find_in(blk->ops[i], name, n);
                if (f)
                    return f;
            }
        }
    return NULL;
}

static const iron__mlir_op *find_op(const iron__mlir_module *m,
                                    const char *name, int nth)
{
    const iron__mlir_op *op = find_in(m->top, name, &nth);
    if (!op)
        TEST_FAIL_("no op %s", name);
    return op;
}

static const iron__mlir_attr *attr_of(const iron__mlir_op *op,
                                      const char *name,
                                      iron__mlir_akind kind)
{
    const iron__mlir_attr *a = iron__mlir_attr_get(op, name);
    if (!a)
        TEST_FAIL_("%s has no attribute %s", op->name, name);
    if (a->kind != kind)
        TEST_FAIL_("%s.%s is of kind %d, expected %d", op->name, name,
                   (int)a->kind, (int)kind);
    return a;
}

static char *type_str(const iron__mlir_type *t)
{
    iron__str s = { 0 };
    iron__mlir_type_text(t, &s);
    return iron__str_take(&s);
}

#define ASSERT_TYPE(t, text)                                                  \
    do {                                                                      \
        char *ts_ = type_str(t);                                              \
        ASSERT_STR_EQ(ts_, text);                                             \
        iron__free(ts_);                                                      \
    } while (0)

static const iron__mlir_type *operand_type(const iron__mlir_module *m,
                                           const iron__mlir_op *op, int i)
{
    ASSERT(i < op->noperands);
    return iron__mlir_value_at(m, op->operands[i])->type;
}

static const iron__mlir_type *result_type(const iron__mlir_module *m,
                                          const iron__mlir_op *op, int i)
{
    ASSERT(i < op->nresults);
    return iron__mlir_value_at(m, op->results[i])->type;
}

/* The generic text of a module (malloc'd). */
static char *generic_of(const iron__mlir_module *m)
{
    iron__str s = { 0 };
    ASSERT_OK(iron__mlir_print(m, 1, &s));
    return iron__str_take(&s);
}

/* ---------------------------------------------------------------------
 * The lexer
 * --------------------------------------------------------------------- */

TEST(mlir_parse_lex_tokens)
{
    const char *text = "%0#1 = \"a.b\"(@\"q s\") -> 0x1F 1.5e-3 // c\n"
                       "  ^bb2 #aie.x !t? * -7 <{>";
    iron__mlir_lexer lx;
    iron__mlir_lex_init(&lx, text, strlen(text), "x");
    static const iron__mlir_tok want[] = {
        IRON__TK_VALUE, IRON__TK_EQUAL, IRON__TK_STRING, IRON__TK_LPAREN,
        IRON__TK_SYM, IRON__TK_RPAREN, IRON__TK_ARROW, IRON__TK_INT,
        IRON__TK_FLOAT, IRON__TK_BLOCK, IRON__TK_HASH, IRON__TK_BANG,
        IRON__TK_QUESTION, IRON__TK_STAR, IRON__TK_MINUS, IRON__TK_INT,
        IRON__TK_LESS, IRON__TK_LBRACE, IRON__TK_GREATER, IRON__TK_EOF,
    };
    iron__mlir_token t;
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        ASSERT_EQ(iron__mlir_lex_next(&lx, &t), 0);
        if (t.kind != want[i])
            TEST_FAIL_("token %zu: kind %d, expected %d ('%.*s')", i,
                       (int)t.kind, (int)want[i], (int)t.n, t.p);
        if (i == 0)
            ASSERT_EQ(t.n, 4);          /* %0#1 */
        if (i == 4)
            ASSERT_EQ(t.n, 6);          /* @"q s" */
        if (i == 9) {                   /* ^bb2 on line 2, column 3 */
            ASSERT_EQ(t.loc.line, 2);
            ASSERT_EQ(t.loc.col, 3);
        }
    }
}

TEST(mlir_parse_lex_errors_name_the_place)
{
    static const struct {
        const char *text, *msg;
    } cases[] = {
        { "a\n  $", "x:2:3: unexpected character '$'" },
        { "a \"open", "x:1:3: string not closed" },
        { "a \"line\nb\"", "x:1:3: string not closed on its line" },
        { "\n\n  \xC3", "x:3:3: invalid UTF-8 (byte 0xC3)" },
        { "b \xE2\x82\xAC", "x:1:3: unexpected character U+20AC" },
        { "// fine: \xC3\xA9\n// bad: \xFF", "x:2:9: invalid UTF-8" },
        { "%", "x:1:1: '%' must be followed by a name" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        iron__mlir_lexer lx;
        iron__mlir_lex_init(&lx, cases[i].text, strlen(cases[i].text), "x");
        iron__mlir_token t;
        int r;
        do {
            r = iron__mlir_lex_next(&lx, &t);
        } while (r == 0 && t.kind != IRON__TK_EOF);
        ASSERT_EQ(r, -1);
        ASSERT_CONTAINS(iron_last_error(), cases[i].msg);
    }
}

TEST(mlir_parse_lex_unescape)
{
    const char *s = "\"a\\\"b\\\\c\\n\\t\\41\"";
    char out[32];
    size_t bad;
    long n = iron__mlir_lex_unescape(s, strlen(s), out, &bad);
    ASSERT_EQ(n, 8);
    ASSERT_STR_EQ(out, "a\"b\\c\n\tA");
    const char *z = "\"x\\00\"";
    ASSERT_EQ(iron__mlir_lex_unescape(z, strlen(z), out, &bad), -1);
    ASSERT_EQ(bad, 2);
}

/* ---------------------------------------------------------------------
 * Fixtures and trees
 * --------------------------------------------------------------------- */

TEST(mlir_parse_every_fixture_parses)
{
    DIR *d = opendir(FIXTURES);
    ASSERT(d != NULL);
    struct dirent *e;
    int n = 0;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".mlir") != 0)
            continue;
        iron__mlir_module *m = parse_fixture(e->d_name);
        ASSERT_STR_EQ(m->top->name, "builtin.module");
        ASSERT(m->top->parent == NULL);
        iron__mlir_module_free(m);
        n++;
    }
    closedir(d);
    ASSERT_GE(n, 8);
}

TEST(mlir_parse_passthrough_2024_tree)
{
    iron__mlir_module *m = parse_fixture("passthrough_2024.mlir");
    const iron__mlir_op *dev = find_op(m, "aie.device", 0);
    ASSERT(dev->parent == m->top);
    ASSERT_STR_EQ(attr_of(dev, "device", IRON__MA_KEYWORD)->s, "npu1_1col");
    ASSERT_EQ(dev->nregions, 1);

    const iron__mlir_op *t = find_op(m, "aie.tile", 1);
    ASSERT_EQ(attr_of(t, "col", IRON__MA_INT)->i, 0);
    ASSERT_EQ(attr_of(t, "row", IRON__MA_INT)->i, 2);
    ASSERT_TYPE(result_type(m, t, 0), "index");
    ASSERT_STR_EQ(iron__mlir_value_at(m, t->results[0])->name, "%tile_0_2");
    ASSERT_EQ(t->loc.line, 8);
    ASSERT_EQ(t->loc.col, 17);

    const iron__mlir_op *of = find_op(m, "aie.objectfifo", 0);
    ASSERT_STR_EQ(attr_of(of, "sym_name", IRON__MA_STR)->s, "in");
    const iron__mlir_attr *depth = attr_of(of, "elemNumber", IRON__MA_INT);
    ASSERT_EQ(depth->i, 2);
    ASSERT_TYPE(depth->type, "i32");
    const iron__mlir_attr *et = attr_of(of, "elemType", IRON__MA_TYPE);
    ASSERT_EQ(et->type->kind, IRON__MT_DIALECT);
    ASSERT_STR_EQ(et->type->dialect, "aie");
    ASSERT_STR_EQ(et->type->name, "objectfifo");
    ASSERT_TYPE(et->type->elem, "memref<1024xi32>");
    ASSERT_EQ(attr_of(of, "dimensionsToStream", IRON__MA_ARRAY)->n, 0);
    const iron__mlir_attr *from =
        attr_of(of, "dimensionsFromStreamPerConsumer", IRON__MA_ARRAY);
    ASSERT_EQ(from->n, 1);
    ASSERT_EQ(from->items[0]->n, 0);
    ASSERT_EQ(of->noperands, 2);
    ASSERT(iron__mlir_value_at(m, of->operands[0])->def ==
           find_op(m, "aie.tile", 0));

    const iron__mlir_op *core = find_op(m, "aie.core", 0);
    ASSERT_STR_EQ(attr_of(core, "link_with", IRON__MA_STR)->s,
                  "passthrough.o");
    ASSERT_TYPE(result_type(m, core, 0), "index");

    const iron__mlir_op *acq = find_op(m, "aie.objectfifo.acquire", 1);
    ASSERT_STR_EQ(attr_of(acq, "objFifo_name", IRON__MA_SYMREF)->s, "in");
    ASSERT_STR_EQ(attr_of(acq, "port", IRON__MA_KEYWORD)->s, "Consume");
    ASSERT_EQ(attr_of(acq, "size", IRON__MA_INT)->i, 1);
    ASSERT_TYPE(result_type(m, acq, 0),
                "!aie.objectfifosubview<memref<1024xi32>>");
    const iron__mlir_op *acc = find_op(m, "aie.objectfifo.subview.access", 1);
    ASSERT_EQ(acc->operands[0], acq->results[0]);
    ASSERT_EQ(attr_of(acc, "index", IRON__MA_INT)->i, 0);

    const iron__mlir_op *call = find_op(m, "func.call", 0);
    ASSERT_STR_EQ(attr_of(call, "callee", IRON__MA_SYMREF)->s,
                  "passthrough");
    ASSERT_EQ(call->noperands, 3);
    const iron__mlir_op *fn = find_op(m, "func.func", 0);
    ASSERT_STR_EQ(attr_of(fn, "sym_visibility", IRON__MA_STR)->s,
                  "private");
    const iron__mlir_attr *ft = attr_of(fn, "function_type", IRON__MA_TYPE);
    ASSERT_TYPE(ft->type, "(memref<1024xi32>, memref<1024xi32>, i32) -> ()");
    ASSERT_EQ(fn->regions[0]->nblocks, 0);

    /* the loop's implicit scf.yield is explicit */
    const iron__mlir_op *loop = find_op(m, "scf.for", 0);
    const iron__mlir_block *body = loop->regions[0]->blocks[0];
    ASSERT_EQ(body->nargs, 1);
    ASSERT_STR_EQ(body->ops[body->nops - 1]->name, "scf.yield");
    ASSERT_TYPE(iron__mlir_value_at(m, body->args[0])->type, "index");

    /* aiex's sequence (before upstream #2708) is the tree's aie one */
    const iron__mlir_op *seq = find_op(m, "aie.runtime_sequence", 0);
    ASSERT_EQ(seq->regions[0]->blocks[0]->nargs, 2);
    ASSERT(iron__mlir_attr_get(seq, "sym_name") == NULL);
    const iron__mlir_op *cp = find_op(m, "aiex.npu.dma_memcpy_nd", 0);
    ASSERT_EQ(cp->operands[0], seq->regions[0]->blocks[0]->args[1]);
    const iron__mlir_attr *sizes =
        attr_of(cp, "static_sizes", IRON__MA_DENSE_ARRAY);
    ASSERT_EQ(sizes->n, 4);
    ASSERT_EQ(sizes->items[2]->i, 4);
    ASSERT_EQ(sizes->items[3]->i, 1024);
    ASSERT_EQ(attr_of(cp, "static_strides", IRON__MA_DENSE_ARRAY)
                  ->items[2]->i, 1024);
    ASSERT_EQ(attr_of(cp, "x", IRON__MA_INT)->i, 0);
    ASSERT_EQ(attr_of(cp, "y", IRON__MA_INT)->i, 0);
    ASSERT_STR_EQ(attr_of(cp, "metadata", IRON__MA_SYMREF)->s, "out");
    ASSERT_EQ(attr_of(cp, "issue_token", IRON__MA_BOOL)->i, 1);
    ASSERT_EQ(attr_of(cp, "id", IRON__MA_INT)->i, 0);
    const iron__mlir_op *wait = find_op(m, "aiex.npu.dma_wait", 0);
    ASSERT_STR_EQ(attr_of(wait, "symbol", IRON__MA_SYMREF)->s, "out");
    iron__mlir_module_free(m);
}

TEST(mlir_parse_tasks_2025_tree)
{
    iron__mlir_module *m = parse_fixture("tasks_2025.mlir");
    const iron__mlir_op *fn = find_op(m, "func.func", 0);
    ASSERT_STR_EQ(attr_of(fn, "link_with", IRON__MA_STR)->s, "scale.o");
    const iron__mlir_op *core = find_op(m, "aie.core", 0);
    ASSERT_EQ(attr_of(core, "stack_size", IRON__MA_INT)->i, 3328);
    const iron__mlir_op *seq = find_op(m, "aie.runtime_sequence", 0);
    ASSERT_STR_EQ(attr_of(seq, "sym_name", IRON__MA_STR)->s, "sequence");
    const iron__mlir_op *task = find_op(m, "aiex.dma_configure_task_for", 1);
    ASSERT_STR_EQ(attr_of(task, "tile", IRON__MA_SYMREF)->s, "out");
    ASSERT_EQ(attr_of(task, "issue_token", IRON__MA_BOOL)->i, 1);
    ASSERT_TYPE(result_type(m, task, 0), "index");
    const iron__mlir_block *blk = task->regions[0]->blocks[0];
    ASSERT_EQ(blk->nops, 2);
    const iron__mlir_op *bd = blk->ops[0];
    ASSERT_STR_EQ(bd->name, "aie.dma_bd");
    ASSERT_EQ(attr_of(bd, "offset", IRON__MA_INT)->i, 0);
    ASSERT_EQ(attr_of(bd, "len", IRON__MA_INT)->i, 64);
    const iron__mlir_attr *dims = attr_of(bd, "dimensions", IRON__MA_ARRAY);
    ASSERT_EQ(dims->n, 4);
    ASSERT_EQ(dims->items[3]->kind, IRON__MA_DIM);
    ASSERT_EQ(dims->items[3]->i, 64);
    ASSERT_EQ(dims->items[3]->stride, 1);
    ASSERT_EQ(attr_of(bd, "burst_length", IRON__MA_INT)->i, 0);
    ASSERT_STR_EQ(blk->ops[1]->name, "aie.end");
    ASSERT_EQ(bd->operands[0], seq->regions[0]->blocks[0]->args[1]);
    const iron__mlir_op *start = find_op(m, "aiex.dma_start_task", 1);
    ASSERT_EQ(start->operands[0], task->results[0]);
    const iron__mlir_op *fr = find_op(m, "aiex.dma_free_task", 0);
    ASSERT_EQ(fr->operands[0], find_op(m, "aiex.dma_configure_task_for",
                                       0)->results[0]);
    const iron__mlir_op *bd2 = find_op(m, "aie.dma_bd", 2);
    ASSERT_EQ(attr_of(bd2, "offset", IRON__MA_INT)->i, 64);
    ASSERT(iron__mlir_attr_get(bd2, "dimensions") == NULL);
    iron__mlir_module_free(m);
}

TEST(mlir_parse_links_tree)
{
    iron__mlir_module *m = parse_fixture("links.mlir");
    const iron__mlir_op *l = find_op(m, "aie.objectfifo.link", 0);
    const iron__mlir_attr *outs = attr_of(l, "fifoOuts", IRON__MA_ARRAY);
    ASSERT_EQ(outs->n, 2);
    ASSERT_STR_EQ(outs->items[1]->s, "in1");
    ASSERT_EQ(attr_of(l, "src_offsets", IRON__MA_ARRAY)->n, 0);
    const iron__mlir_attr *dst = attr_of(l, "dst_offsets", IRON__MA_ARRAY);
    ASSERT_EQ(dst->n, 2);
    ASSERT_EQ(dst->items[1]->i, 1024);
    const iron__mlir_op *join = find_op(m, "aie.objectfifo.link", 1);
    ASSERT_EQ(attr_of(join, "src_offsets", IRON__MA_ARRAY)->n, 2);
    const iron__mlir_op *old = find_op(m, "aie.objectfifo.link", 2);
    ASSERT_EQ(attr_of(old, "dst_offsets", IRON__MA_ARRAY)->n, 0);

    const iron__mlir_op *in0 = find_op(m, "aie.objectfifo", 1);
    const iron__mlir_attr *to = attr_of(in0, "dimensionsToStream",
                                        IRON__MA_ARRAY);
    ASSERT_EQ(to->n, 2);
    ASSERT_EQ(to->items[1]->i, 128);
    ASSERT_EQ(to->items[1]->stride, 8);
    const iron__mlir_op *in1 = find_op(m, "aie.objectfifo", 2);
    const iron__mlir_attr *depth = attr_of(in1, "elemNumber",
                                           IRON__MA_ARRAY);
    ASSERT_EQ(depth->n, 2);
    ASSERT_EQ(depth->items[1]->i, 3);
    const iron__mlir_attr *from =
        attr_of(in1, "dimensionsFromStreamPerConsumer", IRON__MA_ARRAY);
    ASSERT_EQ(from->n, 1);
    ASSERT_EQ(from->items[0]->n, 2);
    ASSERT_EQ(from->items[0]->items[0]->i, 32);

    const iron__mlir_op *bc = find_op(m, "aie.objectfifo", 6);
    ASSERT_STR_EQ(attr_of(bc, "sym_name", IRON__MA_STR)->s, "bcast");
    ASSERT_EQ(bc->noperands, 4);
    from = attr_of(bc, "dimensionsFromStreamPerConsumer", IRON__MA_ARRAY);
    ASSERT_EQ(from->n, 3);
    ASSERT_EQ(from->items[0]->n, 0);
    ASSERT_EQ(from->items[1]->n, 1);
    ASSERT_EQ(from->items[2]->n, 0);
    const iron__mlir_op *fwd = find_op(m, "aie.objectfifo", 7);
    ASSERT_EQ(attr_of(fwd, "via_DMA", IRON__MA_BOOL)->i, 1);
    const iron__mlir_op *cp = find_op(m, "aiex.npu.dma_memcpy_nd", 0);
    ASSERT(iron__mlir_attr_get(cp, "x") == NULL);
    iron__mlir_module_free(m);
}

TEST(mlir_parse_rtp_locks_tree)
{
    iron__mlir_module *m = parse_fixture("rtp_locks.mlir");
    const iron__mlir_op *w = find_op(m, "aiex.npu.rtp_write", 0);
    ASSERT_STR_EQ(attr_of(w, "buffer_sym_name", IRON__MA_SYMREF)->s, "rtp");
    const iron__mlir_attr *idx = attr_of(w, "index", IRON__MA_INT);
    ASSERT_EQ(idx->i, 0);
    ASSERT_TYPE(idx->type, "ui32");
    ASSERT_EQ(attr_of(w, "value", IRON__MA_INT)->i, 42);

    const iron__mlir_op *table = find_op(m, "aie.buffer", 1);
    ASSERT_STR_EQ(attr_of(table, "sym_name", IRON__MA_STR)->s, "table");
    const iron__mlir_attr *d = attr_of(table, "initial_value",
                                       IRON__MA_DENSE);
    ASSERT_EQ(d->n, 4);
    ASSERT_EQ(d->items[1]->i, -2);
    ASSERT_TYPE(d->type, "tensor<4xi16>");
    ASSERT_TYPE(result_type(m, table, 0), "memref<4xi16>");
    const iron__mlir_op *zeros = find_op(m, "aie.buffer", 2);
    d = attr_of(zeros, "initial_value", IRON__MA_DENSE);
    ASSERT_EQ(d->n, 1);                 /* a splat */
    ASSERT_EQ(d->items[0]->kind, IRON__MA_FLOAT);

    const iron__mlir_op *lk = find_op(m, "aie.lock", 0);
    ASSERT_EQ(attr_of(lk, "lockID", IRON__MA_INT)->i, 0);
    ASSERT_EQ(attr_of(lk, "init", IRON__MA_INT)->i, 0);
    ASSERT_STR_EQ(attr_of(lk, "sym_name", IRON__MA_STR)->s, "ready");
    ASSERT(iron__mlir_attr_get(find_op(m, "aie.lock", 1), "lockID") == NULL);

    const iron__mlir_op *u0 = find_op(m, "aie.use_lock", 0);
    ASSERT_STR_EQ(attr_of(u0, "action", IRON__MA_KEYWORD)->s,
                  "AcquireGreaterEqual");
    ASSERT_EQ(attr_of(u0, "value", IRON__MA_INT)->i, 1);
    ASSERT_EQ(u0->operands[0], lk->results[0]);
    const iron__mlir_op *u1 = find_op(m, "aie.use_lock", 1);
    ASSERT_STR_EQ(attr_of(u1, "action", IRON__MA_KEYWORD)->s, "Release");
    ASSERT(iron__mlir_attr_get(u1, "value") == NULL);
    const iron__mlir_op *u2 = find_op(m, "aie.use_lock", 2);
    ASSERT_STR_EQ(attr_of(u2, "action", IRON__MA_KEYWORD)->s, "Acquire");
    ASSERT_STR_EQ(attr_of(u2, "blocking", IRON__MA_KEYWORD)->s, "Blocking");

    const iron__mlir_op *sl = find_op(m, "aiex.set_lock", 0);
    ASSERT_EQ(attr_of(sl, "value", IRON__MA_INT)->i, 1);
    ASSERT_EQ(sl->operands[0], lk->results[0]);
    const iron__mlir_op *ld = find_op(m, "memref.load", 0);
    ASSERT_TYPE(result_type(m, ld, 0), "i32");
    iron__mlir_module_free(m);
}

TEST(mlir_parse_scf_arith_tree)
{
    iron__mlir_module *m = parse_fixture("scf_arith.mlir");
    const iron__mlir_op *outer = find_op(m, "scf.for", 0);
    ASSERT_EQ(outer->noperands, 4);
    ASSERT_EQ(outer->nresults, 1);
    ASSERT_EQ(outer->regions[0]->blocks[0]->nargs, 2);
    const iron__mlir_op *intloop = find_op(m, "scf.for", 2);
    ASSERT_TYPE(operand_type(m, intloop, 0), "i16");
    ASSERT_TYPE(iron__mlir_value_at(
                    m, intloop->regions[0]->blocks[0]->args[0])->type,
                "i16");

    /* MLIR's own spelling of a while loop without loop-carried values:
     * no assignment list */
    const iron__mlir_op *bare = find_op(m, "scf.while", 0);
    ASSERT_EQ(bare->noperands, 0);
    ASSERT_EQ(bare->nresults, 0);
    ASSERT_EQ(bare->regions[0]->blocks[0]->nargs, 0);
    ASSERT_EQ(find_op(m, "scf.condition", 0)->noperands, 1);

    const iron__mlir_op *wh = find_op(m, "scf.while", 1);
    ASSERT_EQ(wh->nregions, 2);
    ASSERT_EQ(wh->nresults, 2);
    ASSERT_STR_EQ(iron__mlir_value_at(m, wh->results[1])->name, "%w#1");
    const iron__mlir_op *cond = find_op(m, "scf.condition", 1);
    ASSERT_EQ(cond->noperands, 3);
    ASSERT_EQ(wh->regions[1]->blocks[0]->nargs, 2);

    const iron__mlir_op *iff = find_op(m, "scf.if", 0);
    ASSERT_EQ(iff->nresults, 1);
    ASSERT_EQ(iff->regions[1]->nblocks, 1);
    const iron__mlir_op *call = find_op(m, "func.call", 0);
    ASSERT_EQ(call->operands[1], wh->results[1]);   /* %w#1 */
    ASSERT_TYPE(result_type(m, call, 0), "i32");
    const iron__mlir_op *noelse = find_op(m, "scf.if", 1);
    ASSERT_EQ(noelse->nresults, 0);
    ASSERT_EQ(noelse->regions[1]->nblocks, 0);
    const iron__mlir_block *then = noelse->regions[0]->blocks[0];
    ASSERT_STR_EQ(then->ops[then->nops - 1]->name, "scf.yield");

    const iron__mlir_op *cmp = find_op(m, "arith.cmpi", 2);
    ASSERT_STR_EQ(attr_of(cmp, "predicate", IRON__MA_KEYWORD)->s, "slt");
    ASSERT_TYPE(result_type(m, cmp, 0), "i1");
    const iron__mlir_op *cf = find_op(m, "arith.cmpf", 0);
    ASSERT_STR_EQ(attr_of(cf, "predicate", IRON__MA_KEYWORD)->s, "olt");
    const iron__mlir_op *ext = find_op(m, "arith.extf", 0);
    ASSERT_TYPE(result_type(m, ext, 0), "f32");
    ASSERT_TYPE(operand_type(m, ext, 0), "bf16");
    const iron__mlir_op *c = find_op(m, "arith.constant", 5);
    ASSERT_EQ(attr_of(c, "value", IRON__MA_BOOL)->i, 1);
    ASSERT_TYPE(result_type(m, c, 0), "i1");
    const iron__mlir_op *two = find_op(m, "arith.constant", 11);
    ASSERT_DBL_NEAR(attr_of(two, "value", IRON__MA_FLOAT)->f, 2.5, 0);
    const iron__mlir_op *clamp = find_op(m, "func.func", 1);
    ASSERT_EQ(clamp->regions[0]->blocks[0]->nargs, 2);
    const iron__mlir_op *ret = find_op(m, "func.return", 0);
    ASSERT_EQ(ret->noperands, 1);
    iron__mlir_module_free(m);
}

TEST(mlir_parse_misc_tree)
{
    iron__mlir_module *m = parse_fixture("misc.mlir");
    /* a bare device becomes the only op of an implicit module */
    ASSERT_EQ(m->top->regions[0]->blocks[0]->nops, 1);
    const iron__mlir_op *dev = find_op(m, "aie.device", 0);
    ASSERT_STR_EQ(attr_of(dev, "sym_name", IRON__MA_STR)->s, "design");
    const iron__mlir_op *of = find_op(m, "aie.objectfifo", 0);
    ASSERT_STR_EQ(attr_of(of, "sym_name", IRON__MA_STR)->s, "of in");
    ASSERT_TYPE(attr_of(of, "elemType", IRON__MA_TYPE)->type,
                "!aie.objectfifo<memref<8xi32>>");     /* an alias */
    const iron__mlir_op *of2 = find_op(m, "aie.objectfifo", 1);
    const iron__mlir_attr *to = attr_of(of2, "dimensionsToStream",
                                        IRON__MA_ARRAY);
    ASSERT_EQ(to->items[0]->i, 4);              /* <4, 2>: size, stride */
    ASSERT_EQ(to->items[0]->stride, 2);
    const iron__mlir_attr *init = attr_of(of2, "initValues", IRON__MA_ARRAY);
    ASSERT_EQ(init->n, 1);
    ASSERT_EQ(init->items[0]->n, 8);
    ASSERT_EQ(attr_of(of2, "repeat_count", IRON__MA_INT)->i, 3);
    const iron__mlir_op *hex = find_op(m, "aie.buffer", 0);
    ASSERT_STR_EQ(attr_of(hex, "note", IRON__MA_STR)->s,
                  "tab\tquote\"back\\slash\nhi");
    const iron__mlir_attr *d = attr_of(hex, "initial_value", IRON__MA_DENSE);
    ASSERT_EQ(d->n, 4);
    ASSERT_EQ(d->items[3]->i, 4);
    const iron__mlir_op *cst = find_op(m, "aie.buffer", 1);
    d = attr_of(cst, "initial_value", IRON__MA_DENSE);
    ASSERT_EQ(d->n, 6);
    ASSERT(d->items[2]->f != d->items[2]->f);   /* NaN from its bits */
    ASSERT_DBL_NEAR(d->items[1]->f, -2.25, 0);
    const iron__mlir_op *inf = find_op(m, "arith.constant", 0);
    ASSERT(attr_of(inf, "value", IRON__MA_FLOAT)->f > 1e308);
    const iron__mlir_op *bf = find_op(m, "arith.constant", 3);
    ASSERT_DBL_NEAR(attr_of(bf, "value", IRON__MA_FLOAT)->f, 1.0, 0);
    const iron__mlir_op *u = find_op(m, "arith.constant", 5);
    ASSERT_EQ(attr_of(u, "value", IRON__MA_INT)->i, 255);
    const iron__mlir_op *two = find_op(m, "test.two", 0);
    ASSERT_EQ(two->nresults, 2);
    ASSERT_EQ(attr_of(two, "flag", IRON__MA_UNIT)->kind, IRON__MA_UNIT);
    ASSERT_EQ(attr_of(two, "d", IRON__MA_DIM)->stride, 4);
    ASSERT_STR_EQ(attr_of(two, "kind", IRON__MA_OPAQUE)->s,
                  "affine_map<(d0) -> (d0)>");
    const iron__mlir_attr *arr = attr_of(two, "arr", IRON__MA_DENSE_ARRAY);
    ASSERT_EQ(arr->n, 2);
    ASSERT_TYPE(arr->type, "i32");
    const iron__mlir_op *use = find_op(m, "test.use", 0);
    ASSERT_EQ(use->regions[0]->nblocks, 2);
    const iron__mlir_op *br = find_op(m, "test.br", 0);
    ASSERT_EQ(br->nsucc, 1);
    ASSERT_STR_EQ(br->succ[0], "^bb1");
    const iron__mlir_op *tile = find_op(m, "aie.tile", 1);
    ASSERT_STR_EQ(attr_of(tile, "controller_id", IRON__MA_OPAQUE)->s,
                  "#aie.packet_info<pkt_type = 0, pkt_id = 27>");
    iron__mlir_module_free(m);
}

TEST(mlir_parse_odd_forms_tree)
{
    iron__mlir_module *m = parse_fixture("odd_forms.mlir");
    ASSERT_STR_EQ(attr_of(m->top, "iron.note", IRON__MA_STR)->s, "odd");
    const iron__mlir_op *dev = find_op(m, "aie.device", 0);
    ASSERT_STR_EQ(attr_of(dev, "iron.origin", IRON__MA_STR)->s, "test");
    const iron__mlir_op *space = find_op(m, "aie.buffer", 0);
    const iron__mlir_type *st = result_type(m, space, 0);
    ASSERT_EQ(st->kind, IRON__MT_MEMREF);
    ASSERT_STR_EQ(st->text, ", 2 : i32");
    ASSERT_TYPE(st->elem, "i32");
    const iron__mlir_op *g = find_op(m, "func.func", 0);
    const iron__mlir_attr *aa = attr_of(g, "arg_attrs", IRON__MA_ARRAY);
    ASSERT_EQ(aa->n, 2);
    ASSERT_STR_EQ(aa->items[0]->keys[0], "llvm.noalias");
    ASSERT_EQ(aa->items[1]->n, 0);
    const iron__mlir_op *acq = find_op(m, "aie.objectfifo.acquire", 0);
    ASSERT_EQ(acq->nresults, 2);
    ASSERT(iron__mlir_attr_get(acq, "port") == NULL);
    ASSERT_EQ(attr_of(acq, "size", IRON__MA_INT)->i, 2);
    ASSERT_TYPE(result_type(m, acq, 1), "memref<8xi32>");
    const iron__mlir_op *add = find_op(m, "arith.addi", 0);
    ASSERT_STR_EQ(attr_of(add, "overflowFlags", IRON__MA_OPAQUE)->s,
                  "#arith.overflow<nsw>");
    const iron__mlir_op *cmp = find_op(m, "arith.cmpi", 0);
    ASSERT_TYPE(result_type(m, cmp, 0), "vector<4xi1>");
    const iron__mlir_op *cp = find_op(m, "aiex.npu.dma_memcpy_nd", 0);
    ASSERT_STR_EQ(attr_of(cp, "packet", IRON__MA_OPAQUE)->s,
                  "#aie.packet_info<pkt_type = 0, pkt_id = 2>");
    const iron__mlir_op *task = find_op(m, "aiex.dma_configure_task", 0);
    ASSERT_STR_EQ(attr_of(task, "direction", IRON__MA_KEYWORD)->s, "MM2S");
    ASSERT_EQ(attr_of(task, "channel", IRON__MA_INT)->i, 0);
    const iron__mlir_op *bd = find_op(m, "aie.dma_bd", 0);
    const iron__mlir_attr *pads = attr_of(bd, "pad_dimensions",
                                          IRON__MA_ARRAY);
    ASSERT_EQ(pads->n, 2);
    ASSERT_STR_EQ(pads->items[1]->s,
                  "#aie.bd_pad_layout<const_pad_before = 1, "
                  "const_pad_after = 1>");
    ASSERT_EQ(attr_of(bd, "pad_value", IRON__MA_INT)->i, 3);
    ASSERT_EQ(attr_of(bd, "bd_id", IRON__MA_INT)->i, 0);
    const iron__mlir_op *w32 = find_op(m, "aiex.npu.write32", 0);
    ASSERT_EQ(attr_of(w32, "address", IRON__MA_INT)->i, 2048);
    ASSERT_EQ(w32->attrs[0].prop + w32->attrs[1].prop, 2);
    iron__mlir_module_free(m);
}

TEST(mlir_parse_generic_fixture_normalises)
{
    iron__mlir_module *m = parse_fixture("generic.mlir");
    const iron__mlir_op *dev = find_op(m, "aie.device", 0);
    ASSERT_STR_EQ(attr_of(dev, "device", IRON__MA_KEYWORD)->s, "npu1_1col");
    const iron__mlir_op *acq = find_op(m, "aie.objectfifo.acquire", 0);
    ASSERT_STR_EQ(attr_of(acq, "port", IRON__MA_KEYWORD)->s, "Consume");
    ASSERT_EQ(iron__mlir_attr_get(acq, "port")->loc.line, 14);
    const iron__mlir_op *ul = find_op(m, "aie.use_lock", 0);
    ASSERT_STR_EQ(attr_of(ul, "action", IRON__MA_KEYWORD)->s,
                  "AcquireGreaterEqual");
    const iron__mlir_op *cmp = find_op(m, "arith.cmpi", 0);
    ASSERT_STR_EQ(attr_of(cmp, "predicate", IRON__MA_KEYWORD)->s, "slt");
    const iron__mlir_op *w = find_op(m, "aiex.npu.rtp_write", 0);
    ASSERT_STR_EQ(attr_of(w, "buffer_sym_name", IRON__MA_SYMREF)->s, "rtp");
    ASSERT(iron__mlir_attr_get(w, "buffer") == NULL);
    const iron__mlir_op *t = find_op(m, "aiex.dma_configure_task_for", 0);
    ASSERT_STR_EQ(attr_of(t, "tile", IRON__MA_SYMREF)->s, "in");
    const iron__mlir_op *cp = find_op(m, "aiex.npu.dma_memcpy_nd", 0);
    ASSERT(iron__mlir_attr_get(cp, "operandSegmentSizes") == NULL);
    const iron__mlir_op *of = find_op(m, "aie.objectfifo", 0);
    const iron__mlir_attr *from =
        attr_of(of, "dimensionsFromStreamPerConsumer", IRON__MA_ARRAY);
    ASSERT_EQ(from->n, 1);
    ASSERT_EQ(from->items[0]->items[0]->i, 16);
    for (int i = 0; i < of->nattrs; i++)
        ASSERT_EQ(of->attrs[i].prop, 1);
    ASSERT_STR_EQ(dev->regions[0]->blocks[0]->ops[
                      dev->regions[0]->blocks[0]->nops - 1]->name,
                  "aie.end");
    iron__mlir_module_free(m);
}

/* ---------------------------------------------------------------------
 * Every era and form of an op makes the same tree
 * --------------------------------------------------------------------- */

static void same_tree(const char *a, const char *b)
{
    iron__mlir_module *ma = parse_text(a), *mb = parse_text(b);
    char *ga = generic_of(ma), *gb = generic_of(mb);
    if (strcmp(ga, gb) != 0)
        TEST_FAIL_("different trees:\n%s\n-- and --\n%s\n-- print as --\n%s"
                   "\n-- and --\n%s",
                   a, b, ga, gb);
    free(ga);
    free(gb);
    iron__mlir_module_free(ma);
    iron__mlir_module_free(mb);
}

#define DEV "aie.device(npu1_1col) {\n%t0 = aie.tile(0, 0)\n" \
            "%t2 = aie.tile(0, 2)\n"

TEST(mlir_parse_eras_make_one_tree)
{
    /* objectfifo: 2023 tuples and words, the 2024+ spelling, generic */
    same_tree(DEV "aie.objectfifo @f(%t0 toStream [<8, 1>], {%t2 fromStream "
                  "[<2, 4>]}, 2 : i32) : !aie.objectfifo<memref<8xi32>>\n}",
              DEV "aie.objectfifo @f(%t0 dimensionsToStream [<size = 8, "
                  "stride = 1>], {%t2 dimensionsFromStream [<stride = 4, "
                  "size = 2>]}, 2 : i32) : !aie.objectfifo<memref<8xi32>>\n}");
    same_tree(DEV "aie.objectfifo @f(%t0, {%t2}, 2 : i32) : "
                  "!aie.objectfifo<memref<8xi32>>\n}",
              DEV "\"aie.objectfifo\"(%t0, %t2) <{elemNumber = 2 : i32, "
                  "elemType = !aie.objectfifo<memref<8xi32>>, sym_name = "
                  "\"f\", dimensionsToStream = #aie<bd_dim_layout_array[]>, "
                  "dimensionsFromStreamPerConsumer = "
                  "#aie<bd_dim_layout_array_array[[]]>}> : (index, index) "
                  "-> ()\n}");
    /* links: no offsets, empty offsets */
    same_tree(DEV "aie.objectfifo.link [@a] -> [@b]()\n}",
              DEV "aie.objectfifo.link [@a] -> [@b] ([] [])\n}");
    same_tree(DEV "aie.objectfifo.link [@a] -> [@b]\n}",
              DEV "\"aie.objectfifo.link\"() <{fifoIns = [@a], fifoOuts = "
                  "[@b], src_offsets = [], dst_offsets = []}> : () -> ()\n}");
    /* enums: words, strings, integers */
    same_tree(DEV "%l = aie.lock(%t2, 1)\naie.use_lock(%l, \"Acquire\", 1)\n}",
              DEV "%l = aie.lock(%t2, 1)\n\"aie.use_lock\"(%l) <{action = 0 "
                  ": i32, value = 1 : i32}> : (index) -> ()\n}");
    same_tree("aie.device(npu2) {\n}",
              "\"aie.device\"() <{device = 8 : i32}> ({\n^bb0:\n}) : () "
              "-> ()");
    /* acquire / release spacing */
    same_tree(DEV "%a = aie.objectfifo.acquire @f (Consume, 1) : "
                  "!aie.objectfifosubview<memref<8xi32>>\n}",
              DEV "%a = \"aie.objectfifo.acquire\"() <{objFifo_name = @f, "
                  "port = 1 : i32, size = 1 : i32}> : () -> "
                  "!aie.objectfifosubview<memref<8xi32>>\n}");
    /* dma_memcpy_nd with and without x, y against the generic form */
    same_tree(DEV "aiex.runtime_sequence(%a: memref<8xi32>) {\n"
                  "aiex.npu.dma_memcpy_nd(%a[0, 0, 0, 0][1, 1, 1, 8][0, 0, 0,"
                  " 1]) {id = 0 : i64, metadata = @f} : memref<8xi32>\n}\n}",
              DEV "\"aiex.runtime_sequence\"() ({\n^bb0(%a: memref<8xi32>):\n"
                  "\"aiex.npu.dma_memcpy_nd\"(%a) <{id = 0 : i64, metadata = "
                  "@f, operandSegmentSizes = array<i32: 1, 0, 0, 0>, "
                  "static_offsets = array<i64: 0, 0, 0, 0>, static_sizes = "
                  "array<i64: 1, 1, 1, 8>, static_strides = array<i64: 0, 0, "
                  "0, 1>}> : (memref<8xi32>) -> ()\n}) : () -> ()\n}");
    /* rtp_write: the 2025 form and upstream's generic `buffer` */
    same_tree(DEV "aie.runtime_sequence @s() {\n"
                  "aiex.npu.rtp_write(@rtp, 2, 9)\n}\n}",
              DEV "\"aie.runtime_sequence\"() <{sym_name = \"s\"}> ({\n"
                  "\"aiex.npu.rtp_write\"() <{buffer = @rtp, index = 2 : ui32,"
                  " value = 9 : i32}> : () -> ()\n}) : () -> ()\n}");
    /* dma_bd: positional dims and the newest keywords */
    same_tree(DEV "aie.runtime_sequence(%a: memref<64xi32>) {\n"
                  "%t = aiex.dma_configure_task_for @f {\n"
                  "aie.dma_bd(%a : memref<64xi32>, 0, 64, [<size = 2, stride "
                  "= 32>, <size = 32, stride = 1>])\naie.end\n}\n}\n}",
              DEV "aie.runtime_sequence(%a: memref<64xi32>) {\n"
                  "%t = \"aiex.dma_configure_task_for\"() <{alloc = @f}> ({\n"
                  "aie.dma_bd(%a : memref<64xi32> offset = 0 len = 64 sizes "
                  "= [2, 32] strides = [32, 1])\naie.end\n}) : () -> index\n}"
                  "\n}");
    /* func's shorthands inside a function */
    same_tree("func.func private @k(i32)\nfunc.func @f(%a: i32) {\n"
              "call @k(%a) : (i32) -> ()\nreturn\n}",
              "func.func private @k(i32)\nfunc.func @f(%a: i32) {\n"
              "func.call @k(%a) : (i32) -> ()\nfunc.return\n}");
    /* modules: implicit, explicit, generic */
    same_tree("aie.device(npu1) {\n}",
              "module {\n  aie.device(npu1) {\n  }\n}");
    same_tree("module {\n}",
              "\"builtin.module\"() ({\n^bb0:\n}) : () -> ()");
}

/* ---------------------------------------------------------------------
 * Errors: one per kind, with the exact place
 * --------------------------------------------------------------------- */

static void fails_at(const char *text, const char *msg)
{
    iron__mlir_module *m = (iron__mlir_module *)1;
    iron_status st = iron__mlir_parse(text, strlen(text), "e.mlir", &m);
    if (st != IRON_ESYNTAX)
        TEST_FAIL_("expected IRON_ESYNTAX for:\n%s\ngot %s (%s)", text,
                   iron_status_name(st), iron_last_error());
    ASSERT(m == NULL);
    ASSERT_CONTAINS(iron_last_error(), msg);
}

TEST(mlir_parse_error_expected_found)
{
    fails_at("aie.device(npu1) {\n  %t = aie.tile(0, 2)\n"
             "  aie.objectfifo @of(%t, {%t} 2 : i32) : "
             "!aie.objectfifo<memref<16xi32>>\n}",
             "e.mlir:3:31: expected ',', found '2' (in aie.objectfifo at "
             "3:3)");
    fails_at("\"x.y\"() {a = [1, 2} : () -> ()",
             "e.mlir:1:19: expected ',' or ']', found '}' (in x.y at 1:1)");
    fails_at("%0 = arith.constant 1 : i32\n%1 = arith.addi %0 %0 : i32",
             "e.mlir:2:20: expected ',', found '%0' (in arith.addi at "
             "2:6)");
    fails_at("module {\n  aie.device(npu1) {\n",
             "e.mlir:3:1: expected '}' to close the region opened at 2:20, "
             "found the end of the text (in aie.device at 2:3)");
    fails_at("\"x.y\"() : i32", "e.mlir:1:11: expected a function type");
    /* found by fuzz_mlir: the printer leaves the entry label out */
    fails_at("\"x.r\"() ({\n^bb0:\n\"x.br\"()[^bb0] : () -> ()\n^bb1:\n"
             "\"x.e\"() : () -> ()\n}) : () -> ()",
             "e.mlir:3:10: ^bb0 is the region's entry block, which no branch "
             "may target");
    fails_at("%a = \"x.y\"() : () -> i32\n%b = \"x.z\"(%a) : (i32, i32) -> ()",
             "e.mlir:2:18: the type lists 2 operands, the op has 1");
}

static char *repeat(const char *head, const char *unit, long n,
                    const char *mid, const char *unit2, long n2,
                    const char *tail);

/* The ops of the one block of op's region r, by name, as "a b c". */
static void ops_are(const iron__mlir_op *op, int r, const char *want)
{
    ASSERT(r < op->nregions && op->regions[r]->nblocks == 1);
    const iron__mlir_block *blk = op->regions[r]->blocks[0];
    char got[512] = "";
    for (int i = 0; i < blk->nops; i++)
        snprintf(got + strlen(got), sizeof got - strlen(got), "%s%s",
                 i ? " " : "", blk->ops[i]->name);
    ASSERT_STR_EQ(got, want);
}

TEST(mlir_parse_unknown_custom_form_is_opaque)
{
    /* an op of a custom form the parser does not know is skipped to the
     * end of its line, or of the region it opens, and kept by name */
    iron__mlir_module *m = parse_text(
        "aie.device(npu1) {\n"
        "  %a = aie.tile(0, 0)\n"
        "  aie.flow(%a, DMA : 0, %a, DMA : 0)\n"
        "  memref.global \"public\" @g : memref<4xi32> = dense<[1, 2, 3, 4]>\n"
        "  aie.packet_flow(0x1) {\n"
        "    aie.packet_source<%a, DMA : 0>\n"
        "    aie.packet_dest<%a, DMA : 0>\n"
        "  } {keep_pkt_header = true}\n"
        "  %lt = aie.logical_tile<CoreTile>(?, ?)\n"
        "  %c = aie.core(%lt) {\n"
        "    %c0 = arith.constant 0 : index\n"
        "    %g = memref.get_global @g : memref<4xi32>\n"
        "    %v = memref.load %g[%c0] : memref<4xi32>\n"
        "    memref.copy %g, %g : memref<4xi32> to memref<4xi32>\n"
        "    aie.end\n"
        "  }\n"
        "  aie.end\n"
        "}");
    const iron__mlir_op *dev = find_op(m, "aie.device", 0);
    ops_are(dev, 0, "aie.tile aie.flow memref.global aie.packet_flow "
                    "aie.logical_tile aie.core aie.end");
    const iron__mlir_op *flow = find_op(m, "aie.flow", 0);
    ASSERT_EQ(flow->opaque, 1);
    ASSERT_EQ(flow->loc.line, 3);
    ASSERT_EQ(flow->loc.col, 3);
    ASSERT_EQ(flow->noperands, 0);
    ASSERT_EQ(flow->nattrs, 0);
    ASSERT_EQ(flow->nregions, 0);
    ASSERT_EQ(find_op(m, "aie.packet_flow", 0)->loc.line, 5);
    ASSERT(find_op(m, "aie.tile", 0)->opaque == 0);
    /* results named before '=' are defined, of the unknown type, which
     * any use's stated type is accepted for */
    const iron__mlir_op *lt = find_op(m, "aie.logical_tile", 0);
    ASSERT_EQ(lt->loc.line, 9);
    ASSERT_EQ(lt->loc.col, 9);
    ASSERT_EQ(lt->nresults, 1);
    ASSERT_TYPE(result_type(m, lt, 0), "<unknown>");
    ASSERT_EQ(find_op(m, "aie.core", 0)->operands[0], lt->results[0]);
    const iron__mlir_op *load = find_op(m, "memref.load", 0);
    ASSERT_EQ(load->operands[0],
              find_op(m, "memref.get_global", 0)->results[0]);
    ASSERT_TYPE(result_type(m, load, 0), "i32");
    ops_are(find_op(m, "aie.core", 0), 0,
            "arith.constant memref.get_global memref.load memref.copy "
            "aie.end");
    ASSERT(iron__mlir_find_opaque(m->top) == flow);
    iron__mlir_module_free(m);

    /* on one line with the '}' of the region around it; several results;
     * its own region closed on a later line, a loc(...) after it */
    m = parse_text("module { aie.device(npu1) { x.y(%q) {a = <1>} } }\n"
                   "%r:2 = x.z [1, (2)] {\n"
                   "  ^bb0: x.w \"}\" \n"
                   "} : i32 loc(\"f\":1:2)\n"
                   "\"x.u\"(%r#1, %r#0) : (i32, f32) -> ()");
    const iron__mlir_op *xz = find_op(m, "x.z", 0);
    ASSERT_EQ(xz->opaque, 1);
    ASSERT_EQ(xz->nresults, 2);
    ASSERT_EQ(find_op(m, "x.y", 0)->opaque, 1);
    ASSERT_EQ(find_op(m, "x.u", 0)->operands[1], xz->results[0]);
    /* (and the device's implicit terminator) */
    ops_are(find_op(m, "aie.device", 0), 0, "x.y aie.end");
    iron__mlir_module_free(m);
}

TEST(mlir_parse_unknown_custom_form_errors)
{
    /* what it covers must still balance, lex and end */
    fails_at("aie.device(npu1) {\n  aie.flow(%a, DMA : 0]\n}",
             "e.mlir:2:23: expected ')', found ']' (in aie.flow at 2:3)");
    fails_at("aie.device(npu1) {\n  aie.packet_flow(1) {\n    x.y\n",
             "e.mlir:4:1: expected '}', found the end of the text (in "
             "aie.packet_flow at 2:3)");
    fails_at("x.y <<<[(\n", "expected ')', found the end of the text");
    fails_at("x.y (\x01)", "e.mlir:1:6: unexpected control character");
    /* an unmatched closer ends it, for the enclosing op to refuse */
    fails_at("x.y ]", "e.mlir:1:5: expected an op, found ']'");
    /* an op name is dialect.op */
    fails_at("  foo(%x)", "e.mlir:1:3: 'foo' is not an op name");
    fails_at("aie.device(npu1) {\n  %a = x.\n}", "e.mlir:2:8: 'x.' is not "
                                                 "an op name");
    /* a result group of an op without types is bounded */
    fails_at("%r:1025 = x.y", "e.mlir:1:11: 1025 results for op 'x.y', "
                              "whose custom form is not known (at most "
                              "1024)");
    /* nesting is bounded without recursion */
    char *deep = repeat("x.y ", "(", 201, "", ")", 201, "");
    fails_at(deep, "e.mlir:1:205: nesting deeper than 200");
    free(deep);
    /* results are defined after the op, not inside it: a use is not
     * checked inside, and a name used twice is still a redefinition */
    fails_at("%a = x.y\n%a = x.z", "e.mlir:2:1: redefinition of %a");
    /* known custom forms keep their syntax errors */
    fails_at("aie.device(npu1) {\n  %t = aie.tile(0 2)\n}",
             "e.mlir:2:19: expected ','");
    /* its generic form is whole, not opaque */
    iron__mlir_module *m = parse_text(
        "%a = \"aie.tile\"() <{col = 0 : i32, row = 0 : i32}> : () -> index\n"
        "\"aie.flow\"(%a, %a) <{source_bundle = 1 : i32}> : (index, index) "
        "-> ()");
    const iron__mlir_op *flow = find_op(m, "aie.flow", 0);
    ASSERT_EQ(flow->opaque, 0);
    ASSERT_EQ(flow->noperands, 2);
    ASSERT(iron__mlir_find_opaque(m->top) == NULL);
    iron__mlir_module_free(m);
}

TEST(mlir_parse_error_undefined_value)
{
    fails_at("aie.device(npu1) {\n  %t = aie.tile(0, 2)\n"
             "  %c = aie.core(%x) {\n    aie.end\n  }\n}",
             "e.mlir:3:17: undefined value %x (in aie.core at 3:8)");
    /* a value of an isolated op's outside is not visible inside */
    fails_at("%a = arith.constant 1 : i32\nfunc.func @f() {\n"
             "  %b = arith.addi %a, %a : i32\n  return\n}",
             "e.mlir:3:19: undefined value %a");
    /* nor a value of a region after it closed */
    fails_at("\"x.r\"() ({\n  %a = \"x.v\"() : () -> i32\n}) : () -> ()\n"
             "\"x.u\"(%a) : (i32) -> ()",
             "e.mlir:4:7: undefined value %a");
    fails_at("\"x.b\"()[^nowhere] : () -> ()",
             "e.mlir:1:9: a successor outside any region");
    fails_at("\"x.r\"() ({\n  \"x.b\"()[^bb9] : () -> ()\n}) : () -> ()",
             "e.mlir:2:11: undefined block ^bb9");
}

TEST(mlir_parse_error_redefinition)
{
    fails_at("%a = arith.constant 1 : i32\n%a = arith.constant 2 : i32",
             "e.mlir:2:1: redefinition of %a (first defined at 1:1)");
    fails_at("%a = arith.constant 1 : i32\n\"x.r\"() ({\n"
             "^bb0(%a: i32):\n}) : () -> ()",
             "e.mlir:3:6: redefinition of %a (first defined at 1:1)");
    fails_at("\"x.r\"() ({\n^bb1:\n  \"x.y\"() : () -> ()\n^bb1:\n}) : () "
             "-> ()",
             "e.mlir:4:1: block ^bb1 defined twice");
    /* inside an isolated op a name may be used again */
    iron__mlir_module *m = parse_text(
        "%a = arith.constant 1 : i32\nfunc.func @f(%a: i64) {\n  return\n}");
    iron__mlir_module_free(m);
}

TEST(mlir_parse_error_type_disagrees)
{
    fails_at("%a = arith.constant 1 : i32\n%b = arith.addi %a, %a : i64",
             "e.mlir:2:17: %a is used as i64 but was defined as i32 at 1:1 "
             "(in arith.addi at 2:6)");
    fails_at("%a = \"x.v\"() : () -> f32\n\"x.u\"(%a) : (f16) -> ()",
             "e.mlir:2:7: %a is used as f16 but was defined as f32");
    fails_at("aie.device(npu1) {\n  %m = \"x.v\"() : () -> memref<8xi32>\n"
             "  %c = aie.core(%m) {\n    aie.end\n  }\n}",
             "e.mlir:3:17: %m is used as index but was defined as "
             "memref<8xi32> at 2:3");
}

TEST(mlir_parse_error_result_count)
{
    fails_at("%0 = \"x.y\"() : () -> (i32, i32)",
             "e.mlir:1:1: 1 result name for an op with 2 results");
    fails_at("%0:3 = \"x.y\"() : () -> (i32, i32)",
             "e.mlir:1:1: 3 result names for an op with 2 results");
    fails_at("%0#1 = \"x.y\"() : () -> i32",
             "e.mlir:1:1: a result is named without '#'");
    fails_at("func.func @f(%a#1: i32) {\n  return\n}",
             "e.mlir:1:14: an argument cannot be named like a result "
             "group's element (%a#1)");
    /* unnamed results are fine */
    iron__mlir_module *m = parse_text("\"x.y\"() : () -> (i32, i32)");
    iron__mlir_module_free(m);
}

TEST(mlir_parse_error_literals)
{
    fails_at("%0 = arith.constant 300 : i8",
             "e.mlir:1:21: integer does not fit its type i8");
    fails_at("%0 = arith.constant -1 : ui8",
             "e.mlir:1:22: integer does not fit its type ui8");
    fails_at("%0 = arith.constant 1 : f32",
             "e.mlir:1:21: an integer literal for a float (write 1.0)");
    fails_at("%0 = arith.constant 0x1FFFF : f16",
             "e.mlir:1:21: hexadecimal float literal wider than its 16-bit");
    fails_at("\"x.y\"() {a = 99999999999999999999} : () -> ()",
             "e.mlir:1:14: integer 99999999999999999999 does not fit 64 "
             "bits");
    fails_at("\"x.y\"() {a = 0x10000000000000000 : i64} : () -> ()",
             "e.mlir:1:14: integer 0x10000000000000000 does not fit 64 "
             "bits");
    fails_at("\"x.y\"() {a = \"x\\q\"} : () -> ()",
             "e.mlir:1:16: bad escape in a string");
    fails_at("\"x.y\"() {a = dense<[1, 2]> : tensor<3xi32>} : () -> ()",
             "e.mlir:1:19: the dense lists' shape does not match the type's");
    fails_at("\"x.y\"() {a = dense<[[1], [2, 3]]> : tensor<2x2xi32>} : () "
             "-> ()",
             "e.mlir:1:26: dense list of 2 elements where the others have 1");
    fails_at("\"x.y\"() {a = 1, a = 2} : () -> ()",
             "e.mlir:1:17: attribute 'a' given twice");
    fails_at("\"x.y\"() <{a = 1}> {a = 2} : () -> ()",
             "attribute 'a' given twice");
    fails_at("\"x.y\"() {a = #nope} : () -> ()",
             "e.mlir:1:14: undefined attribute alias #nope");
    fails_at("\"x.y\"() {a = !nope} : () -> ()",
             "e.mlir:1:14: undefined type alias !nope");
    fails_at("\"x.y\"() : () -> memref<1x2x3x4x5x6x7x8x9xi8>",
             "e.mlir:1:40: more than 8 dimensions");
}

TEST(mlir_parse_error_binary_garbage)
{
    static const char nul[] = "aie.device(npu1) {\n  %t = aie.tile(0, 2)\0\n}";
    iron__mlir_module *m = (iron__mlir_module *)1;
    ASSERT_EQ(iron__mlir_parse(nul, sizeof nul - 1, "e.mlir", &m),
              IRON_ESYNTAX);
    ASSERT(m == NULL);
    ASSERT_CONTAINS(iron_last_error(), "e.mlir:2:22: a NUL byte");
    fails_at("aie.device(npu1) {\n  %t = aie.tile(0, \xff" "2)\n}",
             "e.mlir:2:20: invalid UTF-8 (byte 0xFF)");
    fails_at("aie.device(npu1) {\n  // caf\xc3\xa9\n  %t = aie.tile(0, "
             "\xc3\xa9" "2)\n}",
             "e.mlir:3:20: unexpected character U+00E9 outside a string");
    /* inside strings anything but NUL goes */
    m = parse_text("\"x.y\"() {a = \"caf\xc3\xa9 \xff\"} : () -> ()");
    iron__mlir_module_free(m);
    fails_at("\x7f" "ELF\x02\x01", "e.mlir:1:1: unexpected control character "
                                   "0x7F");
}

static char *repeat(const char *head, const char *unit, long n,
                    const char *mid, const char *unit2, long n2,
                    const char *tail)
{
    size_t len = strlen(head) + strlen(unit) * (size_t)n + strlen(mid) +
                 strlen(unit2) * (size_t)n2 + strlen(tail) + 1;
    char *s = malloc(len), *p = s;
    ASSERT(s != NULL);
    p += sprintf(p, "%s", head);
    for (long i = 0; i < n; i++)
        p += sprintf(p, "%s", unit);
    p += sprintf(p, "%s", mid);
    for (long i = 0; i < n2; i++)
        p += sprintf(p, "%s", unit2);
    sprintf(p, "%s", tail);
    return s;
}

TEST(mlir_parse_error_nesting_limits)
{
    /* attributes: 199 lists in a dictionary fit, one more does not */
    char *ok = repeat("\"x.y\"() {a = ", "[", 199, "", "]", 199,
                      "} : () -> ()");
    iron__mlir_module *m = parse_text(ok);
    iron__mlir_module_free(m);
    free(ok);
    char *deep = repeat("\"x.y\"() {a = ", "[", 200, "", "]", 200,
                        "} : () -> ()");
    fails_at(deep, "e.mlir:1:213: nesting deeper than 200");
    free(deep);
    /* regions: 10000 would overflow a careless parser's stack */
    deep = repeat("", "\"x.y\"() ({", 10000, "", "}) : () -> ()", 10000, "");
    fails_at(deep, "e.mlir:1:2010: nesting deeper than 200");
    free(deep);
    /* types */
    deep = repeat("\"x.y\"() : () -> ", "!a.b<", 5000, "i32", ">", 5000, "");
    fails_at(deep, "nesting deeper than 200");
    free(deep);
    deep = repeat("\"x.y\"() : () -> ", "(", 5000, "", ") -> ()", 5000,
                  "");
    fails_at(deep, "nesting deeper than 200");
    free(deep);
    deep = repeat("\"x.y\"() {a = dense<", "[", 20, "1", "]", 20,
                  "> : tensor<1xi8>} : () -> ()");
    fails_at(deep, "dense lists nested deeper than 8");
    free(deep);
}

TEST_TIMEOUT(mlir_parse_error_size_limits, 120)
{
    /* text: the length is checked before anything is read */
    iron__mlir_module *m = (iron__mlir_module *)1;
    ASSERT_EQ(iron__mlir_parse("x", (size_t)IRON__MLIR_MAX_TEXT + 1,
                               "big.mlir", &m),
              IRON_ESYNTAX);
    ASSERT(m == NULL);
    ASSERT_CONTAINS(iron_last_error(),
                    "big.mlir:1:1: the text is 67108865 bytes, more than "
                    "the limit");
    /* ops */
    char *many = repeat("", "\"a.b\"() : () -> ()\n",
                        (long)IRON__MLIR_MAX_OPS + 1, "", "", 0, "");
    char want[64];
    snprintf(want, sizeof want, "e.mlir:%d:1: more than %d ops",
             IRON__MLIR_MAX_OPS + 1, IRON__MLIR_MAX_OPS);
    fails_at(many, want);
    free(many);
    /* values */
    fails_at("%0:4194305 = \"x.y\"() : () -> ()",
             "e.mlir:1:1: a result group counts 1 to 4194304 values");
    /* attribute items */
    many = repeat("\"x.y\"() {a = [", "0,", (long)IRON__MLIR_MAX_ITEMS, "",
                  "", 0, "0]} : () -> ()");
    fails_at(many, "more than 4194304 attribute items");
    free(many);
}

/* ---------------------------------------------------------------------
 * Memory
 * --------------------------------------------------------------------- */

TEST_TIMEOUT(mlir_parse_allocation_failures_are_clean, 120)
{
    size_t len;
    char *text = (char *)test_slurp(FIXTURES "/scf_arith.mlir", &len);
    int ok = 0;
    long n;
    for (n = 1; n < 100000 && !ok; n++) {
        iron__mlir_module *m = (iron__mlir_module *)1;
        iron__alloc_fail_at(n);
        iron_status st = iron__mlir_parse(text, len, "f.mlir", &m);
        iron__alloc_fail_at(0);
        if (st == IRON_OK) {
            ok = 1;
            iron__mlir_module_free(m);
        } else {
            ASSERT_EQ(st, IRON_ENOMEM);
            ASSERT(m == NULL);
            ASSERT_CONTAINS(iron_last_error(), "out of memory");
        }
    }
    ASSERT(ok);
    ASSERT_GT(n, 5);
    free(text);
    test_assert_no_leaks();
}

TEST(mlir_parse_arguments)
{
    iron__mlir_module *m = (iron__mlir_module *)1;
    ASSERT_EQ(iron__mlir_parse(NULL, 3, NULL, &m), IRON_EINVAL);
    ASSERT(m == NULL);
    ASSERT_EQ(iron__mlir_parse("x", 1, NULL, NULL), IRON_EINVAL);
    /* empty text: an empty module; the default file name */
    ASSERT_OK(iron__mlir_parse("", 0, NULL, &m));
    ASSERT_EQ(m->top->regions[0]->blocks[0]->nops, 0);
    iron__mlir_module_free(m);
    ASSERT_EQ(iron__mlir_parse("}", 1, NULL, &m), IRON_ESYNTAX);
    ASSERT_CONTAINS(iron_last_error(), "<mlir>:1:1: expected an op, found "
                                       "'}'");
    iron__mlir_module_free(NULL);
    ASSERT(iron__mlir_attr_get(NULL, "x") == NULL);
    ASSERT(iron__mlir_value_at(NULL, 0) == NULL);
}
