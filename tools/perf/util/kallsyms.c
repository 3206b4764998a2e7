// SPDX-License-Identifier: GPL-2.0-only
/* kallsyms files: /proc/kallsyms, kcore_dir/kallsyms, the build-id cache's copy */
#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input-file.h"
#include "kallsyms.h"

/*
 * The whole file at once: /proc/kallsyms reports a size of 0, so read
 * until EOF into a growing buffer, NUL-terminated, and never as much as
 * KALLSYMS_MAX_SIZE: a kallsyms that is /dev/zero or a huge file must not
 * take all memory.
 */
static int kallsyms__read(const char *path, char **bufp, size_t *lenp)
{
	size_t len = 0, alloc = 1 << 20;
	char *buf, *tmp;
	struct stat st;
	int fd, err = 0;

	fd = input_file__open(path, &st);
	if (fd < 0)
		return fd;
	if (st.st_size >= KALLSYMS_MAX_SIZE) {
		err = -EFBIG;
		goto out_close;
	}
	buf = malloc(alloc);
	if (!buf) {
		err = -ENOMEM;
		goto out_close;
	}
	for (;;) {
		ssize_t n;

		if (alloc - len < 2) {
			if (alloc >= KALLSYMS_MAX_SIZE) {
				err = -EFBIG;
				goto out_free;
			}
			tmp = realloc(buf, alloc * 2);
			if (!tmp) {
				err = -ENOMEM;
				goto out_free;
			}
			buf = tmp;
			alloc *= 2;
		}
		n = read(fd, buf + len, alloc - len - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			goto out_free;
		}
		if (!n)
			break;
		len += n;
	}
	buf[len] = '\0';
	close(fd);
	*bufp = buf;
	*lenp = len;
	return 0;

out_free:
	free(buf);
out_close:
	close(fd);
	return err;
}

/* hex digit values, 0xff for anything else: one load per character */
static unsigned char hex_value[256];

static void hex_value__init(void)
{
	static bool done;
	int i;

	if (done)
		return;
	done = true;
	memset(hex_value, 0xff, sizeof(hex_value));
	for (i = 0; i < 10; i++)
		hex_value['0' + i] = i;
	for (i = 0; i < 6; i++)
		hex_value['a' + i] = hex_value['A' + i] = 10 + i;
}

static int hex_digit(char c)
{
	unsigned char v = hex_value[(unsigned char)c];

	return v == 0xff ? -1 : v;
}

/*
 * strtoull(p, &end, 16) for what kallsyms holds (up to 16 plain hex
 * digits); anything else (a sign, spaces, "0x", more digits) goes to
 * strtoull itself so that odd files parse exactly as before.
 */
static u64 kallsyms__hex(char *p, char **end)
{
	u64 v = 0;
	int i, d;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		return strtoull(p, end, 16);
	for (i = 0; i < 16; i++) {
		d = hex_digit(p[i]);
		if (d < 0)
			break;
		v = v << 4 | d;
	}
	if (!i || hex_digit(p[i]) >= 0)
		return strtoull(p, end, 16);
	*end = p + i;
	return v;
}

int kallsyms__parse(const char *path, void *arg,
		    int (*cb)(void *arg, const char *name, char type, u64 start,
			      const char *module))
{
	char *buf = NULL, *line, *next, *eof;
	size_t size = 0;
	int nr = 0, err;

	hex_value__init();
	err = kallsyms__read(path, &buf, &size);
	if (err)
		return err;
	eof = buf + size;
	for (line = buf; line < eof; line = next) {
		char *p = line, *end, *name, *module = NULL;
		u64 start;
		char type;

		end = memchr(line, '\n', eof - line);
		if (end) {
			*end = '\0';
			next = end + 1;
		} else {
			next = eof;
		}
		start = kallsyms__hex(p, &end);
		if (end == p || !isspace((unsigned char)*end))
			continue;
		p = end;
		while (*p == ' ' || *p == '\t')
			p++;
		type = *p;
		if (!type || !isspace((unsigned char)p[1]))
			continue;
		p += 2;
		while (*p == ' ')
			p++;
		name = p;
		/* "name\t[module]" */
		end = strchr(name, '\t');
		if (end) {
			*end++ = '\0';
			while (*end == ' ' || *end == '\t')
				end++;
			if (*end == '[') {
				char *close = strchr(end, ']');

				if (close) {
					*close = '\0';
					module = end + 1;
				}
			}
		}
		if (!*name)
			continue;
		err = cb(arg, name, type, start, module);
		if (err)
			break;
		nr++;
	}
	free(buf);
	return err ? err : nr;
}
