/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_EVENT_H
#define __PERF_TEXTPOKE_EVENT_H

#include <linux/perf_event.h>

#include "types.h"

/*
 * Record layouts as they sit in a perf.data file.  The kernel's uapi header
 * gives only the record type numbers; the bodies are described in comments
 * there and in ../shared/FORMAT.md.  Variable parts (filenames, comms) are
 * NUL terminated and padded to 8 bytes; with attr.sample_id_all every
 * non-sample kernel record ends with the id trailer (see
 * evsel__parse_id_sample()).
 */

struct perf_record_mmap {
	struct perf_event_header header;
	u32 pid, tid;
	u64 start;
	u64 len;
	u64 pgoff;
	char filename[];
};

#define PERF_RECORD_MISC_MMAP_BUILD_ID_BIT (1 << 14)
/*
 * perf record's synthesized FORK of a process already running: its maps
 * follow as MMAP records of their own, so none are copied from the parent
 */
#define PERF_RECORD_MISC_FORK_EXEC (1 << 13)

struct perf_record_mmap2 {
	struct perf_event_header header;
	u32 pid, tid;
	u64 start;
	u64 len;
	u64 pgoff;
	union {
		struct {
			u32 maj;
			u32 min;
			u64 ino;
			u64 ino_generation;
		};
		struct {
			u8 build_id_size;
			u8 __reserved_1;
			u16 __reserved_2;
			u8 build_id[20];
		};
	};
	u32 prot;
	u32 flags;
	char filename[];
};

struct perf_record_comm {
	struct perf_event_header header;
	u32 pid, tid;
	char comm[];
};

struct perf_record_namespaces {
	struct perf_event_header header;
	u32 pid, tid;
	u64 nr_namespaces;
	struct {
		u64 dev;
		u64 ino;
	} link_info[];
};

/* FORK and EXIT share this layout */
struct perf_record_fork {
	struct perf_event_header header;
	u32 pid, ppid;
	u32 tid, ptid;
	u64 time;
};

struct perf_record_lost {
	struct perf_event_header header;
	u64 id;
	u64 lost;
};

struct perf_record_lost_samples {
	struct perf_event_header header;
	u64 lost;
};

/* THROTTLE and UNTHROTTLE */
struct perf_record_throttle {
	struct perf_event_header header;
	u64 time;
	u64 id;
	u64 stream_id;
};

struct perf_record_read {
	struct perf_event_header header;
	u32 pid, tid;
	u64 value;
	u64 time_enabled;
	u64 time_running;
	u64 id;
};

struct perf_record_aux {
	struct perf_event_header header;
	u64 aux_offset;
	u64 aux_size;
	u64 flags;
};

struct perf_record_itrace_start {
	struct perf_event_header header;
	u32 pid, tid;
};

/* SWITCH has only the header (+ trailer); SWITCH_CPU_WIDE has this */
struct perf_record_switch {
	struct perf_event_header header;
	u32 next_prev_pid;
	u32 next_prev_tid;
};

struct perf_record_cgroup {
	struct perf_event_header header;
	u64 id;
	char path[];
};

struct perf_record_ksymbol {
	struct perf_event_header header;
	u64 addr;
	u32 len;
	u16 ksym_type;
	u16 flags;
	char name[];
};

struct perf_record_bpf_event {
	struct perf_event_header header;
	u16 type;
	u16 flags;
	u32 id;
	u8 tag[8];
};

/*
 * old_len bytes of old code, then new_len bytes of new code, then zero
 * padding so that 4 + old_len + new_len is a multiple of 8.
 */
struct perf_record_text_poke {
	struct perf_event_header header;
	u64 addr;
	u16 old_len;
	u16 new_len;
	u8 bytes[];
};

/* Records synthesized by perf itself, never by the kernel */
enum perf_user_event_type {
	PERF_RECORD_USER_TYPE_START = 64,
	PERF_RECORD_HEADER_ATTR = 64,
	PERF_RECORD_HEADER_EVENT_TYPE = 65, /* deprecated */
	PERF_RECORD_HEADER_TRACING_DATA = 66,
	PERF_RECORD_HEADER_BUILD_ID = 67,
	PERF_RECORD_FINISHED_ROUND = 68,
	PERF_RECORD_ID_INDEX = 69,
	PERF_RECORD_AUXTRACE_INFO = 70,
	PERF_RECORD_AUXTRACE = 71,
	PERF_RECORD_AUXTRACE_ERROR = 72,
	PERF_RECORD_THREAD_MAP = 73,
	PERF_RECORD_CPU_MAP = 74,
	PERF_RECORD_STAT_CONFIG = 75,
	PERF_RECORD_STAT = 76,
	PERF_RECORD_STAT_ROUND = 77,
	PERF_RECORD_EVENT_UPDATE = 78,
	PERF_RECORD_TIME_CONV = 79,
	PERF_RECORD_HEADER_FEATURE = 80,
	PERF_RECORD_COMPRESSED = 81,
	PERF_RECORD_FINISHED_INIT = 82,
	PERF_RECORD_COMPRESSED2 = 83,
	PERF_RECORD_HEADER_MAX
};

struct perf_record_header_attr {
	struct perf_event_header header;
	struct perf_event_attr attr; /* attr.size bytes, then u64 ids[] */
};

struct perf_record_header_feature {
	struct perf_event_header header;
	u64 feat_id;
	char data[];
};

struct perf_record_header_tracing_data {
	struct perf_event_header header;
	u32 size; /* payload follows the record, outside header.size */
	u32 pad;
};

