# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# iron - build, test, demo and bench.  `make help` lists the targets.
#
# Sources are found by folder: src/<module>/*.c go into libiron, cli/*.c
# into the `iron` command, tests/unit/*.c and tests/e2e/*.c into one test
# binary whose runner forks each test (by name) with a time limit, several
# at once.  Every .c is compiled once, to its own object under $(BUILD),
# so that `make -j` compiles in parallel and an edit recompiles one file.

CC       ?= cc
BUILD    ?= build
OPT      ?= -O2 -g
WARN      = -std=c11 -Wall -Wextra -Wshadow -Wundef -Wwrite-strings \
            -Wstrict-prototypes -Wmissing-prototypes -Wpointer-arith \
            -Wcast-qual -Wvla -Werror
CPPFLAGS += -D_GNU_SOURCE -Iinclude -Isrc
# IRON__ASSERT (src/core/core.h): the library's invariants are checked in
# the builds that test it -- asan, tsan, check-clang and fuzz, each in a
# folder of its own -- and compiled out of the default build, the one
# `make install` installs.  ASSERTS=1 checks them in any build (give it a
# BUILD folder of its own: objects do not record the flags they were
# compiled with).
ASSERTS  ?= 0
ASSERT_FLAGS = $(if $(filter 1,$(ASSERTS)),-DIRON_ASSERTS)
CPPFLAGS += $(ASSERT_FLAGS)
CFLAGS   += $(OPT) $(WARN) $(SAN)
LIBCFLAGS = -fPIC -fvisibility=hidden -DIRON_BUILDING
# The system libraries libiron needs: linking it, and (from here, the one
# place) the static library's dependencies in iron.pc, iron-static.pc and
# the CMake package.
IRON_LIBS = -lxxhash -lnettle -lboost_context -ldw -lelf -ljansson -ldl -lpthread -lm
LDLIBS   += $(IRON_LIBS)
PREFIX   ?= /usr/local

# The version, read from include/iron/iron.h (the one place it is written).
iron_version_part = $(shell sed -n 's/^.define IRON_VERSION_$(1)  *\([0-9][0-9]*\).*/\1/p' include/iron/iron.h)
VERSION_MAJOR := $(call iron_version_part,MAJOR)
VERSION_MINOR := $(call iron_version_part,MINOR)
VERSION_PATCH := $(call iron_version_part,PATCH)
VERSION  := $(VERSION_MAJOR).$(VERSION_MINOR).$(VERSION_PATCH)
# The ABI version in the soname.  Before 1.0 a minor release may break the
# ABI, so 0.x sonames carry the minor (libiron.so.0.2); from 1.0 on only
# the major changes it (libiron.so.1).
SOVERSION := $(if $(filter 0,$(VERSION_MAJOR)),0.$(VERSION_MINOR),$(VERSION_MAJOR))
SONAME   := libiron.so.$(SOVERSION)

