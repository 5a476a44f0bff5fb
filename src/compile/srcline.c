/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * srcline.c - code address -> "function at file:line" (compile layer).
 *
 * Finds the loaded object holding the address (dl_iterate_phdr for its
 * load bias and build-id, /proc/self/maps for its file), opens that file
 * and reports it alone to a fresh Dwfl, so that a lookup costs one small
 * object's line table rather than the whole process's.  Nothing is
 * cached: kernel objects are unloaded and others loaded at the same
 * addresses, so an address says nothing about which object it is in.
 */
#include <dlfcn.h>
#include <elf.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "compile/srcline.h"
#include "core/core.h"

/* elfutils does not promise that libdw may be used from several threads
 * at once (its thread safety is an experimental build option); faults are
 * rare, so lookups simply take turns. */
static pthread_mutex_t srcline_lock = PTHREAD_MUTEX_INITIALIZER;

/* ---- the object holding pc ------------------------------------------- */

#define BUILD_ID_MAX 64

typedef struct objinfo {
    uintptr_t pc;
    int found;
    uintptr_t bias;            /* l_addr: file vaddr + bias = address */
    unsigned char build_id[BUILD_ID_MAX];
    size_t build_id_len;       /* 0: none seen */
} objinfo;

/* Whether [vaddr, vaddr + size) lies in one of the object's PT_LOAD
 * segments, i.e. is mapped and may be read. */
static int in_load(const struct dl_phdr_info *info, ElfW(Addr) vaddr,
                   size_t size)
{
    for (ElfW(Half) i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_LOAD && vaddr >= ph->p_vaddr &&
            size <= ph->p_filesz && vaddr - ph->p_vaddr <= ph->p_filesz - size)
            return 1;
    }
    return 0;
}

/* Copies the GNU build-id note out of the loaded image: it names the
 * exact file the object came from, whatever path it has now. */
static void read_build_id(const struct dl_phdr_info *info, objinfo *o)
{
    for (ElfW(Half) i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_NOTE || !in_load(info, ph->p_vaddr, ph->p_filesz))
            continue;
        size_t align = ph->p_align == 8 ? 8 : 4;
        const unsigned char *p =
            (const unsigned char *)(info->dlpi_addr + ph->p_vaddr);
        size_t left = ph->p_filesz;
        while (left >= sizeof(ElfW(Nhdr))) {
            ElfW(Nhdr) nh;
            memcpy(&nh, p, sizeof nh);
            size_t name = (nh.n_namesz + align - 1) & ~(align - 1);
            size_t desc = (nh.n_descsz + align - 1) & ~(align - 1);
            if (name > left - sizeof nh || desc > left - sizeof nh - name)
                break;
            if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
                memcmp(p + sizeof nh, "GNU", 4) == 0 && nh.n_descsz > 0 &&
                nh.n_descsz <= BUILD_ID_MAX) {
                memcpy(o->build_id, p + sizeof nh + name, nh.n_descsz);
                o->build_id_len = nh.n_descsz;
                return;
            }
            p += sizeof nh + name + desc;
            left -= sizeof nh + name + desc;
        }
    }
}

/* Runs under the loader's lock, so the image cannot be unloaded while its
 * notes are copied. */
static int find_object(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    objinfo *o = arg;
    if (o->pc < info->dlpi_addr)
        return 0;
    ElfW(Addr) vaddr = o->pc - info->dlpi_addr;
    for (ElfW(Half) i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_LOAD && vaddr >= ph->p_vaddr &&
            vaddr - ph->p_vaddr < ph->p_memsz) {
            o->found = 1;
            o->bias = info->dlpi_addr;
            read_build_id(info, o);
            return 1;
        }
    }
    return 0;
}

/* ---- its file --------------------------------------------------------- */

typedef struct mapping {
    unsigned long start, end;
    unsigned dev_major, dev_minor;
    unsigned long inode;
    int deleted;               /* the kernel says the file is gone */
    char path[PATH_MAX];       /* "" when there is none or it was too long */
} mapping;

