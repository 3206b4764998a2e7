// SPDX-License-Identifier: GPL-2.0-only
/*
 * report --html at 10^4 sites: the busiest REPORT_HTML_MAX_LANES lanes are
 * drawn, the rest counted as omitted, and a site changed 10^5 times
 * merges changes closer than the drawing's resolution, so the file stays
 * small and a browser opens it (headless Chromium's DOM has the lanes).  Site i has i samples on changed code,
 * site 0 has 10^5 changes: the drawn ones are site 0 and the 399 highest
 * (9601..9999), worked out from the fixture, not from the writer.
 *
 * Mutation caught: html__lanes() keeping every lane (no cap) draws
 * 10^4 lanes; ranking by index instead of score (lane__cmp_score()
 * returning the order comparison) draws sites 1..399 instead.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "report-output-fixture.h"
#include "tests.h"

#define NR_SITES 10000
#define NR_BUSY 100001 /* versions of site 0 */
#define SITE_ADDR(i) (0xffffffff81000000ULL + 0x10 * (i))

static void lane_line(FILE *fp, const char *op, size_t i)
{
	char addr[32];

	snprintf(addr, sizeof(addr), "0x%" PRIx64, (u64)SITE_ADDR(i));
	fprintf(fp, "%s lane data-addr=", op);
	rof_hex(fp, addr);
	fputc('\n', fp);
}

static int test__report_output_lanes(struct test_suite *t)
{
	struct report_site *sites = calloc(NR_SITES, sizeof(*sites));
	struct report_version *busy = calloc(NR_BUSY, sizeof(*busy));
	struct report_version *pairs = calloc(2 * NR_SITES, sizeof(*pairs));
	struct report_changes rc = {0};
	struct report_output ro = {0};
	char *dir = rof_scratch__new(), path[512], exp[512], script[512], *cmd = NULL;
	const u64 T = 1000000000ULL;
	int ret = TEST_FAIL, err;
	struct stat st;
	size_t i;
	FILE *fp;

	if (!sites || !busy || !pairs || !dir)
		goto out;
	if (system("python3 -c 'import html.parser' >/dev/null 2>&1")) {
		test_skip(t, "python3 (the HTML oracle) is not installed");
		ret = TEST_SKIP;
		goto out;
	}
	for (i = 0; i < NR_SITES; i++) {
		struct report_version *v = &pairs[2 * i];

		v[0].desc = "nop5";
		v[1].desc = "jmp x";
		v[1].time = T + 1000 + i;
		sites[i] = (struct report_site){
		    .addr = SITE_ADDR(i),
		    .len = 5,
		    .kind = REPORT_KIND_JUMP_LABEL,
		    .nr_versions = 2,
		    .versions = v,
		    .first_change = v[1].time,
		    .last_change = v[1].time,
		    .nr_samples_changed = i,
		};
	}
	for (i = 0; i < NR_BUSY; i++) {
		busy[i].desc = i % 2 ? "jmp x" : "nop5";
		busy[i].time = i ? T + 10 * i : 0;
	}
	sites[0].nr_versions = NR_BUSY;
	sites[0].versions = busy;
	rc.first_time = T;
	rc.last_time = T + 10 * NR_BUSY;
	rc.nr_sites = NR_SITES;
	rc.sites = sites;
	rc.consistency.verdict = "fine";
	ro.changes = &rc;
	ro.input = "big.data";

	snprintf(path, sizeof(path), "%s/report.html", dir);
	fp = fopen(path, "w");
	if (!fp)
		goto out;
	err = report_output__html(&ro, fp);
	if (fclose(fp) || err)
		goto out;
	/* 400 lanes of about a hundred marks each: a few MB, not 10^5 marks */
	if (stat(path, &st) || st.st_size > 8 << 20) {
		pr_debug("%s: %lld bytes\n", path, (long long)st.st_size);
		goto out;
	}
	snprintf(exp, sizeof(exp), "%s/expected", dir);
	fp = fopen(exp, "w");
	if (!fp)
		goto out;
	fprintf(fp, "count %d lane\n", REPORT_HTML_MAX_LANES);
	fprintf(fp, "has note data-omitted=");
	snprintf(script, sizeof(script), "%d", NR_SITES - REPORT_HTML_MAX_LANES);
	rof_hex(fp, script);
	fputc('\n', fp);
	lane_line(fp, "has", 0);
	lane_line(fp, "has", NR_SITES - REPORT_HTML_MAX_LANES + 1);
	lane_line(fp, "has", NR_SITES - 1);
	lane_line(fp, "count 0", NR_SITES - REPORT_HTML_MAX_LANES);
	lane_line(fp, "count 0", 1);
	/* site 0: at most one mark per resolution step across the plot, far below 10^5 */
	fprintf(fp, "max 2300 seg data-addr=");
	rof_hex(fp, "0xffffffff81000000");
	fputc('\n', fp);
	if (fclose(fp))
		goto out;
	if (asprintf(&cmd, "python3 '%s' '%s' '%s'",
		     rof_script("html-check.py", script, sizeof(script)), path, exp) < 0 ||
	    rof_run(cmd))
		goto out;
	if (system("command -v chromium >/dev/null 2>&1")) {
		test_skip_part(t, "Chromium part: chromium is not installed (make test-deps)");
	} else {
		/* the same lanes in the DOM a browser built from the file */
		free(cmd);
		if (asprintf(&cmd,
			     "timeout 50 chromium --headless --disable-gpu --no-sandbox "
			     "--user-data-dir='%s/chrome' --dump-dom 'file://%s' >'%s/dom.html' "
			     "2>/dev/null && python3 '%s' '%s/dom.html' '%s'",
			     dir, path, dir, script, dir, exp) < 0 ||
		    rof_run(cmd))
			goto out;
	}
	ret = test_result(t);
out:
	free(cmd);
	rof_scratch__remove(dir);
	free(sites);
	free(busy);
	free(pairs);
	return ret;
}

struct test_suite suite__report_output_lanes = {
    .desc = "report --html: 10^4 sites, the busiest lanes drawn, the rest counted",
    .func = test__report_output_lanes,
};
