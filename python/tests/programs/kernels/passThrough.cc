// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Stands for upstream's C++ kernel: iron.run must take the C port beside
// it (passThrough.c), never this file.
#error "the C++ source was compiled instead of its C port"
