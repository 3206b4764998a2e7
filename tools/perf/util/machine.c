// SPDX-License-Identifier: GPL-2.0-only
/*
 * The recorded machine: threads and their maps, the kernel, its modules and
 * the kernel objects that come and go (KSYMBOL), rebuilt from the side-band
 * records and queried at the time of each sample.
 *
 * User maps follow the records as they are processed, like perf's: the
 * callers feed records in time order and look samples up as they come.  The
 * kernel's KSYMBOL objects are kept as spans in time instead, because BPF
 * programs reuse each other's addresses and a lookup must find the one
 * that was there at the sample's time, even out of order:
 *
 *   addr ^   [--- prog A ---)            [--- prog B ------------
 *        |   t1           t2 (unregister) t3 (register)
 *        +-------------------------------------------------> time
 *   sample at t1.5 -> A, t2.5 -> nothing, t3.5 -> B
 *
 * ELF objects that a kernel MMAP maps (perf textpoke inject --jit writes
 * one per BPF program or OOL region version, in place of its KSYMBOL) are
 * spans too: from their MMAP until a KSYMBOL unregister, or another kernel
 * mapping, over them, as perf 6.1 removes the map found at an
 * unregistered address (machine__process_ksymbol_unregister()).
 *
 * So are the modules that perf textpoke record saw load (kcore_dir's
 * module_events, module-events.h), no record telling of them: each of
 * their two allocations from its birth (the first poke into it, which
 * comes before module:module_load) to its free, the init allocation only
 * until its init code may be freed.  A module loaded before the recording
 * and freed during it keeps its MMAP's map until the free.
 *
 * The kernel's symbol tables are read in machine-ksyms.c, which shares
 * the struct (machine-internal.h).
 */
#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "debug.h"
#include "dso.h"
#include "header.h"
#include "input-file.h"
#include "kallsyms.h"
#include "machine.h"
#include "map.h"
#include "module-dso.h"
#include "module-events.h"
#include "symbol.h"
#include "thread.h"

#include "machine-internal.h"

bool env__is_running_kernel(const struct perf_env *env)
{
	struct utsname uts;

	return env && env->os_release && !uname(&uts) && !strcmp(uts.release, env->os_release);
}

const struct perf_env *machine__env(const struct machine *machine)
{
	return machine->env;
}

static int machine__add_module_loads(struct machine *machine);

struct machine *machine__new(struct perf_env *env, const char *kcore_dir)
{
	struct machine *machine = calloc(1, sizeof(*machine));
	struct thread *swapper;

	if (!machine)
		return NULL;
	/*
	 * Only kept: in pipe mode the features (os_release, build-ids) come
	 * as records after this, so they are looked at when first needed.
	 */
	machine->env = env;
	dsos__init(&machine->dsos);
	machine->ksym_lo = ~0ULL;
	if (kcore_dir && !(machine->kcore_dir = strdup(kcore_dir)))
		goto out_delete;
	machine->kmaps = maps__new();
	if (!machine->kmaps)
		goto out_delete;
	machine->kernel_dso = dsos__findnew(&machine->dsos, KERNEL_MMAP_NAME, DSO_KIND__KERNEL);
	if (!machine->kernel_dso)
		goto out_delete;
	module_events__init(&machine->mods);
	if (kcore_dir &&
	    (module_events__read(&machine->mods, kcore_dir) || machine__add_module_loads(machine)))
		goto out_delete;

	/* the idle task, as perf names it */
	swapper = machine__findnew_thread(machine, 0, 0);
	if (!swapper || thread__set_comm(swapper, "swapper", 0, false)) {
		thread__put(swapper);
		goto out_delete;
	}
	thread__put(swapper);
	return machine;

out_delete:
	machine__delete(machine);
	return NULL;
}

void machine__delete(struct machine *machine)
{
	size_t i;

	if (!machine)
		return;
	for (i = 0; i < THREADS_HASH_SIZE; i++) {
		struct thread *thread = machine->threads[i];

		while (thread) {
			struct thread *next = thread->next;

			thread->next = NULL;
			thread__put(thread);
			thread = next;
		}
	}
	for (i = 0; i < machine->nr_ksyms; i++)
		map__put(machine->ksyms[i].map);
	for (i = 0; i < machine->nr_pokes; i++)
		free((void *)machine->pokes[i].bytes);
	free(machine->pokes);
	free(machine->ksyms);
	free(machine->span_by_serial);
	free(machine->find_cache);
	free(machine->mod_spans);
	module_events__exit(&machine->mods);
	map__put(machine->kernel_map);
	maps__put(machine->kmaps);
	dso__put(machine->kernel_dso);
	dsos__exit(&machine->dsos);
	free(machine->kcore_dir);
	free(machine->kallsyms_name);
	free(machine->vmlinux_name);
	free(machine);
}

int machine__set_kernel_symbols(struct machine *machine, const char *kallsyms, const char *vmlinux)
{
	char *k = kallsyms ? strdup(kallsyms) : NULL, *v = vmlinux ? strdup(vmlinux) : NULL;

	if ((kallsyms && !k) || (vmlinux && !v)) {
		free(k);
		free(v);
		return -ENOMEM;
	}
	free(machine->kallsyms_name);
	free(machine->vmlinux_name);
	machine->kallsyms_name = k;
	machine->vmlinux_name = v;
	return 0;
}

const struct machine_stats *machine__stats(const struct machine *machine)
{
	return &machine->stats;
}

/* threads */

static unsigned int thread_hash(s32 tid)
{
	return (u32)tid % THREADS_HASH_SIZE;
}

