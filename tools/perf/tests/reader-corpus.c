// SPDX-License-Identifier: GPL-2.0-only
/*
 * Every file of the public corpus goes through the session: per-type
 * record counts must equal those of the independent walker recorded in
 * INDEX.md, the deliberately corrupt pipe file must fail naming offset
 * 0xbfd0, and the v1 'PERFFILE' file must be refused with a clear message.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests.h"
#include "../util/event.h"
#include "../util/session.h"

struct counting_tool {
	struct perf_tool tool;
	u64 samples;
	u64 side_band;
	u64 user;
	u64 last_time;
	u64 backwards;
};

static int count_sample(struct perf_tool *tool, union perf_event *event, struct perf_sample *sample,
			struct evsel *evsel, struct machine *machine)
{
	struct counting_tool *ct = (struct counting_tool *)tool;

	ct->samples++;
	if (sample->time != (u64)-1 && sample->time) {
		if (sample->time < ct->last_time)
			ct->backwards++;
		ct->last_time = sample->time;
	}
	return 0;
}

static int count_side_band(struct perf_tool *tool, union perf_event *event,
			   struct perf_sample *sample, struct evsel *evsel, struct machine *machine)
{
	((struct counting_tool *)tool)->side_band++;
	return 0;
}

static int count_user(struct perf_tool *tool, union perf_event *event, struct perf_session *session)
{
	((struct counting_tool *)tool)->user++;
	return 0;
}

/* runs the session with stderr captured into @err (may be NULL) */
static int process_file(const char *path, struct counting_tool *ct, struct events_stats *stats,
			char *err, size_t err_len)
{
	struct perf_session *session;
	char tmpl[] = "/tmp/reader-corpus-XXXXXX";
	int fd = -1, saved = -1, ret;

	memset(ct, 0, sizeof(*ct));
	ct->tool.sample = count_sample;
	ct->tool.side_band = count_side_band;
	ct->tool.user_event = count_user;
	ct->tool.ordered_events = true;
	if (err) {
		fd = mkstemp(tmpl);
		if (fd >= 0) {
			unlink(tmpl);
			fflush(stderr);
			saved = dup(2);
			dup2(fd, 2);
		}
	}
	session = perf_session__new(path, &ct->tool);
	if (!session) {
		ret = -1;
	} else {
		ret = perf_session__process_events(session);
		if (stats)
			*stats = session->stats;
		perf_session__delete(session);
	}
	if (fd >= 0) {
		ssize_t n;

		fflush(stderr);
		dup2(saved, 2);
		close(saved);
		n = pread(fd, err, err_len - 1, 0);
		err[n > 0 ? n : 0] = '\0';
		close(fd);
		pr_debug("%s", err);
	}
	return ret;
}

/* "SAMPLE" for perf's names; the walker writes HEADER_ATTR, we say ATTR */
static int type_by_name(const char *name)
{
	int i;

	if (!strncmp(name, "HEADER_", 7))
		name += 7;
	for (i = 1; i < PERF_RECORD_HEADER_MAX; i++)
		if (!strcmp(perf_event__name(i), name))
			return i;
	return -1;
}

