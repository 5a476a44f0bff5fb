/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * inuse.c - tensors held by running calls.  A call holds each of its
 * tensors from before the inputs are synced until the outputs are; a free
 * of a held tensor waits until the last call lets go, instead of pulling
 * memory from under an emulated DMA (which would crash the process or,
 * worse, write into memory reused by then).
 *
 * The count is an atomic on the tensor: two atomic operations per tensor
 * per call, no lock.  Only a free that finds the tensor held takes the
 * mutex; a call that drops the last hold of a tensor someone waits for
 * broadcasts under it, so the wake-up cannot be lost.  The waiter's mark
 * lives in the same word as the count: the call that drops the last hold
 * sees it in the value its decrement returns and never reads the tensor
 * afterwards -- the free may have given its memory back by then.
 */
#include <pthread.h>

#include "core/log.h"
#include "tensor/tensor.h"

static pthread_mutex_t wait_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t released = PTHREAD_COND_INITIALIZER;

void iron__tensor_hold(iron_tensor *t)
{
    atomic_fetch_add(&t->holds, 1);
}

void iron__tensor_release(iron_tensor *t)
{
    if (atomic_fetch_sub(&t->holds, 1) == (IRON__TENSOR_WAITED | 1)) {
        pthread_mutex_lock(&wait_mu);
        pthread_cond_broadcast(&released);
        pthread_mutex_unlock(&wait_mu);
    }
}

void iron__tensor_wait_unheld(iron_tensor *t)
{
    if ((atomic_load(&t->holds) & ~IRON__TENSOR_WAITED) == 0)
        return;
    char what[IRON__TENSOR_DESCRIBE_MAX];
    iron__log(IRON__LOG_JIT, "iron_tensor_free: tensor %s is used by a "
              "running call; waiting for it to finish",
              iron__tensor_describe(t, what, sizeof what));
    pthread_mutex_lock(&wait_mu);
    atomic_fetch_or(&t->holds, IRON__TENSOR_WAITED);
    while ((atomic_load(&t->holds) & ~IRON__TENSOR_WAITED) > 0)
        pthread_cond_wait(&released, &wait_mu);
    pthread_mutex_unlock(&wait_mu);
    atomic_fetch_and(&t->holds, ~IRON__TENSOR_WAITED);
}
