/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_SCRIPT_PRINT_H
#define __PERF_TEXTPOKE_SCRIPT_PRINT_H

#include <stdio.h>

#include "event.h"
#include "evsel.h"
#include "script-fields.h"
#include "types.h"

struct evsel;

/*
 * perf script's lines, formatted by hand into one buffer that is written
 * with fwrite() when it fills: a sample line is a few dozen small fields
 * and printf() per field is what makes stock perf script slow.  Going
 * through the same FILE as dump_printf() keeps -D output in order.
 */
struct script_buf {
	char *data;
	size_t len;
	size_t cap;
	FILE *fp;
	int err;     /* first write error, as -errno */
	u64 flushes; /* written out so far: what was at [len..] moved */
};

int script_buf__init(struct script_buf *b, FILE *fp);
void script_buf__exit(struct script_buf *b);
int script_buf__flush(struct script_buf *b);
/* flush once a good amount is buffered; cheap to call per record */
static inline int script_buf__maybe_flush(struct script_buf *b)
{
	return b->len >= b->cap / 2 ? script_buf__flush(b) : 0;
}
void __script_buf__putc(struct script_buf *b, char c);
static inline void script_buf__putc(struct script_buf *b, char c)
{
	if (b->len < b->cap)
		b->data[b->len++] = c;
	else
		__script_buf__putc(b, c);
}
void script_buf__write(struct script_buf *b, const void *p, size_t n);
void script_buf__puts(struct script_buf *b, const char *s);
/* %*s / %-*s */
void script_buf__pad_str(struct script_buf *b, const char *s, int width, bool left);
/* %*llx, %*llu, %*lld, with space padding (negative width: left aligned) */
void script_buf__hex(struct script_buf *b, u64 v, int width);
void script_buf__udec(struct script_buf *b, u64 v, int width);
void script_buf__sdec(struct script_buf *b, s64 v, int width);
void script_buf__printf(struct script_buf *b, const char *fmt, ...) __printf(2, 3);

/*
 * One resolved address: the caller fills this from the machine model (or
 * by hand, in tests), so the printers need no lookups of their own.
 */
struct script_loc {
	u64 ip;		 /* as recorded */
	u64 addr;	 /* object-relative: for the symbol offset */
	bool relative;	 /* a callchain line shows addr (user objects), not ip */
	const char *sym; /* NULL: [unknown] */
	u64 sym_start;	 /* object-relative */
	u64 sym_end;
	const char *dso; /* NULL: [unknown] */
	/* strlen() of sym and dso when they are still len_sym and len_dso */
	const char *len_sym, *len_dso;
	size_t sym_len, dso_len;
	bool inlined;	     /* a function inlined there: "(inlined)" stands for the dso */
	const char *srcline; /* -F srcline: "file.c:12", or perf's "dso[addr]"; NULL: none */
};

struct script_sample_info {
	const char *comm; /* NULL when the thread is unknown: perf's ":-1" */
	struct script_loc loc;
	/*
	 * -F addr of an event whose addr is a code or data address perf
	 * resolves (page faults, BTS): its sym and dso, printed after it;
	 * NULL for other events
	 */
	const struct script_loc *addr_loc;
	/* PERF_SAMPLE_CALLCHAIN resolved, or has_chain false to print one line */
	bool has_chain;
	const struct script_loc *frames;
	u32 nr_frames;
	/* trace field: the formatted tracepoint, or NULL */
	const char *trace;
	/* insn, disasm, poked: printed at the end of the line */
	const char *text;
	size_t text_len;
	/* brstack, brstacksym or brstackoff, after uregs */
	const char *branches;
	size_t branches_len;
	/* --json: the text fields apart (NULL: not known) */
	int json_insnlen;
	const char *json_insn;
	const char *json_disasm;
	bool json_poked;
	u64 json_poked_time;
};

/*
 * The text of recently printed numbers at one place of the line (pid,
 * tid, seconds, period repeat from sample to sample): a few slots chosen
 * by the value's low bits.  Zeroed means empty.
 */
#define SCRIPT_NUM_CACHE_SLOTS 16

struct script_num_cache {
	u64 v[SCRIPT_NUM_CACHE_SLOTS];
	u8 len[SCRIPT_NUM_CACHE_SLOTS];
	char text[SCRIPT_NUM_CACHE_SLOTS][64];
};

/* the same for ips, which are many more: callchain frames */
#define SCRIPT_IP_CACHE_BITS 9
#define SCRIPT_IP_CACHE_SLOTS (1U << SCRIPT_IP_CACHE_BITS)

struct script_ip_cache {
	u64 v[SCRIPT_IP_CACHE_SLOTS];
	u8 len[SCRIPT_IP_CACHE_SLOTS];
	char text[SCRIPT_IP_CACHE_SLOTS][48];
};

/*
 * HEADER_CLOCK_DATA: the wall clock and the recording's clock read at one
 * instant, so a sample's time converts to a time of day (-F tod)
 */
