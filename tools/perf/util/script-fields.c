// SPDX-License-Identifier: GPL-2.0-only
/*
 * -F field selection with perf script's names, defaults and rules: a bare
 * list replaces the fields of every event type, "+f"/"-f" edit the
 * defaults, "type:list" addresses one event type.  Defaults then lose the
 * fields a recording cannot supply; explicit requests for them are errors.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "debug.h"
#include "evsel.h"
#include "script-fields.h"

static const struct {
	const char *name;
	u64 field;
} field_names[] = {
    {"comm", SF_COMM},
    {"tid", SF_TID},
    {"pid", SF_PID},
    {"time", SF_TIME},
    {"cpu", SF_CPU},
    {"event", SF_EVNAME},
    {"trace", SF_TRACE},
    {"ip", SF_IP},
    {"sym", SF_SYM},
    {"dso", SF_DSO},
    {"addr", SF_ADDR},
    {"symoff", SF_SYMOFFSET},
    {"period", SF_PERIOD},
    {"iregs", SF_IREGS},
    {"uregs", SF_UREGS},
    {"weight", SF_WEIGHT},
    {"data_src", SF_DATA_SRC},
    {"bpf-output", SF_BPF_OUTPUT},
    {"misc", SF_MISC},
    {"phys_addr", SF_PHYS_ADDR},
    {"ins_lat", SF_INS_LAT},
    {"abi", SF_ABI},
    {"insn", SF_INSN},
    {"disasm", SF_DISASM},
    {"poked", SF_POKED},
    {"srcline", SF_SRCLINE},
    {"brstack", SF_BRSTACK},
    {"brstacksym", SF_BRSTACKSYM},
    {"brstackoff", SF_BRSTACKOFF},
    {"insnlen", SF_INSNLEN},
    {"flags", SF_FLAGS},
    {"ipc", SF_IPC},
    {"callindent", SF_CALLINDENT},
    {"data_page_size", SF_DATA_PAGE_SIZE},
    {"code_page_size", SF_CODE_PAGE_SIZE},
    {"tod", SF_TOD},
    {"synth", SF_SYNTH},
};

#define SF_BASE (SF_COMM | SF_TID | SF_CPU | SF_TIME | SF_EVNAME)
#define SF_CODE (SF_IP | SF_SYM | SF_SYMOFFSET | SF_DSO | SF_PERIOD)

/* perf 6.1's defaults and invalid fields per output type */
static const struct script_output defaults[SCRIPT_OUT_MAX] = {
    [SCRIPT_OUT_HARDWARE] = {SF_BASE | SF_CODE, SF_TRACE | SF_BPF_OUTPUT},
    [SCRIPT_OUT_SOFTWARE] = {SF_BASE | SF_CODE | SF_BPF_OUTPUT, SF_TRACE},
    [SCRIPT_OUT_TRACEPOINT] = {SF_BASE | SF_TRACE, 0},
    [SCRIPT_OUT_HW_CACHE] = {SF_BASE | SF_CODE, SF_TRACE | SF_BPF_OUTPUT},
    [SCRIPT_OUT_RAW] = {SF_BASE | SF_CODE | SF_ADDR | SF_DATA_SRC | SF_WEIGHT | SF_INS_LAT,
			SF_TRACE | SF_BPF_OUTPUT},
    [SCRIPT_OUT_BREAKPOINT] = {SF_BASE | SF_CODE, SF_TRACE | SF_BPF_OUTPUT},
    /* as perf 6.1: no period, and the synth payload */
    [SCRIPT_OUT_SYNTH] = {(SF_BASE | SF_CODE | SF_SYNTH) & ~SF_PERIOD, SF_TRACE | SF_BPF_OUTPUT},
    [SCRIPT_OUT_OTHER] = {SF_BASE | SF_CODE, SF_TRACE | SF_BPF_OUTPUT},
};

static const char *const type_names[SCRIPT_OUT_MAX] = {
    "hardware", "software", "tracepoint", "hardware-cache", "raw", "breakpoint", "synth", "unknown",
};

void script_fields__init(struct script_fields *sf)
{
	memcpy(sf->out, defaults, sizeof(defaults));
	sf->any_user_set = false;
	sf->allow_user_set = false;
}

const char *script_output_type__name(enum script_output_type type)
{
	return type < SCRIPT_OUT_MAX ? type_names[type] : "unknown";
}

