// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf textpoke annotate --stdio: one symbol's block as perf annotate
 * 6.1 prints it.  perf pipes the symbol through objdump and prints each
 * of its lines after the share of the samples on that instruction;
 * here the bytes are the object's own (annotate-code.c) and capstone
 * decodes them, laid out as objdump lays out its lines (the mnemonic in
 * 6 columns, tab stops counted from the address), so that the columns
 * fall where perf's do.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "annotate-internal.h"
#include "annotate-source.h"
#include "disasm.h"
#include "dso.h"
#include "insn-len.h"
#include "kprobe-site.h"
#include "machine.h"
#include "symbol.h"
#include "text-poke-print.h"

/* the percent or count column: " Percent |" in the header, " %7.2f : " on a line */
#define ANNOTATE_COL_WIDTH 8

/* for the disassembler: a branch target as objdump names it, "11ba <alpha+0x2a>" */
struct annotate_target {
	const struct annotate_code *code;
	struct dso *dso;
};

static bool annotate__target_name(u64 addr, char *buf, size_t size, void *arg)
{
	const struct annotate_target *t = arg;
	struct symbol *sym;
	u64 offset;

	if (!annotate_code__offset(t->code, addr, &offset)) {
		snprintf(buf, size, "%llx", (unsigned long long)addr);
		return true;
	}
	sym = dso__find_symbol(t->dso, offset);
	if (!sym) {
		snprintf(buf, size, "%llx", (unsigned long long)addr);
	} else if (offset == sym->start) {
		snprintf(buf, size, "%llx <%s>", (unsigned long long)addr, symbol__name(sym));
	} else {
		snprintf(buf, size, "%llx <%s+%#llx>", (unsigned long long)addr, symbol__name(sym),
			 (unsigned long long)(offset - sym->start));
	}
	return true;
}

double annotate_sym__percent(const struct annotate_sym *as, const struct annotate_totals *totals,
			     enum annotate_percent type, u64 nr, u64 period)
{
	u64 part, whole;

	switch (type) {
	case ANNOTATE_PERCENT__GLOBAL_PERIOD:
		part = period;
		whole = totals->period;
		break;
	case ANNOTATE_PERCENT__LOCAL_HITS:
		part = nr;
		whole = as->nr_samples;
		break;
	case ANNOTATE_PERCENT__GLOBAL_HITS:
		part = nr;
		whole = totals->nr_samples;
		break;
	default:
		part = period;
		whole = as->period;
		break;
	}
	return whole ? 100.0 * part / whole : 0.0;
}

/* @text's mnemonic padded to objdump's 6 columns: "add    %rdi,%rdi" */
static void annotate__fprintf_insn(FILE *fp, const char *text)
{
	const char *sp = strchr(text, ' ');

	if (!sp)
		fputs(text, fp);
	else
		fprintf(fp, "%-6.*s %s", (int)(sp - text), text, sp + 1);
}

/* columns written from the address's first digit, for objdump's tab stops */
static int annotate__tab(FILE *fp, int col)
{
	int next = (col / 8 + 1) * 8;

	fprintf(fp, "%*s", next - col, "");
	return next;
}

int annotate_code__insn(const struct annotate_code *code, const struct annotate_sym *as, u64 off,
			struct annotate_insn *insn)
{
	struct annotate_target target = {code, as->dso};
	struct disasm_insn d;
	struct kprobe_site kp;
	u64 addr = code->vaddr + off, site;
	int n, i;

