// SPDX-License-Identifier: GPL-2.0-only
/*
 * The recording's header as perf script --header prints it: the file
 * layout, then one or a few lines per feature section in section order,
 * then the features the file lacks.  The strings and numbers come from
 * the session's perf_env; the attrs from the evlist, printed field by
 * field as perf's perf_event_attr__fprintf() does (non-zero fields only).
 */
#include <errno.h>
#include <linux/bpf.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "attr-print.h"
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
		perf_event_attr__fprintf(fp, &evsel->attr, evsel->attr_size, ATTR_PRINT_HEADER);
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

/*
 * Reading the -I sections: u32 and u64 fields and perf's strings (a u32
 * length, then that many bytes, NUL-padded); a short payload ends the
 * listing where it is short
 */
struct feat_cursor {
	const u8 *p, *end;
	bool bad;
};

static u32 cur_u32(struct feat_cursor *c)
{
	u32 v = 0;

	if (c->end - c->p < 4)
		c->bad = true;
	else
		memcpy(&v, c->p, 4), c->p += 4;
	return v;
}

static u64 cur_u64(struct feat_cursor *c)
{
	u64 v = 0;

	if (c->end - c->p < 8)
		c->bad = true;
	else
		memcpy(&v, c->p, 8), c->p += 8;
	return v;
}

/* a string's bytes, *@len its length to the first NUL */
static const char *cur_str(struct feat_cursor *c, int *len)
{
	u32 n = cur_u32(c);
	const char *s = (const char *)c->p;

	if (c->bad || (u64)(c->end - c->p) < n) {
		c->bad = true;
		*len = 0;
		return "";
	}
	c->p += n;
	*len = (int)strnlen(s, n);
	return s;
}

static struct feat_cursor feat_cursor(const struct script_header *h, int feat)
{
	const u8 *p = h->feat[feat];

	return (struct feat_cursor){.p = p, .end = p + h->size[feat], .bad = !p};
}

/*
 * HEADER_CPU_TOPOLOGY: the sibling core lists, the sibling thread lists,
 * then (newer perf) per cpu its core and socket ids, then (newer still)
 * the sibling die lists and per cpu its die id.  Where a part is there
 * but cannot be read whole, perf drops the per cpu ids: so do we.  perf
 * decides whether the ids are there by its own count of the bytes read,
 * which takes each string as padded to 64 bytes, as perf writes them:
 * a file whose strings are padded otherwise looks as old as that count
 * says, and so it does here.
 */
static void fprint_cpu_topology(const struct script_header *h, struct perf_session *session,
				FILE *fp)
{
	struct feat_cursor c = feat_cursor(h, HEADER_CPU_TOPOLOGY), t, d;
	u32 nr_cpus = session->env.nr_cpus_avail, nr, nr_dies = 0, i;
	const u8 *ids = NULL, *die_ids = NULL;
	u64 counted;
	int len;

	for (nr = cur_u32(&c), counted = 4; nr && !c.bad; nr--) {
		const char *str = cur_str(&c, &len);

		fprintf(fp, "# sibling sockets : %.*s\n", len, str);
		counted += 4 + ((len + 1 + 63) & ~63ULL);
	}
	t = c;
	for (nr = cur_u32(&c), counted += 4; nr && !c.bad; nr--) {
		cur_str(&c, &len);
		counted += 4 + ((len + 1 + 63) & ~63ULL);
	}
	if (!c.bad && h->size[HEADER_CPU_TOPOLOGY] > counted &&
	    (u64)(c.end - c.p) >= 8ULL * nr_cpus) {
		ids = c.p;
		c.p += 8ULL * nr_cpus;
		counted += 8ULL * nr_cpus;
		if (h->size[HEADER_CPU_TOPOLOGY] > counted && c.p < c.end) {
			d = c;
			nr_dies = cur_u32(&d);
			for (nr = nr_dies; nr && !d.bad; nr--)
				cur_str(&d, &len);
			if (d.bad || (u64)(d.end - d.p) < 4ULL * nr_cpus)
				ids = NULL, nr_dies = 0;
			else
				die_ids = d.p;
		}
	}
	if (die_ids) {
		d = c;
		for (nr = cur_u32(&d); nr && !d.bad; nr--) {
			const char *str = cur_str(&d, &len);

			fprintf(fp, "# sibling dies    : %.*s\n", len, str);
		}
	}
	for (nr = cur_u32(&t); nr && !t.bad; nr--) {
		const char *str = cur_str(&t, &len);

		fprintf(fp, "# sibling threads : %.*s\n", len, str);
	}
	if (!ids) {
		fputs(nr_dies ? "# Core ID, Die ID and Socket ID information is not available\n" :
				"# Core ID and Socket ID information is not available\n",
		      fp);
		return;
	}
	for (i = 0; i < nr_cpus; i++) {
		s32 core, socket, die;

		memcpy(&core, ids + 8 * i, 4);
		memcpy(&socket, ids + 8 * i + 4, 4);
		if (nr_dies) {
			memcpy(&die, die_ids + 4 * i, 4);
			fprintf(fp, "# CPU %u: Core ID %d, Die ID %d, Socket ID %d\n", i, core, die,
				socket);
		} else {
			fprintf(fp, "# CPU %u: Core ID %d, Socket ID %d\n", i, core, socket);
		}
	}
}

