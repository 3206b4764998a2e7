/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_DATA_H
#define __PERF_TEXTPOKE_DATA_H

#include <sys/types.h>

#include "types.h"

/*
 * Where a recording's bytes come from: a regular file (read with pread
 * for the header and features, the data section mapped read-only in
 * windows), a perf.data/ directory (its data file plus kcore_dir/), or a
 * stream (stdin, a FIFO, or a regular file that starts with the 16-byte
 * pipe header) read sequentially through a small bounded buffer.
 */
struct perf_data {
	char *path;	 /* as the user named it, for messages */
	char *file_path; /* the file actually read */
	char *kcore_dir; /* <dir>/kcore_dir when present, else NULL */
	int fd;
	bool kcore_dir_unpacked; /* kcore_dir is a temporary one of the file's, removed at close */
	bool is_dir;
	bool is_stream; /* read sequentially, never mapped */
	bool own_fd;
	u64 size;	    /* file size; 0 for a stream */
	u64 window_size;    /* mmap window, 0: PERF_DATA_WINDOW_SIZE (tests use tiny ones) */
	u64 nr_window_maps; /* windows mapped so far: a test sees window_size honoured */
	/* stream state */
	u8 *sbuf;
	size_t sbuf_len, sbuf_pos;
	u64 stream_pos; /* bytes consumed so far */
	bool eof;
};

/* Opens @path; "-" is stdin.  0 or -errno with an error printed. */
int perf_data__open(struct perf_data *data, const char *path);
void perf_data__close(struct perf_data *data);
/*
 * A plain file's HEADER_TEXTPOKE_KCORE_DIR payload unpacked to be its
 * kcore_dir (kcore-dir-pack.h); a directory's own kcore_dir or a stream
 * keeps what it has.  0 or -errno (-EINVAL: malformed).
 */
int perf_data__unpack_kcore_dir(struct perf_data *data, const void *buf, u64 size, bool swap);

/* exactly @len bytes at @offset of a file; -EIO short */
int perf_data__pread(struct perf_data *data, void *buf, size_t len, u64 offset);
/* next @len bytes of a stream: returns bytes read (< len only at EOF) or -errno */
ssize_t perf_data__read(struct perf_data *data, void *buf, size_t len);
/* discards @len bytes of a stream; returns bytes skipped or -errno */
s64 perf_data__skip(struct perf_data *data, u64 len);

/*
 * A read-only window of a mapped file.  perf_data__window_get() returns a
 * pointer to [offset, offset + len) of the file, remapping the window when
 * the range is not inside it.  The pointer stays valid until the next call.
 */
struct perf_data_window {
	void *base;
	u64 start; /* file offset of base (page aligned) */
	u64 len;
	/* each window mapped whole at once: for a pass that reads every page */
	bool populate;
};

#define PERF_DATA_WINDOW_SIZE (64ULL << 20)

const void *perf_data__window_get(struct perf_data *data, struct perf_data_window *win, u64 offset,
				  u64 len);
void perf_data__window_put(struct perf_data_window *win);

/*
 * perf_data__window_get() for record loops: the window nearly always
 * holds the record already (a window lies within the file, so this skips
 * no check that could fail).
 */
static inline const void *perf_data__window_peek(struct perf_data *data,
						 struct perf_data_window *win, u64 off, u64 len)
{
	if (win->base && off >= win->start && off + len <= win->start + win->len)
		return (const char *)win->base + (off - win->start);
	return perf_data__window_get(data, win, off, len);
}

#endif /* __PERF_TEXTPOKE_DATA_H */
