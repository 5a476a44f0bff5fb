#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# deps.sh - checks that the packages a make target needs are there; the
# Makefile runs it with one of its package lists (BUILD_PKGS, TEST_PKGS,
# CLANG_PKGS: Debian 12 names).
#
# Usage: tools/deps.sh MODE WHAT PACKAGE...
#   MODE        how to check (the Makefile's DEPS_CHECK):
#     auto        dpkg when it is on PATH, else pkg-config
#     dpkg        ask dpkg; as root install what is missing with apt-get,
#                 otherwise print the apt-get line to run and fail
#     pkg-config  for systems without dpkg: check what each package
#                 provides -- libraries through pkg-config, a library or
#                 header without a .pc file by compiling a one-line program
#                 with $CC ($CPPFLAGS, $LDFLAGS), Python's headers and
#                 modules through $PYTHON, tools on PATH -- and name what
#                 is missing by library, header, module or tool
#     none        check nothing
#   WHAT        what the packages are for, for the messages ("build")
# Exits 0 when everything is there (or was installed), 1 otherwise.
set -u

mode=$1
what=$2
shift 2
CC=${CC:-cc}
PYTHON=${PYTHON:-python3}

have() { command -v "$1" >/dev/null 2>&1; }

if [ "$mode" = auto ]; then
    if have dpkg; then mode=dpkg; else mode=pkg-config; fi
fi

case $mode in
none)
    exit 0
    ;;
dpkg)
    dpkg -s "$@" >/dev/null 2>&1 && exit 0
    missing=
    for p in "$@"; do
        dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
    done
    missing=${missing# }
    if [ "$(id -u)" = 0 ]; then
        echo "deps: installing the $what packages $missing"
        apt-get update -q &&
            DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
                --no-install-recommends $missing && exit 0
        echo "deps: could not install $missing" >&2
        exit 1
    fi
    echo "deps: missing $what packages; run: sudo apt-get install $missing" >&2
    echo "deps: (or, without dpkg, make DEPS_CHECK=pkg-config; to skip the" \
         "check, DEPS_CHECK=none)" >&2
    exit 1
    ;;
pkg-config)
    ;;
*)
    echo "deps: DEPS_CHECK=$mode: expected auto, dpkg, pkg-config or none" >&2
    exit 1
    ;;
esac

# Without dpkg: each package as the things it provides.  A check is
#   pc:MODULE        pkg-config --exists MODULE
#   lib:NAME:SYMBOL  a program calling SYMBOL links with -lNAME
#   h:HEADER         #include <HEADER> compiles
#   cc               $CC compiles and links a C program
#   tool:A|B         A (or B) is on PATH
#   fuzz             clang links a libFuzzer target
#   pyh              $PYTHON's headers (Python.h) are there
#   pymod:M          $PYTHON imports M (numpy: and has its C headers)
checks_of() {
    case $1 in
    gcc | libc6-dev) echo cc ;;
    libxxhash-dev) echo pc:libxxhash ;;
    nettle-dev) echo pc:nettle ;;
    libboost-context-dev) echo lib:boost_context:jump_fcontext ;;
    libdw-dev) echo pc:libdw pc:libelf ;;
    libjansson-dev) echo pc:jansson ;;
    libdlpack-dev) echo h:dlpack/dlpack.h ;;
    mlir-19-tools) echo "tool:mlir-opt-19|mlir-opt" ;;
    libclang-rt-14-dev) echo fuzz ;;
    python3-dev) echo pyh ;;
    python3-numpy) echo pymod:numpy ;;
    python3-pytest) echo pymod:pytest ;;
    *) echo "tool:$1" ;;
    esac
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/iron-deps-XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

# Compiles and links $tmp/t.c with $CC and the extra flags given.
builds() {
    # shellcheck disable=SC2086  # the flags are word lists
    $CC ${CPPFLAGS:-} "$tmp/t.c" -o "$tmp/t" ${LDFLAGS:-} "$@" \
        >/dev/null 2>&1
}

# Prints what a check finds missing (nothing when it passes).
check() {
    case $1 in
    pc:*)
        m=${1#pc:}
        if ! have pkg-config; then
            echo "$m (pkg-config is not installed to check it)"
        elif ! pkg-config --exists "$m"; then
            echo "$m (pkg-config $m)"
        fi
        ;;
    lib:*)
        rest=${1#lib:}
        name=${rest%%:*}
        sym=${rest#*:}
        printf 'void %s(void);\nint main(void) { return %s != 0; }\n' \
            "$sym" "$sym" > "$tmp/t.c"
        builds "-l$name" || echo "lib$name (-l$name, $sym)"
        ;;
    h:*)
        h=${1#h:}
        printf '#include <%s>\nint main(void) { return 0; }\n' "$h" \
            > "$tmp/t.c"
        builds || echo "<$h>"
        ;;
    cc)
        printf '#include <stdio.h>\nint main(void) { return 0; }\n' \
            > "$tmp/t.c"
        builds || echo "a working C compiler ($CC)"
        ;;
    tool:*)
        found=
        list=${1#tool:}
        rest=$list
        while [ -n "$rest" ]; do
            t=${rest%%|*}
            have "$t" && found=1
            case $rest in *'|'*) rest=${rest#*|} ;; *) rest= ;; esac
        done
        [ -n "$found" ] || echo "$list (a program on PATH)" | sed 's/|/ or /g'
        ;;
    pyh)
        "$PYTHON" -c 'import os, sys, sysconfig
sys.exit(not os.path.isfile(os.path.join(sysconfig.get_paths()["include"],
                                         "Python.h")))' >/dev/null 2>&1 ||
            echo "Python.h for $PYTHON (its headers)"
        ;;
    pymod:numpy)
        "$PYTHON" -c 'import os, sys, numpy
sys.exit(not os.path.isfile(os.path.join(numpy.get_include(), "numpy",
                                         "arrayobject.h")))' \
            >/dev/null 2>&1 ||
            echo "numpy for $PYTHON (import numpy, and its C headers)"
        ;;
    pymod:*)
        m=${1#pymod:}
        "$PYTHON" -c "import $m" >/dev/null 2>&1 ||
            echo "$m for $PYTHON (import $m)"
        ;;
    fuzz)
        printf '%s\n%s\n' '#include <stddef.h>' \
            'int LLVMFuzzerTestOneInput(const char *d, size_t n) { (void)d; (void)n; return 0; }' \
            > "$tmp/t.c"
        have clang && clang -fsanitize=fuzzer "$tmp/t.c" -o "$tmp/t" \
            >/dev/null 2>&1 || echo "libFuzzer (clang -fsanitize=fuzzer)"
        ;;
    esac
}

missing=
packages=
done_checks=
for p in "$@"; do
    for c in $(checks_of "$p"); do
        case " $done_checks " in *" $c "*) continue ;; esac
        done_checks="$done_checks $c"
        m=$(check "$c")
        if [ -n "$m" ]; then
            missing="$missing
  $m"
            case " $packages " in *" $p "*) ;; *) packages="$packages $p" ;; esac
        fi
    done
done
[ -z "$missing" ] && exit 0
echo "deps: missing for the $what (checked without dpkg):$missing" >&2
echo "deps: Debian names them$packages; install your system's" \
     "equivalents, or skip the check with make DEPS_CHECK=none" >&2
exit 1