/* a cpu list as perf's cpu_map__snprint() prints it: ascending ranges */
static void fprint_cpu_list(FILE *fp, const char *s, int len)
{
	char buf[4096];
	unsigned char *set;
	const char *sep = "";
	char *p, *end;
	long a, b, i, max = 0;

	if (len >= (int)sizeof(buf))
		len = sizeof(buf) - 1;
	memcpy(buf, s, len);
	buf[len] = 0;
	set = calloc(4096, 1);
	if (!set)
		return;
	for (p = buf; *p;) {
		a = b = strtol(p, &end, 10);
		if (end == p)
			break;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		for (i = a; i <= b && i >= 0 && i < 4096; i++)
			set[i] = 1, max = i > max ? i : max;
		p = *end == ',' ? end + 1 : end;
		if (*end && *end != ',')
			break;
	}
	for (i = 0; i <= max; i++) {
		if (!set[i])
			continue;
		for (a = i; i < max && set[i + 1]; i++)
			;
		if (a == i)
			fprintf(fp, "%s%ld", sep, a);
		else
			fprintf(fp, "%s%ld-%ld", sep, a, i);
		sep = ",";
	}
	fputc('\n', fp);
	free(set);
}

static void fprint_numa(const struct script_header *h, FILE *fp)
{
	struct feat_cursor c = feat_cursor(h, HEADER_NUMA_TOPOLOGY);
	int len;

	for (u32 nr = cur_u32(&c); nr && !c.bad; nr--) {
		u32 node = cur_u32(&c);
		u64 total = cur_u64(&c), free_kb = cur_u64(&c);
		const char *cpus = cur_str(&c, &len);

		if (c.bad)
			break;
		fprintf(fp, "# node%u meminfo  : total = %" PRIu64 " kB, free = %" PRIu64 " kB\n",
			node, total, free_kb);
		fprintf(fp, "# node%u cpu list : ", node);
		fprint_cpu_list(fp, cpus, len);
	}
}

static void fprint_cache(const struct script_header *h, FILE *fp)
{
	struct feat_cursor c = feat_cursor(h, HEADER_CACHE);
	u32 nr;
	int tlen, slen, mlen;

	fputs("# CPU cache info:\n", fp);
	cur_u32(&c); /* version */
	for (nr = cur_u32(&c); nr && !c.bad; nr--) {
		u32 level = cur_u32(&c);
		const char *type, *size, *map;

		cur_u32(&c); /* line size */
		cur_u32(&c); /* sets */
		cur_u32(&c); /* ways */
		type = cur_str(&c, &tlen);
		size = cur_str(&c, &slen);
		map = cur_str(&c, &mlen);
		if (c.bad)
			break;
		fprintf(fp, "#  L%d %-15.*s %8.*s [%.*s]\n", (int)level, tlen, type, slen, size,
			mlen, map);
	}
}

