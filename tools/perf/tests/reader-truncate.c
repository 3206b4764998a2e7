// SPDX-License-Identifier: GPL-2.0-only
/*
 * Damaged inputs: real files cut at many offsets, and headers and records
 * with hostile size fields.  The reader must fail with an error that names
 * the record's offset (for cuts inside a record), never crash, never
 * allocate from an unchecked size, and never touch the input.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests.h"
#include "../util/event.h"
#include "../util/header.h"
#include "../util/session.h"

struct blob {
	u8 *buf;
	size_t len;
};

static int blob_read(struct blob *b, const char *path)
{
	struct stat st;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || fstat(fd, &st)) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	b->len = st.st_size;
	b->buf = malloc(b->len ?: 1);
	if (!b->buf || read(fd, b->buf, b->len) != (ssize_t)b->len) {
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

static int write_file(const char *path, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, buf, len);
	close(fd);
	return n == (ssize_t)len ? 0 : -1;
}

static int nop_sample(struct perf_tool *tool, union perf_event *event, struct perf_sample *sample,
		      struct evsel *evsel, struct machine *machine)
{
	return 0;
}

/* 0 ok, <0 error; the error output lands in @err */
static int run(const char *path, char *err, size_t err_len)
{
	struct perf_tool tool = {.sample = nop_sample, .ordered_events = true};
	char tmpl[] = "/tmp/reader-trunc-err-XXXXXX";
	struct perf_session *session;
	int fd, saved, ret;
	ssize_t n;

	fd = mkstemp(tmpl);
	if (fd < 0)
		return -EIO;
	unlink(tmpl);
	fflush(stderr);
	saved = dup(2);
	dup2(fd, 2);
	session = perf_session__new(path, &tool);
	ret = session ? perf_session__process_events(session) : -EINVAL;
	perf_session__delete(session);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	n = pread(fd, err, err_len - 1, 0);
	err[n > 0 ? n : 0] = '\0';
	close(fd);
	return ret;
}

/* record start offsets of the top level, and where the records begin */
static int record_offsets(const struct blob *b, u64 *offs, int max, u64 *first, u64 *end)
{
	bool swap = b->len >= 8 && !memcmp(b->buf, "2ELIFREP", 8);
	u64 off, stop;
	int n = 0;

	if (b->len >= 16 && (!memcmp(b->buf + 8, "\x10\0\0\0\0\0\0\0", 8) ||
			     !memcmp(b->buf + 8, "\0\0\0\0\0\0\0\x10", 8))) {
		off = 16;
		stop = b->len;
	} else {
		struct perf_file_header h;

		memcpy(&h, b->buf, sizeof(h));
		off = h.data.offset;
		stop = h.data.offset + h.data.size;
	}
	*first = off;
	while (off + 8 <= stop && n < max) {
		struct perf_event_header h;
		u64 extra = 0;

		memcpy(&h, b->buf + off, sizeof(h));
		if (swap) {
			h.size = __builtin_bswap16(h.size);
			h.type = __builtin_bswap32(h.type);
		}
		if (h.size < 8)
			break;
		if (h.type == PERF_RECORD_AUXTRACE) {
			memcpy(&extra, b->buf + off + 8, 8);
			if (swap)
				extra = __builtin_bswap64(extra);
		}
		if (h.type == PERF_RECORD_HEADER_TRACING_DATA) {
			u32 s;

			memcpy(&s, b->buf + off + 8, 4);
			extra = swap ? __builtin_bswap32(s) : s;
		}
		offs[n++] = off;
		off += h.size + extra;
	}
	*end = off;
	return n;
}

