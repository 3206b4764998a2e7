// SPDX-License-Identifier: GPL-2.0-only
/*
 * The perf.data header: file header, attrs with their id arrays, and the
 * feature sections, parsed into struct perf_env.  Every size read from the
 * file is checked against what is actually there before anything is
 * allocated from it, so a hostile header costs at most the file's size.
 */
#include <errno.h>
#include <inttypes.h>
#include <linux/bpf.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data.h"
#include "debug.h"
#include "evsel.h"
#include "header.h"
#include "session.h"
#include "swap.h"

#define PERF_MAGIC1 0x454c494646524550ULL /* "PERFFILE": the 2009 v1 format */

/* attrs larger than this are not attrs */
#define ATTR_SIZE_MAX 4096

static const char *const feat_names[HEADER_LAST_FEATURE] = {
    [HEADER_TRACING_DATA] = "trace_info",
    [HEADER_BUILD_ID] = "build_id",
    [HEADER_HOSTNAME] = "hostname",
    [HEADER_OSRELEASE] = "osrelease",
    [HEADER_VERSION] = "version",
    [HEADER_ARCH] = "arch",
    [HEADER_NRCPUS] = "nrcpus",
    [HEADER_CPUDESC] = "cpudesc",
    [HEADER_CPUID] = "cpuid",
    [HEADER_TOTAL_MEM] = "total_mem",
    [HEADER_CMDLINE] = "cmdline",
    [HEADER_EVENT_DESC] = "event_desc",
    [HEADER_CPU_TOPOLOGY] = "cpu_topology",
    [HEADER_NUMA_TOPOLOGY] = "numa_topology",
    [HEADER_BRANCH_STACK] = "branch_stack",
    [HEADER_PMU_MAPPINGS] = "pmu_mappings",
    [HEADER_GROUP_DESC] = "group_desc",
    [HEADER_AUXTRACE] = "auxtrace",
    [HEADER_STAT] = "stat",
    [HEADER_CACHE] = "cache",
    [HEADER_SAMPLE_TIME] = "sample_time",
    [HEADER_MEM_TOPOLOGY] = "mem_topology",
    [HEADER_CLOCKID] = "clockid",
    [HEADER_DIR_FORMAT] = "dir_format",
    [HEADER_BPF_PROG_INFO] = "bpf_prog_info",
    [HEADER_BPF_BTF] = "bpf_btf",
    [HEADER_COMPRESSED] = "compressed",
    [HEADER_CPU_PMU_CAPS] = "cpu_pmu_caps",
    [HEADER_CLOCK_DATA] = "clock_data",
    [HEADER_HYBRID_TOPOLOGY] = "hybrid_topology",
    [HEADER_PMU_CAPS] = "pmu_caps",
};

const char *perf_feature__name(int feat)
{
	if (feat == HEADER_TEXTPOKE_KCORE_DIR)
		return "TEXTPOKE_KCORE_DIR";
	if (feat < 0 || feat >= HEADER_LAST_FEATURE || !feat_names[feat])
		return "unknown";
	return feat_names[feat];
}

/* --- bounded reads of a feature payload -------------------------------- */

struct feat_reader {
	const u8 *buf;
	u64 size;
	u64 pos;
	bool swap;
};

static int fr_bytes(struct feat_reader *r, void *dst, u64 len)
{
	if (len > r->size - r->pos)
		return -EINVAL;
	memcpy(dst, r->buf + r->pos, len);
	r->pos += len;
	return 0;
}

static int fr_u32(struct feat_reader *r, u32 *v)
{
	if (fr_bytes(r, v, 4))
		return -EINVAL;
	*v = bswap32_if(*v, r->swap);
	return 0;
}

static int fr_u64(struct feat_reader *r, u64 *v)
{
	if (fr_bytes(r, v, 8))
		return -EINVAL;
	*v = bswap64_if(*v, r->swap);
	return 0;
}

