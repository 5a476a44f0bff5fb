/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * exports.c - the designs a shared library offers: every NAME for which
 * its dynamic symbol table defines a function NAME_design and an object
 * NAME_options, read from the file with libelf (which the library links
 * already), so that `iron check lib.so NAME` with a wrong NAME can say
 * which names would do.  The file is read, never loaded.
 */
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Whether the symbol names something the library defines and exports. */
static int defined(const GElf_Sym *s, int type)
{
    int bind = GELF_ST_BIND(s->st_info);
    return s->st_shndx != SHN_UNDEF && GELF_ST_TYPE(s->st_info) == type &&
           (bind == STB_GLOBAL || bind == STB_WEAK);
}

/* Whether the table defines the object `name`. */
static int has_object(Elf *e, Elf_Data *data, size_t count, size_t strtab,
                      const char *name)
{
    for (size_t i = 0; i < count; i++) {
        GElf_Sym s;
        const char *n;
        if (gelf_getsym(data, (int)i, &s) && defined(&s, STT_OBJECT) &&
            (n = elf_strptr(e, strtab, s.st_name)) != NULL &&
            strcmp(n, name) == 0)
            return 1;
    }
    return 0;
}

/* The NAMEs of one dynamic symbol table, appended to *names. */
static int scan(Elf *e, Elf_Scn *scn, const GElf_Shdr *sh, char ***names,
                int *n)
{
    Elf_Data *data = elf_getdata(scn, NULL);
    if (!data || sh->sh_entsize == 0)
        return 0;
    size_t count = sh->sh_size / sh->sh_entsize;
    for (size_t i = 0; i < count; i++) {
        GElf_Sym s;
        const char *name;
        if (!gelf_getsym(data, (int)i, &s) || !defined(&s, STT_FUNC) ||
            (name = elf_strptr(e, sh->sh_link, s.st_name)) == NULL)
            continue;
        size_t len = strlen(name), suffix = strlen("_design");
        if (len <= suffix || strcmp(name + len - suffix, "_design") != 0)
            continue;
        char options[512];
        if (len - suffix + sizeof "_options" > sizeof options)
            continue;
        snprintf(options, sizeof options, "%.*s_options",
                 (int)(len - suffix), name);
        if (!has_object(e, data, count, sh->sh_link, options))
            continue;
        char **grown = realloc(*names, (size_t)(*n + 1) * sizeof **names);
        char *copy = strndup(name, len - suffix);
        if (!grown || !copy) {
            free(copy);
            if (grown)
                *names = grown;
            return -1;
        }
        *names = grown;
        (*names)[(*n)++] = copy;
    }
    return 0;
}

int cli_library_designs(const char *path, char ***names)
{
    *names = NULL;
    int n = 0, rc = 0;
    if (elf_version(EV_CURRENT) == EV_NONE)
        return -1;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    Elf *e = elf_begin(fd, ELF_C_READ, NULL);
    if (!e || elf_kind(e) != ELF_K_ELF)
        rc = -1;
    for (Elf_Scn *scn = NULL; rc == 0 && e && (scn = elf_nextscn(e, scn));) {
        GElf_Shdr sh;
        if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_DYNSYM)
            rc = scan(e, scn, &sh, names, &n);
    }
    if (e)
        elf_end(e);
    close(fd);
    if (rc != 0) {
        cli_free_names(*names, n);
        *names = NULL;
        return -1;
    }
    if (n > 1)
        qsort(*names, (size_t)n, sizeof **names, by_name);
    return n;
}

void cli_free_names(char **names, int n)
{
    for (int i = 0; i < n; i++)
        free(names[i]);
    free(names);
}
