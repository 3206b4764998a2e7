// SPDX-License-Identifier: GPL-2.0-only
/*
 * kallsyms__parse() reads its file in chunks of KALLSYMS_CHUNK: files
 * written here, whose lines the test knows one by one, come back line by
 * line whatever chunk boundary they straddle.  Names of every length
 * around the chunk size, module lines, a last line without a newline, a
 * line longer than a whole chunk (cut there, handed over once, the rest
 * skipped, the next line whole), a sparse file of KALLSYMS_MAX_SIZE
 * (-EFBIG, no line read) and a callback's stop.  Addresses of every bit
 * pattern in either case, and lines with a non-digit among the 16.
 *
 * Mutation caught: kallsyms_reader__fill() not moving the unparsed tail
 * to the front (read() at r->buf + r->len without the memmove) garbles
 * each line that straddles a chunk; `r->skip = !r->eof` dropped (false)
 * hands the rest of the long line over as lines of its own.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests.h"
#include "../util/kallsyms.h"

struct expect {
	u64 addr;
	char type;
	char name[64];
	const char *module;
};

struct walk {
	const struct expect *e;
	size_t nr, seen;
	size_t stop_at; /* the callback returns 7 at this line */
	bool bad;
	/* the cut line */
	size_t long_at, long_len;
};

static int walk__cb(void *arg, const char *name, char type, u64 start, const char *module)
{
	struct walk *w = arg;
	const struct expect *e;

	if (w->seen == w->stop_at)
		return 7;
	if (w->seen >= w->nr) {
		w->bad = true;
		return -1;
	}
	e = &w->e[w->seen];
	if (w->long_len && w->seen == w->long_at) {
		/* "ffffffff8xxxxxxx T " then the name up to the chunk's end */
		if (strlen(name) != w->long_len || start != e->addr || type != e->type) {
			pr_debug("cut line: name of %zu bytes, expected %zu\n", strlen(name),
				 w->long_len);
			w->bad = true;
		}
	} else if (start != e->addr || type != e->type || strcmp(name, e->name) ||
		   (!module) != (!e->module) || (module && strcmp(module, e->module))) {
		pr_debug("line %zu: %#llx %c %s [%s], expected %#llx %c %s [%s]\n", w->seen,
			 (unsigned long long)start, type, name, module ?: "",
			 (unsigned long long)e->addr, e->type, e->name, e->module ?: "");
		w->bad = true;
	}
	w->seen++;
	return 0;
}

static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n <= 0)
			return -1;
		buf += n;
		len -= n;
	}
	return 0;
}

/*
 * @nr lines whose names grow by one byte a line (1..60, over again), so
 * that every offset of a line within a chunk occurs; a module every 7th;
 * with @long_at, that line's name is @long_name_len bytes (holding, after
 * the chunk's end, the text of a line); the last line
 * without its newline when @no_final_newline.
 */
static int write_file(const char *path, struct expect *e, size_t nr, size_t long_at,
		      size_t long_name_len, bool no_final_newline)
{
	static const char tail[] = "ffffffff81234560 T not_a_line";
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	char line[160];
	size_t i;
	int err = 0;

	if (fd < 0)
		return -1;
	for (i = 0; i < nr && !err; i++) {
		size_t len = 1 + i % 60, n;

		e[i].addr = 0xffffffff81000000ULL + i * 16;
		e[i].type = "tTWd"[i % 4];
		memset(e[i].name, 'a' + i % 26, len);
		e[i].name[len] = '\0';
		e[i].module = i % 7 == 3 ? "mod_x" : NULL;
		if (long_name_len && i == long_at) {
			char *big = malloc(long_name_len + 64);

			if (!big) {
				err = -1;
				break;
			}
			n = snprintf(big, 64, "%016llx %c ", (unsigned long long)e[i].addr,
				     e[i].type);
			memset(big + n, 'L', long_name_len);
			/* past the cut, what would read as a line of its own */
			if (n + long_name_len > KALLSYMS_CHUNK + sizeof(tail))
				memcpy(big + KALLSYMS_CHUNK, tail, sizeof(tail) - 1);
			n += long_name_len;
			n += snprintf(big + n, 64, "\t[cut_mod]\n");
			err = write_all(fd, big, n);
			free(big);
			continue;
		}
		n = snprintf(line, sizeof(line), "%016llx %c %s%s%s%s",
			     (unsigned long long)e[i].addr, e[i].type, e[i].name,
			     e[i].module ? "\t[" : "", e[i].module ?: "", e[i].module ? "]" : "");
		if (!(no_final_newline && i == nr - 1))
			line[n++] = '\n';
		err = write_all(fd, line, n);
	}
	return close(fd) || err ? -1 : 0;
}

static int check_walk(const char *path, const struct expect *e, size_t nr, size_t long_at,
		      size_t long_len)
{
	struct walk w = {
	    .e = e, .nr = nr, .stop_at = (size_t)-1, .long_at = long_at, .long_len = long_len};
	int n = kallsyms__parse(path, &w, walk__cb);

	if (n != (int)nr || w.seen != nr || w.bad) {
		pr_debug("%s: %d lines handed over (%zu seen), expected %zu%s\n", path, n, w.seen,
			 nr, w.bad ? ", some wrong" : "");
		return TEST_FAIL;
	}
	return TEST_OK;
}

