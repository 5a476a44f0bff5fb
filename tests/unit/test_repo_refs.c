/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_repo_refs.c - the documents and sources name only files of this
 * repository: a reader of docs/, examples/, src/, cli/ or README.md (or of
 * the output of the programs built from them) can open every file they
 * name.  A note once cited "IRON-MODEL.md §4", a file that only its
 * authors had.  Run from the repository's top folder (`make test` does).
 */
#include <dirent.h>
#include <glob.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "test.h"

/* The folders of the repository whose files name others. */
static const char *const scanned[] = { "docs", "examples", "src", "cli",
                                       "python/iron", "README.md" };
/* The repository's top folders: a path starting with one of them names a
 * file of the repository, from the top. */
static const char *const tops[] = { "src/",   "cli/",  "examples/",
                                    "tests/", "include/", "docs/",
                                    "bench/", "fuzz/", "tools/", "cmake/",
                                    "python/" };

static int path_char(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '/' ||
           c == '-' || c == '*';
}

static int exists(const char *path)
{
    struct stat st;
    if (strchr(path, '*')) {
        glob_t g;
        int found = glob(path, 0, NULL, &g) == 0 && g.gl_pathc > 0;
        globfree(&g);
        return found;
    }
    return stat(path, &st) == 0;
}

/* Whether a file called `base` is anywhere in the repository (build
 * folders and .git aside). */
static int base_in(const char *dir, const char *base)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    int found = 0;
    for (struct dirent *e; !found && (e = readdir(d)) != NULL;) {
        if (e->d_name[0] == '.')
            continue;
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        int is_dir = stat(path, &st) == 0 && S_ISDIR(st.st_mode);
        /* Build folders (build, build-asan, ...) hold copies, not
         * documents; a document may still be called building.md. */
        if (is_dir && strncmp(e->d_name, "build", 5) == 0)
            continue;
        if (strcmp(e->d_name, base) == 0)
            found = 1;
        else if (is_dir)
            found = base_in(path, base);
    }
    closedir(d);
    return found;
}

/* `target`, named in a file of folder `from`, resolved from there: it
 * must exist and stay inside the repository. */
static int inside_and_exists(const char *from, const char *target)
{
    char joined[PATH_MAX], real[PATH_MAX], top[PATH_MAX];
    snprintf(joined, sizeof joined, "%s/%s", from, target);
    if (!realpath(".", top) || !realpath(joined, real))
        return 0;
    size_t n = strlen(top);
    return strncmp(real, top, n) == 0 && (real[n] == '/' || !real[n]);
}

/* The first mention in text (the file `name`, in folder `from`) of a file
 * outside the repository, described in why; 0 when there is none. */
static int first_outside(const char *name, const char *from,
                         const char *text, char *why, size_t len)
{
    int line = 1;
    size_t nl = strlen(name);
    int markdown = nl > 3 && strcmp(name + nl - 3, ".md") == 0;
    int in_code = 0;   /* inside a fenced code block: no Markdown links */
    for (const char *p = text; *p;) {
        if (*p == '\n') {
            line++;
            p++;
            continue;
        }
        if ((p == text || p[-1] == '\n') && strncmp(p, "```", 3) == 0)
            in_code = !in_code;
        /* A section sign points into a numbered document; this
         * repository's documents are not numbered. */
        if ((unsigned char)p[0] == 0xc2 && (unsigned char)p[1] == 0xa7) {
            snprintf(why, len, "%s:%d: a '§' section of a document outside "
                     "the repository", name, line);
            return 1;
        }
        /* Markdown links: every relative target is a file here. */
        if (markdown && !in_code && p[0] == ']' && p[1] == '(') {
            const char *e = strchr(p + 2, ')');
            char target[512];
            if (e && e - p - 2 < (long)sizeof target) {
                snprintf(target, sizeof target, "%.*s", (int)(e - p - 2),
                         p + 2);
                target[strcspn(target, "#")] = '\0';
                if (target[0] && !strstr(target, "://") &&
                    strncmp(target, "mailto:", 7) != 0 &&
                    !inside_and_exists(from, target)) {
                    snprintf(why, len, "%s:%d: a link to '%.300s', which is "
                             "not a file of the repository", name, line,
                             target);
                    return 1;
                }
            }
        }
        if (!path_char((unsigned char)*p)) {
            p++;
            continue;
        }
        const char *s = p;
        while (path_char((unsigned char)*p))
            p++;
        char w[512];
        size_t n = (size_t)(p - s);
        if (n >= sizeof w || (s > text && s[-1] == ':'))
            continue;   /* not a path, or part of a URL */
        memcpy(w, s, n);
        /* Sentence punctuation is not part of a name. */
        while (n && (w[n - 1] == '.' || w[n - 1] == '-'))
            n--;
        w[n] = '\0';
        const char *base = strrchr(w, '/') ? strrchr(w, '/') + 1 : w;
        if (strncmp(w, "/work/", 6) == 0 || strncmp(w, "/home/", 6) == 0 ||
            strncmp(w, "/root/", 6) == 0) {
            snprintf(why, len, "%s:%d: '%.300s' is a path on one machine",
                     name, line, w);
            return 1;
        }
        if (strstr(w, "../") && !inside_and_exists(from, w)) {
            snprintf(why, len, "%s:%d: '%.300s' leads out of the repository (or "
                     "to nothing)", name, line, w);
            return 1;
        }
        for (size_t k = 0; k < sizeof tops / sizeof tops[0]; k++)
            if (strncmp(w, tops[k], strlen(tops[k])) == 0 && !exists(w)) {
                snprintf(why, len, "%s:%d: '%.300s' is not a file of the "
                         "repository", name, line, w);
                return 1;
            }
        if (n > 3 && strcmp(w + n - 3, ".md") == 0 && !strchr(base, '*') &&
            !base_in(".", base)) {
            snprintf(why, len, "%s:%d: '%.300s' is not a document of the "
                     "repository", name, line, w);
            return 1;
        }
    }
    return 0;
}

