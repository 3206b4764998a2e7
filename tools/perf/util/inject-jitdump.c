// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf textpoke inject --jit: jitdump files into ELF objects, so that
 * stock perf resolves, annotates and finds the source lines of JIT code
 * (inject-jitdump.h).  What perf 6.1's perf inject --jit does, and so
 * what this does (tools/perf/util/jitdump.c, builtin-inject.c, checked
 * against its output):
 *
 *  - a jitdump is recognised by its MMAP's name alone (jitdump.h); it is
 *    read when its MMAP comes, and the MMAP2s of all its loads are
 *    written there, each with the load's pid, tid and time in its id
 *    trailer, so that a reader's time ordering puts each at its load;
 *  - the object of a load is DIR/jitted-PID-INDEX.so (the jitdump's
 *    directory, the load's pid and code index), overwritten if there;
 *    the MMAP2 maps it with pgoff JIT_ELF_TEXT_OFFSET over the code and
 *    the unwinding data the JIT says follows it (mapped_size, after the
 *    code rounded up to 8), and carries the file's device, inode, mode
 *    (as prot) and MAP_SHARED, as perf's does;
 *  - a move maps the object of its code index at the new address, with
 *    the move's time; nothing is written;
 *  - the jitdump's MMAP is dropped, and after it every //anon mapping of
 *    that process (the JIT's code pages, which would otherwise hide the
 *    objects from a reader that resolves by the latest map);
 *  - the BUILD_ID feature lists every object, as perf inject marks them
 *    hit; perf's dso__load() then checks each file against it.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>

#include "auxtrace.h"
#include "array-grow.h"
#include "debug.h"
#include "inject-jitdump.h"
#include "jit-elf.h"
#include "jitdump.h"
#include "writer.h"

struct jd_obj {
	char *path;
	struct build_id bid;
};

struct inject_jitdump {
	bool mono_clock;
	struct perf_tsc_conv tc;
	bool have_tc;
	/* processes whose jitdump was read: their //anon mappings go */
	u32 *pids;
	size_t nr_pids, alloc_pids;
	struct jd_obj *objs;
	size_t nr_objs, alloc_objs;
	size_t nr_dumps;
};

/* one jitdump being turned into records */
struct jd_walk {
	struct inject_jitdump *j;
	struct perf_writer *w;
	const char *path;
	char dir[PATH_MAX];
	bool arch_time;
	u32 cpu;
	int err; /* a callback's failure to write: fatal, unlike damage in the file */
};

static u64 jd__time(struct jd_walk *jw, u64 t)
{
	return jw->arch_time ? perf_tsc_conv__to_time(&jw->j->tc, t) : t;
}

/* DIR/jitted-PID-INDEX.so, as perf names it; -ENAMETOOLONG past PATH_MAX */
static int jd__object_path(struct jd_walk *jw, char *buf, u32 pid, u64 index)
{
	int n = snprintf(buf, PATH_MAX, "%s/jitted-%d-%" PRIu64 ".so", jw->dir, (int)pid, index);

	return n < 0 || n >= PATH_MAX ? -ENAMETOOLONG : 0;
}

static int jd__mmap2(struct jd_walk *jw, const char *path, const struct stat *st, u32 pid, u32 tid,
		     u64 addr, u64 code_size, u64 mapped_size, u64 time)
{
	struct perf_record_mmap2 m = {0};
	struct perf_sample id = {0};

	m.header.misc = PERF_RECORD_MISC_USER;
	m.pid = pid;
	m.tid = tid;
	m.start = addr;
	m.len = mapped_size ? ((code_size + 7) & ~7ULL) + mapped_size : code_size;
	m.pgoff = JIT_ELF_TEXT_OFFSET;
	if (st) {
		m.maj = major(st->st_dev);
		m.min = minor(st->st_dev);
		m.ino = st->st_ino;
		m.prot = st->st_mode;
	}
	m.ino_generation = 1;
	m.flags = MAP_SHARED;
	id.pid = pid;
	id.tid = tid;
	id.time = time;
	id.cpu = jw->cpu;
	return perf_writer__synth_mmap2(jw->w, 0, &m, path, &id);
}

static int jd__load(void *arg, const struct jitdump_load *l, const struct jitdump_debug *debug,
		    const struct jitdump_unwind *unwind)
{
	struct jd_walk *jw = arg;
	struct inject_jitdump *j = jw->j;
	char path[PATH_MAX];
	struct jd_obj *obj;
	struct stat st;
	int err;

	err = jd__object_path(jw, path, l->pid, l->code_index);
	if (!err && array__grow((void **)&j->objs, j->nr_objs, &j->alloc_objs, sizeof(*j->objs)))
		err = -ENOMEM;
	if (err)
		goto fail;
	obj = &j->objs[j->nr_objs];
	memset(obj, 0, sizeof(*obj));
	err = jit_elf__write(path, l, debug, unwind, &obj->bid, &st);
	if (err)
		goto fail;
	obj->path = strdup(path);
	if (!obj->path)
		return jw->err = -ENOMEM;
	j->nr_objs++;
	err = jd__mmap2(jw, path, &st, l->pid, l->tid, l->code_addr, l->code_size,
			unwind ? unwind->mapped_size : 0, jd__time(jw, l->time));
	if (err)
		pr_err("cannot write the MMAP2 of %s: %s\n", path, strerror(-err));
	return jw->err = err;
fail:
	pr_err("%s: JIT_CODE_LOAD at offset %#" PRIx64 " (code index %" PRIu64 "): cannot write "
	       "%s: %s\n",
	       jw->path, l->offset, l->code_index, err == -ENAMETOOLONG ? jw->dir : path,
	       strerror(-err));
	return jw->err = err;
}

static int jd__move(void *arg, const struct jitdump_move *m, u64 mapped_size)
{
	struct jd_walk *jw = arg;
	char path[PATH_MAX];
	struct stat st;
	int err;

	err = jd__object_path(jw, path, m->pid, m->code_index);
	if (err) {
		pr_err("%s: JIT_CODE_MOVE at offset %#" PRIx64 ": %s: %s\n", jw->path, m->offset,
		       jw->dir, strerror(-err));
		return jw->err = err;
	}
	/* perf maps the name whether or not a load wrote it, and so stats it */
	err = jd__mmap2(jw, path, stat(path, &st) ? NULL : &st, m->pid, m->tid, m->new_code_addr,
			m->code_size, mapped_size, jd__time(jw, m->time));
	if (err)
		pr_err("cannot write the MMAP2 of %s: %s\n", path, strerror(-err));
	return jw->err = err;
}

/* before any record: whether the times can be placed in the recording */
static int jd__check_header(void *arg, const struct jitdump_header *hdr)
{
	struct jd_walk *jw = arg;

	jw->arch_time = hdr->flags & JITDUMP_FLAGS_ARCH_TIMESTAMP;
	if (jw->arch_time && !jw->j->have_tc) {
		pr_warning("%s: its times are the CPU's (arch timestamps) and the recording has no "
			   "TIME_CONV to convert them: left as it is\n",
			   jw->path);
		return 1;
	}
	if (!jw->arch_time && !jw->j->mono_clock) {
		pr_warning("%s: its times are CLOCK_MONOTONIC and the recording's events are not "
			   "(perf record -k mono): left as it is\n",
			   jw->path);
		return 1;
	}
	return 0;
}

static bool jd__has_pid(const struct inject_jitdump *j, u32 pid)
{
	size_t i;

	for (i = 0; i < j->nr_pids; i++) {
		if (j->pids[i] == pid)
			return true;
	}
	return false;
}

static const struct jitdump_ops jd_ops = {
    .load = jd__load,
    .move = jd__move,
};

int inject_jitdump__event(struct inject_jitdump *j, struct perf_writer *w, union perf_event *event,
			  struct perf_sample *sample)
{
	struct jd_walk jw = {.j = j, .w = w};
	const char *name;
	size_t room, hdr;
	char *slash;
	u32 pid;
	int ret;

	switch (event->header.type) {
	case PERF_RECORD_MMAP:
		hdr = sizeof(event->mmap);
		name = event->mmap.filename;
		pid = event->mmap.pid;
		break;
	case PERF_RECORD_MMAP2:
		hdr = sizeof(event->mmap2);
		name = event->mmap2.filename;
		pid = event->mmap2.pid;
		break;
	default:
		return 0;
	}
	if (event->header.size <= hdr)
		return 0;
	room = event->header.size - hdr;
	if (strnlen(name, room) == room)
		return 0; /* no NUL: not a name perf would match either */
	if (!jitdump__is_marker(name, pid))
		return j->nr_pids && !strncmp(name, "//anon", 6) && jd__has_pid(j, pid);

	jw.path = name;
	jw.cpu = sample ? sample->cpu : 0;
	if (strlen(name) >= sizeof(jw.dir))
		return 0;
	strcpy(jw.dir, name);
	slash = strrchr(jw.dir, '/');
	if (slash == jw.dir)
		slash[1] = '\0';
	else
		*slash = '\0';
	ret = jitdump__walk(name, &jd_ops, &jw, jd__check_header, NULL);
	if (jw.err)
		return jw.err;
	if (ret)
		return 0; /* unreadable, or times that cannot be placed: said; its MMAP stays */
	j->nr_dumps++;
	if (!jd__has_pid(j, pid)) {
		if (array__grow((void **)&j->pids, j->nr_pids, &j->alloc_pids, sizeof(*j->pids)))
			return -ENOMEM;
		j->pids[j->nr_pids++] = pid;
	}
	return 1;
}

void inject_jitdump__time_conv(struct inject_jitdump *j, const union perf_event *event)
{
	perf_tsc_conv__time_conv(&j->tc, event);
	j->have_tc = true;
}

int inject_jitdump__add_build_ids(struct inject_jitdump *j, struct perf_writer *w)
{
	size_t i;
	int err;

	for (i = 0; j && i < j->nr_objs; i++) {
		err = perf_writer__add_build_id(w, PERF_RECORD_MISC_USER, -1, j->objs[i].bid.data,
						j->objs[i].bid.size, j->objs[i].path);
		if (err)
			return err;
	}
	return 0;
}

size_t inject_jitdump__nr_objects(const struct inject_jitdump *j)
{
	return j ? j->nr_objs : 0;
}

struct inject_jitdump *inject_jitdump__new(void)
{
	return calloc(1, sizeof(struct inject_jitdump));
}

void inject_jitdump__set_mono_clock(struct inject_jitdump *j, bool mono_clock)
{
	j->mono_clock = mono_clock;
}

void inject_jitdump__delete(struct inject_jitdump *j)
{
	size_t i;

	if (!j)
		return;
	for (i = 0; i < j->nr_objs; i++)
		free(j->objs[i].path);
	free(j->objs);
	free(j->pids);
	free(j);
}
