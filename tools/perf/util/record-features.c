// SPDX-License-Identifier: GPL-2.0-only
#include <cpuid.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "build-id.h"
#include "debug.h"
#include "event.h"
#include "header.h"
#include "record-events.h"
#include "record-features.h"
#include "record.h"
#include "trace-data.h"
#include "writer.h"

void record_hits__init(struct record_hits *h)
{
	memset(h, 0, sizeof(*h));
}

void record_hits__exit(struct record_hits *h)
{
	for (size_t i = 0; i < h->nr_maps; i++)
		free(h->maps[i].filename);
	zfree(&h->maps);
	zfree(&h->pages);
	zfree(&h->kernel_ips.keys);
	h->kernel_ips.nr = h->kernel_ips.alloc = 0;
	h->nr_maps = h->alloc_maps = 0;
	h->nr_pages = h->alloc_pages = 0;
	memset(h->recent_ips, 0, sizeof(h->recent_ips));
	memset(h->recent_pages, 0, sizeof(h->recent_pages));
}

static int cmp_u64(const void *a, const void *b);

static u64 page_key(u64 ip)
{
	return (ip & ~0xfffULL) | 1;
}

static u32 page_hash(u64 key, u32 mask)
{
	return (u32)((key * 0x9e3779b97f4a7c15ULL) >> 40) & mask;
}

static int hits__grow(struct record_hits *h)
{
	u32 alloc = h->alloc_pages ? h->alloc_pages * 2 : 4096;
	u64 *pages = calloc(alloc, sizeof(u64));

	if (!pages)
		return -ENOMEM;
	for (u32 i = 0; i < h->alloc_pages; i++) {
		u64 key = h->pages[i];
		u32 j;

		if (!key)
			continue;
		for (j = page_hash(key, alloc - 1); pages[j]; j = (j + 1) & (alloc - 1))
			;
		pages[j] = key;
	}
	free(h->pages);
	h->pages = pages;
	h->alloc_pages = alloc;
	return 0;
}

static int set__grow(struct record_set *set)
{
	u32 alloc = set->alloc ? set->alloc * 2 : 4096;
	u64 *keys = calloc(alloc, sizeof(u64));

	if (!keys)
		return -ENOMEM;
	for (u32 i = 0; i < set->alloc; i++) {
		u32 j;

		if (!set->keys[i])
			continue;
		for (j = page_hash(set->keys[i], alloc - 1); keys[j]; j = (j + 1) & (alloc - 1))
			;
		keys[j] = set->keys[i];
	}
	free(set->keys);
	set->keys = keys;
	set->alloc = alloc;
	return 0;
}

/* true when @key is in @set once back */
static bool set__add(struct record_set *set, u64 key)
{
	u32 j;

	if (!key || set->full)
		return false;
	if (set->alloc) {
		for (j = page_hash(key, set->alloc - 1); set->keys[j];
		     j = (j + 1) & (set->alloc - 1)) {
			if (set->keys[j] == key)
				return true;
		}
	}
	/* a lost key would lose a symbol: past the cap, the set says it is incomplete */
	if (set->nr >= RECORD_HITS_MAX || ((set->nr + 1) * 2 > set->alloc && set__grow(set))) {
		set->full = true;
		return false;
	}
	for (j = page_hash(key, set->alloc - 1); set->keys[j]; j = (j + 1) & (set->alloc - 1))
		;
	set->keys[j] = key;
	set->nr++;
	return true;
}

void record_hits__kernel_ip(struct record_hits *h, u64 ip)
{
	set__add(&h->kernel_ips, ip);
}

u64 *record_hits__kernel_ips(struct record_hits *h, size_t *nr)
{
	struct record_set *set = &h->kernel_ips;
	u64 *out;
	size_t n = 0;

	*nr = 0;
	if (set->full)
		return NULL;
	out = malloc((set->nr ? set->nr : 1) * sizeof(u64));
	if (!out)
		return NULL;
	for (u32 i = 0; i < set->alloc; i++) {
		if (set->keys[i])
			out[n++] = set->keys[i];
	}
	qsort(out, n, sizeof(u64), cmp_u64);
	*nr = n;
	return out;
}

/* where @key may sit among the recent ones */
static u32 recent_slot(u64 key)
{
	return (u32)((key * 0x9e3779b97f4a7c15ULL) >> 56) & (RECORD_HITS_RECENT - 1);
}

