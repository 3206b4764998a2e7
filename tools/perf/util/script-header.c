// SPDX-License-Identifier: GPL-2.0-only
/*
 * The recording's header as perf script --header prints it: the file
 * layout, then one or a few lines per feature section in section order,
 * then the features the file lacks.  The strings and numbers come from
 * the session's perf_env; the attrs from the evlist, printed field by
 * field as perf's perf_event_attr__fprintf() does (non-zero fields only).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "data.h"
#include "debug.h"
#include "evsel.h"
#include "header.h"
#include "script-header.h"
#include "session.h"

int script_header__keep(struct script_header *h, int feat, const void *buf, u64 size)
{
	if (feat <= 0 || feat >= 64 || h->feat[feat])
		return 0;
	/* a pipe's features come as records: printed once the session has parsed each */
	if (h->pipe && h->nr_pending < ARRAY_SIZE(h->pending))
		h->pending[h->nr_pending++] = feat;
	h->feat[feat] = malloc(size ?: 1);
	if (!h->feat[feat])
		return -ENOMEM;
	memcpy(h->feat[feat], buf, size);
	h->size[feat] = size;
	return 0;
}

void script_header__exit(struct script_header *h)
{
	for (int i = 0; i < 64; i++)
		zfree(&h->feat[i]);
}

/* the names perf 6.1 prints, its feat_ops[].name */
static const char *const feat_names[] = {
    [HEADER_TRACING_DATA] = "TRACING_DATA",
    [HEADER_BUILD_ID] = "BUILD_ID",
    [HEADER_HOSTNAME] = "HOSTNAME",
    [HEADER_OSRELEASE] = "OSRELEASE",
    [HEADER_VERSION] = "VERSION",
    [HEADER_ARCH] = "ARCH",
    [HEADER_NRCPUS] = "NRCPUS",
    [HEADER_CPUDESC] = "CPUDESC",
    [HEADER_CPUID] = "CPUID",
    [HEADER_TOTAL_MEM] = "TOTAL_MEM",
    [HEADER_CMDLINE] = "CMDLINE",
    [HEADER_EVENT_DESC] = "EVENT_DESC",
    [HEADER_CPU_TOPOLOGY] = "CPU_TOPOLOGY",
    [HEADER_NUMA_TOPOLOGY] = "NUMA_TOPOLOGY",
    [HEADER_BRANCH_STACK] = "BRANCH_STACK",
    [HEADER_PMU_MAPPINGS] = "PMU_MAPPINGS",
    [HEADER_GROUP_DESC] = "GROUP_DESC",
    [HEADER_AUXTRACE] = "AUXTRACE",
    [HEADER_STAT] = "STAT",
    [HEADER_CACHE] = "CACHE",
    [HEADER_SAMPLE_TIME] = "SAMPLE_TIME",
    [HEADER_MEM_TOPOLOGY] = "MEM_TOPOLOGY",
    [HEADER_CLOCKID] = "CLOCKID",
    [HEADER_DIR_FORMAT] = "DIR_FORMAT",
    [HEADER_BPF_PROG_INFO] = "BPF_PROG_INFO",
    [HEADER_BPF_BTF] = "BPF_BTF",
    [HEADER_COMPRESSED] = "COMPRESSED",
    [HEADER_CPU_PMU_CAPS] = "CPU_PMU_CAPS",
    [HEADER_CLOCK_DATA] = "CLOCK_DATA",
    [HEADER_HYBRID_TOPOLOGY] = "HYBRID_TOPOLOGY",
    [HEADER_PMU_CAPS] = "PMU_CAPS",
};

static const char *feat_name(int feat)
{
	return feat > 0 && feat < (int)ARRAY_SIZE(feat_names) ? feat_names[feat] : "UNKNOWN";
}

