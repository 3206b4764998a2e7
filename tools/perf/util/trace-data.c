// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record-events.h"
#include "trace-data.h"
#include "types.h"

struct tbuf {
	u8 *p;
	size_t len, cap;
	int err;
};

static void tbuf__put(struct tbuf *b, const void *data, size_t n)
{
	if (b->err)
		return;
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 65536;
		u8 *tmp;

		while (cap < b->len + n)
			cap *= 2;
		tmp = realloc(b->p, cap);
		if (!tmp) {
			b->err = -ENOMEM;
			return;
		}
		b->p = tmp;
		b->cap = cap;
	}
	memcpy(b->p + b->len, data, n);
	b->len += n;
}

/*
 * A size field of @width bytes then the file; tracefs files report size 0
 * to stat, so the size is known only after reading.  A missing file is
 * size 0, as perf writes it.
 */
static void tbuf__put_file(struct tbuf *b, const char *path, int width)
{
	size_t at = b->len;
	u64 size = 0;
	char chunk[8192];
	ssize_t n;
	int fd;

	tbuf__put(b, &size, width);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	while ((n = read(fd, chunk, sizeof(chunk))) > 0) {
		tbuf__put(b, chunk, n);
		size += n;
	}
	close(fd);
	if (!b->err) {
		if (width == 4) {
			u32 s32 = size;

			memcpy(b->p + at, &s32, 4);
		} else {
			memcpy(b->p + at, &size, 8);
		}
	}
}

static bool seen_system(const struct record_event *const *tps, int i)
{
	for (int j = 0; j < i; j++) {
		if (!strcmp(tps[j]->tp_system, tps[i]->tp_system))
			return true;
	}
	return false;
}

static bool seen_event(const struct record_event *const *tps, int i)
{
	for (int j = 0; j < i; j++) {
		if (!strcmp(tps[j]->tp_system, tps[i]->tp_system) &&
		    !strcmp(tps[j]->tp_name, tps[i]->tp_name))
			return true;
	}
	return false;
}

int trace_data__build(const struct record_event *const *tps, int nr, void **data, size_t *size)
{
	static const u8 magic[10] = {23, 8, 68, 't', 'r', 'a', 'c', 'i', 'n', 'g'};
	const char *tracefs = tracefs__path();
	struct tbuf b = {0};
	char path[512];
	u32 u, nr_systems = 0;
	u8 c;

	tbuf__put(&b, magic, sizeof(magic));
	tbuf__put(&b, "0.6", 4);
	c = 0; /* little endian */
	tbuf__put(&b, &c, 1);
	c = sizeof(long);
	tbuf__put(&b, &c, 1);
	u = sysconf(_SC_PAGESIZE);
	tbuf__put(&b, &u, 4);

	tbuf__put(&b, "header_page", 12);
	snprintf(path, sizeof(path), "%s/events/header_page", tracefs);
	tbuf__put_file(&b, path, 8);
	tbuf__put(&b, "header_event", 13);
	snprintf(path, sizeof(path), "%s/events/header_event", tracefs);
	tbuf__put_file(&b, path, 8);

	/* ftrace's own events: none recorded */
	u = 0;
	tbuf__put(&b, &u, 4);

	for (int i = 0; i < nr; i++)
		nr_systems += !seen_system(tps, i);
	tbuf__put(&b, &nr_systems, 4);
	for (int i = 0; i < nr; i++) {
		u32 nr_events = 0;

		if (seen_system(tps, i))
			continue;
		tbuf__put(&b, tps[i]->tp_system, strlen(tps[i]->tp_system) + 1);
		for (int j = i; j < nr; j++)
			nr_events +=
			    !strcmp(tps[j]->tp_system, tps[i]->tp_system) && !seen_event(tps, j);
		tbuf__put(&b, &nr_events, 4);
		for (int j = i; j < nr; j++) {
			if (strcmp(tps[j]->tp_system, tps[i]->tp_system) || seen_event(tps, j))
				continue;
			snprintf(path, sizeof(path), "%s/events/%s/%s/format", tracefs,
				 tps[j]->tp_system, tps[j]->tp_name);
			tbuf__put_file(&b, path, 8);
		}
	}

	/* kallsyms: empty, stock perf reads kernel symbols elsewhere */
	u = 0;
	tbuf__put(&b, &u, 4);
	snprintf(path, sizeof(path), "%s/printk_formats", tracefs);
	tbuf__put_file(&b, path, 4);
	snprintf(path, sizeof(path), "%s/saved_cmdlines", tracefs);
	tbuf__put_file(&b, path, 8);
	if (b.err) {
		free(b.p);
		return b.err;
	}
	*data = b.p;
	*size = b.len;
	return 0;
}
