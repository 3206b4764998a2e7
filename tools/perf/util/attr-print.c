// SPDX-License-Identifier: GPL-2.0-only
/*
 * A perf_event_attr field by field, non-zero fields only, in the order
 * and spelling of perf 6.1's perf_event_attr__fprintf(), which both perf
 * script --header ("name = value") and perf evlist -v ("name: value")
 * print with.
 */
#include <inttypes.h>

#include "attr-print.h"

struct attr_out {
	FILE *fp;
	enum attr_print_style style;
	bool first;
};

/* the separator before a field and its name */
static void attr_out__name(struct attr_out *o, const char *name)
{
	if (o->style == ATTR_PRINT_HEADER) {
		fprintf(o->fp, ", %s = ", name);
		return;
	}
	/* perf evlist's comma_fprintf(): ':' after the event's name, ',' after a field */
	fprintf(o->fp, "%s %s: ", o->first ? ":" : ",", name);
	o->first = false;
}

struct bit_name {
	u64 bit;
	const char *name;
};

/* in the order of perf's tables, which is not always the bits' */
static const struct bit_name sample_type_names[] = {
    {PERF_SAMPLE_IP, "IP"},
    {PERF_SAMPLE_TID, "TID"},
    {PERF_SAMPLE_TIME, "TIME"},
    {PERF_SAMPLE_ADDR, "ADDR"},
    {PERF_SAMPLE_READ, "READ"},
    {PERF_SAMPLE_CALLCHAIN, "CALLCHAIN"},
    {PERF_SAMPLE_ID, "ID"},
    {PERF_SAMPLE_CPU, "CPU"},
    {PERF_SAMPLE_PERIOD, "PERIOD"},
    {PERF_SAMPLE_STREAM_ID, "STREAM_ID"},
    {PERF_SAMPLE_RAW, "RAW"},
    {PERF_SAMPLE_BRANCH_STACK, "BRANCH_STACK"},
    {PERF_SAMPLE_REGS_USER, "REGS_USER"},
    {PERF_SAMPLE_STACK_USER, "STACK_USER"},
    {PERF_SAMPLE_IDENTIFIER, "IDENTIFIER"},
    {PERF_SAMPLE_REGS_INTR, "REGS_INTR"},
    {PERF_SAMPLE_DATA_SRC, "DATA_SRC"},
    {PERF_SAMPLE_WEIGHT, "WEIGHT"},
    {PERF_SAMPLE_PHYS_ADDR, "PHYS_ADDR"},
    {PERF_SAMPLE_AUX, "AUX"},
    {PERF_SAMPLE_CGROUP, "CGROUP"},
    {PERF_SAMPLE_DATA_PAGE_SIZE, "DATA_PAGE_SIZE"},
    {PERF_SAMPLE_CODE_PAGE_SIZE, "CODE_PAGE_SIZE"},
    {PERF_SAMPLE_WEIGHT_STRUCT, "WEIGHT_STRUCT"},
    {0, NULL},
};

static const struct bit_name read_format_names[] = {
    {PERF_FORMAT_TOTAL_TIME_ENABLED, "TOTAL_TIME_ENABLED"},
    {PERF_FORMAT_TOTAL_TIME_RUNNING, "TOTAL_TIME_RUNNING"},
    {PERF_FORMAT_ID, "ID"},
    {PERF_FORMAT_GROUP, "GROUP"},
    {1ULL << 4 /* PERF_FORMAT_LOST */, "LOST"},
    {0, NULL},
};

static const struct bit_name branch_type_names[] = {
    {PERF_SAMPLE_BRANCH_USER, "USER"},
    {PERF_SAMPLE_BRANCH_KERNEL, "KERNEL"},
    {PERF_SAMPLE_BRANCH_HV, "HV"},
    {PERF_SAMPLE_BRANCH_ANY, "ANY"},
    {PERF_SAMPLE_BRANCH_ANY_CALL, "ANY_CALL"},
    {PERF_SAMPLE_BRANCH_ANY_RETURN, "ANY_RETURN"},
    {PERF_SAMPLE_BRANCH_IND_CALL, "IND_CALL"},
    {PERF_SAMPLE_BRANCH_ABORT_TX, "ABORT_TX"},
    {PERF_SAMPLE_BRANCH_IN_TX, "IN_TX"},
    {PERF_SAMPLE_BRANCH_NO_TX, "NO_TX"},
    {PERF_SAMPLE_BRANCH_COND, "COND"},
    {PERF_SAMPLE_BRANCH_CALL_STACK, "CALL_STACK"},
    {PERF_SAMPLE_BRANCH_IND_JUMP, "IND_JUMP"},
    {PERF_SAMPLE_BRANCH_CALL, "CALL"},
    {PERF_SAMPLE_BRANCH_NO_FLAGS, "NO_FLAGS"},
    {PERF_SAMPLE_BRANCH_NO_CYCLES, "NO_CYCLES"},
    {PERF_SAMPLE_BRANCH_TYPE_SAVE, "TYPE_SAVE"},
    {PERF_SAMPLE_BRANCH_HW_INDEX, "HW_INDEX"},
    {1ULL << 18 /* PERF_SAMPLE_BRANCH_PRIV_SAVE */, "PRIV_SAVE"},
    {0, NULL},
};