int machine__for_each_thread(struct machine *machine, int (*fn)(struct thread *thread, void *arg),
			     void *arg)
{
	for (size_t i = 0; i < THREADS_HASH_SIZE; i++)
		for (struct thread *t = machine->threads[i]; t; t = t->next) {
			int err = fn(t, arg);

			if (err)
				return err;
		}
	return 0;
}

struct thread *machine__find_thread(struct machine *machine, s32 pid, s32 tid)
{
	struct thread *thread;

	for (thread = machine->threads[thread_hash(tid)]; thread; thread = thread->next)
		if (thread->tid == tid)
			return thread__get(thread);
	return NULL;
}

static void machine__remove_thread(struct machine *machine, struct thread *thread)
{
	struct thread **p;

	for (p = &machine->threads[thread_hash(thread->tid)]; *p; p = &(*p)->next) {
		if (*p != thread)
			continue;
		*p = thread->next;
		thread->next = NULL;
		machine->nr_threads--;
		thread__put(thread);
		return;
	}
}

/* threads of a process share the leader's maps */
static int machine__init_thread_maps(struct machine *machine, struct thread *thread)
{
	struct thread *leader;
	struct maps *maps;

	if (thread->pid == -1 || thread->pid == thread->tid) {
		maps = maps__new();
		if (!maps)
			return -ENOMEM;
		thread__set_maps(thread, maps);
		maps__put(maps);
		return 0;
	}
	leader = machine__findnew_thread(machine, thread->pid, thread->pid);
	if (!leader)
		return -ENOMEM;
	thread__set_maps(thread, leader->maps);
	thread__put(leader);
	return 0;
}

struct thread *machine__findnew_thread(struct machine *machine, s32 pid, s32 tid)
{
	struct thread *thread = machine__find_thread(machine, pid, tid);
	unsigned int h;

	if (thread) {
		/* learnt the process of a thread first seen without one */
		if (thread->pid == -1 && pid != -1) {
			thread->pid = pid;
			if (machine__init_thread_maps(machine, thread)) {
				thread__put(thread);
				return NULL;
			}
		}
		return thread;
	}

	thread = thread__new(machine, pid, tid);
	if (!thread)
		return NULL;
	h = thread_hash(tid);
	thread->next = machine->threads[h];
	machine->threads[h] = thread;
	machine->nr_threads++;
	if (machine__init_thread_maps(machine, thread)) {
		machine__remove_thread(machine, thread);
		return NULL;
	}
	return thread__get(thread);
}

static u64 sample_time(const struct perf_sample *sample)
{
	return sample ? sample->time : 0;
}

static int machine__process_comm(struct machine *machine, union perf_event *event,
				 struct perf_sample *sample)
{
	struct thread *thread = machine__findnew_thread(machine, event->comm.pid, event->comm.tid);
	size_t max = event->header.size - sizeof(event->comm);
	char comm[64];
	int err;

	if (!thread)
		return -ENOMEM;
	if (event->header.size < sizeof(event->comm))
		max = 0;
	snprintf(comm, sizeof(comm), "%.*s", (int)(max < sizeof(comm) ? max : sizeof(comm) - 1),
		 event->comm.comm);
	err = thread__set_comm(thread, comm, sample_time(sample),
			       event->header.misc & PERF_RECORD_MISC_COMM_EXEC);
	thread__put(thread);
	return err;
}

static int machine__process_fork(struct machine *machine, union perf_event *event,
				 struct perf_sample *sample)
{
	s32 pid = event->fork.pid, tid = event->fork.tid;
	s32 ppid = event->fork.ppid, ptid = event->fork.ptid;
	u64 time = sample_time(sample) ?: event->fork.time;
	struct thread *parent, *thread;
	int err = 0;

	parent = machine__findnew_thread(machine, ppid, ptid);
	if (!parent)
		return -ENOMEM;
	/* a stale thread with that tid (lost EXIT, tid reuse): start over */
	if (parent->pid != ppid) {
		machine__remove_thread(machine, parent);
		thread__put(parent);
		parent = machine__findnew_thread(machine, ppid, ptid);
		if (!parent)
			return -ENOMEM;
		parent->birth = time;
	}
	thread = machine__find_thread(machine, pid, tid);
	if (thread) {
		machine__remove_thread(machine, thread);
		thread__put(thread);
	}
	thread = machine__findnew_thread(machine, pid, tid);
	if (!thread) {
		thread__put(parent);
		return -ENOMEM;
	}
	thread->birth = time;
	/* as perf's thread__fork(): the parent thread's tid, which a clone's is too */
	thread->ppid = parent->tid;
	if (parent->comm_set)
		err = thread__set_comm(thread, thread__comm_str(parent), time, false);
	/*
	 * a new process starts with a copy of its parent's address space;
	 * not one perf record synthesized, whose own maps follow (as perf
	 * reads them: a copy would keep the parent's vdso beside its own)
	 */
	if (!err && pid != parent->pid && parent->maps &&
	    !(event->header.misc & PERF_RECORD_MISC_FORK_EXEC)) {
		struct maps *maps = maps__clone(parent->maps);

		if (maps) {
			thread__set_maps(thread, maps);
			maps__put(maps);
		} else {
			err = -ENOMEM;
		}
	}
	thread__put(thread);
	thread__put(parent);
	return err;
}

static int machine__process_exit(struct machine *machine, union perf_event *event)
{
	struct thread *thread = machine__find_thread(machine, event->fork.pid, event->fork.tid);

	if (thread) {
		thread->dead = true;
		thread__put(thread);
	}
	return 0;
}

/* mmaps */

static bool is_anon_memory(const char *name)
{
	return !strcmp(name, "//anon") || !strncmp(name, "/dev/zero", 9) ||
	       !strncmp(name, "/anon_hugepage", 14);
}

