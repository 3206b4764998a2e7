// SPDX-License-Identifier: GPL-2.0-only
/* kallsyms files: /proc/kallsyms, kcore_dir/kallsyms, the build-id cache's copy; a modules copy checked */
#include <ctype.h>
#include <inttypes.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "debug.h"
#include "input-file.h"
#include "kallsyms.h"

/*
 * Read in pieces of KALLSYMS_CHUNK, each parsed line by line before the
 * next: a 6 MB file copied whole into fresh memory cost more in page
 * faults than its parse.  /proc/kallsyms reports a size of 0, so the
 * bytes are counted as they come, never as many as KALLSYMS_MAX_SIZE: a
 * kallsyms that is /dev/zero or a huge file ends with -EFBIG.
 */
struct kallsyms_reader {
	int fd;
	char *buf; /* KALLSYMS_CHUNK + 1: room for a NUL after a full one */
	size_t len, pos;
	u64 total;
	bool eof;
	bool skip;    /* in the rest of a line cut at a whole chunk */
	bool unended; /* the line handed over last has no newline: the file ends in it */
	u64 line_off; /* where the line handed over last starts in the file */
};

/* more bytes after the unparsed tail, which moves to the front */
static int kallsyms_reader__fill(struct kallsyms_reader *r)
{
	ssize_t n;

	memmove(r->buf, r->buf + r->pos, r->len - r->pos);
	r->len -= r->pos;
	r->pos = 0;
	for (;;) {
		n = read(r->fd, r->buf + r->len, KALLSYMS_CHUNK - r->len);
		if (n >= 0)
			break;
		if (errno != EINTR)
			return -errno;
	}
	if (!n)
		r->eof = true;
	r->len += n;
	r->total += n;
	return r->total >= KALLSYMS_MAX_SIZE ? -EFBIG : 0;
}

/*
 * The next line, NUL-terminated in place, or NULL at the end (*err set on
 * an error).  A line longer than a whole chunk (no kernel writes one) is
 * handed over cut there, and the rest of it skipped.
 */
