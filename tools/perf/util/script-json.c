// SPDX-License-Identifier: GPL-2.0-only
/*
 * --json for perf textpoke script: the values the text printers show,
 * one object per line.  Keys are the -F field names, in the order the
 * text line has them; numbers are JSON numbers, except addresses and
 * register values, which are "0x..." strings (a u64 does not survive a
 * double, and most JSON readers parse numbers as doubles).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "evsel.h"
#include "perf-regs.h"
#include "script-data-src.h"
#include "script-json.h"
#include "script-print.h"
#include "utf8.h"

static const char hexd[] = "0123456789abcdef";

void script_json__string(struct script_buf *b, const char *str, size_t n)
{
	const u8 *s = (const u8 *)str;
	size_t i = 0, run = 0;

	script_buf__putc(b, '"');
	while (i < n) {
		u8 c = s[i];
		size_t len;
		u32 cp;

		if (c >= 0x20 && c != '"' && c != '\\' && c < 0x80) {
			i++;
			continue;
		}
		/* the plain bytes before this one, at once */
		script_buf__write(b, s + run, i - run);
		/*
		 * One U+FFFD per maximal subpart of a bad sequence, as
		 * Python's "replace" decodes it: a reader of --json lines
		 * gets the string that bytes.decode() would give.
		 */
		if (c >= 0x80) {
			len = utf8__next(s + i, n - i, &cp);
			if (cp != UTF8_INVALID)
				script_buf__write(b, s + i, len);
			else
				script_buf__puts(b, "\\ufffd");
			i += len;
			run = i;
			continue;
		}
		script_buf__putc(b, '\\');
		switch (c) {
		case '"':
		case '\\':
			script_buf__putc(b, c);
			break;
		case '\b':
			script_buf__putc(b, 'b');
			break;
		case '\f':
			script_buf__putc(b, 'f');
			break;
		case '\n':
			script_buf__putc(b, 'n');
			break;
		case '\r':
			script_buf__putc(b, 'r');
			break;
		case '\t':
			script_buf__putc(b, 't');
			break;
		default:
			script_buf__puts(b, "u00");
			script_buf__putc(b, hexd[c >> 4]);
			script_buf__putc(b, hexd[c & 15]);
			break;
		}
		i++;
		run = i;
	}
	script_buf__write(b, s + run, n - run);
	script_buf__putc(b, '"');
}

/* ,"key": */
static void key(struct script_buf *b, const char *k)
{
	script_buf__puts(b, ",\"");
	script_buf__puts(b, k);
	script_buf__puts(b, "\":");
}

static void str_or_null(struct script_buf *b, const char *k, const char *s)
{
	key(b, k);
	if (s)
		script_json__string(b, s, strlen(s));
	else
		script_buf__puts(b, "null");
}

static void hex_str(struct script_buf *b, const char *k, u64 v)
{
	key(b, k);
	script_buf__puts(b, "\"0x");
	script_buf__hex(b, v, 0);
	script_buf__putc(b, '"');
}

static void udec(struct script_buf *b, const char *k, u64 v)
{
	key(b, k);
	script_buf__udec(b, v, 0);
}

static void sdec(struct script_buf *b, const char *k, s64 v)
{
	key(b, k);
	script_buf__sdec(b, v, 0);
}

/*
 * Text rendered by the text printers into the scratch buffer, as a
 * string member without the leading and trailing blanks they pad with
 */
static void scratch_member(struct script_printer *p, const char *k)
{
	struct script_buf *sb = &p->scratch;
	size_t a = 0, e = sb->len;

	while (a < e && (sb->data[a] == ' ' || sb->data[a] == '\n'))
		a++;
	while (e > a && (sb->data[e - 1] == ' ' || sb->data[e - 1] == '\n'))
		e--;
	key(&p->out, k);
	script_json__string(&p->out, sb->data + a, e - a);
	sb->len = 0;
}