static int truncate_file(const char *dir, const char *rel, int *cases)
{
	char src[PATH_MAX * 2], dst[PATH_MAX + 32], err[16384], want[32];
	static u64 offs[200000];
	struct blob b;
	u64 first, end, cut;
	int n, i, bad = 0, step;

	snprintf(src, sizeof(src), "%s/%s", test_corpus_dir(), rel);
	if (blob_read(&b, src))
		return 1;
	snprintf(dst, sizeof(dst), "%s/cut", dir);
	n = record_offsets(&b, offs, ARRAY_SIZE(offs), &first, &end);
	/* inside the header and attrs */
	for (cut = 0; cut < first && cut < b.len; cut += 24) {
		if (write_file(dst, b.buf, cut))
			break;
		(*cases)++;
		if (!run(dst, err, sizeof(err))) {
			pr_debug("%s cut at %#" PRIx64 " (header): no error\n", rel, cut);
			bad++;
		}
	}
	/* inside records: a few bytes into each of a spread of records */
	step = n / 60 ?: 1;
	for (i = 0; i < n; i += step) {
		u64 rs;
		struct perf_event_header h;

		memcpy(&h, b.buf + offs[i], sizeof(h));
		if (!memcmp(b.buf, "2ELIFREP", 8))
			h.size = __builtin_bswap16(h.size);
		for (rs = 3; rs < h.size; rs += h.size / 2 + 1) {
			cut = offs[i] + rs;
			if (cut >= b.len || write_file(dst, b.buf, cut))
				continue;
			(*cases)++;
			snprintf(want, sizeof(want), "%#" PRIx64, offs[i]);
			if (!run(dst, err, sizeof(err)) || !strstr(err, want)) {
				pr_debug("%s cut at %#" PRIx64 " inside the record at %s: %s\n",
					 rel, cut, want, err[0] ? err : "no error\n");
				bad++;
			}
		}
	}
	/* a file-mode file cut in its feature sections lost its features: refused too */
	if (first != 16 && end < b.len) {
		u64 stride = (b.len - end) / 40 ?: 1;

		for (cut = end; cut < b.len; cut += stride) {
			if (write_file(dst, b.buf, cut))
				break;
			(*cases)++;
			if (!run(dst, err, sizeof(err)) || !strstr(err, "0x")) {
				pr_debug("%s cut at %#" PRIx64 " (features): %s", rel, cut,
					 err[0] ? err : "no error\n");
				bad++;
			}
		}
	}
	/* the input is never modified: the original still reads */
	if (run(src, err, sizeof(err))) {
		pr_debug("%s: the original no longer reads: %s", rel, err);
		bad++;
	}
	free(b.buf);
	return bad;
}

/*
 * Random damage (fixed seed, so every run is the same): flip bytes and
 * words across the file.  Anything may be reported; nothing may crash or
 * hang, which under ASan also means no read outside a record.
 */
static int flip_file(const char *dir, const char *rel, int rounds, int *cases)
{
	char src[PATH_MAX * 2], dst[PATH_MAX + 32], err[16384];
	u64 seed = 0x9e3779b97f4a7c15ULL;
	struct blob b;
	u8 *copy;
	int i, j;

	snprintf(src, sizeof(src), "%s/%s", test_corpus_dir(), rel);
	if (blob_read(&b, src))
		return 1;
	copy = malloc(b.len);
	if (!copy) {
		free(b.buf);
		return 1;
	}
	snprintf(dst, sizeof(dst), "%s/flip", dir);
	for (i = 0; i < rounds; i++) {
		memcpy(copy, b.buf, b.len);
		for (j = 0; j < 1 + i % 8; j++) {
			size_t at;

			seed ^= seed << 13;
			seed ^= seed >> 7;
			seed ^= seed << 17;
			at = seed % b.len;
			/* high bytes of sizes and counts do the most damage */
			copy[at] ^= (seed >> 32) & 1 ? 0xff : (u8)(seed >> 40);
		}
		if (write_file(dst, copy, b.len))
			break;
		(*cases)++;
		run(dst, err, sizeof(err));
	}
	free(copy);
	free(b.buf);
	return 0;
}