static bool is_no_dso_memory(const char *name)
{
	return !strncmp(name, "[stack", 6) || !strncmp(name, "/SYSV", 5) ||
	       !strcmp(name, "[heap]") || !strcmp(name, "[vsyscall]");
}

/* "/lib/modules/.../kvm-intel.ko.xz" -> "[kvm_intel]", as perf names modules */
static void module_name(const char *path, char *buf, size_t size)
{
	const char *base = strrchr(path, '/');
	size_t i, n;

	if (path[0] == '[') {
		/* truncation of absurdly long names is harmless here */
		if (snprintf(buf, size, "%s", path) >= (int)size)
			buf[size - 2] = ']';
		return;
	}
	base = base ? base + 1 : path;
	n = strcspn(base, ".");
	if (snprintf(buf, size, "[%.*s]", (int)n, base) >= (int)size)
		buf[size - 2] = ']';
	for (i = 1; buf[i]; i++)
		if (buf[i] == '-')
			buf[i] = '_';
}

static void machine__close_ksym_spans(struct machine *machine, u64 start, u64 end, u64 time,
				      bool objects_only);
static int machine__add_span(struct machine *machine, struct map *map, u16 type, u64 time);

/*
 * An ELF object of its own (not a module) mapped into the kernel: its
 * symbols are the file's, perf names it by its basename, and it lives as
 * a span in time.  Objects sharing a name share a dso, as in perf.
 */
static int machine__process_object_mmap(struct machine *machine, const char *filename, u64 start,
					u64 len, const struct build_id *bid, u64 time)
{
	char name[256];
	struct dso *dso;
	struct map *map;
	int err;

	if (!len || start + len < start)
		return 0;
	kernel_object__name(filename, name, sizeof(name));
	dso = dsos__findnew(&machine->dsos, name, DSO_KIND__KERNEL_OBJECT);
	if (!dso)
		return -ENOMEM;
	err = dso->long_name == dso->name ? dso__set_long_name(dso, filename) : 0;
	if (!err && bid && bid->size && !dso->bid.size)
		dso__set_build_id(dso, bid);
	map = err ? NULL : map__new(start, len, 0, dso);
	dso__put(dso);
	if (!map)
		return -ENOMEM;
	/* linked at its kernel address: symbols are absolute */
	map->identity = true;
	machine__close_ksym_spans(machine, start, start + len, time, false);
	err = machine__add_span(machine, map, KSYM_TYPE_OBJECT, time);
	map__put(map);
	return err;
}

static int machine__process_kernel_mmap(struct machine *machine, const char *filename, u64 start,
					u64 len, u64 pgoff, const struct build_id *bid, u64 time)
{
	struct build_id env_bid = {.size = 0};
	struct map *map;
	struct dso *dso;
	char name[256];
	size_t n;
	int err;

	if (!strncmp(filename, KERNEL_MMAP_NAME, strlen(KERNEL_MMAP_NAME))) {
		map = map__new(start, len, pgoff, machine->kernel_dso);
		if (!map)
			return -ENOMEM;
		/* kernel symbols are absolute: perf prints kernel IPs as they are */
		map->identity = true;
		/* old perfs wrote the bare name; _text is what they meant */
		filename += strlen(KERNEL_MMAP_NAME);
		if (!*filename)
			filename = "_text";
		n = strnlen(filename, sizeof(machine->kernel_ref) - 1);
		memcpy(machine->kernel_ref, filename, n);
		machine->kernel_ref[n] = '\0';
		if (bid && bid->size)
			dso__set_build_id(machine->kernel_dso, bid);
		if (machine->kernel_map)
			maps__remove(machine->kmaps, machine->kernel_map);
		map__put(machine->kernel_map);
		machine->kernel_map = map;
		machine->kernel_mmap_start = map->start;
		machine->kernel_mmap_end = map->end;
		return maps__insert(machine->kmaps, map);
	}
	if (filename[0] != '/' && filename[0] != '[')
		return 0;
	if (kernel_mmap__is_object(filename))
		return machine__process_object_mmap(machine, filename, start, len, bid, time);
	/* a module loaded over an object means the object's unregister was lost */
	if (len && start + len > start)
		machine__close_ksym_spans(machine, start, start + len, time, true);

	module_name(filename, name, sizeof(name));
	dso = dsos__findnew(&machine->dsos, name, DSO_KIND__MODULE);
	if (!dso)
		return -ENOMEM;
	if (filename[0] == '/' && dso->long_name == dso->name)
		dso__set_long_name(dso, filename);
	if (bid && bid->size)
		dso__set_build_id(dso, bid);
	/*
	 * perf creates the objects of the BUILD_ID table first, named by path;
	 * a module listed there keeps that name, the others are "[name]"
	 */
	if (!perf_env__find_build_id(machine->env, filename, &env_bid)) {
		dso->print_long_name = filename[0] == '/';
		if (!dso->bid.size)
			dso__set_build_id(dso, &env_bid);
	}
	/* module symbols from kallsyms are kept relative to the module start */
	map = map__new(start, len, 0, dso);
	dso__put(dso);
	if (!map)
		return -ENOMEM;
	err = maps__insert(machine->kmaps, map);
	map__put(map);
	return err;
}

/*
 * Which vdso a process has: perf names the compat ones "[vdso32]" and
 * "[vdsox32]" after the ELF class of the first file the process maps.
 */