/* perf's unit_number__scnprintf(): divides while more than 2 units remain */
static void fprint_unit(FILE *fp, u64 n)
{
	const char *unit = "BKMG";
	int i = 0;

	while (n / 1024 > 1 && i < 3) {
		n /= 1024;
		i++;
	}
	fprintf(fp, "%" PRIu64 "%c", n, unit[i]);
}

static void fprint_mem_topology(const struct script_header *h, FILE *fp)
{
	struct feat_cursor c = feat_cursor(h, HEADER_MEM_TOPOLOGY);
	u64 bsize, nr;

	cur_u64(&c); /* version */
	bsize = cur_u64(&c);
	nr = cur_u64(&c);
	fprintf(fp, "# memory nodes (nr %d, block size 0x%llx):\n", (int)nr,
		(unsigned long long)bsize);
	for (; nr && !c.bad; nr--) {
		/* the node, its size, then the bitmap: its size in bits again, its words */
		u64 node = cur_u64(&c), size = cur_u64(&c), bits = cur_u64(&c);
		u64 words = (bits + 63) / 64, weight = 0;
		const u8 *map = c.p;
		const char *sep = "";

		(void)size;
		if (c.bad || (u64)(c.end - c.p) / 8 < words)
			break;
		c.p += 8 * words;
		for (u64 i = 0; i < bits; i++) {
			u64 w;

			memcpy(&w, map + 8 * (i / 64), 8);
			weight += (w >> (i % 64)) & 1;
		}
		fprintf(fp, "#  %3" PRIu64 " [", node);
		fprint_unit(fp, bsize * weight);
		fputs("]: ", fp);
		for (u64 i = 0; i < bits; i++) {
			u64 w, a;

			memcpy(&w, map + 8 * (i / 64), 8);
			if (!((w >> (i % 64)) & 1))
				continue;
			for (a = i; i + 1 < bits; i++) {
				memcpy(&w, map + 8 * ((i + 1) / 64), 8);
				if (!((w >> ((i + 1) % 64)) & 1))
					break;
			}
			if (a == i)
				fprintf(fp, "%s%" PRIu64, sep, a);
			else
				fprintf(fp, "%s%" PRIu64 "-%" PRIu64, sep, a, i);
			sep = ",";
		}
		fputc('\n', fp);
	}
}

static void fprint_hybrid(const struct script_header *h, FILE *fp)
{
	struct feat_cursor c = feat_cursor(h, HEADER_HYBRID_TOPOLOGY);
	int nlen, clen;

	fputs("# hybrid cpu system:\n", fp);
	for (u32 nr = cur_u32(&c); nr && !c.bad; nr--) {
		const char *pmu = cur_str(&c, &nlen), *cpus = cur_str(&c, &clen);

		if (c.bad)
			break;
		fprintf(fp, "# %.*s cpu list : %.*s\n", nlen, pmu, clen, cpus);
	}
}

/* whether HEADER_BPF_BTF holds the BTF of this id: then perf names sub-programs from it */
static bool has_btf(const struct script_header *h, u32 id)
{
	struct feat_cursor c = feat_cursor(h, HEADER_BPF_BTF);

	for (u32 nr = cur_u32(&c); nr && !c.bad; nr--) {
		u32 btf = cur_u32(&c), size = cur_u32(&c);

		if (c.bad || (u64)(c.end - c.p) < size)
			return false;
		if (btf == id)
			return true;
		c.p += size;
	}
	return false;
}

struct bpf_prog_line {
	u32 id;
	const u8 *data; /* the program's arrays, at the offsets its info gives */
	u32 data_len;
	struct bpf_prog_info info;
};

