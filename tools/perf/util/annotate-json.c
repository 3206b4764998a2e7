// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf textpoke annotate --json: the blocks --stdio prints, as one JSON
 * document (schema: Documentation/annotate-json.md; a key changes only
 * with schema_version).  Each symbol's instructions come from the walk
 * the text uses (annotate_code__insn(), annotate_sym__percent()), so the
 * figures are the text's, unrounded.  Addresses are "0x..." strings, as
 * report --json writes them: a JSON number is a double to most readers.
 *
 * A user symbol's "version" is null: user code does not change while a
 * recording runs.  Kernel code that did is one block per version
 * (annotate-kernel.c's walk), its "version" saying when it was live and
 * which poke made it, a BPF program one block per load; an Intel PT
 * trace's block (annotate-itrace.c's walk) lists the codes the trace ran,
 * with their executions and taken counts.
 */
#include <errno.h>
#include <stdlib.h>

#include "annotate-internal.h"
#include "disasm.h"
#include "dso.h"
#include "json-writer.h"
#include "symbol.h"

#define ANNOTATE_JSON_SCHEMA_VERSION 1

struct annotate_json {
	struct json j;
	int evsel_idx; /* of the event whose object is open, -1: none */
};

static void annotate_json__end_event(struct annotate_json *aj)
{
	if (aj->evsel_idx < 0)
		return;
	json__close(&aj->j, ']');
	json__close(&aj->j, '}');
	aj->evsel_idx = -1;
}

/* the event's object, opened at its first symbol */
static void annotate_json__event(struct annotate_json *aj, const struct annotate_sym *as,
				 const struct annotate_totals *totals)
{
	struct json *j = &aj->j;

	if (as->evsel_idx == aj->evsel_idx)
		return;
	annotate_json__end_event(aj);
	json__open(j, NULL, '{');
	json__str(j, "event", as->evsel_name);
	json__u64(j, "total_samples", totals->nr_samples);
	json__u64(j, "total_period", totals->period);
	json__open(j, "symbols", '[');
	aj->evsel_idx = as->evsel_idx;
}

/* a time that is open at one end (0 or UINT64_MAX) is null */
static void annotate_json__span_end(struct json *j, const char *key, u64 t)
{
	if (t == 0 || t == UINT64_MAX)
		json__no_time(j, key);
	else
		json__time(j, key, t);
}

static void annotate_json__version(struct json *j, const struct annotate_version *v)
{
	if (!v) {
		json__null(j, "version");
		return;
	}
	json__open(j, "version", '{');
	json__u64(j, "index", v->index);
	json__u64(j, "count", v->count);
	annotate_json__span_end(j, "start", v->start);
	annotate_json__span_end(j, "end", v->end);
	if (v->bpf || !v->index) {
		json__null(j, "poke");
	} else {
		json__open(j, "poke", '{');
		json__time(j, "time", v->poke.time);
		json__addr(j, "addr", v->poke.addr);
		json__u64(j, "old_len", v->poke.old_len);
		json__u64(j, "new_len", v->poke.new_len);
		json__hex_bytes(j, "old_bytes", v->poke.old_bytes, v->poke.old_len);
		json__hex_bytes(j, "new_bytes", v->poke.new_bytes, v->poke.new_len);
		json__bool(j, "code_load", v->poke.model);
		json__str(j, "old", v->poke.model ? NULL : v->poke.old_text);
		json__str(j, "new", v->poke.model ? NULL : v->poke.new_text);
		json__str(j, "verdict", v->poke.model ? NULL : v->poke.verdict);
		json__u64(j, "more_pokes", v->poke.nr_more);
		json__close(j, '}');
	}
	if (v->bpf) {
		json__open(j, "bpf", '{');
		json__u64(j, "id", v->bpf_id);
		json__time(j, "load_time", v->start);
		annotate_json__span_end(j, "unload_time", v->end);
		json__close(j, '}');
	} else {
		json__null(j, "bpf");
	}
	json__close(j, '}');
}

/* a symbol's keys up to its version */
static void annotate_json__block(struct annotate_output *out, const struct annotate_sym *as,
				 const struct annotate_totals *totals, u64 start, u64 end)
{
	struct annotate_json *aj = out->priv;
	struct json *j = &aj->j;

	annotate_json__event(aj, as, totals);
	json__open(j, NULL, '{');
	json__str(j, "symbol", symbol__name(as->sym));
	json__str(j, "object", as->dso->name);
	json__str(j, "object_short", as->dso->short_name);
	json__addr(j, "start", start);
	json__addr(j, "end", end);
	json__u64(j, "samples", as->nr_samples);
	json__u64(j, "period", as->period);
	json__str(j, "percent_type", annotate_percent__name(out->opts->percent_type));
}

static void annotate_json__block_end(struct json *j)
{
	j->one_line = 0;
	json__close(j, ']');
	json__close(j, '}');
}

static void annotate_json__figures(struct json *j, u64 nr, u64 period, double percent)
{
	json__u64(j, "samples", nr);
	json__u64(j, "period", period);
	json__key(j, "percent");
	fprintf(j->fp, "%.6f", percent);
}

