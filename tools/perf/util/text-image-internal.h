/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_TEXT_IMAGE_INTERNAL_H
#define __PERF_TEXTPOKE_TEXT_IMAGE_INTERNAL_H
/*
 * The text image's own state, shared by the files that build it:
 * text-image.c (what goes in, and when) and text-image-fit.c (when the
 * kcore copy was taken).  Nothing outside them includes this.
 */
#include "dso-code.h"
#include "kcore.h"
#include "module-events.h"
#include "session.h"
#include "text-image.h"

/* a kernel address range that holds code from @from until @to (exclusive) */
struct ti_span {
	u64 start, end;
	u64 from, to;
};

/* a BPF program's JIT image, alive from its load until its KSYMBOL goes */
struct ti_bpf {
	u64 addr;
	u32 len;
	const u8 *bytes; /* borrowed from the perf_env */
};

/* warnings for objects whose code cannot be read; the others at -v */
#define TI_OBJECT_WARNINGS 10

/*
 * An ELF object a kernel MMAP mapped (perf textpoke inject --jit): its
 * code ranges, alive from the MMAP until a KSYMBOL unregister or another
 * kernel mapping over [start, end)
 */
struct ti_object {
	u64 start, end;
	struct dso_code code;
};

/* where a synthetic (BPF JIT) poke was put, so as not to call it a poke */
struct ti_key {
	u64 addr, time;
};

/* a poke into a module loaded while recording: its new bytes, to end with its life */
struct ti_mod_poke {
	u64 addr, time;
	u16 len;
	u8 *bytes;
};

/*
 * A BPF KSYMBOL's life (a program, a trampoline's image) from its register
 * to its unregister (UINT64_MAX: still there at the end)
 */
struct ti_bpf_life {
	u64 start, end;
	u64 reg, unreg;
};

/*
 * A poke inside a BPF KSYMBOL whose code no BPF_EVENT brought (a
 * trampoline's image): its bytes, old then new, to bound them by the life
 */
struct ti_life_poke {
	u64 addr, time;
	size_t life; /* in text_image.bpf_lives */
	size_t seq;  /* the order it came in */
	u16 old_len, new_len;
	u8 *bytes;
};

struct ti_verdict {
	u64 addr, time;
	enum textpoke_verdict verdict;
};

struct text_image {
	struct textpoke_image *img;
	const struct perf_env *env;
	struct kcore *vmlinux;
	struct kcore *kcore;
	enum text_image_anchor anchor;
	u64 anchor_time;
	bool finished;
	/*
	 * the first sample of an event opened disabled: enabled after perf
	 * record copied kcore, so the copy was done by then (UINT64_MAX: none)
	 */
	u64 copy_before;

	struct ti_span *spans;
	size_t nr_spans, alloc_spans;
	struct ti_bpf *bpf;
	size_t nr_bpf, alloc_bpf;
	struct text_image_bpf_load *loads;
	size_t nr_loads, alloc_loads;
	struct ti_object *objects; /* the live ones */
	size_t nr_objects, alloc_objects;
	struct ti_key *jit_pokes;
	size_t nr_jit_pokes, alloc_jit_pokes;
	size_t nr_jit_sorted; /* jit_pokes[0 .. nr_jit_sorted) are in (addr, time) order */
	struct ti_verdict *verdicts;
	struct ti_verdict live; /* the last poke added, judged as it came */
	bool has_live;
	size_t nr_verdicts;
	size_t verdict_next; /* the one after the last text_image__verdict() answer */
	struct text_image_unmapped *unmapped;
	size_t alloc_unmapped;
	struct text_image_stats stats;
	/* modules loaded or freed while recording (kcore_dir/module_events) */
	struct module_events mods;
	/* the pokes into their ranges, to end at the end of each life (ti__end_module_pokes()) */
	struct ti_mod_poke *mod_pokes;
	size_t nr_mod_pokes, alloc_mod_pokes;
	/* BPF KSYMBOL lives and the pokes into those without code (ti__bound_life_pokes()) */
	struct ti_bpf_life *bpf_lives;
	size_t nr_bpf_lives, alloc_bpf_lives;
	size_t *open_lives; /* indexes of the lives not yet unregistered */
	size_t nr_open_lives, alloc_open_lives;
	struct ti_life_poke *life_pokes;
	size_t nr_life_pokes, alloc_life_pokes;
	/* pokes whose old bytes only they themselves tell (sorted by ti_key__cmp) */
	struct ti_key *unchecked;
	size_t nr_unchecked, alloc_unchecked;

	/* text_image__load() only: the session, and the tool it reads with */
	struct perf_session *session;
	struct perf_tool tool;
	int load_err;
};

/* the segments of @k as one base of the image, anchored by @anchor at @time */
int ti__add_base(struct text_image *ti, struct kcore *k, enum textpoke_anchor anchor, u64 time);
/* the recording's kcore copy anchored at the moments its poked sites agree with */
int ti__fit(struct text_image *ti);

#endif /* __PERF_TEXTPOKE_TEXT_IMAGE_INTERNAL_H */