/* The /proc/self/maps line whose range holds pc. */
static int find_mapping(uintptr_t pc, mapping *m)
{
    FILE *f = fopen("/proc/self/maps", "re");
    if (!f)
        return 0;
    char line[PATH_MAX + 256];
    int found = 0;
    while (!found && fgets(line, sizeof line, f)) {
        size_t n = strlen(line);
        int whole = n > 0 && line[n - 1] == '\n';
        if (whole) {
            line[--n] = '\0';
        } else {
            /* A path longer than the buffer: the rest of the line goes,
             * and with it the path (map_files does not need it). */
            int c;
            while ((c = fgetc(f)) != EOF && c != '\n')
                ;
        }
        unsigned long start, end, off, ino;
        unsigned maj, min;
        int pos = 0;
        if (sscanf(line, "%lx-%lx %*s %lx %x:%x %lu %n", &start, &end, &off,
                   &maj, &min, &ino, &pos) < 6)
            continue;
        if (pc < start || pc >= end)
            continue;
        found = 1;
        m->start = start;
        m->end = end;
        m->dev_major = maj;
        m->dev_minor = min;
        m->inode = ino;
        m->deleted = 0;
        m->path[0] = '\0';
        if (whole && pos > 0 && line[pos] == '/') {
            static const char gone[] = " (deleted)";
            size_t len = strlen(line + pos);
            if (len >= sizeof gone - 1 &&
                strcmp(line + pos + len - (sizeof gone - 1), gone) == 0) {
                m->deleted = 1;
                len -= sizeof gone - 1;
            }
            if (len < sizeof m->path) {
                memcpy(m->path, line + pos, len);
                m->path[len] = '\0';
            }
        }
    }
    fclose(f);
    return found;
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* ---- libdwfl ---------------------------------------------------------- */

/* Kernels carry their debug information in the object itself, so this
 * only matters for other code (libraries with separate debuginfo).  With
 * DEBUGINFOD_URLS set, the standard search ends by asking a debuginfod
 * server over the network: not something to wait for while reporting a
 * fault, so then no separate debuginfo is looked for. */
static int find_debuginfo(Dwfl_Module *mod, void **userdata,
                          const char *modname, Dwarf_Addr base,
                          const char *file_name, const char *debuglink_file,
                          GElf_Word debuglink_crc, char **debuginfo_file_name)
{
    const char *urls = getenv("DEBUGINFOD_URLS");
    if (urls && urls[0])
        return -1;
    return dwfl_standard_find_debuginfo(mod, userdata, modname, base,
                                        file_name, debuglink_file,
                                        debuglink_crc, debuginfo_file_name);
}

static char *debuginfo_path;

static const Dwfl_Callbacks callbacks = {
    .find_elf = dwfl_linux_proc_find_elf,
    .find_debuginfo = find_debuginfo,
    .debuginfo_path = &debuginfo_path,
};

/* A Dwfl holding just the object open on fd (taken over: closed in every
 * case), loaded with bias o->bias.  NULL if libdwfl will not take it. */
static Dwfl *report(int fd, const char *path, const objinfo *o,
                    Dwfl_Module **mod)
{
    Dwfl *d = dwfl_begin(&callbacks);
    if (!d) {
        close(fd);
        return NULL;
    }
    dwfl_report_begin(d);
    /* add_p_vaddr: the base is the load bias, as the dynamic loader
     * keeps it, not the address of the first segment. */
    *mod = dwfl_report_elf(d, base_name(path), path, fd, o->bias, true);
    if (!*mod) {
        /* dwfl_report_elf owns fd only once it succeeds. */
        close(fd);
        dwfl_end(d);
        return NULL;
    }
    if (dwfl_report_end(d, NULL, NULL) != 0) {
        dwfl_end(d);
        return NULL;
    }
    return d;
}

/* Whether the file reported as mod is the one loaded: the same build-id
 * when both have one (the path may have been reused for a new file),
 * else the same inode as the mapping. */
static int same_object(Dwfl_Module *mod, const objinfo *o,
                       const struct stat *st, const mapping *m)
{
    const unsigned char *bits;
    GElf_Addr vaddr;
    int n = dwfl_module_build_id(mod, &bits, &vaddr);
    if (n > 0 && o->build_id_len > 0)
        return (size_t)n == o->build_id_len &&
               memcmp(bits, o->build_id, o->build_id_len) == 0;
    return st->st_ino == m->inode && major(st->st_dev) == m->dev_major &&
           minor(st->st_dev) == m->dev_minor;
}

/* The object's file by its path, if it is still the loaded one. */
static Dwfl *report_by_path(const mapping *m, const objinfo *o,
                            Dwfl_Module **mod)
{
    if (!m->path[0] || m->deleted)
        return NULL;
    int fd = open(m->path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    struct stat st;
    if (fstat(fd, &st) != 0) {
        close(fd);
        return NULL;
    }
    Dwfl *d = report(fd, m->path, o, mod);
    if (d && !same_object(*mod, o, &st, m)) {
        dwfl_end(d);
        d = NULL;
    }
    return d;
}

/* The mapping itself: works once the file is deleted or replaced, but
 * the kernel allows it only to privileged processes. */
static Dwfl *report_by_mapping(const mapping *m, const objinfo *o,
                               Dwfl_Module **mod)
{
    char link[64];
    snprintf(link, sizeof link, "/proc/self/map_files/%lx-%lx", m->start,
             m->end);
    int fd = open(link, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    return report(fd, m->path[0] ? m->path : link, o, mod);
}

/* The compile unit covering pc (bias set), or NULL.  libdwfl finds it
 * through .debug_aranges, which clang does not emit (nor gcc under
 * -gno-dwarf-aranges): then every unit is asked whether it covers pc.
 * Kernel objects have a handful of them. */
static Dwarf_Die *unit_of(Dwfl_Module *mod, uintptr_t pc, Dwarf_Addr *bias)
{
    Dwarf_Die *cu = dwfl_module_addrdie(mod, pc, bias);
    if (cu)
        return cu;
    while ((cu = dwfl_module_nextcu(mod, cu, bias)) != NULL)
        if (dwarf_haspc(cu, pc - *bias) == 1)
            return cu;
    return NULL;
}

/* The source line of pc: file name and line number, or NULL. */
static const char *source_line(Dwfl_Module *mod, uintptr_t pc, int *lineno)
{
    Dwfl_Line *line = dwfl_module_getsrc(mod, pc);
    if (line)
        return dwfl_lineinfo(line, NULL, lineno, NULL, NULL, NULL);
    Dwarf_Addr bias;
    Dwarf_Die *cu = unit_of(mod, pc, &bias);
    Dwarf_Line *l = cu ? dwarf_getsrc_die(cu, pc - bias) : NULL;
    if (l && dwarf_lineno(l, lineno) == 0)
        return dwarf_linesrc(l, NULL, NULL);
    return NULL;
}

/* Whether a source file is one of the headers the library gives C++
 * kernels (the AIE API, written under the compile's include folder):
 * a fault inside one of their inlined functions is the kernel's line
 * that called it, which is what the user can change. */
static int is_kernel_library_header(const char *file)
{
    return strstr(file, "/aie_api/") != NULL ||
           strstr(file, "/lut_based_ops.h") != NULL;
}

/* When pc's line is in a library header, the innermost call site outside
 * those headers among the functions inlined at pc (DWARF's call_file and
 * call_line), with the header's function name in *callee; else NULL. */
static const char *call_site(Dwfl_Module *mod, uintptr_t pc, int *lineno,
                             const char **callee)
{
    Dwarf_Addr bias;
    Dwarf_Die *cu = unit_of(mod, pc, &bias);
    Dwarf_Files *files;
    size_t nfiles;
    if (!cu || dwarf_getsrcfiles(cu, &files, &nfiles) != 0)
        return NULL;
    Dwarf_Die *scopes = NULL;
    int n = dwarf_getscopes(cu, pc - bias, &scopes);
    const char *found = NULL;
    for (int i = 0; i < n && !found; i++) {
        Dwarf_Attribute a;
        Dwarf_Word file_idx, line;
        if (dwarf_tag(&scopes[i]) != DW_TAG_inlined_subroutine ||
            dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_file, &a),
                            &file_idx) != 0 ||
            dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_line, &a),
                            &line) != 0)
            continue;
        const char *file = dwarf_filesrc(files, file_idx, NULL, NULL);
        if (!file || is_kernel_library_header(file))
            continue;
        found = file;
        *lineno = (int)line;
        *callee = dwarf_diename(&scopes[i]);
    }
    free(scopes);
    return found;
}

