// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf textpoke annotate --html: one self-contained page (inline style,
 * no script, nothing fetched) that a browser opens as is.  Each event is
 * a heading, each symbol a <details> element (open; a click on its
 * summary folds it) holding a table of its instructions: share, samples,
 * address, bytes with --asm-raw, text.  A line with samples has a red
 * background, the hotter the redder, as perf's TUI marks hot lines:
 * rgb(255, c, c) with c = 255 - round(200 * sqrt(percent / 100)), the
 * square root so that a line of 1% is still seen beside one of 50%.
 * Every line carries its figures in data-* attributes, for a reader of
 * the DOM.  Everything taken from the recording is escaped.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#include "annotate-internal.h"
#include "disasm.h"
#include "dso.h"
#include "report-output.h"
#include "symbol.h"

struct annotate_html {
	int evsel_idx; /* of the event whose section is open, -1: none */
};

static void annotate_html__text(FILE *fp, const char *s)
{
	report_output__html_escape(fp, s, 0);
}

static void annotate_html__end_event(FILE *fp, struct annotate_html *ah)
{
	if (ah->evsel_idx < 0)
		return;
	fputs("</section>\n", fp);
	ah->evsel_idx = -1;
}

/* the background of a line with @percent of the samples, see the comment above */
static int annotate_html__shade(double percent)
{
	if (percent <= 0)
		return 255;
	if (percent > 100)
		percent = 100;
	return 255 - (int)lround(200 * sqrt(percent / 100));
}

static int annotate_html__sym(struct annotate_output *out, const struct annotate_sym *as,
			      const struct annotate_totals *totals, struct dso_data *dd)
{
	const struct annotate_opts *opts = out->opts;
	struct annotate_html *ah = out->priv;
	struct annotate_code code;
	FILE *fp = out->fp;
	u64 off;
	int err, i;

	if (!disasm__available())
		return -EOPNOTSUPP;
	err = annotate_code__read(&code, dd, as->dso, as->sym);
	if (err)
		return err;
	if (as->evsel_idx != ah->evsel_idx) {
		annotate_html__end_event(fp, ah);
		fputs("<section class=\"event\" data-event=\"", fp);
		annotate_html__text(fp, as->evsel_name);
		fputs("\"><h2>", fp);
		annotate_html__text(fp, as->evsel_name);
		fprintf(fp, " (%" PRIu64 " samples)</h2>\n", totals->nr_samples);
		ah->evsel_idx = as->evsel_idx;
	}
	fputs("<details class=\"sym\" open data-symbol=\"", fp);
	annotate_html__text(fp, symbol__name(as->sym));
	fputs("\" data-object=\"", fp);
	annotate_html__text(fp, as->dso->name);
	fprintf(fp,
		"\" data-start=\"0x%" PRIx64 "\" data-end=\"0x%" PRIx64 "\" data-samples=\"%" PRIu64
		"\" data-period=\"%" PRIu64 "\">\n<summary>",
		code.vaddr, code.vaddr + code.len, as->nr_samples, as->period);
	annotate_html__text(fp, symbol__name(as->sym));
	fputs(" &mdash; ", fp);
	annotate_html__text(fp, as->dso->short_name);
	fprintf(fp, " (%" PRIu64 " samples, percent: %s)</summary>\n", as->nr_samples,
		annotate_percent__title(opts->percent_type));
	fprintf(fp,
		"<table><thead><tr><th class=\"n\">Percent</th><th class=\"n\">Samples</th>"
		"<th class=\"a\">Address</th>%s<th>Instruction</th></tr></thead><tbody>\n",
		opts->asm_raw ? "<th>Bytes</th>" : "");
	for (off = 0; off < code.len;) {
		struct annotate_insn insn;
		double pct;
		int c;

		err = annotate_code__insn(&code, as, off, &insn);
		if (err)
			break;
		pct = annotate_sym__percent(as, totals, opts->percent_type, insn.nr, insn.period);
		c = annotate_html__shade(pct);
		fprintf(fp,
			"<tr class=\"insn\" data-addr=\"0x%" PRIx64 "\" data-offset=\"%" PRIu64
			"\" data-samples=\"%" PRIu64 "\" data-period=\"%" PRIu64
			"\" data-percent=\"%.6f\"",
			insn.addr, insn.offset, insn.nr, insn.period, pct);
		if (c < 255)
			fprintf(fp, " style=\"background:rgb(255,%d,%d)\"", c, c);
		fprintf(fp,
			"><td class=\"n\">%.2f</td><td class=\"n\">%" PRIu64
			"</td><td class=\"a\">%" PRIx64 "</td>",
			pct, insn.nr, insn.addr);
		if (opts->asm_raw) {
			fputs("<td>", fp);
			for (i = 0; i < insn.len; i++)
				fprintf(fp, "%s%02x", i ? " " : "", code.bytes[off + i]);
			fputs("</td>", fp);
		}
		fputs("<td>", fp);
		annotate_html__text(fp, insn.text);
		fputs("</td></tr>\n", fp);
		off += insn.len;
	}
	fputs("</tbody></table>\n</details>\n", fp);
	annotate_code__exit(&code);
	return err;
}

static int annotate_html__end(struct annotate_output *out)
{
	annotate_html__end_event(out->fp, out->priv);
	fputs("</body>\n</html>\n", out->fp);
	return 0;
}

static void annotate_html__free(struct annotate_output *out)
{
	free(out->priv);
	out->priv = NULL;
}

int annotate_output__html(struct annotate_output *out, const struct annotate_opts *opts, FILE *fp)
{
	struct annotate_html *ah = calloc(1, sizeof(*ah));

	if (!ah)
		return -ENOMEM;
	ah->evsel_idx = -1;
	out->sym = annotate_html__sym;
	out->end = annotate_html__end;
	out->free = annotate_html__free;
	out->opts = opts;
	out->fp = fp;
	out->priv = ah;
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<title>perf textpoke annotate: ",
	      fp);
	annotate_html__text(fp, opts->input);
	fputs("</title>\n<style>\n"
	      "body { font: 13px/1.5 monospace; margin: 8px; color: #000; background: #fff; }\n"
	      "h1 { font-size: 16px; margin: 4px 0; }\n"
	      "h2 { font-size: 14px; margin: 12px 0 4px; }\n"
	      "details { margin: 4px 0; border: 1px solid #bbb; }\n"
	      "summary { cursor: pointer; padding: 2px 6px; background: #e8e8f4; }\n"
	      "table { border-collapse: collapse; width: 100%; }\n"
	      "th { text-align: left; font-weight: normal; background: #f0f0f0; }\n"
	      "td, th { padding: 0 10px; white-space: pre; }\n"
	      "td.n, th.n { text-align: right; width: 6em; }\n"
	      "td.a, th.a { width: 10em; }\n"
	      "</style>\n</head>\n<body>\n<h1>perf textpoke annotate</h1>\n<p>",
	      fp);
	annotate_html__text(fp, opts->input);
	fprintf(fp, ", percent: %s</p>\n", annotate_percent__title(opts->percent_type));
	return 0;
}