static const char *thread__vdso_name(struct thread *thread)
{
	size_t i;

	for (i = 0; thread->maps && i < thread->maps->nr; i++) {
		struct dso *dso = thread->maps->entries[i]->dso;
		unsigned char ident[EI_NIDENT];
		u16 machine_type;
		FILE *fp;
		bool ok;

		if (!dso || dso->long_name[0] != '/')
			continue;
		fp = fopen(dso->long_name, "rb");
		if (!fp)
			continue;
		ok = fread(ident, 1, sizeof(ident), fp) == sizeof(ident) &&
		     fread(&machine_type, 1, 2, fp) == 2 && !memcmp(ident, ELFMAG, SELFMAG);
		/* e_type sits before e_machine */
		if (ok)
			ok = fread(&machine_type, 1, 2, fp) == 2;
		fclose(fp);
		if (!ok)
			continue;
		if (ident[EI_CLASS] == ELFCLASS64)
			return "[vdso]";
		if (ident[EI_DATA] != ELFDATA2LSB)
			machine_type = __builtin_bswap16(machine_type);
		return machine_type == EM_X86_64 ? "[vdsox32]" : "[vdso32]";
	}
	return "[vdso]";
}

static struct map *machine__new_user_map(struct machine *machine, struct thread *thread,
					 const char *filename, u64 start, u64 len, u64 pgoff,
					 u32 prot, const struct build_id *bid)
{
	s32 pid = thread->pid;
	enum dso_kind kind = DSO_KIND__USER;
	char anon_name[64];
	const char *name = filename;
	bool identity = false;
	struct build_id env_bid = {.size = 0};
	struct dso *dso;
	struct map *map;

	if (!*filename || is_anon_memory(filename)) {
		/*
		 * JITs describe anon code in /tmp/perf-PID.map; anon data (a
		 * -d recording's) keeps its name, as in perf's map__new()
		 */
		if (prot & PROT_EXEC) {
			snprintf(anon_name, sizeof(anon_name), "/tmp/perf-%d.map", pid);
			name = anon_name;
		}
		kind = DSO_KIND__ANON;
		identity = true;
	} else if (is_no_dso_memory(filename)) {
		/*
		 * executable stack or heap: a JIT's too, as perf's map__new()
		 * names it ([vsyscall], no object of perf's either, keeps its name)
		 */
		if ((prot & PROT_EXEC) && strcmp(filename, "[vsyscall]")) {
			snprintf(anon_name, sizeof(anon_name), "/tmp/perf-%d.map", pid);
			name = anon_name;
		}
		kind = DSO_KIND__NO_DSO;
		identity = true;
	} else if (!strncmp(filename, "[vdso", 5)) {
		kind = DSO_KIND__VDSO;
		if (!strcmp(filename, "[vdso]"))
			name = thread__vdso_name(thread);
		/*
		 * the image starts at the map, whatever pgoff says: old kernels
		 * gave the address there (as perf's map__new(), which sets 0)
		 */
		pgoff = 0;
	}

	dso = dsos__findnew(&machine->dsos, name, kind);
	if (!dso)
		return NULL;
	if (!dso->bid.size) {
		if (bid && bid->size)
			dso__set_build_id(dso, bid);
		else if (!perf_env__find_build_id(machine->env, name, &env_bid))
			dso__set_build_id(dso, &env_bid);
	}
	map = map__new(start, len, pgoff, dso);
	dso__put(dso);
	if (map)
		map->identity = identity;
	return map;
}

static bool cpumode_is_kernel(u16 misc)
{
	u8 cpumode = misc & PERF_RECORD_MISC_CPUMODE_MASK;

	return cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL;
}

static int machine__process_mmap_common(struct machine *machine, union perf_event *event, u32 pid,
					u32 tid, u64 start, u64 len, u64 pgoff, u32 prot, u32 flags,
					u64 ino, const char *filename_in, size_t max_name,
					const struct build_id *bid, u64 time)
{
	char filename[4096];
	struct thread *thread;
	struct map *map;
	int err;

	snprintf(filename, sizeof(filename), "%.*s",
		 (int)(max_name < sizeof(filename) ? max_name : sizeof(filename) - 1), filename_in);
	machine->stats.nr_mmap++;

	if (cpumode_is_kernel(event->header.misc)) {
		if ((event->header.misc & PERF_RECORD_MISC_CPUMODE_MASK) ==
		    PERF_RECORD_MISC_GUEST_KERNEL)
			return 0;
		return machine__process_kernel_mmap(machine, filename, start, len, pgoff, bid,
						    time);
	}
	if (!len)
		return 0;
	thread = machine__findnew_thread(machine, pid, tid);
	if (!thread)
		return -ENOMEM;
	map = machine__new_user_map(machine, thread, filename, start, len, pgoff, prot, bid);
	if (!map) {
		thread__put(thread);
		return -ENOMEM;
	}
	map->prot = prot;
	map->flags = flags;
	map->ino = ino;
	/* perf's dso id: an MMAP without one shares the object's */
	if (map->dso && !map->dso->ino)
		map->dso->ino = ino;
	err = maps__insert(thread->maps, map);
	map__put(map);
	thread__put(thread);
	return err;
}

static int machine__process_mmap(struct machine *machine, union perf_event *event,
				 struct perf_sample *sample)
{
	struct perf_record_mmap *e = &event->mmap;
	u32 prot = (event->header.misc & PERF_RECORD_MISC_MMAP_DATA) ? 0 : PROT_EXEC;

	if (event->header.size < sizeof(*e))
		return -EINVAL;
	return machine__process_mmap_common(
	    machine, event, e->pid, e->tid, e->start, e->len, e->pgoff, prot, 0, 0, e->filename,
	    event->header.size - sizeof(*e), NULL, sample_time(sample));
}

static int machine__process_mmap2(struct machine *machine, union perf_event *event,
				  struct perf_sample *sample)
{
	struct perf_record_mmap2 *e = &event->mmap2;
	struct build_id bid = {.size = 0};

	if (event->header.size < sizeof(*e))
		return -EINVAL;
	u64 ino = 0;