static void put_u64(struct blob *b, size_t off, u64 v)
{
	memcpy(b->buf + off, &v, 8);
}

static void put_u16(struct blob *b, size_t off, u16 v)
{
	memcpy(b->buf + off, &v, 2);
}

/* one hostile edit of a file-mode file: must fail, or succeed, naming @want */
static int hostile(const char *dir, const struct blob *orig, const char *what,
		   void (*edit)(struct blob *b, const struct perf_file_header *h), bool must_fail,
		   const char *want)
{
	char dst[PATH_MAX + 32], err[16384];
	struct perf_file_header h;
	struct blob b;
	int ret;

	b.len = orig->len;
	b.buf = malloc(b.len);
	if (!b.buf)
		return 1;
	memcpy(b.buf, orig->buf, b.len);
	memcpy(&h, b.buf, sizeof(h));
	edit(&b, &h);
	snprintf(dst, sizeof(dst), "%s/hostile", dir);
	ret = write_file(dst, b.buf, b.len);
	free(b.buf);
	if (ret)
		return 1;
	ret = run(dst, err, sizeof(err));
	pr_debug("%s: ret %d: %s", what, ret, err[0] ? err : "(no message)\n");
	if (must_fail && !ret)
		return 1;
	if (want && !strstr(err, want))
		return 1;
	return 0;
}

static void edit_size0(struct blob *b, const struct perf_file_header *h)
{
	put_u16(b, h->data.offset + 6, 0);
}

static void edit_size_odd(struct blob *b, const struct perf_file_header *h)
{
	u16 size;

	memcpy(&size, b->buf + h->data.offset + 6, 2);
	put_u16(b, h->data.offset + 6, size - 4);
}

static void edit_size_huge(struct blob *b, const struct perf_file_header *h)
{
	put_u16(b, h->data.offset + 6, 0xfff8);
}

/* the first record is an MMAP: no NUL anywhere after its fixed part */
static void edit_unterminated(struct blob *b, const struct perf_file_header *h)
{
	u16 size;

	memcpy(&size, b->buf + h->data.offset + 6, 2);
	memset(b->buf + h->data.offset + sizeof(struct perf_record_mmap), 'A',
	       size - sizeof(struct perf_record_mmap));
}

/* ... and now too short for an MMAP */
static void edit_too_short(struct blob *b, const struct perf_file_header *h)
{
	put_u16(b, h->data.offset + 6, 16);
}

static void edit_attr_size(struct blob *b, const struct perf_file_header *h)
{
	put_u64(b, 16, 1ULL << 40);
}

static void edit_attr_size_small(struct blob *b, const struct perf_file_header *h)
{
	put_u64(b, 16, 24);
}

static void edit_attrs_off(struct blob *b, const struct perf_file_header *h)
{
	put_u64(b, 24, ~0ULL - 8);
}

static void edit_ids_size(struct blob *b, const struct perf_file_header *h)
{
	put_u64(b, h->attrs.offset + h->attr_size - 8, 1ULL << 62);
}

static void edit_data_off(struct blob *b, const struct perf_file_header *h)
{
	put_u64(b, 40, 1ULL << 50);
}

/* every feature section claims 2^60 bytes */
static void edit_feat_sizes(struct blob *b, const struct perf_file_header *h)
{
	u64 table = h->data.offset + h->data.size, i;

	for (i = 0; table + i * 16 + 16 <= b->len && i < 64; i++)
		put_u64(b, table + i * 16 + 8, 1ULL << 60);
}

/* every feature section points at the file's first bytes with its real size */
static void edit_feat_garbage(struct blob *b, const struct perf_file_header *h)
{
	u64 table = h->data.offset + h->data.size, i;

	for (i = 0; table + i * 16 + 16 <= b->len && i < 64; i++)
		put_u64(b, table + i * 16, h->data.offset);
}

static void edit_data_size0(struct blob *b, const struct perf_file_header *h)
{
	put_u64(b, 48, 0);
	/* drop the features: a killed perf record never wrote them */
	b->len = h->data.offset + h->data.size;
}