static char *kallsyms_reader__line(struct kallsyms_reader *r, int *err)
{
	char *line, *end;

	*err = 0;
	for (;;) {
		end = memchr(r->buf + r->pos, '\n', r->len - r->pos);
		if (end) {
			line = r->buf + r->pos;
			r->line_off = r->total - r->len + r->pos;
			*end = '\0';
			r->pos = end + 1 - r->buf;
			if (!r->skip)
				return line;
			r->skip = false;
			continue;
		}
		if (r->skip) {
			r->pos = r->len;
		} else if (r->eof || r->len - r->pos == KALLSYMS_CHUNK) {
			if (r->pos == r->len)
				return NULL;
			line = r->buf + r->pos;
			r->line_off = r->total - r->len + r->pos;
			r->buf[r->len] = '\0';
			r->pos = r->len;
			r->skip = !r->eof;
			r->unended = r->eof;
			return line;
		}
		if (r->eof)
			return NULL;
		*err = kallsyms_reader__fill(r);
		if (*err)
			return NULL;
	}
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
 * Eight hex digits (either case) at @p, the first the most significant,
 * into *@v; false when one is not a hex digit.  Byte-parallel in a u64
 * (SWAR): a digit is a byte in '0'..'9', or in 'a'..'f' once OR-ed with
 * 0x20 ('A'..'F' land there, nothing else does); its value is its low
 * nibble, plus 9 for a letter (bit 6 set); then the nibbles are packed
 * pairwise, little-endian bytes first.
 */
static inline __maybe_unused bool hex8(const char *p, u64 *v)
{
	const u64 ones = 0x0101010101010101ULL, high = 0x8080808080808080ULL;
	u64 x, lower, digit, letter, n;

	memcpy(&x, p, 8);
	/* within 0..0x7f, no sum below carries across a byte */
	if (x & high)
		return false;
	/* byte in [lo, hi]: bit 7 of (x + 0x80 - lo) and not of (x + 0x7f - hi) */
	digit = (x + ones * (0x80 - '0')) & ~(x + ones * (0x7f - '9')) & high;
	lower = x | ones * 0x20;
	letter = (lower + ones * (0x80 - 'a')) & ~(lower + ones * (0x7f - 'f')) & high;
	if ((digit | letter) != high)
		return false;
	n = (x & ones * 0x0f) + (x >> 6 & ones) * 9;
	/* bytes b0..b7 (b0 the first digit): pairs, quads, then all eight */
	n = (n << 4 | n >> 8) & 0x00ff00ff00ff00ffULL;
	n = (n << 8 | n >> 16) & 0x0000ffff0000ffffULL;
	n = (n << 16 | n >> 32) & 0x00000000ffffffffULL;
	*v = n;
	return true;
}

bool kallsyms__addr16(const char *p, u64 *addr)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	u64 hi, lo;

	if (!hex8(p, &hi) || !hex8(p + 8, &lo))
		return false;
	*addr = hi << 32 | lo;
	return true;
#else
	u64 v = 0;

	hex_value__init();
	for (int i = 0; i < 16; i++) {
		int d = hex_digit(p[i]);

		if (d < 0)
			return false;
		v = v << 4 | d;
	}
	*addr = v;
	return true;
#endif
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
	/* a 64-bit kernel's 16 digits and a blank: eight at a time, no branch per digit */
	if (p[16] == ' ' || p[16] == '\t') {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		u64 hi, lo;

		if (hex8(p, &hi) && hex8(p + 8, &lo)) {
			*end = p + 16;
			return hi << 32 | lo;
		}
#else
		unsigned char bad = 0;

		for (i = 0; i < 16; i++) {
			unsigned char d8 = hex_value[(unsigned char)p[i]];

			bad |= d8;
			v = v << 4 | (d8 & 0xf);
		}
		if (!(bad & 0x80)) {
			*end = p + 16;
			return v;
		}
		v = 0;
#endif
	}
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

/* the reader over @path, a regular file below KALLSYMS_MAX_SIZE: 0 or -errno */
static int kallsyms_reader__open(struct kallsyms_reader *r, const char *path)
{
	struct stat st;

	memset(r, 0, sizeof(*r));
	hex_value__init();
	r->fd = input_file__open(path, &st);
	if (r->fd < 0)
		return r->fd;
	if (st.st_size >= KALLSYMS_MAX_SIZE) {
		close(r->fd);
		return -EFBIG;
	}
	r->buf = malloc(KALLSYMS_CHUNK + 1);
	if (!r->buf) {
		close(r->fd);
		return -ENOMEM;
	}
	return 0;
}

static void kallsyms_reader__close(struct kallsyms_reader *r)
{
	free(r->buf);
	close(r->fd);
}

/* the file's unended last line (@bad false), or a line that is not what the file should hold */
static void damage__note(struct kallsyms_damage *d, const struct kallsyms_reader *r, bool bad)
{
	if (!d)
		return;
	if (!bad) {
		d->cut = true;
		d->cut_at = r->line_off;
	} else if (!r->unended && !d->nr_bad++) {
		d->first_bad = r->line_off;
	}
}

int kallsyms__parse_checked(const char *path, void *arg,
			    int (*cb)(void *arg, const char *name, char type, u64 start,
				      const char *module),
			    struct kallsyms_damage *damage)
{
	struct kallsyms_reader r;
	char *line;
	int nr = 0, err;

	if (damage)
		memset(damage, 0, sizeof(*damage));
	err = kallsyms_reader__open(&r, path);
	if (err)
		return err;
	while ((line = kallsyms_reader__line(&r, &err))) {
		char *p = line, *end, *name, *module = NULL;
		u64 start;
		char type;

		/* a line the file ends in was cut there: said, and read as before */
		if (r.unended)
			damage__note(damage, &r, false);
		start = kallsyms__hex(p, &end);
		if (end == p || !isspace((unsigned char)*end)) {
			damage__note(damage, &r, true);
			continue;
		}
		p = end;
		while (*p == ' ' || *p == '\t')
			p++;
		type = *p;
		if (!type || !isspace((unsigned char)p[1])) {
			damage__note(damage, &r, true);
			continue;
		}
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
		if (!*name) {
			damage__note(damage, &r, true);
			continue;
		}
		err = cb(arg, name, type, start, module);
		if (err)
			break;
		nr++;
	}
	kallsyms_reader__close(&r);
	return err ? err : nr;
}

int kallsyms__parse(const char *path, void *arg,
		    int (*cb)(void *arg, const char *name, char type, u64 start,
			      const char *module))
{
	return kallsyms__parse_checked(path, arg, cb, NULL);
}

/*
 * A /proc/modules line: name, size, reference count, users ("-" or
 * "a,b,"), state, address, and maybe the taint flags in parentheses
 */
static bool modules__line_ok(const char *line)
{
	char name[256], users[4096], state[32];
	unsigned long long size, addr;
	int refs, n = 0;

	return sscanf(line, "%255s %llu %d %4095s %31s 0x%llx%n", name, &size, &refs, users, state,
		      &addr, &n) == 6 &&
	       n > 0;
}

int modules__check(const char *path, struct kallsyms_damage *damage)
{
	struct kallsyms_reader r;
	char *line;
	int nr = 0, err;

	memset(damage, 0, sizeof(*damage));
	err = kallsyms_reader__open(&r, path);
	if (err)
		return err;
	while ((line = kallsyms_reader__line(&r, &err))) {
		if (r.unended)
			damage__note(damage, &r, false);
		if (!modules__line_ok(line))
			damage__note(damage, &r, true);
		else
			nr++;
	}
	kallsyms_reader__close(&r);
	return err ? err : nr;
}

void kallsyms_damage__warn(const char *path, const struct kallsyms_damage *d, const char *what)
{
	if (d->nr_bad)
		pr_warning("%s: %" PRIu64 " line%s in no %s form (the first at offset %#" PRIx64
			   "), skipped\n",
			   path, d->nr_bad, d->nr_bad == 1 ? "" : "s", what, d->first_bad);
	if (d->cut)
		pr_warning("%s: ends inside its line at offset %#" PRIx64 " (cut short?)\n", path,
			   d->cut_at);
}
