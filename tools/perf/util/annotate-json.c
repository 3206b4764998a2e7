// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf textpoke annotate --json: the blocks --stdio prints, as one JSON
 * document (schema: Documentation/annotate-json.md; a key changes only
 * with schema_version).  Each symbol's instructions come from the walk
 * the text uses (annotate_code__insn(), annotate_sym__percent()), so the
 * figures are the text's, unrounded.  Addresses are "0x..." strings, as
 * report --json writes them: a JSON number is a double to most readers.
 *
 * A symbol's "version" is null: user code does not change while a
 * recording runs.  Code that did (kernel code, BPF programs) is to be
 * one block per version, its "version" saying when it was live and which
 * poke made it; the keys are documented now so that readers can expect
 * them.
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

static int annotate_json__sym(struct annotate_output *out, const struct annotate_sym *as,
			      const struct annotate_totals *totals, struct dso_data *dd)
{
	struct annotate_json *aj = out->priv;
	struct json *j = &aj->j;
	struct annotate_code code;
	u64 off;
	int err;

	/* the code first: a symbol without it writes nothing, as in the text */
	if (!disasm__available())
		return -EOPNOTSUPP;
	err = annotate_code__read(&code, dd, as->dso, as->sym);
	if (err)
		return err;
	if (as->evsel_idx != aj->evsel_idx) {
		annotate_json__end_event(aj);
		json__open(j, NULL, '{');
		json__str(j, "event", as->evsel_name);
		json__u64(j, "total_samples", totals->nr_samples);
		json__u64(j, "total_period", totals->period);
		json__open(j, "symbols", '[');
		aj->evsel_idx = as->evsel_idx;
	}
	json__open(j, NULL, '{');
	json__str(j, "symbol", symbol__name(as->sym));
	json__str(j, "object", as->dso->name);
	json__str(j, "object_short", as->dso->short_name);
	json__addr(j, "start", code.vaddr);
	json__addr(j, "end", code.vaddr + code.len);
	json__u64(j, "samples", as->nr_samples);
	json__u64(j, "period", as->period);
	json__str(j, "percent_type", annotate_percent__name(out->opts->percent_type));
	json__null(j, "version");
	json__open(j, "instructions", '[');
	j->one_line = j->depth + 1;
	for (off = 0; off < code.len;) {
		struct annotate_insn insn;

		err = annotate_code__insn(&code, as, off, &insn);
		if (err)
			break;
		json__open(j, NULL, '{');
		json__addr(j, "address", insn.addr);
		json__u64(j, "offset", insn.offset);
		json__hex_bytes(j, "bytes", code.bytes + off, insn.len);
		json__str(j, "text", insn.text);
		json__u64(j, "samples", insn.nr);
		json__u64(j, "period", insn.period);
		json__key(j, "percent");
		fprintf(j->fp, "%.6f",
			annotate_sym__percent(as, totals, out->opts->percent_type, insn.nr,
					      insn.period));
		json__close(j, '}');
		off += insn.len;
	}
	j->one_line = 0;
	json__close(j, ']');
	json__close(j, '}');
	annotate_code__exit(&code);
	return err;
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
