// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target: the kallsyms reader (util/kallsyms.c).  The input is the
 * file.  The walk must hand over only NUL-terminated names (and module
 * names), return the number of lines it handed over, and stop at a
 * callback's non-zero value (at the third line, for inputs whose size is
 * a multiple of 5) and return it.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "../util/kallsyms.h"

struct fks_walk {
	int lines;
	int stop_at; /* 1-based line whose callback returns 77, 0: never */
	u64 sum;
};

static int fks__cb(void *arg, const char *name, char type, u64 start, const char *module)
{
	struct fks_walk *w = arg;

	w->lines++;
	w->sum += strlen(name) + start + (u8)type + (module ? strlen(module) : 0);
	if (kallsyms__type_is_symbol(type))
		w->sum += kallsyms__binding(type) + kallsyms__elf_type(type);
	return w->lines == w->stop_at ? 77 : 0;
}

int fuzz__kallsyms(const u8 *data, size_t size)
{
	struct fks_walk w = {.stop_at = size % 5 ? 0 : 3};
	char path[64];
	int fd, n, ret = 0;

	fd = fuzz__memfd(data, size, path, sizeof(path));
	if (fd < 0)
		return 0;
	n = kallsyms__parse(path, &w, fks__cb);
	if (w.stop_at && w.lines == w.stop_at ? n != 77 : n >= 0 && n != w.lines) {
		fprintf(stderr, "fuzz kallsyms: %d lines handed over, returned %d\n", w.lines, n);
		ret = FUZZ_BUG;
	}
	close(fd);
	return ret;
}
