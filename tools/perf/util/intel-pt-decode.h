/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_INTEL_PT_DECODE_H
#define __PERF_TEXTPOKE_INTEL_PT_DECODE_H

#include "auxtrace.h"
#include "types.h"

/*
 * Intel PT instruction-flow decoding with libipt: each queued trace buffer
 * is walked by a pt_insn decoder whose memory reads go to
 *  - the text image (kernel code as it was at the decoder's time),
 *  - the files the process had mapped at that time (user code),
 * and the walk is turned into items: taken branches, instructions,
 * decode errors, the PSBs it passes and the core:bus ratio's changes, each
 * with its time (TSC converted to perf time), CPU and thread.  Built
 * without libipt, intel_pt__new() says so and fails.
 */
struct intel_pt;
struct machine;
struct text_image;

/* perf's PERF_IP_FLAG_* (perf's sample flags for synthesized branches) */
enum {
	IPT_FLAG_BRANCH = 1 << 0,
	IPT_FLAG_CALL = 1 << 1,
	IPT_FLAG_RETURN = 1 << 2,
	IPT_FLAG_CONDITIONAL = 1 << 3,
	IPT_FLAG_SYSCALLRET = 1 << 4,
	IPT_FLAG_ASYNC = 1 << 5,
	IPT_FLAG_INTERRUPT = 1 << 6,
	IPT_FLAG_TX_ABORT = 1 << 7,
	IPT_FLAG_TRACE_BEGIN = 1 << 8,
	IPT_FLAG_TRACE_END = 1 << 9,
};

enum intel_pt_item_type {
	IPT_ITEM_BRANCH,
	IPT_ITEM_INSN,
	IPT_ITEM_ERROR,
	IPT_ITEM_PSB, /* a PSB the walk reached: perf's "psb" event */
	IPT_ITEM_CBR, /* the core:bus ratio changed: perf's "cbr" event */
};

/* perf's INTEL_PT_ERR_* codes, printed in error lines */
enum {
	IPT_ERR_NOMEM = 1,
	IPT_ERR_INTERN = 2,
	IPT_ERR_BADPKT = 3,
	IPT_ERR_NODATA = 4,
	IPT_ERR_NOINSN = 5,
	IPT_ERR_OVR = 7,
	IPT_ERR_UNK = 9,
	IPT_ERR_NELOOP = 10,
};

struct intel_pt_item {
	enum intel_pt_item_type type;
	u64 time; /* perf time, ns */
	u64 ip;	  /* branch: from (0 at a trace start); instruction: its address */
	u64 addr; /* branch: to (0 at a trace end) */
	u32 flags;
	u64 period; /* instructions since the previous instruction item */
	u64 psb_offset;	 /* PSB: where it is in the queue's trace, perf's count */
	u32 cbr_payload; /* CBR: the packet's payload, the ratio in its low byte */
	int cpu;
	s32 pid, tid;
	u8 insn[15];
	u8 insn_len;
	bool cpumode_user; /* of ip */
	int err_code;
	/*
	 * An error about code the image lacks: perf reports those once per
	 * object, which is decided when the items are printed, in time order
	 * across CPUs and with who ran then known
	 */
	bool once;
	char msg[160];
};

struct intel_pt_opts {
	bool want_insns;
	bool want_pwr;	 /* PSB and CBR items */
	u64 insn_period; /* every Nth instruction, or with period_ns */
	u64 period_ns;	 /* the first instruction at or after each multiple */
};

/*
 * @cpuid: HEADER_CPUID ("GenuineIntel,6,78,3") for the errata, or NULL.
 * The machine and image are borrowed.  NULL with an error printed.
 */
struct intel_pt *intel_pt__new(const struct intel_pt_info *info, const char *cpuid,
			       struct machine *machine, struct text_image *ti, struct auxtrace *at,
			       const struct intel_pt_opts *opts);
void intel_pt__delete(struct intel_pt *pt);

/* the task a CPU runs from @time on (SWITCH in, ITRACE_START) */
int intel_pt__set_cpu_task(struct intel_pt *pt, int cpu, s32 pid, s32 tid, u64 time);
/* the task on @cpu at @time as far as known: false if none */
bool intel_pt__cpu_task(const struct intel_pt *pt, int cpu, u64 time, s32 *pid, s32 *tid);
/* maps may have changed (a side-band record): drop cached lookups */
void intel_pt__maps_changed(struct intel_pt *pt);

/*
 * The next item of queue @qi, decoding as far as needed, into *@item:
 * 1 with an item, 0 when the queue's buffers are done for now (more may
 * arrive in a pipe), negative errno on a fatal error.
 */
int intel_pt__next(struct intel_pt *pt, size_t qi, struct intel_pt_item *item);

#endif /* __PERF_TEXTPOKE_INTEL_PT_DECODE_H */
