// SPDX-License-Identifier: GPL-2.0-only
/*
 * report --html on a hand-made report, read by two parsers that share
 * nothing with the writer: Python's html.parser over the file as
 * written, and over the DOM that headless Chromium builds and dumps
 * after the inline script ran (tests/report-output/html-check.py).  Every
 * lane and every change of the fixture must be there with the fixture's
 * figures in its data-* attributes, hostile symbol names must read back
 * as the fixture's expected strings and add no element (one <script>,
 * one <svg>).  What is drawn is read from Chromium's screenshot
 * (tests/report-output/timeline-pixels.py, which decodes it with zlib
 * alone): the plot's ends from the time axis, the lanes as the bands
 * above it, then along each lane every change's segment in its colour
 * (the original state's grey, else its kind's, every second changed
 * state at 65%) and each region's life in its type's colour over the x
 * extent the fixture's times give, to within 2 pixels; the colours are
 * the legend's, written in this test.  The tooltip of two changes (the
 * page's #show=ADDR:VERSION link opens it as hovering does) must read
 * symbol, bytes and disassembly as text.  With TEXTPOKE_REPORT_PNG=FILE
 * the screenshot is kept there (the README's).
 *
 * The Chromium commands, in the scratch directory D (no network, no
 * first-run or background work: --disable-quic --no-first-run
 * --disable-background-networking --disable-component-update
 * --disable-sync as well):
 *   chromium --headless --disable-gpu --no-sandbox --user-data-dir=D/chrome
 *            --screenshot=D/shot.png --window-size=1200,800 file://D/report.html
 *   chromium --headless --disable-gpu --no-sandbox --user-data-dir=D/chrome
 *            --dump-dom file://D/report.html > D/dom.html
 *
 * Mutation caught: html__escape() writing '<' as is lets the kprobe's
 * symbol "</svg><script>..." turn its label into a bogus tag; a '"' left
 * as is ends the data-sym attribute early; a lane loop in
 * html__timeline() that stops one short loses the last region;
 * tip.innerHTML for tip.textContent in the script makes the kprobe's
 * tooltip symbol markup.  And, which the screenshot's old "not blank"
 * check let pass: html__site_lane() filling every segment with
 * ORIGINAL_COLOUR (the changes are grey where their kind's colour
 * should be); ".seg{visibility:hidden}" in the style (the track shows
 * where segments should be); a segment's x1 taken 200 us after the next
 * change (the lighter segment after it is darkened where they overlap).
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report-output-fixture.h"
#include "tests.h"

static void attr(FILE *fp, const char *key, const char *value)
{
	fprintf(fp, " %s=", key);
	rof_hex(fp, value);
}

static void attr_u64(FILE *fp, const char *key, u64 v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	attr(fp, key, buf);
}

static void attr_addr(FILE *fp, const char *key, u64 v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "0x%" PRIx64, v);
	attr(fp, key, buf);
}

static const char *const kind_name[] = {"jump_label", "static_call", "ftrace", "kprobe",
					"optprobe",   "trampoline",  "other"};
static const char *const verdict_str[] = {"verified", "pre-applied", "mismatch", "unknown"};

static void expect(FILE *fp, const struct report_output_fixture *f, bool dom)
{
	const struct report_changes *rc = &f->rc;
	size_t s, v, r;

	/* the recording's names made no element of their own */
	fprintf(fp, "tags script 1\ntags svg 1\n");
	fprintf(fp, "count %zu lane\n", rc->nr_sites + rc->nr_regions);
	fprintf(fp, "has note");
	attr_u64(fp, "data-omitted", 0);
	fputc('\n', fp);
	for (s = 0; s < rc->nr_sites; s++) {
		const struct report_site *st = &rc->sites[s];

		fprintf(fp, "has lane");
		attr(fp, "data-type", "site");
		attr_addr(fp, "data-addr", st->addr);
		attr(fp, "data-kind", kind_name[st->kind]);
		attr_u64(fp, "data-changes", st->nr_versions - 1);
		attr(fp, "data-sym", f->site_sym[s]->expected ? f->site_sym[s]->expected : "");
		fputc('\n', fp);
		fprintf(fp, "count %zu seg", st->nr_versions);
		attr_addr(fp, "data-addr", st->addr);
		fputc('\n', fp);
		for (v = 0; v < st->nr_versions; v++) {
			const struct report_version *rv = &st->versions[v];

			fprintf(fp, "has seg");
			attr_addr(fp, "data-addr", st->addr);
			attr_u64(fp, "data-version", v);
			attr(fp, "data-desc", rv->desc);
			attr(fp, "data-bytes", f->bytes_hex[s][v]);
			attr_u64(fp, "data-samples", rv->nr_samples);
			attr(fp, "data-changed", rv->changed ? "yes" : "no");
			if (v) {
				attr_u64(fp, "data-time-ns", rv->time);
				attr(fp, "data-verdict", verdict_str[rv->verdict]);
			}
			fputc('\n', fp);
		}
	}
	/* the lanes' labels: 30 characters, then an ellipsis (by hand for the long one) */
	for (s = 0; s < rc->nr_sites; s++) {
		char addr[32];
		const char *label = f->site_sym[s]->expected;

		snprintf(addr, sizeof(addr), "0x%" PRIx64, rc->sites[s].addr);
		if (s == 3)
			label = "</svg><script>alert(1)</script\xe2\x80\xa6";
		fprintf(fp, "text label ");
		rof_hex(fp, label ? label : addr);
		fputc('\n', fp);
	}
	for (r = 0; r < rc->nr_regions; r++) {
		fprintf(fp, "text label ");
		rof_hex(fp, rc->regions[r].name);
		fputc('\n', fp);
	}
	fprintf(fp, "text bad ");
	rof_hex(fp, rc->consistency.verdict);
	fputc('\n', fp);
	for (r = 0; r < rc->nr_regions; r++) {
		const struct report_region *rg = &rc->regions[r];

		fprintf(fp, "count 1 life");
		attr(fp, "data-name", rg->name);
		attr_addr(fp, "data-addr", rg->addr);
		attr_u64(fp, "data-start-ns", rg->start);
		if (rg->end != UINT64_MAX)
			attr_u64(fp, "data-end-ns", rg->end);
		attr(fp, "data-bytes-known", rg->bytes_known ? "yes" : "no");
		attr_u64(fp, "data-samples", rg->nr_samples);
		fputc('\n', fp);
	}
	/* BPF A and B share an address: each names the other */
	fprintf(fp, "has life");
	attr(fp, "data-name", rc->regions[1].name);
	attr(fp, "data-reused", rc->regions[2].name);
	fputc('\n', fp);
	fprintf(fp, "count %zu row\n", f->hists[0].nr_entries + f->hists[1].nr_entries);
	fprintf(fp, "has hist");
	attr(fp, "data-event", "cycles");
	attr_u64(fp, "data-rows", 4);
	fputc('\n', fp);
	fprintf(fp, "has row");
	attr_u64(fp, "data-period", 250);
	attr_u64(fp, "data-samples", 25);
	fputc('\n', fp);
	fprintf(fp, "has density");
	attr_u64(fp, "data-samples", 160);
	fputc('\n', fp);
	fprintf(fp, "has bin\n");
	if (dom) {
		/* the inline script ran */
		fprintf(fp, "has report");
		attr(fp, "data-ready", "yes");
		fputc('\n', fp);
	}
}

