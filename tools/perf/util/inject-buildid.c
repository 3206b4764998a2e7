// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf textpoke inject -b / --buildid-all: the build-id table of the
 * objects the samples hit (or the MMAPs map), inject-buildid.h says
 * which.  Each object is looked at once: the samples find it by its dso
 * (dso->hit), the MMAPs by its name, so that a library every process
 * maps is read once and a sample costs a map lookup.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "build-id.h"
#include "dso.h"
#include "header.h"
#include "inject-buildid.h"
#include "machine.h"
#include "map.h"
#include "writer.h"

#define NAMES_BITS 8

struct name_node {
	struct name_node *next;
	char name[];
};

enum {
	VDSO_64 = 1 << 0,
	VDSO_32 = 1 << 1,
	VDSO_X32 = 1 << 2,
};

struct inject_buildid {
	bool all;
	const struct perf_env *env;
	struct name_node *names[1 << NAMES_BITS]; /* the names looked at */
	unsigned int vdsos;			  /* VDSO_*: the vdsos mapped */
	size_t nr_entries;
};

static const char *const vdso_names[] = {"[vdso]", "[vdso32]", "[vdsox32]"};

struct inject_buildid *inject_buildid__new(bool all, const struct perf_env *env)
{
	struct inject_buildid *ib = calloc(1, sizeof(*ib));

	if (!ib)
		return NULL;
	ib->all = all;
	ib->env = env;
	return ib;
}

void inject_buildid__delete(struct inject_buildid *ib)
{
	if (!ib)
		return;
	for (size_t i = 0; i < sizeof(ib->names) / sizeof(ib->names[0]); i++) {
		struct name_node *n = ib->names[i], *next;

		for (; n; n = next) {
			next = n->next;
			free(n);
		}
	}
	free(ib);
}

size_t inject_buildid__nr_entries(const struct inject_buildid *ib)
{
	return ib ? ib->nr_entries : 0;
}

static unsigned int name_hash(const char *s)
{
	unsigned int h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h & ((1 << NAMES_BITS) - 1);
}

/* 1: @name was looked at before; 0: now it is; -ENOMEM */
static int names__test_and_add(struct inject_buildid *ib, const char *name)
{
	unsigned int h = name_hash(name);
	struct name_node *n;
	size_t len;

	for (n = ib->names[h]; n; n = n->next)
		if (!strcmp(n->name, name))
			return 1;
	len = strlen(name);
	n = malloc(sizeof(*n) + len + 1);
	if (!n)
		return -ENOMEM;
	memcpy(n->name, name, len + 1);
	n->next = ib->names[h];
	ib->names[h] = n;
	return 0;
}

static int vdso_index(const char *name)
{
	for (size_t i = 0; i < sizeof(vdso_names) / sizeof(vdso_names[0]); i++)
		if (!strcmp(name, vdso_names[i]))
			return i;
	return -1;
}

/*
 * The build-id of @name when the recording does not give it: a file's
 * note read now, or this machine's vdso (perf reads its own, as it does
 * when it writes the table)
 */
static int read_build_id(const char *name, struct build_id *bid)
{
	switch (vdso_index(name)) {
	case 0:
		return vdso__read_own_build_id(bid);
	case 1:
		return vdso__read_compat_build_id(bid);
	case 2:
		return -ENOENT; /* no x32 vdso of ours to read */
	default:
		break;
	}
	if (name[0] != '/')
		return -ENOENT;
	return filename__read_build_id(name, bid);
}

/*
 * One object's entry, once: @known is what the recording said (MMAP2,
 * an object model that took it from the table), else the input's table,
 * else @name read now (@readable)
 */
static int inject_buildid__add(struct inject_buildid *ib, struct perf_writer *w, u16 misc,
			       const char *name, const struct build_id *known, bool readable)
{
	struct build_id bid = {.size = 0};
	int err = names__test_and_add(ib, name);

	if (err)
		return err < 0 ? err : 0;
	if (known && known->size)
		bid = *known;
	else if (perf_env__find_build_id(ib->env, name, &bid) &&
		 (!readable || read_build_id(name, &bid)))
		return 0;
	if (!bid.size)
		return 0;
	err = perf_writer__add_build_id(w, misc, -1, bid.data, bid.size, name);
	if (!err)
		err = perf_writer__flush_build_ids(w);
	if (!err)
		ib->nr_entries++;
	return err;
}

/* the name and cpumode perf's table gives @dso; NULL: no entry for it */
static const char *dso__table_name(const struct dso *dso, u16 *misc, bool *readable)
{
	*misc = PERF_RECORD_MISC_KERNEL;
	*readable = true;
	switch (dso->kind) {
	case DSO_KIND__KERNEL:
		/* perf looks for a file of that name and finds none */
		*readable = false;
		return "[kernel.kallsyms]";
	case DSO_KIND__MODULE:
		return dso->long_name[0] == '/' ? dso->long_name : dso->name;
	case DSO_KIND__KERNEL_OBJECT:
		return dso->long_name;
	case DSO_KIND__VDSO:
		*misc = PERF_RECORD_MISC_USER;
		return dso->name;
	case DSO_KIND__USER:
		*misc = PERF_RECORD_MISC_USER;
		return dso->long_name;
	default:
		/* anon memory, [heap], BPF programs: no file, no build-id */
		return NULL;
	}
}

