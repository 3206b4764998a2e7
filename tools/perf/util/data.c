// SPDX-License-Identifier: GPL-2.0-only
/*
 * Opening a recording.  Nothing here ever writes to the input: files are
 * opened O_RDONLY and mapped PROT_READ/MAP_PRIVATE, so a byte-swapped or
 * decompressed view is always a private copy made elsewhere.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "data.h"
#include "debug.h"
#include "header.h"
#include "interrupt.h"
#include "kcore-dir-pack.h"

/* big enough to make pipe reads cheap, small enough to never matter */
#define STREAM_BUF_SIZE (256 * 1024)

static int perf_data__open_dir(struct perf_data *data, const char *path)
{
	char buf[PATH_MAX];
	struct stat st;

	if (snprintf(buf, sizeof(buf), "%s/data", path) >= (int)sizeof(buf))
		return -ENAMETOOLONG;
	data->file_path = strdup(buf);
	if (!data->file_path)
		return -ENOMEM;
	snprintf(buf, sizeof(buf), "%s/kcore_dir", path);
	if (!stat(buf, &st) && S_ISDIR(st.st_mode)) {
		data->kcore_dir = strdup(buf);
		if (!data->kcore_dir)
			return -ENOMEM;
	}
	data->is_dir = true;
	return 0;
}

static bool is_pipe_header(const u8 *hdr, size_t len)
{
	u64 magic, size;

	if (len < 16)
		return false;
	memcpy(&magic, hdr, 8);
	memcpy(&size, hdr + 8, 8);
	if (magic == PERF_MAGIC2)
		return size == 16;
	if (magic == __builtin_bswap64(PERF_MAGIC2))
		return __builtin_bswap64(size) == 16;
	return false;
}

int perf_data__open(struct perf_data *data, const char *path)
{
	struct stat st;
	u8 hdr[16];
	int err;

	memset(data, 0, sizeof(*data));
	data->fd = -1;
	data->path = strdup(path);
	if (!data->path)
		return -ENOMEM;

	if (!strcmp(path, "-")) {
		data->fd = STDIN_FILENO;
		data->is_stream = true;
		goto stream;
	}
	if (stat(path, &st) < 0) {
		err = -errno;
		pr_err("%s: cannot open: %s\n", path, strerror(errno));
		goto out_err;
	}
	if (S_ISDIR(st.st_mode)) {
		err = perf_data__open_dir(data, path);
		if (err)
			goto out_err;
	} else {
		data->file_path = strdup(path);
		if (!data->file_path) {
			err = -ENOMEM;
			goto out_err;
		}
	}
	data->fd = open(data->file_path, O_RDONLY | O_CLOEXEC);
	if (data->fd < 0) {
		err = -errno;
		pr_err("%s: cannot open: %s\n", data->file_path, strerror(errno));
		goto out_err;
	}
	data->own_fd = true;
	if (fstat(data->fd, &st) < 0) {
		err = -errno;
		goto out_err;
	}
	if (!S_ISREG(st.st_mode)) {
		data->is_stream = true; /* a FIFO or character device */
		goto stream;
	}
	data->size = st.st_size;
	/* a regular file that holds what perf record -o - wrote */
	if (data->size >= 16 && !perf_data__pread(data, hdr, 16, 0) && is_pipe_header(hdr, 16))
		data->is_stream = true;
	if (!data->is_stream)
		return 0;
stream:
	data->sbuf = malloc(STREAM_BUF_SIZE);
	if (!data->sbuf) {
		err = -ENOMEM;
		goto out_err;
	}
	return 0;

out_err:
	perf_data__close(data);
	return err;
}

void perf_data__close(struct perf_data *data)
{
	if (data->own_fd && data->fd >= 0)
		close(data->fd);
	data->fd = -1;
	zfree(&data->path);
	zfree(&data->file_path);
	if (data->kcore_dir_unpacked && data->kcore_dir)
		kcore_dir__remove_unpacked(data->kcore_dir);
	data->kcore_dir_unpacked = false;
	zfree(&data->kcore_dir);
	zfree(&data->sbuf);
}