/* 1 with "fn at file:line", 0 with "fn (+0x1c) in obj", -1 with nothing
 * written. */
static int describe_dwfl(Dwfl_Module *mod, uintptr_t pc, const char *obj,
                         char *buf, size_t len)
{
    GElf_Off off = 0;
    GElf_Sym sym;
    const char *fn = dwfl_module_addrinfo(mod, pc, &off, &sym, NULL, NULL,
                                          NULL);
    int lineno = 0;
    const char *file = source_line(mod, pc, &lineno);
    int call_line = 0;
    const char *callee = NULL;
    const char *caller = file && is_kernel_library_header(file)
                             ? call_site(mod, pc, &call_line, &callee)
                             : NULL;
    /* Line 0 is DWARF's "no source line" (compiler-made code). */
    if (caller && call_line > 0) {
        snprintf(buf, len, "%s at %s:%d (in %s, %s:%d)", fn ? fn : "??",
                 base_name(caller), call_line, callee ? callee : "??",
                 base_name(file), lineno);
        return 1;
    }
    if (file && lineno > 0) {
        snprintf(buf, len, "%s at %s:%d", fn ? fn : "??", base_name(file),
                 lineno);
        return 1;
    }
    if (fn) {
        snprintf(buf, len, "%s (+0x%llx) in %s", fn, (unsigned long long)off,
                 obj);
        return 0;
    }
    return -1;
}

/* Only the dynamic symbol table, which the loader keeps in memory: all
 * that is left when the file cannot be opened. */
