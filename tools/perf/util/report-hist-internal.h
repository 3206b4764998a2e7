/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_REPORT_HIST_INTERNAL_H
#define __PERF_TEXTPOKE_REPORT_HIST_INTERNAL_H

/*
 * What report-hist.c (the profile as samples come) and
 * report-hist-merge.c (the profiles of a parallel run's workers added
 * up) share.  Nothing else includes this.
 */
#include "report-hist.h"

struct thread;

/*
 * Interned strings: each distinct name once, for the life of the hists.
 * A slot keeps its string's hash, so that a probe reads a string only
 * when the hashes agree: the strings are scattered over the heap, and
 * reading one is a cache miss.
 */
struct str_slot {
	char *str;
	u64 hash;
};

struct str_pool {
	struct str_slot *slots;
	size_t size, nr;
};

/* @s interned in @sp: the one copy of its bytes; NULL on ENOMEM */
const char *str_pool__intern(struct str_pool *sp, const char *s);

/* what tells entries apart: the fields of the keys sorted on, others zero */
struct hist_key {
	const char *comm;
	const char *dso; /* NULL: no map */
	bool has_sym;
	const char *inlined; /* the inlined function's name, NULL: the symbol's own */
	u64 sym_start, sym_end;
	u64 ip; /* the unknown symbol's address */
	s32 tid;
	s32 cpu;
	u64 abi;
	/* dso_size: the map's size, has_map false without one */
	bool has_map;
	u64 map_size;
	/* interned: perf merges entries of one source line whatever their address */
	const char *srcline, *srcfile;
	const char *parent; /* --parent's symbol name, NULL: [other] */
};

/*
 * What a sample that finds its entry touches: the table slot, then this,
 * one or two cache lines; the counts are copied to the entry at the end
 */
struct hist_priv {
	struct hist_key key;
	u64 nr_samples, period, children;
	struct thread *thread; /* of the first sample: perf's entry keeps it */
	u8 filtered;	       /* REPORT_FILTER_*: the first sample's, as perf's entry keeps them */
	/*
	 * the place of the entry's first touch: its sample's time and file
	 * offset, and which of the sample's touches (its own entry 0, its
	 * chain's frames after): the order the entries were made in, which
	 * the workers of a parallel run each see part of
	 */
	u64 first_time, first_off;
	u32 first_sub;
	/* a merged entry's (thread NULL): the name of its worker's thread */
	const char *thread_comm;
	/* the thread's name in every worker (struct thread's tid and birth) */
	s32 thread_tid;
	u64 thread_birth;
};

struct hist_build {
	struct report_hist hist;
	struct hist_entry *entries; /* every entry, filtered ones too */
	struct hist_priv *priv;
	size_t nr, alloc;
	/*
	 * entry index + 1 in the low half, 0 free; the key's hash in the
	 * high half, so that a probe of another key reads no entry
	 */
	u64 *table;
	size_t table_size;
	bool has_regs_user;
	struct report_abi_count *abi;
	size_t nr_abi, alloc_abi;
	size_t abi_last; /* slot + 1 of the last sample's command */
};

struct report_hists {
	struct report_layout layout;
	const char *time_slices;
	struct str_pool strings;
	size_t nr_hists;
	struct hist_build *builds;
	struct report_hist *out;
	/* the sample being added: the entries it has given its period to */
	u32 *seen;
	size_t nr_seen, alloc_seen;
	const char *comm; /* its command, interned when a key */
	char level;	  /* its own [x] level */
	u32 frame_entry;  /* the entry of the last frame added */
	void (*fprintf_after)(const struct report_hist *h, const struct hist_entry *e, void *arg,
			      FILE *fp);
	void *after_arg;
	u32 (*depth)(void *arg, int idx, u32 entry);
	void *depth_arg;
	bool depth_caller;
	bool relative;	    /* --percentage relative */
	bool keep_filtered; /* --hierarchy: the entries finished hold the filtered ones */
	/* perf walks the chains callee first: a frame outside every map takes the last level */
	bool callee_walk;
	char walk_level;
	/*
	 * the last map's interned object name: a chain's frames come in
	 * runs of one object; kept for one sample only, whose maps stay
	 */
	const struct map *name_map;
	const char *name_dso;
	/*
	 * names interned lately, by where they were read: each sample
	 * names its command and object, mostly the ones named just before
	 * (the bytes compared: a name freed and another allocated at its
	 * address reads as different)
	 */
	struct str_memo {
		const char *src, *str;
	} memo[64];
	/*
	 * The samples' own entries lately found, by what decides them when
	 * the keys are among comm, pid, tid, dso and sym (self_memo_ok):
	 * most samples fall where one just before fell
	 */
	struct self_memo {
		const void *thread, *dso, *sym;
		const char *comm, *dso_name;
		u64 addr; /* without a symbol */
		s32 pid, tid;
		int idx;
		unsigned int filtered; /* REPORT_FILTER_* */
		bool used;
		u32 entry;
	} self_memo[256];
	bool self_memo_ok;
	/*
	 * entries made by its frames outside every map, met since the last
	 * frame in a map; frame_first: the first entry its frames made
	 */
	u32 *mapless;
	size_t nr_mapless, alloc_mapless;
	u32 frame_first;
	/* the sample being added: where it is (report_hists__set_place()), touches so far */
	u64 place_time, place_off;
	u32 place_sub;
	bool merged;  /* other workers' entries came in: made again in first-touch order */
	bool ordered; /* and made so (report_hists__order_merged()) */
	/* the last merged worker's entries: each one's index here, per histogram */
	struct peer_map {
		u32 *idx;
		size_t nr, alloc;
	} * peer;
	size_t nr_peer;
	const char *parent;	   /* the next sample's --parent symbol, interned */
	const char *symbol_filter; /* --symbol-filter */
};

/*
 * report-hist-merge.c: another worker's entry @e (@k its key, @p its
 * counts and first touch) added to @b's; the one made first keeps its
 * attributes.  @k's and @e's strings are @rh's.  Its index, or -ENOMEM.
 */
long hist_build__merge_entry(struct report_hists *rh, struct hist_build *b,
			     const struct hist_key *k, const struct hist_entry *e,
			     const struct hist_priv *p);
/* @comm's per-ABI counts in @b (@comm interned), made when new; NULL on ENOMEM */
struct report_abi_count *hist_build__abi_slot(struct hist_build *b, const char *comm);
/* the histogram of event @idx, grown to it; NULL on ENOMEM */
struct hist_build *report_hists__build(struct report_hists *rh, int idx);

#endif /* __PERF_TEXTPOKE_REPORT_HIST_INTERNAL_H */
