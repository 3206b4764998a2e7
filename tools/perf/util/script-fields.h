/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_SCRIPT_FIELDS_H
#define __PERF_TEXTPOKE_SCRIPT_FIELDS_H

#include "types.h"

struct evsel;

/*
 * perf script's -F: which fields to print, per output type (hardware,
 * software, tracepoint, ...), with perf's names and default sets.
 */
enum script_field {
	SF_COMM = 1ULL << 0,
	SF_TID = 1ULL << 1,
	SF_PID = 1ULL << 2,
	SF_TIME = 1ULL << 3,
	SF_CPU = 1ULL << 4,
	SF_EVNAME = 1ULL << 5,
	SF_TRACE = 1ULL << 6,
	SF_IP = 1ULL << 7,
	SF_SYM = 1ULL << 8,
	SF_DSO = 1ULL << 9,
	SF_ADDR = 1ULL << 10,
	SF_SYMOFFSET = 1ULL << 11,
	SF_PERIOD = 1ULL << 12,
	SF_IREGS = 1ULL << 13,
	SF_UREGS = 1ULL << 14,
	SF_WEIGHT = 1ULL << 15,
	SF_DATA_SRC = 1ULL << 16,
	SF_BPF_OUTPUT = 1ULL << 17,
	SF_MISC = 1ULL << 18,
	SF_PHYS_ADDR = 1ULL << 19,
	SF_INS_LAT = 1ULL << 20,
	SF_ABI = 1ULL << 21,	/* new: the REGS_USER ABI word, abi:64 abi:32 abi:none */
	SF_INSN = 1ULL << 22,	/* the instruction bytes at ip, as of the sample's time */
	SF_DISASM = 1ULL << 23, /* new: that instruction disassembled */
	SF_POKED = 1ULL << 24,	/* new: "[poked T]" when a poke changed them before */
	SF_SRCLINE = 1ULL << 25,
	SF_BRSTACK = 1ULL << 26,
	SF_BRSTACKSYM = 1ULL << 27,
	SF_BRSTACKOFF = 1ULL << 28,
	SF_INSNLEN = 1ULL << 29, /* " ilen: N", before insn */
	/*
	 * The branch flags, IPC and call indentation of samples synthesized
	 * from a hardware trace: nothing to show for other samples (flags'
	 * column stays, empty, as perf leaves it)
	 */
	SF_FLAGS = 1ULL << 30,
	SF_IPC = 1ULL << 31,
	SF_CALLINDENT = 1ULL << 32,
	SF_DATA_PAGE_SIZE = 1ULL << 33,
	SF_CODE_PAGE_SIZE = 1ULL << 34,
	SF_TOD = 1ULL << 35,   /* wall-clock time, from the recording's HEADER_CLOCK_DATA */
	SF_SYNTH = 1ULL << 36, /* the payload of a PERF_TYPE_SYNTH sample */
};

#define SF_TEXT (SF_INSNLEN | SF_INSN | SF_DISASM | SF_POKED)

#ifndef PERF_TYPE_SYNTH
/* perf's attr.type of the samples its trace decoders synthesize (util/event.h) */
#define PERF_TYPE_SYNTH 0x80000000U
#endif

enum script_output_type {
	SCRIPT_OUT_HARDWARE, /* PERF_TYPE_HARDWARE .. PERF_TYPE_BREAKPOINT, in uapi order */
	SCRIPT_OUT_SOFTWARE,
	SCRIPT_OUT_TRACEPOINT,
	SCRIPT_OUT_HW_CACHE,
	SCRIPT_OUT_RAW,
	SCRIPT_OUT_BREAKPOINT,
	SCRIPT_OUT_SYNTH, /* PERF_TYPE_SYNTH: made by a hardware trace decoder */
	SCRIPT_OUT_OTHER, /* dynamic PMUs */
	SCRIPT_OUT_MAX,
};

struct script_output {
	u64 fields;
	u64 invalid;
	u64 user_fields; /* asked for explicitly: missing data is an error */
	bool user_set;
	bool wildcard_set;
};

struct script_fields {
	struct script_output out[SCRIPT_OUT_MAX];
	bool any_user_set;
	/*
	 * The recording has a hardware trace index (HEADER_AUXTRACE): the
	 * samples its decoder synthesizes carry fields the recorded events
	 * may lack (a branch's addr, the cpu), so asking for addr, cpu,
	 * data_src, weight, iregs or phys_addr is no error, as in perf
	 * (evsel__check_attr()'s allow_user_set).  Set before the checks.
	 */
	bool allow_user_set;
};

void script_fields__init(struct script_fields *sf);
/*
 * Apply one -F argument, as perf does: "comm,tid,ip", "+abi", "-period",
 * "sw:comm,ip", "trace:".  0, or -EINVAL with the reason printed.
 */
int script_fields__parse(struct script_fields *sf, const char *arg);

/* inline: asked for each callchain frame printed */
static inline enum script_output_type script_output_type(u32 attr_type)
{
	if (attr_type == PERF_TYPE_SYNTH)
		return SCRIPT_OUT_SYNTH;
	return attr_type < SCRIPT_OUT_SYNTH ? (enum script_output_type)attr_type : SCRIPT_OUT_OTHER;
}
const char *script_output_type__name(enum script_output_type type);
const char *script_field__name(u64 field);

/*
 * Fit the fields to what @evsel's samples carry: defaults lose fields the
 * sample_type lacks (perf's check_stype), explicit requests for missing
 * data are errors.  0 or -EINVAL with the reason printed.
 */
/* @path: the recording, which the errors name */
int script_fields__check_evsel(struct script_fields *sf, const struct evsel *evsel,
			       const char *path);

static inline u64 script_fields__get(const struct script_fields *sf, u32 attr_type)
{
	return sf->out[script_output_type(attr_type)].fields;
}

#endif /* __PERF_TEXTPOKE_SCRIPT_FIELDS_H */
