// SPDX-License-Identifier: GPL-2.0-only
#include <stddef.h>
#include <string.h>

#include "event.h"

static const char *const event_names[] = {
    [0] = "TOTAL",
    [PERF_RECORD_MMAP] = "MMAP",
    [PERF_RECORD_LOST] = "LOST",
    [PERF_RECORD_COMM] = "COMM",
    [PERF_RECORD_EXIT] = "EXIT",
    [PERF_RECORD_THROTTLE] = "THROTTLE",
    [PERF_RECORD_UNTHROTTLE] = "UNTHROTTLE",
    [PERF_RECORD_FORK] = "FORK",
    [PERF_RECORD_READ] = "READ",
    [PERF_RECORD_SAMPLE] = "SAMPLE",
    [PERF_RECORD_MMAP2] = "MMAP2",
    [PERF_RECORD_AUX] = "AUX",
    [PERF_RECORD_ITRACE_START] = "ITRACE_START",
    [PERF_RECORD_LOST_SAMPLES] = "LOST_SAMPLES",
    [PERF_RECORD_SWITCH] = "SWITCH",
    [PERF_RECORD_SWITCH_CPU_WIDE] = "SWITCH_CPU_WIDE",
    [PERF_RECORD_NAMESPACES] = "NAMESPACES",
    [PERF_RECORD_KSYMBOL] = "KSYMBOL",
    [PERF_RECORD_BPF_EVENT] = "BPF_EVENT",
    [PERF_RECORD_CGROUP] = "CGROUP",
    [PERF_RECORD_TEXT_POKE] = "TEXT_POKE",
    [21] = "AUX_OUTPUT_HW_ID",
    [PERF_RECORD_HEADER_ATTR] = "ATTR",
    [PERF_RECORD_HEADER_EVENT_TYPE] = "EVENT_TYPE",
    [PERF_RECORD_HEADER_TRACING_DATA] = "TRACING_DATA",
    [PERF_RECORD_HEADER_BUILD_ID] = "BUILD_ID",
    [PERF_RECORD_FINISHED_ROUND] = "FINISHED_ROUND",
    [PERF_RECORD_ID_INDEX] = "ID_INDEX",
    [PERF_RECORD_AUXTRACE_INFO] = "AUXTRACE_INFO",
    [PERF_RECORD_AUXTRACE] = "AUXTRACE",
    [PERF_RECORD_AUXTRACE_ERROR] = "AUXTRACE_ERROR",
    [PERF_RECORD_THREAD_MAP] = "THREAD_MAP",
    [PERF_RECORD_CPU_MAP] = "CPU_MAP",
    [PERF_RECORD_STAT_CONFIG] = "STAT_CONFIG",
    [PERF_RECORD_STAT] = "STAT",
    [PERF_RECORD_STAT_ROUND] = "STAT_ROUND",
    [PERF_RECORD_EVENT_UPDATE] = "EVENT_UPDATE",
    [PERF_RECORD_TIME_CONV] = "TIME_CONV",
    [PERF_RECORD_HEADER_FEATURE] = "FEATURE",
    [PERF_RECORD_COMPRESSED] = "COMPRESSED",
    [PERF_RECORD_FINISHED_INIT] = "FINISHED_INIT",
    [PERF_RECORD_COMPRESSED2] = "COMPRESSED2",
};

const char *perf_event__name(u32 type)
{
	if (type >= ARRAY_SIZE(event_names) || !event_names[type])
		return "UNKNOWN";
	return event_names[type];
}

static bool has_nul(const void *start, const union perf_event *event)
{
	const char *p = start, *end = (const char *)event + event->header.size;

	return p < end && memchr(p, '\0', end - p) != NULL;
}

