/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_module_graph.c - the modules of src/ include each other without a
 * cycle, as docs/architecture.md draws them.  A module is a folder of
 * src/; module a depends on module b when a file anywhere under src/a
 * has a line `#include "b/..."`.  Once design, program and body included
 * each other in a circle: nothing could be read, tested or replaced
 * alone.  The graph is read from the sources on every run, so a new
 * include that closes a loop fails here with the loop and the lines that
 * make it, and docs/architecture.md's list of who includes whom must be
 * the graph the sources have.  Run from the repository's top folder
 * (`make test` does).
 */
#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "test.h"

#define MAX_MODULES 40
#define NAME_MAX_ 32
#define WHY_MAX 256

typedef struct graph {
    int n;
    char name[MAX_MODULES][NAME_MAX_];
    unsigned char edge[MAX_MODULES][MAX_MODULES];  /* 1: i includes j */
    char why[MAX_MODULES][MAX_MODULES][WHY_MAX];   /* the first line that
                                                      does it */
} graph;

static int module_index(graph *g, const char *name, size_t len)
{
    for (int i = 0; i < g->n; i++)
        if (strlen(g->name[i]) == len && strncmp(g->name[i], name, len) == 0)
            return i;
    if (g->n == MAX_MODULES || len >= NAME_MAX_)
        TEST_FAIL_("module '%.*s': more than %d modules or a name over %d "
                   "characters; raise the test's limits",
                   (int)len, name, MAX_MODULES, NAME_MAX_ - 1);
    memcpy(g->name[g->n], name, len);
    g->name[g->n][len] = '\0';
    return g->n++;
}

static void add_edge(graph *g, int from, int to, const char *why)
{
    if (from == to || g->edge[from][to])
        return;
    g->edge[from][to] = 1;
    snprintf(g->why[from][to], WHY_MAX, "%s", why);
}

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The `#include "x/..."` lines of one file, x a folder of src/. */
static void scan_file(graph *g, int m, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        TEST_FAIL_("cannot open %s", path);
    char line[512];
    for (int ln = 1; fgets(line, sizeof line, f); ln++) {
        const char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        if (strncmp(p, "#include \"", 10) != 0)
            continue;
        p += 10;
        const char *slash = strchr(p, '/');
        const char *quote = strchr(p, '"');
        if (!slash || (quote && quote < slash))
            continue;   /* a header of the file's own folder */
        char dir[PATH_MAX];
        snprintf(dir, sizeof dir, "src/%.*s", (int)(slash - p), p);
        if (!is_dir(dir))
            continue;   /* "iron/iron.h": the public headers */
        char why[WHY_MAX];
        snprintf(why, sizeof why, "%.120s:%d: #include \"%.*s\"", path, ln,
                 quote ? (int)(quote - p) : (int)strcspn(p, "\n"), p);
        add_edge(g, m, module_index(g, p, (size_t)(slash - p)), why);
    }
    fclose(f);
}

/* Every .c and .h under dir (sub-folders too: src/compile/shim). */
static int scan_tree(graph *g, int m, const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        TEST_FAIL_("cannot open %s (run from the repository's top folder)",
                   dir);
    int files = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (e->d_name[0] == '.')
            continue;
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t n = strlen(e->d_name);
        if (is_dir(path))
            files += scan_tree(g, m, path);
        else if (n > 2 && (strcmp(e->d_name + n - 2, ".c") == 0 ||
                           strcmp(e->d_name + n - 2, ".h") == 0)) {
            scan_file(g, m, path);
            files++;
        }
    }
    closedir(d);
    return files;
}

/* The graph of src/'s modules; returns how many files were read. */
static int read_graph(graph *g)
{
    memset(g, 0, sizeof *g);
    DIR *d = opendir("src");
    if (!d)
        TEST_FAIL_("src not found (run from the repository's top folder)");
    int files = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        char path[PATH_MAX];
        snprintf(path, sizeof path, "src/%s", e->d_name);
        if (e->d_name[0] == '.' || !is_dir(path))
            continue;
        files += scan_tree(g, module_index(g, e->d_name, strlen(e->d_name)),
                           path);
    }
    closedir(d);
    return files;
}

/* Depth-first search for a cycle; 1 with the cycle written into out
 * ("a -> b -> a" and then, a line each, the includes that make it). */
enum { WHITE, GREY, BLACK };

