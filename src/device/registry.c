/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * registry.c - the device registry (devices of the built-in drivers, then
 * those of drivers registered later), the process-wide default device, the
 * per-thread device scopes, and the rule that picks the device a call runs
 * on.  Built-in drivers register through iron_driver_register like any
 * other, from the table in builtin.c, once, before the first lookup.
 *
 * Locking: one mutex guards the device list and the default device.  It is
 * never held while calling out (drivers, getenv, formatting of the caller's
 * strings), and nothing else is locked under it.  The scope stack is
 * thread-local and needs no lock.  Devices are never freed, so a pointer
 * read under the lock stays valid after it is released.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/env.h"
#include "core/log.h"
#include "core/struct.h"
#include "device/builtin.h"
#include "device/device.h"

#define FALLBACK_DEVICE "npu2"
#define ENV_DEVICE "IRON_DEVICE"
#define SCOPE_MAX 16
#define NAME_MAX_LEN 63

static pthread_once_t builtins_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static iron_device *devices[IRON__MAX_DEVICES];  /* under registry_lock */
static int ndevices;                             /* under registry_lock */
static iron_device *default_device;              /* under registry_lock */

/* A scope either names a known device or remembers the bad name it was
 * pushed with, so that calls inside it can say what went wrong. */
typedef struct scope {
    iron_device *dev;
    char bad_name[NAME_MAX_LEN + 1];
} scope;

/* depth may exceed SCOPE_MAX: pushes past the limit fail but still count,
 * so that their pops pair up and the outer scopes survive. */
static _Thread_local scope scopes[SCOPE_MAX];
static _Thread_local int scope_depth;

/* Set on the thread running init_builtins: the registrations it makes
 * enter the registry without waiting for the once they run inside. */
static _Thread_local int in_init;

/* Runs once per process, before any lookup: each built-in driver registers
 * its devices, in table order (so their indices never change).  A test's
 * allocation fault injection does not reach these allocations, so the
 * built-ins appear whatever the first call into the registry is. */
static void init_builtins(void)
{
    in_init = 1;
    iron__alloc_exempt(1);
    for (int i = 0; i < iron__nbuiltin_drivers; i++) {
        iron_status s = iron__builtin_drivers[i].register_fn();
        if (s != IRON_OK)
            iron__warn("built-in driver '%s' did not register: %s",
                       iron__builtin_drivers[i].name, iron_last_error());
    }
    iron__alloc_exempt(-1);
    in_init = 0;
}

static void registry_enter(void)
{
    if (!in_init)
        pthread_once(&builtins_once, init_builtins);
    pthread_mutex_lock(&registry_lock);
}

static void registry_leave(void)
{
    pthread_mutex_unlock(&registry_lock);
}

/* Caller holds registry_lock. */
static iron_device *find_locked(const char *name)
{
    for (int i = 0; i < ndevices; i++)
        if (strcmp(devices[i]->info.name, name) == 0)
            return devices[i];
    return NULL;
}

static iron_device *find(const char *name)
{
    registry_enter();
    iron_device *d = find_locked(name);
    registry_leave();
    return d;
}

/* "npu1, npu1_1col, ..." into buf (truncated with "..." if it must be). */
static const char *known_names(char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    registry_enter();
    for (int i = 0; i < ndevices; i++) {
        int w = snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
                         devices[i]->info.name);
        if (w < 0 || (size_t)w >= len - used) {
            if (len > 4)
                memcpy(buf + len - 4, "...", 4);
            break;
        }
        used += (size_t)w;
    }
    registry_leave();
    return buf;
}

/* ------------------------------------------------------------------------
 * Lookup
 * ------------------------------------------------------------------------ */

IRON_API iron_status iron_device_get(const char *name, iron_device **out)
{
    char known[1024];
    if (!out)
        return iron__fail(IRON_EINVAL, "iron_device_get: out is NULL");
    *out = NULL;
    if (!name)
        return iron__fail(IRON_EINVAL, "iron_device_get: name is NULL");
    iron_device *d = find(name);
    if (!d)
        return iron__fail(IRON_EDEVICE,
                          "unknown device '%s'; known devices: %s", name,
                          known_names(known, sizeof known));
    *out = d;
    return iron__public_result(IRON_OK);
}