void record_hits__sample(struct record_hits *h, u8 cpumode, u32 pid __maybe_unused, u64 ip)
{
	u64 key;
	u32 j, r;

	/*
	 * Most samples repeat a recent ip or page (an idle loop, a hot
	 * function): answered from a few cache lines, rather than from a
	 * probe into tables of tens of thousands
	 */
	if (cpumode == PERF_RECORD_MISC_KERNEL) {
		r = recent_slot(ip);
		if (ip && h->recent_ips[r] == ip)
			return;
		if (set__add(&h->kernel_ips, ip))
			h->recent_ips[r] = ip;
		return;
	}
	if (cpumode != PERF_RECORD_MISC_USER)
		return;
	key = page_key(ip);
	r = recent_slot(key);
	if (h->recent_pages[r] == key)
		return;
	if (h->alloc_pages) {
		for (j = page_hash(key, h->alloc_pages - 1); h->pages[j];
		     j = (j + 1) & (h->alloc_pages - 1)) {
			if (h->pages[j] == key) {
				h->recent_pages[r] = key;
				return;
			}
		}
	}
	if (h->nr_pages >= RECORD_HITS_MAX)
		return;
	/* keep the table at most half full */
	if ((h->nr_pages + 1) * 2 > h->alloc_pages && hits__grow(h))
		return;
	for (j = page_hash(key, h->alloc_pages - 1); h->pages[j];
	     j = (j + 1) & (h->alloc_pages - 1))
		;
	h->pages[j] = key;
	h->nr_pages++;
	h->recent_pages[r] = key;
}

void record_hits__mmap(struct record_hits *h, const struct perf_record_mmap2 *m,
		       const char *filename)
{
	struct record_map *map;

	/*
	 * Anonymous, [heap]...: no object to take a build-id from.  The vdso
	 * of a 64-bit task (mapped above 4 GiB) is this process's, whose
	 * build-id perf record writes too; a 32-bit task's is the compat
	 * image, which perf names "[vdso32]" (an x32 task's, below 4 GiB as
	 * well, would be taken for it: perf's readers tell them apart by the
	 * task's objects, which this table does not know).
	 */
	if (!(m->prot & 4 /* PROT_EXEC */) ||
	    (m->header.misc & PERF_RECORD_MISC_CPUMODE_MASK) != PERF_RECORD_MISC_USER)
		return;
	if (filename[0] != '/' && strcmp(filename, "[vdso]"))
		return;
	if (filename[0] != '/' && m->start < (1ULL << 32))
		filename = "[vdso32]";
	if (h->nr_maps == h->alloc_maps) {
		size_t n = h->alloc_maps ? h->alloc_maps * 2 : 256;
		struct record_map *tmp = realloc(h->maps, n * sizeof(*tmp));

		if (!tmp)
			return;
		h->maps = tmp;
		h->alloc_maps = n;
	}
	map = &h->maps[h->nr_maps];
	map->start = m->start;
	map->end = m->start + m->len;
	map->filename = strdup(filename);
	if (map->filename)
		h->nr_maps++;
}