	if (code->kprobe_at && code->kprobe_at(code->kprobe_arg, addr, &kp, &site) && kp.orig_len &&
	    addr - site < kp.orig_len) {
		/* the probed instruction, where memory has the int3 or the jmp */
		n = text_poke__kprobed_text(&kp, site, addr - site, &d, annotate__target_name,
					    &target);
		snprintf(insn->text, sizeof(insn->text), "%s", d.text);
		/* its samples are those on its bytes in this code */
		if ((u64)n > code->len - off)
			n = code->len - off;
		goto counted;
	}
	if (code->elf64)
		n = disasm__one(code->bytes + off, code->len - off, addr, &d, annotate__target_name,
				&target);
	else
		n = disasm__one_32(code->bytes + off, code->len - off, addr, &d,
				   annotate__target_name, &target);
	if (n == -EOPNOTSUPP)
		return n;
	/*
	 * Bytes capstone cannot name (Debian's capstone 4 lacks some
	 * EVEX forms, vptestnmb in libc's string functions) are still
	 * an instruction of a length perf's own decoder knows: kept
	 * whole, so the addresses after it stay objdump's.  Bytes that
	 * decode to nothing are objdump's one-byte (bad).
	 */
	if (n > 0) {
		snprintf(insn->text, sizeof(insn->text), "%s", d.text);
	} else {
		n = insn_len(code->bytes + off, NULL, code->len - off,
			     code->elf64 ? INSN_LEN_64 : 0, NULL);
		if (n > 0) {
			int k = snprintf(insn->text, sizeof(insn->text), ".byte");

			for (i = 0; i < n && k < (int)sizeof(insn->text) - 6; i++)
				k += snprintf(insn->text + k, sizeof(insn->text) - k, "%s0x%02x",
					      i ? "," : " ", code->bytes[off + i]);
		} else {
			n = 1;
			strcpy(insn->text, "(bad)");
		}
	}
counted:
	insn->offset = off;
	insn->addr = addr;
	insn->len = n;
	insn->nr = insn->period = 0;
	/* an instruction's share is that of the samples on any of its bytes, as perf's */
	for (i = 0; i < n; i++) {
		insn->nr += as->hits[off + i].nr;
		insn->period += as->hits[off + i].period;
	}
	return 0;
}

/* what perf takes for a nop: its x86 table's "nop", "nopl" and "nopw" */
static bool annotate__is_nop(const struct annotate_code *code, u64 off, int n, const char *text)
{
	size_t len = strcspn(text, " ");

	/* objdump names 66 90 "xchg %ax,%ax", which perf keeps */
	if (n == 2 && code->bytes[off] == 0x66 && code->bytes[off + 1] == 0x90)
		return false;
	return (len == 3 && !strncmp(text, "nop", 3)) ||
	       (len == 4 && (!strncmp(text, "nopl", 4) || !strncmp(text, "nopw", 4)));
}

int annotate_code__lines_end(const struct annotate_code *code, const struct annotate_sym *as,
			     u64 *end)
{
	struct annotate_insn insn;
	u64 off;
	int err;

	*end = 0;
	for (off = 0; off < code->len; off += insn.len) {
		err = annotate_code__insn(code, as, off, &insn);
		if (err)
			return err;
		if (!annotate__is_nop(code, off, insn.len, insn.text))
			*end = off + insn.len;
	}
	return 0;
}

/*
 * The block of @as on @code; @src (NULL: none, kernel code) puts the
 * source lines between the instructions
 */
