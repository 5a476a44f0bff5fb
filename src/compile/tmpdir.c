/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * tmpdir.c - the private temporary directory of one kernel build (compile
 * layer): creation under $TMPDIR, writing the source, removal -- and
 * removing the folders of builds whose process died before it could.
 *
 * Folders are named "iron-<pid>-XXXXXX" (mkdtemp fills the X's) so that a
 * later process can tell whose a folder was.  A process killed mid-build
 * leaves its folder behind; the first build of each later process (per
 * parent folder) removes every folder that matches that pattern exactly,
 * is a real folder (not a link) owned by this user, has not changed for
 * IRON__KTMP_STALE_S, and whose process no longer exists (kill(pid, 0)
 * fails with ESRCH).  A live process's folder is never touched, nor
 * anything else in the parent.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/file.h"
#include "compile/tmpdir.h"
#include "core/core.h"
#include "core/log.h"

/* A folder whose process is gone and that has not changed for this long
 * is stale.  The age guards against a pid that is dead here but alive in
 * another pid namespace sharing the folder: no build goes half an hour
 * without creating a file. */
#define IRON__KTMP_STALE_S (30 * 60)
/* Compilers make no deep trees; a deeper one is left for a human. */
#define IRON__KTMP_MAX_DEPTH 8

static const char *tmp_parent(void)
{
    const char *t = getenv("TMPDIR");
    return t && *t ? t : "/tmp";
}

/* Whether name is exactly "iron-<pid>-XXXXXX" as iron__ktmp_create makes
 * it: a decimal pid without a leading zero, then six of mkdtemp's letters
 * and digits.  *pid is the pid. */
static int our_name(const char *name, pid_t *pid)
{
    if (strncmp(name, "iron-", 5) != 0)
        return 0;
    const char *p = name + 5;
    if (*p < '1' || *p > '9')
        return 0;
    long long v = 0;
    for (; *p >= '0' && *p <= '9'; p++) {
        v = v * 10 + (*p - '0');
        if (v > INT_MAX)
            return 0;
    }
    if (*p++ != '-')
        return 0;
    for (int i = 0; i < 6; i++) {
        char c = p[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (c >= '0' && c <= '9')))
            return 0;
    }
    if (p[6] != '\0')
        return 0;
    *pid = (pid_t)v;
    return 1;
}

/* Removes the folder `name` in dfd and everything in it, never following
 * a link (a link inside is removed as a link) and only if it is still the
 * folder that was judged (same device and inode, this user's).  Returns 0
 * when the folder is gone. */
static int remove_tree(int dfd, const char *name, const struct stat *want,
                       int depth)
{
    int fd = openat(dfd, name,
                    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC |
                        O_NONBLOCK);
    if (fd < 0)
        return -1;
    struct stat st;
    if (fstat(fd, &st) != 0 || st.st_dev != want->st_dev ||
        st.st_ino != want->st_ino || st.st_uid != geteuid()) {
        close(fd);
        return -1;
    }
    DIR *d = fdopendir(fd);
    if (!d) {
        close(fd);
        return -1;
    }
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        struct stat cst;
        if (fstatat(fd, e->d_name, &cst, AT_SYMLINK_NOFOLLOW) != 0)
            continue;
        if (S_ISDIR(cst.st_mode)) {
            if (depth < IRON__KTMP_MAX_DEPTH)
                remove_tree(fd, e->d_name, &cst, depth + 1);
        } else {
            unlinkat(fd, e->d_name, 0);
        }
    }
    closedir(d);
    return unlinkat(dfd, name, AT_REMOVEDIR);
}

static void sweep_stale(const char *parent)
{
    int pfd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *d = pfd >= 0 ? fdopendir(pfd) : NULL;
    if (!d) {
        if (pfd >= 0)
            close(pfd);
        return;
    }
    time_t now = time(NULL);
    pid_t self = getpid();
    uid_t me = geteuid();
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        pid_t pid;
        struct stat st;
        if (!our_name(e->d_name, &pid) || pid == self)
            continue;
        if (fstatat(pfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
            !S_ISDIR(st.st_mode) || st.st_uid != me)
            continue;
        if (now - st.st_mtime < IRON__KTMP_STALE_S)
            continue;
        /* EPERM means it exists (another user's): only ESRCH is gone. */
        if (kill(pid, 0) == 0 || errno != ESRCH)
            continue;
        if (remove_tree(pfd, e->d_name, &st, 0) == 0)
            iron__log(IRON__LOG_JIT,
                      "removed '%s/%s', the temporary folder of process %ld, "
                      "which is gone",
                      parent, e->d_name, (long)pid);
    }
    closedir(d);
}

