# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The Python package `iron` (python/): its binding, the CPython extension
# iron._iron compiled from python/src/*.c over the static library, and its
# Python modules, assembled in $(BUILD)/python so that
# `PYTHONPATH=$(BUILD)/python python3 -c 'import iron'` works.  Included by
# the Makefile.
#
# Debian's python3 (/usr/bin/python3) is the one whose packages
# (python3-numpy, python3-pytest) the build and the tests use; PYTHON
# picks another.
PYTHON ?= $(or $(wildcard /usr/bin/python3),python3)
# Asked of the interpreter only when a Python target runs (recursive =).
py_cfg = $(shell $(PYTHON) -c 'import sysconfig; print(sysconfig.get_config_var("$(1)") or sysconfig.get_paths()["include"])')
py_numpy_inc = $(shell $(PYTHON) -c 'import numpy; print(numpy.get_include())')
PY_CPPFLAGS = -isystem $(call py_cfg,INCLUDEPY) -isystem $(py_numpy_inc)
# numpy's math library (its float16 conversions, for the bfloat16 dtype's
# float16 casts), static, beside its headers.
PY_NPYMATH = -L$(py_numpy_inc)/../lib -lnpymath

PY_EXT_SRC := $(sort $(wildcard python/src/*.c))
PY_EXT_OBJ := $(PY_EXT_SRC:%.c=$(BUILD)/%.o)
# The package's modules, and the C sources of its kernels (iron/kernels_src).
PY_MODULES := $(sort $(shell find python/iron -name '*.py' -o -name '*.c' 2>/dev/null))
PY_COPIES  := $(PY_MODULES:python/%=$(BUILD)/python/%)
# The extension's file name carries the interpreter's ABI tag
# (_iron.cpython-311-x86_64-linux-gnu.so); a stamp names it for make.
PY_EXT_STAMP := $(BUILD)/python/.ext-built

.PHONY: python python-test deps-python

python: deps-python $(PY_EXT_STAMP) $(PY_COPIES)

deps-python:
	$(call deps_run,python,$(PY_PKGS))

$(BUILD)/python/src/%.o: python/src/%.c $(wildcard python/src/*.h) $(PUBLIC_HDR)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(CPPFLAGS) $(PY_CPPFLAGS) $(OPT) $(WARN) $(SAN) -fPIC \
	    -fvisibility=hidden -c $< -o $@

# The static library goes inside the extension, its symbols kept private
# (--exclude-libs): the package needs no libiron.so at run time.
$(PY_EXT_STAMP): $(PY_EXT_OBJ) $(STATIC)
	@mkdir -p $(BUILD)/python/iron
	@echo "  LD      $(BUILD)/python/iron/_iron$(call py_cfg,EXT_SUFFIX)"
	@$(CC) $(SAN) -shared -o $(BUILD)/python/iron/_iron$(call py_cfg,EXT_SUFFIX) \
	    $(PY_EXT_OBJ) $(STATIC) $(PY_NPYMATH) -Wl,--exclude-libs,ALL $(LDLIBS)
	@touch $@

$(BUILD)/python/%.py: python/%.py
	@mkdir -p $(dir $@)
	@cp $< $@

$(BUILD)/python/iron/%.c: python/iron/%.c
	@mkdir -p $(dir $@)
	@cp $< $@

# The Python tests (python/tests, pytest).  Under a sanitizer the
# interpreter, which is not instrumented, gets the sanitizer's runtime
# preloaded (gcc's libasan/libtsan, clang's libclang_rt): ASan without its
# leak check (what the interpreter holds at exit is not ours to free),
# TSan halting at its first report, as the C tests' runner does.  Without
# the runtime the tests are skipped, saying so.  $ASAN_OPTIONS and
# $TSAN_OPTIONS still come first.
py_san_kind = $(if $(findstring address,$(SAN)),asan,$(if $(findstring thread,$(SAN)),tsan))
py_san_opts = $(if $(filter asan,$(py_san_kind)),ASAN_OPTIONS="detect_leaks=0$${ASAN_OPTIONS:+:$$ASAN_OPTIONS}",TSAN_OPTIONS="halt_on_error=1$${TSAN_OPTIONS:+:$$TSAN_OPTIONS}")
py_san_runtime = for f in lib$(py_san_kind).so libclang_rt.$(py_san_kind)-$$(uname -m).so; do \
        p=$$($(CC) -print-file-name=$$f); [ -f "$$p" ] && { echo "$$p"; break; }; done
# IRON_LIB: the shared library, whose functions some tests call through
# ctypes as the reference (the extension keeps its copy's symbols private);
# IRON_TUTORIAL: the tutorial's C programs, whose output the Python
# tutorial's is compared with (test_tutorial_py.py).
python-test: python $(SHARED_REAL) $(TUTORIALS) $(CLI) $(EXLIB)
	@preload=; \
	if [ -n "$(py_san_kind)" ]; then \
	    preload=$$($(py_san_runtime)); \
	    if [ -z "$$preload" ]; then \
	        echo "python-test: skipped: $(CC) has no $(py_san_kind) runtime to preload into $(PYTHON)"; \
	        exit 0; \
	    fi; \
	fi; \
	cd python/tests && \
	echo "  PYTEST  python/tests$${preload:+ (LD_PRELOAD=$$preload)}" && \
	env $${preload:+LD_PRELOAD=$$preload $(py_san_opts)} \
	    PYTHONPATH=$(abspath $(BUILD)/python) IRON_CLI=$(abspath $(CLI)) \
	    IRON_LIB=$(abspath $(SHARED_REAL)) IRON_EXLIB=$(abspath $(EXLIB)) \
	    IRON_TUTORIAL=$(abspath $(BUILD)/examples/tutorial) \
	    $(PYTHON) -m pytest -q -p no:cacheprovider $(PT)

# ---- make install: the package beside the library ---------------------------
# Installed when $(PYTHON) can build it, its headers and numpy being there
# (PY_INSTALL=auto, the default; PY_INSTALL=1 insists, failing as `make
# python` fails without them; PY_INSTALL=0 leaves it out), into the folder
# Debian's python3 reads for the prefix: lib/python3/dist-packages under
# /usr (the distribution's own), lib/python3.X/dist-packages elsewhere
# (/usr/local's; under another prefix, that folder goes on PYTHONPATH).
# The files join the Makefile's install lists; uninstall removes them
# whatever PY_INSTALL says, and the byte code Python left beside them.
PY_INSTALL ?= auto
py_version = $(shell $(PYTHON) -c 'import sys; print("%d.%d" % sys.version_info[:2])')
PY_SITE = $(if $(filter /usr,$(PREFIX)),lib/python3/dist-packages,lib/python$(py_version)/dist-packages)
py_ext_name = iron/_iron$(call py_cfg,EXT_SUFFIX)
# Asked only when an install or uninstall runs (recursive =).
py_install_wanted = $(if $(filter 1,$(PY_INSTALL)),1,$(if $(filter auto,$(PY_INSTALL)),$(shell \
    PYTHON='$(PYTHON)' CC='$(CC)' sh tools/deps.sh pkg-config python $(PY_PKGS) \
    >/dev/null 2>&1 && echo 1)))
PY_INSTALLED = $(PY_MODULES:python/%=$(PY_SITE)/%) $(PY_SITE)/$(py_ext_name)
INSTALL_FILES += $(if $(py_install_wanted),\
    $(foreach m,$(PY_MODULES),$(PY_SITE)/$(m:python/%=%):644:$(BUILD)/$(m)) \
    $(PY_SITE)/$(py_ext_name):755:$(BUILD)/python/$(py_ext_name))
INSTALLED += $(PY_INSTALLED)
INSTALL_OWN_DIRS += $(sort $(patsubst %/,%,$(dir $(PY_INSTALLED))))

# The tests install (tests/e2e/test_install.c), several at once: the
# package is built before they start.
test: python

.PHONY: install-python-build uninstall-python-cache
install: install-python-build
# After lib: the sub-make then finds the library built, not half-built.
install-python-build: lib
	$(if $(py_install_wanted),@$(MAKE) --no-print-directory python,\
	    $(if $(filter auto,$(PY_INSTALL)),@echo "install: the Python package is left out: $(PYTHON) lacks its headers or numpy ($(PY_PKGS)); PY_INSTALL=1 insists"))

uninstall: uninstall-python-cache
uninstall-python-cache:
	@for d in $(sort $(patsubst %/,%,$(dir $(PY_INSTALLED)))); do \
	    rm -rf "$(DEST)/$$d/__pycache__"; done