IRON_API int iron_device_count(void)
{
    registry_enter();
    int n = ndevices;
    registry_leave();
    return n;
}

IRON_API iron_device *iron_device_at(int i)
{
    registry_enter();
    iron_device *d = i >= 0 && i < ndevices ? devices[i] : NULL;
    registry_leave();
    return d;
}

IRON_API const char *iron_device_name(const iron_device *dev)
{
    return dev ? dev->info.name : NULL;
}

/* The caller's size is kept: it says which version of the struct the
 * caller was built against, and the library's is never smaller than it
 * accepts. */
IRON_API iron_status iron_device_get_info(const iron_device *dev,
                                          iron_device_info *info)
{
    if (!dev)
        return iron__fail(IRON_EINVAL, "iron_device_get_info: device is NULL");
    if (!info)
        return iron__fail(IRON_EINVAL, "iron_device_get_info: info is NULL");
    if (info->size < sizeof *info)
        return iron__fail(IRON_EINVAL,
                          "iron_device_get_info: info->size is %zu; expected "
                          "at least sizeof(iron_device_info) = %zu",
                          info->size, sizeof *info);
    size_t size = info->size;
    *info = dev->info;
    info->size = size;
    return iron__public_result(IRON_OK);
}

/* ------------------------------------------------------------------------
 * Registration
 * ------------------------------------------------------------------------ */

static iron_status check_name(const char *what, const char *name)
{
    if (!name || !name[0])
        return iron__fail(IRON_EINVAL, "iron_driver_register: %s is %s",
                          what, name ? "empty" : "NULL");
    size_t n = strlen(name);
    if (n > NAME_MAX_LEN)
        return iron__fail(IRON_EINVAL,
                          "iron_driver_register: %s '%.20s...' is %zu "
                          "characters long; at most %d are allowed",
                          what, name, n, NAME_MAX_LEN);
    /* Names travel through $IRON_DEVICE, the CLI and comma-separated
     * messages, so they are kept to identifier-like characters. */
    for (size_t i = 0; i < n; i++) {
        char c = name[i];
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                 (c >= '0' && c <= '9') || c == '_' || c == '-';
        if (!ok)
            return iron__fail(IRON_EINVAL,
                              "iron_driver_register: %s '%s' has '%c' at "
                              "position %zu; names use letters, digits, '_' "
                              "and '-'",
                              what, name, c, i);
    }
    return IRON_OK;
}

static iron_status check_driver(const iron_driver *drv)
{
    if (!drv)
        return iron__fail(IRON_EINVAL, "iron_driver_register: drv is NULL");
    if (drv->abi_version != IRON_DRIVER_ABI)
        return iron__fail(IRON_EINVAL,
                          "iron_driver_register: drv->abi_version is %d; "
                          "this library speaks IRON_DRIVER_ABI %d%s",
                          drv->abi_version, IRON_DRIVER_ABI,
                          drv->abi_version == 1
                              ? " (since 0.4 a run's state has XRT's "
                                "numbers: rebuild the driver against this "
                                "iron_driver.h)"
                              : "");
    /* A table of the first version (without buf_wrap) is still taken;
     * driver.c reads the later ops only when the size covers them. */
    iron_status cs = iron__struct_check("iron_driver_register: drv",
                                        "iron_driver", drv->size,
                                        IRON_DRIVER_SIZE_V1, sizeof *drv);
    if (cs != IRON_OK)
        return cs;
    iron_status s = check_name("drv->name", drv->name);
    if (s != IRON_OK)
        return s;
    const char *missing = !drv->buf_alloc ? "buf_alloc"
                          : !drv->buf_free ? "buf_free"
                          : !drv->buf_sync ? "buf_sync"
                          : !drv->load     ? "load"
                          : !drv->run      ? "run"
                          : !drv->unload   ? "unload"
                                           : NULL;
    if (missing)
        return iron__fail(IRON_EINVAL,
                          "iron_driver_register: driver '%s' has no %s op "
                          "(drv->%s is NULL); every op is required",
                          drv->name, missing, missing);
    if (drv->size == sizeof *drv && !drv->buf_wrap != !drv->buf_unwrap)
        return iron__fail(IRON_EINVAL,
                          "iron_driver_register: driver '%s' has %s but no "
                          "%s; give both ops or neither",
                          drv->name, drv->buf_wrap ? "buf_wrap" : "buf_unwrap",
                          drv->buf_wrap ? "buf_unwrap" : "buf_wrap");
    return IRON_OK;
}