static int visit(const graph *g, int v, int *colour, int *stack, int depth,
                 char *out, size_t len)
{
    colour[v] = GREY;
    stack[depth] = v;
    for (int w = 0; w < g->n; w++) {
        if (!g->edge[v][w])
            continue;
        if (colour[w] == GREY) {
            int from = depth;
            while (stack[from] != w)
                from--;
            size_t at = 0;
            for (int k = from; k <= depth; k++)
                at += (size_t)snprintf(out + at, at < len ? len - at : 0,
                                       "%s -> ", g->name[stack[k]]);
            at += (size_t)snprintf(out + at, at < len ? len - at : 0, "%s",
                                   g->name[w]);
            for (int k = from; k <= depth; k++) {
                int a = stack[k], b = k < depth ? stack[k + 1] : w;
                at += (size_t)snprintf(out + at, at < len ? len - at : 0,
                                       "\n  %s", g->why[a][b]);
            }
            return 1;
        }
        if (colour[w] == WHITE &&
            visit(g, w, colour, stack, depth + 1, out, len))
            return 1;
    }
    colour[v] = BLACK;
    return 0;
}

static int find_cycle(const graph *g, char *out, size_t len)
{
    int colour[MAX_MODULES] = { 0 }, stack[MAX_MODULES];
    for (int v = 0; v < g->n; v++)
        if (colour[v] == WHITE && visit(g, v, colour, stack, 0, out, len))
            return 1;
    return 0;
}

static int find(const graph *g, const char *name)
{
    for (int i = 0; i < g->n; i++)
        if (strcmp(g->name[i], name) == 0)
            return i;
    TEST_FAIL_("no module '%s' in src/", name);
}

TEST(module_graph_has_no_cycle)
{
    static graph g;
    ASSERT_GT(read_graph(&g), 150);
    ASSERT_GE(g.n, 15);
    char cycle[4096];
    if (find_cycle(&g, cycle, sizeof cycle))
        TEST_FAIL_("the modules of src/ include each other in a circle: "
                   "%s\n(a module lower in docs/architecture.md's graph "
                   "must not include a higher one; move what needs both "
                   "above them)", cycle);
}

/* The search itself: a loop of three is found and printed with the lines
 * that make it, and a chain is not a loop. */
TEST(module_graph_finds_a_cycle)
{
    static graph g;
    memset(&g, 0, sizeof g);
    int a = module_index(&g, "a", 1), b = module_index(&g, "b", 1),
        c = module_index(&g, "c", 1), d = module_index(&g, "d", 1);
    add_edge(&g, a, b, "src/a/x.c:3: #include \"b/b.h\"");
    add_edge(&g, b, c, "src/b/y.c:7: #include \"c/c.h\"");
    add_edge(&g, d, a, "src/d/z.c:1: #include \"a/a.h\"");
    char text[1024];
    ASSERT_EQ(find_cycle(&g, text, sizeof text), 0);
    add_edge(&g, c, a, "src/c/w.h:9: #include \"a/a.h\"");
    ASSERT_EQ(find_cycle(&g, text, sizeof text), 1);
    ASSERT_STR_EQ(text, "a -> b -> c -> a\n"
                        "  src/a/x.c:3: #include \"b/b.h\"\n"
                        "  src/b/y.c:7: #include \"c/c.h\"\n"
                        "  src/c/w.h:9: #include \"a/a.h\"");
}

/* The base layer includes no other module, and a driver (src/emu) only
 * the program it loads and the timing model's description of the chip
 * (docs/architecture.md, "The driver boundary"). */
TEST(module_graph_core_and_driver_boundaries)
{
    static graph g;
    read_graph(&g);
    int core = find(&g, "core"), emu = find(&g, "emu");
    int program = find(&g, "program"), timing = find(&g, "timing");
    for (int j = 0; j < g.n; j++) {
        if (g.edge[core][j])
            TEST_FAIL_("core includes module '%s' (%s); the base layer "
                       "includes none", g.name[j], g.why[core][j]);
        if (j != core && j != program && j != timing && g.edge[emu][j])
            TEST_FAIL_("the emulator includes module '%s' (%s); a driver "
                       "includes only program/program.h, timing/ and core/",
                       g.name[j], g.why[emu][j]);
    }
}

/* A module's level: 0 for core, else one more than the highest level of
 * the modules it includes (1 when it includes only core).  The graph has
 * no cycle (checked before this is called). */
static int level_of(const graph *g, int m, int *memo)
{
    if (memo[m] >= 0)
        return memo[m];
    int level = strcmp(g->name[m], "core") == 0 ? 0 : 1;
    for (int j = 0; j < g->n; j++)
        if (g->edge[m][j] && level_of(g, j, memo) + 1 > level)
            level = level_of(g, j, memo) + 1;
    return memo[m] = level;
}

/* The fenced ```text block after heading `head` in doc (malloc'd). */
static char *doc_block(const char *doc, const char *head)
{
    const char *sec = strstr(doc, head);
    if (!sec)
        TEST_FAIL_("docs/architecture.md has no \"%s\" section", head);
    const char *block = strstr(sec, "```text\n");
    ASSERT(block != NULL);
    block += 8;
    const char *end = strstr(block, "```");
    ASSERT(end != NULL);
    char *out = malloc((size_t)(end - block) + 1);
    ASSERT(out != NULL);
    memcpy(out, block, (size_t)(end - block));
    out[end - block] = '\0';
    return out;
}