const char *perf_event__check(const union perf_event *event)
{
	static const u16 min_size[] = {
	    [PERF_RECORD_MMAP] = sizeof(struct perf_record_mmap),
	    [PERF_RECORD_LOST] = sizeof(struct perf_record_lost),
	    [PERF_RECORD_COMM] = sizeof(struct perf_record_comm),
	    [PERF_RECORD_EXIT] = sizeof(struct perf_record_fork),
	    [PERF_RECORD_THROTTLE] = sizeof(struct perf_record_throttle),
	    [PERF_RECORD_UNTHROTTLE] = sizeof(struct perf_record_throttle),
	    [PERF_RECORD_FORK] = sizeof(struct perf_record_fork),
	    [PERF_RECORD_READ] = offsetof(struct perf_record_read, value),
	    [PERF_RECORD_MMAP2] = sizeof(struct perf_record_mmap2),
	    [PERF_RECORD_AUX] = sizeof(struct perf_record_aux),
	    [PERF_RECORD_ITRACE_START] = sizeof(struct perf_record_itrace_start),
	    [PERF_RECORD_LOST_SAMPLES] = sizeof(struct perf_record_lost_samples),
	    [PERF_RECORD_SWITCH_CPU_WIDE] = sizeof(struct perf_record_switch),
	    [PERF_RECORD_NAMESPACES] = sizeof(struct perf_record_namespaces),
	    [PERF_RECORD_KSYMBOL] = sizeof(struct perf_record_ksymbol),
	    [PERF_RECORD_BPF_EVENT] = sizeof(struct perf_record_bpf_event),
	    [PERF_RECORD_CGROUP] = sizeof(struct perf_record_cgroup),
	    [PERF_RECORD_TEXT_POKE] = sizeof(struct perf_record_text_poke),
	};
	u32 type = event->header.type, size = event->header.size;

	if (type < ARRAY_SIZE(min_size) && size < min_size[type])
		return "is too short for its type";
	switch (type) {
	case PERF_RECORD_MMAP:
		return has_nul(event->mmap.filename, event) ? NULL : "has an unterminated filename";
	case PERF_RECORD_MMAP2:
		return has_nul(event->mmap2.filename, event) ? NULL :
							       "has an unterminated filename";
	case PERF_RECORD_COMM:
		return has_nul(event->comm.comm, event) ? NULL : "has an unterminated comm";
	case PERF_RECORD_KSYMBOL:
		return has_nul(event->ksymbol.name, event) ? NULL : "has an unterminated name";
	case PERF_RECORD_CGROUP:
		return has_nul(event->cgroup.path, event) ? NULL : "has an unterminated path";
	case PERF_RECORD_NAMESPACES:
		if (event->namespaces.nr_namespaces >
		    (size - sizeof(struct perf_record_namespaces)) / 16)
			return "claims more namespaces than it holds";
		return NULL;
	case PERF_RECORD_TEXT_POKE:
		if ((u32)event->text_poke.old_len + event->text_poke.new_len >
		    size - sizeof(struct perf_record_text_poke))
			return "claims more code bytes than it holds";
		return NULL;
	default:
		return NULL;
	}
}

/* a string field and its NUL, padded to 8 (perf_event__check() found the NUL) */
static u32 padded_string(const union perf_event *event, const char *str)
{
	u32 off = str - (const char *)event;

	return off + PERF_ALIGN(strlen(str) + 1, 8);
}

u32 perf_event__fields_size(const union perf_event *event)
{
	switch (event->header.type) {
	case PERF_RECORD_MMAP:
		return padded_string(event, event->mmap.filename);
	case PERF_RECORD_MMAP2:
		return padded_string(event, event->mmap2.filename);
	case PERF_RECORD_COMM:
		return padded_string(event, event->comm.comm);
	case PERF_RECORD_KSYMBOL:
		return padded_string(event, event->ksymbol.name);
	case PERF_RECORD_CGROUP:
		return padded_string(event, event->cgroup.path);
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		return sizeof(struct perf_record_fork);
	case PERF_RECORD_LOST:
		return sizeof(struct perf_record_lost);
	case PERF_RECORD_LOST_SAMPLES:
		return sizeof(struct perf_record_lost_samples);
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		return sizeof(struct perf_record_throttle);
	case PERF_RECORD_AUX:
		return sizeof(struct perf_record_aux);
	case PERF_RECORD_ITRACE_START:
		return sizeof(struct perf_record_itrace_start);
	case PERF_RECORD_SWITCH:
		return sizeof(struct perf_event_header);
	case PERF_RECORD_SWITCH_CPU_WIDE:
		return sizeof(struct perf_record_switch);
	case PERF_RECORD_BPF_EVENT:
		return sizeof(struct perf_record_bpf_event);
	case PERF_RECORD_NAMESPACES:
		return sizeof(struct perf_record_namespaces) + event->namespaces.nr_namespaces * 16;
	default:
		return 0;
	}
}
