# iron - build, test, demo and bench.  `make help` lists the targets.
#
# Sources are found by folder: src/<module>/*.c go into libiron, cli/*.c
# into the `iron` command, tests/unit/*.c and tests/e2e/*.c into one test
# binary whose runner forks each test (by name) with a time limit.

CC       ?= cc
BUILD    ?= build
OPT      ?= -O2 -g
WARN      = -std=c11 -Wall -Wextra -Wshadow -Wundef -Wwrite-strings \
            -Wstrict-prototypes -Wmissing-prototypes -Wpointer-arith \
            -Wcast-qual -Wvla -Werror
CPPFLAGS += -D_GNU_SOURCE -Iinclude -Isrc
CFLAGS   += $(OPT) $(WARN) $(SAN)
LIBCFLAGS = -fPIC -fvisibility=hidden -DIRON_BUILDING
LDLIBS   += -lxxhash -lnettle -lboost_context -ldw -lelf -ljansson -ldl -lpthread -lm
PREFIX   ?= /usr/local

LIB_SRC  := $(sort $(wildcard src/*/*.c))
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
CLI_SRC  := $(sort $(wildcard cli/*.c))
TEST_SRC := $(sort $(wildcard tests/*.c tests/unit/*.c tests/e2e/*.c))
EX_SRC   := $(sort $(wildcard examples/*.c))
# Reference designs, shared by the examples, the tests and the benchmarks.
DESIGN_SRC := $(sort $(wildcard examples/designs/*.c))

STATIC   := $(BUILD)/libiron.a
SHARED   := $(BUILD)/libiron.so
CLI      := $(BUILD)/iron
EXLIB    := $(BUILD)/libiron-examples.so
TESTS    := $(BUILD)/iron-tests
EXAMPLES := $(EX_SRC:examples/%.c=$(BUILD)/examples/%)

.PHONY: all lib test demo bench clean install help asan tsan deps check-clang $(BUILD)/iron.pc

all: lib $(CLI) $(EXAMPLES) $(EXLIB)

lib: $(STATIC) $(SHARED) $(BUILD)/iron.pc

help:
	@echo "make            build libiron (static+shared), the iron CLI, examples"
	@echo "make demo       run the demo on the emulated NPU"
	@echo "make test       build and run every test (T=name runs one)"
	@echo "make bench      print the benchmark figures, write $(BUILD)/bench.tsv"
	@echo "make asan|tsan  run the tests under sanitizers"
	@echo "make check-clang  build everything with clang -Werror and run the tests"
	@echo "make fuzz       run every libFuzzer target (FUZZ_TIME=60 s each)"
	@echo "make install PREFIX=/usr/local"

$(LIB_OBJ): | deps

$(BUILD)/src/%.o: src/%.c $(wildcard include/iron/*.h) $(wildcard src/*/*.h)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(CPPFLAGS) $(CFLAGS) $(LIBCFLAGS) -c $< -o $@

$(STATIC): $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(SHARED): $(LIB_OBJ)
	$(CC) -shared $(CFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/iron.pc: Makefile
	@mkdir -p $(dir $@)
	@printf 'prefix=%s\nlibdir=$${prefix}/lib\nincludedir=$${prefix}/include\n\nName: iron\nDescription: IRON jit for C with an emulated NPU\nVersion: 0.1.0\nLibs: -L$${libdir} -liron\nLibs.private: -lxxhash -lnettle -lboost_context -ldw -lelf -ljansson -ldl -lpthread -lm\nCflags: -I$${includedir}\n' '$(PREFIX)' > $@

# -rdynamic: design plugins loaded by `iron dump` call the library's API
# in the executable, so that they share its state.
$(CLI): $(CLI_SRC) $(wildcard cli/*.h include/iron/*.h) $(STATIC)
	$(CC) $(CPPFLAGS) $(CFLAGS) -rdynamic -o $@ $(CLI_SRC) \
	    -Wl,--whole-archive $(STATIC) -Wl,--no-whole-archive $(LDLIBS)

# The reference designs as a plugin library, for `iron dump`; the iron_*
# symbols resolve against the program that loads it.
$(EXLIB): $(DESIGN_SRC) $(wildcard examples/designs/*.h include/iron/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Iexamples $(CFLAGS) -fPIC -shared -o $@ $(DESIGN_SRC)

$(TESTS): $(TEST_SRC) $(DESIGN_SRC) $(wildcard tests/*.h examples/designs/*.h) $(STATIC)
	$(CC) $(CPPFLAGS) -Itests -Iexamples $(CFLAGS) -o $@ $(TEST_SRC) $(DESIGN_SRC) $(STATIC) $(LDLIBS)

$(BUILD)/examples/%: examples/%.c $(DESIGN_SRC) $(wildcard examples/designs/*.h) $(STATIC)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Iexamples $(CFLAGS) -o $@ $< $(DESIGN_SRC) $(STATIC) $(LDLIBS)

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

$(BENCH): bench/bench.c bench/baseline.h $(BUILD)/bench/baseline.o $(DESIGN_SRC) \
          $(wildcard examples/designs/*.h) $(STATIC)
	$(CC) $(CPPFLAGS) -Iexamples $(CFLAGS) -O3 -o $@ bench/bench.c \
	    $(BUILD)/bench/baseline.o $(DESIGN_SRC) $(STATIC) $(LDLIBS) $(bench_blas_libs)

test: $(TESTS) $(CLI) $(EXLIB) $(BUILD)/examples/reference
	IRON_CLI=$(CLI) IRON_EXLIB=$(EXLIB) \
	    IRON_REFERENCE=$(BUILD)/examples/reference ./$(TESTS) $(T)

demo: $(BUILD)/examples/demo
	./$(BUILD)/examples/demo

bench: $(BENCH)
	./$(BENCH) --tsv $(BENCH_TSV)

asan:
	$(MAKE) BUILD=build-asan OPT="-O1 -g -fno-omit-frame-pointer" \
	    SAN="-fsanitize=address,undefined -fno-sanitize-recover=all" test

tsan:
	$(MAKE) BUILD=build-tsan OPT="-O1 -g" SAN="-fsanitize=thread" test

check-clang:
	$(MAKE) CC=clang BUILD=build-clang all test

install: lib $(CLI)
	install -d $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include/iron \
	    $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 644 $(STATIC) $(SHARED) $(DESTDIR)$(PREFIX)/lib/
	install -m 644 include/iron/*.h $(DESTDIR)$(PREFIX)/include/iron/
	install -m 755 $(CLI) $(DESTDIR)$(PREFIX)/bin/
	install -m 644 $(BUILD)/iron.pc $(DESTDIR)$(PREFIX)/lib/pkgconfig/

# Debian 12 packages the build and the tests need.  Every build checks
# for them first (cheaply): as root they are installed, otherwise the
# command to run is printed.
DEPS_PKGS = libxxhash-dev nettle-dev libboost-context-dev libdw-dev libjansson-dev libdlpack-dev gcc libc6-dev
deps:
	@dpkg -s $(DEPS_PKGS) >/dev/null 2>&1 || { \
	    if [ "$$(id -u)" = 0 ]; then \
	        echo "installing $(DEPS_PKGS)"; \
	        apt-get update -q && DEBIAN_FRONTEND=noninteractive \
	            apt-get install -y -q --no-install-recommends $(DEPS_PKGS); \
	    else \
	        echo "missing packages; run: sudo apt-get install $(DEPS_PKGS)"; \
	        exit 1; \
	    fi; }

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
FUZZ_CFLAGS   = -g -O1 -fno-omit-frame-pointer $(WARN)
FUZZ_SRC     := $(sort $(wildcard fuzz/fuzz_*.c))
FUZZ_ALL     := $(FUZZ_SRC:fuzz/%.c=%)
FUZZ_TARGETS ?= $(FUZZ_ALL)
FUZZ_LIB_OBJ := $(LIB_SRC:%.c=$(FUZZ_BUILD)/%.o)
FUZZ_BINS    := $(FUZZ_ALL:%=$(FUZZ_BUILD)/%)

.PHONY: fuzz fuzz-build $(FUZZ_ALL:%=fuzz-%)

fuzz-build: $(FUZZ_BINS)

$(FUZZ_LIB_OBJ): | deps

$(FUZZ_BUILD)/src/%.o: src/%.c $(wildcard include/iron/*.h) $(wildcard src/*/*.h)
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
