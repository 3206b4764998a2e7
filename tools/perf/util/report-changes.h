/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_REPORT_CHANGES_H
#define __PERF_TEXTPOKE_REPORT_CHANGES_H

#include <stdio.h>

#include <textpoke/textpoke.h>

#include "types.h"

struct text_image;
struct machine;

/*
 * perf textpoke report: what the kernel rewrote while the recording ran.
 * Built from a finished text image (every poke, BPF program and OOL
 * region, with its life), then fed every kernel sample so that each site
 * version and region counts the samples that ran on it.  The figures are
 * plain data: the text, JSON and HTML writers all print from them.
 * Strings (sym, desc, name, verdict) belong to the report and live until
 * report_changes__delete().
 *
 * Sites are the text image's poked sites less the pokes it modelled for
 * BPF JIT images and inject --jit objects (those are region bodies), over
 * the bytes the kernel's own pokes wrote.  Regions are every KSYMBOL (and
 * mapped ELF object) the machine saw, each with its life.
 */

/* what a poked site is, decoded from its bytes */
enum report_site_kind {
	REPORT_KIND_JUMP_LABEL,	 /* 5- or 2-byte NOP <-> jmp */
	REPORT_KIND_STATIC_CALL, /* call/jmp whose target changes */
	REPORT_KIND_FTRACE,	 /* 5-byte NOP <-> call (ftrace call site) */
	REPORT_KIND_KPROBE,	 /* first byte <-> int3 */
	REPORT_KIND_OPTPROBE,	 /* optimized kprobe: jmp into a detour buffer */
	REPORT_KIND_TRAMPOLINE,	 /* OOL body appearing/going (old or new length 0) */
	REPORT_KIND_OTHER,
	REPORT_KIND__MAX,
};

const char *report_site_kind__name(enum report_site_kind kind); /* "jump_label", ... */

/* one version of a site: the bytes after a poke (version 0: before the first) */
struct report_version {
	u64 time;		       /* when it took effect; 0 for version 0 */
	u64 duration;		       /* time it stayed, within the recording's span */
	u64 nr_samples;		       /* samples whose IP was in the site during this version */
	char *desc;		       /* "nop5", "jmp foo+0x12", "call __fentry__", "int3" */
	enum textpoke_verdict verdict; /* of the poke that made it (version 0: UNKNOWN) */
	bool changed;		       /* its bytes differ from version 0's */
	u8 *bytes;		       /* the site's len bytes in this version, NULL: not known */
};

struct report_site {
	u64 addr;
	u32 len;
	char *sym; /* "fn+0x12" at the site's address, or NULL */
	enum report_site_kind kind;
	size_t nr_versions; /* nr_changes + 1 */
	struct report_version *versions;
	u64 first_change, last_change;
	u64 nr_samples_changed; /* samples that ran while it differed from version 0 */
};

/* the ksym_type of an ELF object a kernel MMAP mapped (perf textpoke inject --jit's) */
#define REPORT_REGION_OBJECT 0xffff

/* a code region that existed only for part of the recording */
struct report_region {
	char *name; /* the KSYMBOL name: bpf_prog_<tag>_<name>, ftrace_trampoline, ... */
	u64 addr;
	u32 len;
	u16 ksym_type;	/* PERF_RECORD_KSYMBOL_TYPE_BPF / _OOL, or REPORT_REGION_OBJECT */
	u64 start, end; /* lifetime; end UINT64_MAX: alive at the end */
	bool bytes_known;
	u64 nr_samples;
	/* other regions that held this address, as indexes into regions[] */
	size_t nr_reused;
	size_t *reused;
};

struct report_consistency {
	size_t verdicts[TEXTPOKE_VERDICT__MAX];
	u64 nr_lost;	     /* records the kernel dropped (LOST) */
	u64 nr_lost_samples; /* LOST_SAMPLES */
	u64 nr_unordered;    /* records out of time order */
	size_t nr_unmapped;  /* pokes no map covered */
	/* of them, in module space on a recording that did not watch module loads */
	size_t nr_unmapped_module_space;
	bool truncated; /* the input ends inside a record: what came later is unknown */
	bool trusted;	/* kernel decoding of this recording can be trusted */
	char *verdict;	/* one line: why or why not, what is missing */
};

struct report_changes {
	u64 first_time, last_time; /* the recording's span (samples, pokes, regions' lives) */
	size_t nr_sites;
	struct report_site *sites; /* address order */
	size_t nr_regions;
	struct report_region *regions; /* start time order */
	struct report_consistency consistency;
	u64 nr_kernel_samples;
};

/* NULL + errno with an error printed */
struct report_changes *report_changes__new(struct text_image *ti, struct machine *machine);
/* every sample, in time order (kernel ones count) */
void report_changes__sample(struct report_changes *rc, u64 ip, u8 cpumode, u64 time);
/* after the last sample: durations, the verdict line; @stats from the session */
int report_changes__finish(struct report_changes *rc, u64 nr_lost, u64 nr_lost_samples,
			   u64 nr_unordered);
void report_changes__delete(struct report_changes *rc);
/*
 * A parallel run: what the samples counted, to @fp, and another worker's
 * read from @fp and added.  0 or a negative errno; -ENODATA: the state
 * ends early or is not of the same sites.
 */
int report_changes__send(struct report_changes *rc, FILE *fp);
int report_changes__merge(struct report_changes *rc, FILE *fp);

/* the text report's code-change part */
void report_changes__fprintf(const struct report_changes *rc, FILE *fp);

/*
 * How much of it: the sites grouped by symbol and kind (the @max_groups
 * with the most samples, then changes), and the @max_sites sites with the
 * most samples, then changes, each with its versions; the rest as counts.
 * 0: every one.  report_changes__fprintf() lists every site up to
 * REPORT_CHANGES_ALL_SITES of them, else the top REPORT_CHANGES_TOP.
 */
#define REPORT_CHANGES_ALL_SITES 100
#define REPORT_CHANGES_TOP 25

struct report_changes_print_opts {
	size_t max_sites;
	size_t max_groups;
};

void report_changes__fprintf_opts(const struct report_changes *rc, FILE *fp,
				  const struct report_changes_print_opts *opts);

#endif /* __PERF_TEXTPOKE_REPORT_CHANGES_H */