/* u32 len (with the NUL and padding), then the bytes */
static int fr_string(struct feat_reader *r, char **s)
{
	u32 len;

	if (fr_u32(r, &len) || len > r->size - r->pos)
		return -EINVAL;
	*s = strndup((const char *)r->buf + r->pos, len);
	if (!*s)
		return -ENOMEM;
	r->pos += len;
	return 0;
}

static void bswap_u64_array(u64 *a, u64 n)
{
	while (n--) {
		*a = __builtin_bswap64(*a);
		a++;
	}
}

static void bswap_u32_array(u32 *a, u64 n)
{
	while (n--) {
		*a = __builtin_bswap32(*a);
		a++;
	}
}

/* --- features ---------------------------------------------------------- */

static int process_string(struct feat_reader *r, char **dst)
{
	char *s;
	int err = fr_string(r, &s);

	if (err)
		return err;
	free(*dst);
	*dst = s;
	return 0;
}

static int process_cmdline(struct feat_reader *r, struct perf_env *env)
{
	u32 n, i;
	char **argv;

	if (fr_u32(r, &n) || n > (r->size - r->pos) / 4)
		return -EINVAL;
	argv = calloc(n + 1, sizeof(char *));
	if (!argv)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		if (fr_string(r, &argv[i])) {
			while (i--)
				free(argv[i]);
			free(argv);
			return -EINVAL;
		}
	}
	for (i = 0; i < (u32)env->nr_cmdline; i++)
		free(env->cmdline_argv[i]);
	free(env->cmdline_argv);
	env->cmdline_argv = argv;
	env->nr_cmdline = n;
	return 0;
}

static void event_desc__free(struct perf_env *env)
{
	int i;

	for (i = 0; i < env->nr_event_desc; i++) {
		free(env->event_desc[i].name);
		free(env->event_desc[i].ids);
	}
	zfree(&env->event_desc);
	env->nr_event_desc = 0;
}