	if (event->header.misc & PERF_RECORD_MISC_MMAP_BUILD_ID_BIT) {
		bid.size = e->build_id_size > BUILD_ID_SIZE ? BUILD_ID_SIZE : e->build_id_size;
		memcpy(bid.data, e->build_id, bid.size);
	} else {
		ino = e->ino;
	}
	return machine__process_mmap_common(
	    machine, event, e->pid, e->tid, e->start, e->len, e->pgoff, e->prot, e->flags, ino,
	    e->filename, event->header.size - sizeof(*e), &bid, sample_time(sample));
}

/* KSYMBOL */

/* @map over its range from @time on; a reference is taken */
static int machine__add_span(struct machine *machine, struct map *map, u16 type, u64 time)
{
	struct ksym_span *span;

	if (machine->nr_ksyms == machine->alloc_ksyms) {
		size_t alloc = machine->alloc_ksyms ? machine->alloc_ksyms * 2 : 64;
		struct ksym_span *ksyms = realloc(machine->ksyms, alloc * sizeof(*ksyms));

		if (!ksyms)
			return -ENOMEM;
		machine->ksyms = ksyms;
		machine->alloc_ksyms = alloc;
	}
	span = &machine->ksyms[machine->nr_ksyms++];
	span->start = map->start;
	span->end = map->end;
	span->t_start = time;
	span->t_end = TIME_OPEN;
	span->ksym_type = type;
	span->map = map__get(map);
	if (span->start < machine->ksym_lo)
		machine->ksym_lo = span->start;
	if (span->end > machine->ksym_hi)
		machine->ksym_hi = span->end;
	/* what an address here resolved to before is no answer now */
	if (machine->kmaps)
		maps__touch(machine->kmaps);
	return 0;
}

static int machine__add_ksym_span(struct machine *machine, u64 addr, u32 len, u16 type,
				  const char *name, u64 time)
{
	struct symbol *sym;
	struct dso *dso;
	struct map *map;
	int err;

	/* perf names both the dso and the symbol after the ksymbol */
	dso = dso__new(name, DSO_KIND__KSYMBOL);
	if (!dso)
		return -ENOMEM;
	sym = symbol__new(0, len, STB_GLOBAL, STT_FUNC, name);
	if (dso__insert_symbol(dso, sym)) {
		dso__put(dso);
		return -ENOMEM;
	}
	map = map__new(addr, len, 0, dso);
	dso__put(dso);
	if (!map)
		return -ENOMEM;
	err = machine__add_span(machine, map, type, time);
	map__put(map);
	return err;
}

/* ends every live span over [start, end) at @time (@objects_only: mapped ELF objects) */
static void machine__close_ksym_spans(struct machine *machine, u64 start, u64 end, u64 time,
				      bool objects_only)
{
	size_t i;

	for (i = 0; i < machine->nr_ksyms; i++) {
		struct ksym_span *span = &machine->ksyms[i];

		if (span->t_end != TIME_OPEN || span->end <= start || span->start >= end)
			continue;
		if (objects_only && span->ksym_type != KSYM_TYPE_OBJECT)
			continue;
		/* a module's life is known whole: no record ends it */
		if (span->ksym_type == KSYM_TYPE_MODULE)
			continue;
		/*
		 * a record that arrives late with an earlier time (a KSYMBOL
		 * synthesized at time 0 for another process) cannot end what
		 * began after it
		 */
		if (span->t_start > time)
			continue;
		span->t_end = time;
	}
}

static int machine__process_ksymbol(struct machine *machine, union perf_event *event,
				    struct perf_sample *sample)
{
	struct perf_record_ksymbol *e = &event->ksymbol;
	size_t max = event->header.size - sizeof(*e);
	u64 time = sample_time(sample);
	char name[256];

	if (event->header.size < sizeof(*e))
		return -EINVAL;
	snprintf(name, sizeof(name), "%.*s", (int)(max < sizeof(name) ? max : sizeof(name) - 1),
		 e->name);

	/* whatever comes or goes there is no module being loaded yet */
	module_events__note_end(&machine->mods, e->addr, e->len, time);
	if (e->flags & KSYMBOL_FLAG_UNREGISTER) {
		machine->stats.nr_ksymbol_unregister++;
		machine__close_ksym_spans(machine, e->addr, e->addr + (e->len ?: 1), time, false);
		return 0;
	}
	machine->stats.nr_ksymbol++;
	if (!e->len)
		return 0;
	/* an address is one object at a time: an unregister must have been lost */
	machine__close_ksym_spans(machine, e->addr, e->addr + e->len, time, false);
	return machine__add_ksym_span(machine, e->addr, e->len, e->ksym_type, name, time);
}

/*
 * The KSYMBOL object at @addr at @time.  Time 0 (a record without a time)
 * means "now": whatever is registered after the records seen so far.
 */
struct map *machine__find_ksym_map(struct machine *machine, u64 addr, u64 time)
{
	struct ksym_span *best = NULL;
	size_t i;

	if (addr < machine->ksym_lo || addr >= machine->ksym_hi)
		return NULL;
	for (i = machine->nr_ksyms; i > 0; i--) {
		struct ksym_span *span = &machine->ksyms[i - 1];

		if (addr < span->start || addr >= span->end)
			continue;
		if (time ? (span->t_start > time || time >= span->t_end) : span->t_end != TIME_OPEN)
			continue;
		if (!best || span->t_start > best->t_start)
			best = span;
	}
	return best ? best->map : NULL;
}

