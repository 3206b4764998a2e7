/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_MODULE_EVENTS_H
#define __PERF_TEXTPOKE_MODULE_EVENTS_H

#include "types.h"

/*
 * Kernel modules that came or went while a recording ran, as perf
 * textpoke record keeps them in the recording's kcore_dir:
 *
 *   kcore_dir/module_events      one line per load, one per unload of a
 *                                module loaded before the recording
 *   kcore_dir/module.<N>.kcore   load N's code, read from /proc/kcore at
 *                                once: an ELF core, one PT_LOAD per range
 *   kcore_dir/module.<N>.kallsyms  load N's lines of /proc/kallsyms
 *
 * The kernel says nothing of a module load in the records perf reads (no
 * MMAP, no KSYMBOL), and its code cannot be pinned while it is read:
 * nothing stops an unload.  So the recorder follows the module:
 * tracepoints on a ring of its own and keeps the times: the load, the
 * read of the code (two COMM records of its own thread bracket it, on
 * perf's clock), the drop of the initial reference after the module's
 * init function ran (module_put from do_init_module: the init sections
 * may be freed from then on), and the free.  Which bytes can be trusted
 * follows from those times (module_load__code_ok()).
 *
 * Stock perf reads kcore_dir/{kcore,kallsyms,modules} only and passes
 * over these files; a feature section would not do, as perf 6.1's inject
 * indexes its feature table by any feature id it finds (a crash past the
 * end), and a user record type it does not know stops its reading.
 *
 * An index line (times in ns of the recording's clock, addresses and
 * sizes as 0x hex or decimal; keys in any order, unknown ones skipped):
 *
 *   load <N> <name> <time> core=<addr>+<size> text=<addr>+<size>
 *        init=<addr>+<size> init_text=<addr>+<size> read=<from>-<to>
 *        init_end=<time> free=<time>
 *   free <name> <time>
 *
 * core and init are the module's two allocations, text and init_text
 * their code (the leading part of each); read is missing when no code
 * was read (no /proc/kcore, or the module was gone), init_end and free
 * when the recording ended first.
 */

#define MODULE_EVENTS_FILE "module_events"
#define MODULE_NAME_MAX 64 /* the kernel's MODULE_NAME_LEN is 56 */
#define MODULE_TIME_NONE (~0ULL)

struct module_range {
	u64 addr;
	u64 len;
};

static inline bool module_range__has(const struct module_range *r, u64 addr)
{
	return r->len && addr >= r->addr && addr - r->addr < r->len;
}

struct kcore;

struct module_load {
	unsigned int seq; /* N of its files */
	char name[MODULE_NAME_MAX];
	u64 time; /* module:module_load */
	struct module_range core, text, init, init_text;
	u64 read_from, read_to; /* MODULE_TIME_NONE: no code read */
	u64 init_end;		/* MODULE_TIME_NONE: still in its init at the end */
	u64 free_time;		/* MODULE_TIME_NONE: loaded at the end */
	/* reader only: the code file, NULL when none or unreadable */
	struct kcore *code;
	char *kallsyms; /* the path of its kallsyms lines, NULL when none */
	/*
	 * reader only: since when its memory is its own (module_events__note_poke()),
	 * and what came or went over its ranges before it loaded
	 */
	u64 birth;
	u64 floor;
	/* reader only: the kcore copy saw it loaded (its bytes there are its own) */
	bool in_copy;
};

/* a module loaded before the recording began, freed during it */
struct module_free {
	char name[MODULE_NAME_MAX];
	u64 time;
	/* reader only: where it was, from kcore_dir/modules (len 0: not listed) */
	struct module_range range;
};

/* a line of a /proc/modules copy: a module and its core allocation */
struct module_line {
	char name[MODULE_NAME_MAX];
	struct module_range core;
};

/*
 * The lines of @path (a kcore_dir's modules), malloc'ed into *@lines;
 * their number, or -errno (-ENOENT: no such file)
 */
int modules_file__read(const char *path, struct module_line **lines);

struct module_events {
	struct module_load *loads; /* in load time order */
	size_t nr_loads, alloc_loads;
	struct module_free *frees;
	size_t nr_frees, alloc_frees;
	u64 lo, hi; /* reader only: the bounds of all their ranges */
	/*
	 * reader only: the recording has the index, so its recorder watched
	 * module loads (perf textpoke record writes it, empty or not, whenever
	 * it did); without it a module loaded while recording is unseen
	 */
	bool captured;
};

void module_events__init(struct module_events *me);
void module_events__exit(struct module_events *me);

/*
 * kcore_dir/module_events of @kcore_dir and the files it names: 0 (an
 * absent index is no module event), -ENOMEM.  A line that cannot be read
 * is skipped with a warning naming the file and line; a code file that
 * cannot be read leaves that load's code unknown, said the same way.
 */
int module_events__read(struct module_events *me, const char *kcore_dir);

/*
 * Whether load @ml's code read from /proc/kcore is the module's: read
 * before the module began to go away, and for the init sections (@init)
 * before the init code could be freed.  A module may go at any moment
 * while it is read; what was read then may be zeros or another
 * allocation's bytes.
 */
bool module_load__code_ok(const struct module_load *ml, bool init);

/*
 * The moment load @ml's range that holds @addr stops being its code:
 * init_end (else free_time) for the init allocation, free_time for the
 * rest; MODULE_TIME_NONE when it outlived the recording.
 */
u64 module_load__end(const struct module_load *ml, u64 addr);

/*
 * When each load's memory became its own.  The kernel patches a module
 * (static calls, jump labels) while it is coming, before
 * module:module_load fires: such a poke lands in memory that is already
 * the module's.  Fed every TEXT_POKE in time order (a reader's pass over
 * the side-band), each load's birth becomes the first poke that changed
 * code in its ranges (old and new bytes both) at or before its load and
 * after anything else there ended: a KSYMBOL coming or going, code that
 * came or went (an old_len or new_len 0 poke), an earlier load's free.
 * Returns whether a birth moved.
 */
bool module_events__note_poke(struct module_events *me, u64 addr, u16 old_len, u16 new_len,
			      u64 time);
/* a KSYMBOL over [@addr, +@len) registered or unregistered at @time */
void module_events__note_end(struct module_events *me, u64 addr, u64 len, u64 time);

/* the load whose ranges hold @addr at @time, NULL if none */
const struct module_load *module_events__find(const struct module_events *me, u64 addr, u64 time);

/*
 * Whether @addr lies where modules came or went (a load's ranges, a
 * freed module's), and then whether one was there at @time
 */
bool module_events__dynamic(const struct module_events *me, u64 addr);
bool module_events__live(const struct module_events *me, u64 addr, u64 time);

/*
 * Clears @known for the bytes of [@addr, +@len) that lie where modules
 * came or went and where none was at @time: nothing was mapped there.
 * Returns how many it cleared.
 */
size_t module_events__mask(const struct module_events *me, u64 addr, size_t len, u64 time,
			   u8 *known);

/*
 * The recorder's side: @me's index into @kcore_dir/module_events (the
 * code and kallsyms files are the recorder's to write); 0 or -errno.
 */
int module_events__write(const struct module_events *me, const char *kcore_dir);

/* appending; 0 or -ENOMEM */
int module_events__add_load(struct module_events *me, const struct module_load *ml);
int module_events__add_free(struct module_events *me, const char *name, u64 time);

#endif /* __PERF_TEXTPOKE_MODULE_EVENTS_H */