/* Sweeps each parent folder once per process: the first build after a
 * crash cleans up, later ones cost nothing.  The last parent swept is
 * remembered (tests and programs may change TMPDIR). */
static void sweep_once(const char *parent)
{
    static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
    static char swept[PATH_MAX];
    static pid_t swept_by;
    pthread_mutex_lock(&mu);
    /* A forked child is another process: it sweeps again. */
    if (swept_by != getpid() || strcmp(swept, parent) != 0) {
        snprintf(swept, sizeof swept, "%s", parent);
        swept_by = getpid();
        sweep_stale(parent);
    }
    pthread_mutex_unlock(&mu);
}

iron_status iron__ktmp_create(iron__ktmp *t)
{
    const char *parent = tmp_parent();
    sweep_once(parent);
    iron__str s = { 0 };
    iron__str_printf(&s, "%s/iron-%ld-XXXXXX", parent, (long)getpid());
    char *dir = iron__str_take(&s);
    if (!dir)
        return iron__fail(IRON_ENOMEM,
                          "out of memory naming a temporary directory");
    if (!mkdtemp(dir)) {
        int e = errno;
        iron__free(dir);
        return iron__fail(IRON_EIO,
                          "cannot create a temporary directory in '%s' "
                          "(from TMPDIR, else /tmp): %s", parent, strerror(e));
    }
    t->dir = dir;
    return IRON_OK;
}

char *iron__ktmp_path(const iron__ktmp *t, const char *name)
{
    iron__str s = { 0 };
    iron__str_printf(&s, "%s/%s", t->dir, name);
    return iron__str_take(&s);
}

iron_status iron__ktmp_write(const char *path, const char *data, size_t len)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0)
        return iron__fail(IRON_EIO, "cannot create '%s': %s", path,
                          strerror(errno));
    while (len > 0) {
        ssize_t n = write(fd, data, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            int e = n < 0 ? errno : EIO;
            close(fd);
            return iron__fail(IRON_EIO, "cannot write '%s': %s", path,
                              strerror(e));
        }
        data += n;
        len -= (size_t)n;
    }
    /* close() can report a delayed write error (NFS, full disk). */
    if (close(fd) != 0)
        return iron__fail(IRON_EIO, "cannot write '%s': %s", path,
                          strerror(errno));
    return IRON_OK;
}

/* Only a regular file of bounded size is read back, opened so that it
 * cannot block (core/file.h): the folder is private, but what a
 * compiler leaves in it is not ours to trust blindly. */
iron_status iron__ktmp_read(const char *path, char **data, size_t *len)
{
    *data = NULL;
    *len = 0;
    struct stat st;
    int err;
    char why[IRON__FILE_WHY_MAX];
    int fd = iron__file_open(AT_FDCWD, path, 1, IRON__OWNER_ANY,
                             IRON__FILE_OBJECT_MAX, &st, &err, why,
                             sizeof why);
    if (fd < 0)
        return iron__fail(IRON_EIO, "cannot read '%s': %s", path, why);
    size_t size = (size_t)st.st_size;   /* at most IRON__FILE_OBJECT_MAX */
    char *buf = iron__malloc(size ? size : 1);
    if (!buf) {
        close(fd);
        return iron__fail(IRON_ENOMEM, "out of memory reading '%s'", path);
    }
    ptrdiff_t n = iron__file_read(fd, buf, size);
    int e = errno;
    close(fd);
    if (n < 0 || (size_t)n != size) {
        iron__free(buf);
        return iron__fail(IRON_EIO, "cannot read '%s': %s", path,
                          n < 0 ? strerror(e) : "file shrank");
    }
    *data = buf;
    *len = size;
    return IRON_OK;
}

/* Sweeps the directory rather than unlinking known names: a compiler that
 * failed or was killed may have left files of its own there.  Folders
 * inside are removed with everything in them. */
void iron__ktmp_remove(iron__ktmp *t)
{
    if (!t->dir)
        return;
    int dfd = open(t->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            struct stat st;
            /* A folder: the kernel header's include/iron, or one the
             * compiler made. */
            if (unlinkat(dfd, e->d_name, 0) != 0 && errno == EISDIR &&
                fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0)
                remove_tree(dfd, e->d_name, &st, 1);
        }
        closedir(d);
    } else if (dfd >= 0) {
        close(dfd);
    }
    rmdir(t->dir);
    iron__free(t->dir);
    t->dir = NULL;
}
