/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_AUXTRACE_H
#define __PERF_TEXTPOKE_AUXTRACE_H

#include <stdbool.h>
#include <stddef.h>

#include "event.h"
#include "types.h"

/*
 * The AUX area side of a recording: what AUXTRACE_INFO says about the
 * hardware trace, the TSC <-> perf time conversion, and the trace buffers
 * that AUXTRACE records carry, queued by CPU (per-cpu mmaps) or by thread.
 *
 * The trace bytes follow an AUXTRACE record outside its header.size, in a
 * file as in a pipe; the session hands them over in pieces after the
 * record (perf_tool.auxtrace_data).  They are copied: perf record writes a
 * round's trace before the round's FINISHED_ROUND, so a buffer is queued
 * before the ordered events of its time are delivered, in either mode.
 */

#define PERF_AUXTRACE_INTEL_PT 1

/* the priv[] slots perf record fills for intel_pt (tools/perf/arch/x86) */
enum intel_pt_priv {
	INTEL_PT_PMU_TYPE,
	INTEL_PT_TIME_SHIFT,
	INTEL_PT_TIME_MULT,
	INTEL_PT_TIME_ZERO,
	INTEL_PT_CAP_USER_TIME_ZERO,
	INTEL_PT_TSC_BIT,
	INTEL_PT_NORETCOMP_BIT,
	INTEL_PT_HAVE_SCHED_SWITCH,
	INTEL_PT_SNAPSHOT_MODE,
	INTEL_PT_PER_CPU_MMAPS,
	INTEL_PT_MTC_BIT, /* from here on: only when the record is long enough */
	INTEL_PT_MTC_FREQ_BITS,
	INTEL_PT_TSC_CTC_N,
	INTEL_PT_TSC_CTC_D,
	INTEL_PT_CYC_BIT,
	INTEL_PT_MAX_NONTURBO_RATIO,
	INTEL_PT_FILTER_STR_LEN,
	INTEL_PT_PRIV_MAX,
};

#define INTEL_PT_PRIV_MIN INTEL_PT_MTC_BIT /* the oldest perf wrote 10 */

struct intel_pt_info {
	u32 pmu_type;
	struct perf_tsc_conv {
		u16 time_shift;
		u32 time_mult;
		u64 time_zero;
		u64 time_cycles; /* cap_user_time_short: the counter is time_mask wide */
		u64 time_mask;
		bool cap_user_time_zero;
		bool cap_user_time_short;
	} tc;
	/* bit masks into the intel_pt attr.config, not booleans */
	u64 tsc_bit, noretcomp_bit, mtc_bit, cyc_bit;
	u64 have_sched_switch;
	bool snapshot_mode;
	bool per_cpu_mmaps;
	u32 mtc_freq_bits;	  /* IA32_RTIT_CTL.MTCFreq */
	u32 tsc_ctc_n, tsc_ctc_d; /* CPUID.15H EBX / EAX */
	u32 max_nonturbo_ratio;
	char *filter; /* address filter string, or NULL */
	int nr_priv;  /* entries the record had */
};

/*
 * Parse AUXTRACE_INFO of type intel_pt: 0, or -EINVAL with @why set
 * ("has 7 intel_pt entries, perf writes at least 10").
 */
int intel_pt_info__parse(struct intel_pt_info *info, const union perf_event *event,
			 const char **why);
void intel_pt_info__exit(struct intel_pt_info *info);
/* TIME_CONV: over AUXTRACE_INFO's time_shift/mult/zero, its newer fields by size */
void perf_tsc_conv__time_conv(struct perf_tsc_conv *tc, const union perf_event *event);

u64 perf_tsc_conv__to_time(const struct perf_tsc_conv *tc, u64 tsc);
u64 perf_tsc_conv__from_time(const struct perf_tsc_conv *tc, u64 ns);

struct auxtrace_buffer {
	u64 aux_offset; /* in the AUX area (the record's offset) */
	u64 size;
	u64 reference;	 /* the TSC when perf record read it */
	u64 file_offset; /* of the AUXTRACE record, for messages */
	u8 *data;
	u64 got;   /* bytes arrived so far */
	u64 alloc; /* of data */
};

struct auxtrace_queue {
	int cpu; /* -1 for per-thread queues */
	s32 tid; /* -1 for per-cpu queues */
	s32 pid;
	u32 idx; /* the mmap index the trace came from */
	struct auxtrace_buffer *buffers;
	size_t nr_buffers;
	size_t alloc;
	void *priv; /* the decoder's */
};

/* AUX records: flags the kernel sets on a piece of the AUX area */
#define AUXTRACE_FLAG_TRUNCATED 0x01
#define AUXTRACE_FLAG_OVERWRITE 0x02
#define AUXTRACE_FLAG_PARTIAL 0x04
#define AUXTRACE_FLAG_COLLISION 0x08

/* the cap on trace bytes held at once: past it, buffers are refused */
#define AUXTRACE_MAX_BYTES (2ULL << 30)

struct auxtrace {
	struct auxtrace_queue *queues;
	size_t nr_queues;
	u64 nr_bytes;
	struct auxtrace_buffer *filling; /* the buffer whose bytes are arriving */
	struct auxtrace_queue *filling_queue;
	u64 nr_truncated, nr_partial, nr_collision; /* AUX records' flags */
	u64 nr_aux;
	bool indexed; /* the buffers were read before the records: records add none */
};

void auxtrace__init(struct auxtrace *at);
void auxtrace__exit(struct auxtrace *at);

/*
 * An AUXTRACE record: a buffer of @event->auxtrace.size bytes whose data
 * comes next through auxtrace__data().  0 or -errno with @why set.
 */
int auxtrace__add_buffer(struct auxtrace *at, const union perf_event *event, u64 file_offset,
			 bool per_cpu, const char **why);
/*
 * A file's trace, found through its HEADER_AUXTRACE index (entry count,
 * then each AUXTRACE record's file offset and size) and read by offset
 * before any record is delivered, as perf does: every buffer is known
 * from the start, and consecutive buffers of a queue (each AUX area
 * offset following the last) are joined, so that a decoder runs across
 * them as the hardware wrote them.  @data_end: where the data section
 * ends.  0, or -errno with @why and *@bad_offset set.
 */
struct perf_data;
int auxtrace__read_index(struct auxtrace *at, struct perf_data *data, const void *index,
			 u64 index_size, u64 data_end, bool per_cpu, const char **why,
			 u64 *bad_offset);
/*
 * A file's trace without the index (a writer that keeps none, a
 * recording cut before its header was written): the AUXTRACE records are
 * found by a walk of the records from @data_offset to @data_end, as perf
 * queues them (auxtrace_queue_data()), and read as the index's are.  The
 * walk stops at a record that is cut or broken, where the session will
 * report it.  0, or -errno with @why and *@bad_offset set.
 */
int auxtrace__read_records(struct auxtrace *at, struct perf_data *data, u64 data_offset,
			   u64 data_end, bool per_cpu, const char **why, u64 *bad_offset);
/* the next piece of the buffer being filled */
int auxtrace__data(struct auxtrace *at, const void *buf, u64 len);
/* an AUX record (flags counted) */
void auxtrace__aux(struct auxtrace *at, const union perf_event *event);

#endif /* __PERF_TEXTPOKE_AUXTRACE_H */
