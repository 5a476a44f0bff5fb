/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * export_files.c - the files of an MLIR-AIE export, in memory: aie.mlir,
 * each kernel a core calls as kernels/SYM.c (its compile-time defines as
 * #define lines in front), <iron/iron_kernel.h> when a kernel includes
 * it, a Makefile driving upstream's aiecc.py with the Peano compiler for
 * the device's architecture, a README.md saying how to build and run it,
 * and host.cpp, an XRT host program with one buffer per runtime-sequence
 * argument.  src/jit/export.c writes them.
 */
#include <stdio.h>
#include <string.h>

#include "body/body.h"
#include "compile/kheader.h"
#include "design/design.h"
#include "mlir/export.h"
#include "tensor/tensor.h"

#define OOM() iron__fail(IRON_ENOMEM, "MLIR export: out of memory")

/* Adds a file to the bundle; takes text over, whatever happens (every
 * caller builds it and hands it on). */
static iron_status add_file(iron__mlir_bundle *b, const char *path,
                            iron__str *text)
{
    if (text->oom) {
        iron__str_free(text);
        return OOM();
    }
    if (b->n == b->cap) {
        int cap = b->cap ? b->cap * 2 : 8;
        iron__mlir_file *v = iron__realloc(b->files, (size_t)cap * sizeof *v);
        if (!v) {
            iron__str_free(text);
            return OOM();
        }
        b->files = v;
        b->cap = cap;
    }
    char *p = iron__strdup(path);
    char *t = iron__str_take(text);
    if (!p || !t) {
        iron__free(p);
        iron__free(t);
        return OOM();
    }
    b->files[b->n].path = p;
    b->files[b->n].text = t;
    b->n++;
    return IRON_OK;
}

void iron__mlir_bundle_free(iron__mlir_bundle *b)
{
    for (int i = 0; i < b->n; i++) {
        iron__free(b->files[i].path);
        iron__free(b->files[i].text);
    }
    iron__free(b->files);
    memset(b, 0, sizeof *b);
}

/* The design's name for file headers: the signature's first word. */
static void design_name(const char *signature, char *buf, size_t len)
{
    size_t n = strcspn(signature ? signature : "", " (");
    if (n == 0 || n >= len) {
        snprintf(buf, len, "design");
        return;
    }
    memcpy(buf, signature, n);
    buf[n] = '\0';
}

/* --- kernels ------------------------------------------------------------- */

static iron_status kernel_file(const iron__mlx_plan *pl, int k,
                               const char *signature, iron__mlir_bundle *b)
{
    const iron_kernel *kn = pl->d->kernels.v[k];
    const iron__mlx_kernel *mk = &pl->kernels[k];
    iron__str s = { 0 };
    iron__str_printf(&s,
                     "/*\n * %s.c - kernel '%s' of an iron design exported "
                     "for upstream's\n * toolchain: aie.mlir declares it "
                     "as @%s and links %s.o.  The\n * specialization:\n"
                     " *   %s\n */\n",
                     mk->sym, kn->entry, mk->sym, mk->sym, signature);
    for (int i = 0; i < kn->ndefines; i++)
        iron__str_printf(&s, "#define %s%s%s\n", kn->defines[i].name,
                         kn->defines[i].value && kn->defines[i].value[0]
                             ? " "
                             : "",
                         kn->defines[i].value ? kn->defines[i].value : "");
    if (mk->renamed)
        iron__str_printf(&s, "/* another kernel of the design is called "
                             "'%s': this one is @%s */\n#define %s %s\n",
                         kn->entry, mk->sym, kn->entry, mk->sym);
    iron__str_append(&s, "\n");
    iron__str_append(&s, kn->source ? kn->source : "");
    if (s.len && s.p[s.len - 1] != '\n')
        iron__str_append(&s, "\n");
    char path[256];
    snprintf(path, sizeof path, "kernels/%s.c", mk->sym);
    return add_file(b, path, &s);
}

static int kernel_exported(const iron__mlx_plan *pl, int k)
{
    return pl->kernels[k].used && pl->kernels[k].same_as == k;
}

static int any_includes_kheader(const iron__mlx_plan *pl)
{
    for (int k = 0; k < pl->d->kernels.n; k++)
        if (kernel_exported(pl, k) && pl->d->kernels.v[k]->source &&
            strstr(pl->d->kernels.v[k]->source, "iron_kernel.h"))
            return 1;
    return 0;
}

/* --- Makefile ------------------------------------------------------------ */

static iron_status makefile(const iron__mlx_plan *pl, const char *signature,
                            int kheader, iron__mlir_bundle *b)
{
    const iron_design *d = pl->d;
    const char *arch = pl->p->dev.arch ? pl->p->dev.arch : "aie2";
    iron__str s = { 0 };
    iron__str_printf(
        &s,
        "# Makefile - builds an iron design exported as MLIR-AIE for an "
        "NPU\n# with upstream mlir-aie's aiecc.py and the Peano (llvm-aie) "
        "compiler,\n# for device %s (architecture %s).  See README.md.  "
        "The\n# specialization:\n#   %s\n\n",
        pl->p->dev.name, arch, signature);
    iron__str_append(
        &s,
        "# Peano's install folder (the llvm-aie wheel's, or a build's).\n"
        "PEANO_INSTALL_DIR ?= /opt/llvm-aie\n"
        "# XRT, for the host program.\n"
        "XRT_ROOT ?= /opt/xilinx/xrt\n"
        "AIECC ?= aiecc.py\n\n");
    iron__str_printf(&s, "ARCH = %s\n", arch);
    iron__str_printf(
        &s,
        "KCC = $(PEANO_INSTALL_DIR)/bin/clang\n"
        "KCFLAGS = -O2 -std=c11 --target=$(ARCH)-none-unknown-elf "
        "-DNDEBUG \\\n"
        "          -Wno-parentheses -Wno-attributes -Wno-macro-redefined "
        "\\\n          -Wno-empty-body%s\n",
        kheader ? " -Iinclude" : "");
    iron__str_printf(&s, "# The jit's own flags for every kernel.\n"
                         "JIT_CFLAGS ?= %s\n\n",
                     d->jit_cflags ? d->jit_cflags : "");
    iron__str objs = { 0 };
    for (int k = 0; k < d->kernels.n; k++)
        if (kernel_exported(pl, k))
            iron__str_printf(&objs, " build/%s.o", pl->kernels[k].sym);
    for (int i = 0; i < pl->nworkers; i++)
        if (pl->workers[i].link_obj && pl->workers[i].nkernels > 1)
            iron__str_printf(&objs, " build/%s", pl->workers[i].link_obj);
    iron__str_append(&s, ".PHONY: all run clean\n\n"
                         "all: build/final.xclbin build/insts.bin host\n\n");
    for (int k = 0; k < d->kernels.n; k++) {
        if (!kernel_exported(pl, k))
            continue;
        const iron_kernel *kn = d->kernels.v[k];
        const char *sym = pl->kernels[k].sym;
        /* A kernel read from a file finds its headers where it did here. */
        iron__str inc = { 0 };
        if (kn->path_dir)
            iron__str_printf(&inc, " -iquote %s", kn->path_dir);
        for (int i = 0; i < kn->nincdirs; i++)
            iron__str_printf(&inc, " -I%s", kn->incdirs[i]);
        iron__str_printf(&s,
                         "build/%s.o: kernels/%s.c\n"
                         "\tmkdir -p build\n"
                         "\t$(KCC) $(KCFLAGS) $(JIT_CFLAGS)%s%s%s -c $< -o "
                         "$@\n\n",
                         sym, sym, iron__str_get(&inc), kn->cflags ? " " : "",
                         kn->cflags ? kn->cflags : "");
        if (inc.oom)
            s.oom = 1;
        iron__str_free(&inc);
    }
    /* Before #2922 (link_with on aie.core) a core links with one object;
     * a core calling several kernels gets them combined. */
    for (int i = 0; i < pl->nworkers; i++) {
        const iron__mlx_worker *mw = &pl->workers[i];
        if (!mw->link_obj || mw->nkernels < 2)
            continue;
        iron__str_printf(&s, "build/%s:", mw->link_obj);
        for (int k = 0; k < mw->nkernels; k++)
            iron__str_printf(&s, " build/%s.o",
                             pl->kernels[mw->kernels[k]].sym);
        iron__str_append(&s, "\n\t$(PEANO_INSTALL_DIR)/bin/ld.lld -r $^ -o "
                             "$@\n\n");
    }
    iron__str_printf(
        &s,
        "# aiecc.py lowers the objectfifos, places the routes, compiles the\n"
        "# cores with Peano and links them with the kernels' objects (found\n"
        "# in build/, where it runs), then writes the xclbin and the\n"
        "# instruction stream the host sends.\n"
        "build/final.xclbin: aie.mlir%s\n"
        "\tmkdir -p build\n"
        "\tcp aie.mlir build/aie.mlir\n"
        "\tcd build && $(AIECC) --aie-generate-xclbin "
        "--aie-generate-npu-insts \\\n"
        "\t    --no-compile-host --no-xchesscc --no-xbridge \\\n"
        "\t    --peano $(PEANO_INSTALL_DIR) --xclbin-name=final.xclbin \\\n"
        "\t    --npu-insts-name=insts.bin aie.mlir\n\n"
        "build/insts.bin: build/final.xclbin\n\n"
        "host: host.cpp\n"
        "\t$(CXX) -std=c++17 -O2 -I$(XRT_ROOT)/include host.cpp -o host \\\n"
        "\t    -L$(XRT_ROOT)/lib -lxrt_coreutil -luuid -pthread\n\n"
        "run: all\n"
        "\t./host build/final.xclbin build/insts.bin\n\n"
        "clean:\n"
        "\trm -rf build host\n",
        iron__str_get(&objs));
    if (objs.oom)
        s.oom = 1;
    iron__str_free(&objs);
    return add_file(b, "Makefile", &s);
}

/* --- host.cpp ------------------------------------------------------------ */

/* "int32[16, 4]" */
static void type_text(iron__str *s, const iron__argsig *a)
{
    iron__design_type_text(s, a->dtype, a->shape);
}

/* A C++ identifier for argument i. */
static void arg_ident(const iron__argsig *a, int i, char *buf, size_t len)
{
    char *id = iron__mlx_ident(a->name ? a->name : "");
    if (!id || strchr(id, '$') || strchr(id, '.') || !a->name ||
        !a->name[0])
        snprintf(buf, len, "arg%d", i);
    else
        snprintf(buf, len, "%s", id);
    iron__free(id);
}

static iron_status host_file(const iron__mlx_plan *pl, const char *signature,
                             iron__mlir_bundle *b)
{
    const iron_design *d = pl->d;
    iron__str s = { 0 };
    iron__str_printf(
        &s,
        "// host.cpp - an XRT host program for %s, exported by iron.\n"
        "// It loads the xclbin and the instruction stream that `make`\n"
        "// builds, makes one buffer per argument of the runtime sequence\n"
        "// (in its order: the kernel's buffer arguments 3, 4, ...), runs\n"
        "// the design once and reads the outputs back.  Put your inputs\n"
        "// where it says so, and check the outputs as your design needs.\n"
        "#include <algorithm>\n#include <cstdint>\n#include <cstring>\n"
        "#include <fstream>\n#include <iostream>\n#include <stdexcept>\n"
        "#include <string>\n"
        "#include <vector>\n\n"
        "#include \"xrt/xrt_bo.h\"\n#include \"xrt/xrt_device.h\"\n"
        "#include \"xrt/xrt_hw_context.h\"\n#include \"xrt/xrt_kernel.h\"\n\n"
        "// The instruction stream: 32-bit words, as aiecc.py writes them.\n"
        "static std::vector<uint32_t> read_insts(const std::string &path)\n"
        "{\n"
        "    std::ifstream f(path, std::ios::binary);\n"
        "    if (!f)\n"
        "        throw std::runtime_error(\"cannot open \" + path);\n"
        "    std::vector<char> bytes((std::istreambuf_iterator<char>(f)),\n"
        "                            std::istreambuf_iterator<char>());\n"
        "    std::vector<uint32_t> words(bytes.size() / 4);\n"
        "    std::memcpy(words.data(), bytes.data(), words.size() * 4);\n"
        "    return words;\n"
        "}\n\n"
        "int main(int argc, char **argv)\n"
        "{\n"
        "    std::string xclbin_path = argc > 1 ? argv[1] : "
        "\"build/final.xclbin\";\n"
        "    std::string insts_path = argc > 2 ? argv[2] : "
        "\"build/insts.bin\";\n"
        "    std::vector<uint32_t> insts = read_insts(insts_path);\n\n"
        "    xrt::device device(0u);\n"
        "    xrt::xclbin xclbin(xclbin_path);\n"
        "    // aiecc.py names the design's kernel MLIR_AIE.\n"
        "    auto kernels = xclbin.get_kernels();\n"
        "    auto found = std::find_if(kernels.begin(), kernels.end(),\n"
        "        [](xrt::xclbin::kernel &k) {\n"
        "            return k.get_name().rfind(\"MLIR_AIE\", 0) == 0;\n"
        "        });\n"
        "    if (found == kernels.end()) {\n"
        "        std::cerr << xclbin_path << \": no MLIR_AIE kernel\\n\";\n"
        "        return 1;\n"
        "    }\n"
        "    device.register_xclbin(xclbin);\n"
        "    xrt::hw_context context(device, xclbin.get_uuid());\n"
        "    xrt::kernel kernel(context, found->get_name());\n\n"
        "    xrt::bo bo_insts(device, insts.size() * sizeof(uint32_t),\n"
        "                     XCL_BO_FLAGS_CACHEABLE, kernel.group_id(1));\n"
        "    std::memcpy(bo_insts.map<void *>(), insts.data(),\n"
        "                insts.size() * sizeof(uint32_t));\n"
        "    bo_insts.sync(XCL_BO_SYNC_BO_TO_DEVICE);\n\n",
        signature);
    if (d->nargs > 5)
        iron__str_printf(&s,
                         "    // Note: the design has %d arguments; "
                         "aiecc.py's MLIR_AIE kernel\n    // takes five "
                         "buffers (group ids 3 .. 7).\n",
                         d->nargs);
    for (int i = 0; i < d->nargs; i++) {
        const iron__argsig *a = &d->args[i];
        char id[128];
        arg_ident(a, i, id, sizeof id);
        unsigned long long bytes = (unsigned long long)a->numel *
                                   (unsigned long long)iron_dtype_size(
                                       a->dtype);
        iron__str_printf(&s, "    // argument %d: %s %s: ", i,
                         iron__role_name(a->role), a->name ? a->name : "");
        type_text(&s, a);
        iron__str_printf(&s,
                         "\n    xrt::bo bo_%s(device, %llu, "
                         "XRT_BO_FLAGS_HOST_ONLY,\n"
                         "        kernel.group_id(%d));\n"
                         "    %s *%s = bo_%s.map<%s *>();\n",
                         id, bytes, 3 + i, iron__dtype_ctype(a->dtype), id, id,
                         iron__dtype_ctype(a->dtype));
        iron__str_printf(&s, "    std::memset(%s, 0, %llu);\n", id, bytes);
        if (a->role != IRON__ROLE_OUT)
            iron__str_printf(&s,
                             "    // TODO: fill %s (%lld elements%s)\n"
                             "    bo_%s.sync(XCL_BO_SYNC_BO_TO_DEVICE);\n",
                             id, (long long)a->numel,
                             a->dtype == IRON_BFLOAT16
                                 ? ", bfloat16 bits"
                                 : "",
                             id);
        iron__str_append(&s, "\n");
    }
    iron__str_append(&s, "    unsigned int opcode = 3;\n"
                         "    auto run = kernel(opcode, bo_insts, "
                         "insts.size()");
    for (int i = 0; i < d->nargs; i++) {
        char id[128];
        arg_ident(&d->args[i], i, id, sizeof id);
        iron__str_printf(&s, ", bo_%s", id);
    }
    iron__str_append(&s,
                     ");\n"
                     "    ert_cmd_state state = run.wait();\n"
                     "    if (state != ERT_CMD_STATE_COMPLETED) {\n"
                     "        std::cerr << \"the run ended in state \" << "
                     "state << \"\\n\";\n"
                     "        return 1;\n"
                     "    }\n");
    for (int i = 0; i < d->nargs; i++) {
        const iron__argsig *a = &d->args[i];
        if (a->role == IRON__ROLE_IN)
            continue;
        char id[128];
        arg_ident(a, i, id, sizeof id);
        iron__str_printf(&s,
                         "    bo_%s.sync(XCL_BO_SYNC_BO_FROM_DEVICE);\n"
                         "    std::cout << \"%s[0] = \" << +%s[0] << "
                         "\"\\n\";   // TODO: check %s\n",
                         id, id, id, id);
    }
    iron__str_append(&s, "    return 0;\n}\n");
    return add_file(b, "host.cpp", &s);
}

/* --- README.md ----------------------------------------------------------- */

static iron_status readme(const iron__mlx_plan *pl, const char *signature,
                          int generic, int kheader, iron__mlir_bundle *b)
{
    const iron_design *d = pl->d;
    char name[128];
    design_name(signature, name, sizeof name);
    iron__str s = { 0 };
    iron__str_printf(
        &s,
        "# %s for an NPU\n\n"
        "Exported by iron from the specialization\n\n    %s\n\n"
        "as the objectfifo-level MLIR-AIE that upstream IRON "
        "(Xilinx/mlir-aie)\nemits for the same design (as upstream %s reads it%s), "
        "with its kernels and a\nhost program, for upstream's toolchain "
        "and a real NPU (device %s,\narchitecture %s).\n\n",
        name, signature, pl->target->name, generic ? ", generic form" : "",
        pl->p->dev.name, pl->p->dev.arch ? pl->p->dev.arch : "aie2");
    iron__str_append(&s, "## Files\n\n"
                         "- `aie.mlir`: the design\n");
    for (int k = 0; k < d->kernels.n; k++)
        if (kernel_exported(pl, k))
            iron__str_printf(&s,
                             "- `kernels/%s.c`: kernel `%s`, its "
                             "compile-time defines in front\n",
                             pl->kernels[k].sym, pl->kernels[k].sym);
    if (kheader)
        iron__str_append(&s, "- `include/iron/iron_kernel.h`: the kernel "
                             "helpers the kernels include\n");
    iron__str_append(
        &s,
        "- `Makefile`: kernels with Peano, the design with aiecc.py, the "
        "host program\n"
        "- `host.cpp`: an XRT host program, one buffer per argument\n\n"
        "## Build and run\n\n"
        "You need mlir-aie's Python environment (`aiecc.py` on `PATH`), "
        "Peano\n(llvm-aie) and, to run, XRT with the NPU driver (amdxdna) "
        "on a Ryzen AI\nmachine.\n\n"
        "```sh\n"
        "make PEANO_INSTALL_DIR=/path/to/llvm-aie   # build/final.xclbin, "
        "build/insts.bin, host\n"
        "make run                                   # ./host "
        "build/final.xclbin build/insts.bin\n"
        "```\n\n"
        "`host.cpp` zeroes every buffer: put your inputs where it says "
        "TODO, and\ncheck the outputs as your design needs.  The "
        "runtime sequence's\narguments, in order:\n\n");
    for (int i = 0; i < d->nargs; i++) {
        const iron__argsig *a = &d->args[i];
        iron__str_printf(&s, "%d. `%s` (%s): ", i, a->name ? a->name : "",
                         iron__role_name(a->role));
        type_text(&s, a);
        iron__str_printf(&s, ", %llu bytes\n",
                         (unsigned long long)a->numel *
                             (unsigned long long)iron_dtype_size(a->dtype));
    }
    iron__str_append(
        &s,
        "\nThe same design runs on iron's emulated NPU as it is; on "
        "hardware the\nkernels are compiled by Peano instead of the host's "
        "C compiler, so C that\nonly the host accepts must be changed.\n");
    return add_file(b, "README.md", &s);
}

/* --- the bundle ---------------------------------------------------------- */

iron_status iron__mlir_export_bundle(const iron_program *p,
                                     const char *signature,
                                     const iron__mlir_target *t,
                                     int generic, iron__mlir_bundle *out)
{
    memset(out, 0, sizeof *out);
    if (!signature)
        signature = "design";
    iron__mlx_plan pl;
    iron__str text = { 0 };
    iron_status st = iron__mlx_plan_make(&pl, p, t);
    if (st == IRON_OK)
        st = iron__mlx_print_module(&pl, generic, &text);
    if (st == IRON_OK)
        st = add_file(out, "aie.mlir", &text);
    iron__str_free(&text);
    int kheader = st == IRON_OK && any_includes_kheader(&pl);
    for (int k = 0; st == IRON_OK && k < p->d->kernels.n; k++)
        if (kernel_exported(&pl, k))
            st = kernel_file(&pl, k, signature, out);
    if (st == IRON_OK && kheader) {
        size_t len = 0;
        const char *h = iron__kheader_text(&len);
        iron__str s = { 0 };
        iron__str_append(&s, h);
        st = add_file(out, "include/iron/iron_kernel.h", &s);
    }
    if (st == IRON_OK)
        st = makefile(&pl, signature, kheader, out);
    if (st == IRON_OK)
        st = readme(&pl, signature, generic, kheader, out);
    if (st == IRON_OK)
        st = host_file(&pl, signature, out);
    iron__mlx_plan_free(&pl);
    if (st != IRON_OK)
        iron__mlir_bundle_free(out);
    return st;
}