/* docs/architecture.md's levels ("level N   a  b  c") are the sources':
 * every module once, at the level its includes give it. */
TEST(module_graph_levels_are_the_documented_ones)
{
    static graph g;
    read_graph(&g);
    char cycle[4096];
    ASSERT_EQ(find_cycle(&g, cycle, sizeof cycle), 0);
    int memo[MAX_MODULES], seen[MAX_MODULES] = { 0 };
    for (int m = 0; m < g.n; m++)
        memo[m] = -1;
    size_t len;
    char *doc = (char *)test_slurp("docs/architecture.md", &len);
    char *block = doc_block(doc, "### The module graph");
    char *lines_at, *names_at;
    for (char *line = strtok_r(block, "\n", &lines_at); line;
         line = strtok_r(NULL, "\n", &lines_at)) {
        int level, used;
        if (sscanf(line, "level %d%n", &level, &used) != 1)
            TEST_FAIL_("docs/architecture.md: \"%s\" is not \"level N  "
                       "modules\"", line);
        for (char *name = strtok_r(line + used, " ", &names_at); name;
             name = strtok_r(NULL, " ", &names_at)) {
            int m = find(&g, name);
            seen[m]++;
            if (level_of(&g, m, memo) != level)
                TEST_FAIL_("docs/architecture.md puts '%s' on level %d; "
                           "its includes put it on level %d",
                           name, level, level_of(&g, m, memo));
        }
    }
    for (int m = 0; m < g.n; m++)
        if (seen[m] != 1)
            TEST_FAIL_("docs/architecture.md's levels name module '%s' %d "
                       "times; expected once", g.name[m], seen[m]);
    free(block);
    free(doc);
}

/* docs/architecture.md's "Who includes whom" block lists every module
 * once, as `name -> its modules` (sorted; core, which every module
 * includes, left out; nothing after the arrow for a module that
 * includes only core), and the list is the sources' graph exactly. */
TEST(module_graph_is_the_documented_one)
{
    static graph g;
    read_graph(&g);
    size_t len;
    char *doc = (char *)test_slurp("docs/architecture.md", &len);
    const char *sec = strstr(doc, "### Who includes whom");
    if (!sec)
        TEST_FAIL_("docs/architecture.md has no \"### Who includes whom\" "
                   "section");
    const char *block = strstr(sec, "```text\n");
    ASSERT(block != NULL);
    block += 8;
    const char *end = strstr(block, "```");
    ASSERT(end != NULL);
    int seen[MAX_MODULES] = { 0 };
    for (const char *p = block; p < end;) {
        const char *nl = strchr(p, '\n');
        char line[512];
        snprintf(line, sizeof line, "%.*s", (int)(nl - p), p);
        p = nl + 1;
        char *arrow = strstr(line, " ->");
        if (!arrow) {
            if (line[0])
                TEST_FAIL_("docs/architecture.md: \"%s\" is not "
                           "\"module -> modules\"", line);
            continue;
        }
        *arrow = '\0';
        char *name = line;
        while (*name == ' ')
            name++;
        for (char *q = arrow - 1; q >= name && *q == ' '; q--)
            *q = '\0';
        int m = find(&g, name);
        seen[m]++;
        /* What the sources say, in the document's form. */
        char want[512] = "";
        const char *order[MAX_MODULES];
        int nord = 0;
        for (int j = 0; j < g.n; j++)
            if (g.edge[m][j] && strcmp(g.name[j], "core") != 0)
                order[nord++] = g.name[j];
        for (int x = 1; x < nord; x++)
            for (int y = x; y > 0 && strcmp(order[y - 1], order[y]) > 0;
                 y--) {
                const char *t = order[y];
                order[y] = order[y - 1];
                order[y - 1] = t;
            }
        for (int x = 0; x < nord; x++)
            snprintf(want + strlen(want), sizeof want - strlen(want), "%s%s",
                     x ? " " : "", order[x]);
        const char *got = arrow + 3;
        while (*got == ' ')
            got++;
        if (strcmp(got, want) != 0)
            TEST_FAIL_("docs/architecture.md: %s -> %s; the sources: "
                       "%s -> %s", name, got, name, want);
    }
    for (int m = 0; m < g.n; m++)
        if (seen[m] != 1)
            TEST_FAIL_("docs/architecture.md lists module '%s' %d times "
                       "in \"Who includes whom\"; expected once",
                       g.name[m], seen[m]);
    free(doc);
}