/* line += inner, both "NAME n, NAME n" lists */
static void add_counts(char *line, size_t len, const char *inner)
{
	char out[4096] = "", ibuf[2048], *tok, *save;
	char lbuf[4096];
	size_t o = 0;

	snprintf(lbuf, sizeof(lbuf), "%s", line);
	for (tok = strtok_r(lbuf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char name[64], *t2, *s2;
		unsigned long long n, m;

		if (sscanf(tok, " %63s %llu", name, &n) != 2)
			continue;
		snprintf(ibuf, sizeof(ibuf), "%s", inner);
		for (t2 = strtok_r(ibuf, ",", &s2); t2; t2 = strtok_r(NULL, ",", &s2)) {
			char iname[64];

			if (sscanf(t2, " %63s %llu", iname, &m) == 2 && !strcmp(iname, name))
				n += m;
		}
		o += snprintf(out + o, sizeof(out) - o, "%s%s %llu", o ? ", " : "", name, n);
	}
	snprintf(ibuf, sizeof(ibuf), "%s", inner);
	for (tok = strtok_r(ibuf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char name[64], pat[80];
		unsigned long long n;

		if (sscanf(tok, " %63s %llu", name, &n) != 2)
			continue;
		snprintf(pat, sizeof(pat), "%s ", name);
		if (!strstr(line, pat))
			o +=
			    snprintf(out + o, sizeof(out) - o, "%s%s %llu", o ? ", " : "", name, n);
	}
	snprintf(line, len, "%s", out);
}

/*
 * Checks one file's counts against its "records (independent walker, top
 * level)" line.  Records inside COMPRESSED data are not top level: for
 * those files only the kernel records that are never compressed are
 * compared.  Returns the number of mismatches.
 */
static int compare_counts(const char *file, const char *line, const struct events_stats *st)
{
	char buf[4096], *tok, *save;
	int bad = 0, checked = 0;

	snprintf(buf, sizeof(buf), "%s", line);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char name[64];
		unsigned long long n;
		int type;

		if (sscanf(tok, " %63s %llu", name, &n) != 2)
			continue;
		type = type_by_name(name);
		if (type < 0)
			continue; /* legacy69_HOSTNAME and the like */
		checked++;
		if (st->nr_events[type] != n) {
			pr_debug("%s: %s: %llu records, INDEX.md says %llu\n", file, name,
				 (unsigned long long)st->nr_events[type], n);
			bad++;
		}
	}
	if (!checked)
		pr_debug("%s: nothing to compare\n", file);
	return bad;
}

/* the value of "- <what>: " in the file's section of INDEX.md, up to the newline */
static bool index_line(const char *index, const char *rel, const char *what, char *out,
		       size_t out_len)
{
	char key[PATH_MAX + 16];
	const char *p, *next;

	snprintf(key, sizeof(key), "### `%s`", rel);
	p = strstr(index, key);
	if (!p)
		return false;
	next = strstr(p + 4, "\n### ");
	snprintf(key, sizeof(key), "- %s: ", what);
	p = strstr(p, key);
	if (!p || (next && p > next))
		return false;
	p += strlen(key);
	snprintf(out, out_len, "%.*s", (int)strcspn(p, "\n"), p);
	return true;
}

static char *read_whole(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc(n + 1);
	if (buf && fread(buf, 1, n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	if (buf)
		buf[n] = '\0';
	fclose(f);
	return buf;
}

static int test__reader_corpus(struct test_suite *t)
{
	const char *corpus = test_corpus_dir();
	char path[PATH_MAX * 2 + 16], err[8192], *index;
	int files = 0, failures = 0, compared = 0;
	DIR *top;
	struct dirent *d;

	snprintf(path, sizeof(path), "%s/INDEX.md", corpus);
	index = read_whole(path);
	if (!index) {
		test_skip(t, "no corpus at %s", corpus);
		return TEST_SKIP;
	}
	top = opendir(corpus);
	TEST_ASSERT_VAL("corpus dir", top);
	while ((d = readdir(top))) {
		char sub[PATH_MAX + 300];
		struct dirent *e;
		DIR *dir;

		if (d->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", corpus, d->d_name);
		dir = opendir(sub);
		if (!dir)
			continue;
		while ((e = readdir(dir))) {
			struct counting_tool ct;
			struct events_stats st;
			char rel[PATH_MAX], line[4096];
			int ret;

			if (e->d_name[0] == '.')
				continue;
			snprintf(rel, sizeof(rel), "%s/%s", d->d_name, e->d_name);
			snprintf(path, sizeof(path), "%s/%s", corpus, rel);
			memset(&st, 0, sizeof(st));
			ret = process_file(path, &ct, &st, err, sizeof(err));
			files++;
			pr_debug(
			    "%s: ret %d, %llu samples, %llu side-band, %llu user, %llu unknown, %llu unordered\n",
			    rel, ret, (unsigned long long)ct.samples,
			    (unsigned long long)ct.side_band, (unsigned long long)ct.user,
			    (unsigned long long)st.nr_unknown_events,
			    (unsigned long long)st.nr_unordered_events);
			if (strstr(rel, "corrupted.zero_size_sample")) {
				if (ret == 0 || !strstr(err, "0xbfd0")) {
					pr_debug("%s: expected an error naming 0xbfd0\n", rel);
					failures++;
				}
				continue;
			}
			if (strstr(rel, "perf.data.true.v1")) {
				if (ret == 0 || !strstr(err, "v1")) {
					pr_debug("%s: expected a clear v1 error\n", rel);
					failures++;
				}
				continue;
			}
			if (ret) {
				pr_debug("%s: FAILED to process\n", rel);
				failures++;
				continue;
			}
			if (ct.samples != st.nr_events[PERF_RECORD_SAMPLE]) {
				pr_debug("%s: %llu samples delivered of %llu read\n", rel,
					 (unsigned long long)ct.samples,
					 (unsigned long long)st.nr_events[PERF_RECORD_SAMPLE]);
				failures++;
			}
			if (index_line(index, rel, "records (independent walker, top level)", line,
				       sizeof(line))) {
				char inner[2048];

				/* records inside compressed data count as well */
				if (index_line(index, rel, "records inside zstd-compressed records",
					       inner, sizeof(inner)))
					add_counts(line, sizeof(line), inner);
				failures += compare_counts(rel, line, &st);
				compared++;
			}
		}
		closedir(dir);
	}
	closedir(top);
	free(index);
	pr_debug("%d files, %d compared with INDEX.md, %d failures\n", files, compared, failures);
	TEST_ASSERT_VAL("some files", files > 40);
	TEST_ASSERT_VAL("compared with INDEX.md", compared > 40);
	TEST_ASSERT_EQUAL("failures", failures, 0);
	return TEST_OK;
}

struct test_suite suite__reader_corpus = {
    .desc = "reader: every corpus file, record counts as in INDEX.md",
    .func = test__reader_corpus,
};