static int scan_file(const char *path, char *why, size_t len)
{
    size_t n;
    char *text = (char *)test_slurp(path, &n);
    if (!text || memchr(text, '\0', n)) {   /* binary files name nothing */
        free(text);
        return 0;
    }
    char from[PATH_MAX];
    snprintf(from, sizeof from, "%s", path);
    char *slash = strrchr(from, '/');
    if (slash)
        *slash = '\0';
    else
        snprintf(from, sizeof from, ".");
    int r = first_outside(path, from, text, why, len);
    free(text);
    return r;
}

static int scan_tree(const char *path, char *why, size_t len, int *files)
{
    struct stat st;
    if (stat(path, &st) != 0)
        TEST_FAIL_("%s not found (run from the repository's top folder, as "
                   "`make test` does)", path);
    if (!S_ISDIR(st.st_mode)) {
        (*files)++;
        return scan_file(path, why, len);
    }
    DIR *d = opendir(path);
    ASSERT(d != NULL);
    int r = 0;
    for (struct dirent *e; !r && (e = readdir(d)) != NULL;) {
        if (e->d_name[0] == '.')
            continue;
        char sub[PATH_MAX];
        snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
        r = scan_tree(sub, why, len, files);
    }
    closedir(d);
    return r;
}

TEST(repo_names_only_its_own_files)
{
    char why[1024];
    int files = 0;
    for (size_t i = 0; i < sizeof scanned / sizeof scanned[0]; i++)
        if (scan_tree(scanned[i], why, sizeof why, &files))
            TEST_FAIL_("%s", why);
    ASSERT_GT(files, 100);
}

/* The check finds what it is for. */
TEST(repo_refs_check_finds_outside_files)
{
    static const struct {
        const char *text, *needle;
    } cases[] = {
        { "the reference designs of IRON-MODEL.md, section 4",
          "'IRON-MODEL.md' is not a document" },
        { "see ../shared/STYLE.md", "'../shared/STYLE.md' leads out" },
        { "as /work/shared/notes.txt says", "is a path on one machine" },
        { "IRON's semantics (\xc2\xa7" "2)", "a '§' section" },
        { "[the model](../../model.md)", "a link to '../../model.md'" },
        { "\n\nsrc/emu/no_such_file.c holds it.",
          "x.md:3: 'src/emu/no_such_file.c' is not a file" },
    };
    char why[1024];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (!first_outside("x.md", "docs", cases[i].text, why, sizeof why))
            TEST_FAIL_("'%s': not found", cases[i].text);
        ASSERT_CONTAINS(why, cases[i].needle);
    }
    static const char *const fine[] = {
        "docs/cli.md, [cli](cli.md#environment), src/mlir/export*.c, cli.md.",
        "examples/designs/ holds them.",
        "writes DIR/README.md and kernels/K.c",
        "https://example.org/a/IRON-MODEL.md",
    };
    for (size_t i = 0; i < sizeof fine / sizeof fine[0]; i++)
        if (first_outside("x.md", "docs", fine[i], why, sizeof why))
            TEST_FAIL_("'%s': %s", fine[i], why);
}
