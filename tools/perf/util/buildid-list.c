// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf textpoke buildid-list: buildid-list.h says what is printed.  The
 * list is kept in the order perf's object list has: an object enters
 * when a table entry or a map first names it, and keeps its place.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "build-id.h"
#include "buildid-list.h"
#include "debug.h"
#include "dso.h"
#include "header.h"
#include "machine.h"
#include "map.h"
#include "session.h"

struct bl_entry {
	char *name;
	s32 pid; /* the machine: -1 the host, else a guest */
	struct build_id bid;
	bool hit;
	/* a module's object: a table entry that says kernel, or a module's map */
	bool module;
};

struct buildid_list {
	struct perf_tool tool;
	struct perf_session *session;
	struct bl_entry *v;
	size_t nr, alloc;
	int nr_env_seen; /* table entries taken from session->env so far */
};

static struct buildid_list *tool2bl(struct perf_tool *tool)
{
	return (struct buildid_list *)((char *)tool - offsetof(struct buildid_list, tool));
}

/*
 * The entry of @name on machine @pid, added at the end when new; NULL:
 * -ENOMEM.  A @module is found as perf finds it, by a table entry that
 * made it a module (one that says kernel); an entry of its path that
 * says user is another object.
 */
static struct bl_entry *bl__findnew(struct buildid_list *bl, s32 pid, const char *name, bool module)
{
	struct bl_entry *e;

	for (size_t i = bl->nr; i-- > 0;)
		if (bl->v[i].pid == pid && !strcmp(bl->v[i].name, name) &&
		    (!module || bl->v[i].module))
			return &bl->v[i];
	if (bl->nr == bl->alloc) {
		size_t n = bl->alloc ? bl->alloc * 2 : 64;
		struct bl_entry *v = realloc(bl->v, n * sizeof(*v));

		if (!v)
			return NULL;
		bl->v = v;
		bl->alloc = n;
	}
	e = &bl->v[bl->nr];
	memset(e, 0, sizeof(*e));
	e->pid = pid;
	e->module = module;
	e->name = strdup(name);
	if (!e->name)
		return NULL;
	bl->nr++;
	return e;
}

/*
 * The table entries the session read since the last call (a stream's
 * HEADER_BUILD_ID records come one by one): perf makes an object of
 * each kernel or user one, and a later entry of the same name gives
 * it its build-id
 */
static int bl__sync_table(struct buildid_list *bl)
{
	const struct perf_env *env = &bl->session->env;

	for (; bl->nr_env_seen < env->nr_build_ids; bl->nr_env_seen++) {
		const struct build_id_entry *b = &env->build_ids[bl->nr_env_seen];
		u16 cpumode = b->misc & PERF_RECORD_MISC_CPUMODE_MASK;
		struct bl_entry *e;

		if (cpumode != PERF_RECORD_MISC_KERNEL && cpumode != PERF_RECORD_MISC_USER &&
		    cpumode != PERF_RECORD_MISC_GUEST_KERNEL &&
		    cpumode != PERF_RECORD_MISC_GUEST_USER)
			continue;
		if (!b->filename)
			continue;
		e = bl__findnew(bl, b->pid, b->filename, false);
		if (!e)
			return -ENOMEM;
		if (cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL)
			e->module = true;
		e->bid.size = b->size && b->size <= BUILD_ID_SIZE ? b->size : BUILD_ID_SIZE;
		memcpy(e->bid.data, b->build_id, e->bid.size);
	}
	return 0;
}

/* the name perf's object list gives @dso */
static const char *dso__perf_name(const struct dso *dso)
{
	switch (dso->kind) {
	case DSO_KIND__KERNEL:
		return "[kernel.kallsyms]";
	case DSO_KIND__MODULE:
		return dso->long_name[0] == '/' ? dso->long_name : dso->name;
	case DSO_KIND__KSYMBOL:
		/* perf keeps BPF programs' objects out of its list */
		return NULL;
	default:
		return dso->long_name;
	}
}

/* the entry of @map's object (*@ep NULL: none of perf's); 0 or -ENOMEM */
static int bl__entry_of(struct buildid_list *bl, const struct map *map, struct bl_entry **ep)
{
	const char *name = map && map->dso ? dso__perf_name(map->dso) : NULL;
	struct bl_entry *e;

	*ep = NULL;
	if (!name)
		return 0;
	e = bl__findnew(bl, -1, name, map->dso->kind == DSO_KIND__MODULE);
	if (!e)
		return -ENOMEM;
	/*
	 * an MMAP2's build-id, unless the table gave one; a module's comes
	 * from the table entry that made it one (the model also takes those
	 * that say user)
	 */
	if (!e->bid.size && map->dso->bid.size && map->dso->kind != DSO_KIND__MODULE)
		e->bid = map->dso->bid;
	*ep = e;
	return 0;
}

static int bl__sample(struct perf_tool *tool, union perf_event *event, struct perf_sample *sample,
		      struct evsel *evsel, struct machine *machine)
{
	struct buildid_list *bl = tool2bl(tool);
	struct bl_entry *e;
	struct map *map;
	int err = bl__sync_table(bl);

