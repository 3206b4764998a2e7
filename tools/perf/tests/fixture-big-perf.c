// SPDX-License-Identifier: GPL-2.0-only
/*
 * The bench's jump-label storm (fixture-big.c), at 10k pokes and 10k
 * samples, as stock perf 6.1 reads it: the record counts of
 * perf report --stats and perf script -D, the hottest function's samples
 * in perf report --sort sym, and at every sample on a site the bytes
 * perf script's insn shows after its forward replay of the pokes over
 * kcore, which are the generator's model of the site (nop5 or its jmp).
 * Then the command line: --write-fixture writes the same file for the
 * same arguments, and refuses bad ones.
 *
 * Mutation caught: fb__poke() leaving the site's state alone
 * (c->site[s] = SITE_POKED): the file then pokes every site to its jmp
 * again and again, and perf script shows the jmp at sites where the model
 * counts a nop5.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests.h"
#include "fixture.h"
#include "fixture-big.h"

static const struct fixture_big_opts small = {
    .nr_pokes = 10000,
    .nr_samples = 10000,
    .nr_sites = 100,
};

static char *run(const char *fmt, const char *dir, const char *path, const char *extra)
{
	char *cmd, *out = NULL;
	int status;

	if (asprintf(&cmd, fmt, dir, path, extra) < 0)
		return NULL;
	status = fixture__run(cmd, &out, NULL);
	if (status) {
		pr_debug("'%s' exited with %d:\n%s\n", cmd, status, out ? out : "");
		free(out);
		out = NULL;
	}
	free(cmd);
	return out;
}

/* the number after "<what>:" at its first occurrence, or -1 */
static long long field(const char *out, const char *what)
{
	const char *p = out ? strstr(out, what) : NULL;

	return p ? strtoll(p + strlen(what), NULL, 10) : -1;
}

static int check_stats(const char *dir, const char *path, const struct fixture_big_counts *n)
{
	char *out = run("HOME='%s' perf report --stats -i '%s' 2>&1%s", dir, path, "");
	int ret = TEST_FAIL;

	TEST_ASSERT_VAL("perf report --stats", out);
	pr_debug("%s", out);
	if (field(out, "TEXT_POKE events:") != (long long)n->nr_pokes ||
	    field(out, "SAMPLE events:") != (long long)n->nr_samples ||
	    field(out, "COMM events:") != (long long)n->nr_comms ||
	    field(out, "MMAP2 events:") != (long long)n->nr_mmaps ||
	    field(out, "TOTAL events:") < (long long)(n->nr_pokes + n->nr_samples))
		goto out;
	free(out);
	out = run("HOME='%s' perf script -D -i '%s' 2>/dev/null | grep -c %s", dir, path,
		  "PERF_RECORD_TEXT_POKE");
	TEST_ASSERT_VAL("perf script -D", out);
	TEST_ASSERT_EQUAL("TEXT_POKE records in perf script -D", strtoll(out, NULL, 10),
			  n->nr_pokes);
	ret = TEST_OK;
out:
	free(out);
	return ret;
}

static int check_profile(const char *dir, const char *path, const struct fixture_big_counts *n)
{
	char *out =
		 run("HOME='%s' perf report --stdio --sort sym -n -i '%s' 2>&1%s", dir, path, ""),
	     want[64], *p;
	long long nr = -1;

	TEST_ASSERT_VAL("perf report --sort sym", out);
	snprintf(want, sizeof(want), "[k] big_fn_%u\n", n->hottest_fn);
	p = strstr(out, want);
	/* "     1.23%            45  [k] big_fn_7": the samples column before the symbol */
	if (p) {
		while (p > out && p[-1] != '%')
			p--;
		nr = strtoll(p, NULL, 10);
	}
	pr_debug("big_fn_%u: %lld samples in perf report, %llu written\n", n->hottest_fn, nr,
		 (unsigned long long)n->hottest_nr);
	free(out);
	TEST_ASSERT_EQUAL("samples of the hottest function", nr, n->hottest_nr);
	return TEST_OK;
}