static int process_event_desc(struct feat_reader *r, struct perf_env *env)
{
	u32 nre, sz, i;
	struct event_desc_entry *d;

	if (fr_u32(r, &nre) || fr_u32(r, &sz))
		return -EINVAL;
	if (sz < PERF_ATTR_SIZE_VER0 || sz > ATTR_SIZE_MAX || nre > (r->size - r->pos) / (sz + 8))
		return -EINVAL;
	event_desc__free(env);
	d = calloc(nre ?: 1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	env->event_desc = d;
	for (i = 0; i < nre; i++) {
		u32 nr_ids;

		/* the attr itself is in the attrs section already */
		if (sz > r->size - r->pos)
			return -EINVAL;
		r->pos += sz;
		if (fr_u32(r, &nr_ids) || fr_string(r, &d[i].name)) {
			env->nr_event_desc = i + 1;
			return -EINVAL;
		}
		env->nr_event_desc = i + 1;
		if (nr_ids > (r->size - r->pos) / 8)
			return -EINVAL;
		if (nr_ids) {
			d[i].ids = malloc(nr_ids * 8ULL);
			if (!d[i].ids)
				return -ENOMEM;
			fr_bytes(r, d[i].ids, nr_ids * 8ULL);
			if (r->swap)
				bswap_u64_array(d[i].ids, nr_ids);
			d[i].nr_ids = nr_ids;
		}
	}
	return 0;
}

static void build_ids__free(struct perf_env *env)
{
	int i;

	for (i = 0; i < env->nr_build_ids; i++)
		free(env->build_ids[i].filename);
	zfree(&env->build_ids);
	env->nr_build_ids = 0;
}

/* {header, s32 pid, u8 build_id[20], u8 size, u8 pad[3], filename} */
#define BUILD_ID_FILENAME_OFF 36

static int process_build_id(struct feat_reader *r, struct perf_env *env)
{
	struct build_id_entry *e;
	u64 pos = r->pos;
	int n = 0, max = 0;

	while (r->size - pos >= BUILD_ID_FILENAME_OFF) {
		struct perf_event_header h;

		memcpy(&h, r->buf + pos, sizeof(h));
		h.size = bswap16_if(h.size, r->swap);
		if (h.size < BUILD_ID_FILENAME_OFF || h.size > r->size - pos)
			return -EINVAL;
		pos += h.size;
		max++;
	}
	build_ids__free(env);
	env->build_ids = calloc(max ?: 1, sizeof(*e));
	if (!env->build_ids)
		return -ENOMEM;
	while (n < max) {
		const u8 *p = r->buf + r->pos;
		struct perf_event_header h;
		s32 pid;

		e = &env->build_ids[n];
		memcpy(&h, p, sizeof(h));
		h.size = bswap16_if(h.size, r->swap);
		h.misc = bswap16_if(h.misc, r->swap);
		memcpy(&pid, p + 8, 4);
		e->pid = (s32)bswap32_if(pid, r->swap);
		e->misc = h.misc;
		memcpy(e->build_id, p + 12, 20);
		e->size = p[32];
		if (!e->size || e->size > 20)
			e->size = 20;
		e->filename = strndup((const char *)p + BUILD_ID_FILENAME_OFF,
				      h.size - BUILD_ID_FILENAME_OFF);
		if (!e->filename)
			return -ENOMEM;
		env->nr_build_ids = ++n;
		r->pos += h.size;
	}
	return 0;
}

static void bpf_progs__free(struct perf_env *env)
{
	int i;

	for (i = 0; i < env->nr_bpf_progs; i++) {
		free(env->bpf_progs[i].jited_ksyms);
		free(env->bpf_progs[i].jited_func_lens);
		free(env->bpf_progs[i].jited_prog_insns);
	}
	zfree(&env->bpf_progs);
	env->nr_bpf_progs = 0;
}

/* copies @n elements of @elem bytes at data offset @off, if they are there */
static void *bpf_array_dup(const u8 *data, u32 data_len, u64 off, u64 n, u32 elem)
{
	void *p;

	if (!n || off > data_len || n > (data_len - off) / elem)
		return NULL;
	p = malloc(n * elem);
	if (p)
		memcpy(p, data + off, n * elem);
	return p;
}

/*
 * Per program: u32 info_len, u32 data_len, u64 arrays, struct
 * bpf_prog_info (info_len bytes, pointers replaced by offsets into data),
 * data.  A shorter info is zero-extended; of a longer one (a newer
 * kernel's) we keep the part we know, where perf 6.1 drops the section.
 */
static int process_bpf_prog_info(struct feat_reader *r, struct perf_env *env)
{
	u32 count, i;

	if (fr_u32(r, &count) || count > (r->size - r->pos) / 16)
		return -EINVAL;
	bpf_progs__free(env);
	env->bpf_progs = calloc(count ?: 1, sizeof(*env->bpf_progs));
	if (!env->bpf_progs)
		return -ENOMEM;
	for (i = 0; i < count; i++) {
		struct bpf_prog_info_entry *e = &env->bpf_progs[i];
		struct bpf_prog_info info;
		u32 info_len, data_len;
		const u8 *data;
		u64 arrays;

		if (fr_u32(r, &info_len) || fr_u32(r, &data_len) || fr_u64(r, &arrays))
			return -EINVAL;
		if (info_len > r->size - r->pos)
			return -EINVAL;
		/* a newer kernel's longer struct: the fields we know come first */
		memset(&info, 0, sizeof(info));
		memcpy(&info, r->buf + r->pos, info_len < sizeof(info) ? info_len : sizeof(info));
		r->pos += info_len;
		if (data_len > r->size - r->pos)
			return -EINVAL;
		data = r->buf + r->pos;
		r->pos += data_len;
		env->nr_bpf_progs = i + 1;
		if (r->swap) {
			info.id = __builtin_bswap32(info.id);
			info.type = __builtin_bswap32(info.type);
			info.jited_prog_len = __builtin_bswap32(info.jited_prog_len);
			info.jited_prog_insns = __builtin_bswap64(info.jited_prog_insns);
			info.nr_jited_ksyms = __builtin_bswap32(info.nr_jited_ksyms);
			info.nr_jited_func_lens = __builtin_bswap32(info.nr_jited_func_lens);
			info.jited_ksyms = __builtin_bswap64(info.jited_ksyms);
			info.jited_func_lens = __builtin_bswap64(info.jited_func_lens);
		}
		e->id = info.id;
		e->type = info.type;
		memcpy(e->tag, info.tag, sizeof(e->tag));
		memcpy(e->name, info.name, sizeof(e->name));
		e->name[sizeof(e->name) - 1] = '\0';
		e->jited_ksyms =
		    bpf_array_dup(data, data_len, info.jited_ksyms, info.nr_jited_ksyms, 8);
		if (e->jited_ksyms) {
			e->nr_jited_ksyms = info.nr_jited_ksyms;
			if (r->swap)
				bswap_u64_array(e->jited_ksyms, e->nr_jited_ksyms);
		}
		if (e->jited_ksyms && info.nr_jited_func_lens == info.nr_jited_ksyms) {
			e->jited_func_lens = bpf_array_dup(data, data_len, info.jited_func_lens,
							   info.nr_jited_func_lens, 4);
			if (e->jited_func_lens && r->swap)
				bswap_u32_array(e->jited_func_lens, e->nr_jited_ksyms);
		}
		e->jited_prog_insns =
		    bpf_array_dup(data, data_len, info.jited_prog_insns, info.jited_prog_len, 1);
		if (e->jited_prog_insns)
			e->jited_prog_len = info.jited_prog_len;
	}
	return 0;
}

int perf_header__process_feature(struct perf_session *session, int feat, const void *buf, u64 size,
				 bool swap)
{
	struct feat_reader r = {.buf = buf, .size = size, .swap = swap};
	struct perf_env *env = &session->env;
	u32 a, b;
	int err = 0;

	if (feat > 0 && feat < HEADER_FEAT_BITS)
		session->feat_bitmap[feat / 64] |= 1ULL << (feat % 64);
	if (session->tool && session->tool->feature) {
		err = session->tool->feature(session->tool, feat, buf, size);
		if (err)
			return err;
	}

	switch (feat) {
	case HEADER_TRACING_DATA:
		free(env->tracing_data);
		env->tracing_data = malloc(size ?: 1);
		if (!env->tracing_data)
			return -ENOMEM;
		memcpy(env->tracing_data, buf, size);
		env->tracing_data_size = size;
		break;
	case HEADER_BUILD_ID:
		err = process_build_id(&r, env);
		break;
	case HEADER_HOSTNAME:
		err = process_string(&r, &env->hostname);
		break;
	case HEADER_OSRELEASE:
		err = process_string(&r, &env->os_release);
		break;
	case HEADER_VERSION:
		err = process_string(&r, &env->version);
		break;
	case HEADER_ARCH:
		err = process_string(&r, &env->arch);
		break;
	case HEADER_CPUDESC:
		err = process_string(&r, &env->cpu_desc);
		break;
	case HEADER_CPUID:
		err = process_string(&r, &env->cpuid);
		break;
	case HEADER_NRCPUS:
		err = fr_u32(&r, &a) ?: fr_u32(&r, &b);
		if (!err) {
			env->nr_cpus_avail = a;
			env->nr_cpus_online = b;
		}
		break;
	case HEADER_TOTAL_MEM:
		err = fr_u64(&r, &env->total_mem);
		break;
	case HEADER_CMDLINE:
		err = process_cmdline(&r, env);
		break;
	case HEADER_EVENT_DESC:
		err = process_event_desc(&r, env);
		break;
	case HEADER_SAMPLE_TIME:
		err = fr_u64(&r, &env->first_sample_time) ?: fr_u64(&r, &env->last_sample_time);
		break;
	case HEADER_CLOCKID:
		err = fr_u64(&r, &env->clockid);
		env->has_clockid = !err;
		break;
	case HEADER_DIR_FORMAT:
		err = fr_u64(&r, &env->dir_format_version);
		break;
	case HEADER_COMPRESSED:
		err = fr_u32(&r, &env->comp.version)   ?:
			  fr_u32(&r, &env->comp.type)  ?:
			  fr_u32(&r, &env->comp.level) ?:
			  fr_u32(&r, &env->comp.ratio) ?:
							 fr_u32(&r, &env->comp.mmap_len);
		break;
	case HEADER_BPF_PROG_INFO:
		err = process_bpf_prog_info(&r, env);
		break;
	case HEADER_TEXTPOKE_KCORE_DIR:
		err =
		    session->data ? perf_data__unpack_kcore_dir(session->data, buf, size, swap) : 0;
		if (err && err != -EINVAL)
			pr_warning(
			    "%s: cannot unpack its kcore_dir (kernel symbols, modules): %s\n",
			    session->path, strerror(-err));
		if (err != -EINVAL)
			err = 0;
		break;
	default:
		/* known but not needed here, or newer than us: skip */
		break;
	}
	if (err == -EINVAL) {
		/* like perf: a bad optional section costs that section only */
		pr_warning("%s: feature %s (%d) is malformed, ignored\n", session->path,
			   perf_feature__name(feat), feat);
		err = 0;
	}
	return err;
}

void perf_header__apply_event_desc(struct perf_session *session)
{
	struct perf_env *env = &session->env;
	struct evlist *evlist = session->evlist;
	int i;

	for (i = 0; i < env->nr_event_desc; i++) {
		struct event_desc_entry *d = &env->event_desc[i];
		struct evsel *evsel = NULL;

		if (!d->name || !*d->name)
			continue;
		if (d->nr_ids)
			evsel = evlist__id2evsel(evlist, d->ids[0]);
		if (!evsel && env->nr_event_desc == evlist->nr_entries)
			evsel = evlist->entries[i];
		if (evsel)
			evsel__set_name(evsel, d->name);
	}
}

void perf_env__exit(struct perf_env *env)
{
	int i;

	zfree(&env->hostname);
	zfree(&env->os_release);
	zfree(&env->version);
	zfree(&env->arch);
	zfree(&env->cpu_desc);
	zfree(&env->cpuid);
	for (i = 0; i < env->nr_cmdline; i++)
		free(env->cmdline_argv[i]);
	zfree(&env->cmdline_argv);
	env->nr_cmdline = 0;
	build_ids__free(env);
	bpf_progs__free(env);
	event_desc__free(env);
	zfree(&env->tracing_data);
	env->tracing_data_size = 0;
}

/* --- file mode --------------------------------------------------------- */

static void file_header__swap(struct perf_file_header *h)
{
	bswap_u64_array(&h->size, (sizeof(*h) - 8) / 8);
}

static bool section_ok(const struct perf_file_section *s, u64 file_size)
{
	return s->offset <= file_size && s->size <= file_size - s->offset;
}

static int perf_header__read_attrs(struct perf_session *session)
{
	struct perf_file_header *h = &session->file_header;
	struct perf_data *data = session->data;
	u64 nr, i, disk_attr = h->attr_size - sizeof(struct perf_file_section);
	u8 *buf;
	int err = 0;

	nr = h->attrs.size / h->attr_size;
	buf = malloc(h->attr_size);
	if (!buf)
		return -ENOMEM;
	for (i = 0; i < nr; i++) {
		u64 off = h->attrs.offset + i * h->attr_size;
		struct perf_file_section ids;
		struct perf_event_attr attr;
		u32 size;
		u64 *idv = NULL, nr_ids;

		err = perf_data__pread(data, buf, h->attr_size, off);
		if (err) {
			pr_err("%s: attr %" PRIu64 " at %#" PRIx64 " is past the end of the file\n",
			       session->path, i, off);
			break;
		}
		if (session->needs_swap)
			perf_event_attr__swap(buf, disk_attr);
		memset(&attr, 0, sizeof(attr));
		memcpy(&attr, buf, disk_attr < sizeof(attr) ? disk_attr : sizeof(attr));
		memcpy(&ids, buf + disk_attr, sizeof(ids));
		if (session->needs_swap) {
			ids.offset = __builtin_bswap64(ids.offset);
			ids.size = __builtin_bswap64(ids.size);
		}
		size = attr.size ?: PERF_ATTR_SIZE_VER0;
		if (size < PERF_ATTR_SIZE_VER0 || size > disk_attr) {
			pr_err("%s: attr %" PRIu64 " at %#" PRIx64
			       ": attr.size %u does not fit the %" PRIu64
			       " bytes of an attr in this file (corrupt header?)\n",
			       session->path, i, off, size, disk_attr);
			err = -EINVAL;
			break;
		}
		if (!section_ok(&ids, data->size)) {
			pr_err("%s: attr %" PRIu64 " at %#" PRIx64 ": id array [%#" PRIx64
			       ", +%#" PRIx64 ") is past the end of the file\n",
			       session->path, i, off, ids.offset, ids.size);
			err = -EINVAL;
			break;
		}
		nr_ids = ids.size / 8;
		if (nr_ids) {
			idv = malloc(nr_ids * 8);
			if (!idv) {
				err = -ENOMEM;
				break;
			}
			err = perf_data__pread(data, idv, nr_ids * 8, ids.offset);
			if (err) {
				free(idv);
				break;
			}
			if (session->needs_swap)
				bswap_u64_array(idv, nr_ids);
		}
		if (!evlist__add(session->evlist, &attr, size, idv, nr_ids))
			err = -ENOMEM;
		free(idv);
		if (err)
			break;
	}
	free(buf);
	return err;
}

struct feat_section {
	int feat;
	u64 at; /* where its table entry is */
	struct perf_file_section sec;
};

static int feat_section__cmp(const void *a, const void *b)
{
	const struct feat_section *x = a, *y = b;

	if (x->sec.offset != y->sec.offset)
		return x->sec.offset < y->sec.offset ? -1 : 1;
	return x->feat - y->feat;
}

/*
 * perf writes the feature sections after their table, one after the
 * other (with gaps where a feature it announced wrote nothing), so a
 * section that starts inside the header, attrs or data, or that shares
 * bytes with another, has a damaged offset or size in the table: its
 * bytes are another part's.  Said, as the parsers may not notice (a
 * feature this reader skips unread, a string read from two bytes on).
 */
static void perf_header__check_sections(struct perf_session *session, struct feat_section *fs,
					int nr, u64 table_end)
{
	struct feat_section *sorted = malloc((nr ?: 1) * sizeof(*sorted));
	int i;

	for (i = 0; i < nr; i++) {
		if (fs[i].sec.size && fs[i].sec.offset < table_end)
			pr_warning("%s: feature %s section [%#" PRIx64 ", +%#" PRIx64
				   ") in the table at %#" PRIx64
				   " starts before the table's end at %#" PRIx64
				   " (corrupt header?), ignored\n",
				   session->path, perf_feature__name(fs[i].feat), fs[i].sec.offset,
				   fs[i].sec.size, fs[i].at, table_end);
	}
	if (!sorted)
		return;
	memcpy(sorted, fs, nr * sizeof(*sorted));
	qsort(sorted, nr, sizeof(*sorted), feat_section__cmp);
	for (i = 0; i + 1 < nr; i++) {
		const struct feat_section *a = &sorted[i], *b = &sorted[i + 1];

		if (!a->sec.size || !b->sec.size || a->sec.offset + a->sec.size <= b->sec.offset)
			continue;
		pr_warning("%s: feature %s section [%#" PRIx64 ", +%#" PRIx64
			   ") overlaps feature %s [%#" PRIx64 ", +%#" PRIx64
			   ") (corrupt feature table at %#" PRIx64 "?)\n",
			   session->path, perf_feature__name(a->feat), a->sec.offset, a->sec.size,
			   perf_feature__name(b->feat), b->sec.offset, b->sec.size,
			   a->at < b->at ? a->at : b->at);
	}
	free(sorted);
}

static int perf_header__read_features(struct perf_session *session)
{
	struct perf_file_header *h = &session->file_header;
	struct perf_data *data = session->data;
	u64 table = session->data_offset + session->data_size;
	struct feat_section fs[HEADER_FEAT_BITS];
	int feat, nr = 0, i, err;

	for (feat = 1; feat < HEADER_FEAT_BITS; feat++) {
		struct feat_section *f = &fs[nr];

		if (!(h->adds_features[feat / 64] & (1ULL << (feat % 64))))
			continue;
		f->feat = feat;
		f->at = table + nr * sizeof(f->sec);
		if (perf_data__pread(data, &f->sec, sizeof(f->sec), f->at)) {
			pr_err("%s: the feature table at %#" PRIx64
			       " is cut off by the end of the file (truncated file?)\n",
			       session->path, table);
			return -EINVAL;
		}
		nr++;
		if (session->needs_swap) {
			f->sec.offset = __builtin_bswap64(f->sec.offset);
			f->sec.size = __builtin_bswap64(f->sec.size);
		}
		if (!section_ok(&f->sec, data->size)) {
			pr_err("%s: feature %s section [%#" PRIx64 ", +%#" PRIx64
			       ") in the table at %#" PRIx64
			       " is past the end of the file (%#" PRIx64
			       " bytes; truncated file?)\n",
			       session->path, perf_feature__name(feat), f->sec.offset, f->sec.size,
			       f->at, data->size);
			return -EINVAL;
		}
	}
	perf_header__check_sections(session, fs, nr, table + nr * sizeof(fs[0].sec));
	for (i = 0; i < nr; i++) {
		const struct perf_file_section *sec = &fs[i].sec;
		void *buf;

		/* the header's or the data's bytes: no feature's */
		if (sec->size && sec->offset < table + nr * sizeof(*sec))
			continue;
		buf = malloc(sec->size ?: 1);
		if (!buf)
			return -ENOMEM;
		err = perf_data__pread(data, buf, sec->size, sec->offset);
		if (!err)
			err = perf_header__process_feature(session, fs[i].feat, buf, sec->size,
							   session->needs_swap);
		if (fs[i].feat == HEADER_TRACING_DATA)
			session->env.tracing_data_offset = sec->offset;
		free(buf);
		if (err)
			return err;
	}
	return 0;
}

int perf_header__read(struct perf_session *session)
{
	struct perf_file_header *h = &session->file_header;
	struct perf_data *data = session->data;
	u64 min_size = offsetof(struct perf_file_header, adds_features);
	u64 magic, dend;
	int err;

	memset(h, 0, sizeof(*h));
	if (perf_data__pread(data, &magic, 8, 0)) {
		pr_err("%s: the perf.data header at 0x0 is cut off at %#" PRIx64
		       " (file too short)\n",
		       session->path, data->size);
		return -EINVAL;
	}
	if (magic == PERF_MAGIC1 || magic == __builtin_bswap64(PERF_MAGIC1)) {
		pr_err(
		    "%s: legacy v1 'PERFFILE' format is not supported (re-record with a perf newer than 2010)\n",
		    session->path);
		return -EINVAL;
	}
	if (magic == __builtin_bswap64(PERF_MAGIC2)) {
		session->needs_swap = true;
	} else if (magic != PERF_MAGIC2) {
		pr_err("%s: not a perf.data file (bad magic %#" PRIx64 " at 0)\n", session->path,
		       magic);
		return -EINVAL;
	}
	if (data->size < min_size || perf_data__pread(data, h, min_size, 0)) {
		pr_err("%s: the perf.data header at 0x0 is cut off at %#" PRIx64
		       " (truncated file?)\n",
		       session->path, data->size);
		return -EINVAL;
	}
	memcpy(&magic, (u8 *)h + 8, 8);
	if (session->needs_swap)
		magic = __builtin_bswap64(magic);
	/* the feature bitmap, if the header is long enough to hold it */
	if (magic >= sizeof(*h) && data->size >= sizeof(*h))
		perf_data__pread(data, h, sizeof(*h), 0);
	if (session->needs_swap)
		file_header__swap(h);
	h->magic = PERF_MAGIC2;
	/* 104, or 72 for the first PERFILE2 files, which had no feature bitmap */
	if ((h->size != sizeof(*h) && h->size != min_size) || h->size > data->size) {
		pr_err("%s: header size %" PRIu64 " at 0x8 is invalid (corrupt header?)\n",
		       session->path, h->size);
		return -EINVAL;
	}
	if (h->size == min_size)
		memset(h->adds_features, 0, sizeof(h->adds_features));
	if (h->attr_size < PERF_ATTR_SIZE_VER0 + sizeof(struct perf_file_section) ||
	    h->attr_size > ATTR_SIZE_MAX) {
		pr_err("%s: attr_size %" PRIu64 " at 0x10 is invalid (corrupt header?)\n",
		       session->path, h->attr_size);
		return -EINVAL;
	}
	if (h->attrs.size % h->attr_size) {
		pr_err("%s: attrs section size %#" PRIx64
		       " at 0x20 is not a multiple of attr_size %" PRIu64 " (corrupt header?)\n",
		       session->path, h->attrs.size, h->attr_size);
		return -EINVAL;
	}
	if (!section_ok(&h->attrs, data->size)) {
		pr_err("%s: attrs section [%#" PRIx64 ", +%#" PRIx64
		       ") at 0x18 is past the end of the file\n",
		       session->path, h->attrs.offset, h->attrs.size);
		return -EINVAL;
	}
	if (h->data.offset > data->size) {
		pr_err("%s: data section offset %#" PRIx64
		       " at 0x28 is past the end of the file (%#" PRIx64 ")\n",
		       session->path, h->data.offset, data->size);
		return -EINVAL;
	}
	/* perf's layout: header, id arrays, attrs, data, features */
	dend = h->data.size && h->data.size <= data->size - h->data.offset ?
		   h->data.offset + h->data.size :
		   data->size;
	if (h->attrs.size &&
	    (h->attrs.offset < h->size ||
	     (h->attrs.offset < dend && h->attrs.offset + h->attrs.size > h->data.offset))) {
		pr_err("%s: attrs section [%#" PRIx64 ", +%#" PRIx64
		       ") at 0x18 overlaps the header or the data section at %#" PRIx64
		       " (corrupt header?)\n",
		       session->path, h->attrs.offset, h->attrs.size, h->data.offset);
		return -EINVAL;
	}
	session->data_offset = h->data.offset;
	session->data_size = h->data.size;
	if (!h->data.size) {
		pr_warning(
		    "%s: the data size is 0: the file was not properly terminated (perf record killed?), reading to the end of the file\n",
		    session->path);
		session->data_size = data->size - h->data.offset;
	}
	err = perf_header__read_attrs(session);
	if (err)
		return err;
	if (h->data.size && h->data.size <= data->size - h->data.offset) {
		err = perf_header__read_features(session);
		if (err)
			return err;
	} else if (h->data.size) {
		pr_warning(
		    "%s: the data section ends past the end of the file (truncated?), features ignored\n",
		    session->path);
	}
	perf_header__apply_event_desc(session);
	return evlist__check_consistency(session->evlist);
}
