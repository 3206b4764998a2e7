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
 *
 * A kernel symbol's version (or a BPF program's load) is its own
 * <details>, the text's title line under its summary and the version's
 * figures in data-version-* attributes; an Intel PT trace's block lists
 * the codes the trace ran, each row with its taken count and which of
 * the codes run at its address it is (data-taken, data-code, data-codes).
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

/* the event's section, opened at its first symbol */
static void annotate_html__event(struct annotate_output *out, const struct annotate_sym *as,
				 const struct annotate_totals *totals)
{
	struct annotate_html *ah = out->priv;
	FILE *fp = out->fp;

	if (as->evsel_idx == ah->evsel_idx)
		return;
	annotate_html__end_event(fp, ah);
	fputs("<section class=\"event\" data-event=\"", fp);
	annotate_html__text(fp, as->evsel_name);
	fputs("\"><h2>", fp);
	annotate_html__text(fp, as->evsel_name);
	fprintf(fp, " (%" PRIu64 " samples)</h2>\n", totals->nr_samples);
	ah->evsel_idx = as->evsel_idx;
}

/* "-" for an open end of a span */
static void annotate_html__time(FILE *fp, const char *key, u64 t)
{
	if (t == 0 || t == UINT64_MAX)
		fprintf(fp, " %s=\"-\"", key);
	else
		fprintf(fp, " %s=\"%" PRIu64 "\"", key, t);
}

/*
 * A block's <details> and summary, up to its table's first row: @ver's
 * title under the summary, @what the figures' words ("samples")
 */
static void annotate_html__block(struct annotate_output *out, const struct annotate_sym *as,
				 const struct annotate_totals *totals, u64 start, u64 end,
				 const struct annotate_version *ver, const char *what, u64 count,
				 bool trace)
{
	const struct annotate_opts *opts = out->opts;
	FILE *fp = out->fp;
	char title[512];

	annotate_html__event(out, as, totals);
	fprintf(fp, "<details class=\"sym%s\" open data-symbol=\"", trace ? " trace" : "");
	annotate_html__text(fp, symbol__name(as->sym));
	fputs("\" data-object=\"", fp);
	annotate_html__text(fp, as->dso->name);
	fprintf(fp,
		"\" data-start=\"0x%" PRIx64 "\" data-end=\"0x%" PRIx64 "\" data-samples=\"%" PRIu64
		"\" data-period=\"%" PRIu64 "\"",
		start, end, as->nr_samples, as->period);
	if (ver) {
		fprintf(fp, " data-version=\"%zu\" data-versions=\"%zu\"", ver->index, ver->count);
		annotate_html__time(fp, "data-version-start", ver->start);
		annotate_html__time(fp, "data-version-end", ver->end);
		if (ver->bpf)
			fprintf(fp, " data-bpf-id=\"%u\"", ver->bpf_id);
		else if (ver->index)
			fprintf(fp,
				" data-poke-time=\"%" PRIu64 "\" data-poke-addr=\"0x%" PRIx64 "\"",
				ver->poke.time, ver->poke.addr);
	}
	fputs(">\n<summary>", fp);
	annotate_html__text(fp, symbol__name(as->sym));
	fputs(" &mdash; ", fp);
	annotate_html__text(fp, as->dso->short_name);
	if (ver && !ver->bpf)
		fprintf(fp, ", version %zu of %zu", ver->index + 1, ver->count);
	fprintf(fp, " (%" PRIu64 " %s, percent: %s)</summary>\n", count, what,
		annotate_percent__title(opts->percent_type));
	if (ver) {
		/* the text's title line, its "# " dropped */
		annotate_version__title(ver, symbol__name(as->sym), title, sizeof(title));
		fputs("<p class=\"version\">", fp);
		annotate_html__text(fp, title + 2);
		fputs("</p>\n", fp);
	}
	fprintf(fp,
		"<table><thead><tr><th class=\"n\">Percent</th><th class=\"n\">%s</th>"
		"<th class=\"a\">Address</th>%s<th>Instruction</th>%s</tr></thead><tbody>\n",
		trace ? "Count" : "Samples", opts->asm_raw ? "<th>Bytes</th>" : "",
		trace ? "<th>Trace</th>" : "");
}