/*
 * Addresses of every bit pattern, their letters in either case, read
 * back as written; and lines with a character next to a digit range
 * ('/', ':', '@', 'G', '`', 'g', DEL, a UTF-8 byte) in place of one
 * digit, never handed over: the 16 digits are parsed eight at a time,
 * byte-parallel, and whatever that does not take goes to the digit by
 * digit parse.
 */
static int check_hex(const char *path)
{
	static const char near[] = "/:@G`g\x7f\xc3";
	size_t nr = 4000, good = 0, i, k;
	struct expect *e = calloc(nr, sizeof(*e));
	u64 seed = 0x9e3779b97f4a7c15ULL;
	FILE *fp = fopen(path, "w");
	int ret = TEST_FAIL;

	if (!e || !fp)
		goto out;
	for (i = 0; i < nr; i++) {
		char digits[17];
		u64 addr;

		seed ^= seed << 13;
		seed ^= seed >> 7;
		seed ^= seed << 17;
		addr = seed;
		snprintf(digits, sizeof(digits), "%016llx", (unsigned long long)addr);
		for (k = 0; k < 16; k++)
			if (digits[k] >= 'a' && (seed >> k & 1))
				digits[k] -= 'a' - 'A';
		if (i % 5 == 4) {
			/* one digit replaced: the line is no kallsyms line */
			digits[(seed >> 20) % 16] = near[(seed >> 30) % (sizeof(near) - 1)];
			fprintf(fp, "%s T bad%zu\n", digits, i);
			continue;
		}
		e[good].addr = addr;
		e[good].type = 'T';
		snprintf(e[good].name, sizeof(e[good].name), "s%zu", i);
		fprintf(fp, "%s T %s\n", digits, e[good].name);
		good++;
	}
	if (fclose(fp)) {
		fp = NULL;
		goto out;
	}
	fp = NULL;
	ret = check_walk(path, e, good, (size_t)-1, 0);
out:
	if (fp)
		fclose(fp);
	free(e);
	return ret;
}

static int test__kallsyms_reader(struct test_suite *t __maybe_unused)
{
	char dir[] = "/tmp/textpoke-kallsyms-reader.XXXXXX", path[64];
	/* some 1.4 MB: five chunks and more, every line offset over each boundary */
	size_t nr = 40000, i;
	struct expect *e = calloc(nr, sizeof(*e));
	int ret = TEST_FAIL, fd;

	TEST_ASSERT_VAL("calloc", e);
	if (!mkdtemp(dir)) {
		free(e);
		return TEST_FAIL;
	}
	snprintf(path, sizeof(path), "%s/kallsyms", dir);

	if (check_hex(path))
		goto out;
	if (write_file(path, e, nr, 0, 0, false) || check_walk(path, e, nr, (size_t)-1, 0))
		goto out;
	if (write_file(path, e, nr, 0, 0, true) || check_walk(path, e, nr, (size_t)-1, 0))
		goto out;
	/*
	 * a line longer than a chunk, starting at a line boundary deep in
	 * the file: what is handed over is the chunk, less the 19 bytes of
	 * "<16 hex digits> T "
	 */
	if (write_file(path, e, nr, 30000, KALLSYMS_CHUNK + 5000, false) ||
	    check_walk(path, e, nr, 30000, KALLSYMS_CHUNK - 19))
		goto out;
	/*
	 * a line of exactly a chunk, its newline the chunk's last byte, is
	 * whole; one byte longer, it is cut just before its newline, which
	 * alone is skipped ("\t[cut_mod]\n" is 11 bytes)
	 */
	if (write_file(path, e, nr, 30000, KALLSYMS_CHUNK - 19 - 11, false) ||
	    check_walk(path, e, nr, 30000, KALLSYMS_CHUNK - 19 - 11))
		goto out;
	if (write_file(path, e, nr, 30000, KALLSYMS_CHUNK - 19 - 10, false) ||
	    check_walk(path, e, nr, 30000, KALLSYMS_CHUNK - 19 - 10))
		goto out;

	/* the callback's value stops the walk and is returned */
	if (write_file(path, e, nr, 0, 0, false))
		goto out;
	{
		struct walk w = {.e = e, .nr = nr, .stop_at = 12345, .long_at = (size_t)-1};

		i = kallsyms__parse(path, &w, walk__cb);
		if ((int)i != 7 || w.seen != 12345 || w.bad) {
			pr_debug("stop: returned %d after %zu lines\n", (int)i, w.seen);
			goto out;
		}
	}

	/* a sparse file of the cap: refused before a line is read */
	fd = open(path, O_WRONLY | O_TRUNC);
	if (fd < 0 || ftruncate(fd, KALLSYMS_MAX_SIZE) || close(fd))
		goto out;
	{
		struct walk w = {.e = e, .nr = nr, .stop_at = (size_t)-1, .long_at = (size_t)-1};
		int n = kallsyms__parse(path, &w, walk__cb);

		if (n != -EFBIG || w.seen) {
			pr_debug("a %d MiB file: %d, %zu lines\n", KALLSYMS_MAX_SIZE >> 20, n,
				 w.seen);
			goto out;
		}
	}
	ret = TEST_OK;
out:
	unlink(path);
	rmdir(dir);
	free(e);
	return ret;
}

struct test_suite suite__kallsyms_reader = {
    .desc = "Kernel symbols: kallsyms read in chunks, every line whole across their boundaries",
    .func = test__kallsyms_reader,
};
