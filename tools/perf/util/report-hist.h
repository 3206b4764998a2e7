/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_REPORT_HIST_H
#define __PERF_TEXTPOKE_REPORT_HIST_H

#include <stdio.h>

#include "types.h"

struct perf_sample;
struct evsel;
struct addr_location;
struct callchain_frame;

/*
 * perf textpoke report: the profile, as perf report --stdio prints it.
 * Samples are attributed at their time (machine__resolve()), so a BPF
 * address that held program A and later program B splits as perf's
 * forward pass splits it.  One histogram per event (evsel), as perf
 * prints one block per event.
 *
 * With callchains, as perf's --children (its default then): besides its
 * own period (Self), each entry accumulates the period of every sample
 * whose chain holds it (Children), once per sample however often the
 * chain holds it, as perf's cumulative hist_entry_iter does.
 */
enum report_sort_key {
	SORT_COMM,
	SORT_PID,
	SORT_TID,
	SORT_DSO,
	SORT_SYM,
	SORT_CPU,
	SORT_ABI,      /* the user-register ABI word of the sample: none, 32, 64 */
	SORT_DSO_SIZE, /* the size of the sample's map, as perf's dso_size */
	SORT_SYMOFF,   /* symbol and offset in it: upstream perf's symoff (6.7), not 6.1's */
	SORT_SRCLINE,  /* "file.c:12", or perf's "sym+off" where no line is known */
	SORT_SRCFILE,  /* the source file alone, "" where none is known */
	SORT_PARENT,   /* the chain's first frame matching --parent, "[other]" without one */
	SORT__MAX,
};

struct hist_entry {
	/* the keys, filled for the ones sorted on */
	const char *comm;
	const char *thread_comm; /* the thread's last name: perf's pid column shows it */
	u32 pid, tid;
	const char *dso;
	const char *sym;   /* NULL: [unknown], printed with the address as perf does */
	bool inlined;	   /* sym is a function DWARF inlined there: "sym (inlined)" */
	u64 ip;		   /* for an unknown symbol */
	u64 sym_start;	   /* the symbol's start, object-relative (as ip) */
	char level;	   /* '.' user, 'k' kernel, as perf's [.] [k] */
	bool sym_resolved; /* the first sample's symbol was known: perf sizes columns by it */
	bool has_map;	   /* dso_size: the sample had a map, else perf prints "unknown" */
	u64 dso_size;	   /* its map's size */
	u64 sym_offset;	   /* symoff: the address's offset in its symbol */
	const char *srcline, *srcfile; /* interned, for those keys */
	const char *parent;	       /* the --parent frame's symbol, NULL: [other] */
	s32 cpu;
	u64 abi;
	u64 nr_samples; /* of its own: perf's Samples column counts Self */
	u64 period;
	u64 children; /* the period of the samples whose chain holds it, Self's included */
	u32 id;	      /* its index among its histogram's entries, as the adders give it */
	/*
	 * with trees and Children: its longest chain and its first sample's
	 * thread (struct thread's tid and birth, the same in every worker)
	 */
	u32 max_depth;
	s32 thread_tid;
	u64 thread_birth;
	bool filtered;	/* only while sorting: perf's tree holds filtered entries too */
	u8 filters;	/* REPORT_FILTER_* that reject it (its first sample's) */
	u32 input_rank; /* only while sorting: its place in perf's input tree */
};

/* @a and @b were first made by one thread: perf's entries keep it, compared by address */
static inline bool hist_entry__same_thread(const struct hist_entry *a, const struct hist_entry *b)
{
	return a->thread_tid == b->thread_tid && a->thread_birth == b->thread_birth;
}

