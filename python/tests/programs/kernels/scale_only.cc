// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A C++ kernel with no C port: iron.run must refuse it by name.
void vector_scalar_mul(int *a, int *c, int *factor, int n) {}
