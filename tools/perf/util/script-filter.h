/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_SCRIPT_FILTER_H
#define __PERF_TEXTPOKE_SCRIPT_FILTER_H

#include "time-utils.h"
#include "types.h"

struct addr_location;
struct perf_sample;

/* perf's strlist of a comma-separated option value */
struct script_name_list {
	char *buf;
	char **names;
	size_t nr;
};

struct script_int_list {
	long *v;
	size_t nr;
};

#define SCRIPT_FILTER_MAX_CPUS 2048 /* perf 6.1's MAX_NR_CPUS */

/*
 * Which samples perf script prints: --time, -C, --pid, --tid, -c, --dsos,
 * -S.  The option strings are kept until the session is open (--time needs
 * the recording's sample times, -C its sample_type), then compiled.
 */
struct script_filter {
	const char *time_str, *cpu_str, *pid_str, *tid_str, *comm_str, *dso_str, *sym_str;
	bool reltime; /* --time counts from the first sample */

	struct perf_time_interval *ranges;
	int nr_ranges;
	u8 *cpus; /* SCRIPT_FILTER_MAX_CPUS bits; NULL: every cpu */
	struct script_int_list pids, tids;
	struct script_name_list comms, dsos, syms;
	struct script_int_list addrs; /* -S entries that read as hex: sample addresses */
	bool by_time_cpu;	      /* before the sample is resolved */
	bool by_location;	      /* after: thread, dso, symbol */
};

/* any filter given: otherwise the sample path never looks at the filter */
bool script_filter__active(const struct script_filter *f);

/*
 * Compile the option strings; @first, @last: HEADER_SAMPLE_TIME; @has_cpu:
 * every event samples PERF_SAMPLE_CPU.  0, or -EINVAL with perf's message
 * printed.
 */
int script_filter__init(struct script_filter *f, u64 first, u64 last, bool has_cpu);
void script_filter__exit(struct script_filter *f);

/* left out by --time or -C: perf drops these before resolving them */
bool script_filter__skip_time_cpu(const struct script_filter *f, u64 time, u32 cpu);
bool script_filter__skip_early(const struct script_filter *f, const struct perf_sample *sample);
/* left out by --pid, --tid, -c, --dsos or -S, given where the sample resolved */
bool script_filter__skip_resolved(const struct script_filter *f, const struct perf_sample *sample,
				  const struct addr_location *al);
/* side-band lines: perf filters them by -C only */
bool script_filter__skip_cpu(const struct script_filter *f, u32 cpu);

#endif /* __PERF_TEXTPOKE_SCRIPT_FILTER_H */