static int annotate_json__code(struct annotate_output *out, const struct annotate_sym *as,
			       const struct annotate_code *code,
			       const struct annotate_totals *totals,
			       const struct annotate_version *ver)
{
	struct annotate_json *aj = out->priv;
	struct json *j = &aj->j;
	u64 off;
	int err = 0;

	if (!disasm__available())
		return -EOPNOTSUPP;
	annotate_json__block(out, as, totals, code->vaddr, code->vaddr + code->len);
	annotate_json__version(j, ver);
	json__null(j, "trace");
	json__open(j, "instructions", '[');
	j->one_line = j->depth + 1;
	for (off = 0; off < code->len;) {
		struct annotate_insn insn;

		err = annotate_code__insn(code, as, off, &insn);
		if (err)
			break;
		json__open(j, NULL, '{');
		json__addr(j, "address", insn.addr);
		json__u64(j, "offset", insn.offset);
		json__hex_bytes(j, "bytes", code->bytes + off, insn.len);
		json__str(j, "text", insn.text);
		annotate_json__figures(j, insn.nr, insn.period,
				       annotate_sym__percent(as, totals, out->opts->percent_type,
							     insn.nr, insn.period));
		json__close(j, '}');
		off += insn.len;
	}
	annotate_json__block_end(j);
	return err;
}

static int annotate_json__sym(struct annotate_output *out, const struct annotate_sym *as,
			      const struct annotate_totals *totals, struct dso_data *dd)
{
	struct annotate_code code;
	int err;

	/* the code first: a symbol without it writes nothing, as in the text */
	if (!disasm__available())
		return -EOPNOTSUPP;
	err = annotate_code__read(&code, dd, as->dso, as->sym);
	if (err)
		return err;
	err = annotate_json__code(out, as, &code, totals, NULL);
	annotate_code__exit(&code);
	return err;
}

static int annotate_json__trace_head(struct annotate_output *out, const struct annotate_sym *as,
				     const struct annotate_totals *totals,
				     const struct annotate_trace_head *h)
{
	struct annotate_json *aj = out->priv;
	struct json *j = &aj->j;

	if (!disasm__available())
		return -EOPNOTSUPP;
	annotate_json__block(out, as, totals, h->base, h->base + (as->sym->end - as->sym->start));
	json__null(j, "version");
	json__open(j, "trace", '{');
	json__str(j, "counts", h->insns ? "instructions" : "branches");
	json__bool(j, "exact", h->insns && h->exact);
	json__u64(j, "count", h->count);
	json__close(j, '}');
	json__open(j, "instructions", '[');
	j->one_line = j->depth + 1;
	return 0;
}

static int annotate_json__trace_insn(struct annotate_output *out,
				     const struct annotate_sym *as __maybe_unused,
				     const struct annotate_trace_insn *ti)
{
	struct annotate_json *aj = out->priv;
	struct json *j = &aj->j;

	json__open(j, NULL, '{');
	json__addr(j, "address", ti->addr);
	json__u64(j, "offset", ti->offset);
	json__hex_bytes(j, "bytes", ti->bytes, ti->len);
	json__str(j, "text", ti->text);
	annotate_json__figures(j, ti->nr, ti->period, ti->percent);
	if (ti->taken >= 0)
		json__s64(j, "taken", ti->taken);
	else
		json__null(j, "taken");
	json__u64(j, "code", ti->code);
	json__u64(j, "codes", ti->nr_codes);
	json__close(j, '}');
	return 0;
}

static int annotate_json__trace_end(struct annotate_output *out,
				    const struct annotate_sym *as __maybe_unused)
{
	struct annotate_json *aj = out->priv;

	annotate_json__block_end(&aj->j);
	return 0;
}

static int annotate_json__end(struct annotate_output *out)
{
	struct annotate_json *aj = out->priv;

	annotate_json__end_event(aj);
	json__close(&aj->j, ']');
	json__close(&aj->j, '}');
	fputc('\n', out->fp);
	return 0;
}

static void annotate_json__free(struct annotate_output *out)
{
	free(out->priv);
	out->priv = NULL;
}

int annotate_output__json(struct annotate_output *out, const struct annotate_opts *opts, FILE *fp)
{
	struct annotate_json *aj = calloc(1, sizeof(*aj));

	if (!aj)
		return -ENOMEM;
	aj->j.fp = fp;
	aj->evsel_idx = -1;
	out->sym = annotate_json__sym;
	out->code = annotate_json__code;
	out->trace_head = annotate_json__trace_head;
	out->trace_insn = annotate_json__trace_insn;
	out->trace_end = annotate_json__trace_end;
	out->end = annotate_json__end;
	out->free = annotate_json__free;
	out->opts = opts;
	out->fp = fp;
	out->priv = aj;
	json__open(&aj->j, NULL, '{');
	json__str(&aj->j, "schema", "perf-textpoke-annotate");
	json__u64(&aj->j, "schema_version", ANNOTATE_JSON_SCHEMA_VERSION);
	json__str(&aj->j, "input", opts->input);
	json__str(&aj->j, "percent_type", annotate_percent__name(opts->percent_type));
	json__open(&aj->j, "events", '[');
	return 0;
}
