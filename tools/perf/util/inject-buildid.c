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
#include "session.h"
#include "writer.h"

#define NAMES_BITS 8

struct name_node {
	struct name_node *next;
	char name[];
};

struct bid_entry {
	const char *name; /* a name_node's */
	u16 misc;
	struct build_id bid;
};

struct inject_buildid {
	bool all;
	const struct perf_env *env;
	struct name_node *names[1 << NAMES_BITS]; /* the names looked at */
	unsigned int vdsos;			  /* bit i: vdso_names[i] was mapped */
	/* -b: what the scan found, in the order of the first hits */
	struct bid_entry *entries;
	size_t nr_entries, alloc_entries;
	size_t nr_written;
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
	free(ib->entries);
	free(ib);
}

size_t inject_buildid__nr_entries(const struct inject_buildid *ib)
{
	return ib ? ib->nr_written : 0;
}

static unsigned int name_hash(const char *s)
{
	unsigned int h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h & ((1 << NAMES_BITS) - 1);
}

/* 1: @name was looked at before; 0: now it is (*@kept: its copy); -ENOMEM */
static int names__test_and_add(struct inject_buildid *ib, const char *name, const char **kept)
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
	*kept = n->name;
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

static int inject_buildid__write(struct inject_buildid *ib, struct perf_writer *w,
				 const struct bid_entry *e)
{
	int err = perf_writer__add_build_id(w, e->misc, -1, e->bid.data, e->bid.size, e->name);

	if (!err)
		err = perf_writer__flush_build_ids(w);
	if (!err)
		ib->nr_written++;
	return err;
}

/*
 * One object's entry, once: @known is what the recording said (MMAP2,
 * an object model that took it from the table), else the input's table
 * (@table), else @name read now (@readable).  Written when @w is given (the
 * MMAPs of --buildid-all, met in file order), else kept for
 * inject_buildid__write_all() (the scan of -b, in time order).
 */
static int inject_buildid__add(struct inject_buildid *ib, struct perf_writer *w, u16 misc,
			       const char *name, const struct build_id *known, bool table,
			       bool readable)
{
	struct bid_entry e = {.misc = misc};
	int err = names__test_and_add(ib, name, &e.name);

	if (err)
		return err < 0 ? err : 0;
	if (known && known->size)
		e.bid = *known;
	else if ((!table || perf_env__find_build_id(ib->env, name, &e.bid)) &&
		 (!readable || read_build_id(name, &e.bid)))
		return 0;
	if (!e.bid.size)
		return 0;
	if (w)
		return inject_buildid__write(ib, w, &e);
	if (ib->nr_entries == ib->alloc_entries) {
		size_t n = ib->alloc_entries ? ib->alloc_entries * 2 : 32;
		struct bid_entry *v = realloc(ib->entries, n * sizeof(*v));

		if (!v)
			return -ENOMEM;
		ib->entries = v;
		ib->alloc_entries = n;
	}
	ib->entries[ib->nr_entries++] = e;
	return 0;
}

