// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// host_stub.cpp - what the emulator's kernel runtime shim gives a kernel,
// for the unit-test programs: per-thread control words, and a fault that
// jumps back to the test expecting it (CHECK_FAULT) or ends the program.
// Also main(): runs every AIE_TEST with the modes reset, as a core's call.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "aieapi_test.hpp"

namespace {
thread_local unsigned ctl[4];
struct entry {
    const char *name;
    aieapi_test::fn f;
};
entry tests[256];
unsigned ntests, failed_checks;
} // namespace

extern "C" unsigned *iron__aie_ctl(void) { return ctl; }

namespace aieapi_test {
jmp_buf fault_jmp;
bool fault_armed;
char fault_what[256], fault_file[256];
unsigned fault_line;

void add(const char *name, fn f)
{
    if (ntests == sizeof tests / sizeof tests[0]) {
        fprintf(stderr, "aieapi_test: more than %zu tests in one program\n",
                sizeof tests / sizeof tests[0]);
        exit(2);
    }
    tests[ntests++] = {name, f};
}
void fail_check() { failed_checks++; }
void reset_modes() { memset(ctl, 0, sizeof ctl); }
} // namespace aieapi_test

extern "C" [[noreturn]] void iron__aie_fault(const char *what, const char *file, unsigned line)
{
    using namespace aieapi_test;
    if (fault_armed) {
        snprintf(fault_what, sizeof fault_what, "%s", what);
        snprintf(fault_file, sizeof fault_file, "%s", file);
        fault_line = line;
        longjmp(fault_jmp, 1);
    }
    fprintf(stderr, "%s:%u: kernel fault: %s\n", file, line, what);
    abort();
}

int main(int argc, char **argv)
{
    unsigned passed = 0, failed = 0;
    for (unsigned t = 0; t < ntests; t++) {
        if (argc > 1 && !strstr(tests[t].name, argv[1]))
            continue;
        aieapi_test::reset_modes();
        unsigned before = failed_checks;
        tests[t].f();
        if (failed_checks == before) {
            passed++;
        } else {
            failed++;
            fprintf(stderr, "FAIL %s\n", tests[t].name);
        }
    }
    printf("aieapi (__AIE_ARCH__ %d): %u passed, %u failed\n", __AIE_ARCH__, passed, failed);
    return failed != 0;
}