int machine__for_each_ksymbol(const struct machine *machine,
			      int (*fn)(const struct machine_ksymbol *ksym, void *arg), void *arg)
{
	size_t i;
	int ret;

	for (i = 0; i < machine->nr_ksyms; i++) {
		const struct ksym_span *span = &machine->ksyms[i];
		struct machine_ksymbol ks;

		/* the code-change report's regions are the KSYMBOLs and objects */
		if (span->ksym_type == KSYM_TYPE_MODULE)
			continue;
		ks = (struct machine_ksymbol){
		    .start = span->start,
		    .end = span->end,
		    .t_start = span->t_start,
		    .t_end = span->t_end,
		    .ksym_type = span->ksym_type,
		    .name = map__dso_short(span->map),
		};

		ret = fn(&ks, arg);
		if (ret)
			return ret;
	}
	return 0;
}

/* the text image over time is built elsewhere: here the pokes are kept */
static int machine__keep_text_poke(struct machine *machine, union perf_event *event,
				   struct perf_sample *sample)
{
	struct perf_record_text_poke *e = &event->text_poke;
	struct machine_text_poke *poke;
	size_t len;
	u8 *bytes;

	if (event->header.size < sizeof(*e))
		return -EINVAL;
	len = (size_t)e->old_len + e->new_len;
	if (len > event->header.size - sizeof(*e) || machine->nr_pokes >= MACHINE_TEXT_POKES_MAX) {
		machine->stats.nr_text_poke_dropped++;
		return 0;
	}
	if (machine->nr_pokes == machine->alloc_pokes) {
		size_t alloc = machine->alloc_pokes ? machine->alloc_pokes * 2 : 256;
		struct machine_text_poke *pokes = realloc(machine->pokes, alloc * sizeof(*pokes));

		if (!pokes)
			return -ENOMEM;
		machine->pokes = pokes;
		machine->alloc_pokes = alloc;
	}
	bytes = malloc(len ?: 1);
	if (!bytes)
		return -ENOMEM;
	memcpy(bytes, e->bytes, len);
	poke = &machine->pokes[machine->nr_pokes++];
	poke->time = sample_time(sample);
	poke->addr = e->addr;
	poke->old_len = e->old_len;
	poke->new_len = e->new_len;
	poke->bytes = bytes;
	return 0;
}

void machine__set_keep_text_pokes(struct machine *machine, bool keep)
{
	machine->keep_text_pokes = keep;
}

size_t machine__nr_text_pokes(const struct machine *machine)
{
	return machine->nr_pokes;
}

const struct machine_text_poke *machine__text_poke(const struct machine *machine, size_t idx)
{
	return idx < machine->nr_pokes ? &machine->pokes[idx] : NULL;
}

/* modules loaded while recording */

static int machine__add_module_range(struct machine *machine, const struct module_load *ml,
				     const struct module_range *range, size_t *span)
{
	struct dso *dso;
	struct map *map;
	int err;

	*span = SIZE_MAX;
	if (!range->len)
		return 0;
	dso = module_load__dso(ml, range);
	if (!dso)
		return -ENOMEM;
	map = map__new(range->addr, range->len, 0, dso);
	dso__put(dso);
	if (!map)
		return -ENOMEM;
	err = machine__add_span(machine, map, KSYM_TYPE_MODULE, ml->birth);
	map__put(map);
	if (err)
		return err;
	*span = machine->nr_ksyms - 1;
	machine->ksyms[*span].t_end = module_load__end(ml, range->addr);
	return 0;
}

static int machine__add_module_loads(struct machine *machine)
{
	size_t n = machine->mods.nr_loads;
	int err = 0;

	if (!n)
		return 0;
	machine->mod_spans = malloc(2 * n * sizeof(*machine->mod_spans));
	if (!machine->mod_spans)
		return -ENOMEM;
	for (size_t i = 0; i < n && !err; i++) {
		const struct module_load *ml = &machine->mods.loads[i];

		err = machine__add_module_range(machine, ml, &ml->core, &machine->mod_spans[2 * i]);
		if (!err)
			err = machine__add_module_range(machine, ml, &ml->init,
							&machine->mod_spans[2 * i + 1]);
	}
	return err;
}

/* a poke into a module that is loading moves its birth back: its spans with it */
static void machine__note_module_poke(struct machine *machine, union perf_event *event,
				      struct perf_sample *sample)
{
	struct perf_record_text_poke *e = &event->text_poke;

	if (event->header.size < sizeof(*e) ||
	    !module_events__note_poke(&machine->mods, e->addr, e->old_len, e->new_len,
				      sample_time(sample)))
		return;
	for (size_t i = 0; i < 2 * machine->mods.nr_loads; i++) {
		size_t s = machine->mod_spans[i];

		if (s != SIZE_MAX)
			machine->ksyms[s].t_start = machine->mods.loads[i / 2].birth;
	}
}

/* a module loaded before the recording that was freed by @time */
static bool machine__module_gone(const struct machine *machine, const struct dso *dso, u64 time)
{
	const char *name = dso->name;
	size_t n = strlen(name);

	if (!time || n < 3 || name[0] != '[')
		return false;
	for (size_t i = 0; i < machine->mods.nr_frees; i++) {
		const struct module_free *f = &machine->mods.frees[i];

		if (time >= f->time && strlen(f->name) == n - 2 &&
		    !strncmp(f->name, name + 1, n - 2))
			return true;
	}
	return false;
}

