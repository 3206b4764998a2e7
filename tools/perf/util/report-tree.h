/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_REPORT_TREE_H
#define __PERF_TEXTPOKE_REPORT_TREE_H

#include <stdbool.h>
#include <stdio.h>

#include "types.h"

struct callchain_frame;

/*
 * The call-graph trees under the entries of perf textpoke report --stdio,
 * as perf report 6.1 builds and prints them (-g/--call-graph).
 *
 * Each entry has a tree of the chains its samples gave it: a radix tree
 * whose nodes are runs of frames, split where two chains part, a node
 * counting the period of the chains that end in it (hit) and of those
 * that go on below it (children_hit).  Two frames are one when they are
 * in one function (or at one address, for a frame without a symbol).
 */
enum report_tree_mode {
	REPORT_TREE_NONE,
	REPORT_TREE_GRAPH,   /* perf's graph: percentages of the event's total */
	REPORT_TREE_FRACTAL, /* each level's percentages of its parent's */
	REPORT_TREE_FLAT,    /* one chain per line block, root first */
	REPORT_TREE_FOLDED,  /* one chain per line, frames joined by ';' */
};

enum report_tree_value {
	REPORT_TREE_PERCENT,
	REPORT_TREE_PERIOD,
	REPORT_TREE_COUNT,
};

struct report_tree_opts {
	enum report_tree_mode mode;
	bool caller;	    /* outermost frame first: perf's caller order */
	bool order_set;	    /* the order was given (-g caller/callee or -G) */
	double min_percent; /* the threshold below which a branch is not shown */
	u32 print_limit;    /* the chains printed at most a level, 0: all */
	enum report_tree_value value;
	bool address; /* the address key: frames told apart by address, printed with their line */
	bool set;     /* -g was given */
};

/* perf's defaults: graph,0.5,caller,function,percent (the order chosen later) */
void report_tree_opts__init(struct report_tree_opts *o);

/*
 * -g/--call-graph's argument as perf report takes it: comma-separated
 * words in any order, each a prefix of a mode (graph, flat, fractal,
 * folded, none), an order (caller, callee), a key (function, address) or a value
 * (percent, period, count); then numbers, the threshold and the print
 * limit.  0, or -EINVAL with @err naming the word not taken.
 */
int report_tree_opts__parse(struct report_tree_opts *o, const char *arg, const char **err,
			    size_t *err_len);

struct report_trees;

struct report_trees *report_trees__new(const struct report_tree_opts *o);
void report_trees__delete(struct report_trees *t);

/*
 * One sample's chain: report_trees__begin() with its own entry (histogram
 * @hist, entry @entry as report_hists gives it), the frames callee first,
 * each with the entry it made in Children mode (-1: none), then
 * report_trees__end(), which appends the chain to the sample's own entry
 * and, with @children, the part of it from each other entry's first
 * frame on to the entries of the chain.  0 or -ENOMEM.
 */
void report_trees__begin(struct report_trees *t, int hist, u32 entry);
int report_trees__frame(struct report_trees *t, const struct callchain_frame *frame, long entry);
int report_trees__end(struct report_trees *t, u64 period, bool children);
/* the gathered chain report_trees__end() last added to (report-chain-cache.h) */
u32 report_trees__last_chain(const struct report_trees *t);
/* a chain gathered before, given by report_trees__last_chain(), again */
void report_trees__add_chain(struct report_trees *t, u32 chain, u64 period);

/*
 * After the last sample, before the trees are read: report_trees__end()
 * gathers chains, this adds them to the trees.  0 or -ENOMEM.
 */
int report_trees__flush(struct report_trees *t);

/*
 * Where the sample whose chain comes next lies: its time and file offset,
 * the order one reader delivers samples in (a parallel run's merge puts
 * the chains back in it)
 */
void report_trees__set_place(struct report_trees *t, u64 time, u64 off);

/*
 * A parallel run (report-tree-merge.c).  Each worker keeps the objects
 * its frames name (report_trees__keep_objects(), before the first sample)
 * and its chains gathered, not flushed; the others send them, the last
 * chunk's worker merges each after the histograms of the same worker
 * (report_hists__merge()), then, after the last, renumbers their entries
 * as report_hists__order_merged() renumbers the histograms', puts them in
 * the order of their first samples (report_trees__order_merged()) and
 * flushes.  0, -ENOMEM, -EIO on a write, -ENODATA on a state that does
 * not fit (an entry or an object the merger does not have).
 */
struct dso;
struct report_trees_peer {
	/* in the sender: @dso's name and its place among the kernel's spans (-1: none) */
	int (*describe)(void *arg, const struct dso *dso, const char **name, long *ksym_index);
	/* in the merger: its object of that name (and span), NULL: none */
	const struct dso *(*lookup)(void *arg, const char *name, long ksym_index);
	/* in the merger: its entry for the sender's @entry of histogram @hist, < 0: none */
	long (*entry)(void *arg, int hist, u32 entry);
	void *arg;
};
void report_trees__keep_objects(struct report_trees *t);
int report_trees__send(struct report_trees *t, FILE *fp, const struct report_trees_peer *peer);
int report_trees__merge(struct report_trees *t, FILE *fp, const struct report_trees_peer *peer);
/* the gathered chains of histogram @hist: entry i is entry @new_idx[i] now (@nr entries) */
int report_trees__renumber(struct report_trees *t, int hist, const u32 *new_idx, size_t nr);
int report_trees__order_merged(struct report_trees *t);

/*
 * The longest chain given to the entry: perf orders entries of one thread
 * with equal Children by it, the deeper first in caller order
 */
u32 report_trees__max_depth(const struct report_trees *t, int hist, u32 entry);
bool report_trees__caller(const struct report_trees *t);

/*
 * The tree of entry @entry of histogram @hist as perf prints it under the
 * entry's row: @total, the event's total period; @base, what the
 * threshold is a percentage of in graph, flat and folded (@total, or the
 * unfiltered samples' with --percentage relative); @parent, the entry's
 * (Children's with --children); @skip_first: perf's --sort sym..., whose
 * single chain's first frame is the entry itself.
 */
void report_trees__fprintf(struct report_trees *t, int hist, u32 entry, u64 total, u64 base,
			   u64 parent, bool skip_first, FILE *fp);

/*
 * --json and --html: the tree of entry @entry of histogram @hist, one
 * frame at a time, as the text tree shows it: the chains of a node
 * heaviest first, those below the threshold (a share of @base) and past
 * the print limit left out.  A run of frames shared by the same chains
 * is one frame under the other, each with the run's period; enter() for
 * a frame, then its children, then leave().  The first error a callback
 * returns ends the walk and is returned; 0, or -ENOMEM.
 */
struct report_tree_frame {
	const char *name;    /* the symbol, NULL: none (ip says where) */
	const char *srcline; /* with the address key: its line; NULL: none */
	u64 ip;
	bool inlined;
	u64 period;	  /* of the chains through the frame */
	u64 self;	  /* of those ending at it */
	u32 nr_samples;	  /* the chains through it */
	u32 self_samples; /* the chains ending at it */
};

struct report_tree_visitor {
	int (*enter)(void *arg, const struct report_tree_frame *f, int depth);
	int (*leave)(void *arg, int depth);
	void *arg;
};

int report_trees__walk(struct report_trees *t, int hist, u32 entry, u64 base,
		       const struct report_tree_visitor *v);

#endif /* __PERF_TEXTPOKE_REPORT_TREE_H */