static void describe_dladdr(const void *pc, const char *obj, char *buf,
                            size_t len)
{
    Dl_info info;
    if (!dladdr(pc, &info) || !info.dli_sname || !info.dli_saddr)
        return;
    if (!obj[0])
        obj = info.dli_fname ? base_name(info.dli_fname) : "?";
    snprintf(buf, len, "%s (+0x%llx) in %s", info.dli_sname,
             (unsigned long long)((uintptr_t)pc - (uintptr_t)info.dli_saddr),
             obj);
}

/* --- images of loaded objects whose files are gone ---------------------- */

typedef struct remembered {
    uintptr_t bias;            /* names the loaded object */
    const void *image;
    size_t len;
} remembered;

static remembered *images;     /* under srcline_lock */
static int nimages, cap_images;

static uintptr_t bias_of(const void *addr)
{
    objinfo o = { .pc = (uintptr_t)addr };
    dl_iterate_phdr(find_object, &o);
    return o.found ? o.bias : 0;
}

void iron__srcline_remember(const void *addr, const void *image, size_t len)
{
    uintptr_t bias = addr && image ? bias_of(addr) : 0;
    if (!bias)
        return;
    pthread_mutex_lock(&srcline_lock);
    if (nimages == cap_images) {
        int cap = cap_images ? 2 * cap_images : 8;
        /* libc's allocator, not iron__malloc: failing here only costs
         * source lines in messages, so it must not count among the
         * allocations a load needs (and may fail) in fault-injection
         * tests. */
        remembered *v = realloc(images, (size_t)cap * sizeof *v);
        if (v) {
            images = v;
            cap_images = cap;
        }
    }
    if (nimages < cap_images)
        images[nimages++] = (remembered){ bias, image, len };
    pthread_mutex_unlock(&srcline_lock);
}

void iron__srcline_forget(const void *addr)
{
    uintptr_t bias = addr ? bias_of(addr) : 0;
    if (!bias)
        return;
    pthread_mutex_lock(&srcline_lock);
    for (int i = 0; i < nimages; i++)
        if (images[i].bias == bias) {
            images[i] = images[--nimages];
            break;
        }
    if (nimages == 0) {
        free(images);
        images = NULL;
        cap_images = 0;
    }
    pthread_mutex_unlock(&srcline_lock);
}

/* The remembered image, through a memory file libdwfl can read. */
static Dwfl *report_by_image(const mapping *m, const objinfo *o,
                             Dwfl_Module **mod)
{
    for (int i = 0; i < nimages; i++) {
        if (images[i].bias != o->bias)
            continue;
        int fd = memfd_create("iron-kernel-image", MFD_CLOEXEC);
        if (fd < 0)
            return NULL;
        const char *p = images[i].image;
        size_t left = images[i].len;
        while (left > 0) {
            ssize_t k = write(fd, p, left);
            if (k <= 0) {
                close(fd);
                return NULL;
            }
            p += k;
            left -= (size_t)k;
        }
        return report(fd, m->path[0] ? m->path : "kernel", o, mod);
    }
    return NULL;
}

static int describe(const void *pc, char *buf, size_t len)
{
    objinfo o = { .pc = (uintptr_t)pc };
    dl_iterate_phdr(find_object, &o);
    if (!o.found)
        return 0;              /* not code of any loaded object */

    mapping m;
    if (!find_mapping(o.pc, &m)) {
        describe_dladdr(pc, "", buf, len);
        return 0;
    }
    const char *obj = m.path[0] ? base_name(m.path) : "";
    Dwfl_Module *mod = NULL;
    Dwfl *d = report_by_path(&m, &o, &mod);
    if (!d)
        d = report_by_image(&m, &o, &mod);
    if (!d)
        d = report_by_mapping(&m, &o, &mod);
    int r = -1;
    /* The module must cover pc: if libdwfl placed it elsewhere than the
     * loader did, its lines would belong to other addresses. */
    if (d && dwfl_addrmodule(d, o.pc) == mod)
        r = describe_dwfl(mod, o.pc, obj[0] ? obj : "?", buf, len);
    if (d)
        dwfl_end(d);
    if (r < 0) {
        describe_dladdr(pc, obj, buf, len);
        r = 0;
    }
    return r;
}

int iron__srcline(const void *pc, char *buf, size_t len)
{
    char scratch[1];
    /* The result still tells whether the line is known when the caller
     * wants no text. */
    if (!buf || len == 0) {
        buf = scratch;
        len = sizeof scratch;
    }
    buf[0] = '\0';
    if (!pc)
        return 0;
    pthread_mutex_lock(&srcline_lock);
    int found = describe(pc, buf, len);
    pthread_mutex_unlock(&srcline_lock);
    return found;
}