/*
 * What the timeline must show, in the screenshot's pixels: the colours
 * are the legend's, written here by hand (a kind's colour, the original
 * state's grey), the times the fixture's.  The plot spans the changes'
 * first_time to last_time (T .. T + 10 ms): the sample density, from T
 * (its first bin starts before, at a multiple of its width) in bins
 * doubled to 65536 ns until its samples (T .. T + 9.9 ms) fit in 256 of
 * them, ends at its last bin's end, T + 9.97 ms, inside it.
 */
static const char *const kind_rgb[] = {"1f77b4", "9467bd", "2ca02c", "d62728",
				       "ff7f0e", "8c564b", "7f7f7f"};
#define ORIGINAL_RGB "d0d0d0"
#define TRACK_RGB "f6f6f6"

static void pixel_mark(FILE *fp, u64 t1, u64 t2, bool to_end, const char *rgb, int alpha)
{
	if (to_end)
		fprintf(fp, "mark %" PRIu64 " end %s %d\n", t1, rgb, alpha);
	else
		fprintf(fp, "mark %" PRIu64 " %" PRIu64 " %s %d\n", t1, t2, rgb, alpha);
}

static int write_pixels(const char *path, const struct report_output_fixture *f)
{
	const struct report_changes *rc = &f->rc;
	FILE *fp = fopen(path, "w");
	size_t s, v, r;

	if (!fp)
		return -1;
	fprintf(fp, "span %" PRIu64 " %" PRIu64 "\ntrack %s\n", rc->first_time, rc->last_time,
		TRACK_RGB);
	/* sites in address order, then the regions in the order they started */
	for (s = 0; s < rc->nr_sites; s++) {
		const struct report_site *st = &rc->sites[s];
		int state = 0;

		fprintf(fp, "lane site-%#" PRIx64 "\n", st->addr);
		for (v = 0; v < st->nr_versions; v++) {
			const struct report_version *rv = &st->versions[v];
			u64 t1 = v ? rv->time : rc->first_time;
			bool last = v + 1 == st->nr_versions;
			u64 t2 = last ? 0 : st->versions[v + 1].time;

			/*
			 * Code as it was at the start is grey; each changed
			 * state its kind's colour, every second one lighter
			 * (65%), so that two changes in a row are told apart
			 */
			if (!v || !rv->changed)
				pixel_mark(fp, t1, t2, last, ORIGINAL_RGB, 1000);
			else
				pixel_mark(fp, t1, t2, last, kind_rgb[st->kind],
					   ++state % 2 ? 1000 : 650);
		}
	}
	for (r = 0; r < rc->nr_regions; r++) {
		const struct report_region *rg = &rc->regions[r];
		bool alive = rg->end == UINT64_MAX;
		/* BPF programs, OOL regions: the legend's; faint when the bytes are unknown */
		const char *rgb = rg->ksym_type == 1 ? "17becf" : "bcbd22";

		fprintf(fp, "lane region-%s\n", rg->name);
		pixel_mark(fp, rc->first_time, rg->start, false, TRACK_RGB, 1000);
		pixel_mark(fp, rg->start, rg->end, alive, rgb, rg->bytes_known ? 1000 : 350);
		if (!alive)
			pixel_mark(fp, rg->end, 0, true, TRACK_RGB, 1000);
	}
	return fclose(fp) ? -1 : 0;
}