static iron_status check_info(const iron_device_info *info)
{
    if (!info)
        return iron__fail(IRON_EINVAL, "iron_driver_register: info is NULL");
    if (info->size < sizeof *info)
        return iron__fail(IRON_EINVAL,
                          "iron_driver_register: info->size is %zu; "
                          "expected at least sizeof(iron_device_info) = %zu",
                          info->size, sizeof *info);
    iron_status s = check_name("info->name", info->name);
    if (s != IRON_OK)
        return s;
    if (info->columns < 1)
        return iron__fail(IRON_EINVAL,
                          "iron_driver_register: device '%s': columns is %d; "
                          "expected >= 1", info->name, info->columns);
    if (info->compute_rows < 1 || info->compute_rows > info->rows)
        return iron__fail(IRON_EINVAL,
                          "iron_driver_register: device '%s': compute_rows "
                          "is %d with rows %d; expected 1 <= compute_rows "
                          "<= rows", info->name, info->compute_rows,
                          info->rows);
    if (info->lock_max_value < 1)
        return iron__fail(IRON_EINVAL,
                          "iron_driver_register: device '%s': "
                          "lock_max_value is %d; expected >= 1",
                          info->name, info->lock_max_value);
    return IRON_OK;
}

/* Appends s to the string area at *p; returns where it went. */
static const char *pack(char **p, const char *s)
{
    size_t n = strlen(s) + 1;
    char *at = *p;
    memcpy(at, s, n);
    *p += n;
    return at;
}

/* The device and its strings share one allocation: devices are never freed,
 * and one block is one failure point. */
IRON_API iron_status iron_driver_register(iron_driver *drv,
                                          const iron_device_info *info)
{
    iron_status s;
    if ((s = check_driver(drv)) != IRON_OK)
        return s;
    if ((s = check_info(info)) != IRON_OK)
        return s;

    const char *arch = info->arch ? info->arch : "";
    const char *family = info->family ? info->family : "";
    size_t strings = strlen(info->name) + strlen(arch) + strlen(family) +
                     strlen(drv->name) + 4;
    iron_device *dev = iron__malloc(sizeof *dev + strings);
    if (!dev)
        return iron__fail(IRON_ENOMEM,
                          "iron_driver_register: out of memory for device "
                          "'%s'", info->name);
    char *p = (char *)(dev + 1);
    dev->info = *info;
    dev->info.size = sizeof dev->info;
    dev->info.name = pack(&p, info->name);
    dev->info.arch = pack(&p, arch);
    dev->info.family = pack(&p, family);
    dev->info.driver = pack(&p, drv->name);
    dev->info.compute_tiles = info->columns * info->compute_rows;
    dev->drv = drv;

    registry_enter();
    if (find_locked(info->name)) {
        registry_leave();
        iron__free(dev);
        return iron__fail(IRON_EINVAL,
                          "iron_driver_register: device name '%s' is "
                          "already taken", info->name);
    }
    if (ndevices == IRON__MAX_DEVICES) {
        registry_leave();
        iron__free(dev);
        return iron__fail(IRON_EINVAL,
                          "iron_driver_register: the device table is full "
                          "(%d devices); cannot add '%s'",
                          IRON__MAX_DEVICES, info->name);
    }
    dev->index = ndevices;
    devices[ndevices++] = dev;
    registry_leave();
    return iron__public_result(IRON_OK);
}

