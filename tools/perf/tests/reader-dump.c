// SPDX-License-Identifier: GPL-2.0-only
/*
 * The -D dump against stock perf 6.1's perf report -D on real files: the
 * per-record "<offset>@<file> [<size>]: event: <type>" lines, the hex
 * bytes and the decoded "PERF_RECORD_*" lines of the common record types
 * must be identical, in the same order.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests.h"
#include "../util/session.h"

/* lines we compare: record headers, hex dump, and decoded lines of these types */
static bool wanted(const char *line)
{
	static const char *const decoded[] = {
		"PERF_RECORD_MMAP ", "PERF_RECORD_MMAP2 ", "PERF_RECORD_COMM",
		"PERF_RECORD_FORK", "PERF_RECORD_EXIT", "PERF_RECORD_SAMPLE",
		"PERF_RECORD_KSYMBOL", "PERF_RECORD_BPF_EVENT", "PERF_RECORD_LOST_SAMPLES",
		"PERF_RECORD_FINISHED_ROUND", "PERF_RECORD_SWITCH",
		"PERF_RECORD_TEXT_POKE", "PERF_RECORD_LOST:",
	};
	size_t i;

	if (!strncmp(line, "0x", 2) && strstr(line, "]: event: "))
		return true;
	if (!strncmp(line, ".  ", 3) || !strncmp(line, ". ... raw event", 15))
		return true;
	if (!strncmp(line, "... FP chain", 12) || !strncmp(line, ".....", 5))
		return true;
	for (i = 0; i < ARRAY_SIZE(decoded); i++)
		if (strstr(line, decoded[i]))
			return true;
	return false;
}

static FILE *filtered(const char *path, int *n)
{
	FILE *in = fopen(path, "r"), *out = tmpfile();
	char line[8192];

	*n = 0;
	if (!in || !out) {
		if (in)
			fclose(in);
		if (out)
			fclose(out);
		return NULL;
	}
	while (fgets(line, sizeof(line), in)) {
		if (!wanted(line))
			continue;
		fputs(line, out);
		(*n)++;
	}
	fclose(in);
	rewind(out);
	return out;
}

static int our_dump(const char *file, const char *out_path)
{
	struct perf_tool tool = { .ordered_events = true };
	struct perf_session *session;
	int fd, saved, ret = -1;

	fflush(stdout);
	fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		return -1;
	saved = dup(1);
	dup2(fd, 1);
	close(fd);
	dump_trace = true;
	session = perf_session__new(file, &tool);
	if (session) {
		ret = perf_session__process_events(session);
		perf_session__delete(session);
	}
	dump_trace = false;
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	return ret;
}

static int compare_one(const char *dir, const char *rel, int *nr_lines)
{
	char file[PATH_MAX], cmd[PATH_MAX * 3], ours[PATH_MAX], theirs[PATH_MAX];
	char a[8192], b[8192];
	FILE *fa, *fb;
	int na, nb, line = 0, bad = 0;

	snprintf(file, sizeof(file), "%s/%s", test_corpus_dir(), rel);
	snprintf(ours, sizeof(ours), "%s/ours", dir);
	snprintf(theirs, sizeof(theirs), "%s/theirs", dir);
	/* perf prints the path as given: give both the same one */
	snprintf(cmd, sizeof(cmd), "cd %s && perf report -D -i %s >%s 2>/dev/null", test_corpus_dir(),
		 rel, theirs);
	if (system(cmd) != 0)
		return -1;
	if (chdir(test_corpus_dir()) || our_dump(rel, ours))
		return 1;
	fa = filtered(ours, &na);
	fb = filtered(theirs, &nb);
	if (!fa || !fb)
		return 1;
	while (fgets(b, sizeof(b), fb)) {
		line++;
		if (!fgets(a, sizeof(a), fa)) {
			pr_debug("%s: our dump ends at line %d; perf has: %s", rel, line, b);
			bad = 1;
			break;
		}
		if (strcmp(a, b)) {
			pr_debug("%s: line %d differs:\n  perf: %s  ours: %s", rel, line, b, a);
			if (++bad > 5)
				break;
		}
	}
	if (!bad && fgets(a, sizeof(a), fa)) {
		pr_debug("%s: we print more: %s", rel, a);
		bad = 1;
	}
	fclose(fa);
	fclose(fb);
	*nr_lines += line;
	return bad ? 1 : 0;
}

static int test__reader_dump(struct test_suite *t)
{
	static const char *const files[] = {
		"perf_data_converter/perf.data.lost_samples-4.4",
		"perf_data_converter/perf.data.branch_stack_spec",
		"perfparser/vector_static_gcc__perf.data",
		"perf_data_converter/perf.data.hw_and_sw-3.4",
		"linux-perf-file-reader/perf.data",
	};
	char dir[] = "/tmp/reader-dump-XXXXXX", cwd[PATH_MAX], cmd[PATH_MAX + 16];
	int failures = 0, lines = 0, ran = 0;
	size_t i;

	if (system("perf --version >/dev/null 2>&1") != 0) {
		test_skip(t, "stock perf not found");
		return TEST_SKIP;
	}
	if (access(test_corpus_dir(), R_OK)) {
		test_skip(t, "no corpus at %s", test_corpus_dir());
		return TEST_SKIP;
	}
	if (!mkdtemp(dir) || !getcwd(cwd, sizeof(cwd)))
		return TEST_FAIL;
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		int r = compare_one(dir, files[i], &lines);

		if (chdir(cwd))
			r = 1;
		if (r < 0) {
			pr_debug("%s: stock perf failed, not compared\n", files[i]);
			continue;
		}
		ran++;
		failures += r;
	}
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		pr_debug("cannot remove %s\n", dir);
	pr_debug("%d files, %d lines compared\n", ran, lines);
	if (!ran) {
		test_skip(t, "stock perf could not read the corpus");
		return TEST_SKIP;
	}
	TEST_ASSERT_EQUAL("files whose dump differs from perf report -D", failures, 0);
	return TEST_OK;
}

struct test_suite suite__reader_dump = { .desc = "reader: -D dump lines equal perf report -D", .func = test__reader_dump, };