struct script_tod {
	bool enabled; /* the recording has the feature (perf record -k) */
	u64 tod_ns;
	u64 clockid_ns;
	/* the last second converted and its "%F %H:%M:%S" text */
	s64 cached_sec;
	char date[64];
};

/* 0, or -EINVAL when @size bytes are not a version 1 HEADER_CLOCK_DATA */
int script_tod__init(struct script_tod *tod, const void *buf, u64 size);
/* "2026-12-01 16:31:16.097449" (9 digits with @nanosecs), perf's "disabled" without data */
size_t script_tod__scnprintf(struct script_tod *tod, char *buf, size_t size, u64 time,
			     bool nanosecs);

struct script_printer {
	struct script_buf out;
	struct script_fields *fields;
	int name_width; /* longest event name in the recording */
	bool nanosecs;	/* --ns */
	bool reltime;	/* --reltime: from the first line's time */
	bool deltatime; /* --deltatime: from the previous line's */
	struct script_tod tod;
	u64 initial_time, previous_time;
	bool use_callchain; /* not -G, and some event has callchains */
	int data_src_width; /* widest data_src column so far */
	/* pid "%5d", tid "%-5d" and "%5d", seconds "%5lu", period "%10llu", ip "%16llx" */
	struct script_num_cache pid5, tid_left5, tid5, secs5, period10;
	struct script_ip_cache ip16;
	bool json;		   /* --json: script-json.c writes the records */
	int json_frames;	   /* callchain entries written, -1 outside a "callchain" array */
	struct script_buf scratch; /* text of a JSON member (fp NULL: it grows, never flushes) */
	struct script_frame_line *frame_lines; /* script_print__frame_keep()'s, NULL: none yet */
};

/*
 * A sample's time as the time field shows it: since the first line with
 * --reltime, since the previous one with --deltatime (each call is one
 * printed line), else as recorded
 */
u64 script_printer__time(struct script_printer *p, u64 time);

/* the fields of @evsel's output type, after script_fields__check_evsel() */
static inline u64 script_printer__fields(const struct script_printer *p, const struct evsel *evsel)
{
	return script_fields__get(p->fields, evsel->attr.type);
}
/* whether samples of @evsel print their callchain (and comm left aligned) */
bool script_printer__callchain(const struct script_printer *p, const struct evsel *evsel);

/*
 * A sample line: script_print__sample() when the frames are at hand, or
 * head, one script_print__frame() per callchain entry, and tail when they
 * are produced one at a time (info->frames is then unused).
 */
void script_print__sample(struct script_printer *p, const struct perf_sample *sample,
			  const struct evsel *evsel, const struct script_sample_info *info);
/* false when the event type prints nothing at all */
bool script_print__sample_head(struct script_printer *p, const struct perf_sample *sample,
			       const struct evsel *evsel, const struct script_sample_info *info);
void script_print__frame(struct script_printer *p, const struct evsel *evsel,
			 const struct script_loc *frame);

/*
 * A recorded callchain frame's line is decided by its address, what the
 * lookup of it depends on (thread__find_gen()'s numbers) and the event's
 * fields: kept by those, a frame met again is copied, neither resolved nor
 * printed again.  script_print__frame_again(): printed when kept;
 * script_print__frame_keep(): script_print__frame(), the line kept.  Only
 * for frames printed whole on one line (no srcline, no inlined function).
 */
struct script_frame_key {
	u64 ip, gen, spans;
	const struct evsel *evsel;
	u8 cpumode;
};
bool script_print__frame_again(struct script_printer *p, const struct script_frame_key *k);
void script_print__frame_keep(struct script_printer *p, const struct evsel *evsel,
			      const struct script_loc *frame, const struct script_frame_key *k);
void script_printer__exit(struct script_printer *p);
/* "%16llx sym+off (dso)" of @loc, as @fields ask (SF_IP for the address) */
void script_print__loc(struct script_printer *p, const struct script_loc *loc, u64 ip, u64 fields);
void script_print__sample_tail(struct script_printer *p, const struct perf_sample *sample,
			       const struct evsel *evsel, const struct script_sample_info *info);

/* the synth field (of PERF_TYPE_SYNTH samples) and a page size, as the line has them */
void script_print__synth(struct script_buf *b, const struct perf_sample *sample,
			 const struct evsel *evsel);
void script_print__page_size(struct script_buf *b, u64 size);

/*
 * A side-band record as perf script --show-*-events prints it: the start
 * of a sample line (comm, tid, cpu, time) when @evsel is known, then
 * PERF_RECORD_<NAME> and the record's own fields.  @poke_sym is the kernel
 * symbol at a TEXT_POKE's address, if known.
 */
void script_print__side_band(struct script_printer *p, const union perf_event *event,
			     const struct perf_sample *sample, const struct evsel *evsel,
			     const char *comm, const struct script_loc *poke_sym);
/* after the side-band record's lines: --json closes its object */
void script_print__side_band_end(struct script_printer *p);

#endif /* __PERF_TEXTPOKE_SCRIPT_PRINT_H */
