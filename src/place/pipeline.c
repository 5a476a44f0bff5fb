/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * pipeline.c - the front of every build (place layer), said once: a
 * fresh design, the design function run on it, the design verified, a
 * program made of it and placed.  The jit's builds and checks
 * (src/jit/spec.c) and the MLIR importer's dry run (src/mlir/mlir.c) both
 * come through here, so a design imported from MLIR is judged exactly as
 * the same design written in C.
 *
 *   design   iron__design_new, then rq->fn(d, rq->user); a failure the
 *            function recorded (iron_design_fail or a builder call) is
 *            its status and text; a non-zero return without one is
 *            IRON_EDESIGN
 *   verify   iron__verify (src/verify)
 *   place    iron__program_new takes the design, iron__place fills the
 *            program's tables
 */
#include "core/core.h"
#include "place/place.h"
#include "verify/verify.h"

iron_status iron__place_design(const iron__place_request *rq,
                               iron_program **out, iron__place_outcome *how)
{
    double now = iron__now_ms();
    iron_design *d = NULL;
    iron_program *p = NULL;
    *out = NULL;
    how->stage = "design";
    how->design_ran = 0;
    for (int i = 0; i < 3; i++)
        how->ms[i] = 0;
    iron_status s = iron__design_new(&d, rq->name, rq->nargs, rq->args,
                                     rq->nparams, rq->params, rq->cols,
                                     rq->dev, rq->cflags, rq->nscalars,
                                     rq->scalar_names);
    if (s != IRON_OK)
        goto fail;
    how->design_ran = 1;
    int rc = rq->fn(d, rq->user);
    if (d->status != IRON_OK) {
        s = iron__fail(d->status, "%s",
                       d->error ? d->error : iron_status_message(d->status));
        goto fail;
    }
    if (rc != 0) {
        s = iron__fail(IRON_EDESIGN,
                       "the design function returned %d without recording "
                       "an error (use iron_design_fail to say why)",
                       rc);
        goto fail;
    }
    how->ms[0] = iron__now_ms() - now;
    now += how->ms[0];
    how->stage = "verify";
    if ((s = iron__verify(d)) != IRON_OK)
        goto fail;
    how->ms[1] = iron__now_ms() - now;
    now += how->ms[1];
    how->stage = "place";
    iron_design *owned = d;
    d = NULL;  /* the program owns it from here, even on failure */
    if ((s = iron__program_new(&p, owned, rq->dev)) != IRON_OK ||
        (s = iron__place(p)) != IRON_OK)
        goto fail;
    how->ms[2] = iron__now_ms() - now;
    *out = p;
    return IRON_OK;
fail:
    iron__design_free(d);
    iron__program_free(p);
    return s;
}