void record_hits__synth_mmap(void *arg, const struct perf_record_mmap2 *m, const char *filename)
{
	record_hits__mmap(arg, m, filename);
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* does any hit page start in [start, end)?  @pages sorted */
static bool pages__any_in(const u64 *pages, u32 n, u64 start, u64 end)
{
	u32 lo = 0, hi = n;

	start &= ~0xfffULL;
	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if ((pages[mid] & ~1ULL) < start)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && (pages[lo] & ~1ULL) < end;
}

static void record_features__build_ids(struct perf_writer *w, struct record_hits *h)
{
	struct build_id bid;
	char **names;
	size_t nr = 0;
	int err;

	/*
	 * The kernel's always, hit or not: it is how a reader finds the
	 * vmlinux (by build-id) to use as the starting image of kernel text.
	 */
	if (!kernel__read_running_build_id(&bid))
		perf_writer__add_build_id(w, PERF_RECORD_MISC_KERNEL, -1, bid.data, bid.size,
					  "[kernel.kallsyms]");
	if (!h->nr_maps || !h->nr_pages)
		return;
	/* the hash table, compacted and sorted */
	for (u32 i = 0, j = 0; i < h->alloc_pages; i++) {
		if (h->pages[i])
			h->pages[j++] = h->pages[i];
	}
	qsort(h->pages, h->nr_pages, sizeof(u64), cmp_u64);
	names = calloc(h->nr_maps, sizeof(*names));
	if (!names)
		return;
	/*
	 * The vdso hit or not, as perf record writes it: a reader of a
	 * recording whose table lacks it gets the image elsewhere, stock
	 * perf by running perf-read-vdso32 for a 32-bit task's, which
	 * fails (with a warning) on a machine that runs no 32-bit program.
	 */
	for (size_t i = 0; i < h->nr_maps; i++) {
		if (h->maps[i].filename[0] != '/' ||
		    pages__any_in(h->pages, h->nr_pages, h->maps[i].start, h->maps[i].end))
			names[nr++] = h->maps[i].filename;
	}
	qsort(names, nr, sizeof(*names), cmp_str);
	for (size_t i = 0; i < nr; i++) {
		if (i && !strcmp(names[i], names[i - 1]))
			continue;
		if (!strcmp(names[i], "[vdso]"))
			err = vdso__read_own_build_id(&bid);
		else if (!strcmp(names[i], "[vdso32]"))
			err = vdso__read_compat_build_id(&bid);
		else
			err = filename__read_build_id(names[i], &bid);
		if (err)
			continue;
		if (!bid.size)
			continue;
		/* pid -1: the host, as perf writes it */
		perf_writer__add_build_id(w, PERF_RECORD_MISC_USER, -1, bid.data, bid.size,
					  names[i]);
	}
	free(names);
	/* the table is no longer a hash table */
	zfree(&h->pages);
	h->nr_pages = h->alloc_pages = 0;
	/* the next file's pages (--switch-output) are counted anew */
	memset(h->recent_pages, 0, sizeof(h->recent_pages));
}

void record_features__write_end(struct perf_writer *w, struct record_hits *h, u64 first, u64 last,
				bool build_ids)
{
	/* -B: no HEADER_BUILD_ID at all, as perf record -B */
	if (build_ids)
		record_features__build_ids(w, h);
	if (last)
		perf_writer__set_sample_time(w, first, last);
}

/*
 * perf's layout: the number of groups, then per group a name (u32 length
 * padded to 64 bytes, NUL padded), the leader's index and the member
 * count.  An unnamed group is "{anon_group}" in perf's writing, which its
 * reader turns back into no name.
 */
int record_features__group_desc(struct perf_writer *w, const struct record_group *groups, int nr)
{
	static const char anon[] = "{anon_group}";
	const u32 name_len = 64;
	size_t each = 4 + name_len + 8, size = 4 + nr * each;
	u8 *buf, *p;
	u32 v;
	int err;

	if (nr <= 0 || nr > 1 << 16)
		return -EINVAL;
	buf = calloc(1, size);
	if (!buf)
		return -ENOMEM;
	v = nr;
	memcpy(buf, &v, 4);
	p = buf + 4;
	for (int i = 0; i < nr; i++, p += each) {
		memcpy(p, &name_len, 4);
		memcpy(p + 4, anon, sizeof(anon));
		memcpy(p + 4 + name_len, &groups[i].leader_idx, 4);
		memcpy(p + 8 + name_len, &groups[i].nr_members, 4);
	}
	err = perf_writer__set_feature(w, HEADER_GROUP_DESC, buf, size);
	free(buf);
	return err;
}

/* "model name : AMD EPYC" -> "AMD EPYC", runs of blanks squeezed as perf does */
static int cpuinfo__field(const char *field, char *out, size_t size)
{
	char line[512];
	size_t flen = strlen(field);
	FILE *f = fopen("/proc/cpuinfo", "r");
	int err = -ENOENT;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char *p, *q;

		if (strncmp(line, field, flen))
			continue;
		p = strchr(line, ':');
		if (!p)
			continue;
		p++;
		while (*p == ' ' || *p == '\t')
			p++;
		for (q = out; *p && *p != '\n' && q < out + size - 1; p++) {
			if (isspace((unsigned char)*p) && q > out && q[-1] == ' ')
				continue;
			*q++ = isspace((unsigned char)*p) ? ' ' : *p;
		}
		*q = '\0';
		err = 0;
		break;
	}
	fclose(f);
	return err;
}

