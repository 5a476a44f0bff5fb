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

$(BUILD)/python/src/%.o: python/src/%.c python/src/pyiron.h $(PUBLIC_HDR)
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
	    $(PY_EXT_OBJ) $(STATIC) -Wl,--exclude-libs,ALL $(LDLIBS)
	@touch $@

$(BUILD)/python/%.py: python/%.py
	@mkdir -p $(dir $@)
	@cp $< $@

$(BUILD)/python/iron/%.c: python/iron/%.c
	@mkdir -p $(dir $@)
	@cp $< $@

# The Python tests (python/tests, pytest).  Under a sanitizer the
# interpreter, which is not instrumented, gets the sanitizer's runtime
# preloaded.
py_san_preload = $(if $(findstring address,$(SAN)),LD_PRELOAD=$$($(CC) -print-file-name=libasan.so) ASAN_OPTIONS=detect_leaks=0)
python-test: python
	cd python/tests && $(py_san_preload) PYTHONPATH=$(abspath $(BUILD)/python) \
	    IRON_CLI=$(abspath $(CLI)) $(PYTHON) -m pytest -q -p no:cacheprovider $(PT)