/* ------------------------------------------------------------------------
 * Default device
 * ------------------------------------------------------------------------ */

IRON_API iron_status iron_device_set_default(const char *name)
{
    iron_device *d = NULL;
    if (name) {
        iron_status s = iron_device_get(name, &d);
        if (s != IRON_OK)
            return iron__fail_context(s, "iron_device_set_default");
    }
    registry_enter();
    default_device = d;
    registry_leave();
    return iron__public_result(IRON_OK);
}

/* Below an explicit default: $IRON_DEVICE, then the fallback. */
static iron_status environment_device(iron_device **out)
{
    const char *env = iron__env_get_text(IRON__ENV_DEVICE);
    if (env) {
        *out = find(env);
        if (!*out) {
            char known[1024];
            return iron__fail(IRON_EDEVICE,
                              "$" ENV_DEVICE " is '%s', which is not a known "
                              "device; known devices: %s",
                              env, known_names(known, sizeof known));
        }
        return IRON_OK;
    }
    *out = find(FALLBACK_DEVICE);
    if (!*out)
        return iron__fail(IRON_EDEVICE, "the fallback device '%s' is missing",
                          FALLBACK_DEVICE);
    return IRON_OK;
}

static iron_device *explicit_default(void)
{
    registry_enter();
    iron_device *d = default_device;
    registry_leave();
    return d;
}

IRON_API iron_device *iron_device_default(void)
{
    iron_device *d = explicit_default();
    if (!d && environment_device(&d) != IRON_OK)
        return NULL;
    return d;
}

/* ------------------------------------------------------------------------
 * Scoped devices
 * ------------------------------------------------------------------------ */

IRON_API iron_status iron_device_push(const char *name)
{
    int depth = scope_depth++;
    if (depth >= SCOPE_MAX)
        return iron__fail(IRON_ESTATE,
                          "iron_device_push('%s'): device scopes nest at "
                          "most %d deep",
                          name ? name : "(null)", SCOPE_MAX);
    scope *sc = &scopes[depth];
    sc->dev = NULL;
    snprintf(sc->bad_name, sizeof sc->bad_name, "%s",
             name ? name : "(null)");
    if (!name)
        return iron__fail(IRON_EINVAL, "iron_device_push: name is NULL");
    iron_status s = iron_device_get(name, &sc->dev);
    if (s != IRON_OK)
        return iron__fail_context(s, "iron_device_push");
    return iron__public_result(IRON_OK);
}

/* A successful pop leaves the thread's message alone: IRON_WITH_DEVICE
 * pops on the way out of its block, and the message of the block's last
 * call must survive it. */
IRON_API iron_status iron_device_pop(void)
{
    if (scope_depth == 0)
        return iron__fail(IRON_ESTATE,
                          "iron_device_pop: no device scope is open on this "
                          "thread (a pop without its push)");
    scope_depth--;
    return IRON_OK;
}

IRON_API iron_status iron_device_get_current(iron_device **out)
{
    if (!out)
        return iron__fail(IRON_EINVAL, "iron_device_get_current: out is NULL");
    *out = NULL;
    if (scope_depth > SCOPE_MAX)
        return iron__fail(IRON_ESTATE,
                          "device scopes are nested %d deep; at most %d are "
                          "allowed", scope_depth, SCOPE_MAX);
    if (scope_depth > 0) {
        const scope *sc = &scopes[scope_depth - 1];
        if (!sc->dev) {
            char known[1024];
            return iron__fail(IRON_EDEVICE,
                              "scoped device '%s' is unknown; known "
                              "devices: %s",
                              sc->bad_name, known_names(known, sizeof known));
        }
        *out = sc->dev;
        return iron__public_result(IRON_OK);
    }
    iron_device *d = explicit_default();
    if (d) {
        *out = d;
        return iron__public_result(IRON_OK);
    }
    return iron__public_result(environment_device(out));
}