/* the u32 count a list feature starts with (BPF programs, BTFs, groups); 0 when absent */
static u32 feat_count(const struct script_header *h, int feat)
{
	u32 n = 0;

	if (h->feat[feat] && h->size[feat] >= 4)
		memcpy(&n, h->feat[feat], 4);
	return n;
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
static void fprint_bits(FILE *fp, const char *name, u64 v, const struct bit_name *names)
{
	const char *sep = "";

	if (!v)
		return;
	fprintf(fp, ", %s = ", name);
	for (; names->name; names++) {
		if (v & names->bit) {
			fprintf(fp, "%s%s", sep, names->name);
			sep = "|";
		}
	}
}

static void fprint_u(FILE *fp, const char *name, u64 v)
{
	if (v)
		fprintf(fp, ", %s = %" PRIu64, name, v);
}

static void fprint_x(FILE *fp, const char *name, u64 v)
{
	if (v)
		fprintf(fp, ", %s = %#" PRIx64, name, v);
}

/* perf 6.1's perf_event_attr__fprintf() order, which is not the struct's */
static void fprint_attr(FILE *fp, const struct perf_event_attr *a, u32 size)
{
	fprint_u(fp, "type", a->type);
	fprint_u(fp, "size", size);
	fprint_x(fp, "config", a->config);
	fprint_u(fp, "{ sample_period, sample_freq }", a->sample_period);
	fprint_bits(fp, "sample_type", a->sample_type, sample_type_names);
	fprint_bits(fp, "read_format", a->read_format, read_format_names);
	fprint_u(fp, "disabled", a->disabled);
	fprint_u(fp, "inherit", a->inherit);
	fprint_u(fp, "pinned", a->pinned);
	fprint_u(fp, "exclusive", a->exclusive);
	fprint_u(fp, "exclude_user", a->exclude_user);
	fprint_u(fp, "exclude_kernel", a->exclude_kernel);
	fprint_u(fp, "exclude_hv", a->exclude_hv);
	fprint_u(fp, "exclude_idle", a->exclude_idle);
	fprint_u(fp, "mmap", a->mmap);
	fprint_u(fp, "comm", a->comm);
	fprint_u(fp, "freq", a->freq);
	fprint_u(fp, "inherit_stat", a->inherit_stat);
	fprint_u(fp, "enable_on_exec", a->enable_on_exec);
	fprint_u(fp, "task", a->task);
	fprint_u(fp, "watermark", a->watermark);
	fprint_u(fp, "precise_ip", a->precise_ip);
	fprint_u(fp, "mmap_data", a->mmap_data);
	fprint_u(fp, "sample_id_all", a->sample_id_all);
	fprint_u(fp, "exclude_host", a->exclude_host);
	fprint_u(fp, "exclude_guest", a->exclude_guest);
	fprint_u(fp, "exclude_callchain_kernel", a->exclude_callchain_kernel);
	fprint_u(fp, "exclude_callchain_user", a->exclude_callchain_user);
	fprint_u(fp, "mmap2", a->mmap2);
	fprint_u(fp, "comm_exec", a->comm_exec);
	fprint_u(fp, "use_clockid", a->use_clockid);
	fprint_u(fp, "context_switch", a->context_switch);
	fprint_u(fp, "write_backward", a->write_backward);
	fprint_u(fp, "namespaces", a->namespaces);
	fprint_u(fp, "ksymbol", a->ksymbol);
	fprint_u(fp, "bpf_event", a->bpf_event);
	fprint_u(fp, "aux_output", a->aux_output);
	fprint_u(fp, "cgroup", a->cgroup);
	fprint_u(fp, "text_poke", a->text_poke);
	fprint_u(fp, "build_id", a->build_id);
	fprint_u(fp, "inherit_thread", a->inherit_thread);
	fprint_u(fp, "remove_on_exec", a->remove_on_exec);
	fprint_u(fp, "sigtrap", a->sigtrap);
	fprint_u(fp, "{ wakeup_events, wakeup_watermark }", a->wakeup_events);
	fprint_u(fp, "bp_type", a->bp_type);
	fprint_x(fp, "{ bp_addr, config1 }", a->bp_addr);
	fprint_x(fp, "{ bp_len, config2 }", a->bp_len);
	fprint_bits(fp, "branch_sample_type", a->branch_sample_type, branch_type_names);
	fprint_x(fp, "sample_regs_user", a->sample_regs_user);
	fprint_u(fp, "sample_stack_user", a->sample_stack_user);
	if (a->clockid)
		fprintf(fp, ", clockid = %" PRId64, (s64)a->clockid);
	fprint_x(fp, "sample_regs_intr", a->sample_regs_intr);
	fprint_u(fp, "aux_watermark", a->aux_watermark);
	fprint_u(fp, "sample_max_stack", a->sample_max_stack);
	fprint_u(fp, "aux_sample_size", a->aux_sample_size);
	fprint_u(fp, "sig_data", a->sig_data);
}

static void fprint_events(struct perf_session *session, FILE *fp)
{
	const struct perf_env *env = &session->env;

	for (int i = 0; i < session->evlist->nr_entries; i++) {
		struct evsel *evsel = session->evlist->entries[i];
		const struct event_desc_entry *d =
		    i < env->nr_event_desc ? &env->event_desc[i] : NULL;

		fprintf(fp, "# event : name = %s, ", d && d->name ? d->name : evsel__name(evsel));
		if (d && d->nr_ids) {
			fputs(", id = {", fp);
			for (u32 j = 0; j < d->nr_ids; j++)
				fprintf(fp, "%s %" PRIu64, j ? "," : "", d->ids[j]);
			fputs(" }", fp);
		}
		fprint_attr(fp, &evsel->attr, evsel->attr_size);
		fputc('\n', fp);
	}
}

/* HEADER_PMU_MAPPINGS: u32 count, then (u32 type, u32 length, name) */
static void fprint_pmu_mappings(const struct script_header *h, FILE *fp)
{
	const u8 *p = h->feat[HEADER_PMU_MAPPINGS], *end = p + h->size[HEADER_PMU_MAPPINGS];
	const char *sep = "# pmu mappings: ";
	u32 nr, type, len;

	if (end - p < 4)
		goto bad;
	memcpy(&nr, p, 4);
	p += 4;
	if (!nr) {
		fputs("# pmu mappings: not available\n", fp);
		return;
	}
	for (; nr; nr--) {
		if (end - p < 8)
			goto bad;
		memcpy(&type, p, 4);
		memcpy(&len, p + 4, 4);
		p += 8;
		if ((u64)(end - p) < len)
			goto bad;
		fprintf(fp, "%s%.*s = %" PRIu32, sep, (int)strnlen((const char *)p, len), p, type);
		sep = ", ";
		p += len;
	}
	fputc('\n', fp);
	return;
bad:
	fputs("# pmu mappings: unable to read\n", fp);
}

/*
 * perf's __print_pmu_caps(): @p holds u32 count, then (name, value)
 * strings, each a u32 length and the padded bytes; *@pp past them
 */
static bool fprint_caps(FILE *fp, const u8 **pp, const u8 *end, const char *pmu, int pmu_len)
{
	const u8 *p = *pp;
	u32 nr, len;

	if (end - p < 4)
		return false;
	memcpy(&nr, p, 4);
	p += 4;
	if (!nr)
		fprintf(fp, "# %.*s pmu capabilities: not available", pmu_len, pmu);
	else
		fprintf(fp, "# %.*s pmu capabilities: ", pmu_len, pmu);
	for (u32 i = 0; i < 2 * nr; i++) {
		if (end - p < 4)
			return false;
		memcpy(&len, p, 4);
		if ((u64)(end - p - 4) < len)
			return false;
		fprintf(fp, "%s%.*s",
			i % 2 ? "=" :
			i     ? ", " :
				"",
			(int)strnlen((const char *)p + 4, len), p + 4);
		p += 4 + len;
	}
	fputc('\n', fp);
	*pp = p;
	return true;
}

/* HEADER_PMU_CAPS: u32 count of PMUs, each its caps then its name */
static void fprint_pmu_caps(const struct script_header *h, FILE *fp)
{
	const u8 *p = h->feat[HEADER_PMU_CAPS], *end = p + h->size[HEADER_PMU_CAPS];
	u32 nr, len;

	if (end - p < 4)
		return;
	memcpy(&nr, p, 4);
	for (p += 4; nr; nr--) {
		/* the name follows the caps: find it first */
		const u8 *q = p, *name;
		u32 n;

		if (end - q < 4)
			return;
		memcpy(&n, q, 4);
		for (q += 4, n *= 2; n; n--) {
			if (end - q < 4 || (memcpy(&len, q, 4), (u64)(end - q - 4) < len))
				return;
			q += 4 + len;
		}
		if (end - q < 4 || (memcpy(&len, q, 4), (u64)(end - q - 4) < len))
			return;
		name = q + 4;
		if (!fprint_caps(fp, &p, end, (const char *)name,
				 (int)strnlen((const char *)name, len)))
			return;
		p = name + len;
	}
}

/* perf's clockid_name(): the first name its table gives the id */
static const char *clockid_name(u32 id)
{
	switch (id) {
	case 0:
		return "realtime";
	case 1:
		return "monotonic";
	case 4:
		return "monotonic_raw";
	case 7:
		return "boottime";
	case 11:
		return "tai";
	default:
		return "(not found)";
	}
}

/* HEADER_CLOCK_DATA: u32 version, u32 clockid, u64 time of day, u64 clockid time */
static void fprint_clock_data(const struct script_header *h, FILE *fp)
{
	const u8 *p = h->feat[HEADER_CLOCK_DATA];
	u32 clockid;
	u64 tod, clk;
	time_t sec;
	struct tm tm;
	char date[64];

	if (h->size[HEADER_CLOCK_DATA] < 24) {
		fputs("# reference time disabled\n", fp);
		return;
	}
	memcpy(&clockid, p + 4, 4);
	memcpy(&tod, p + 8, 8);
	memcpy(&clk, p + 16, 8);
	sec = tod / 1000000000;
	if (!localtime_r(&sec, &tm) || !strftime(date, sizeof(date), "%F %T", &tm))
		snprintf(date, sizeof(date), "<error>");
	fprintf(fp, "# clockid: %s (%u)\n", clockid_name(clockid), clockid);
	fprintf(fp, "# reference time: %s.%06d = %ld.%06d (TOD) = %ld.%09ld (%s)\n", date,
		(int)(tod % 1000000000 / 1000), (long)sec, (int)(tod % 1000000000 / 1000),
		(long)(clk / 1000000000), (long)(clk % 1000000000), clockid_name(clockid));
}

/*
 * HEADER_GROUP_DESC: u32 count, then (name, u32 leader index, u32
 * members); perf prints the groups of more than one event
 */
static void fprint_groups(const struct script_header *h, struct perf_session *session, FILE *fp)
{
	const u8 *p = h->feat[HEADER_GROUP_DESC], *end = p + h->size[HEADER_GROUP_DESC];
	u32 nr, len, leader, members;

	if (end - p < 4)
		return;
	memcpy(&nr, p, 4);
	for (p += 4; nr; nr--) {
		const char *name;

		if (end - p < 4)
			return;
		memcpy(&len, p, 4);
		if ((u64)(end - p - 4) < (u64)len + 8)
			return;
		name = (const char *)p + 4;
		memcpy(&leader, p + 4 + len, 4);
		memcpy(&members, p + 8 + len, 4);
		p += 12 + len;
		if (members < 2 || leader >= (u32)session->evlist->nr_entries ||
		    members > (u32)session->evlist->nr_entries - leader)
			continue;
		/* perf's unnamed group is written as "{anon_group}" */
		if (!strncmp(name, "{anon_group}", len))
			name = "";
		fprintf(fp, "# group: %.*s{", (int)strnlen(name, len), name);
		for (u32 i = 0; i < members; i++)
			fprintf(fp, "%s%s", i ? "," : "",
				evsel__name(session->evlist->entries[leader + i]));
		fputs("}\n", fp);
	}
}

/* what perf prints for the sections it shows in full only with -I */
static bool feature__full_only(int feat)
{
	return feat == HEADER_CPU_TOPOLOGY || feat == HEADER_NUMA_TOPOLOGY ||
	       feat == HEADER_CACHE || feat == HEADER_MEM_TOPOLOGY ||
	       feat == HEADER_HYBRID_TOPOLOGY;
}

static bool has_feat(const struct perf_session *session, int feat)
{
	return session->feat_bitmap[feat / 64] & (1ULL << (feat % 64));
}

static void fprint_feature(const struct script_header *h, struct perf_session *session, int feat,
			   FILE *fp)
{
	const struct perf_env *env = &session->env;
	double ms;

	if (feature__full_only(feat)) {
		fprintf(fp, "# %s info available, use -I to display\n", feat_name(feat));
		return;
	}
	switch (feat) {
	case HEADER_HOSTNAME:
		fprintf(fp, "# hostname : %s\n", env->hostname ?: "");
		break;
	case HEADER_OSRELEASE:
		fprintf(fp, "# os release : %s\n", env->os_release ?: "");
		break;
	case HEADER_VERSION:
		fprintf(fp, "# perf version : %s\n", env->version ?: "");
		break;
	case HEADER_ARCH:
		fprintf(fp, "# arch : %s\n", env->arch ?: "");
		break;
	case HEADER_NRCPUS:
		fprintf(fp, "# nrcpus online : %u\n# nrcpus avail : %u\n", env->nr_cpus_online,
			env->nr_cpus_avail);
		break;
	case HEADER_CPUDESC:
		fprintf(fp, "# cpudesc : %s\n", env->cpu_desc ?: "");
		break;
	case HEADER_CPUID:
		fprintf(fp, "# cpuid : %s\n", env->cpuid ?: "");
		break;
	case HEADER_TOTAL_MEM:
		fprintf(fp, "# total memory : %" PRIu64 " kB\n", env->total_mem);
		break;
	case HEADER_CMDLINE:
		fputs("# cmdline : ", fp);
		for (int i = 0; i < env->nr_cmdline; i++)
			fprintf(fp, "%s ", env->cmdline_argv[i]);
		fputc('\n', fp);
		break;
	case HEADER_EVENT_DESC:
		fprint_events(session, fp);
		break;
	case HEADER_BRANCH_STACK:
		fputs("# contains samples with branch stack\n", fp);
		break;
	case HEADER_PMU_MAPPINGS:
		fprint_pmu_mappings(h, fp);
		break;
	case HEADER_AUXTRACE:
		fputs("# contains AUX area data (e.g. instruction trace)\n", fp);
		break;
	case HEADER_STAT:
		fputs("# contains stat data\n", fp);
		break;
	case HEADER_SAMPLE_TIME:
		fprintf(fp, "# time of first sample : %" PRIu64 ".%06" PRIu64 "\n",
			env->first_sample_time / 1000000000,
			env->first_sample_time % 1000000000 / 1000);
		fprintf(fp, "# time of last sample : %" PRIu64 ".%06" PRIu64 "\n",
			env->last_sample_time / 1000000000,
			env->last_sample_time % 1000000000 / 1000);
		ms = (double)(env->last_sample_time - env->first_sample_time) / 1000000.0;
		fprintf(fp, "# sample duration : %10.3f ms\n", ms);
		break;
	case HEADER_CPU_PMU_CAPS: {
		const u8 *p = h->feat[feat];

		if (p)
			fprint_caps(fp, &p, p + h->size[feat], "cpu", 3);
		break;
	}
	case HEADER_CLOCKID:
		if (h->size[feat] >= 8) {
			u64 res;

			memcpy(&res, h->feat[feat], 8);
			fprintf(fp, "# clockid frequency: %" PRIu64 " MHz\n", res * 1000);
		}
		break;
	case HEADER_CLOCK_DATA:
		fprint_clock_data(h, fp);
		break;
	case HEADER_GROUP_DESC:
		fprint_groups(h, session, fp);
		break;
	case HEADER_PMU_CAPS:
		fprint_pmu_caps(h, fp);
		break;
	case HEADER_DIR_FORMAT:
		fprintf(fp, "# directory data version : %" PRIu64 "\n", env->dir_format_version);
		break;
	case HEADER_COMPRESSED:
		fprintf(fp, "# compressed : %s, level = %u, ratio = %u\n",
			env->comp.type == 1 ? "Zstd" : "Unknown", env->comp.level, env->comp.ratio);
		break;
	case HEADER_TRACING_DATA:
	case HEADER_BUILD_ID:
		break; /* perf prints nothing for these */
	case HEADER_BPF_PROG_INFO:
	case HEADER_BPF_BTF:
		/* a line per program, BTF, group, PMU: none, none printed */
		if (feat_count(h, feat))
			fprintf(fp, "# %s: not shown by perf textpoke\n", feat_name(feat));
		break;
	default:
		/* perf prints these in ways this version does not reproduce */
		fprintf(fp, "# %s: not shown by perf textpoke\n", feat_name(feat));
		break;
	}
}

void script_header__fprintf_pending(struct script_header *h, struct perf_session *session, FILE *fp)
{
	for (size_t i = 0; i < h->nr_pending; i++)
		fprint_feature(h, session, h->pending[i], fp);
	h->nr_pending = 0;
}

int script_header__fprintf(struct script_header *h, struct perf_session *session, FILE *fp)
{
	const struct perf_file_header *fh = &session->file_header;
	struct stat st;
	time_t mtime;
	int feat;

	if (session->needs_swap) {
		pr_err("%s: --header is not supported for a byte-swapped recording\n",
		       session->path);
		return -EINVAL;
	}
	if (fstat(session->data->fd, &st))
		return -errno;
	mtime = st.st_mtime;
	fputs("# ========\n", fp);
	fprintf(fp, "# captured on    : %s", ctime(&mtime));
	fprintf(fp, "# header version : 1\n");
	fprintf(fp, "# data offset    : %" PRIu64 "\n", fh->data.offset);
	fprintf(fp, "# data size      : %" PRIu64 "\n", fh->data.size);
	fprintf(fp, "# feat offset    : %" PRIu64 "\n",
		session->is_pipe ? 0 : fh->data.offset + fh->data.size);
	if (session->is_pipe) {
		/* the features follow as records: printed where they come */
		fputs("# ========\n#\n", fp);
		h->pipe = true;
		return 0;
	}
	for (feat = HEADER_FIRST_FEATURE; feat < HEADER_LAST_FEATURE; feat++)
		if (has_feat(session, feat))
			fprint_feature(h, session, feat, fp);
	fputs("# missing features: ", fp);
	for (feat = HEADER_FIRST_FEATURE; feat < HEADER_LAST_FEATURE; feat++)
		if (!has_feat(session, feat))
			fprintf(fp, "%s ", feat_name(feat));
	fputs("\n# ========\n#\n", fp);
	return 0;
}