int machine__process_event(struct machine *machine, union perf_event *event,
			   struct perf_sample *sample)
{
	switch (event->header.type) {
	case PERF_RECORD_MMAP:
		return machine__process_mmap(machine, event, sample);
	case PERF_RECORD_MMAP2:
		return machine__process_mmap2(machine, event, sample);
	case PERF_RECORD_COMM:
		if (event->header.size < sizeof(event->comm))
			return -EINVAL;
		machine->stats.nr_comm++;
		return machine__process_comm(machine, event, sample);
	case PERF_RECORD_FORK:
		if (event->header.size < sizeof(event->fork))
			return -EINVAL;
		machine->stats.nr_fork++;
		return machine__process_fork(machine, event, sample);
	case PERF_RECORD_EXIT:
		if (event->header.size < sizeof(event->fork))
			return -EINVAL;
		machine->stats.nr_exit++;
		return machine__process_exit(machine, event);
	case PERF_RECORD_KSYMBOL:
		return machine__process_ksymbol(machine, event, sample);
	case PERF_RECORD_BPF_EVENT:
		machine->stats.nr_bpf_event++;
		return 0;
	case PERF_RECORD_TEXT_POKE:
		machine->stats.nr_text_poke++;
		machine__note_module_poke(machine, event, sample);
		return machine->keep_text_pokes ? machine__keep_text_poke(machine, event, sample) :
						  0;
	default:
		machine->stats.nr_ignored++;
		return 0;
	}
}

/* lookups */

void addr_location__init(struct addr_location *al)
{
	memset(al, 0, sizeof(*al));
	al->cpu = -1;
}

void addr_location__exit(struct addr_location *al)
{
	thread__put(al->thread);
	map__put(al->map);
	al->thread = NULL;
	al->map = NULL;
	al->sym = NULL;
}

static struct map *machine__find_kernel_map(struct machine *machine, u64 addr, u64 time)
{
	struct map *map = machine__find_ksym_map(machine, addr, time);

	if (map)
		return map;
	/* loading the symbols may stretch the kernel map: first things first */
	if (machine->kernel_map && !machine->kernel_loaded)
		machine__load_kernel_symbols(machine);
	/* no kernel MMAP, no kernel map: perf does not guess one either */
	map = maps__find(machine->kmaps, addr);
	if (map && map->dso->kind == DSO_KIND__MODULE &&
	    machine__module_gone(machine, map->dso, time))
		return NULL;
	return map;
}

bool machine__kernel_by_time(const struct machine *machine, u64 addr, const struct map *map)
{
	if (addr >= machine->ksym_lo && addr < machine->ksym_hi)
		return true;
	return map && map->dso && map->dso->kind == DSO_KIND__MODULE && machine->mods.nr_frees;
}

u64 machine__kmaps_gen(const struct machine *machine)
{
	return maps__gen(machine->kmaps);
}

/*
 * A callchain's frames are mostly the same few hundred addresses: each
 * lookup's answer is kept by the address and what thread__find_gen()
 * says it depends on, so a change of the maps is a miss, and a map kept
 * here lives as long as its maps' generation does.
 */
#define FIND_CACHE_SLOTS 4096

struct find_slot {
	u64 addr, gen, spans;
	struct map *map; /* no reference: its maps' generation holds one */
	struct symbol *sym;
	u64 map_addr;
	u8 cpumode;
};

static struct find_slot *find_cache__slot(struct machine *machine, u8 cpumode, u64 addr, u64 gen)
{
	u64 h = (addr ^ gen * 0x9e3779b97f4a7c15ULL ^ cpumode) * 0xff51afd7ed558ccdULL;

	if (!machine->find_cache) {
		machine->find_cache = calloc(FIND_CACHE_SLOTS, sizeof(*machine->find_cache));
		if (!machine->find_cache)
			return NULL;
	}
	return &machine->find_cache[(h >> 40) & (FIND_CACHE_SLOTS - 1)];
}

/* the kernel's lookups outside the spans: what they depend on, false: the time too */
static inline bool machine__kernel_gen(const struct machine *machine, u64 *gen, u64 *spans)
{
	if (!machine->kernel_loaded || machine->mods.nr_frees)
		return false;
	*gen = maps__gen(machine->kmaps);
	*spans = machine->nr_ksyms;
	return true;
}

static inline bool machine__in_spans(const struct machine *machine, u64 addr)
{
	return addr >= machine->ksym_lo && addr < machine->ksym_hi;
}

bool thread__find_gen(const struct thread *thread, u8 cpumode, u64 addr, u64 *gen, u64 *spans)
{
	const struct machine *machine = thread->machine;

	*spans = 0;
	if (cpumode == PERF_RECORD_MISC_USER) {
		*gen = thread->maps ? maps__gen(thread->maps) : 0;
		return *gen != 0;
	}
	return cpumode == PERF_RECORD_MISC_KERNEL && !machine__in_spans(machine, addr) &&
	       machine__kernel_gen(machine, gen, spans);
}

bool thread__chain_gen(const struct thread *thread, const struct ip_callchain *chain,
		       struct chain_gen *g)
{
	const struct machine *machine = thread->machine;
	bool user = false, kernel = false, in_kernel = false;

	memset(g, 0, sizeof(*g));
	for (u64 i = 0; i < chain->nr; i++) {
		u64 ip = chain->ips[i];

		/* perf's contexts: the kernel's and the user's; others (guests) are not kept */
		if (ip == PERF_CONTEXT_KERNEL || ip == PERF_CONTEXT_USER)
			in_kernel = ip == PERF_CONTEXT_KERNEL;
		else if (ip >= (u64)PERF_CONTEXT_MAX)
			return false;
		else if (!in_kernel)
			user = true;
		else if (machine__in_spans(machine, ip))
			return false;
		else
			kernel = true;
	}
	if (user && !(g->user = thread->maps ? maps__gen(thread->maps) : 0))
		return false;
	return !kernel || machine__kernel_gen(machine, &g->kernel, &g->spans);
}

bool thread__find_symbol(struct thread *thread, u8 cpumode, u64 addr, u64 time,
			 struct addr_location *al)
{
	struct machine *machine = thread->machine;
	struct find_slot *slot = NULL;
	struct map *map = NULL;
	u64 gen, spans;

	/* the frames of a callchain come with the same thread and mostly the same map */
	if (al->thread != thread) {
		thread__put(al->thread);
		al->thread = thread__get(thread);
	}
	al->sym = NULL;
	al->cpumode = cpumode;
	al->addr = addr;

