/*
 * tmpdir.c - the private temporary directory of one kernel build (compile
 * layer): creation under $TMPDIR, writing the source, removal.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compile/tmpdir.h"
#include "core/core.h"

static const char *tmp_parent(void)
{
    const char *t = getenv("TMPDIR");
    return t && *t ? t : "/tmp";
}

iron_status iron__ktmp_create(iron__ktmp *t)
{
    const char *parent = tmp_parent();
    iron__str s = { 0 };
    iron__str_printf(&s, "%s/iron-XXXXXX", parent);
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

iron_status iron__ktmp_read(const char *path, char **data, size_t *len)
{
    *data = NULL;
    *len = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return iron__fail(IRON_EIO, "cannot open '%s': %s", path,
                          strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return iron__fail(IRON_EIO, "cannot stat '%s': %s", path,
                          strerror(e));
    }
    size_t size = (size_t)st.st_size, got = 0;
    char *buf = iron__malloc(size ? size : 1);
    if (!buf) {
        close(fd);
        return iron__fail(IRON_ENOMEM, "out of memory reading '%s'", path);
    }
    while (got < size) {
        ssize_t n = read(fd, buf + got, size - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            int e = n < 0 ? errno : EIO;
            close(fd);
            iron__free(buf);
            return iron__fail(IRON_EIO, "cannot read '%s': %s", path,
                              n < 0 ? strerror(e) : "file shrank");
        }
        got += (size_t)n;
    }
    close(fd);
    *data = buf;
    *len = size;
    return IRON_OK;
}

/* Sweeps the directory rather than unlinking known names: a compiler that
 * failed or was killed may have left files of its own there. */
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
            if (unlinkat(dfd, e->d_name, 0) != 0 && errno == EISDIR)
                unlinkat(dfd, e->d_name, AT_REMOVEDIR);
        }
        closedir(d);
    } else if (dfd >= 0) {
        close(dfd);
    }
    rmdir(t->dir);
    iron__free(t->dir);
    t->dir = NULL;
}
