// SPDX-License-Identifier: GPL-2.0-only
/*
 * A kcore_dir packed into one feature payload and unpacked again (see
 * kcore-dir-pack.h).  Unpacking rather than reading in place keeps one
 * reader for both forms: every user of kcore_dir/ (kallsyms, modules,
 * module_events, the module code copies) opens files by path.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kcore-dir-pack.h"

#define PACK_ALIGN(x) (((x) + 7) & ~(u64)7)
#define ENTRY_HEAD 16

struct pack_buf {
	u8 *p;
	size_t len, alloc;
};

static int pack_buf__room(struct pack_buf *b, size_t n)
{
	size_t want = b->len + n;

	if (want < b->len)
		return -EOVERFLOW;
	if (want > b->alloc) {
		size_t a = b->alloc ? b->alloc : 64 << 10;
		u8 *t;

		while (a < want)
			a *= 2;
		t = realloc(b->p, a);
		if (!t)
			return -ENOMEM;
		b->p = t;
		b->alloc = a;
	}
	return 0;
}

/* one file's entry: header, name, bytes; the padding is zeros */
static int pack__file(struct pack_buf *b, int dfd, const char *name)
{
	u32 name_len = strlen(name) + 1, zero = 0;
	u64 size, done = 0;
	struct stat st;
	int fd, err;
	u8 *at;

	fd = openat(dfd, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		err = -errno;
		goto out;
	}
	size = st.st_size;
	err = pack_buf__room(b, ENTRY_HEAD + PACK_ALIGN(name_len) + PACK_ALIGN(size));
	if (err)
		goto out;
	at = b->p + b->len;
	memset(at, 0, ENTRY_HEAD + PACK_ALIGN(name_len) + PACK_ALIGN(size));
	memcpy(at, &name_len, 4);
	memcpy(at + 4, &zero, 4);
	memcpy(at + 8, &size, 8);
	memcpy(at + ENTRY_HEAD, name, name_len);
	at += ENTRY_HEAD + PACK_ALIGN(name_len);
	while (done < size) {
		ssize_t n = read(fd, at + done, size - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = -errno;
			goto out;
		}
		/* shorter than fstat said: the file changed under us */
		if (!n) {
			err = -EIO;
			goto out;
		}
		done += n;
	}
	b->len += ENTRY_HEAD + PACK_ALIGN(name_len) + PACK_ALIGN(size);
out:
	close(fd);
	return err;
}

static int regular_file(const struct dirent *de)
{
	return de->d_type == DT_REG;
}

int kcore_dir__pack(const char *kdir, void **buf, size_t *len)
{
	struct pack_buf b = {0};
	struct dirent **names;
	int n, dfd, err = 0;

	dfd = open(kdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return -errno;
	/* sorted: the same kcore_dir packs to the same bytes */
	n = scandir(kdir, &names, regular_file, alphasort);
	if (n < 0) {
		err = -errno;
		close(dfd);
		return err;
	}
	for (int i = 0; i < n; i++) {
		if (!err)
			err = pack__file(&b, dfd, names[i]->d_name);
		free(names[i]);
	}
	free(names);
	close(dfd);
	if (err) {
		free(b.p);
		return err;
	}
	*buf = b.p;
	*len = b.len;
	return 0;
}

static bool name_ok(const char *name, u32 len)
{
	/* NUL-terminated exactly at len - 1, one path component */
	if (len < 2 || name[len - 1] || strlen(name) != len - 1)
		return false;
	return !strchr(name, '/') && strcmp(name, ".") && strcmp(name, "..");
}

static int write_all(int fd, const u8 *p, u64 size)
{
	while (size) {
		ssize_t n = write(fd, p, size > (1U << 30) ? (1U << 30) : size);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		p += n;
		size -= n;
	}
	return 0;
}

static int unpack__entries(const u8 *p, u64 size, bool swap, int dfd)
{
	u64 off = 0;

	while (off < size) {
		u32 name_len;
		u64 len;
		int fd, err;

		if (size - off < ENTRY_HEAD)
			return -EINVAL;
		memcpy(&name_len, p + off, 4);
		memcpy(&len, p + off + 8, 8);
		if (swap) {
			name_len = __builtin_bswap32(name_len);
			len = __builtin_bswap64(len);
		}
		off += ENTRY_HEAD;
		if (name_len > NAME_MAX + 1 || PACK_ALIGN(name_len) > size - off ||
		    !name_ok((const char *)p + off, name_len))
			return -EINVAL;
		fd = openat(dfd, (const char *)p + off, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
			    0644);
		/* the same name twice is no kcore_dir we wrote */
		if (fd < 0)
			return errno == EEXIST ? -EINVAL : -errno;
		off += PACK_ALIGN(name_len);
		if (len > size - off || PACK_ALIGN(len) > size - off) {
			close(fd);
			return -EINVAL;
		}
		err = write_all(fd, p + off, len);
		if (close(fd) && !err)
			err = -errno;
		if (err)
			return err;
		off += PACK_ALIGN(len);
	}
	return 0;
}

int kcore_dir__unpack(const void *buf, u64 size, bool swap, char **kdir)
{
	const char *tmp = getenv("TMPDIR");
	char *top = NULL, *dir = NULL;
	int dfd, err;

	if (!tmp || !*tmp)
		tmp = "/tmp";
	if (asprintf(&top, "%s/perf-textpoke.XXXXXX", tmp) < 0)
		return -ENOMEM;
	if (!mkdtemp(top)) {
		err = -errno;
		free(top);
		return err;
	}
	err = -ENOMEM;
	if (asprintf(&dir, "%s/kcore_dir", top) < 0) {
		dir = NULL;
		goto out_rm;
	}
	if (mkdir(dir, 0755)) {
		err = -errno;
		goto out_rm;
	}
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		err = -errno;
		goto out_rm;
	}
	err = unpack__entries(buf, size, swap, dfd);
	close(dfd);
	if (err)
		goto out_rm;
	free(top);
	*kdir = dir;
	return 0;
out_rm:
	if (dir)
		kcore_dir__remove_unpacked(dir);
	else
		rmdir(top);
	free(dir);
	free(top);
	return err;
}

void kcore_dir__remove_unpacked(const char *kdir)
{
	char *top = strdup(kdir), *slash;
	struct dirent *de;
	DIR *d = opendir(kdir);

	if (d) {
		while ((de = readdir(d))) {
			if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
				unlinkat(dirfd(d), de->d_name, 0);
		}
		closedir(d);
	}
	rmdir(kdir);
	slash = top ? strrchr(top, '/') : NULL;
	if (slash) {
		*slash = '\0';
		rmdir(top);
	}
	free(top);
}