LIB_SRC  := $(sort $(wildcard src/*/*.c))
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
CLI_SRC  := $(sort $(wildcard cli/*.c))
TEST_SRC := $(sort $(wildcard tests/*.c tests/unit/*.c tests/e2e/*.c))
EX_SRC   := $(sort $(wildcard examples/*.c))
# The tutorial's and cookbook's programs (docs/tutorial.md, docs/cookbook.md).
TUTORIAL_SRC := $(sort $(wildcard examples/tutorial/*.c))
# Reference designs, shared by the examples, the tests and the benchmarks.
DESIGN_SRC := $(sort $(wildcard examples/designs/*.c))
# The public headers: installed, and what programs using the library see.
PUBLIC_HDR := $(sort $(wildcard include/iron/*.h))
CLI_OBJ    := $(CLI_SRC:%.c=$(BUILD)/%.o)
TEST_OBJ   := $(TEST_SRC:%.c=$(BUILD)/%.o)
# Position-independent, so that the same objects serve the plugin library
# ($(EXLIB)) and the programs.
DESIGN_OBJ := $(DESIGN_SRC:%.c=$(BUILD)/%.o)
DESIGN_HDR := $(wildcard examples/designs/*.h)

STATIC   := $(BUILD)/libiron.a
# libiron.so.X.Y.Z, with the links libiron.so.<SOVERSION> (what programs
# load) and libiron.so (what -liron finds).
SHARED_REAL := $(BUILD)/libiron.so.$(VERSION)
SHARED   := $(BUILD)/libiron.so
SHARED_LINKS := $(BUILD)/$(SONAME) $(SHARED)
# pkg-config and CMake package files (cmake/*.in filled in; see below).
PKG_FILES   := $(BUILD)/pkgconfig/iron.pc $(BUILD)/pkgconfig/iron-static.pc
CMAKE_FILES := $(patsubst cmake/%.in,$(BUILD)/cmake/%,$(wildcard cmake/*.cmake.in))
CLI      := $(BUILD)/iron
EXLIB    := $(BUILD)/libiron-examples.so
TESTS    := $(BUILD)/iron-tests
TUTORIALS := $(TUTORIAL_SRC:examples/%.c=$(BUILD)/examples/%)
EXAMPLES := $(EX_SRC:examples/%.c=$(BUILD)/examples/%) $(TUTORIALS)

.PHONY: all lib test demo bench clean install uninstall help asan tsan deps \
        check-clang

all: lib $(CLI) $(EXAMPLES) $(EXLIB)

lib: $(STATIC) $(SHARED_REAL) $(SHARED_LINKS) $(PKG_FILES) $(CMAKE_FILES)

help:
	@echo "make            build libiron (static+shared), the iron CLI, examples"
	@echo "make demo       run the demo on the emulated NPU"
	@echo "make test       build and run every test, one per CPU at a time"
	@echo "                (T=name runs one, T=prefix some; IRON_TEST_JOBS=N)"
	@echo "make bench      print the benchmark figures, write $(BUILD)/bench.tsv"
	@echo "make asan|tsan  run the tests under sanitizers"
	@echo "make check-clang  build everything with clang -Werror and run the tests"
	@echo "make aieapi     build the host AIE API's unit tests (tests/aieapi)"
	@echo "make fuzz       run every libFuzzer target (FUZZ_TIME=60 s each)"
	@echo "make install PREFIX=/usr/local [DESTDIR=staging]  (README: Install)"
	@echo "make uninstall PREFIX=... [DESTDIR=...]  removes what install put"
	@echo "make deps-list  the Debian packages: build, test, clang (one line each)"
	@echo "                every target checks its own; DEPS_CHECK=pkg-config"
	@echo "                checks without dpkg, DEPS_CHECK=none not at all"

$(LIB_OBJ) $(CLI_OBJ) $(TEST_OBJ) $(DESIGN_OBJ): | deps

# iron_kernel.h is left out: the library has it only as text (below), and
# editing it should not rebuild everything.
LIB_HDR  := $(filter-out include/iron/iron_kernel.h,$(wildcard include/iron/*.h))

$(BUILD)/src/%.o: src/%.c $(LIB_HDR) $(wildcard src/*/*.h)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(CPPFLAGS) $(CFLAGS) $(LIBCFLAGS) -c $< -o $@

# <iron/iron_kernel.h> is built into the library as a string literal
# (src/compile/kheader.c), so kernels get it from an installed library
# without any include path.  Backslashes, quotes and '?' (trigraphs) are
# escaped.
TEXT_TO_C = sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/?/\\?/g' \
                -e 's/^/"/' -e 's/$$/\\n"/'
%/gen/iron_kernel_h.inc: include/iron/iron_kernel.h
	@mkdir -p $(dir $@)
	@echo "  GEN     $@"
	@$(TEXT_TO_C) $< > $@.tmp && mv $@.tmp $@
# Every file under include/iron/kernel/ (the AIE API, <aie_api/aie.hpp>)
# is built in the same way, one { "path", "text" } row per file, and
# written into C++ kernels' include folder.
KERNEL_HDR := $(sort $(shell find include/iron/kernel -type f 2>/dev/null))
%/gen/kernel_headers.inc: $(KERNEL_HDR) Makefile
	@mkdir -p $(dir $@)
	@echo "  GEN     $@"
	@for f in $(KERNEL_HDR); do \
	    printf '{ "%s",\n' "$${f#include/iron/kernel/}"; \
	    $(TEXT_TO_C) "$$f"; \
	    printf '},\n'; \
	done > $@.tmp && mv $@.tmp $@
$(BUILD)/src/compile/kheader.o: $(BUILD)/gen/iron_kernel_h.inc \
                                $(BUILD)/gen/kernel_headers.inc
$(BUILD)/src/compile/kheader.o: CPPFLAGS += -I$(BUILD)/gen

# The kernel runtime shim (src/compile/shim/kernel_rt.c; see
# src/compile/shim.h) is linked into every kernel object, so it is
# compiled once, here, by the compiler that builds the library and
# without its sanitizers; the library carries the object's bytes, the
# compiler's target and the source's text (for compilers that cannot link
# the object).  $(1): the build folder, $(2): the compiler.
define SHIM_RULES
$(1)/gen/kernel_rt.o: src/compile/shim/kernel_rt.c
	@mkdir -p $$(dir $$@)
	@echo "  CC      $$< (kernel runtime shim)"
	@$(2) $$(WARN) -O2 -fPIC -c $$< -o $$@
$(1)/gen/kernel_rt_o.inc: $(1)/gen/kernel_rt.o
	@od -An -v -tx1 $$< | sed -e 's/\([0-9a-f][0-9a-f]\)/0x\1,/g' > $$@.tmp && mv $$@.tmp $$@
$(1)/gen/kernel_rt_target.inc: $(1)/gen/kernel_rt.o
	@echo '"'"$$$$($(2) -dumpmachine)"'"' > $$@.tmp && mv $$@.tmp $$@
$(1)/gen/kernel_rt_c.inc: src/compile/shim/kernel_rt.c
	@mkdir -p $$(dir $$@)
	@$$(TEXT_TO_C) $$< > $$@.tmp && mv $$@.tmp $$@
$(1)/src/compile/shim.o: $(1)/gen/kernel_rt_o.inc $(1)/gen/kernel_rt_c.inc \
                         $(1)/gen/kernel_rt_target.inc
$(1)/src/compile/shim.o: CPPFLAGS += -I$(1)/gen
endef
$(eval $(call SHIM_RULES,$(BUILD),$(CC)))

$(STATIC): $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(SHARED_REAL): $(LIB_OBJ)
	$(CC) -shared $(CFLAGS) -Wl,-soname,$(SONAME) -o $@ $^ $(LDLIBS)

# The same links as `make install` makes.
$(BUILD)/$(SONAME): $(SHARED_REAL)
	ln -sf $(notdir $(SHARED_REAL)) $@
$(SHARED): $(BUILD)/$(SONAME)
	ln -sf $(SONAME) $@

# ---- pkg-config and CMake files ---------------------------------------------
# Made from templates with the version and IRON_LIBS filled in.  The
# .pc files name the prefix, so `make install` writes them again with the
# PREFIX it installs to; the CMake files find the prefix from where they
# are, so the same files serve every prefix (and DESTDIR, and a moved tree).
empty :=
space := $(empty) $(empty)
comma := ,
FILL = sed -e 's|@IRON_VERSION@|$(VERSION)|g' \
           -e 's|@IRON_VERSION_MAJOR@|$(VERSION_MAJOR)|g' \
           -e 's|@IRON_VERSION_MINOR@|$(VERSION_MINOR)|g' \
           -e 's|@IRON_SOVERSION@|$(SOVERSION)|g' \
           -e 's|@IRON_LIBS@|$(IRON_LIBS)|g' \
           -e 's|@IRON_PRIVATE_LIBS@|$(subst $(space),;,$(strip $(IRON_LIBS)))|g' \
           -e 's|@PREFIX@|$(1)|g'

$(BUILD)/pkgconfig/%.pc: cmake/%.pc.in include/iron/iron.h Makefile
	@mkdir -p $(dir $@)
	@$(call FILL,$(PREFIX)) $< > $@.tmp && mv $@.tmp $@

$(BUILD)/cmake/%.cmake: cmake/%.cmake.in include/iron/iron.h Makefile
	@mkdir -p $(dir $@)
	@$(FILL) $< > $@.tmp && mv $@.tmp $@

# The command is a user of the library like any other (the way lua.c
# uses only lua.h): it sees the public headers and nothing of src/, so an
# internal include fails its build.
CLI_CPPFLAGS = -D_GNU_SOURCE -Iinclude
$(CLI_OBJ): $(BUILD)/%.o: %.c $(wildcard cli/*.h include/iron/*.h)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(CLI_CPPFLAGS) $(CFLAGS) -c $< -o $@

$(DESIGN_OBJ): $(BUILD)/%.o: %.c $(DESIGN_HDR) $(wildcard include/iron/*.h)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(CPPFLAGS) -Iexamples $(CFLAGS) -fPIC -c $< -o $@

# Tests see the library's internal headers too.
$(TEST_OBJ): $(BUILD)/%.o: %.c $(wildcard tests/*.h include/iron/*.h src/*/*.h) $(DESIGN_HDR)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(CPPFLAGS) -Itests -Iexamples $(CFLAGS) -c $< -o $@

# -rdynamic: design plugins loaded by `iron dump` call the library's API
# in the executable, so that they share its state.
$(CLI): $(CLI_OBJ) $(STATIC)
	@echo "  LD      $@"
	@$(CC) $(CFLAGS) -rdynamic -o $@ $(CLI_OBJ) \
	    -Wl,--whole-archive $(STATIC) -Wl,--no-whole-archive $(LDLIBS)

# The reference designs as a plugin library, for `iron dump`; the iron_*
# symbols resolve against the program that loads it.
$(EXLIB): $(DESIGN_OBJ)
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	@$(CC) $(CFLAGS) -fPIC -shared -o $@ $(DESIGN_OBJ)

$(TESTS): $(TEST_OBJ) $(DESIGN_OBJ) $(STATIC)
	@echo "  LD      $@"
	@$(CC) $(CFLAGS) -o $@ $(TEST_OBJ) $(DESIGN_OBJ) $(STATIC) $(LDLIBS)

$(BUILD)/examples/%: examples/%.c $(DESIGN_OBJ) $(DESIGN_HDR) $(STATIC)
	@mkdir -p $(dir $@)
	@echo "  CCLD    $@"
	@$(CC) $(CPPFLAGS) -Iexamples $(CFLAGS) -o $@ $< $(DESIGN_OBJ) $(STATIC) $(LDLIBS)

# Tutorial programs stand alone, as a user's would: the public header only.
$(TUTORIALS): $(BUILD)/examples/tutorial/%: examples/tutorial/%.c examples/tutorial/tutorial.h include/iron/iron.h $(STATIC)
	@mkdir -p $(dir $@)
	$(CC) -D_GNU_SOURCE -Iinclude $(CFLAGS) -o $@ $< $(STATIC) $(LDLIBS)

# Programs cut from the documents and built like tutorial programs, so
# that the documents stay true (test_tutorial.c runs them, and builds them
# as C++ too): README.md's first program ("## Hello world") and
# docs/arguments.md's sample ("## The argument model in code").  $(1):
# the document, $(2): its heading.
DOC_CUT = awk '/^$(2)/ { f = 1 } \
               f && /^```c/ { p = 1; next } p && /^```/ { exit } p' $(1)
DOC_PROGRAMS := readme_hello arguments_sample
DOC_SAMPLES  := $(DOC_PROGRAMS:%=$(BUILD)/examples/tutorial/%)
$(BUILD)/readme_hello.c: README.md
	@mkdir -p $(dir $@)
	@$(call DOC_CUT,README.md,## Hello world) > $@.tmp && mv $@.tmp $@
$(BUILD)/arguments_sample.c: docs/arguments.md
	@mkdir -p $(dir $@)
	@$(call DOC_CUT,docs/arguments.md,## The argument model in code) \
	    > $@.tmp && mv $@.tmp $@
$(DOC_SAMPLES): $(BUILD)/examples/tutorial/%: $(BUILD)/%.c include/iron/iron.h $(STATIC)
	@mkdir -p $(dir $@)
	$(CC) -Iinclude $(CFLAGS) -o $@ $< $(STATIC) $(LDLIBS)

# ---- C++: the public headers used from C++ (docs/cpp.md) --------------------
# The tutorial programs, the README's sample and tests/cxx/header_use.c
# (every macro and inline helper of the public headers) are built again,
# as they are, as C++17 and C++20 by g++ and, when it is installed,
# clang++, into $(BUILD)/cxx/<compiler>-<standard>/; header_use is also
# built as C11, into $(BUILD)/cxx/c11/.  test_tutorial.c runs each build as
# it runs the C programs, and wants header_use to print what the C build
# prints.
CXX_FOUND    := g++ $(if $(shell command -v clang++ 2>/dev/null),clang++)
CXX_STDS     := c++17 c++20
CXX_VARIANTS := $(foreach c,$(CXX_FOUND),$(addprefix $(c)-,$(CXX_STDS)))
CXX_PROGRAMS := $(notdir $(TUTORIAL_SRC:.c=)) $(DOC_PROGRAMS) header_use
CXX_BINS     := $(foreach v,$(CXX_VARIANTS),$(CXX_PROGRAMS:%=$(BUILD)/cxx/$(v)/%))
HEADER_USE_C := $(BUILD)/cxx/c11/header_use
$(CXX_BINS): | deps-test
# C++20 has designated initializers, so the programs are ISO C++ there.
CXXWARN       = -Wall -Wextra -Wshadow -Werror $(if $(filter c++20,$(2)),-Wpedantic)
# $(call CXX_LINK,compiler,standard): $@ from $< compiled as C++.
CXX_LINK = @mkdir -p $(@D); echo "  CXX     $@"; \
    $(1) -x c++ -std=$(2) $(CXXWARN) $(OPT) $(SAN) -D_GNU_SOURCE -Iinclude \
        -o $@ $< -x none $(STATIC) $(LDLIBS)

define CXX_VARIANT_RULES
$(BUILD)/cxx/$(1)-$(2)/%: examples/tutorial/%.c examples/tutorial/tutorial.h \
                          $$(PUBLIC_HDR) $$(STATIC)
	$$(call CXX_LINK,$(1),$(2))
$(BUILD)/cxx/$(1)-$(2)/readme_hello: $$(BUILD)/readme_hello.c $$(PUBLIC_HDR) $$(STATIC)
	$$(call CXX_LINK,$(1),$(2))
$(BUILD)/cxx/$(1)-$(2)/arguments_sample: $$(BUILD)/arguments_sample.c $$(PUBLIC_HDR) $$(STATIC)
	$$(call CXX_LINK,$(1),$(2))
$(BUILD)/cxx/$(1)-$(2)/header_use: tests/cxx/header_use.c $$(PUBLIC_HDR) $$(STATIC)
	$$(call CXX_LINK,$(1),$(2))
endef
$(foreach c,$(CXX_FOUND),$(foreach s,$(CXX_STDS),\
    $(eval $(call CXX_VARIANT_RULES,$(c),$(s)))))

$(HEADER_USE_C): tests/cxx/header_use.c $(PUBLIC_HDR) $(STATIC)
	@mkdir -p $(@D)
	$(CC) -D_GNU_SOURCE -Iinclude $(CFLAGS) -o $@ $< $(STATIC) $(LDLIBS)

# ---- the host AIE API's unit tests (tests/aieapi) ---------------------------
# include/iron/kernel/aie_api/ is the AIE API kernels include as
# <aie_api/aie.hpp>.  Each tests/aieapi/test_*.cpp is a program of its own
# (with host_stub.cpp: main, the control words, the fault hook), built
# once per architecture (__AIE_ARCH__ 20: npu1, 21: npu2) by g++ and, when
# installed, clang++, as kernels are built: C++20, no exceptions, no RTTI,
# -Werror, into $(BUILD)/aieapi/<compiler>-<arch>/.  tests/unit/
# test_aieapi.c runs each build's programs.
# Every file the tests may include: the AIE API and the headers beside it
# (lut_based_ops.h), so that editing any of them rebuilds the tests.
AIEAPI_HDR   := $(KERNEL_HDR)
AIEAPI_SRC   := $(sort $(wildcard tests/aieapi/test_*.cpp))
AIEAPI_ARCHS := 20 21
AIEAPI_VARIANTS := $(foreach c,$(CXX_FOUND),$(addprefix $(c)-,$(AIEAPI_ARCHS)))
AIEAPI_BINS  := $(foreach v,$(AIEAPI_VARIANTS),$(AIEAPI_SRC:tests/aieapi/%.cpp=$(BUILD)/aieapi/$(v)/%))
AIEAPI_FLAGS  = -std=c++20 -fno-exceptions -fno-rtti -Wall -Wextra -Wshadow -Werror \
                $(OPT) $(SAN) -Iinclude/iron/kernel -Itests/aieapi
$(AIEAPI_BINS): | deps-test
define AIEAPI_RULES
$(BUILD)/aieapi/$(1)-$(2)/%: tests/aieapi/%.cpp tests/aieapi/host_stub.cpp \
                             tests/aieapi/aieapi_test.hpp $$(AIEAPI_HDR)
	@mkdir -p $$(@D)
	@echo "  CXX     $$@"
	@$(1) -D__AIE_ARCH__=$(2) $$(AIEAPI_FLAGS) -o $$@ $$< tests/aieapi/host_stub.cpp
endef
$(foreach c,$(CXX_FOUND),$(foreach a,$(AIEAPI_ARCHS),\
    $(eval $(call AIEAPI_RULES,$(c),$(a)))))
.PHONY: aieapi
aieapi: $(AIEAPI_BINS)

# ---- bench: bench/bench.c with the reference designs ------------------------
# The C baselines it compares with (bench/baseline.c) are compiled apart
# with -O3 -march=native: the best plain C this host runs.  OpenBLAS is a
# bench-only dependency, found with pkg-config: with it the sgemm row runs,
# without it that row is skipped (apt-get install libopenblas-dev).
# BENCH_BLAS=0 builds without it even when it is there.  The choice is kept
# in a stamp, rewritten only when it changes, so switching rebuilds.
BENCH     := $(BUILD)/bench/bench
BENCH_TSV := $(BUILD)/bench.tsv
BENCH_BLAS ?= $(shell pkg-config --exists openblas 2>/dev/null && echo 1)
# Recursive (=): pkg-config runs only when a bench recipe needs these.
bench_blas_cflags = $(if $(filter 1,$(BENCH_BLAS)),-DIRON_BENCH_OPENBLAS $(shell pkg-config --cflags openblas))
bench_blas_libs = $(if $(filter 1,$(BENCH_BLAS)),$(shell pkg-config --libs openblas))

.PHONY: bench-force
bench-force:

$(BUILD)/bench/blas.flags: bench-force
	@mkdir -p $(dir $@)
	@flags='$(bench_blas_cflags) $(bench_blas_libs)'; \
	    [ "$$flags" = "$$(cat $@ 2>/dev/null)" ] || echo "$$flags" > $@

$(BUILD)/bench/baseline.o: bench/baseline.c bench/baseline.h $(BUILD)/bench/blas.flags
	$(CC) $(CPPFLAGS) $(CFLAGS) -O3 -march=native $(bench_blas_cflags) -c $< -o $@

# bench/timing/ holds the timing model's anchors (docs/timing.md).
BENCH_SRC := bench/bench.c bench/common.c $(wildcard bench/timing/*.c)

$(BENCH): $(BENCH_SRC) bench/bench.h bench/baseline.h $(BUILD)/bench/baseline.o \
          $(DESIGN_SRC) $(wildcard examples/designs/*.h) $(STATIC)
	$(CC) $(CPPFLAGS) -Iexamples -Ibench $(CFLAGS) -O3 -o $@ $(BENCH_SRC) \
	    $(BUILD)/bench/baseline.o $(DESIGN_SRC) $(STATIC) $(LDLIBS) $(bench_blas_libs)

# IRON_BUILD and IRON_SAN let the install test run `make install` on this
# very build and compile its consumers with the same sanitizer.  The
# runner runs one test per CPU at a time (IRON_TEST_JOBS=N sets how many;
# 1 runs them one by one with their output as it comes) and keeps each
# test's time in $(BUILD)/test-times.tsv, to start the longest first.
test: deps-test $(TESTS) $(CLI) $(EXLIB) $(BUILD)/examples/reference \
      $(TUTORIALS) $(DOC_SAMPLES) $(HEADER_USE_C) $(CXX_BINS) $(AIEAPI_BINS) lib
	IRON_CLI=$(CLI) IRON_EXLIB=$(EXLIB) \
	    IRON_AIEAPI_DIR=$(BUILD)/aieapi IRON_AIEAPI="$(AIEAPI_VARIANTS)" \
	    IRON_REFERENCE=$(BUILD)/examples/reference \
	    IRON_TUTORIAL=$(BUILD)/examples/tutorial \
	    IRON_TEST_CXX_DIR=$(BUILD)/cxx IRON_TEST_CXX_VARIANTS="$(CXX_VARIANTS)" \
	    IRON_BUILD=$(BUILD) IRON_SAN="$(SAN)" IRON_PYTHON=$(PYTHON) \
	    IRON_TEST_CC="$(CC)" IRON_LIBS="$(IRON_LIBS)" \
	    IRON_TEST_TIMES=$(BUILD)/test-times.tsv \
	    ./$(TESTS) $(T)
	$(if $(T),,@$(MAKE) --no-print-directory python-test)

demo: $(BUILD)/examples/demo
	./$(BUILD)/examples/demo

bench: $(BENCH) python
	./$(BENCH) --tsv $(BENCH_TSV)
	PYTHONPATH=$(BUILD)/python $(PYTHON) bench/python.py --bench $(BENCH) --tsv $(BENCH_TSV)

asan:
	$(MAKE) BUILD=build-asan OPT="-O1 -g -fno-omit-frame-pointer" \
	    SAN="-fsanitize=address,undefined -fno-sanitize-recover=all" \
	    ASSERTS=1 test

tsan:
	$(MAKE) BUILD=build-tsan OPT="-O1 -g" SAN="-fsanitize=thread" ASSERTS=1 test

check-clang: deps-clang
	$(MAKE) CC=clang BUILD=build-clang ASSERTS=1 all test

# PREFIX (default /usr/local) is where the files will live; DESTDIR, if
# set, is a staging folder they are copied into instead (for packaging).
# What goes where is one list, read by install and by uninstall:
#   INSTALL_FILES  PATH:MODE:SOURCE, PATH under the prefix, copied as built
#   INSTALL_LINKS  PATH:TARGET, symbolic links
#   INSTALL_PC     the .pc files, written from cmake/NAME.pc.in with PREFIX
INSTALL_FILES = lib/libiron.a:644:$(STATIC) \
                lib/$(notdir $(SHARED_REAL)):755:$(SHARED_REAL) \
                $(foreach h,$(PUBLIC_HDR),include/iron/$(notdir $(h)):644:$(h)) \
                $(foreach h,$(KERNEL_HDR),$(h):644:$(h)) \
                bin/iron:755:$(CLI) \
                $(foreach f,$(CMAKE_FILES),lib/cmake/iron/$(notdir $(f)):644:$(f)) \
                share/doc/iron/LICENSE:644:LICENSE
INSTALL_LINKS = lib/$(SONAME):$(notdir $(SHARED_REAL)) lib/libiron.so:$(SONAME)
INSTALL_PC    = $(PKG_FILES:$(BUILD)/%=lib/%)
INSTALLED     = $(foreach e,$(INSTALL_FILES) $(INSTALL_LINKS),\
                    $(firstword $(subst :, ,$(e)))) $(INSTALL_PC)
# The folders only the library uses (include/iron, lib/cmake/iron, ...):
# uninstall removes them when nothing else is left in them.
INSTALL_OWN_DIRS = $(sort $(patsubst %/,%,$(filter %/iron/ include/iron/kernel/%,\
                       $(dir $(INSTALLED)))) $(if $(KERNEL_HDR),include/iron/kernel))
DEST = $(DESTDIR)$(PREFIX)

install: lib $(CLI)
	@set -e; for e in $(INSTALL_FILES); do \
	    path=$${e%%:*}; rest=$${e#*:}; mode=$${rest%%:*}; src=$${rest#*:}; \
	    echo "install -m $$mode $$src $(DEST)/$$path"; \
	    install -d "$(DEST)/$${path%/*}"; \
	    install -m $$mode "$$src" "$(DEST)/$$path"; \
	done; \
	for e in $(INSTALL_LINKS); do \
	    echo "ln -sf $${e#*:} $(DEST)/$${e%%:*}"; \
	    ln -sf "$${e#*:}" "$(DEST)/$${e%%:*}"; \
	done; \
	for path in $(INSTALL_PC); do \
	    name=$${path##*/}; \
	    echo "write $(DEST)/$$path (prefix $(PREFIX))"; \
	    install -d "$(DEST)/$${path%/*}"; \
	    $(call FILL,$(PREFIX)) cmake/$$name.in > "$(DEST)/$$path"; \
	done

# Removes what install installed, and the library's own folders left
# empty (the deepest first); anything else in the prefix stays.
uninstall:
	rm -f $(addprefix $(DEST)/,$(INSTALLED))
	@for d in $$(printf '%s\n' $(INSTALL_OWN_DIRS) | sort -ru); do \
	    [ ! -d "$(DEST)/$$d" ] || rmdir "$(DEST)/$$d" 2>/dev/null || \
	        echo "uninstall: $(DEST)/$$d is not empty: kept"; \
	done

# ---- packages ----------------------------------------------------------------
# The Debian 12 packages each kind of target needs, said once: the Makefile
# checks them and .ci/run installs them (`make deps-all`).  The
# library, the command and the examples need BUILD_PKGS; `make test` also
# TEST_PKGS (cmake and pkg-config: the install test builds a program
# against the installed library with each; mlir-19-tools: MLIR's own
# tools check the exporter's generic form and the core-body translation,
# docs/mlir.md; g++: the C++ builds of the tutorial, docs/cpp.md); `make
# fuzz` and `make check-clang` also CLANG_PKGS.
BUILD_PKGS = gcc libc6-dev make libxxhash-dev nettle-dev libboost-context-dev \
             libdw-dev libjansson-dev libdlpack-dev
PY_PKGS    = python3-dev python3-numpy
TEST_PKGS  = cmake pkg-config mlir-19-tools g++ $(PY_PKGS) python3-pytest
CLANG_PKGS = clang libclang-rt-14-dev
# How tools/deps.sh checks them: auto (dpkg where there is one, else
# pkg-config), dpkg (as root it installs what is missing, otherwise it
# prints the apt-get line), pkg-config (no dpkg: each package's libraries
# through pkg-config, the ones without a .pc file -- boost_context,
# dlpack -- by compiling a one-line program, tools on PATH; what is
# missing is named by library), or none.
DEPS_CHECK ?= auto
deps_run = @CC='$(CC)' CPPFLAGS='$(CPPFLAGS)' LDFLAGS='$(LDFLAGS)' \
    PYTHON='$(PYTHON)' sh tools/deps.sh $(DEPS_CHECK) '$(1)' $(2)

.PHONY: deps-test deps-clang deps-all deps-list
deps:
	$(call deps_run,build,$(BUILD_PKGS))
deps-test:
	$(call deps_run,test,$(TEST_PKGS))
deps-clang:
	$(call deps_run,clang,$(CLANG_PKGS))
deps-all:
	$(call deps_run,build$(comma) test and clang,$(BUILD_PKGS) $(TEST_PKGS) $(CLANG_PKGS))
# One list a line: build, test, clang.
deps-list:
	@echo $(BUILD_PKGS)
	@echo $(TEST_PKGS)
	@echo $(CLANG_PKGS)

include python/python.mk

clean:
	rm -rf build build-asan build-tsan build-clang build-fuzz

# ---- fuzz: libFuzzer targets (fuzz/fuzz_*.c), built with clang --------------
# The library is compiled again into $(FUZZ_BUILD) with coverage and
# ASan+UBSan; each target links it with libFuzzer.  `make fuzz` builds all
# and runs each for $(FUZZ_TIME) seconds on a copy of its seed corpus
# (fuzz/corpus/<target> -> $(FUZZ_BUILD)/corpus/<target>); crashing inputs
# land in $(FUZZ_BUILD)/crashes/<target>-*, logs in $(FUZZ_BUILD)/logs.
# FUZZ_TARGETS="fuzz_tap fuzz_decl" runs a subset; `make fuzz-tap` (or
# fuzz-fuzz_tap) runs one; FUZZ_FLAGS passes more libFuzzer flags, and
# FUZZ_TIMEOUT is the seconds one input may take.  The summary at the end
# gives each target's executions (libFuzzer's -print_final_stats).
FUZZ_CC      ?= clang
FUZZ_BUILD   ?= build-fuzz
FUZZ_TIME    ?= 60
FUZZ_TIMEOUT ?= 60
FUZZ_FLAGS   ?=
FUZZ_SAN      = -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_CFLAGS   = -g -O1 -fno-omit-frame-pointer $(WARN) -DIRON_ASSERTS
FUZZ_SRC     := $(sort $(wildcard fuzz/fuzz_*.c))
FUZZ_ALL     := $(FUZZ_SRC:fuzz/%.c=%)
FUZZ_TARGETS ?= $(FUZZ_ALL)
FUZZ_LIB_OBJ := $(LIB_SRC:%.c=$(FUZZ_BUILD)/%.o)
FUZZ_BINS    := $(FUZZ_ALL:%=$(FUZZ_BUILD)/%)

.PHONY: fuzz fuzz-build $(FUZZ_ALL:%=fuzz-%)

fuzz-build: $(FUZZ_BINS)

$(FUZZ_LIB_OBJ): | deps deps-clang

$(FUZZ_BUILD)/src/compile/kheader.o: $(FUZZ_BUILD)/gen/iron_kernel_h.inc \
                                     $(FUZZ_BUILD)/gen/kernel_headers.inc
$(FUZZ_BUILD)/src/compile/kheader.o: CPPFLAGS += -I$(FUZZ_BUILD)/gen
$(eval $(call SHIM_RULES,$(FUZZ_BUILD),$(FUZZ_CC)))

$(FUZZ_BUILD)/src/%.o: src/%.c $(LIB_HDR) $(wildcard src/*/*.h)
	@mkdir -p $(dir $@)
	@echo "  FUZZCC  $<"
	@$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) $(LIBCFLAGS) \
	    -fsanitize=fuzzer-no-link $(FUZZ_SAN) -c $< -o $@

$(FUZZ_BUILD)/libiron-fuzz.a: $(FUZZ_LIB_OBJ)
	@echo "  AR      $@"
	@rm -f $@ && ar rcs $@ $^

$(FUZZ_BUILD)/fuzz_%: fuzz/fuzz_%.c fuzz/fuzz.h $(wildcard include/iron/*.h) \
                      $(wildcard src/*/*.h) $(FUZZ_BUILD)/libiron-fuzz.a
	@echo "  FUZZLD  $@"
	@$(FUZZ_CC) $(CPPFLAGS) -Ifuzz $(FUZZ_CFLAGS) -fsanitize=fuzzer \
	    $(FUZZ_SAN) -o $@ $< $(FUZZ_BUILD)/libiron-fuzz.a $(LDLIBS)

# Runs target $$t; appends "target execs status" to $(FUZZ_BUILD)/summary.
define FUZZ_RUN_ONE
mkdir -p $(FUZZ_BUILD)/corpus/$$t $(FUZZ_BUILD)/crashes $(FUZZ_BUILD)/logs; \
if [ -d fuzz/corpus/$$t ]; then cp -f fuzz/corpus/$$t/* $(FUZZ_BUILD)/corpus/$$t/ 2>/dev/null; fi; \
dict=; [ -f fuzz/$$t.dict ] && dict=-dict=fuzz/$$t.dict; \
echo "  FUZZ    $$t for $(FUZZ_TIME) s (log: $(FUZZ_BUILD)/logs/$$t.log)"; \
./$(FUZZ_BUILD)/$$t -max_total_time=$(FUZZ_TIME) -timeout=$(FUZZ_TIMEOUT) \
    -print_final_stats=1 -artifact_prefix=$(FUZZ_BUILD)/crashes/$$t- \
    $$dict $(FUZZ_FLAGS) $(FUZZ_BUILD)/corpus/$$t \
    >$(FUZZ_BUILD)/logs/$$t.log 2>&1; rc=$$?; \
execs=$$(sed -n 's/^stat::number_of_executed_units: *//p' $(FUZZ_BUILD)/logs/$$t.log | tail -1); \
if [ $$rc -eq 0 ]; then res=ok; else res="FAILED (exit $$rc)"; \
    tail -n 40 $(FUZZ_BUILD)/logs/$$t.log; fi; \
echo "$$t: $${execs:-?} executions, $$res" >> $(FUZZ_BUILD)/summary; \
[ $$rc -eq 0 ]
endef

fuzz: $(FUZZ_TARGETS:%=$(FUZZ_BUILD)/%)
	@mkdir -p $(FUZZ_BUILD) && rm -f $(FUZZ_BUILD)/summary; fail=0; \
	for t in $(FUZZ_TARGETS); do ( $(FUZZ_RUN_ONE) ) || fail=1; done; \
	echo "fuzz summary ($(FUZZ_TIME) s each; crashes in $(FUZZ_BUILD)/crashes):"; \
	sed 's/^/  /' $(FUZZ_BUILD)/summary; exit $$fail

$(FUZZ_ALL:%=fuzz-%): fuzz-%: $(FUZZ_BUILD)/%
	@mkdir -p $(FUZZ_BUILD) && rm -f $(FUZZ_BUILD)/summary; t=$*; \
	( $(FUZZ_RUN_ONE) ); rc=$$?; sed 's/^/  /' $(FUZZ_BUILD)/summary; exit $$rc

# Short names: make fuzz-tap == make fuzz-fuzz_tap.
.PHONY: $(FUZZ_ALL:fuzz_%=fuzz-%)
$(FUZZ_ALL:fuzz_%=fuzz-%): fuzz-%: fuzz-fuzz_%