const char *script_field__name(u64 field)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(field_names); i++) {
		if (field_names[i].field == field)
			return field_names[i].name;
	}
	return "";
}

static u64 field_lookup(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(field_names); i++) {
		if (!strcmp(name, field_names[i].name))
			return field_names[i].field;
	}
	return 0;
}

static int type_lookup(const char *name)
{
	static const struct {
		const char *name;
		int type;
	} prefixes[] = {
	    {"hw", SCRIPT_OUT_HARDWARE},      {"sw", SCRIPT_OUT_SOFTWARE},
	    {"trace", SCRIPT_OUT_TRACEPOINT}, {"raw", SCRIPT_OUT_RAW},
	    {"break", SCRIPT_OUT_BREAKPOINT}, {"synth", SCRIPT_OUT_SYNTH},
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(prefixes); i++) {
		if (!strcmp(name, prefixes[i].name))
			return prefixes[i].type;
	}
	return -1;
}

static void output_change(struct script_output *o, u64 field, bool remove)
{
	if (remove) {
		o->fields &= ~field;
		o->user_fields &= ~field;
	} else {
		o->fields |= field;
		o->user_fields |= field;
	}
	o->user_set = true;
	o->wildcard_set = true;
}

int script_fields__parse(struct script_fields *sf, const char *arg)
{
	enum { DEFAULT, SET, ADD, REMOVE } change = DEFAULT;
	char *str = strdup(arg), *list, *tok, *save = NULL;
	bool edit;
	int type = -1, t, rc = 0;

	if (!str)
		return -ENOMEM;
	list = strchr(str, ':');
	if (list) {
		*list++ = '\0';
		type = type_lookup(str);
		if (type < 0) {
			pr_err(
			    "invalid event type '%s' in field string (hw, sw, trace, raw, break, synth)\n",
			    str);
			rc = -EINVAL;
			goto out;
		}
	} else {
		list = str;
		if (!*list) {
			pr_err("cannot set fields to 'none' for all event types\n");
			rc = -EINVAL;
			goto out;
		}
	}

	/* "+f" and "-f" edit the defaults instead of replacing them */
	edit = strchr(list, '+') || strchr(list, '-');
	if (!edit) {
		for (t = 0; t < SCRIPT_OUT_MAX; t++) {
			if (type >= 0 && t != type)
				continue;
			sf->out[t].fields = 0;
			sf->out[t].user_set = true;
			sf->out[t].wildcard_set = type < 0;
			sf->out[t].user_fields = 0;
		}
	}
	sf->any_user_set = true;

	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		u64 field;

		if (*tok == '+' || *tok == '-') {
			if (change == SET)
				goto out_badmix;
			change = *tok == '+' ? ADD : REMOVE;
			tok++;
		} else {
			if (change != SET && change != DEFAULT)
				goto out_badmix;
			change = SET;
		}
		field = field_lookup(tok);
		if (!field) {
			pr_err("invalid field requested: '%s'\n", tok);
			rc = -EINVAL;
			goto out;
		}
		if (type >= 0) {
			if (sf->out[type].invalid & field) {
				pr_err("'%s' not valid for %s events\n", tok, type_names[type]);
				rc = -EINVAL;
				goto out;
			}
			output_change(&sf->out[type], field, change == REMOVE);
			continue;
		}
		for (t = 0; t < SCRIPT_OUT_MAX; t++) {
			if (sf->out[t].invalid & field) {
				pr_debug("'%s' not valid for %s events, ignoring\n", tok,
					 type_names[t]);
				continue;
			}
			output_change(&sf->out[t], field, change == REMOVE);
		}
	}
	goto out;

out_badmix:
	pr_err("cannot mix +-field with overridden fields\n");
	rc = -EINVAL;
out:
	free(str);
	return rc;
}

/*
 * perf's evsel__do_check_stype(): a field the samples cannot supply is
 * dropped when it came from the defaults, an error when asked for.
 */
static int check_stype(struct script_output *o, const struct evsel *evsel, const char *path,
		       u64 sample_bits, const char *what, u64 field, bool allow_user_set)
{
	if (evsel->attr.sample_type & sample_bits)
		return 0;
	if (o->user_fields & field) {
		if (allow_user_set)
			return 0;
		pr_err("%s: samples for '%s' event do not have %s attribute set, cannot print '%s' "
		       "field\n",
		       path, evsel->name ? evsel->name : "?", what, script_field__name(field));
		return -EINVAL;
	}
	o->fields &= ~field;
	pr_debug("samples for '%s' event do not have %s attribute set, skipping '%s' field\n",
		 evsel->name ? evsel->name : "?", what, script_field__name(field & -field));
	return 0;
}

