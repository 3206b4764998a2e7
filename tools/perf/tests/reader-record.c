// SPDX-License-Identifier: GPL-2.0-only
/*
 * Recordings made now with stock perf (-e cpu-clock: no hardware PMU
 * needed), in file mode, zstd compressed (-z), as a pipe (-o -), and as a
 * perf.data/ directory with a kcore_dir/: our per-type record counts must
 * equal the records perf report -D shows, and every sample is delivered
 * in time order.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests.h"
#include "../util/compress.h"
#include "../util/event.h"
#include "../util/session.h"

#define WORKLOAD "dd if=/dev/zero of=/dev/null bs=1k count=300000"

struct rec_tool {
	struct perf_tool tool;
	u64 samples, last_time, backwards;
};

static int rec_sample(struct perf_tool *tool, union perf_event *event, struct perf_sample *sample,
		      struct evsel *evsel, struct machine *machine)
{
	struct rec_tool *rt = (struct rec_tool *)tool;

	rt->samples++;
	if (sample->time < rt->last_time)
		rt->backwards++;
	rt->last_time = sample->time;
	return 0;
}

/* records per type as perf report -D prints them ("...]: event: N") */
static int perf_counts(const char *path, u64 *counts)
{
	char cmd[PATH_MAX + 64], line[4096];
	FILE *p;
	int n = 0;

	snprintf(cmd, sizeof(cmd), "perf report -D -i %s 2>/dev/null", path);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	while (fgets(line, sizeof(line), p)) {
		char *e = strstr(line, "]: event: ");
		unsigned int type;

		/* "0x98@pipe [0x54]: event: 80", the first one "0@pipe ..." */
		if (line[0] != '0' || !strchr(line, '@') || !e ||
		    sscanf(e, "]: event: %u", &type) != 1)
			continue;
		if (type < PERF_RECORD_HEADER_MAX) {
			counts[type]++;
			n++;
		}
	}
	return pclose(p) == 0 && n ? 0 : -1;
}

static int compare(const char *what, const char *path)
{
	u64 theirs[PERF_RECORD_HEADER_MAX] = {0};
	struct rec_tool rt = {.tool = {.sample = rec_sample, .ordered_events = true}};
	struct perf_session *session;
	int type, bad = 0, err;

	if (perf_counts(path, theirs)) {
		pr_debug("%s: perf report -D failed\n", what);
		return 1;
	}
	session = perf_session__new(path, &rt.tool);
	if (!session)
		return 1;
	err = perf_session__process_events(session);
	for (type = 1; type < PERF_RECORD_HEADER_MAX; type++) {
		u64 ours = session->stats.nr_events[type];

		/* perf shows what is inside compressed records, not them */
		if (type == PERF_RECORD_COMPRESSED || type == PERF_RECORD_COMPRESSED2)
			continue;
		if (ours != theirs[type]) {
			pr_debug("%s: %s: ours %llu, perf report -D %llu\n", what,
				 perf_event__name(type), (unsigned long long)ours,
				 (unsigned long long)theirs[type]);
			bad++;
		}
	}
	if (rt.samples != theirs[PERF_RECORD_SAMPLE] || !rt.samples) {
		pr_debug("%s: %llu samples delivered, perf shows %llu\n", what,
			 (unsigned long long)rt.samples,
			 (unsigned long long)theirs[PERF_RECORD_SAMPLE]);
		bad++;
	}
	if (rt.backwards) {
		pr_debug("%s: %llu samples delivered out of time order\n", what,
			 (unsigned long long)rt.backwards);
		bad++;
	}
	pr_debug("%s: %llu samples, %d mismatches, err %d\n", what, (unsigned long long)rt.samples,
		 bad, err);
	perf_session__delete(session);
	return bad || err;
}

/*
 * A perf record --threads style directory: data plus data.0 and data.1
 * holding raw records.  Made here from the file recording: data.0 and
 * data.1 each get a copy of its data section, so every kernel record is
 * read three times, and all of it must come out in time order.
 */
static int check_threads_dir(const char *dir)
{
	struct rec_tool one = {.tool = {.sample = rec_sample, .ordered_events = true}};
	struct rec_tool three = {.tool = {.sample = rec_sample, .ordered_events = true}};
	char path[PATH_MAX], cmd[PATH_MAX * 3];
	struct perf_session *s;
	u64 off, size;
	int bad = 0;

	snprintf(path, sizeof(path), "%s/file.data", dir);
	s = perf_session__new(path, &one.tool);
	if (!s || perf_session__process_events(s)) {
		perf_session__delete(s);
		return 1;
	}
	off = s->data_offset;
	size = s->data_size;
	perf_session__delete(s);
	snprintf(
	    cmd, sizeof(cmd),
	    "mkdir -p %s/threads.data && cp %s/file.data %s/threads.data/data && "
	    "dd if=%s/file.data of=%s/threads.data/data.0 bs=1 skip=%llu count=%llu status=none && "
	    "cp %s/threads.data/data.0 %s/threads.data/data.1",
	    dir, dir, dir, dir, dir, (unsigned long long)off, (unsigned long long)size, dir, dir);
	if (system(cmd))
		return 1;
	snprintf(path, sizeof(path), "%s/threads.data", dir);
	s = perf_session__new(path, &three.tool);
	if (!s || perf_session__process_events(s) || three.samples != 3 * one.samples ||
	    three.backwards) {
		pr_debug("threads directory: %llu samples (want %llu), %llu out of order\n",
			 (unsigned long long)three.samples, 3 * (unsigned long long)one.samples,
			 (unsigned long long)three.backwards);
		bad = 1;
	}
	perf_session__delete(s);
	return bad;
}