static int write_expected(const char *path, const struct report_output_fixture *f, bool dom)
{
	FILE *fp = fopen(path, "w");

	if (!fp)
		return -1;
	expect(fp, f, dom);
	return fclose(fp) ? -1 : 0;
}

/*
 * The tooltip of a change, as the page's #show=ADDR:VERSION link opens it
 * (what hovering it shows): symbol, bytes and disassembly, as text
 */
static int hover(const char *dir, const char *html, const struct report_output_fixture *f, int s,
		 int v)
{
	const struct report_site *st = &f->sites[s];
	const struct report_version *rv = &st->versions[v];
	char frag[64], exp[512], *text = NULL;
	FILE *fp;
	int ret = -1;

	snprintf(frag, sizeof(frag), "#show=0x%" PRIx64 ":%d", st->addr, v);
	snprintf(exp, sizeof(exp), "%s/hover.expected", dir);
	if (asprintf(&text,
		     "symbol: %s\naddress: 0x%" PRIx64 "\nkind: %s\nversion: %d\ntime: %" PRIu64
		     ".%06" PRIu64 "\nbytes: %s\ndisassembly: %s\nverdict: %s\nsamples: %" PRIu64,
		     f->site_sym[s]->expected, st->addr, kind_name[st->kind], v,
		     rv->time / 1000000000, rv->time % 1000000000 / 1000, f->bytes_hex[s][v],
		     rv->desc, verdict_str[rv->verdict], rv->nr_samples) < 0)
		return -1;
	fp = fopen(exp, "w");
	if (!fp)
		goto out;
	fprintf(fp, "text tip ");
	rof_hex(fp, text);
	fputc('\n', fp);
	if (fclose(fp))
		goto out;
	ret = rof_chromium_dom(dir, html, frag, exp);
	if (ret)
		pr_debug("the tooltip of %s is not\n%s\n", frag, text);
out:
	free(text);
	return ret;
}

static int test__report_output_html(struct test_suite *t)
{
	struct report_output_fixture *f = malloc(sizeof(*f));
	char *dir = rof_scratch__new();
	char html[512], exp[512], pixels[512];
	int ret = TEST_FAIL, err;
	FILE *fp;

	if (!f || !dir)
		goto out;
	if (system("python3 -c 'import html.parser' >/dev/null 2>&1")) {
		test_skip(t, "python3 (the HTML oracle) is not installed");
		ret = TEST_SKIP;
		goto out;
	}
	report_output_fixture__init(f);
	snprintf(html, sizeof(html), "%s/report.html", dir);
	snprintf(exp, sizeof(exp), "%s/file.expected", dir);
	snprintf(pixels, sizeof(pixels), "%s/pixels.expected", dir);
	fp = fopen(html, "w");
	if (!fp)
		goto out;
	err = report_output__html(&f->ro, fp);
	if (fclose(fp) || err)
		goto out;
	if (write_expected(exp, f, false) || rof_check("html-check.py", html, exp)) {
		pr_debug("the HTML file lacks lanes or changes\n");
		goto out;
	}
	if (system("command -v chromium >/dev/null 2>&1"))
		test_skip_part(t, "Chromium part: chromium is not installed (make test-deps)");
	else if (write_expected(exp, f, true) || write_pixels(pixels, f) ||
		 rof_chromium(dir, html, exp, NULL, pixels, getenv("TEXTPOKE_REPORT_PNG")) ||
		 hover(dir, html, f, 0, 1) || hover(dir, html, f, 3, 1))
		goto out;
	ret = test_result(t);
out:
	rof_scratch__remove(dir);
	free(f);
	return ret;
}

struct test_suite suite__report_output_html = {
    .desc =
	"report --html: every lane and change in Chromium's DOM, drawn in its colour at its times",
    .func = test__report_output_html,
};