static void edit_magic(struct blob *b, const struct perf_file_header *h)
{
	memcpy(b->buf, "NOTPERF!", 8);
}

static int test__reader_truncate(struct test_suite *t)
{
	static const char *const files[] = {
	    "perf_data_converter/perf.data.lost_samples-4.4",
	    "perf_data_converter/perf.data.piped.lost_samples-4.4",
	    "perfparser/vector_static_gcc__perf.data.zstd",
	    "linux-perf-data/sleep.compressed.pipe.data",
	    "linux-perf-data/sleep.compressed2.data",
	    "perf_data_converter/perf.data.intel_pt-4.14",
	    "perf_data_converter/perf.data.piped.intel_pt-4.14",
	    "platform2-sommelier/perf.data.piped.powerpc",
	    "frankentui/perf.data",
	};
	char dir[] = "/tmp/reader-trunc-XXXXXX", path[PATH_MAX * 2], cmd[64];
	int bad = 0, cases = 0;
	struct blob orig;
	size_t i;

	snprintf(path, sizeof(path), "%s/%s", test_corpus_dir(), files[0]);
	if (access(path, R_OK)) {
		test_skip(t, "no corpus at %s", test_corpus_dir());
		return TEST_SKIP;
	}
	if (!mkdtemp(dir))
		return TEST_FAIL;
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		int b = truncate_file(dir, files[i], &cases);

		if (b)
			pr_debug("%s: %d bad truncations\n", files[i], b);
		bad += b;
	}
	pr_debug("%d truncations, %d bad\n", cases, bad);
	for (i = 0; i < ARRAY_SIZE(files); i++)
		bad += flip_file(dir, files[i], 150, &cases);
	pr_debug("%d cases with random damage included\n", cases);

	if (blob_read(&orig, path) == 0) {
		char want[32];
		struct perf_file_header h;

		memcpy(&h, orig.buf, sizeof(h));
		snprintf(want, sizeof(want), "%#" PRIx64, h.data.offset);
		bad += hostile(dir, &orig, "record size 0", edit_size0, true, want);
		bad += hostile(dir, &orig, "record size not a multiple of 8", edit_size_odd, true,
			       want);
		bad += hostile(dir, &orig, "record size past the data", edit_size_huge, true, want);
		bad += hostile(dir, &orig, "MMAP filename without NUL", edit_unterminated, true,
			       "unterminated");
		bad += hostile(dir, &orig, "MMAP of 16 bytes", edit_too_short, true, "too short");
		bad += hostile(dir, &orig, "attr_size 2^40", edit_attr_size, true, "attr_size");
		bad += hostile(dir, &orig, "attr_size 24", edit_attr_size_small, true, "attr_size");
		bad += hostile(dir, &orig, "attrs offset ~0", edit_attrs_off, true, "attrs");
		bad += hostile(dir, &orig, "ids size 2^62", edit_ids_size, true, "id array");
		bad += hostile(dir, &orig, "data offset 2^50", edit_data_off, true, "data");
		bad += hostile(dir, &orig, "feature sizes 2^60", edit_feat_sizes, true, "feature");
		bad += hostile(dir, &orig, "features pointing at records", edit_feat_garbage, false,
			       NULL);
		bad += hostile(dir, &orig, "data size 0", edit_data_size0, false,
			       "not properly terminated");
		bad += hostile(dir, &orig, "bad magic", edit_magic, true, "magic");
		free(orig.buf);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		pr_debug("cannot remove %s\n", dir);
	TEST_ASSERT_VAL("some truncations", cases > 200);
	TEST_ASSERT_EQUAL("bad cases", bad, 0);
	return TEST_OK;
}

struct test_suite suite__reader_truncate = {
    .desc = "reader: truncated and hostile files give errors naming the offset",
    .func = test__reader_truncate,
};
