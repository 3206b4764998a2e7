// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf report --tasks and --mmaps.  The order is perf 6.1's, which its
 * thread table gives: 256 buckets by tid % 256, each in tid order; a
 * thread is filed under its parent when first met (walking up through
 * parents not met yet), and one without a parent (ppid -1) is a root, in
 * the order met.  So children appear in table order under each parent,
 * not in the order they were forked.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "debug.h"
#include "dso.h"
#include "machine.h"
#include "map.h"
#include "report-tasks.h"
#include "thread.h"

#define TASKS_BUCKETS 256

struct task {
	struct thread *thread;
	struct task *first_child, *last_child, *next; /* next: sibling, or next root */
	bool listed;
};

struct tasks {
	struct task *v;
	size_t nr, alloc;
};

static int tasks__add(struct thread *thread, void *arg)
{
	struct tasks *t = arg;

	if (t->nr == t->alloc) {
		size_t alloc = t->alloc ? 2 * t->alloc : 64;
		struct task *v = realloc(t->v, alloc * sizeof(*v));

		if (!v)
			return -ENOMEM;
		t->v = v;
		t->alloc = alloc;
	}
	t->v[t->nr++] = (struct task){.thread = thread};
	return 0;
}

/* perf's table order: the bucket of (unsigned) tid % 256, then tid */
static int task__cmp(const void *a, const void *b)
{
	const struct thread *ta = ((const struct task *)a)->thread;
	const struct thread *tb = ((const struct task *)b)->thread;
	unsigned int ba = (unsigned int)ta->tid % TASKS_BUCKETS;
	unsigned int bb = (unsigned int)tb->tid % TASKS_BUCKETS;

	if (ba != bb)
		return ba < bb ? -1 : 1;
	return ta->tid < tb->tid ? -1 : ta->tid > tb->tid;
}

/* by tid, in the table order the array is in: a bucket's part is sorted */
static struct task *tasks__find(struct tasks *t, s32 tid)
{
	unsigned int bucket = (unsigned int)tid % TASKS_BUCKETS;
	size_t lo = 0, hi = t->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct thread *th = t->v[mid].thread;
		unsigned int b = (unsigned int)th->tid % TASKS_BUCKETS;

		if (b < bucket || (b == bucket && th->tid < tid))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < t->nr && t->v[lo].thread->tid == tid ? &t->v[lo] : NULL;
}

static void task__add_child(struct task *parent, struct task *child)
{
	if (parent->last_child)
		parent->last_child->next = child;
	else
		parent->first_child = child;
	parent->last_child = child;
	child->listed = true;
}

/*
 * File @task under its parent, and the parent under its own, up to the
 * first one filed already (NULL) or a root, which is returned for the
 * caller to list.  The walk is bounded by the number of tasks: a cycle
 * of parents (a damaged recording) ends as an error.
 */
static struct task *tasks__file(struct tasks *t, struct task *task, int *err)
{
	for (size_t steps = 0; steps <= t->nr; steps++) {
		struct task *parent;

		if (task->listed)
			return NULL;
		if (task->thread->ppid == -1)
			return task;
		parent = tasks__find(t, task->thread->ppid);
		if (!parent) {
			pr_err("Missing parent thread of %d\n", task->thread->tid);
			*err = -ENOENT;
			return NULL;
		}
		task__add_child(parent, task);
		task = parent;
	}
	*err = -ELOOP;
	return NULL;
}

/*
 * perf prints the object's id: the map's own inode, or for a map an MMAP
 * (no inode) made, that of the object of that name an MMAP2 gave
 */
static u64 map__ino(const struct map *m)
{
	return m->ino ?: (m->dso ? m->dso->ino : 0);
}

static void maps__fprintf_task(const struct maps *maps, int indent, FILE *fp)
{
	for (size_t i = 0; maps && i < maps->nr; i++) {
		const struct map *m = maps->entries[i];

		fprintf(fp, "%*s  %" PRIx64 "-%" PRIx64 " %c%c%c%c %08" PRIx64 " %" PRIu64 " %s\n",
			indent, "", m->start, m->end, m->prot & PROT_READ ? 'r' : '-',
			m->prot & PROT_WRITE ? 'w' : '-', m->prot & PROT_EXEC ? 'x' : '-',
			m->flags & MAP_SHARED ? 's' : 'p', m->pgoff, map__ino(m),
			m->dso ? m->dso->long_name : "");
	}
}

static void task__fprintf(const struct task *task, int level, bool mmaps, FILE *fp)
{
	/* deep trees are printed with a loop over siblings, recursion per level */
	for (; task; task = task->next) {
		const struct thread *th = task->thread;
		int indent =
		    fprintf(fp, "  %8d %8d %8d |%*s", th->pid, th->tid, th->ppid, level, "");

		fprintf(fp, "%s\n", thread__comm_str(th));
		if (mmaps)
			maps__fprintf_task(th->maps, indent, fp);
		task__fprintf(task->first_child, level + 1, mmaps, fp);
	}
}

int report_tasks__fprintf(struct machine *machine, bool mmaps, FILE *fp)
{
	struct tasks t = {NULL, 0, 0};
	struct task *roots = NULL, *last = NULL;
	int err = machine__for_each_thread(machine, tasks__add, &t);

	if (err)
		goto out;
	if (t.nr)
		qsort(t.v, t.nr, sizeof(*t.v), task__cmp);
	for (size_t i = 0; i < t.nr && !err; i++) {
		struct task *root = tasks__file(&t, &t.v[i], &err);

		if (!root)
			continue;
		root->listed = true;
		if (last)
			last->next = root;
		else
			roots = root;
		last = root;
	}
	if (err) {
		pr_err("Error: failed to process tasks\n");
		goto out;
	}
	fprintf(fp, "# %8s %8s %8s  %s\n", "pid", "tid", "ppid", "comm");
	task__fprintf(roots, 0, mmaps, fp);
out:
	free(t.v);
	return err;
}