static int __annotate_code__fprintf(const struct annotate_sym *as, const struct annotate_code *code,
				    const struct annotate_totals *totals,
				    const struct annotate_opts *opts, struct annotate_source *src,
				    FILE *fp)
{
	const char *what;
	u64 off, last, end;
	int width, len, err;

	what = opts->show_nr_samples ? "Samples" : "Percent";
	len = fprintf(
	    fp, " %-*.*s|\tSource code & Disassembly of %s for %s (%llu samples, percent: %s)\n",
	    ANNOTATE_COL_WIDTH, ANNOTATE_COL_WIDTH, what, as->dso->short_name, as->evsel_name,
	    (unsigned long long)as->nr_samples, annotate_percent__title(opts->percent_type));
	/* perf underlines the header, its newline and a tab counted as one column each, plus 4 */
	for (int i = 0; i < len + 4; i++)
		fputc('-', fp);
	fputc('\n', fp);

	/* perf's address column is as wide as the symbol's last address */
	last = code->vaddr + code->len - 1;
	width = snprintf(NULL, 0, "%llx", (unsigned long long)last);
	if (src)
		annotate_source__preamble(src, fp);
	else
		fprintf(fp, "%*s:\n%*s:     %016llx <%s>:\n", ANNOTATE_COL_WIDTH + 1, "",
			ANNOTATE_COL_WIDTH + 1, "", (unsigned long long)code->vaddr,
			symbol__name(as->sym));

	err = annotate_code__lines_end(code, as, &end);
	if (err)
		return err;
	for (off = 0; off < end;) {
		struct annotate_insn insn;
		u64 addr = code->vaddr + off;
		double share;
		int n, col, i;

		err = annotate_code__insn(code, as, off, &insn);
		if (err)
			return err;
		n = insn.len;
		share = annotate_sym__percent(as, totals, opts->percent_type, insn.nr, insn.period);
		if (src)
			annotate_source__before_insn(src, off, fp);
		if (opts->show_nr_samples)
			fprintf(fp, " %*llu : ", ANNOTATE_COL_WIDTH - 1,
				(unsigned long long)insn.nr);
		else
			fprintf(fp, " %*.2f : ", ANNOTATE_COL_WIDTH - 1, share);
		fprintf(fp, "  %*llx:", width, (unsigned long long)addr);
		/* perf prints objdump's line from its address on, the leading blanks stripped */
		col = annotate__tab(fp, snprintf(NULL, 0, "%llx:", (unsigned long long)addr));
		if (opts->asm_raw) {
			int raw = 0;

			for (i = 0; i < n; i++)
				raw += fprintf(fp, "%02x ", code->bytes[off + i]);
			/* objdump leaves room for 7 bytes before its tab */
			if (raw < 21)
				raw += fprintf(fp, "%*s", 21 - raw, "");
			col = annotate__tab(fp, col + raw);
		}
		annotate__fprintf_insn(fp, insn.text);
		/* objdump's --asm-raw puts 7 bytes a line, each line one of perf's numbers */
		if (src) {
			err = annotate_source__after_insn(src, off, share,
							  opts->asm_raw ? (n + 6) / 7 : 1, fp);
			if (err)
				return err;
		}
		fputc('\n', fp);
		off += n;
	}
	return 0;
}

int annotate_sym__fprintf(const struct annotate_sym *as, const struct annotate_totals *totals,
			  const struct annotate_opts *opts, struct dso_data *dd, FILE *fp)
{
	struct annotate_source *src;
	struct annotate_code code;
	char *body = NULL;
	size_t body_len;
	FILE *out = fp;
	int err;

	err = annotate_code__read(&code, dd, as->dso, as->sym);
	if (err)
		return err;
	/* perf numbers its lines in a column as wide as the symbol's last address */
	src = annotate_source__new(
	    as->dso, as->sym, &code, opts,
	    snprintf(NULL, 0, "%llx", (unsigned long long)(code.vaddr + code.len - 1)));
	err = -ENOMEM;
	if (!src)
		goto out;
	/* -l's summary comes first, of what the instructions' lines sum to */
	if (opts->print_lines && !(out = open_memstream(&body, &body_len)))
		goto out;
	err = __annotate_code__fprintf(as, &code, totals, opts, src, out);
	if (out != fp) {
		if (fclose(out) && !err)
			err = -ENOMEM;
		if (!err) {
			annotate_source__summary(src, fp);
			fwrite(body, 1, body_len, fp);
		}
	}
out:
	free(body);
	annotate_source__delete(src);
	annotate_code__exit(&code);
	return err;
}

int annotate_code__fprintf(const struct annotate_sym *as, const struct annotate_code *code,
			   const struct annotate_totals *totals, const struct annotate_opts *opts,
			   FILE *fp)
{
	return __annotate_code__fprintf(as, code, totals, opts, NULL, fp);
}