struct report_hist {
	const char *event_name;
	const char *time_slices; /* --time as given, NULL: the whole recording */
	bool children;		 /* entries' children periods are perf's Children */
	size_t nr_entries;
	struct hist_entry *entries; /* sorted as printed: overhead, then keys */
	u64 nr_samples;
	u64 total_period;
	/*
	 * the event's whole period, filtered samples' included: what the
	 * trees' percentages are of; total_period is it but with perf's
	 * --percentage relative, which leaves the filtered samples out
	 */
	u64 all_period, all_samples;
	u64 shown_samples, shown_period; /* the Self of the entries no filter rejects */
	/* per command: samples of each ABI (0 none, 1 32-bit, 2 64-bit, 3 other) */
	size_t nr_comms;
	struct report_abi_count {
		const char *comm;
		u64 nr[4];
	} * abi_counts;
	/* what follows each row printed (perf's call-graph tree), NULL: nothing */
	void (*fprintf_after)(const struct report_hist *h, const struct hist_entry *e, void *arg,
			      FILE *fp);
	void *after_arg;
	int idx; /* the event's index */
	/* the events of its group (HEADER_GROUP_DESC): perf says "of events" past one */
	u32 group_size;
	/*
	 * an event group's block (perf's --group): a value column per member,
	 * members[entry * nr_members + m], the leader's m = 0, each a share
	 * of member_totals[m]; NULL: the entries' own values
	 */
	u32 nr_members;
	const struct hist_member_vals {
		u64 period, nr_samples, children;
	} * members;
	const u64 *member_totals;
};

/* columns that are not sort keys, numbered after them */
enum report_column {
	REPORT_COL_OVERHEAD = SORT__MAX,
	REPORT_COL_CHILDREN, /* perf's overhead_children */
	REPORT_COL_SAMPLE,
	REPORT_COL_PERIOD,
	REPORT_COL__MAX,
};

#define REPORT_MAX_COLS REPORT_COL__MAX

/*
 * What splits the samples into entries, in which order the entries are
 * printed and which columns are: perf report's --sort, -F and -n.
 */
struct report_layout {
	int nr_sort;
	int sort[REPORT_MAX_COLS]; /* columns the rows are sorted by, in order */
	int nr_cols;
	int cols[REPORT_MAX_COLS]; /* columns printed, in order */
	bool key[SORT__MAX];	   /* the sort keys among them */
	bool elide[SORT__MAX];	   /* not printed: a one-name filter makes it constant */
	bool dso_filter;	   /* --dsos given: perf leaves the object column narrow */
	bool children;		   /* perf's --children: entries' percent limit is Children's */
	bool self_header;	   /* ... and -F not strict: "Children", then "Self" for Overhead */
};

/* perf's name of a column: "comm", "dso", "sym", "overhead", "sample" */
const char *report_column__name(int col);
/* its header in perf's profile: "Command", "Shared Object", "Overhead" */
const char *report_column__header(int col);

/* the columns perf report adds by option: -n, --show-total-period */
#define REPORT_SHOW_SAMPLES 1u
#define REPORT_SHOW_PERIOD 2u

/*
 * @sort: perf's --sort (NULL: comm,dso,sym), @fields: -F (NULL: none);
 * @show: REPORT_SHOW_* (-n, --show-total-period: a bool is -n alone);
 * @children: perf's --children, which puts "Children" (renaming
 * "Overhead" to "Self") before the columns and sorts on it first unless
 * -F names the columns.  0, or -EINVAL with a one-line error naming the
 * unknown key.
 */
int report_layout__parse(struct report_layout *l, const char *sort, const char *fields,
			 unsigned int show, bool children);

/* the histograms of a session, one per event, filled sample by sample */
struct report_hists;

/* @time_slices: --time as given, or NULL */
struct report_hists *report_hists__new(const struct report_layout *l, size_t nr_events,
				       const char *time_slices);
void report_hists__delete(struct report_hists *rh);

/*
 * What rejects a sample (perf's filter bits, by which --hierarchy's
 * levels tell which of them applies to their key)
 */
enum report_filter {
	REPORT_FILTER_THREAD = 1,	  /* --comm, --pid, --tid */
	REPORT_FILTER_DSO = 2,		  /* --dsos */
	REPORT_FILTER_SYMBOL = 4,	  /* --symbols */
	REPORT_FILTER_OTHER = 8,	  /* a guest's sample, -x's entry without a parent */
	REPORT_FILTER_SYMBOL_FILTER = 16, /* --symbol-filter, on the entry made */
};