/* AUXTRACE: the trace data follows the record, outside header.size */
struct perf_record_auxtrace {
	struct perf_event_header header;
	u64 size;
	u64 offset;
	u64 reference;
	u32 idx;
	u32 tid;
	u32 cpu;
	u32 reserved__;
};

struct perf_record_compressed2 {
	struct perf_event_header header;
	u64 data_size;
	char data[];
};

union perf_event {
	struct perf_event_header header;
	struct perf_record_mmap mmap;
	struct perf_record_mmap2 mmap2;
	struct perf_record_comm comm;
	struct perf_record_namespaces namespaces;
	struct perf_record_fork fork;
	struct perf_record_lost lost;
	struct perf_record_lost_samples lost_samples;
	struct perf_record_throttle throttle;
	struct perf_record_read read;
	struct perf_record_aux aux;
	struct perf_record_itrace_start itrace_start;
	struct perf_record_switch context_switch;
	struct perf_record_cgroup cgroup;
	struct perf_record_ksymbol ksymbol;
	struct perf_record_bpf_event bpf;
	struct perf_record_text_poke text_poke;
	struct perf_record_header_attr attr;
	struct perf_record_header_feature feat;
	struct perf_record_header_tracing_data tracing_data;
	struct perf_record_auxtrace auxtrace;
	struct perf_record_compressed2 pack2;
};

/* PERF_CONTEXT_* markers in callchains are >= this */
#define PERF_CONTEXT_MARKER_MIN ((u64)-4095)

struct ip_callchain {
	u64 nr;
	u64 ips[];
};

struct branch_flags {
	u64 mispred : 1;
	u64 predicted : 1;
	u64 in_tx : 1;
	u64 abort : 1;
	u64 cycles : 16;
	u64 type : 4;
	u64 spec : 2;
	u64 new_type : 4;
	u64 priv : 3;
	u64 reserved : 31;
};

struct branch_entry {
	u64 from;
	u64 to;
	struct branch_flags flags;
};

/* The register ABI word of REGS_USER / REGS_INTR (PERF_SAMPLE_REGS_ABI_*) */
enum perf_regs_abi {
	PERF_REGS_ABI_NONE_ = 0,
	PERF_REGS_ABI_32_ = 1,
	PERF_REGS_ABI_64_ = 2,
};

struct regs_dump {
	u64 abi;	 /* as recorded; may carry unknown future values */
	u64 mask;	 /* attr.sample_regs_user / _intr */
	const u64 *regs; /* popcount(mask) values, NULL when abi == 0 */
};

struct stack_dump {
	u64 size;
	u64 dyn_size;
	const char *data;
	u32 offset; /* of the size word in the record, as perf's user_stack.offset */
};

struct sample_read_value {
	u64 value;
	u64 id;
	u64 lost; /* PERF_FORMAT_LOST */
};

struct sample_read {
	u64 time_enabled;
	u64 time_running;
	u64 nr;		   /* 1 when not a group */
	const u64 *values; /* raw array as recorded */
	u64 one_value;
	u64 one_id;
};

/*
 * One parsed PERF_RECORD_SAMPLE, or the id trailer of another record.
 * Pointers point into the record, which stays valid for the duration of
 * the tool callback only.
 */
/* a sample without PERF_SAMPLE_DATA_SRC: "N/A" everywhere, as perf fills it in */
#define PERF_MEM_DATA_SRC_NONE                                                                     \
	(PERF_MEM_S(OP, NA) | PERF_MEM_S(LVL, NA) | PERF_MEM_S(SNOOP, NA) | PERF_MEM_S(LOCK, NA) | \
	 PERF_MEM_S(TLB, NA))

struct perf_sample {
	u64 ip;
	u32 pid, tid;
	u64 time;
	u64 addr;
	u64 id;
	u64 stream_id;
	u64 period;
	u64 weight;
	u16 ins_lat;	 /* WEIGHT_STRUCT var2 */
	u16 p_stage_cyc; /* WEIGHT_STRUCT var3 */
	u64 transaction;
	u64 data_src;
	u64 phys_addr;
	u64 cgroup;
	u64 data_page_size;
	u64 code_page_size;
	u32 cpu;
	u32 raw_size;
	u16 misc;
	u8 cpumode;	/* misc & PERF_RECORD_MISC_CPUMODE_MASK */
	bool no_hw_idx; /* branch stack recorded without hw_idx */
	const void *raw_data;
	const struct ip_callchain *callchain;
	u64 branch_nr;
	u64 branch_hw_idx;
	const struct branch_entry *branch_entries;
	struct regs_dump user_regs;
	struct regs_dump intr_regs;
	struct stack_dump user_stack;
	struct sample_read read;
	u64 aux_size;
	const void *aux_data;
	/*
	 * Where the parsed fields end, from the record's start: a sample's
	 * last sample_type field, another record's id trailer start (its
	 * size without sample_id_all)
	 */
	u32 fields_end;
};

const char *perf_event__name(u32 type);

/*
 * Checks that a kernel record is long enough for its type's fixed part
 * and variable arrays, and that its strings end inside the record, so
 * that consumers may use the struct fields directly.  NULL if fine, else
 * what is wrong ("is too short for its type", ...).
 */
const char *perf_event__check(const union perf_event *event);

/*
 * What the fields of a kernel side-band record take, its string padded
 * to 8 bytes as the kernel and perf write it, without the sample_id
 * trailer: a longer record has a damaged size that happened to land on
 * another record.  0 for the types whose length is not fixed that way.
 */
u32 perf_event__fields_size(const union perf_event *event);

#endif /* __PERF_TEXTPOKE_EVENT_H */