/* @name's entry in @env's table if its cpumode is kernel; @bid untouched when none */
static void env__kernel_build_id(const struct perf_env *env, const char *name, struct build_id *bid)
{
	for (int i = 0; env && i < env->nr_build_ids; i++) {
		const struct build_id_entry *e = &env->build_ids[i];
		u16 cpumode = e->misc & PERF_RECORD_MISC_CPUMODE_MASK;

		if (!e->filename || strcmp(e->filename, name) ||
		    (cpumode != PERF_RECORD_MISC_KERNEL &&
		     cpumode != PERF_RECORD_MISC_GUEST_KERNEL))
			continue;
		bid->size = e->size && e->size <= BUILD_ID_SIZE ? e->size : BUILD_ID_SIZE;
		memcpy(bid->data, e->build_id, bid->size);
	}
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

static int inject_buildid__sample(struct inject_buildid *ib, struct machine *machine,
				  const struct perf_sample *sample)
{
	const char *name;
	struct dso *dso;
	struct map *map;
	bool readable;
	u16 misc;
	int err;

	if (ib->all)
		return 0;
	err = machine__mark_hit(machine, sample, &map);
	if (err || !map)
		return err;
	dso = map->dso;
	name = dso__table_name(dso, &misc, &readable);
	if (!name)
		return 0;
	/*
	 * perf 6.1 takes a module's table entry for the module only when
	 * the entry says kernel; one that says user is another object
	 */
	if (dso->kind == DSO_KIND__MODULE) {
		struct build_id bid = {.size = 0};

		env__kernel_build_id(ib->env, name, &bid);
		return inject_buildid__add(ib, NULL, misc, name, &bid, false, readable);
	}
	return inject_buildid__add(ib, NULL, misc, name, &dso->bid, true, readable);
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
	size_t off = event->header.type == PERF_RECORD_MMAP ?
			 offsetof(struct perf_record_mmap, filename) :
			 offsetof(struct perf_record_mmap2, filename);
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
	return inject_buildid__add(ib, w,
				   cpumode == PERF_RECORD_MISC_KERNEL ? PERF_RECORD_MISC_KERNEL :
									PERF_RECORD_MISC_USER,
				   name, &known, true, true);
}

int inject_buildid__side_band(struct inject_buildid *ib, struct perf_writer *w,
			      union perf_event *event)
{
	u32 type = event->header.type;

	/* perf's --buildid-all looks at the MMAPs alone: no model needed */
	if (ib->all && (type == PERF_RECORD_MMAP || type == PERF_RECORD_MMAP2))
		return inject_buildid__mmap(ib, w, event);
	return 0;
}

struct buildid_scan {
	struct perf_tool tool;
	struct inject_buildid *ib;
};

static struct buildid_scan *tool2scan(struct perf_tool *tool)
{
	return (struct buildid_scan *)((char *)tool - offsetof(struct buildid_scan, tool));
}

static int scan__sample(struct perf_tool *tool, union perf_event *event, struct perf_sample *sample,
			struct evsel *evsel, struct machine *machine)
{
	(void)event;
	(void)evsel;
	return inject_buildid__sample(tool2scan(tool)->ib, machine, sample);
}

static int scan__side_band(struct perf_tool *tool, union perf_event *event,
			   struct perf_sample *sample, struct evsel *evsel, struct machine *machine)
{
	struct inject_buildid *ib = tool2scan(tool)->ib;
	u32 type = event->header.type;
	int err;

	(void)evsel;
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

int inject_buildid__scan(struct inject_buildid *ib, const char *path)
{
	struct buildid_scan scan = {
	    .tool =
		{
		    .sample = scan__sample,
		    .side_band = scan__side_band,
		    /* a sample may come before its MMAP in file order, never in time */
		    .ordered_events = true,
		    /* the copy says it once */
		    .defer_cut = true,
		},
	    .ib = ib,
	};
	const struct perf_env *env = ib->env;
	struct perf_session *session;
	int err;

	if (ib->all)
		return 0;
	session = perf_session__new(path, &scan.tool);
	if (!session)
		return -EINVAL;
	/* a stream's table grows as its records come */
	ib->env = &session->env;
	err = perf_session__process_events(session);
	/* a cut-off input: the objects its complete records hit */
	if (err && session->truncated)
		err = 0;
	ib->env = env;
	perf_session__delete(session);
	return err;
}

int inject_buildid__write_all(struct inject_buildid *ib, struct perf_writer *w, bool file)
{
	int err = 0;

	/* a file's table also names each vdso mapped; a stream's names the hits only */
	for (size_t i = 0; file && !err && i < sizeof(vdso_names) / sizeof(vdso_names[0]); i++)
		if (ib->vdsos & (1u << i))
			err = inject_buildid__add(ib, NULL, PERF_RECORD_MISC_USER, vdso_names[i],
						  NULL, true, true);
	for (size_t i = 0; !err && i < ib->nr_entries; i++)
		err = inject_buildid__write(ib, w, &ib->entries[i]);
	return err;
}