/*
 * One resolved sample of event @idx; @filtered: REPORT_FILTER_* of the
 * filters that reject it (counted in the totals, as perf counts it, not
 * shown), 0: none.  0 or -ENOMEM.
 */
int report_hists__add(struct report_hists *rh, int idx, const char *event_name,
		      const struct addr_location *al, const struct perf_sample *sample,
		      unsigned int filtered);
/*
 * The parent key of the samples added next (perf's --parent: the first
 * frame of the chain whose symbol matches), NULL: "[other]".  0 or -ENOMEM.
 */
/*
 * Where the sample about to be added lies: its time and file offset, the
 * order one reader delivers samples in.  Entries remember their first,
 * so that a parallel run's merged histogram lists them as one reader's.
 */
void report_hists__set_place(struct report_hists *rh, u64 time, u64 off);
/*
 * A parallel run (report-hist-merge.c): the histograms of a worker to
 * @fp, and another worker's read from @fp and added to @rh's.  0 or a
 * negative errno; -ENODATA: the state ends early.
 */
int report_hists__send(struct report_hists *rh, FILE *fp);
int report_hists__merge(struct report_hists *rh, FILE *fp);
/*
 * After report_hists__merge(): the index here of entry @entry of histogram
 * @hist as the worker just merged numbered it; -ENOENT when it sent none.
 */
long report_hists__peer_entry(const struct report_hists *rh, int hist, u32 entry);
/*
 * After the last merge: the merged entries made again in the order of
 * their first touches, as one reader makes them (else done by
 * report_hists__finish()); @renumber is told, per histogram, each old
 * index's new one.  0 or -ENOMEM, or what @renumber returns.
 */
int report_hists__order_merged(struct report_hists *rh,
			       int (*renumber)(void *arg, int hist, const u32 *new_idx, size_t nr),
			       void *arg);
int report_hists__set_parent(struct report_hists *rh, const char *name);
/* perf's --symbol-filter: entries whose symbol does not hold @str are not shown */
void report_hists__set_symbol_filter(struct report_hists *rh, const char *str);
/* what report_hist__fprintf() prints after each row of the histograms finished later */
void report_hists__set_after(struct report_hists *rh,
			     void (*fn)(const struct report_hist *h, const struct hist_entry *e,
					void *arg, FILE *fp),
			     void *arg);
/*
 * With call-graph trees, perf 6.1 orders entries of equal Children of one
 * thread by their longest chain (@depth's answer): the deeper first when
 * @caller, else the shallower; and without @caller perf walks the chains
 * callee first, which gives a frame outside every map another level
 */
void report_hists__set_depth(struct report_hists *rh, u32 (*depth)(void *arg, int idx, u32 entry),
			     void *arg, bool caller);
/* the entry (its id) of the sample last given to report_hists__add() */
u32 report_hists__sample_entry(const struct report_hists *rh);

/*
 * One frame of the chain of the sample last given to report_hists__add()
 * (@al and @filtered as given there): the period goes to the frame's
 * entry's children, unless an earlier frame of the sample, or the sample
 * itself, already gave it.  The entry has the sample's command, thread,
 * cpu and ABI, and the frame's object and symbol.  0 or -ENOMEM.
 */
int report_hists__add_frame(struct report_hists *rh, int idx, const struct callchain_frame *frame,
			    const struct addr_location *al, const struct perf_sample *sample,
			    unsigned int filtered);
/* the entry (its id) of the frame last given to report_hists__add_frame() */
u32 report_hists__frame_entry(const struct report_hists *rh);
/* after the sample's last frame, the outermost */
void report_hists__end_chain(struct report_hists *rh, int idx);
/*
 * The entries the sample's chain gave Children to so far, each once, the
 * sample's own first (as report_hists__add() left it)
 */
