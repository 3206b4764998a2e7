/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_REPORT_TREE_INTERNAL_H
#define __PERF_TEXTPOKE_REPORT_TREE_INTERNAL_H

/*
 * The call-graph trees' storage, shared by their building
 * (report-tree.c) and their printing and walking (report-tree-print.c).
 */
#include "report-tree.h"

/*
 * How frame__cmp() tells a frame from another, decided once per frame:
 * two frames of one class other than FRAME_INLINED compare by object,
 * then key, a total order; any other pair takes frame__cmp()'s full rules
 */
enum frame_class {
	FRAME_SYM,     /* in a symbol, not inlined: key is its start */
	FRAME_IP,      /* no symbol, or the address key: key is the address */
	FRAME_INLINED, /* a function inlined there: compared by name */
};

/* a frame of a node, or of the sample being added */
struct tree_frame {
	const char *name; /* the symbol's, NULL: none, printed as the address */
	u32 obj;	  /* the object's dso serial, 0: none; identity and order */
	u64 ip;		  /* as recorded */
	u64 start;	  /* the symbol's start */
	u64 key;	  /* start or ip, by cls */
	u8 cls;		  /* enum frame_class */
	bool inlined;	  /* name is a function inlined there: " (inlined)" */
	/* the address key: its source line, or perf's "+offset", "dso[addr]"; NULL: none */
	const char *srcline;
};

struct tree_node {
	u32 frame, nr_frames;
	u32 parent, child, next; /* 0: none (node 0 is not used) */
	/*
	 * the children's set in the child index: a split hands the set to
	 * the new tail node, so no entry of the index moves
	 */
	u32 kids;
	u8 child_cls; /* the classes of the children's first frames, a bit each */
	/*
	 * the children are listed as they came, not in key order: all of
	 * one class other than FRAME_INLINED, a total order that
	 * children__sort() restores (see node__add_child())
	 */
	bool unsorted;
	u32 out_child, out_next; /* the printed children, sorted */
	u32 count, children_count;
	u64 hit, children_hit;
};

struct sample_frame {
	struct tree_frame f;
	long entry;
	const struct dso *dso; /* f.obj's, for a parallel run's objects table */
};

/* a chain of samples gathered by report_trees__end() */
struct chain_rec {
	u64 hash;
	u64 period;    /* the samples' sum */
	u32 first, nr; /* its frames in struct chains' */
	u32 count;     /* the samples */
	int hist;
	u32 entry;
	bool children;
	/* its first sample's time and file offset (report_trees__set_place()) */
	u64 first_time, first_off;
};

/*
 * The gathered chains' frames are the trees' frames (struct
 * report_trees' frames), which the nodes made of them point into; each
 * frame's entry beside them, here, until the flush
 */
struct chains {
	struct chain_rec *recs;
	size_t nr_recs, alloc_recs;
	long *entries;
	u32 *table; /* open addressing by hash: recs' index + 1, 0: empty */
	size_t table_size;
};

struct report_trees {
	struct report_tree_opts opts;
	struct chains gather;
	u32 last_rec; /* the record report_trees__end() last added to */
	struct tree_node *nodes;
	size_t nr_nodes, alloc_nodes;
	struct tree_frame *frames;
	size_t nr_frames, alloc_frames;
	/* per histogram: the root node of each entry, 0: none yet */
	struct tree_index {
		u32 *root;
		u32 *max_depth; /* the longest chain given to the entry */
		size_t nr;
	} * index;
	size_t nr_index;
	/*
	 * the child index: (set, object and class, key) -> child, open
	 * addressing; a node's children are found there when neither they
	 * nor the frame looked for are inlined functions, compared by name
	 */
	struct child_slot {
		u32 kids, child; /* child 0: empty */
		u32 fid;
	} * slots;
	size_t nr_slots, slots_size;
	/*
	 * each frame's identity, beside frames: a number per distinct
	 * (object, class, key or inlined name), times 4, plus the class; two
	 * frames of one class are one exactly when their numbers are, so
	 * that building the trees reads these 4 bytes, not the frames
	 */
	u32 *fid;
	struct fid_slot {
		uintptr_t obj;
		u64 key;
		u32 fid; /* 0: empty */
	} * fids;
	size_t nr_fids, fids_size;
	/* interned names */
	char **names;
	size_t names_size, nr_names;
	char srcline_buf[128]; /* the current frame's made-up line */
	/* the sample being added */
	int hist;
	u32 entry;
	u64 place_time, place_off;
	struct sample_frame *chain;
	size_t nr_chain, alloc_chain;
	/* printing: a scratch list of nodes */
	u32 *list;
	size_t alloc_list;
	/*
	 * a parallel run's worker: the object of each serial number its
	 * frames name (report-tree-merge.c sends them by name)
	 */
	bool keep_objs;
	const struct dso **objs;
	size_t nr_objs;
};

/*
 * The chain in t->chain (frames in the order the tree is built) of
 * (t->hist, t->entry), taken at t->place_*, gathered: added to an equal
 * one or kept new.  With @merge (another worker's chain), an equal one
 * met later takes its frames: a node keeps the first sample's.
 */
int trees__gather(struct report_trees *t, u64 period, u32 count, bool children, bool merge);
/* room in t->chain for @nr frames; 0 or -ENOMEM */
int trees__chain_room(struct report_trees *t, size_t nr);
/* @s kept once in @t, NULL on ENOMEM */
const char *trees__intern(struct report_trees *t, const char *s);

#endif /* __PERF_TEXTPOKE_REPORT_TREE_INTERNAL_H */