static int test__reader_record(struct test_suite *t)
{
	char dir[] = "/tmp/reader-record-XXXXXX", cmd[PATH_MAX * 2], path[PATH_MAX];
	int bad = 0;

	if (system("perf --version >/dev/null 2>&1")) {
		test_skip(t, "stock perf not found");
		return TEST_SKIP;
	}
	if (!mkdtemp(dir))
		return TEST_FAIL;
	snprintf(cmd, sizeof(cmd),
		 "perf record -q -e cpu-clock -o %s/file.data -- " WORKLOAD " >/dev/null 2>&1",
		 dir);
	if (system(cmd)) {
		test_skip(t, "perf record -e cpu-clock failed (perf_event_paranoid?)");
		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		if (system(cmd))
			return TEST_SKIP;
		return TEST_SKIP;
	}
	snprintf(path, sizeof(path), "%s/file.data", dir);
	bad += compare("file mode", path);

	snprintf(cmd, sizeof(cmd),
		 "perf record -q -e cpu-clock -o - -- " WORKLOAD " >%s/pipe.data 2>/dev/null", dir);
	if (!system(cmd)) {
		snprintf(path, sizeof(path), "%s/pipe.data", dir);
		bad += compare("pipe mode", path);
	} else {
		pr_debug("perf record -o - failed: not compared\n");
	}

	/* ... and as "-", from stdin */
	snprintf(path, sizeof(path), "%s/pipe.data", dir);
	{
		struct rec_tool rt = {.tool = {.sample = rec_sample, .ordered_events = true}};
		int fd = open(path, O_RDONLY), saved = dup(0);
		struct perf_session *s = NULL;

		if (fd >= 0 && saved >= 0 && dup2(fd, 0) == 0) {
			s = perf_session__new("-", &rt.tool);
			if (!s || perf_session__process_events(s) || !rt.samples) {
				pr_debug("stdin: not read\n");
				bad++;
			}
			perf_session__delete(s);
			dup2(saved, 0);
		}
		if (fd >= 0)
			close(fd);
		if (saved >= 0)
			close(saved);
	}

	/* the same stream through a real FIFO, read sequentially */
	snprintf(cmd, sizeof(cmd), "mkfifo %s/fifo && (cat %s/pipe.data > %s/fifo &)", dir, dir,
		 dir);
	if (!system(cmd)) {
		struct rec_tool rt = {.tool = {.sample = rec_sample, .ordered_events = true}};
		struct perf_session *s;

		snprintf(path, sizeof(path), "%s/fifo", dir);
		s = perf_session__new(path, &rt.tool);
		if (!s || !s->is_pipe || perf_session__process_events(s) || !rt.samples) {
			pr_debug("FIFO: not read as a stream\n");
			bad++;
		} else {
			pr_debug("FIFO: %llu samples\n", (unsigned long long)rt.samples);
		}
		perf_session__delete(s);
	}

	if (zstd_data__available()) {
		snprintf(cmd, sizeof(cmd),
			 "perf record -q -z -e cpu-clock -o %s/z.data -- " WORKLOAD
			 " >/dev/null 2>&1",
			 dir);
		if (!system(cmd)) {
			snprintf(path, sizeof(path), "%s/z.data", dir);
			bad += compare("zstd (-z)", path);
		}
		snprintf(cmd, sizeof(cmd),
			 "perf record -q -z -e cpu-clock -o - -- " WORKLOAD
			 " >%s/zpipe.data 2>/dev/null",
			 dir);
		if (!system(cmd)) {
			snprintf(path, sizeof(path), "%s/zpipe.data", dir);
			bad += compare("zstd pipe (-z -o -)", path);
		}
	}

	/* a perf.data/ directory as perf record --kcore writes it */
	snprintf(cmd, sizeof(cmd),
		 "mkdir -p %s/dir.data/kcore_dir && cp %s/file.data %s/dir.data/data", dir, dir,
		 dir);
	if (!system(cmd)) {
		struct perf_tool tool = {.ordered_events = true};
		struct perf_session *s;

		snprintf(path, sizeof(path), "%s/dir.data", dir);
		s = perf_session__new(path, &tool);
		if (!s || !perf_session__kcore_dir(s) ||
		    !strstr(perf_session__kcore_dir(s), "dir.data/kcore_dir") ||
		    perf_session__process_events(s) || !s->stats.nr_events[PERF_RECORD_SAMPLE]) {
			pr_debug("directory mode: not read, or kcore_dir not found\n");
			bad++;
		}
		perf_session__delete(s);
	}

	bad += check_threads_dir(dir);

	/* the real thing, if this perf has --threads */
	snprintf(cmd, sizeof(cmd),
		 "perf record --threads -q -e cpu-clock -o %s/thr.data -- " WORKLOAD
		 " >/dev/null 2>&1",
		 dir);
	if (!system(cmd)) {
		snprintf(path, sizeof(path), "%s/thr.data", dir);
		bad += compare("perf record --threads directory", path);
	} else {
		pr_debug("perf record --threads failed: not compared\n");
	}

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		pr_debug("cannot remove %s\n", dir);
	TEST_ASSERT_EQUAL("recordings that differ from perf report -D", bad, 0);
	return TEST_OK;
}

struct test_suite suite__reader_record = {
    .desc = "reader: fresh perf recordings (file, -z, pipe, dir) count as perf report -D",
    .func = test__reader_record,
};