/* a row's start, its figures, address and bytes */
static void annotate_html__row(struct annotate_output *out, u64 addr, u64 offset, u64 nr,
			       u64 period, double pct, const u8 *bytes, int len)
{
	FILE *fp = out->fp;
	int c = annotate_html__shade(pct), i;

	fprintf(fp,
		"<tr class=\"insn\" data-addr=\"0x%" PRIx64 "\" data-offset=\"%" PRIu64
		"\" data-samples=\"%" PRIu64 "\" data-period=\"%" PRIu64 "\" data-percent=\"%.6f\"",
		addr, offset, nr, period, pct);
	if (c < 255)
		fprintf(fp, " style=\"background:rgb(255,%d,%d)\"", c, c);
	fprintf(fp,
		"><td class=\"n\">%.2f</td><td class=\"n\">%" PRIu64 "</td><td class=\"a\">%" PRIx64
		"</td>",
		pct, nr, addr);
	if (out->opts->asm_raw) {
		fputs("<td>", fp);
		for (i = 0; i < len; i++)
			fprintf(fp, "%s%02x", i ? " " : "", bytes[i]);
		fputs("</td>", fp);
	}
}

static int annotate_html__code(struct annotate_output *out, const struct annotate_sym *as,
			       const struct annotate_code *code,
			       const struct annotate_totals *totals,
			       const struct annotate_version *ver)
{
	FILE *fp = out->fp;
	u64 off;
	int err = 0;

	if (!disasm__available())
		return -EOPNOTSUPP;
	annotate_html__block(out, as, totals, code->vaddr, code->vaddr + code->len, ver, "samples",
			     as->nr_samples, false);
	for (off = 0; off < code->len;) {
		struct annotate_insn insn;

		err = annotate_code__insn(code, as, off, &insn);
		if (err)
			break;
		annotate_html__row(out, insn.addr, insn.offset, insn.nr, insn.period,
				   annotate_sym__percent(as, totals, out->opts->percent_type,
							 insn.nr, insn.period),
				   code->bytes + off, insn.len);
		fputs("<td>", fp);
		annotate_html__text(fp, insn.text);
		fputs("</td></tr>\n", fp);
		off += insn.len;
	}
	fputs("</tbody></table>\n</details>\n", fp);
	return err;
}

static int annotate_html__sym(struct annotate_output *out, const struct annotate_sym *as,
			      const struct annotate_totals *totals, struct dso_data *dd)
{
	struct annotate_code code;
	int err;

	if (!disasm__available())
		return -EOPNOTSUPP;
	err = annotate_code__read(&code, dd, as->dso, as->sym);
	if (err)
		return err;
	err = annotate_html__code(out, as, &code, totals, NULL);
	annotate_code__exit(&code);
	return err;
}

static int annotate_html__trace_head(struct annotate_output *out, const struct annotate_sym *as,
				     const struct annotate_totals *totals,
				     const struct annotate_trace_head *h)
{
	const char *what = "samples";

	if (!disasm__available())
		return -EOPNOTSUPP;
	if (h->insns && h->exact)
		what = "instructions executed";
	else if (!h->insns)
		what = "taken branches";
	annotate_html__block(out, as, totals, h->base, h->base + (as->sym->end - as->sym->start),
			     NULL, what, h->count, true);
	return 0;
}

static int annotate_html__trace_insn(struct annotate_output *out,
				     const struct annotate_sym *as __maybe_unused,
				     const struct annotate_trace_insn *ti)
{
	FILE *fp = out->fp;

	annotate_html__row(out, ti->addr, ti->offset, ti->nr, ti->period, ti->percent, ti->bytes,
			   ti->len);
	fputs("<td>", fp);
	annotate_html__text(fp, ti->text);
	fprintf(fp, "</td><td data-taken=\"%" PRId64 "\" data-code=\"%zu\" data-codes=\"%zu\">",
		ti->taken, ti->code, ti->nr_codes);
	if (ti->taken >= 0)
		fprintf(fp, "taken %" PRId64 "%s", ti->taken, ti->nr_codes > 1 ? ", " : "");
	if (ti->nr_codes > 1)
		fprintf(fp, "code %zu of %zu run here", ti->code, ti->nr_codes);
	fputs("</td></tr>\n", fp);
	return 0;
}

static int annotate_html__trace_end(struct annotate_output *out,
				    const struct annotate_sym *as __maybe_unused)
{
	fputs("</tbody></table>\n</details>\n", out->fp);
	return 0;
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
	out->code = annotate_html__code;
	out->trace_head = annotate_html__trace_head;
	out->trace_insn = annotate_html__trace_insn;
	out->trace_end = annotate_html__trace_end;
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
	      "p.version { margin: 2px 6px; color: #335; }\n"
	      "</style>\n</head>\n<body>\n<h1>perf textpoke annotate</h1>\n<p>",
	      fp);
	annotate_html__text(fp, opts->input);
	fprintf(fp, ", percent: %s</p>\n", annotate_percent__title(opts->percent_type));
	return 0;
}
