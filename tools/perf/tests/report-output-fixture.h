/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_TESTS_REPORT_OUTPUT_FIXTURE_H
#define __PERF_TEXTPOKE_TESTS_REPORT_OUTPUT_FIXTURE_H

#include <stdio.h>

#include "../util/report-output.h"

/*
 * A hand-made report for the --json and --html tests: two events, six
 * poked sites of every kind (one without bytes, one without a symbol),
 * three regions (two BPF programs at one address, an OOL region whose
 * bytes were not captured), a consistency part that is not trusted, a
 * sample density.  Strings from a "recording" are hostile on purpose:
 * quotes, markup, control characters, U+2028, bytes that are not UTF-8.
 * Each such string has its expected reading beside it (invalid bytes as
 * U+FFFD), written by hand, not by the code under test.
 */
#define ROF_T 5000000000ULL /* 5.000000 s */

struct rof_string {
	const char *raw;      /* as the recording has it */
	const char *expected; /* as a parser must read it back */
};

struct report_output_fixture {
	struct report_output ro;
	struct report_hist hists[2];
	struct hist_entry entries0[4], entries1[1];
	struct report_abi_count abi0[2];
	struct report_changes rc;
	struct report_site sites[6];
	struct report_version versions[6][4];
	struct report_region regions[3];
	size_t reused[2];
	struct report_density density;
	/* expected readings of hist 0's comm/sym and the sites' symbols */
	const struct rof_string *comm[4], *sym[4], *site_sym[6];
	/* the bytes of each version, as hex text "0f 1f 44 00 00" ("" unknown) */
	const char *bytes_hex[6][4];
};

void report_output_fixture__init(struct report_output_fixture *f);

/* a scratch directory under /tmp, removed by __remove() (kept with ROF_KEEP=1); NULL on failure */
char *rof_scratch__new(void);
void rof_scratch__remove(char *dir);
/* runs @cmd through the shell; its exit status, -1 when it could not run */
int rof_run(const char *cmd);
/* the hex of a string's bytes, for the checker scripts' expected lines */
void rof_hex(FILE *fp, const char *s);
/* the path of a checker script in tools/perf/tests/report-output/ */
const char *rof_script(const char *name, char *buf, size_t size);

/* python3 tests/report-output/@script @doc @expected: its exit status */
int rof_check(const char *script, const char *doc, const char *expected);
/* Chromium's DOM of file://@html@fragment (@fragment may be NULL) checked against @expected */
int rof_chromium_dom(const char *dir, const char *html, const char *fragment, const char *expected);
/*
 * Headless Chromium on @html: its DOM (after the script ran) checked by
 * html-check.py against @expected_dom; its 1200x800 screenshot checked
 * by timeline-pixels.py against @pixels (each lane's marks in their
 * colours over their times' x extent), or with @pixels NULL decoded by
 * png-stats.py and refused when blank; kept as @keep unless NULL.
 * @shot_fragment (or NULL) ends the screenshot's URL: #show=ADDR:VERSION.
 * Scratch files in @dir.  0, or -1 with the reason at -v.
 */
int rof_chromium(const char *dir, const char *html, const char *expected_dom,
		 const char *shot_fragment, const char *pixels, const char *keep);

#endif /* __PERF_TEXTPOKE_TESTS_REPORT_OUTPUT_FIXTURE_H */
