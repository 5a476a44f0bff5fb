#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# upstream_kernels.sh - the upstream-kernel census: compiles (syntax only)
# every AIE kernel of an mlir-aie checkout against the host AIE API in
# include/iron/kernel and prints, per kernel, whether it compiles or the
# first name the compiler did not find.  Nothing of the checkout is
# copied anywhere.
#
#   tools/upstream_kernels.sh MLIR_AIE_DIR
#
# Kernels: aie_kernels/aie2/**/*.cc and aie_kernels/generic/*.cc for npu1
# (__AIE_ARCH__=20), aie_kernels/aie2p/*.cc for npu2 (21), and the
# example-local programming_examples/**/*.cc for npu1, then npu2 if npu1
# fails.  Environment: CXX (default g++), IRON_KERNEL_INCLUDE (default the
# include/iron/kernel next to this script), CENSUS_FLAGS (added to every
# compile).  Like the emulator, every kernel is compiled with the
# environment header force-included (-include aie_api/detail/env.hpp).
set -u

if [ $# -ne 1 ] || [ ! -d "$1/aie_kernels" ]; then
    echo "usage: $0 MLIR_AIE_DIR (an mlir-aie checkout: the folder holding aie_kernels/)" >&2
    exit 2
fi
up=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")/.." && pwd)
inc=${IRON_KERNEL_INCLUDE:-$here/include/iron/kernel}
cxx=${CXX:-g++}
if [ ! -f "$inc/aie_api/aie.hpp" ]; then
    echo "$0: no aie_api/aie.hpp under $inc (set IRON_KERNEL_INCLUDE)" >&2
    exit 2
fi
err=$(mktemp)
trap 'rm -f "$err"' EXIT

# Defines the upstream build passes for some kernels (one variant each).
defines_for() {
    case "$1" in
    */passThrough.cc) echo "-DBIT_WIDTH=8" ;;
    */mm.cc | */mm_*.cc | */mv.cc) echo "-DDIM_M=64 -DDIM_K=64 -DDIM_N=64 -Di16_i16_ONLY -Dbf16_bf16_ONLY" ;;
    */row_wise_bias_add/*) echo "-DDIM_m=96 -DDIM_n=32" ;;
    */transposes/*) echo "-DDIM_m=32 -DDIM_n=32 -DDTYPE_i16" ;;
    *) echo "" ;;
    esac
}

# The first error, reduced to the name it is about where there is one.
first_missing() {
    # "declared void" follows from an unknown parameter type named next.
    line=$(grep -E 'error:' "$err" | grep -v 'declared void' | head -n1)
    name=$(printf '%s\n' "$line" | sed -n \
        -e "s/.*error: '\([^']*\)' was not declared in this scope.*/\1/p" \
        -e "s/.*error: '\([^']*\)' is not a member of '\([^']*\)'.*/\2::\1/p" \
        -e "s/.*error: '\([^']*\)' in namespace '\([^']*\)' does not name a.*/\2::\1/p" \
        -e "s/.*error: '\([^']*\)' does not name a type.*/\1 (type)/p" \
        -e "s/.*error: '\([^']*\)' has not been declared.*/\1/p" \
        -e "s/.*error: no matching function for call to '\([^(']*\).*/\1 (no overload for these arguments)/p" \
        -e "s/.*error: static assertion failed: \(.*\)/\1/p" \
        -e "s/.*fatal error: \([^:]*\): No such file.*/#include <\1> (not found)/p" \
        -e "s/.*error: use of undeclared identifier '\([^']*\)'.*/\1/p" \
        -e "s/.*error: no member named '\([^']*\)' in namespace '\([^']*\)'.*/\2::\1/p" \
        -e "s/.*error: unknown type name '\([^']*\)'.*/\1 (type)/p" | head -n1)
    if [ -z "$name" ]; then
        name=$(printf '%s\n' "$line" | sed -e 's/.*error: //' | cut -c1-120)
    fi
    printf '%s' "$name"
}

# compile FILE ARCH: 0 if it compiles; the errors in $err otherwise.
compile() {
    if [ "$2" = 21 ]; then rt=AIE2P; else rt=AIE2; fi
    # shellcheck disable=SC2046 # the defines split into words on purpose
    LC_ALL=C "$cxx" -std=c++20 -fno-exceptions -fno-rtti -fsyntax-only -w \
        -D__AIE_ARCH__="$2" $(defines_for "$1") ${CENSUS_FLAGS:-} \
        -I"$inc" -include aie_api/detail/env.hpp \
        -I"$(dirname "$1")" -I"$up/aie_runtime_lib/$rt" -I"$up/aie_kernels" \
        "$1" >"$err" 2>&1
}

ok=0
bad=0
report() { # FILE ARCHS...
    f=$1
    shift
    rel=${f#"$up"/}
    why=""
    # A .cc another kernel includes (zero.cc) is not compiled on its own.
    by=$(grep -l "#include \"$(basename "$f")\"" "$(dirname "$f")"/*.cc 2>/dev/null | head -n1)
    if [ -n "$by" ]; then
        printf '%-70s included by %s, not compiled alone\n' "$rel" "$(basename "$by")"
        return
    fi
    for a in "$@"; do
        if compile "$f" "$a"; then
            printf '%-70s compiles (__AIE_ARCH__=%s)\n' "$rel" "$a"
            ok=$((ok + 1))
            return
        fi
        [ -z "$why" ] && why=$(first_missing)
    done
    printf '%-70s fails: %s\n' "$rel" "$why"
    bad=$((bad + 1))
}

list() { find "$@" -name '*.cc' 2>/dev/null | LC_ALL=C sort; }

for f in $(list "$up/aie_kernels/aie2" "$up/aie_kernels/generic"); do report "$f" 20; done
for f in $(list "$up/aie_kernels/aie2p"); do report "$f" 21; done
for f in $(list "$up/programming_examples"); do report "$f" 20 21; done
echo "$ok compile, $bad fail"
