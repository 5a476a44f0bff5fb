// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A C++ kernel with no C port, in upstream's style (a template, its entry
// in extern "C"): iron.run compiles it as C++.
#include <cstdint>

template <typename T> static void copy_line(const T *in, T *out, int32_t n)
{
    for (int32_t i = 0; i < n; i++)
        out[i] = in[i];
}

extern "C" {
void passThroughLine(const uint8_t *in, uint8_t *out, int32_t line_width)
{
    copy_line<uint8_t>(in, out, line_width);
}
}