int perf_data__unpack_kcore_dir(struct perf_data *data, const void *buf, u64 size, bool swap)
{
	char *kdir;
	int err;

	/* a directory's kcore_dir/ is the one its reader asked for; a file has one section */
	if (data->is_stream || data->kcore_dir)
		return 0;
	err = kcore_dir__unpack(buf, size, swap, &kdir);
	if (err)
		return err;
	data->kcore_dir = kdir;
	data->kcore_dir_unpacked = true;
	return 0;
}

int perf_data__pread(struct perf_data *data, void *buf, size_t len, u64 offset)
{
	size_t done = 0;

	if (offset > data->size || len > data->size - offset)
		return -EIO;
	while (done < len) {
		ssize_t n = pread(data->fd, (char *)buf + done, len - done, offset + done);

		if (n < 0 && errno == EINTR && !interrupt__pending())
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		done += n;
	}
	return 0;
}

static int perf_data__fill(struct perf_data *data)
{
	ssize_t n;

	if (data->eof)
		return 0;
	do {
		n = read(data->fd, data->sbuf, STREAM_BUF_SIZE);
	} while (n < 0 && errno == EINTR && !interrupt__pending());
	if (n < 0)
		return -errno;
	if (n == 0)
		data->eof = true;
	data->sbuf_len = n;
	data->sbuf_pos = 0;
	return n;
}

/* take @len bytes of the stream, into @buf or (NULL) nowhere */
static s64 perf_data__consume(struct perf_data *data, void *buf, u64 len)
{
	u64 done = 0;

	while (done < len) {
		size_t avail = data->sbuf_len - data->sbuf_pos;
		u64 n;

		if (!avail) {
			int err = perf_data__fill(data);

			if (err < 0)
				return err;
			if (!err)
				break;
			continue;
		}
		n = avail < len - done ? avail : len - done;
		if (buf)
			memcpy((char *)buf + done, data->sbuf + data->sbuf_pos, n);
		data->sbuf_pos += n;
		done += n;
	}
	data->stream_pos += done;
	return done;
}

ssize_t perf_data__read(struct perf_data *data, void *buf, size_t len)
{
	return perf_data__consume(data, buf, len);
}

s64 perf_data__skip(struct perf_data *data, u64 len)
{
	return perf_data__consume(data, NULL, len);
}

const void *perf_data__window_get(struct perf_data *data, struct perf_data_window *win, u64 offset,
				  u64 len)
{
	long page;
	u64 start, map_len;
	void *base;

	if (offset > data->size || len > data->size - offset)
		return NULL;
	if (win->base && offset >= win->start && offset + len <= win->start + win->len)
		return (const char *)win->base + (offset - win->start);
	/* not before: this runs once per record, sysconf() is no cheap call */
	page = sysconf(_SC_PAGESIZE);
	perf_data__window_put(win);
	start = offset & ~((u64)page - 1);
	map_len = data->window_size ? PERF_ALIGN(data->window_size, page) : PERF_DATA_WINDOW_SIZE;
	if (map_len < offset - start + len)
		map_len = PERF_ALIGN(offset - start + len, page);
	if (map_len > data->size - start)
		map_len = data->size - start;
	base = mmap(NULL, map_len, PROT_READ, MAP_PRIVATE | (win->populate ? MAP_POPULATE : 0),
		    data->fd, start);
	if (base == MAP_FAILED)
		return NULL;
	data->nr_window_maps++;
	win->base = base;
	win->start = start;
	win->len = map_len;
	return (const char *)base + (offset - start);
}

void perf_data__window_put(struct perf_data_window *win)
{
	if (win->base)
		munmap(win->base, win->len);
	win->base = NULL;
	win->len = 0;
}
