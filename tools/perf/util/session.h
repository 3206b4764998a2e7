/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_SESSION_H
#define __PERF_TEXTPOKE_SESSION_H

#include "event.h"
#include "evsel.h"
#include "header.h"
#include "types.h"

struct machine;
struct perf_session;
struct perf_data;
struct perf_session_state;
struct ordered_events;

/*
 * What a command does with the records of a recording.  Records reach the
 * tool in time order (when ordered_events is set) after the session has
 * parsed them.  A NULL side_band means "just keep the machine model up to
 * date" (machine__process_event()); a tool that sets it must call
 * machine__process_event() itself, at the moment it chooses (perf script
 * prints an EXIT before the thread goes away, a COMM after the rename).
 */
struct perf_tool {
	int (*sample)(struct perf_tool *tool, union perf_event *event, struct perf_sample *sample,
		      struct evsel *evsel, struct machine *machine);
	/* every kernel record that is not a SAMPLE: MMAP*, COMM, FORK, ... */
	int (*side_band)(struct perf_tool *tool, union perf_event *event,
			 struct perf_sample *sample, struct evsel *evsel, struct machine *machine);
	/*
	 * user records (type >= 64) other than those the session consumes;
	 * FINISHED_ROUND too when the tool does not order events (inject
	 * copies the rounds)
	 */
	int (*user_event)(struct perf_tool *tool, union perf_event *event,
			  struct perf_session *session);
	/*
	 * every feature payload as it is in the file or stream (file byte
	 * order), before the session parses it: inject copies them
	 */
	int (*feature)(struct perf_tool *tool, int feat, const void *buf, u64 size);
	/*
	 * the trace that follows an AUXTRACE record (delivered to user_event
	 * first), in pieces, in order; without it the trace is skipped
	 */
	int (*auxtrace_data)(struct perf_tool *tool, const void *buf, u64 len);
	/*
	 * a pass that never decodes the trace, beside the command's own that
	 * says whether it did (the text image's): its skipped trace is not
	 * said as undecoded
	 */
	bool trace_elsewhere;
	/*
	 * kernel record types (bit 1 << type) the tool has no use for:
	 * skipped unparsed and unqueued, as samples are for a tool with no
	 * .sample (report's profile pass skips the TEXT_POKEs the text image
	 * read); still counted, and still checked for their time order
	 */
	u64 skip_types;
	/*
	 * a sample the tool leaves out on its time and cpu alone (script's
	 * --time and -C), or on what its record says (annotate -s): dropped
	 * before it is queued, parsed, resolved or copied, and still checked
	 * for its time order.  A sample that does not parse, or whose id no
	 * attr claims, goes on to delivery and its error or count.
	 */
	bool (*sample_drop)(struct perf_tool *tool, const struct evsel *evsel, u64 time, u32 cpu,
			    const union perf_event *event);
	/*
	 * a parallel run reads the kernel's symbols once, before its workers
	 * fork, when the recording has samples in the kernel; a tool that
	 * may leave those samples out unresolved (annotate -s) decides here
	 * what one worker would decide at its first such sample, and reads
	 * them (machine__preload_kernel()) only if it will want them.
	 * NULL: they are read
	 */
	void (*preload_kernel)(struct perf_tool *tool, struct machine *machine);
	bool ordered_events;
	/*
	 * when the input is cut off (perf_session.truncated), the tool says
	 * perf_session__cut_message() itself, after the output it salvaged;
	 * else perf_session__process_events() says it
	 */
	bool defer_cut;
	/*
	 * a parallel run's worker is done with a chunk: what the tool holds
	 * of its output goes out now, before the output moves to the next
	 */
	int (*flush_output)(struct perf_tool *tool);
};

struct events_stats {
	u64 nr_events[PERF_RECORD_HEADER_MAX];
	u64 nr_unknown_events;
	u64 nr_unordered_events; /* arrived later than already delivered ones */
	u64 nr_lost_events;	 /* sum of LOST.lost */
	u64 nr_lost_samples;	 /* sum of LOST_SAMPLES.lost */
	u64 nr_invalid_samples;	 /* could not be parsed: skipped, counted */
	u64 nr_unknown_id;
	u64 total_bytes;
	u64 nr_forced_flushes;	 /* ordered-events memory cap hit: oldest half delivered early */
	u64 nr_auxtrace_bytes;	 /* AUXTRACE payload skipped */
	u64 nr_compressed_bytes; /* decompressed from COMPRESSED / COMPRESSED2 */
	u64 nr_oversized;	 /* longer than their fields: a damaged size? */
	u64 first_oversized;	 /* the offset of the first of those */
	/* the SAMPLEs among those: a worker counts only its own chunks' */
	u64 nr_oversized_samples;
	u64 first_oversized_sample;
};

