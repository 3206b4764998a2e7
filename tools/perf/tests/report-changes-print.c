// SPDX-License-Identifier: GPL-2.0-only
/*
 * The code-change report as text: its title and summary, one row per site
 * with its versions, columns aligned under their heads, the regions, the
 * verdict line; and the compact form, where only the top sites, groups
 * and regions are listed and the rest are counted.  Expected figures come
 * from the fixture kernel's time line (fixture-kernel.h): 6 sites poked
 * 3, 3, 2, 2, 2 and 2 times; samples per site from the model's list.
 *
 * Mutation caught: print_sites() summing the rest from 0 instead of from
 *   max (the "and 4 more sites" line counts every site).
 * Mutation caught: the site row's kind column one character wider than
 *   its head ("%-12s").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests.h"
#include "fixture-kernel.h"
#include "../util/report-changes.h"
#include "../util/text-image.h"

static char *print(const struct report_changes *rc, const struct report_changes_print_opts *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	if (!fp)
		return NULL;
	if (o)
		report_changes__fprintf_opts(rc, fp, o);
	else
		report_changes__fprintf(rc, fp);
	fclose(fp);
	return buf;
}

/* the model's samples at [addr, addr + len) */
static unsigned long long samples_at(const struct fixture_kernel *fk, u64 addr, u32 len)
{
	unsigned long long n = 0;
	int i;

	for (i = 0; i < fk->nr_samples; i++)
		n += fk->samples[i].ip >= addr && fk->samples[i].ip < addr + len;
	return n;
}

static int check_full(const struct fixture_kernel *fk, const char *out)
{
	char want[256], kind[32], first[32], last[32], sym[64];
	unsigned long long addr, changes, samples, changed;
	const char *head, *row, *line;
	int kind_col, nr_rows = 0;

	TEST_ASSERT_VAL("title", !strncmp(out, "# Kernel code changes\n#\n", 24));
	snprintf(want, sizeof(want),
		 "# 1.%09llu .. 1.%09llu (%llu ns): 6 sites changed 14 times, 3 regions\n",
		 fk->samples[0].time - FK_T0 + 0ULL,
		 fk->samples[fk->nr_samples - 1].time - FK_T0 + 0ULL,
		 fk->samples[fk->nr_samples - 1].time - fk->samples[0].time + 0ULL);
	TEST_ASSERT_VAL("summary", strstr(out, want));
	head = strstr(out, "\n#          address  kind ");
	TEST_ASSERT_VAL("site heads", head);
	kind_col = strstr(head + 1, "kind") - (head + 1);
	/* every site row: its kind under the head, its figures the fixture's */
	for (line = strchr(head + 1, '\n') + 1; *line && *line != '\n';
	     line = strchr(line, '\n') + 1) {
		if (line[0] == '#' || line[2] == ' ')
			continue;
		TEST_ASSERT_VAL("row",
				sscanf(line, "%llx %31s %llu %31s %31s %llu %llu %63s", &addr, kind,
				       &changes, first, last, &samples, &changed, sym) == 8);
		TEST_ASSERT_VAL("kind column", !strncmp(line + kind_col, kind, strlen(kind)));
		TEST_ASSERT_EQUAL("samples of the site", samples,
				  samples_at(fk, addr, addr == FK_TRAMP ? FK_TRAMP_BODY : 5));
		nr_rows++;
	}
	TEST_ASSERT_EQUAL("site rows", nr_rows, 6);
	row = strstr(out, "\n  ffffffff81000104  jump_label         3 ");
	TEST_ASSERT_VAL("jump label row", row);
	TEST_ASSERT_VAL("jump label first change", strstr(row, " 1.000002000 "));
	TEST_ASSERT_VAL("jump label last change", strstr(row, " 1.000006000 "));
	TEST_ASSERT_VAL("no rest of sites", !strstr(out, "more sites"));
	TEST_ASSERT_VAL("regions",
			strstr(out, "\n# Regions: 3, 2 sharing an address with another\n"));
	/* region 2: the second BPF program, alive at the end, at the first one's address */
	TEST_ASSERT_VAL("the second BPF program",
			strstr(out, "\n       2  bpf     ffffffffc0002000        48 "));
	TEST_ASSERT_VAL("alive at the end", strstr(out, " alive "));
	TEST_ASSERT_VAL("reused", strstr(out, "  known         1  " FK_BPF_B_NAME "  (also 1)\n"));
	TEST_ASSERT_VAL(
	    "verdict",
	    strstr(out, "\n#   verdict: trusted: 13 of 14 pokes verified, 0 pre-applied\n"));
	return TEST_OK;
}

static int check_compact(const struct fixture_kernel *fk, const char *out)
{
	/* the two jump labels have the most samples; the other four sites are the rest */
	unsigned long long rest =
	    samples_at(fk, FK_SCALL_SITE, 5) + samples_at(fk, FK_FTRACE_SITE, 5) +
	    samples_at(fk, FK_KPROBE_SITE, 1) + samples_at(fk, FK_TRAMP, FK_TRAMP_BODY);
	char want[128];

	snprintf(want, sizeof(want), "\n# and 4 more sites: 8 changes, %llu samples\n", rest);
	TEST_ASSERT_VAL("rest of the sites", strstr(out, want));
	/* each of the four changed once and back: one sample on changed code each */
	snprintf(want, sizeof(want),
		 "\n# and 4 more groups: 4 sites, 8 changes, %llu samples, 4 on changed code\n",
		 rest);
	TEST_ASSERT_VAL("rest of the groups", strstr(out, want));
	TEST_ASSERT_VAL("top sites", strstr(out, "\n  ffffffff81000104  jump_label ") &&
					 strstr(out, "\n  ffffffff81000204  jump_label ") &&
					 !strstr(out, "\n  ffffffff81000304  "));
	/* regions alike: the two BPF programs share an address, the trampoline is the rest */
	TEST_ASSERT_VAL("rest of the regions", strstr(out, "\n# and 1 more regions: 1 samples\n"));
	return TEST_OK;
}

static int test__report_changes_print(struct test_suite *t)
{
	struct report_changes_print_opts compact = {.max_sites = 2, .max_groups = 2};
	struct fixture_kernel *fk = fixture_kernel__new(0);
	struct report_changes *rc = NULL;
	struct text_image *ti = NULL;
	char *full = NULL, *small = NULL;
	int i, ret = TEST_FAIL;

	TEST_ASSERT_VAL("fixture", fk);
	ti = text_image__load(fk->path, NULL);
	rc = ti ? report_changes__new(ti, text_image__machine(ti)) : NULL;
	if (!rc)
		goto out;
	for (i = 0; i < fk->nr_samples; i++)
		report_changes__sample(rc, fk->samples[i].ip, PERF_RECORD_MISC_KERNEL,
				       fk->samples[i].time);
	if (report_changes__finish(rc, 0, 0, 0))
		goto out;
	full = print(rc, NULL);
	small = print(rc, &compact);
	if (!full || !small)
		goto out;
	pr_debug("%s\n%s", full, small);
	if (check_full(fk, full) || check_compact(fk, small))
		goto out;
	ret = TEST_OK;
out:
	free(full);
	free(small);
	report_changes__delete(rc);
	text_image__delete(ti);
	fixture_kernel__delete(fk);
	return ret;
}

struct test_suite suite__report_changes_print = {
    .desc = "report changes: text output, columns and the compact form",
    .func = test__report_changes_print,
};