static int check_insn(const char *dir, const char *path, const struct fixture_big_counts *n)
{
	char *out = run("HOME='%s' perf script -F ip,sym,insn -i '%s' 2>&1%s", dir, path, "");
	int nop, jmp;

	TEST_ASSERT_VAL("perf script -F insn", out);
	nop = fixture__count(out, "insn: 0f 1f 44 00 00\n");
	jmp = fixture__count(out, "insn: e9 77 00 00 00\n");
	free(out);
	pr_debug("samples at a site: %d nop5, %d jmp in perf script; model %llu, %llu\n", nop, jmp,
		 (unsigned long long)(n->nr_site_samples - n->nr_site_samples_changed),
		 (unsigned long long)n->nr_site_samples_changed);
	TEST_ASSERT_EQUAL("samples on a jmp", jmp, n->nr_site_samples_changed);
	TEST_ASSERT_EQUAL("samples on a nop5", nop,
			  n->nr_site_samples - n->nr_site_samples_changed);
	/* both states seen, or the comparison proved little */
	TEST_ASSERT_VAL("samples on both states", jmp && nop);
	return TEST_OK;
}

/* the command writes what the function writes, and refuses what it cannot */
static int check_command(const char *dir, const char *path)
{
	static const char *const bad[] = {
	    "small-pokes",	"big-pokes:",	    "big-pokes:1,2",	    "big-pokes:1,2,0",
	    "big-pokes:1,2,3x", "big-pokes:-1,2,3", "big-pokes:1,2,1048577"};
	size_t i;
	char *cmd;
	int status;

	if (asprintf(&cmd,
		     "'%s' test --write-fixture big-pokes:10000,10000,100 '%s/cmd.data' >/dev/null "
		     "&& cmp '%s/data' '%s/cmd.data/data' && "
		     "cmp '%s/kcore_dir/kcore' '%s/cmd.data/kcore_dir/kcore' && "
		     "cmp '%s/kcore_dir/kallsyms' '%s/cmd.data/kcore_dir/kallsyms'",
		     test_self_exe(), dir, path, dir, path, dir, path, dir) < 0)
		return TEST_FAIL;
	status = fixture__run(cmd, NULL, NULL);
	free(cmd);
	TEST_ASSERT_EQUAL("--write-fixture writes the same recording", status, 0);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		char *err = NULL;

		if (asprintf(&cmd, "'%s' test --write-fixture '%s' '%s/bad.data'", test_self_exe(),
			     bad[i], dir) < 0)
			return TEST_FAIL;
		status = fixture__run(cmd, NULL, &err);
		free(cmd);
		pr_debug("--write-fixture %s: %d %s", bad[i], status, err ? err : "");
		TEST_ASSERT_EQUAL("bad --write-fixture exit status", status, 129);
		TEST_ASSERT_VAL("error names the value", err && strstr(err, bad[i]));
		free(err);
	}
	return TEST_OK;
}

static int test__fixture_big_perf(struct test_suite *t)
{
	struct fixture_big_counts n, again;
	char *dir = fixture__tmpdir(), *path = NULL;
	int ret = TEST_FAIL;

	TEST_ASSERT_VAL("tmpdir", dir);
	if (asprintf(&path, "%s/perf.data", dir) < 0)
		goto out;
	if (fixture_big__write(path, &small, &n)) {
		pr_debug("fixture_big__write failed\n");
		goto out;
	}
	/* the generator's own counts, and the same file for the same seed */
	if (n.nr_pokes != small.nr_pokes || n.nr_samples != small.nr_samples ||
	    n.nr_sites_poked != small.nr_sites || n.last_time <= n.first_time)
		goto out;
	if (fixture_big__write(path, &small, &again) || memcmp(&n, &again, sizeof(n)))
		goto out;
	if (check_command(dir, path))
		goto out;
	if (!fixture__have_perf()) {
		test_skip_part(t, "stock perf part: no perf");
	} else if (check_stats(dir, path, &n) || check_profile(dir, path, &n) ||
		   check_insn(dir, path, &n)) {
		goto out;
	}
	ret = test_result(t);
out:
	fixture__remove_dir(dir, "fixture-big");
	free(path);
	free(dir);
	return ret;
}

struct test_suite suite__fixture_big_perf = {
    .desc = "fixture-big: the bench's jump-label storm as stock perf reads it",
    .func = test__fixture_big_perf,
};