/* perf_sample__fprintf_start()'s fields: comm, pid, tid, cpu, misc, tod, time */
static void start(struct script_printer *p, const struct perf_sample *sample,
		  const struct evsel *evsel, const char *comm, u32 type)
{
	struct script_buf *b = &p->out;
	u64 f = script_printer__fields(p, evsel);

	if (f & SF_COMM)
		str_or_null(b, "comm", comm);
	if (f & SF_PID)
		sdec(b, "pid", (s32)sample->pid);
	if (f & SF_TID)
		sdec(b, "tid", (s32)sample->tid);
	if (f & SF_CPU)
		sdec(b, "cpu", (s32)sample->cpu);
	if (f & SF_MISC) {
		u16 misc = sample->misc, mode = misc & PERF_RECORD_MISC_CPUMODE_MASK;
		char m[8];
		int n = 0;

		/* the letters of the text column, tested as perf tests them */
		if ((mode & PERF_RECORD_MISC_KERNEL) == PERF_RECORD_MISC_KERNEL)
			m[n++] = 'K';
		if ((mode & PERF_RECORD_MISC_USER) == PERF_RECORD_MISC_USER)
			m[n++] = 'U';
		if ((mode & PERF_RECORD_MISC_HYPERVISOR) == PERF_RECORD_MISC_HYPERVISOR)
			m[n++] = 'H';
		if ((mode & PERF_RECORD_MISC_GUEST_KERNEL) == PERF_RECORD_MISC_GUEST_KERNEL)
			m[n++] = 'G';
		if ((mode & PERF_RECORD_MISC_GUEST_USER) == PERF_RECORD_MISC_GUEST_USER)
			m[n++] = 'g';
		if ((type == PERF_RECORD_MMAP || type == PERF_RECORD_MMAP2) &&
		    (misc & PERF_RECORD_MISC_MMAP_DATA))
			m[n++] = 'M';
		if (type == PERF_RECORD_COMM && (misc & PERF_RECORD_MISC_COMM_EXEC))
			m[n++] = 'E';
		key(b, "misc");
		script_json__string(b, m, n);
	}
	if (f & SF_TOD) {
		char tod[96];
		size_t n =
		    script_tod__scnprintf(&p->tod, tod, sizeof(tod), sample->time, p->nanosecs);

		key(b, "tod");
		script_json__string(b, tod, n);
	}
	if (f & SF_TIME) {
		/* the text line's time, in nanoseconds */
		udec(b, "time", script_printer__time(p, sample->time));
	}
}

/* ip, sym, symoff, dso, srcline of a sample or a frame */
static void loc_members(struct script_buf *b, const struct script_loc *loc, u64 ip, u64 f)
{
	if (f & SF_IP)
		hex_str(b, "ip", ip);
	if (f & SF_SYM)
		str_or_null(b, "sym", loc->sym);
	if ((f & SF_SYMOFFSET) && (f & SF_SYM)) {
		key(b, "symoff");
		if (loc->sym)
			script_buf__udec(b, loc->addr - loc->sym_start, 0);
		else
			script_buf__puts(b, "null");
	}
	if (f & SF_DSO)
		str_or_null(b, "dso", loc->dso);
	if (loc->inlined)
		script_buf__puts(b, ",\"inlined\":true");
	if (f & SF_SRCLINE)
		str_or_null(b, "srcline", loc->srcline);
}

bool script_json__sample_head(struct script_printer *p, const struct perf_sample *sample,
			      const struct evsel *evsel, const struct script_sample_info *info)
{
	struct script_buf *b = &p->out;
	u64 f = script_printer__fields(p, evsel);

	if (!f)
		return false;
	script_buf__puts(b, "{\"record\":\"sample\"");
	start(p, sample, evsel, info->comm, PERF_RECORD_SAMPLE);
	if (f & SF_PERIOD)
		udec(b, "period", sample->period);
	if (f & SF_EVNAME)
		str_or_null(b, "event", evsel->name ? evsel->name : "[unknown]");
	/* flags, ipc and callindent describe samples of a hardware trace only */
	if (f & SF_FLAGS)
		script_buf__puts(b, ",\"flags\":null");
	if (f & SF_TRACE)
		str_or_null(b, "trace", info->trace);
	if (f & SF_SYNTH) {
		if (evsel->attr.type == PERF_TYPE_SYNTH) {
			script_print__synth(&p->scratch, sample, evsel);
			scratch_member(p, "synth");
		} else {
			script_buf__puts(b, ",\"synth\":null");
		}
	}
	if (f & SF_ADDR) {
		const struct script_loc *al = info->addr_loc;

		hex_str(b, "addr", sample->addr);
		if (al && (f & SF_SYM))
			str_or_null(b, "addr_sym", al->sym);
		if (al && (f & SF_SYM) && (f & SF_SYMOFFSET)) {
			key(b, "addr_symoff");
			if (al->sym)
				script_buf__udec(b, al->addr - al->sym_start, 0);
			else
				script_buf__puts(b, "null");
		}
		if (al && (f & SF_DSO))
			str_or_null(b, "addr_dso", al->dso);
	}
	if (f & SF_DATA_SRC) {
		char decode[100];

		hex_str(b, "data_src", sample->data_src);
		data_src__scnprintf(sample->data_src, decode, sizeof(decode));
		str_or_null(b, "data_src_text", decode);
	}
	if (f & SF_WEIGHT)
		udec(b, "weight", sample->weight);
	if (f & SF_INS_LAT)
		udec(b, "ins_lat", sample->ins_lat);
	/* as the text line: sym, dso and srcline go with the ip ("-F -ip" drops them) */
	if (f & SF_IP)
		loc_members(b, &info->loc, sample->ip, f);
	p->json_frames = -1;
	if ((f & SF_IP) && info->has_chain && script_printer__callchain(p, evsel)) {
		script_buf__puts(b, ",\"callchain\":[");
		p->json_frames = 0;
	}
	return true;
}

void script_json__frame(struct script_printer *p, const struct evsel *evsel,
			const struct script_loc *fr)
{
	struct script_buf *b = &p->out;
	u64 f = script_printer__fields(p, evsel);

	if (p->json_frames < 0)
		return;
	if (p->json_frames++)
		script_buf__putc(b, ',');
	/* as the text: objects' frames object-relative, the kernel's absolute */
	script_buf__puts(b, "{\"ip\":\"0x");
	script_buf__hex(b, fr->relative ? fr->addr : fr->ip, 0);
	script_buf__putc(b, '"');
	loc_members(b, fr, 0, f & ~SF_IP);
	script_buf__putc(b, '}');
}

