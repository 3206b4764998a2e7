// SPDX-License-Identifier: GPL-2.0-only
/*
 * The -D dump against stock perf 6.1's perf script -D on real files: the
 * per-record "<offset>@<file> [<size>]: event: <type>" lines, the hex
 * bytes, the decoded "PERF_RECORD_*" lines and their detail lines must be
 * identical, in the same order (the ordering of delivery included), and
 * so must the " ... thread:" / " ...... dso:" lines that follow each
 * sample once the script tool resolved it.  Ours is perf textpoke script
 * -D, so the reader's dump is checked where a user sees it.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests.h"
#include "../util/session.h"

/*
 * The lines of the dump itself, not what perf script prints for each
 * sample (script-parity tests compare those): record headers
 * "0x..@file [..]: event:", hex lines ". ...", decoded lines
 * "[cpu] [time] 0x.. [0x..]: PERF_RECORD_..", detail lines "... " /
 * "....." (a sample's thread and dso among them) and namespace
 * continuation lines.
 */
static bool wanted(const char *line)
{
	const char *p = line;

	if (line[0] == '.')
		return true;
	if (!strncmp(line, " ... thread: ", 13) || !strncmp(line, " ...... dso: ", 13))
		return true;
	if (!strncmp(line, "\t\t", 2))
		return true;
	if (line[0] == '0' && strchr(line, '@') && strstr(line, "]: event: "))
		return true;
	while (strncmp(p, "0x", 2) && (*p == '-' || *p == ' ' || (*p >= '0' && *p <= '9')))
		p++;
	return !strncmp(p, "0x", 2) && strstr(p, "]: PERF_RECORD_");
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

/*
 * Lines of @path that start with @prefix.  The "Aggregated stats:" block
 * is perf report -D's, not perf script -D's: the filter above passes over
 * it, so its presence is compared on its own.
 */
static int count_prefix(const char *path, const char *prefix)
{
	FILE *f = fopen(path, "r");
	char line[8192];
	int n = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		n += !strncmp(line, prefix, strlen(prefix));
	fclose(f);
	return n;
}

/* perf textpoke script -D, the path given as to perf, stderr dropped as perf's is */
static int our_dump(const char *file, const char *out_path)
{
	char cmd[PATH_MAX * 3];

	snprintf(cmd, sizeof(cmd), "'%s' script -D -i '%s' >'%s' 2>/dev/null", test_self_exe(),
		 file, out_path);
	return system(cmd) ? -1 : 0;
}

/*
 * Without a recorded build-id for [vdso], perf copies this machine's vdso
 * to /tmp/perf-vdso.so-XXXXXX (deleted at exit) and names the object by
 * that copy; we keep the name [vdso] (or [vdso32], [vdsox32]).
 */
static bool same_line(const char *ours, const char *perf)
{
	static const char dso[] = " ...... dso: ";
	size_t n = sizeof(dso) - 1;

	if (!strcmp(ours, perf))
		return true;
	return !strncmp(perf, dso, n) && !strncmp(perf + n, "/tmp/perf-vdso", 14) &&
	       !strncmp(ours, dso, n) && !strncmp(ours + n, "[vdso", 5);
}

static int compare_one(const char *dir, const char *base, const char *rel, int *nr_lines)
{
	char file[PATH_MAX], cmd[PATH_MAX * 3], ours[PATH_MAX], theirs[PATH_MAX];
	char a[8192], b[8192];
	FILE *fa, *fb;
	int na, nb, line = 0, bad = 0;

	snprintf(file, sizeof(file), "%s/%s", base, rel);
	snprintf(ours, sizeof(ours), "%s/ours", dir);
	snprintf(theirs, sizeof(theirs), "%s/theirs", dir);
	/* perf prints the path as given: give both the same one */
	snprintf(cmd, sizeof(cmd), "cd %s && perf script -D -i %s >%s 2>/dev/null", base, rel,
		 theirs);
	if (system(cmd) != 0)
		return -1;
	if (chdir(base) || our_dump(rel, ours))
		return 1;
	if (count_prefix(ours, "Aggregated stats:") != count_prefix(theirs, "Aggregated stats:")) {
		pr_debug("%s: 'Aggregated stats:' printed %d times, perf script -D: %d\n", rel,
			 count_prefix(ours, "Aggregated stats:"),
			 count_prefix(theirs, "Aggregated stats:"));
		return 1;
	}
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
		if (!same_line(a, b)) {
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
	    "perf_data_converter/perf.data.piped.lost_samples-4.4",
	    "perf_data_converter/perf.data.piped.header_features_aligned-6.12",
	    "perfparser/vector_static_gcc__perf.data.zstd",
	    "perf_data_converter/perf.data.weight_struct",
	    "perf_data_converter/perf.data.ctx_switch_namespaces-4.14",
	    "perf_data_converter/perf.data.hybrid_topology",
	    "perf_data_converter/perf.data.branch_stack_hw_index",
	    "perf_data_converter/perf.data.piped.header_features_aligned-6.12",
	    "perf_data_converter/perf.data.raw_callgraph_branch-3.4",
	    "perfparser/contentsize.data",
	    "perfparser/parallel_static_gcc__perf.data.zstd",
	    "linux-perf-data/sleep.compressed.pipe.data",
	    "platform_system_extras/perf_with_arm_regs.data",
	    "platform_system_extras/generated_by_linux_perf.data",
	    "autofdo/perf-kernel.data",
	};
	static const struct {
		const char *name, *opts, *out, *redirect;
	} fresh[] = {
	    {"fresh.data", "", "fresh.data", ">/dev/null"},
	    {"fresh.pipe", "", "-", ">fresh.pipe"},
	    {"fresh.zstd", "-z", "fresh.zstd", ">/dev/null"},
	    {"fresh.dir", "--threads", "fresh.dir", ">/dev/null"},
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
		int r = compare_one(dir, test_corpus_dir(), files[i], &lines);

		if (chdir(cwd))
			r = 1;
		if (r < 0) {
			pr_debug("%s: stock perf failed, not compared\n", files[i]);
			continue;
		}
		ran++;
		failures += r;
	}
	/* recordings made now: file, pipe, zstd, --threads directory */
	for (i = 0; i < ARRAY_SIZE(fresh); i++) {
		char rec[PATH_MAX * 2];

		snprintf(rec, sizeof(rec),
			 "cd %s && perf record -q %s -e cpu-clock -o %s -- "
			 "dd if=/dev/zero of=/dev/null bs=1k count=100000 %s 2>/dev/null",
			 dir, fresh[i].opts, fresh[i].out, fresh[i].redirect);
		if (system(rec)) {
			pr_debug("%s: perf record failed, not compared\n", fresh[i].name);
			continue;
		}
		if (compare_one(dir, dir, fresh[i].name, &lines))
			failures++;
		ran++;
		if (chdir(cwd))
			failures++;
	}

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		pr_debug("cannot remove %s\n", dir);
	pr_debug("%d files, %d lines compared\n", ran, lines);
	if (!ran) {
		test_skip(t, "stock perf could not read the corpus");
		return TEST_SKIP;
	}
	TEST_ASSERT_EQUAL("files whose dump differs from perf script -D", failures, 0);
	return TEST_OK;
}

struct test_suite suite__reader_dump = {
    .desc = "reader: -D dump equals perf script -D",
    .func = test__reader_dump,
};