int script_fields__check_evsel(struct script_fields *sf, const struct evsel *evsel,
			       const char *path)
{
	int t = script_output_type(evsel->attr.type);
	struct script_output *o = &sf->out[t];
	bool has_addr = evsel->attr.sample_type & (PERF_SAMPLE_IP | PERF_SAMPLE_ADDR);
	bool aux = sf->allow_user_set;

#define CHECK(f, bits, what, allow)                                                         \
	do {                                                                                \
		if ((o->fields & (f)) && check_stype(o, evsel, path, bits, what, f, allow)) \
			return -EINVAL;                                                     \
	} while (0)

	if (!o->fields)
		return 0;
	CHECK(SF_IP, PERF_SAMPLE_IP, "IP", false);
	CHECK(SF_ADDR, PERF_SAMPLE_ADDR, "ADDR", aux);
	CHECK(SF_DATA_SRC, PERF_SAMPLE_DATA_SRC, "DATA_SRC", aux);
	CHECK(SF_WEIGHT, PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT, "WEIGHT", aux);
	/*
	 * As perf: the samples must carry an address, whether or not it is
	 * printed; sym and dso print only beside ip or addr, so "-F -ip"
	 * prints lines without them.
	 */
	if ((o->fields & SF_SYM) && !has_addr) {
		pr_err("%s: display of symbols requested but neither sample IP nor sample address "
		       "available\n",
		       path);
		return -EINVAL;
	}
	if ((o->fields & SF_SYMOFFSET) && !(o->fields & SF_SYM)) {
		pr_err("%s: display of offsets requested but symbol is not selected\n", path);
		return -EINVAL;
	}
	if ((o->fields & SF_SRCLINE) && !(o->fields & SF_IP)) {
		pr_err(
		    "%s: display of source line number requested but sample IP is not selected\n",
		    path);
		return -EINVAL;
	}
	if ((o->fields & SF_DSO) && !has_addr) {
		pr_err("%s: display of DSO requested but no address to convert\n", path);
		return -EINVAL;
	}
	if ((o->fields & (SF_PID | SF_TID)) && !(evsel->attr.sample_type & PERF_SAMPLE_TID)) {
		if (o->user_fields & (SF_PID | SF_TID)) {
			pr_err(
			    "%s: samples for '%s' event do not have TID attribute set, cannot print "
			    "'tid' field\n",
			    path, evsel->name ? evsel->name : "?");
			return -EINVAL;
		}
		o->fields &= ~(SF_PID | SF_TID);
	}
	CHECK(SF_TIME, PERF_SAMPLE_TIME, "TIME", false);
	CHECK(SF_CPU, PERF_SAMPLE_CPU, "CPU", aux);
	/* no PERIOD check: without PERF_SAMPLE_PERIOD perf prints attr.sample_period */
	CHECK(SF_IREGS, PERF_SAMPLE_REGS_INTR, "IREGS", aux);
	CHECK(SF_UREGS, PERF_SAMPLE_REGS_USER, "UREGS", false);
	CHECK(SF_ABI, PERF_SAMPLE_REGS_USER, "REGS_USER", false);
	CHECK(SF_PHYS_ADDR, PERF_SAMPLE_PHYS_ADDR, "PHYS_ADDR", aux);
	CHECK(SF_INS_LAT, PERF_SAMPLE_WEIGHT_STRUCT, "WEIGHT_STRUCT", false);
	CHECK(SF_INSN, PERF_SAMPLE_IP, "IP", false);
	CHECK(SF_INSNLEN, PERF_SAMPLE_IP, "IP", false);
	CHECK(SF_DATA_PAGE_SIZE, PERF_SAMPLE_DATA_PAGE_SIZE, "DATA_PAGE_SIZE", false);
	CHECK(SF_CODE_PAGE_SIZE, PERF_SAMPLE_CODE_PAGE_SIZE, "CODE_PAGE_SIZE", false);
	CHECK(SF_DISASM, PERF_SAMPLE_IP, "IP", false);
	CHECK(SF_POKED, PERF_SAMPLE_IP, "IP", false);
	CHECK(SF_SRCLINE, PERF_SAMPLE_IP, "IP", false);
	/* no brstack check: perf prints nothing for samples without a branch stack */
#undef CHECK
	return 0;
}