int inject_buildid__sample(struct inject_buildid *ib, struct machine *machine,
			   struct perf_writer *w, const struct perf_sample *sample)
{
	struct thread *thread;
	const char *name;
	struct dso *dso;
	struct map *map;
	bool readable;
	u16 misc;

	if (ib->all)
		return 0;
	thread = machine__findnew_thread(machine, sample->pid, sample->tid);
	if (!thread)
		return -ENOMEM;
	/* the IP only, not the callchain: what perf inject -b marks */
	map = thread__find_map(thread, sample->cpumode, sample->ip, sample->time);
	thread__put(thread);
	if (!map || !map->dso || map->dso->hit)
		return 0;
	dso = map->dso;
	dso->hit = true;
	name = dso__table_name(dso, &misc, &readable);
	if (!name)
		return 0;
	return inject_buildid__add(ib, w, misc, name, &dso->bid, readable);
}

static bool is_anon_or_no_dso(const char *name)
{
	return !strcmp(name, "//anon") || !strncmp(name, "/dev/zero", 9) ||
	       !strncmp(name, "/anon_hugepage", 14) || !strncmp(name, "[stack", 6) ||
	       !strncmp(name, "/SYSV", 5) || !strcmp(name, "[heap]");
}

/* an MMAP's or MMAP2's file name, NULL when not ended within the record */
static const char *mmap_filename(const union perf_event *event)
{
	size_t off = event->header.type == PERF_RECORD_MMAP
			 ? offsetof(struct perf_record_mmap, filename)
			 : offsetof(struct perf_record_mmap2, filename);
	const char *name = (const char *)event + off;

	if (event->header.size <= off || !memchr(name, '\0', event->header.size - off))
		return NULL;
	return name;
}

/* --buildid-all: the object an MMAP or MMAP2 maps */
static int inject_buildid__mmap(struct inject_buildid *ib, struct perf_writer *w,
				const union perf_event *event)
{
	u16 cpumode = event->header.misc & PERF_RECORD_MISC_CPUMODE_MASK;
	struct build_id known = {.size = 0};
	const char *name = mmap_filename(event);
	int vdso;

	if (!name || is_anon_or_no_dso(name))
		return 0;
	if (event->header.type == PERF_RECORD_MMAP2 &&
	    (event->header.misc & PERF_RECORD_MISC_MMAP_BUILD_ID_BIT) &&
	    event->mmap2.build_id_size <= BUILD_ID_SIZE) {
		known.size = event->mmap2.build_id_size;
		memcpy(known.data, event->mmap2.build_id, known.size);
	}
	vdso = vdso_index(name);
	if (vdso >= 0)
		ib->vdsos |= 1u << vdso;
	/* "[kernel.kallsyms]_text" and the like: no file, so no build-id */
	if (name[0] != '/' && vdso < 0)
		return 0;
	return inject_buildid__add(
	    ib, w,
	    cpumode == PERF_RECORD_MISC_KERNEL ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER,
	    name, &known, true);
}

int inject_buildid__side_band(struct inject_buildid *ib, struct machine *machine,
			      struct perf_writer *w, union perf_event *event,
			      struct perf_sample *sample)
{
	u32 type = event->header.type;
	int err;

	if (ib->all) {
		/* perf's --buildid-all looks at the MMAPs alone: no model needed */
		if (type == PERF_RECORD_MMAP || type == PERF_RECORD_MMAP2)
			return inject_buildid__mmap(ib, w, event);
		return 0;
	}
	err = machine__process_event(machine, event, sample);
	/* a record too short for its type is copied as it is, as without -b */
	if (err == -EINVAL)
		err = 0;
	/* a file's table names each vdso mapped, as perf's does */
	if (!err && (type == PERF_RECORD_MMAP || type == PERF_RECORD_MMAP2)) {
		const char *name = mmap_filename(event);
		int vdso = name ? vdso_index(name) : -1;

		if (vdso >= 0)
			ib->vdsos |= 1u << vdso;
	}
	return err;
}

int inject_buildid__finish(struct inject_buildid *ib, struct perf_writer *w)
{
	int err = 0;

	for (size_t i = 0; !err && i < sizeof(vdso_names) / sizeof(vdso_names[0]); i++)
		if (ib->vdsos & (1u << i))
			err = inject_buildid__add(ib, w, PERF_RECORD_MISC_USER, vdso_names[i],
						  NULL, true);
	return err;
}
