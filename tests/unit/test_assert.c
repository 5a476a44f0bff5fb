/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_assert.c - IRON__ASSERT (src/core/core.h), the check of the
 * library's own invariants: where it is compiled in, a broken one prints
 * file:line, the condition and why it must hold, and aborts; where it is
 * compiled out, its condition is not even evaluated.  This file turns it
 * on for itself, whatever the build, to see the first;
 * test_assert_off.c turns it off to see the second.
 */
#ifndef IRON_ASSERTS
#define IRON_ASSERTS 1
#endif
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/core.h"
#include "test.h"

/* Runs IRON__ASSERT(value > 1, ...) in a child; its stderr into err. */
static int run_child(int value, char *err, size_t len)
{
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    ASSERT(pid >= 0);
    if (pid == 0) {
        dup2(fds[1], 2);
        close(fds[0]);
        IRON__ASSERT(value > 1, "value counts the objects, at least two");
        _Exit(0);
    }
    close(fds[1]);
    size_t n = 0;
    for (ssize_t r; n + 1 < len && (r = read(fds[0], err + n,
                                               len - 1 - n)) > 0;)
        n += (size_t)r;
    err[n] = '\0';
    close(fds[0]);
    int status;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    return status;
}

TEST(assert_broken_invariant_prints_where_and_why_then_aborts)
{
    char err[1024];
    int status = run_child(2, err, sizeof err);
    ASSERT(WIFEXITED(status));
    ASSERT_EQ(WEXITSTATUS(status), 0);
    ASSERT_STR_EQ(err, "");
    status = run_child(1, err, sizeof err);
    if (!WIFSIGNALED(status))
        TEST_FAIL_("the child was not stopped by a signal (status %#x); "
                   "stderr: %s", status, err);
    ASSERT_EQ(WTERMSIG(status), SIGABRT);
    /* The line of IRON__ASSERT in run_child. */
    ASSERT_CONTAINS(err, "tests/unit/test_assert.c:");
    ASSERT_CONTAINS(err, ": invariant broken: value > 1 (value counts the "
                         "objects, at least two)\n");
    ASSERT_CONTAINS(err, "this is a bug of the library");
}
