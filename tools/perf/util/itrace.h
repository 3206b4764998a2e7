/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_ITRACE_H
#define __PERF_TEXTPOKE_ITRACE_H

#include "event.h"
#include "text-image.h"
#include "types.h"

/*
 * perf script --itrace: samples synthesized from a hardware trace (Intel
 * PT), printed among the recorded ones in time order, as perf does.
 */
struct itrace_opts {
	bool set;      /* --itrace given (else perf's default for AUX recordings) */
	bool branches; /* b */
	/* c, r: only calls (with interrupts and trace ends), returns (with trace starts) */
	bool calls;
	bool returns;
	bool insns;	    /* i */
	bool errors;	    /* e */
	bool pwr_events;    /* p: PSB and CBR events (power-state packets: not synthesized) */
	bool transactions;  /* x: the event exists, TSX transactions are not synthesized */
	bool ptwrites;	    /* w: the event exists, PTWRITE packets are not synthesized */
	bool callchain;	    /* g: callchains from the trace's call stacks (report only) */
	u32 callchain_sz;   /* g's number: frames at most (perf's default 16) */
	bool add_callchain; /* report's default: chains for the recorded samples too */
	u64 period;	    /* i's: N instructions, or N ns when period_ns */
	bool period_ns;
};

/* perf's --itrace letters: "b", "i1i", "i100us", "ce"; 0 or -EINVAL with the reason printed */
int itrace_opts__parse(struct itrace_opts *o, const char *arg);
/*
 * What perf 6.1 script does without --itrace (itrace_synth_opts__set_default()
 * with default_no_sample): calls, errors, power and PSB events, ptwrites
 * and transactions, "cepwx"
 */
void itrace_opts__set_default(struct itrace_opts *o);
/*
 * What perf 6.1 report does without --itrace: instructions every 100 us
 * with callchains, errors, power and PSB events, ptwrites, transactions
 * (itrace_synth_opts__set_default() with branches off, callchain on)
 */
void itrace_opts__set_report_default(struct itrace_opts *o);
/*
 * What perf 6.1 inject does with --itrace and no options: instructions
 * every 100 us, branches, errors, power and PSB events, ptwrites and
 * transactions, no chains ("i100usbepwx")
 */
void itrace_opts__set_inject_default(struct itrace_opts *o);

struct itrace;
struct evsel;
struct perf_session;
struct script_printer;
struct script_filter;
struct machine;

/*
 * @input: the recording (its text image is read from it for a file);
 * @filter: --time, -C (may be inactive).
 */
struct itrace *itrace__new(const struct itrace_opts *opts, struct perf_session *session,
			   struct script_printer *printer, const char *input,
			   const struct text_image_opts *text, const struct script_filter *filter,
			   bool filtering);
void itrace__delete(struct itrace *it);

/* AUXTRACE_INFO, AUXTRACE, TIME_CONV (user records) */
int itrace__user_event(struct itrace *it, union perf_event *event, struct perf_session *session);
/* the trace bytes after an AUXTRACE record */
int itrace__auxtrace_data(struct itrace *it, const void *buf, u64 len);
/* before a record of @time is printed: the trace up to it */
int itrace__flush_until(struct itrace *it, u64 time);
/* after a side-band record is in the machine model */
int itrace__side_band(struct itrace *it, union perf_event *event, struct perf_sample *sample);
/* after the last record: the rest of the trace */
int itrace__finish(struct itrace *it);
/*
 * report: each synthesized sample goes to @fn, as a recorded one goes to
 * the tool's sample callback, instead of being printed (@evsel is one the
 * trace added to the session's evlist); errors are counted, not printed.
 * With 'g' the instruction samples get perf's callchains.  0 or -ENOMEM.
 */
typedef int (*itrace_sample_fn)(void *arg, struct evsel *evsel, struct perf_sample *sample);
int itrace__set_sink(struct itrace *it, itrace_sample_fn fn, void *arg);
/*
 * inject: with a sink, each decoder error goes to @fn too (when 'e' is
 * asked for), with what perf's PERF_RECORD_AUXTRACE_ERROR holds
 */
struct itrace_error {
	u64 time;
	u64 ip;
	s32 cpu, pid, tid;
	int code;
	const char *msg;
};
typedef int (*itrace_error_fn)(void *arg, const struct itrace_error *e);
void itrace__set_error_sink(struct itrace *it, itrace_error_fn fn, void *arg);
/* whether the sink's samples (all but branches) carry chains: 'g' */
bool itrace__has_callchains(const struct itrace *it);
/*
 * In the sink: the bytes the decoder walked for the sample's instruction
 * (an instruction sample's, or a branch's source when known), their
 * length (0: not known) and *@bytes, valid until the sink returns
 */
int itrace__sink_insn(const struct itrace *it, const u8 **bytes);
/*
 * A recorded sample's chain from the trace's call stacks as they are at
 * its time (report's default, perf's add_callchain), or NULL: into the
 * itrace's own buffer, valid until the next call
 */
const struct ip_callchain *itrace__recorded_chain(struct itrace *it,
						  const struct perf_sample *sample);
/* the decode errors met so far (perf's instruction trace errors) */
u64 itrace__nr_errors(const struct itrace *it);
/* whether a recording's attrs ask for decoding (an AUX PMU is there) */
bool itrace__active(const struct itrace *it);

#endif /* __PERF_TEXTPOKE_ITRACE_H */
