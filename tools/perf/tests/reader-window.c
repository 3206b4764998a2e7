// SPDX-License-Identifier: GPL-2.0-only
/*
 * Large files are read through a moving mmap window, never copied whole.
 * With a one-page window nearly every record sits across a window edge;
 * the records delivered must be exactly those delivered with the default
 * window, in the same order.  And a file whose records lie 5 GB in reads
 * the same.  Not only a comparison with itself: the samples must number
 * what INDEX.md's independent walker counts, the default window must map
 * each of these files (all under 64 MB) once, and the one-page window at
 * least data size / (page + 64 KB) times, as no map then covers more than
 * a page plus the one record that crossed its edge.
 * Mutation caught: window_size ignored (every window PERF_DATA_WINDOW_SIZE).
 */
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests.h"
#include "corpus-index.h"
#include "../util/data.h"
#include "../util/header.h"
#include "../util/session.h"

struct sum_tool {
	struct perf_tool tool;
	u64 n, hash, samples, maps, size;
};

static void mix(struct sum_tool *st, const union perf_event *event)
{
	const u8 *p = (const u8 *)event;
	u32 i;

	for (i = 0; i < event->header.size; i++)
		st->hash = (st->hash ^ p[i]) * 0x100000001b3ULL;
	st->n++;
}

static int sum_side_band(struct perf_tool *tool, union perf_event *event,
			 struct perf_sample *sample, struct evsel *evsel, struct machine *machine)
{
	mix((struct sum_tool *)tool, event);
	return 0;
}

static int sum_sample(struct perf_tool *tool, union perf_event *event, struct perf_sample *sample,
		      struct evsel *evsel, struct machine *machine)
{
	((struct sum_tool *)tool)->samples++;
	return sum_side_band(tool, event, sample, evsel, machine);
}

static int run(const char *path, u64 window, struct sum_tool *st)
{
	struct perf_session *s;
	int err;

	memset(st, 0, sizeof(*st));
	st->tool.sample = sum_sample;
	st->tool.side_band = sum_side_band;
	st->tool.ordered_events = true;
	s = perf_session__new(path, &st->tool);
	if (!s)
		return -1;
	s->data->window_size = window;
	err = perf_session__process_events(s);
	st->maps = s->data->nr_window_maps;
	st->size = s->data->size;
	perf_session__delete(s);
	return err;
}

/*
 * A file past 4 GB: the same recording with its data section and
 * features moved 5 GB further (a sparse file: a hole, no disk used).
 * Offsets, windows and the feature table must all work there.
 */
static int check_far_offsets(const char *src, const char *dst, struct sum_tool *want)
{
	const u64 delta = 5ULL << 30;
	struct perf_file_header h;
	struct sum_tool got;
	u8 *buf = NULL;
	int in, out = -1, ret = -1, i, nfeat = 0;
	off_t len;

	in = open(src, O_RDONLY);
	if (in < 0)
		return -1;
	len = lseek(in, 0, SEEK_END);
	buf = malloc(len);
	if (!buf || pread(in, buf, len, 0) != len)
		goto out;
	memcpy(&h, buf, sizeof(h));
	for (i = 0; i < HEADER_FEAT_BITS; i++)
		if (h.adds_features[i / 64] & (1ULL << (i % 64)))
			nfeat++;
	for (i = 0; i < nfeat; i++) {
		u64 *sec = (u64 *)(buf + h.data.offset + h.data.size + 16 * i);

		sec[0] += delta;
	}
	out = open(dst, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (out < 0)
		goto out;
	h.data.offset += delta;
	memcpy(buf, &h, sizeof(h));
	if (pwrite(out, buf, h.data.offset - delta, 0) != (ssize_t)(h.data.offset - delta) ||
	    pwrite(out, buf + h.data.offset - delta, len - (h.data.offset - delta),
		   h.data.offset) != (ssize_t)(len - (h.data.offset - delta)))
		goto out;
	close(out);
	out = -1;
	if (run(dst, 0, &got) || got.n != want->n || got.hash != want->hash)
		goto out;
	ret = 0;
out:
	if (out >= 0)
		close(out);
	close(in);
	free(buf);
	unlink(dst);
	return ret;
}

static int test__reader_window(struct test_suite *t)
{
	static const char *const files[] = {
	    "perf_data_converter/perf.data.weight_struct",
	    "perfparser/vector_static_gcc__perf.data",
	    "perfparser/parallel_static_gcc__perf.data.zstd",
	    "frankentui/perf.data",
	    "perf_data_converter/perf.data.intel_pt-4.14",
	};
	char path[PATH_MAX];
	size_t i;

	snprintf(path, sizeof(path), "%s/%s", test_corpus_dir(), files[0]);
	if (access(path, R_OK)) {
		test_skip(t, "no corpus at %s", test_corpus_dir());
		return TEST_SKIP;
	}
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		struct sum_tool a, b;

		snprintf(path, sizeof(path), "%s/%s", test_corpus_dir(), files[i]);
		TEST_ASSERT_EQUAL("default window", run(path, 0, &a), 0);
		TEST_ASSERT_EQUAL("one-page window", run(path, 1, &b), 0);
		pr_debug("%s: %llu records\n", files[i], (unsigned long long)a.n);
		TEST_ASSERT_VAL("records", a.n > 0);
		TEST_ASSERT_EQUAL("same records", a.n, b.n);
		TEST_ASSERT_VAL("same bytes in the same order", a.hash == b.hash);
		pr_debug("%s: %llu samples, %llu maps by default, %llu one page at a time\n",
			 files[i], (unsigned long long)a.samples, (unsigned long long)a.maps,
			 (unsigned long long)b.maps);
		TEST_ASSERT_EQUAL("samples as INDEX.md counts them", a.samples,
				  corpus_index__count(files[i], "SAMPLE"));
		TEST_ASSERT_EQUAL("one default window", a.maps, 1);
		TEST_ASSERT_VAL("one-page windows", b.maps >= b.size / (4096 + 65536));
		TEST_ASSERT_VAL("one-page windows", b.maps > 1);
		if (i == 0) {
			char dst[] = "/tmp/reader-far-XXXXXX";
			int fd = mkstemp(dst);

			if (fd >= 0)
				close(fd);
			TEST_ASSERT_EQUAL("data section 5 GB into the file",
					  fd >= 0 ? check_far_offsets(path, dst, &a) : -1, 0);
		}
	}
	return TEST_OK;
}

struct test_suite suite__reader_window = {
    .desc = "reader: a one-page mmap window reads the same records",
    .func = test__reader_window,
};