/* perf's __p_bits(): the names of the known bits set, '|'-joined; the others are dropped */
static void fprint_bits(struct attr_out *o, const char *name, u64 v, const struct bit_name *names)
{
	const char *sep = "";

	if (!v)
		return;
	attr_out__name(o, name);
	for (; names->name; names++) {
		if (v & names->bit) {
			fprintf(o->fp, "%s%s", sep, names->name);
			sep = "|";
		}
	}
}

static void fprint_u(struct attr_out *o, const char *name, u64 v)
{
	if (!v)
		return;
	attr_out__name(o, name);
	fprintf(o->fp, "%" PRIu64, v);
}

static void fprint_x(struct attr_out *o, const char *name, u64 v)
{
	if (!v)
		return;
	attr_out__name(o, name);
	fprintf(o->fp, "%#" PRIx64, v);
}

/* perf 6.1's perf_event_attr__fprintf() order, which is not the struct's */
void perf_event_attr__fprintf(FILE *fp, const struct perf_event_attr *a, u32 size,
			      enum attr_print_style style)
{
	struct attr_out out = {.fp = fp, .style = style, .first = true};
	struct attr_out *o = &out;

	fprint_u(o, "type", a->type);
	fprint_u(o, "size", size);
	fprint_x(o, "config", a->config);
	fprint_u(o, "{ sample_period, sample_freq }", a->sample_period);
	fprint_bits(o, "sample_type", a->sample_type, sample_type_names);
	fprint_bits(o, "read_format", a->read_format, read_format_names);
	fprint_u(o, "disabled", a->disabled);
	fprint_u(o, "inherit", a->inherit);
	fprint_u(o, "pinned", a->pinned);
	fprint_u(o, "exclusive", a->exclusive);
	fprint_u(o, "exclude_user", a->exclude_user);
	fprint_u(o, "exclude_kernel", a->exclude_kernel);
	fprint_u(o, "exclude_hv", a->exclude_hv);
	fprint_u(o, "exclude_idle", a->exclude_idle);
	fprint_u(o, "mmap", a->mmap);
	fprint_u(o, "comm", a->comm);
	fprint_u(o, "freq", a->freq);
	fprint_u(o, "inherit_stat", a->inherit_stat);
	fprint_u(o, "enable_on_exec", a->enable_on_exec);
	fprint_u(o, "task", a->task);
	fprint_u(o, "watermark", a->watermark);
	fprint_u(o, "precise_ip", a->precise_ip);
	fprint_u(o, "mmap_data", a->mmap_data);
	fprint_u(o, "sample_id_all", a->sample_id_all);
	fprint_u(o, "exclude_host", a->exclude_host);
	fprint_u(o, "exclude_guest", a->exclude_guest);
	fprint_u(o, "exclude_callchain_kernel", a->exclude_callchain_kernel);
	fprint_u(o, "exclude_callchain_user", a->exclude_callchain_user);
	fprint_u(o, "mmap2", a->mmap2);
	fprint_u(o, "comm_exec", a->comm_exec);
	fprint_u(o, "use_clockid", a->use_clockid);
	fprint_u(o, "context_switch", a->context_switch);
	fprint_u(o, "write_backward", a->write_backward);
	fprint_u(o, "namespaces", a->namespaces);
	fprint_u(o, "ksymbol", a->ksymbol);
	fprint_u(o, "bpf_event", a->bpf_event);
	fprint_u(o, "aux_output", a->aux_output);
	fprint_u(o, "cgroup", a->cgroup);
	fprint_u(o, "text_poke", a->text_poke);
	fprint_u(o, "build_id", a->build_id);
	fprint_u(o, "inherit_thread", a->inherit_thread);
	fprint_u(o, "remove_on_exec", a->remove_on_exec);
	fprint_u(o, "sigtrap", a->sigtrap);
	fprint_u(o, "{ wakeup_events, wakeup_watermark }", a->wakeup_events);
	fprint_u(o, "bp_type", a->bp_type);
	fprint_x(o, "{ bp_addr, config1 }", a->bp_addr);
	fprint_x(o, "{ bp_len, config2 }", a->bp_len);
	fprint_bits(o, "branch_sample_type", a->branch_sample_type, branch_type_names);
	fprint_x(o, "sample_regs_user", a->sample_regs_user);
	fprint_u(o, "sample_stack_user", a->sample_stack_user);
	if (a->clockid) {
		attr_out__name(o, "clockid");
		fprintf(o->fp, "%" PRId64, (s64)a->clockid);
	}
	fprint_x(o, "sample_regs_intr", a->sample_regs_intr);
	fprint_u(o, "aux_watermark", a->aux_watermark);
	fprint_u(o, "sample_max_stack", a->sample_max_stack);
	fprint_u(o, "aux_sample_size", a->aux_sample_size);
	fprint_u(o, "sig_data", a->sig_data);
}
