/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * state.c - whether a compiled kernel object keeps writable state of its
 * own: static or global variables.  A core has its own data memory, so
 * workers running a kernel with state each need their own loaded
 * instance; without state one instance can serve them all, which saves a
 * load per worker.  Read from the object's ELF symbol table in memory.
 */
#include <elf.h>
#include <string.h>

#include "compile/compile.h"

/* Objects every shared object carries (the C runtime's and ours): not
 * the kernel's state. */
static int ignored(const char *name)
{
    return strncmp(name, "__", 2) == 0 || strncmp(name, "completed.", 10) == 0 ||
           strcmp(name, "iron__api") == 0 || strcmp(name, "iron__rt") == 0 ||
           strcmp(name, "iron__kentry") == 0 ||
           strcmp(name, "iron__ctl_own") == 0;
}

/* Walks the kernel's own data objects (static and global variables,
 * constant tables included) in the object's symbol table, adding their
 * sizes: all of them to *all, the writable ones to *writable.  -1 when the
 * table cannot be read (stripped or damaged), else 0. */
static int walk_objects(const iron__kobj *o, size_t *all, size_t *writable)
{
    *all = *writable = 0;
    size_t len;
    const unsigned char *img = (const unsigned char *)iron__kobj_image(o, &len);
    if (!img || len < sizeof(Elf64_Ehdr))
        return -1;
    Elf64_Ehdr eh;
    memcpy(&eh, img, sizeof eh);
    if (memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
        eh.e_ident[EI_CLASS] != ELFCLASS64 ||
        eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shoff > len ||
        (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr) > len - eh.e_shoff)
        return -1;
    Elf64_Shdr sh[1024];
    if (eh.e_shnum == 0 || eh.e_shnum > 1024)
        return -1;
    memcpy(sh, img + eh.e_shoff, (size_t)eh.e_shnum * sizeof sh[0]);
    for (int s = 0; s < eh.e_shnum; s++) {
        if (sh[s].sh_type != SHT_SYMTAB)
            continue;
        if (sh[s].sh_link >= eh.e_shnum || sh[s].sh_offset > len ||
            sh[s].sh_size > len - sh[s].sh_offset)
            return -1;
        const Elf64_Shdr *strs = &sh[sh[s].sh_link];
        if (strs->sh_offset > len || strs->sh_size > len - strs->sh_offset)
            return -1;
        size_t nsym = sh[s].sh_size / sizeof(Elf64_Sym);
        for (size_t i = 0; i < nsym; i++) {
            Elf64_Sym sym;
            memcpy(&sym, img + sh[s].sh_offset + i * sizeof sym, sizeof sym);
            int type = ELF64_ST_TYPE(sym.st_info);
            if ((type != STT_OBJECT && type != STT_TLS) || sym.st_size == 0)
                continue;
            if (sym.st_shndx == SHN_UNDEF || sym.st_shndx >= eh.e_shnum)
                continue;
            if (sym.st_name >= strs->sh_size)
                return -1;
            const char *name = (const char *)img + strs->sh_offset + sym.st_name;
            if (!memchr(name, '\0', strs->sh_size - sym.st_name))
                return -1;
            if (ignored(name))
                continue;
            *all += sym.st_size;
            if (sh[sym.st_shndx].sh_flags & SHF_WRITE)
                *writable += sym.st_size;
        }
        return 0;
    }
    return -1;  /* no symbol table (stripped) */
}

/* 1: has state (or cannot tell: then assume so); 0: none. */
int iron__kobj_has_state(const iron__kobj *o)
{
    size_t all, writable;
    return walk_objects(o, &all, &writable) < 0 || writable > 0;
}

size_t iron__kobj_data_bytes(const iron__kobj *o)
{
    size_t all, writable;
    return walk_objects(o, &all, &writable) < 0 ? 0 : all;
}