	if (thread__find_gen(thread, cpumode, addr, &gen, &spans))
		slot = find_cache__slot(machine, cpumode, addr, gen);
	if (slot && slot->gen == gen && slot->spans == spans && slot->addr == addr &&
	    slot->cpumode == cpumode) {
		if (al->map != slot->map) {
			map__put(al->map);
			al->map = map__get(slot->map);
		}
		if (slot->map)
			al->addr = slot->map_addr;
		al->sym = slot->sym;
		return al->sym != NULL;
	}

	switch (cpumode) {
	case PERF_RECORD_MISC_KERNEL:
		map = machine__find_kernel_map(machine, addr, time);
		break;
	case PERF_RECORD_MISC_USER:
		map = thread->maps ? maps__find(thread->maps, addr) : NULL;
		/*
		 * A user-mode IP at a kernel address (a sample taken on the
		 * way into the kernel) stays unresolved, as in perf 6.1
		 */
		break;
	default:
		/* hypervisor and guests: no model of those */
		break;
	}
	if (al->map != map) {
		map__put(al->map);
		al->map = map__get(map);
	}
	if (map) {
		al->addr = map__map_ip(map, addr);
		machine__load_dso(machine, map->dso);
		al->sym = dso__find_symbol(map->dso, al->addr);
	}
	if (slot)
		*slot = (struct find_slot){
		    .addr = addr,
		    .gen = gen,
		    .spans = spans,
		    .map = map,
		    .sym = al->sym,
		    .map_addr = al->addr,
		    .cpumode = cpumode,
		};
	return al->sym != NULL;
}

struct map *thread__find_map(struct thread *thread, u8 cpumode, u64 addr, u64 time)
{
	struct machine *machine = thread->machine;
	struct map *map;

	switch (cpumode) {
	case PERF_RECORD_MISC_KERNEL:
		/* no kallsyms read: the kernel MMAP's span is what is asked */
		map = machine__find_ksym_map(machine, addr, time);
		if (map)
			return map;
		map = maps__find(machine->kmaps, addr);
		if (map && map->dso->kind == DSO_KIND__MODULE &&
		    machine__module_gone(machine, map->dso, time))
			return NULL;
		return map;
	case PERF_RECORD_MISC_USER:
		return thread->maps ? maps__find(thread->maps, addr) : NULL;
	default:
		return NULL;
	}
}

int machine__mark_hit(struct machine *machine, const struct perf_sample *sample, struct map **newly)
{
	struct thread *thread = machine__findnew_thread(machine, sample->pid, sample->tid);
	struct map *map;

	*newly = NULL;
	if (!thread)
		return -ENOMEM;
	/* the ip only, not the callchain: what perf marks */
	map = thread__find_map(thread, sample->cpumode, sample->ip, sample->time);
	thread__put(thread);
	if (!map || !map->dso || map->dso->hit)
		return 0;
	map->dso->hit = true;
	*newly = map;
	return 0;
}

int machine__resolve(struct machine *machine, struct addr_location *al, struct perf_sample *sample)
{
	struct thread *thread = machine__findnew_thread(machine, sample->pid, sample->tid);

	if (!thread)
		return -ENOMEM;
	thread__find_symbol(thread, sample->cpumode, sample->ip, sample->time, al);
	al->cpu = sample->cpu;
	thread__put(thread);
	return 0;
}

/* the first span of each object made by a span (not found by name), by serial */
static int machine__index_spans(struct machine *machine)
{
	size_t nr = 0;
	long *tab;

	if (machine->span_by_serial && machine->span_by_serial_nr == machine->nr_ksyms)
		return 0;
	for (size_t i = 0; i < machine->nr_ksyms; i++)
		if (machine->ksyms[i].map->dso->serial >= nr)
			nr = machine->ksyms[i].map->dso->serial + 1;
	tab = malloc((nr ?: 1) * sizeof(*tab));
	if (!tab)
		return -ENOMEM;
	for (size_t i = 0; i < nr; i++)
		tab[i] = -1;
	for (size_t i = machine->nr_ksyms; i-- > 0;) {
		struct dso *dso = machine->ksyms[i].map->dso;

		if (dsos__find(&machine->dsos, dso->name) != dso)
			tab[dso->serial] = i;
	}
	free(machine->span_by_serial);
	machine->span_by_serial = tab;
	machine->nr_span_by_serial = nr;
	machine->span_by_serial_nr = machine->nr_ksyms;
	return 0;
}

long machine__dso_ksym_index(struct machine *machine, const struct dso *dso)
{
	if (machine__index_spans(machine) || dso->serial >= machine->nr_span_by_serial)
		return -1;
	return machine->span_by_serial[dso->serial];
}

bool machine__dso_ksym_birth(struct machine *machine, const struct dso *dso, u64 *time)
{
	long i = machine__dso_ksym_index(machine, dso);

	if (i < 0 || (size_t)i >= machine->nr_ksyms)
		return false;
	*time = machine->ksyms[i].t_start;
	return true;
}

struct dso *machine__lookup_dso(struct machine *machine, const char *name, long ksym_index)
{
	struct dso *dso;

	if (ksym_index >= 0) {
		if ((size_t)ksym_index >= machine->nr_ksyms)
			return NULL;
		dso = machine->ksyms[ksym_index].map->dso;
	} else {
		dso = dsos__find(&machine->dsos, name);
	}
	return dso && !strcmp(dso->name, name) ? dso : NULL;
}

struct dso *machine__find_dso(struct machine *machine, const char *name, long ksym_index)
{
	struct dso *dso = machine__lookup_dso(machine, name, ksym_index);

	if (dso)
		machine__load_dso(machine, dso);
	return dso;
}
