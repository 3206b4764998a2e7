// SPDX-License-Identifier: GPL-2.0-only
/*
 * Object file bytes for the insn field: one read-only mapping per file,
 * kept for the whole listing, instead of a pread() per sample.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dso-data.h"
#include "input-file.h"

struct dso_data_file {
	char *path;
	const void *key;
	u64 used;      /* when it was last read, for the LRU */
	int err;       /* -errno when it could not be opened: not tried again */
	int fd;	       /* not a regular file: read with pread() */
	const u8 *map; /* a regular file, all of it */
	size_t size;
	bool elf64;
};

struct dso_data {
	struct dso_data_file files[DSO_DATA_FILES];
	u64 clock;		    /* counts reads */
	struct dso_data_file *last; /* samples come in runs from one object */
};

struct dso_data *dso_data__new(void)
{
	struct dso_data *dd = calloc(1, sizeof(*dd));
	int i;

	if (!dd)
		return NULL;
	for (i = 0; i < DSO_DATA_FILES; i++)
		dd->files[i].fd = -1;
	return dd;
}

static void dso_data_file__exit(struct dso_data_file *f)
{
	if (f->map)
		munmap((void *)f->map, f->size);
	if (f->fd >= 0)
		close(f->fd);
	free(f->path);
	memset(f, 0, sizeof(*f));
	f->fd = -1;
}

void dso_data__delete(struct dso_data *dd)
{
	int i;

	if (!dd)
		return;
	for (i = 0; i < DSO_DATA_FILES; i++)
		dso_data_file__exit(&dd->files[i]);
	free(dd);
}

static ssize_t dso_data_file__read(struct dso_data_file *f, u64 offset, u8 *buf, size_t len)
{
	ssize_t n;

	if (f->map) {
		if (offset >= f->size)
			return 0;
		if (len > f->size - offset)
			len = f->size - offset;
		memcpy(buf, f->map + offset, len);
		return len;
	}
	if (offset > (u64)INT64_MAX)
		return 0;
	n = pread(f->fd, buf, len, (off_t)offset);
	return n < 0 ? -errno : n;
}

/* open @f->path, a regular file: mapped, or kept open where it cannot be; the ELF class */
static int dso_data_file__open(struct dso_data_file *f)
{
	u8 ident[EI_NIDENT];
	struct stat st;
	int fd;

	/* a FIFO where an object was must not hang the listing, nor a device feed it */
	fd = input_file__open(f->path, &st);
	if (fd < 0)
		return fd;
	if (st.st_size > 0 && (u64)st.st_size <= SIZE_MAX) {
		void *p = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);

		if (p != MAP_FAILED) {
			f->map = p;
			f->size = st.st_size;
			close(fd);
			fd = -1;
		}
	}
	f->fd = fd;
	/* what is not ELF32 is read in 64-bit mode, perf's default for an object */
	f->elf64 = dso_data_file__read(f, 0, ident, sizeof(ident)) != sizeof(ident) ||
		   memcmp(ident, ELFMAG, SELFMAG) || ident[EI_CLASS] != ELFCLASS32;
	return 0;
}

static bool dso_data_file__is(const struct dso_data_file *f, const void *key, const char *path)
{
	return f->path && (!key || f->key == key) && !strcmp(f->path, path);
}

static struct dso_data_file *dso_data__file(struct dso_data *dd, const void *key, const char *path)
{
	struct dso_data_file *f = dd->last, *lru = &dd->files[0];
	int i;

	if (f && dso_data_file__is(f, key, path))
		goto out;
	for (i = 0; i < DSO_DATA_FILES; i++) {
		f = &dd->files[i];
		if (dso_data_file__is(f, key, path))
			goto out;
		if (f->used < lru->used)
			lru = f;
	}
	/* another object of the same path (a process of its own) is the same file */
	for (i = 0; key && i < DSO_DATA_FILES; i++) {
		f = &dd->files[i];
		if (dso_data_file__is(f, NULL, path)) {
			f->key = key;
			goto out;
		}
	}
	f = lru;
	dso_data_file__exit(f);
	f->path = strdup(path);
	if (!f->path) {
		dd->last = NULL;
		return NULL;
	}
	f->key = key;
	f->err = dso_data_file__open(f);
out:
	f->used = ++dd->clock;
	return dd->last = f;
}

ssize_t dso_data__read(struct dso_data *dd, const void *key, const char *path, u64 offset, u8 *buf,
		       size_t len, bool *elf64)
{
	struct dso_data_file *f = dso_data__file(dd, key, path);

	if (!f)
		return -ENOMEM;
	if (f->err)
		return f->err;
	*elf64 = f->elf64;
	return dso_data_file__read(f, offset, buf, len);
}