static int bpf_prog_line__cmp(const void *a, const void *b)
{
	const struct bpf_prog_line *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/* an array of @n elements of @size at @off of the program's data, or NULL */
static const u8 *bpf_array(const struct bpf_prog_line *l, u64 off, u32 n, u32 size)
{
	if (!n || off > l->data_len || n > (l->data_len - off) / size)
		return NULL;
	return l->data + off;
}

/*
 * perf's print_bpf_prog_info(): the programs by id, each named
 * bpf_prog_<tag>_<name> (sub-programs _F) as perf synthesizes the names
 * without BTF; one whose BTF the recording holds perf names from the
 * BTF's function names, which are not read here.
 */
static void fprint_bpf_progs(const struct script_header *h, FILE *fp)
{
	struct feat_cursor c = feat_cursor(h, HEADER_BPF_PROG_INFO);
	struct bpf_prog_line *lines;
	u32 nr = cur_u32(&c), n = 0;

	if (c.bad || !nr || nr > (u64)(c.end - c.p) / 16)
		return;
	lines = calloc(nr, sizeof(*lines));
	if (!lines)
		return;
	for (; n < nr; n++) {
		u32 info_len = cur_u32(&c), data_len = cur_u32(&c);

		cur_u64(&c);
		if (c.bad || (u64)(c.end - c.p) < (u64)info_len + data_len)
			break;
		memcpy(&lines[n].info, c.p,
		       info_len < sizeof(lines[n].info) ? info_len : sizeof(lines[n].info));
		lines[n].id = lines[n].info.id;
		lines[n].data = c.p + info_len;
		lines[n].data_len = data_len;
		c.p += info_len + data_len;
	}
	qsort(lines, n, sizeof(*lines), bpf_prog_line__cmp);
	for (u32 i = 0; i < n; i++) {
		const struct bpf_prog_line *l = &lines[i];
		u32 subs = l->info.nr_jited_ksyms;
		const u8 *tags = bpf_array(l, l->info.prog_tags, subs, BPF_TAG_SIZE);
		const u8 *addrs = bpf_array(l, l->info.jited_ksyms, subs, 8);
		const u8 *lens = bpf_array(l, l->info.jited_func_lens, subs, 4);

		if (subs != l->info.nr_prog_tags || subs != l->info.nr_jited_func_lens || !tags ||
		    !addrs || !lens)
			continue;
		if (l->info.btf_id && has_btf(h, l->info.btf_id)) {
			fprintf(fp,
				"# bpf_prog_info %u: names from BTF not shown by perf textpoke\n",
				l->id);
			continue;
		}
		if (subs > 1)
			fprintf(fp, "# bpf_prog_info %u:\n", l->id);
		for (u32 j = 0; j < subs; j++) {
			u64 addr;
			u32 len;

			memcpy(&addr, addrs + 8 * j, 8);
			memcpy(&len, lens + 4 * j, 4);
			if (subs > 1)
				fprintf(fp, "# \tsub_prog %u: bpf_prog_", j);
			else
				fprintf(fp, "# bpf_prog_info %u: bpf_prog_", l->id);
			for (int k = 0; k < BPF_TAG_SIZE; k++)
				fprintf(fp, "%02x", tags[j * BPF_TAG_SIZE + k]);
			if (subs > 1)
				fputs("_F", fp);
			else if (l->info.name[0])
				fprintf(fp, "_%.*s",
					(int)strnlen(l->info.name, sizeof(l->info.name)),
					l->info.name);
			fprintf(fp, " addr 0x%llx size %u\n", (unsigned long long)addr, len);
		}
	}
	free(lines);
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

	if (feature__full_only(feat) && h->full) {
		switch (feat) {
		case HEADER_CPU_TOPOLOGY:
			fprint_cpu_topology(h, session, fp);
			break;
		case HEADER_NUMA_TOPOLOGY:
			fprint_numa(h, fp);
			break;
		case HEADER_CACHE:
			fprint_cache(h, fp);
			break;
		case HEADER_MEM_TOPOLOGY:
			fprint_mem_topology(h, fp);
			break;
		default:
			fprint_hybrid(h, fp);
			break;
		}
		return;
	}
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
		fprint_bpf_progs(h, fp);
		break;
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