/*
 * One worker of a parallel run (session-workers.c).  The recording is cut
 * into chunks of time; a worker claims chunks as its reading reaches
 * them, keeps the samples of its chunks, steps over the others' unread,
 * and reads all the side-band.
 */
struct workers_state;
/*
 * consecutive samples in time order, [off, end) of the file: nr of them,
 * their times from t_lo to t_hi (a run ends where time goes back: a round
 * holds each CPU's samples one CPU after the other)
 */
struct sample_run {
	u64 off, end, nr;
	u64 t_lo, t_hi;
};

struct session_window {
	bool active;
	bool stop;    /* no chunk left to claim or finish: stop reading */
	u64 next_off; /* session_window__step() is due at this file offset */
	/* samples outside [parse_from, parse_to) are stepped over unread */
	u64 parse_from, parse_to;
	/*
	 * the runs of samples in file order (the parent's walk found them; NULL
	 * if it kept none), so that those outside the range above are stepped
	 * over whole, their headers never read; run: the next to look at
	 */
	const struct sample_run *runs;
	size_t nr_runs, run;
	/* where every sample has its time, from the record's start; 0: not known */
	u32 time_at;
	/* the samples before this offset are kept, their run's times all this worker's */
	u64 keep_until;
	struct workers_state *ws;
};

struct perf_session {
	struct perf_data *data;
	const char *path;		     /* for messages: the file as the user named it */
	struct perf_file_header file_header; /* host endian */
	bool is_pipe;
	bool needs_swap;
	u64 feat_bitmap[HEADER_FEAT_BITS / 64];
	struct perf_env env;
	struct evlist *evlist;
	struct machine *machine;
	struct perf_tool *tool;
	struct ordered_events *ordered;
	struct events_stats stats;
	void *zstd; /* decompression state for COMPRESSED records */
	/* offset in the file (or stream) of the record being handled */
	u64 cur_offset;
	/* ... of the sample being delivered (queued ones come later than they are read) */
	u64 deliver_offset;
	/* file mode: where the records are */
	u64 data_offset;
	u64 data_size;
	/* 2012 ChromeOS pipe: types 69..80 carry header features */
	bool legacy_pipe;
	bool seen_header_end; /* HEADER_LAST_FEATURE or FINISHED_INIT seen */
	bool no_rounds;	      /* reading data.N of a directory: rounds are per file */
	/*
	 * the input ends inside a record: perf_session__process_events()
	 * delivered every complete record before the cut, then failed
	 */
	bool truncated;
	struct session_window window; /* a worker's share of a parallel run */
	/*
	 * a parallel run's workers read the side-band to the end, past their
	 * last chunk: for a command whose merged output names threads as the
	 * end of the recording left them (report's pid column)
	 */
	bool workers_read_side_band;
	struct perf_session_state *state; /* buffers private to session.c */
	struct perf_tool null_tool;	  /* used when perf_session__new() gets no tool */
};

/* why the input ended early, without a newline; NULL if it did not */
const char *perf_session__cut_message(const struct perf_session *session);

/*
 * Open @path ("-" for stdin, a file, or a perf.data/ directory), read the
 * header, attrs and features, and set up the machine model.  NULL with an
 * error printed (naming the file and offset) on bad input.
 */
struct perf_session *perf_session__new(const char *path, struct perf_tool *tool);
void perf_session__delete(struct perf_session *session);

/* Deliver every record.  0, or a negative errno with an error printed. */
int perf_session__process_events(struct perf_session *session);
/*
 * A file's first records that are delivered as they are read (perf
 * record's side-band of the threads and maps that were there, which has
 * no time), delivered now; perf_session__process_events() then reads on
 * after them.  0 or the error of the record that failed.
 */
int perf_session__process_preamble(struct perf_session *session);
/*
 * A user record (type >= 64) that only describes the recording (ids,
 * maps of threads and CPUs, names, the clock): read where it stands, it
 * orders nothing and prints nothing
 */
bool perf_session__inert_type(u32 type);

bool perf_session__has_feat(const struct perf_session *session, int feat);
/* the kcore_dir/ of a directory-mode recording, or NULL */
const char *perf_session__kcore_dir(const struct perf_session *session);

#endif /* __PERF_TEXTPOKE_SESSION_H */
