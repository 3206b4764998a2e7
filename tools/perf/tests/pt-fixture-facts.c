// SPDX-License-Identifier: GPL-2.0-only
/*
 * What stock perf 6.1 insists on in an Intel PT recording, the "facts" of
 * issue 13, each shown on the pt-start fixture with one departure from
 * what perf record writes (enum fixture_pt_quirks):
 *
 *   as written             perf's instructions are the truth's
 *   priv[PMU_TYPE] wrong   no instruction at all; only -v says why
 *   cap_user_time_zero 0,  "timeless" decoding: samples without time, all
 *   config without the     side-band first, so every poke applies to the
 *   TSC bit, or a side-    whole trace and the instructions differ from
 *   band event without     the truth's
 *   PERF_SAMPLE_TIME
 *   kernel pgoff 0         (does not matter here: the instructions are
 *                          the truth's, the map comes from kcore_dir)
 *
 * Mutation caught: fp__auxtrace_info() setting priv[CAP_USER_TIME_ZERO]
 * to 0 whatever the quirks: the first case fails.
 */
#include <stdlib.h>
#include <string.h>

#include "tests.h"
#include "fixture.h"
#include "fixture-pt.h"

/*
 * perf script --itrace=i1i -F cpu,ip lines, "[001]  ffffffff81000100",
 * against the truth: 1 when each CPU's instructions are the truth's, in
 * order, 0 when not, 2 when there are none, -1 when the output has other
 * lines
 */
static int same_insns(const struct fixture_pt *fp, const char *out)
{
	u64 pos[FP_NR_CPUS] = {0}, n = 0, i;
	const char *line = out;
	bool same = true;

	while (line && *line) {
		unsigned long long ip;
		unsigned int cpu;

		if (sscanf(line, " [%u] %llx", &cpu, &ip) != 2 || cpu >= FP_NR_CPUS)
			return -1;
		/* the next instruction of this CPU in the truth */
		for (i = pos[cpu]; i < fp->nr_insns && fp->insns[i].cpu != cpu; i++)
			;
		if (i == fp->nr_insns || fp->insns[i].ip != ip)
			same = false;
		pos[cpu] = i + 1;
		n++;
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	if (!n)
		return 2;
	return same && n == fp->nr_insns;
}

struct pt_fact {
	const char *what;
	unsigned int quirks;
	int same;	       /* what same_insns() says */
	const char *needs_v;   /* perf -v says this on stderr */
	const char *with_time; /* -F cpu,time,ip: stderr says this */
};

static int pt_fact__check(const struct pt_fact *f, const char *home)
{
	struct fixture_pt_opts o = {.kcore = FP_KCORE_START, .quirks = f->quirks};
	struct fixture_pt *fp = fixture_pt__new(&o);
	char *cmd = NULL, *out = NULL, *err = NULL;
	int ret = -1, st, same;

	if (!fp)
		return -1;
	if (asprintf(&cmd, "HOME='%s' perf script -i '%s' --itrace=i1i -F cpu,ip", home, fp->path) <
	    0)
		goto out;
	st = fixture__run(cmd, &out, &err);
	same = st ? -1 : same_insns(fp, out);
	pr_debug("%s: exit %d, %s\n", f->what, st,
		 same < 0  ? "other output" :
		 same == 2 ? "no instructions" :
		 same == 1 ? "the truth's instructions" :
			     "not the truth's");
	if (same != f->same)
		goto out;
	if (f->needs_v) {
		free(cmd);
		free(out);
		free(err);
		out = err = NULL;
		if (asprintf(&cmd, "HOME='%s' perf script -v -i '%s' --itrace=i1i -F cpu,ip", home,
			     fp->path) < 0)
			goto out;
		fixture__run(cmd, &out, &err);
		if (!err || !strstr(err, f->needs_v)) {
			pr_debug("%s: perf -v does not say '%s'\n", f->what, f->needs_v);
			goto out;
		}
	}
	free(cmd);
	free(out);
	free(err);
	out = err = NULL;
	if (asprintf(&cmd, "HOME='%s' perf script -i '%s' --itrace=i1i -F cpu,time,ip", home,
		     fp->path) < 0)
		goto out;
	st = fixture__run(cmd, &out, &err);
	/* timed decoding: a time on every line; timeless: perf refuses the field */
	if (f->with_time ? !err || !strstr(err, f->with_time) :
			   f->same == 1 && (st != 0 || !out || !*out)) {
		pr_debug("%s: -F cpu,time,ip: exit %d, %s\n", f->what, st, err ? err : "");
		goto out;
	}
	ret = 0;
out:
	free(cmd);
	free(out);
	free(err);
	fixture_pt__delete(fp);
	return ret;
}

static int test__pt_fixture_facts(struct test_suite *t)
{
	static const char timeless[] = "do not have TIME attribute set";
	static const struct pt_fact facts[] = {
	    {"as perf record writes it", 0, 1, NULL, NULL},
	    {"priv[PMU_TYPE] not the attr's type", FP_QUIRK_WRONG_PMU_TYPE, 2,
	     "There are no selected events with Intel Processor Trace data", NULL},
	    {"cap_user_time_zero 0", FP_QUIRK_NO_TIME_ZERO, 0, NULL, timeless},
	    {"config without the TSC bit", FP_QUIRK_NO_TSC_CONFIG, 0, NULL, timeless},
	    {"side-band event without PERF_SAMPLE_TIME", FP_QUIRK_DUMMY_NO_TIME, 0, NULL, timeless},
	    {"kernel MMAP2 pgoff 0", FP_QUIRK_PGOFF_ZERO, 1, NULL, NULL},
	};
	char *home;
	size_t i;
	int ret = TEST_OK;

#ifndef HAVE_LIBIPT
	test_skip(t, "built without libipt");
	return TEST_SKIP;
#endif
	if (!fixture__have_perf()) {
		test_skip(t, "stock perf is not installed");
		return TEST_SKIP;
	}
	home = fixture__tmpdir();
	TEST_ASSERT_VAL("home", home);
	for (i = 0; i < ARRAY_SIZE(facts); i++) {
		if (pt_fact__check(&facts[i], home)) {
			pr_debug("FAILED: %s\n", facts[i].what);
			ret = TEST_FAIL;
		}
	}
	fixture__remove_dir(home, "pt-fixture-facts");
	free(home);
	return ret;
}

struct test_suite suite__pt_fixture_facts = {
    .desc = "pt-fixture: what stock perf insists on in an Intel PT recording (issue 13's facts)",
    .func = test__pt_fixture_facts,
};
