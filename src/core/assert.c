/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * assert.c - what a broken invariant does (base layer; IRON__ASSERT in
 * core.h).  Only the builds that test the library reach it: an invariant
 * that does not hold is a bug of the library, not the caller's mistake,
 * so the process stops where the bug shows, with the place and the
 * reason, instead of going on to a wrong result.  Callers' mistakes never
 * come here: they fail with a status and a message.
 */
#include <stdio.h>
#include <stdlib.h>

#include "core/core.h"

_Noreturn void iron__assert_fail(const char *cond, const char *why,
                                 const char *file, int line)
{
    fprintf(stderr,
            "%s:%d: invariant broken: %s (%s)\n"
            "libiron %s: this is a bug of the library; please report it "
            "with this message.\n",
            file, line, cond, why, IRON_VERSION_STRING);
    fflush(stderr);
    abort();
}