	(void)event;
	(void)evsel;
	if (!err)
		err = machine__mark_hit(machine, sample, &map);
	if (err || !map)
		return err;
	err = bl__entry_of(bl, map, &e);
	if (e)
		e->hit = true;
	return err;
}

static int bl__side_band(struct perf_tool *tool, union perf_event *event,
			 struct perf_sample *sample, struct evsel *evsel, struct machine *machine)
{
	struct buildid_list *bl = tool2bl(tool);
	u32 type = event->header.type;
	u16 cpumode = event->header.misc & PERF_RECORD_MISC_CPUMODE_MASK;
	struct thread *thread;
	struct bl_entry *e;
	int err = bl__sync_table(bl);

	(void)evsel;
	if (err)
		return err;
	err = machine__process_event(machine, event, sample);
	if (err == -EINVAL)
		return 0;
	if (err || (type != PERF_RECORD_MMAP && type != PERF_RECORD_MMAP2))
		return err;
	if (cpumode != PERF_RECORD_MISC_KERNEL && cpumode != PERF_RECORD_MISC_USER)
		return 0;
	/* the object the map just made: perf's list has it from now on */
	thread = machine__findnew_thread(machine, event->mmap.pid, event->mmap.tid);
	if (!thread)
		return -ENOMEM;
	err = bl__entry_of(bl, thread__find_map(thread, cpumode, event->mmap.start, sample->time),
			   &e);
	thread__put(thread);
	return err;
}

static int bl__user_event(struct perf_tool *tool, union perf_event *event,
			  struct perf_session *session)
{
	(void)event;
	(void)session;
	return bl__sync_table(tool2bl(tool));
}

static int entry__cmp_machine(const void *pa, const void *pb)
{
	const struct bl_entry *a = pa, *b = pb;

	/* the host first, then the guests by pid; a stable order within each */
	if (a->pid != b->pid) {
		if (a->pid == -1 || b->pid == -1)
			return a->pid == -1 ? -1 : 1;
		return a->pid < b->pid ? -1 : 1;
	}
	return a < b ? -1 : a > b;
}

static void bl__print(struct buildid_list *bl, bool with_hits, FILE *fp)
{
	char hex[BUILD_ID_HEX_SIZE];

	qsort(bl->v, bl->nr, sizeof(*bl->v), entry__cmp_machine);
	for (size_t i = 0; i < bl->nr; i++) {
		const struct bl_entry *e = &bl->v[i];

		/* an object neither hit nor with a build-id is no line of perf's */
		if (with_hits ? !e->hit : !e->hit && !e->bid.size)
			continue;
		hex[0] = '\0';
		if (e->bid.size)
			build_id__sprintf(&e->bid, hex);
		fprintf(fp, "%-40s %s\n", hex, e->name);
	}
}

/* an ELF file given as input: its build-id; 1 when it was one */
static int elf__print_build_id(const char *path, FILE *fp)
{
	char hex[BUILD_ID_HEX_SIZE];
	struct build_id bid;

	if (!strcmp(path, "-") || filename__read_build_id(path, &bid) || !bid.size)
		return 0;
	fprintf(fp, "%s\n", build_id__sprintf(&bid, hex));
	return 1;
}

int buildid_list__run(const struct buildid_list_opts *o, FILE *fp)
{
	struct buildid_list bl = {
	    .tool =
		{
		    .sample = bl__sample,
		    .side_band = bl__side_band,
		    .user_event = bl__user_event,
		    .ordered_events = true,
		},
	};
	bool with_hits = o->with_hits;
	int err = 0;

	if (o->kernel) {
		char hex[BUILD_ID_HEX_SIZE];
		struct build_id bid;

		err = kernel__read_running_build_id(&bid);
		if (err) {
			pr_err("/sys/kernel/notes: cannot read the running kernel's build-id: %s\n",
			       strerror(-err));
			return err;
		}
		fprintf(fp, "%s\n", build_id__sprintf(&bid, hex));
		return 0;
	}
	if (elf__print_build_id(o->input, fp))
		return 0;
	bl.session = perf_session__new(o->input, &bl.tool);
	if (!bl.session)
		return -EINVAL;
	/* an AUX trace is not decoded to find hits: every object listed */
	if (!bl.session->is_pipe && perf_session__has_feat(bl.session, HEADER_AUXTRACE))
		with_hits = false;
	else if (!bl.session->is_pipe && !perf_session__has_feat(bl.session, HEADER_BUILD_ID))
		with_hits = true;
	err = bl__sync_table(&bl);
	if (!err && (with_hits || bl.session->is_pipe))
		err = perf_session__process_events(bl.session);
	if (!err)
		err = bl__sync_table(&bl);
	if (!err)
		bl__print(&bl, with_hits, fp);
	perf_session__delete(bl.session);
	for (size_t i = 0; i < bl.nr; i++)
		free(bl.v[i].name);
	free(bl.v);
	return err;
}