const u32 *report_hists__chain_entries(const struct report_hists *rh, size_t *nr);
/*
 * A chain seen before, again (report-chain-cache.h): @period to the
 * children of @entries of histogram @idx, entries of earlier samples
 */
void report_hists__add_children(struct report_hists *rh, int idx, const u32 *entries, size_t nr,
				u64 period);

/*
 * Sorts and returns the histograms as @l (the layout given to
 * report_hists__new(), or one with other columns, once the recording
 * says whether it has callchains) orders them; valid until
 * report_hists__delete().
 */
const struct report_hist *report_hists__finish(struct report_hists *rh,
					       const struct report_layout *l, size_t *nr);
/*
 * perf's --percentage relative: the counts and percentages of the
 * histograms finished later are of the samples no filter rejects
 */
void report_hists__set_relative(struct report_hists *rh, bool relative);
/*
 * --hierarchy: the histograms finished later hold the entries filters
 * reject too (hist_entry.filtered, .filters), whose periods perf's
 * upper levels count
 */
void report_hists__keep_filtered(struct report_hists *rh, bool keep);

/*
 * One event's block as perf report --stdio prints it, from "# Samples:"
 * on; rows below @percent_limit are left out.
 */
void report_hist__fprintf(const struct report_hist *h, const struct report_layout *l,
			  float percent_limit, FILE *fp);
/* --hierarchy's options */
struct report_hier_opts {
	float percent_limit;  /* rows below it left out */
	bool relative;	      /* --percentage relative */
	unsigned int filters; /* REPORT_FILTER_* of the filters given */
};

/*
 * The block as perf's --hierarchy prints it: a level per sort key, the
 * other columns (overhead, samples) before them, what follows a row
 * (the call-graph tree) under the last level's rows.  @h holds the
 * filtered entries too (report_hists__keep_filtered()).  0 or -ENOMEM.
 */
int report_hist__fprintf_hierarchy(const struct report_hist *h, const struct report_layout *l,
				   const struct report_hier_opts *o, FILE *fp);

/* a row of --hierarchy's text, as --json carries it */
struct report_hier_row {
	/* its node, and the nearest one above it printed (SIZE_MAX: none) */
	size_t node, up;
	const struct hist_entry *e;	/* its level's key and its counts */
	const struct hist_entry *entry; /* a last-level row's entry, its tree's; else NULL */
	const struct report_hist *h;	/* its percentages' total (perf's recount) */
	const struct report_hist *tree; /* the one its tree is printed with */
	int depth, key;			/* its level, and the level's key (SORT_*) */
	bool no_entry;			/* perf prints "no entry >= N%" under it */
};

/*
 * The rows report_hist__fprintf_hierarchy() prints, in its order, each
 * given to @fn; the first error it returns ends the walk and is
 * returned.  0, -ENOMEM or -EINVAL (no sort key).
 */
int report_hist__walk_hierarchy(const struct report_hist *h, const struct report_layout *l,
				const struct report_hier_opts *o,
				int (*fn)(void *arg, const struct report_hier_row *r), void *arg);
/* one sort key's order of two entries: @input, perf's input tree's; else its output's */
int report_entry__cmp_key(int key, const struct hist_entry *a, const struct hist_entry *b,
			  bool input);
/*
 * perf's output order where its comparison is no total order: @n items
 * inserted in index order into a red-black tree (@cmp(a, b) < 0: a goes
 * left of b), their in-order sequence in @order.  0 or -ENOMEM.
 */
int report_rb_order(u32 n, int (*cmp)(u32 a, u32 b, void *arg), void *arg, u32 *order);
/* the per-command ABI counts, our addition */
void report_hist__fprintf_abi(const struct report_hist *h, FILE *fp);
/* how many of the ABI words (none, 32, 64, other) the histogram's samples hold */
int report_hist__nr_abis(const struct report_hist *h);

#endif /* __PERF_TEXTPOKE_REPORT_HIST_H */