/* " ABI:2 ax:0x..." as {"abi":2,"ax":"0x..."}; null without registers */
static void regs_member(struct script_buf *b, const char *k, const struct regs_dump *regs)
{
	enum perf_regs_kind kind = perf_regs__kind(regs->abi);
	u64 mask = regs->mask;
	unsigned int i = 0;

	key(b, k);
	if (!regs->regs) {
		script_buf__puts(b, "null");
		return;
	}
	script_buf__puts(b, "{\"abi\":");
	script_buf__udec(b, regs->abi, 0);
	while (mask) {
		unsigned int bit = __builtin_ctzll(mask);
		const char *name = perf_reg_name(bit, kind);

		mask &= mask - 1;
		hex_str(b, name ? name : "unknown", perf_reg_value(regs->regs[i++], kind));
	}
	script_buf__putc(b, '}');
}

/* the branch stack's entries, each as the text prints it */
static void branches_member(struct script_buf *b, const char *k, const char *s, size_t n)
{
	size_t i = 0;
	bool first = true;

	key(b, k);
	script_buf__putc(b, '[');
	while (i < n) {
		size_t e;

		while (i < n && s[i] == ' ')
			i++;
		e = i;
		while (e < n && s[e] != ' ')
			e++;
		if (e > i) {
			if (!first)
				script_buf__putc(b, ',');
			script_json__string(b, s + i, e - i);
			first = false;
		}
		i = e;
	}
	script_buf__putc(b, ']');
}

void script_json__sample_tail(struct script_printer *p, const struct perf_sample *sample,
			      const struct evsel *evsel, const struct script_sample_info *info)
{
	struct script_buf *b = &p->out;
	u64 f = script_printer__fields(p, evsel);

	if (p->json_frames >= 0)
		script_buf__putc(b, ']');
	p->json_frames = -1;
	if (f & SF_ABI) {
		const char *name = perf_regs__abi_name(sample->user_regs.abi);

		if (name) {
			str_or_null(b, "abi", name);
		} else {
			char num[24];

			snprintf(num, sizeof(num), "%" PRIu64, (u64)sample->user_regs.abi);
			str_or_null(b, "abi", num);
		}
	}
	if (f & SF_IREGS)
		regs_member(b, "iregs", &sample->intr_regs);
	if (f & SF_UREGS)
		regs_member(b, "uregs", &sample->user_regs);
	if (f & SF_BRSTACK)
		branches_member(b, "brstack", info->branches, info->branches_len);
	else if (f & SF_BRSTACKSYM)
		branches_member(b, "brstacksym", info->branches, info->branches_len);
	else if (f & SF_BRSTACKOFF)
		branches_member(b, "brstackoff", info->branches, info->branches_len);
	if (f & SF_INSNLEN)
		sdec(b, "insnlen", info->json_insnlen);
	if (f & SF_INSN)
		str_or_null(b, "insn", info->json_insn);
	if (f & SF_DISASM)
		str_or_null(b, "disasm", info->json_disasm);
	if (f & SF_POKED) {
		key(b, "poked");
		if (info->json_poked)
			script_buf__udec(b, info->json_poked_time, 0);
		else
			script_buf__puts(b, "null");
	}
	if (f & SF_PHYS_ADDR)
		hex_str(b, "phys_addr", sample->phys_addr);
	if (f & SF_DATA_PAGE_SIZE) {
		script_print__page_size(&p->scratch, sample->data_page_size);
		scratch_member(p, "data_page_size");
	}
	if (f & SF_CODE_PAGE_SIZE) {
		script_print__page_size(&p->scratch, sample->code_page_size);
		scratch_member(p, "code_page_size");
	}
	if (f & SF_IPC)
		script_buf__puts(b, ",\"ipc\":null");
	if (f & SF_CALLINDENT)
		script_buf__puts(b, ",\"callindent\":null");
	script_buf__puts(b, "}\n");
}

void script_json__side_band(struct script_printer *p, const union perf_event *event,
			    const struct perf_sample *sample, const struct evsel *evsel,
			    const char *comm, const char *text, size_t len)
{
	struct script_buf *b = &p->out;

	script_buf__puts(b, "{\"record\":");
	script_json__string(b, perf_event__name(event->header.type),
			    strlen(perf_event__name(event->header.type)));
	if (evsel)
		start(p, sample, evsel, comm, event->header.type);
	while (len && *text == ' ') {
		text++;
		len--;
	}
	if (len && text[len - 1] == '\n')
		len--;
	key(b, "text");
	script_json__string(b, text, len);
}

void script_json__side_band_extra(struct script_printer *p, const char *k, const char *text,
				  size_t len)
{
	key(&p->out, k);
	script_json__string(&p->out, text, len);
}

void script_json__side_band_end(struct script_printer *p)
{
	script_buf__puts(&p->out, "}\n");
}