/* perf's x86 cpuid string: vendor,family,model,stepping */
static void cpuid__string(char *buf, size_t size)
{
	unsigned int a, b, c, d, family, model, stepping;
	char vendor[13];

	if (!__get_cpuid(0, &a, &b, &c, &d)) {
		snprintf(buf, size, "unknown");
		return;
	}
	memcpy(vendor, &b, 4);
	memcpy(vendor + 4, &d, 4);
	memcpy(vendor + 8, &c, 4);
	vendor[12] = '\0';
	__get_cpuid(1, &a, &b, &c, &d);
	family = (a >> 8) & 0xf;
	model = (a >> 4) & 0xf;
	stepping = a & 0xf;
	if (family == 0xf)
		family += (a >> 20) & 0xff;
	if (family >= 0x6)
		model += ((a >> 16) & 0xf) << 4;
	snprintf(buf, size, "%s,%u,%u,%u", vendor, family, model, stepping);
}

static u64 meminfo__total_kb(void)
{
	char line[256];
	unsigned long long kb = 0;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "MemTotal: %llu kB", &kb) == 1)
			break;
	}
	fclose(f);
	return kb;
}

/* as perf: the full path of the program, then the arguments of the command */
static int record_features__cmdline(struct perf_writer *w, const struct record_opts *opts)
{
	const char **argv = calloc(opts->cmdline_argc + 2, sizeof(*argv));
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	int argc = 0, err;

	if (!argv)
		return -ENOMEM;
	exe[n > 0 ? n : 0] = '\0';
	argv[argc++] = n > 0 ? exe : "perf-textpoke";
	for (int i = 0; i < opts->cmdline_argc; i++)
		argv[argc++] = opts->cmdline_argv[i];
	err = perf_writer__set_cmdline(w, argc, argv);
	free(argv);
	return err;
}

/*
 * -k: HEADER_CLOCKID (the clock's resolution in ns) and HEADER_CLOCK_DATA
 * (version 1, the clock id, the wall clock and the clock read back to
 * back), which perf script -F tod converts sample times with
 */
static int record_features__clock(struct perf_writer *w, int clockid)
{
	struct timespec res, tod, clk;
	u8 data[24];
	u32 version = 1, id = clockid;
	u64 tod_ns, clk_ns, res_ns;
	int err;

	if (clock_getres(clockid, &res) || clock_gettime(CLOCK_REALTIME, &tod) ||
	    clock_gettime(clockid, &clk)) {
		err = -errno;
		pr_err("-k: clock %d cannot be read: %s\n", clockid, strerror(errno));
		return err;
	}
	res_ns = res.tv_sec * 1000000000ULL + res.tv_nsec;
	tod_ns = tod.tv_sec * 1000000000ULL + tod.tv_nsec;
	clk_ns = clk.tv_sec * 1000000000ULL + clk.tv_nsec;
	memcpy(data, &version, 4);
	memcpy(data + 4, &id, 4);
	memcpy(data + 8, &tod_ns, 8);
	memcpy(data + 16, &clk_ns, 8);
	err = perf_writer__set_clockid(w, res_ns);
	return err ?: perf_writer__set_feature(w, HEADER_CLOCK_DATA, data, sizeof(data));
}

int record_features__write_start(struct perf_writer *w, const struct record_opts *opts,
				 const struct record_event *const *tracepoints, int nr_tracepoints)
{
	struct utsname u;
	char buf[512];
	int err = 0;

	if (!uname(&u)) {
		err = perf_writer__set_hostname(w, u.nodename);
		err = err ?: perf_writer__set_osrelease(w, u.release);
		err = err ?: perf_writer__set_arch(w, u.machine);
	}
	err = err ?: perf_writer__set_version(w, TEXTPOKE_VERSION);
	err = err ?:
		    perf_writer__set_nrcpus(w, sysconf(_SC_NPROCESSORS_CONF),
					    sysconf(_SC_NPROCESSORS_ONLN));
	if (!err && !cpuinfo__field("model name", buf, sizeof(buf)))
		err = perf_writer__set_cpudesc(w, buf);
	if (!err) {
		cpuid__string(buf, sizeof(buf));
		err = perf_writer__set_cpuid(w, buf);
	}
	err = err ?: perf_writer__set_total_mem(w, meminfo__total_kb());
	if (!err && opts->use_clockid)
		err = record_features__clock(w, opts->clockid);
	if (!err && opts->cmdline_argc)
		err = record_features__cmdline(w, opts);
	if (!err && nr_tracepoints) {
		void *data;
		size_t size;

		err = trace_data__build(tracepoints, nr_tracepoints, &data, &size);
		if (!err) {
			err = perf_writer__set_tracing_data(w, data, size);
			free(data);
		}
	}
	return err;
}
